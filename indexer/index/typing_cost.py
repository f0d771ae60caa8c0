"""How likely a typist is to have typed one word for another: a weighted edit distance for
ranking "did you mean" alternatives that are equally few plain edits away.

Typing errors are mostly one letter left out or doubled, two letters swapped, or a
neighbouring key hit (Damerau 1964; Kukich 1992). A substitution of a key far from the
intended one is rarer than any of these, unless both letters are vowels (a spelling, not a
typing, slip: "studants") or differ only by an accent ("pensao"). So "pensons" is nearer to
"pensions" (an i left out) than to "persons" (n for r, keys apart).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

#: Cost of a letter left out, added, or two neighbouring letters swapped.
EDIT = 1.0
#: Cost of one letter for another: a neighbouring key or another vowel, and any other key.
NEAR_KEY = 1.0
FAR_KEY = 1.5
#: Cost of a letter for the same letter with (or without) an accent.
ACCENT = 0.5

#: The letter rows of a QWERTY keyboard (the Portuguese and Swedish layouts share them; their
#: extra letters sit at the right end and are accented forms, costed as ACCENT).
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
#: How far each row starts to the right of the one above's first key, in keys.
_STAGGER = (0.0, 0.25, 0.75)
_VOWELS = frozenset("aeiouy")


def _positions() -> dict[str, tuple[int, float]]:
    """Each letter's (row, distance from the left edge in keys)."""
    return {ch: (r, _STAGGER[r] + c) for r, row in enumerate(_ROWS) for c, ch in enumerate(row)}


_KEYS = _positions()


def _base(ch: str) -> str:
    return unicodedata.normalize("NFD", ch)[:1]


def substitution(a: str, b: str) -> float:
    """The cost of typing `b` for `a` (0 when equal)."""
    if a == b:
        return 0.0
    ba, bb = _base(a), _base(b)
    if ba == bb:
        return ACCENT
    if ba in _VOWELS and bb in _VOWELS:
        return NEAR_KEY
    pa, pb = _KEYS.get(ba), _KEYS.get(bb)
    if pa and pb and _touching(pa, pb):
        return NEAR_KEY
    return FAR_KEY


def _touching(a: tuple[int, float], b: tuple[int, float]) -> bool:
    """Do the keys at `a` and `b` touch: side by side in a row, or overlapping in the row
    above or below?"""
    rows, across = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (rows == 0 and across == 1) or (rows == 1 and across < 1)


@lru_cache(maxsize=65536)
def typing_cost(typed: str, meant: str) -> float:
    """The weighted optimal-string-alignment distance from `meant` to `typed`: letters left
    out, added or swapped cost EDIT, a substitution its `substitution` cost."""
    n, m = len(typed), len(meant)
    prev2: list[float] = []
    prev = [float(j) * EDIT for j in range(m + 1)]
    for i in range(1, n + 1):
        cur = [i * EDIT] + [0.0] * m
        for j in range(1, m + 1):
            best = min(prev[j] + EDIT, cur[j - 1] + EDIT,
                       prev[j - 1] + substitution(meant[j - 1], typed[i - 1]))
            if (i > 1 and j > 1 and typed[i - 1] == meant[j - 2]
                    and typed[i - 2] == meant[j - 1]):
                best = min(best, prev2[j - 2] + EDIT)
            cur[j] = best
        prev2, prev = prev, cur
    return prev[m]
