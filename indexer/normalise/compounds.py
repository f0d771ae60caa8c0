"""Compounds the version spells once, misread in one of their parts (in a print read by
OCR): Swedish joins words
(``beskattnings|intressen``), so a misread compound is often a word no version spells again,
while its parts are what the version spells all the time. Part of document-vocabulary.

A long unknown token is split where one part is established and the other is not:
- an established head (at least HEAD_TYPES different words of the version start with it)
  and a tail that is no word: the tail is read as the lexicon word within the OCR cost
  (``avtals|förinån`` -> ``avtals|förmån``, ``beskattnings|myndighelen`` -> ``…myndigheten``);
- a tail that is a word and a head no other word of the version starts with: the head is
  read as an established head within the OCR cost (``beskatlnings|intressen`` ->
  ``beskattnings|intressen``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .candidates import KNOWN, fold
from .context import Normaliser
from .distance import allowance, extends, ocr_cost

#: Tokens this long or longer are looked at as compounds.
MIN_COMPOUND = 10
#: A part is at least this long.
MIN_PART = 4
#: An established head starts at least this many different words of the version.
HEAD_TYPES = 3
#: A word a tail is read as: at least this common.
TAIL_ZIPF = 3.0


def heads(types: Iterable[str]) -> Counter[str]:
    """How many different words of `types` start with each prefix of MIN_PART letters or
    more (their last MIN_PART letters left out)."""
    out: Counter[str] = Counter()
    for w in types:
        for i in range(MIN_PART, len(w) - MIN_PART + 1):
            out[w[:i]] += 1
    return out


def _tail_reading(tail: str, nz: Normaliser, noisy: bool) -> tuple[str, float] | None:
    from symspellpy import Verbosity

    best = None
    for s in nz.lex.symspell.lookup(tail, Verbosity.ALL, 2):
        cand = s.term
        if not cand.isalpha() or nz.lex.freq(cand) < TAIL_ZIPF or extends(tail, cand):
            continue
        limit = allowance(cand, noisy)
        cost = ocr_cost(tail, cand, nz.lang, limit)
        if cost <= limit and (best is None or cost < best[1]):
            best = (cand, cost)
    return best


def _head_reading(head: str, established: Counter[str], nz: Normaliser,
                  noisy: bool) -> tuple[str, float] | None:
    best = None
    for cand, n in established.items():
        if n < HEAD_TYPES or abs(len(cand) - len(head)) > 1 or fold(cand[:2]) != fold(head[:2]):
            continue
        limit = allowance(cand, noisy)
        cost = ocr_cost(head, cand, nz.lang, limit)
        if 0 < cost <= limit and (best is None or cost < best[1]):
            best = (cand, cost)
    return best


def _sound(low: str, splits: list[tuple[str, str]], known: dict[str, bool],
           counts: Counter[str], established: Counter[str], nz: Normaliser) -> bool:
    """Is `low` a compound as it should be: an established head and a word, or two words
    (a short first one too: vid|tagandet)?"""
    if any(established[head] >= HEAD_TYPES and known[tail] for head, tail in splits):
        return True
    return any(nz.lex.freq(low[:i]) >= TAIL_ZIPF
               and (nz.lex.freq(low[i:]) >= KNOWN or counts[low[i:]] > 0)
               for i in range(2, len(low) - 2))


def _readings(splits: list[tuple[str, str]], known: dict[str, bool],
              established: Counter[str], nz: Normaliser, noisy: bool
              ) -> list[tuple[float, str, str]]:
    """(cost, compound, reason) of each split with one part established and one not."""
    found = []
    for head, tail in splits:
        if established[head] >= HEAD_TYPES and not known[tail]:
            got = _tail_reading(tail, nz, noisy)
            if got:
                why = f"'{head}' begins {established[head]} words of this version; '{got[0]}' a word"
                found.append((got[1], head + got[0], why))
        elif known[tail] and nz.lex.freq(tail) >= TAIL_ZIPF and established[head] <= 1:
            got = _head_reading(head, established, nz, noisy)
            if got:
                why = f"'{got[0]}' begins {established[got[0]]} words of this version; '{tail}' a word"
                found.append((got[1], got[0] + tail, why))
    return found


def compound_reading(low: str, counts: Counter[str], established: Counter[str],
                     nz: Normaliser, noisy: bool) -> tuple[str, str] | None:
    """The compound `low` (an unknown token of the version) stands for, with the reason."""
    if len(low) < MIN_COMPOUND or not low.isalpha() or nz.lex.freq(low) >= KNOWN:
        return None
    splits = [(low[:i], low[i:]) for i in range(MIN_PART, len(low) - MIN_PART + 1)]
    known = {tail: nz.lex.freq(tail) >= KNOWN or counts[tail] > 0 for _, tail in splits}
    if _sound(low, splits, known, counts, established, nz):
        return None
    found = sorted(_readings(splits, known, established, nz, noisy))
    if not found:
        return None
    cost, word, why = found[0]
    if any(w != word and c - cost < 0.15 for c, w, _ in found[1:]):
        return None
    return word, f"{why}; OCR cost {cost:.1f}"
