"""One language stream being segmented: its lines, what is read off each line once (article
heading, paragraph label, topic evidence), and the caller's choices. Made by `segment` and
passed to every step that reads the stream.

`texts` is the view of the lines the steps decide on (`view.read_view`: the document's own
numbering in the forms the steps know); units are made of `lines`, the text as printed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from indexer.models import Line
from indexer.segment.lines import Heading, Label
from indexer.segment.numerals import paragraph_label
from indexer.segment.view import read_view
from indexer.topics import LineScores


@dataclass(frozen=True)
class Stream:
    lines: Sequence[Line]
    texts: Sequence[str]  # each line's text as the steps read it (the view)
    lang: str
    heads: dict[int, Heading]  # the article headings, by line
    labels: Sequence[Label | None]  # each line's `paragraph_label`
    scores: LineScores  # topic evidence of the lines
    article: int | None  # the number of the first article, when the caller knows it
    topics: bool  # classify each article's topic (else the caller does)


def read_stream(lines: Sequence[Line], lang: str, *, article: int | None, topics: bool) -> Stream:
    texts, heads = read_view([ln.text for ln in lines])
    scores = LineScores(texts, lang)
    labels = [paragraph_label(t) for t in texts]
    return Stream(lines, texts, lang, heads, labels, scores, article, topics)
