"""Snippets: a window of a hit's text around its matched terms, the terms in <b>…</b>. The
offsets come from our analysers, not from an engine, so every engine highlights alike.

A long text is not analysed whole for a snippet: it is read in pieces of SCAN_PIECE
characters (cut at a space), up to SCAN_LIMIT characters, until a piece holds a match; the
snippet is made from that piece (or, with no match so far, from the start of the text)."""

from __future__ import annotations

import html
from bisect import bisect_left
from collections.abc import Callable
from functools import lru_cache

from indexer.index.analysis import analyse
from indexer.index.query_syntax import analyser_lang
from indexer.models import IndexDoc

__all__ = ["SNIPPET_WIDTH", "make_snippet"]

#: Characters of text a snippet shows (at most; it ends at word boundaries).
SNIPPET_WIDTH = 240
#: How far from its ends a window may move to begin or end at a space.
_SPACE_REACH = 20
#: Characters of a text analysed at a time for its snippet, and at most in all.
SCAN_PIECE = 10_000
SCAN_LIMIT = 200_000


@lru_cache(maxsize=4096)
def _offsets(text: str, lang: str) -> tuple[tuple[str, int, int], ...]:
    """(term, start, end) of each token of `text`, in text order."""
    toks = sorted(analyse(text, lang), key=lambda t: (t.start, t.end))
    return tuple((t.term, t.start, t.end) for t in toks)


def make_snippet(doc: IndexDoc, match: Callable[[str], bool], width: int = SNIPPET_WIDTH) -> str:
    """HTML snippet of `doc.text` around the tokens whose term satisfies `match`, each in
    <b>…</b>: the text escaped, "…" where it is cut."""
    text, spans, offset = _scanned(doc.text, analyser_lang(doc.lang), match)
    lo, hi = _window(text, spans, width) if len(text) > width else (0, len(text))
    parts = ["…" if lo + offset > 0 else ""]
    cur = lo
    for s, e in spans:
        if e <= lo or s >= hi:
            continue
        s, e = max(s, lo), min(e, hi)
        parts.append(html.escape(text[cur:s], quote=False))
        parts.append(f"<b>{html.escape(text[s:e], quote=False)}</b>")
        cur = e
    parts.append(html.escape(text[cur:hi], quote=False))
    parts.append("…" if offset + hi < len(doc.text) else "")
    return "".join(parts)


def _scanned(text: str, alang: str, match: Callable[[str], bool]
             ) -> tuple[str, list[list[int]], int]:
    """(the piece of `text` the snippet is made from, its matched spans, where it starts in
    `text`): the whole text when short, else the first piece with a match (see the module's
    doc)."""
    if len(text) <= SCAN_PIECE:
        return text, _matched_spans(text, alang, match), 0
    start = 0
    while start < min(len(text), SCAN_LIMIT):
        end = min(len(text), start + SCAN_PIECE)
        if end < len(text) and (sp := text.rfind(" ", start + SCAN_PIECE // 2, end)) != -1:
            end = sp
        piece = text[start:end]
        spans = _matched_spans(piece, alang, match)
        if spans:
            return piece, spans, start
        start = end
    return text[:SCAN_PIECE], [], 0


def _matched_spans(text: str, alang: str, match: Callable[[str], bool]) -> list[list[int]]:
    """The [start, end] spans of the matched tokens of `text`, overlapping ones merged."""
    spans: list[list[int]] = []
    for term, start, end in _offsets(text, alang):
        if not match(term):
            continue
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    return spans


def _window(text: str, spans: list[list[int]], width: int) -> tuple[int, int]:
    """The (lo, hi) window of `text`, at most `width` long, that shows the most spans: it
    begins a little before the span that starts the window with the most span starts in it
    (the first such), or at the start; both ends moved to a space when one is near."""
    lo = 0
    if spans:
        # Starts are strictly increasing, so the count in each window is a bisection.
        starts = [s[0] for s in spans]
        best, most = 0, 0
        for i, st in enumerate(starts):
            n = bisect_left(starts, st + width, i) - i
            if n > most:
                best, most = i, n
        lo = max(0, spans[best][0] - width // 6)
    hi = min(len(text), lo + width)
    if lo > 0 and (sp := text.find(" ", lo, lo + _SPACE_REACH)) != -1:
        lo = sp + 1
    if hi < len(text) and (sp := text.rfind(" ", hi - _SPACE_REACH, hi)) != -1:
        hi = sp
    return lo, hi
