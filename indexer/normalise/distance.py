"""How far a printed token is from a word it may stand for, through OCR: a weighted edit
distance whose cheap moves are the confusions of the noisy channel
(:mod:`indexer.normalise.candidates`), used by the steps that repair a token from evidence
other than the lexicon (the document's vocabulary, the other language versions).

Costs, all relative to one arbitrary edit (1.0):
- a confusion of the channel (``rn``/``m``, ``li``/``h``, ``ä``/``ã``, ``cj``/``ç`` ...): its weight;
- two letters that differ only by a diacritic (``å``/``á``, ``é``/``ê``): FOLD_COST;
- OCR junk inside a word (``<``, ``^``, an apostrophe, a hyphen, a digit in a word): JUNK_COST
  to drop it, JUNK_LETTER_COST to read it as a letter;
- any other substitution, insertion or deletion: 1.0, or END_EDIT_COST in the word's last
  letters.
Case is not compared (the caller recases the word it chooses).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from .candidates import CEDILLA_J, CHARSET_PT, OCR_PAIRS, fold

FOLD_COST = 0.4
JUNK_COST = 0.3
#: ... or to read it as a letter (a letter misread as a symbol: organiza9äo).
JUNK_LETTER_COST = 0.5
EDIT_COST = 1.0
#: ... but in the last END letters of the word meant (where a word's forms differ: landet,
#: länder) an arbitrary edit costs END_EDIT_COST.
END = 2
END_EDIT_COST = 2.5
#: What OCR leaves inside a word: dropped at JUNK_COST.
JUNK = frozenset("<>^’'`-0123456789£§|]}")
#: A token of the evidence steps: letters, with OCR junk between them.
WORD = re.compile(r"[^\W\d_]+(?:[<>^’'`\-0-9£§|\]}]+[^\W\d_]+)*")

Moves = dict[str, tuple[tuple[str, str, float], ...]]


@cache
def moves(lang: str) -> Moves:
    """The channel's confusions of `lang` (lower-cased), indexed by first printed letter."""
    pairs = OCR_PAIRS + ((CHARSET_PT + CEDILLA_J) if lang == "pt" else ())
    table: dict[str, list[tuple[str, str, float]]] = {}
    for src, dst, cost in pairs:
        s, d = src.lower(), dst.lower()
        if s != d:
            table.setdefault(s[0], []).append((s, d, cost))
    return {k: tuple(v) for k, v in table.items()}


@cache
def _step_cost(a: str, b: str) -> float:
    """The cost of reading printed letter `a` as `b` outside the channel's confusions."""
    if a == b:
        return 0.0
    if fold(a) == fold(b) and fold(a):
        return FOLD_COST
    return EDIT_COST


def ocr_cost(printed: str, meant: str, lang: str, limit: float = 9.0) -> float:
    """The cheapest way to read `printed` as `meant` (see the module's costs), or a number
    above `limit` when none stays within it (the ways over it are not followed)."""
    p, m = printed.lower(), meant.lower()
    if p == m:
        return 0.0
    table = moves(lang)
    n, k = len(p), len(m)
    inf = limit + 1.0
    # best[i][j]: cheapest reading of p[:i] as m[:j]
    best = [[inf] * (k + 1) for _ in range(n + 1)]
    best[0][0] = 0.0
    for i in range(n + 1):
        row = best[i]
        for j in range(k + 1):
            c = row[j]
            if c > limit:
                continue
            _advance(best, p, m, i, j, c, table)
    return best[n][k]


def _advance(best: list[list[float]], p: str, m: str, i: int, j: int, c: float,
             table: Moves) -> None:
    """Relax the moves out of state (i, j) of cost `c`."""
    n, k = len(p), len(m)

    def put(a: int, b: int, cost: float) -> None:
        best[a][b] = min(best[a][b], cost)

    # an arbitrary edit in a word's ending is how its forms differ, not how OCR misreads
    edit = END_EDIT_COST if j >= k - END else EDIT_COST
    if i < n:
        put(i + 1, j, c + (JUNK_COST if p[i] in JUNK else edit))  # a printed mark dropped
        for src, dst, w in table.get(p[i], ()):
            if p.startswith(src, i) and m.startswith(dst, j):
                put(i + len(src), j + len(dst), c + w)
    if j < k:
        put(i, j + 1, c + edit)  # a letter lost
    if i < n and j < k:
        step = JUNK_LETTER_COST if p[i] in JUNK and m[j].isalpha() else _step_cost(p[i], m[j])
        put(i + 1, j + 1, c + (edit if step == EDIT_COST else step))


def extends(a: str, b: str) -> bool:
    """Is one of `a` and `b` the other with letters added at its end (``agreement``,
    ``agreements``; ``avtal``, ``avtalet``)? Such pairs are forms of one word, not misreadings."""
    a, b = a.lower(), b.lower()
    return a != b and (a.startswith(b) or b.startswith(a))


#: An apostrophe of the language: before or after a clitic of one or two letters (person's,
#: l'impôt, d'Affaires), not OCR junk.
CLITIC = re.compile(r"^[^\W\d_]{1,2}['’`]|['’`][^\W\d_]{1,2}$")


def clitic(tok: str) -> bool:
    """Does `tok` hold an apostrophe of the language (see CLITIC)?"""
    return bool(CLITIC.search(tok))


def hyphenated(tok: str, known: Callable[[str], bool]) -> bool:
    """Is `tok` a compound written with hyphens, every part a word `known` vouches for
    (``co-ordination``, ``avtals-slutande``; not ``myn-dighet``, a word the layout broke)?"""
    parts = tok.split("-")
    return len(parts) > 1 and all(p and known(p) for p in parts)


def allowance(word: str, noisy: bool) -> float:
    """The largest cost at which a token may be read as `word`: more for longer words, and
    more in a text whose line steps found it noisy (a print, not a typed text)."""
    base = 0.5 + 0.1 * len(word)
    return min(base, 2.0) if noisy else min(base / 2, 0.8)
