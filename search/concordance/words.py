"""Texts as the concordance reads them: a run of words, each with its index term (stem,
accents folded, Chinese folded to Simplified) and its span in the text, cut where
punctuation stands between two words; and the places a term occurs in a text.

A Chinese text is read as the longest word the segmenter finds at each position (its
search-mode sub-words are the index's business, not a translator's).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from indexer.index.analysis import analyse

#: What may stand between two words of one rendering: blanks, hyphens, apostrophes, quotes.
_GLUE = re.compile(r"[\s\-‐‑'’‘\"“”«»»]*")


@dataclass(frozen=True, slots=True)
class Word:
    term: str
    start: int
    end: int


def words(text: str, lang: str) -> list[Word]:
    """The words of `text` in order (Chinese: the longest at each position; the analysis's
    tokens, which have a term, a start and an end as a Word has, elsewhere)."""
    tokens = analyse(text, lang)
    if lang != "zh":
        return tokens  # (one token a position)
    longest: dict[int, Word] = {}
    for t in tokens:
        best = longest.get(t.pos)
        if best is None or t.end - t.start > best.end - best.start:
            longest[t.pos] = Word(t.term, t.start, t.end)
    return [longest[p] for p in sorted(longest)]


def runs(text: str, ws: Sequence[Word]) -> list[list[Word]]:
    """`ws` cut where anything but blanks, hyphens, apostrophes or quotes stands between two
    words (a rendering never spans a comma, a full stop or a bracket)."""
    out: list[list[Word]] = []
    for w in ws:
        if out and _GLUE.fullmatch(text[out[-1][-1].end:w.start]):
            out[-1].append(w)
        else:
            out.append([w])
    return out


def find(text: str, lang: str, terms: Sequence[str]) -> list[tuple[int, int]]:
    """The spans of `text` where the words `terms` (index terms) stand in a row."""
    ws = words(text, lang)
    n = len(terms)
    out = []
    for i in range(len(ws) - n + 1):
        if all(ws[i + k].term == terms[k] for k in range(n)):
            out.append((ws[i].start, ws[i + n - 1].end))
    return out


def term_words(term: str, lang: str) -> list[str]:
    """The index terms of a term as typed, in order ("beneficial owners" -> beneficial,
    owner)."""
    return [w.term for w in words(term, lang)]
