"""The document's numbering on its lines as printed, before the clean stage joins wrapped
lines into paragraphs: which lines are headings, which open a numbered paragraph or point,
and which heading was printed over two lines ("ARTICLE" / "5")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from indexer.segment.numbering.families import families, is_head
from indexer.segment.numbering.noisy import read_noisy
from indexer.segment.numbering.reading import MIN_RUN, article_families, labels_of, reading_with
from indexer.segment.numbering.tokens import Form, Token, words_number

#: A line that is one word alone (markup aside): a heading's word whose number the next line
#: holds.
_LONE_WORD = re.compile(r"^[ \t]*(?:#{1,6}[ \t]*)?(?:(?:\*{1,3}|_{1,3})[ \t]*)?([^\W\d_]{2,20}\.?)"
                        r"[ \t]*(?:(?:\*{1,3}|_{1,3})[ \t]*)?$")


#: The longest line `_LONE_WORD` is tried on (a word of 20 letters and markup).
_LONE_WORD_LEN = 40


@dataclass(frozen=True)
class Structure:
    """Lines (indexes) of a print: `heads` of every article and chapter level, `starts` of
    numbered paragraphs and points, `joins` each the first of a heading printed over two
    lines (its word, then its number)."""

    heads: frozenset[int] = frozenset()
    starts: frozenset[int] = frozenset()
    joins: frozenset[int] = frozenset()


def structure_lines(texts: Sequence[str], runs_on: Sequence[bool], filled: Sequence[bool]
                    ) -> Structure:
    """The `Structure` of lines `texts` as a document prints them, before they are joined
    into paragraphs and split by language: the lines of every article level (each language
    version, each instrument may head its articles its own way) with their chapter
    headings, and the lines that open a numbered paragraph or point.

    `runs_on`: does a wrapped text run on from each line into the next (`clean`)? On a line
    it runs on to, a bare number without punctuation is no label, and any other label is
    weak (a level's chain takes it only where no label of that number starts an item).
    `filled`: does it run on from a line it filled: such a line heads nothing (a paragraph's
    first line, however much its words look like a title)."""
    found = labels_of(texts)
    labels = []
    for k, tokens in enumerate(found):
        starts_item = k == 0 or not runs_on[k - 1]
        # (a line the next line's label follows runs on into nothing: a long heading)
        fills = filled[k] and not (k + 1 < len(found) and found[k + 1])
        kept = [t for t in tokens if starts_item or t.form.close or t.form.word or t.form.open
                or t.form.kind == "decimal"]
        if kept and (fills or not starts_item):
            kept = [t._replace(weak=not starts_item, runs_on=fills) for t in kept]
        labels.append(kept)
    split = _split_headings(texts, labels)
    for k, token in split.items():
        labels[k] = [*labels[k], token]
    fams = list(read_noisy(families(labels), texts).values())
    heads: set[int] = set()
    starts: set[int] = set()
    for art in article_families(fams, frozenset()):
        placed = sum(line in heads or line in starts for line, _t in art.members)
        if art.longest() < MIN_RUN or 2 * placed > len(art.members):
            continue  # (a level read already, as another family's chapters or paragraphs)
        reading = reading_with(fams, art)
        if reading is not None:
            heads |= set(reading.articles) | set(reading.chapters)
            starts |= set(reading.paragraphs) | set(reading.points)
    joins = frozenset(k for k in split if k in heads and split[k] in labels[k])
    starts -= heads | {k + 1 for k in joins}
    return Structure(frozenset(heads), frozenset(starts), joins)


def _split_headings(texts: Sequence[str], labels: Sequence[Sequence[Token]]) -> dict[int, Token]:
    """Headings printed over two lines, their word alone on one ("ARTICLE") and their number
    on the next ("5", "V.", "5 Dividends"): a reading of the first line as the word and the
    number together, by line."""
    out: dict[int, Token] = {}
    for k in range(len(texts) - 1):
        if not texts[k] or len(texts[k]) > _LONE_WORD_LEN or not texts[k + 1]:
            continue
        m = _LONE_WORD.match(texts[k])
        if m is None or labels[k]:
            continue  # (a word that is itself a number, "II", heads its own line)
        word = m.group(1)
        under = labels[k + 1] or [t for t in [words_number(texts[k + 1])] if t is not None]
        for tok in under:
            form = tok.form
            if (form.bare() and not form.open and form.kind not in ("alpha", "ALPHA", "decimal")
                    and is_head(tok)):  # the number alone, or before a title
                out[k] = tok._replace(form=Form(word.lower(), form.kind, "", form.close,
                                                capitals=word.isupper()), upper=word.isupper())
                break
    return out
