"""word-context: a real word in the wrong place (Swedish "bar" for "har", "eu" for "en"),
found by the word pairs of the same version: in a print read by OCR, a word whose pairs with
its neighbours the version seldom repeats, one cheap OCR confusion away from a word whose
pairs with the same neighbours it repeats many times as often, is that word.

The evidence is the version's own bigram table (wordfreq has no n-grams, and a table made
from other treaties would carry their vocabulary into this one): a treaty repeats its
phrases ("det har", "fr. o. m.") often enough for a misread one to stand out.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import pairwise

from ..models import Change, Line
from .candidates import channel, recase, variants
from .context import Normaliser
from .document import Fix

#: The pairs of the reading with the neighbours: seen at least this often in the version.
CONTEXT_MIN = 3
#: ... and this many times as often as the printed word's pairs with them.
CONTEXT_RATIO = 3
#: The printed word: seen at most this often in the version.
RARE_WORD = 10
#: Cheapest OCR confusion considered, and the least frequency of the reading.
MAX_COST = 0.8
READING_ZIPF = 3.0

Bigrams = Counter[tuple[str, str]]


_WORD = re.compile(r"[^\W\d_]+")


def _words(line: Line) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in _WORD.finditer(line.text)]


def _tables(lines: Sequence[Line]) -> tuple[Counter[str], Bigrams]:
    unigrams: Counter[str] = Counter()
    bigrams: Bigrams = Counter()
    for line in lines:
        toks = [w.lower() for _, _, w in _words(line)]
        unigrams.update(toks)
        bigrams.update(pairwise(toks))
    return unigrams, bigrams


def _support(prev: str | None, word: str, nxt: str | None, bigrams: Bigrams) -> int:
    return (bigrams[prev, word] if prev else 0) + (bigrams[word, nxt] if nxt else 0)


def _readings(word: str, nz: Normaliser) -> list[str]:
    """The common words one cheap OCR confusion from `word` (spellings that cannot grow into
    a word of the lexicon are not followed)."""
    found = variants(word, channel(nz.lang, False), frozenset(), nz.chooser.grows)
    return [cand for cand, cost in found.items()
            if cost <= MAX_COST and cand.isalpha() and nz.lex.freq(cand) >= READING_ZIPF]


def _reading(word: str, prev: str | None, nxt: str | None, readings: list[str],
             bigrams: Bigrams) -> tuple[str, int] | None:
    """The reading of `word` (of `readings`) its neighbours support, with that support."""
    # the printed word's pairs elsewhere (this occurrence's own pairs left out)
    printed = _support(prev, word, nxt, bigrams) - (prev is not None) - (nxt is not None)
    best = None
    for cand in readings:
        support = _support(prev, cand, nxt, bigrams)
        if support >= max(CONTEXT_MIN, CONTEXT_RATIO * printed) and (
                best is None or support > best[1]):
            best = (cand, support)
    return best


def word_context(lines: Sequence[Line], nz: Normaliser, others: Sequence[Normaliser],
                 noisy: bool) -> dict[int, list[Fix]]:
    """The fixes of the step, by line index (see the module's doc)."""
    if not noisy:
        return {}
    unigrams, bigrams = _tables(lines)
    fixes: dict[int, list[Fix]] = defaultdict(list)
    readings: dict[str, list[str]] = {}  # per word of the version
    for k, line in enumerate(lines):
        words = _words(line)
        low = [w.lower() for _, _, w in words]
        for i, (a, b, word) in enumerate(words):
            if unigrams[low[i]] > RARE_WORD or nz.lex.freq(low[i]) < 1.0:
                continue
            prev = low[i - 1] if i else None
            nxt = low[i + 1] if i + 1 < len(low) else None
            if low[i] not in readings:
                readings[low[i]] = _readings(low[i], nz)
            got = _reading(low[i], prev, nxt, readings[low[i]], bigrams) \
                if readings[low[i]] else None
            if got is None:
                continue
            after = recase(got[0], word)
            why = (f"'{got[0]}' beside '{prev or ''} … {nxt or ''}' {got[1]} times in this "
                   f"version, '{word}' only here")
            fixes[k].append(Fix(a, b, after, Change("word-context", word, after, why)))
    return fixes
