"""One language stream being segmented: its lines, what is read off each line once (article
heading, paragraph label, topic evidence), and the caller's choices. Made by `segment` and
passed to every step that reads the stream."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from indexer.models import Line
from indexer.segment.lines import Heading, Label, article_heading
from indexer.segment.numerals import paragraph_label
from indexer.topics import LineScores


@dataclass(frozen=True)
class Stream:
    lines: Sequence[Line]
    texts: Sequence[str]  # each line's text
    lang: str
    heads: dict[int, Heading]  # the article headings, by line
    labels: Sequence[Label | None]  # each line's `paragraph_label`
    scores: LineScores  # topic evidence of the lines
    article: int | None  # the number of the first article, when the caller knows it
    topics: bool  # classify each article's topic (else the caller does)


def read_stream(lines: Sequence[Line], lang: str, *, article: int | None, topics: bool) -> Stream:
    texts = [ln.text for ln in lines]
    heads = {i: h for i, t in enumerate(texts) if (h := article_heading(t)) is not None}
    scores = LineScores(texts, lang)
    labels = [paragraph_label(t) for t in texts]
    return Stream(lines, texts, lang, heads, labels, scores, article, topics)
