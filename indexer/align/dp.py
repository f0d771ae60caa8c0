"""The dynamic program over two lists of siblings: the best monotone sequence of 1-1, 1-0,
0-1, 2-1 and 1-2 beads (as in Gale–Church, hunalign and bertalign) in a band around the
diagonal."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from indexer.align.evidence import (
    PRIOR,
    Model,
    _lexicon_limit,
    _lexicon_llr,
    _logistic,
    _method,
    _most,
    _pieces,
    _structural,
)
from indexer.align.results import UNMATCHED
from indexer.align.segments import Segment

# DP bead penalties (in the same log-odds units as the evidence).
SKIP = 2.5  # a unit with no counterpart (1-0 / 0-1)
MERGE = 2.5  # a 2-1 / 1-2 bead, on top of the evidence of the merged pair


BEADS = ((1, 1), (1, 0), (0, 1), (2, 1), (1, 2))
ONE_ONE, ONE_ZERO, ZERO_ONE, TWO_ONE, ONE_TWO = BEADS

#: Half-width of the diagonal band the sequence aligner explores (at least, and as a share).
BAND_MIN = 4
BAND_SHARE = 0.15

_INF = float("inf")


class Bead(NamedTuple):
    """One bead of `align_sequences`: units `a` of one list with units `b` of the other."""

    a: tuple[int, ...]
    b: tuple[int, ...]
    score: float
    method: str
    pieces: tuple[tuple[str, float], ...]  # as `Link.pieces`


def align_sequences(seg_a: Sequence[Segment], seg_b: Sequence[Segment],
                    merged_a: Mapping[int, Segment], merged_b: Mapping[int, Segment],
                    model: Model) -> list[Bead]:
    """The best monotone sequence of beads between two lists of siblings.

    ``merged_a[i]`` is the segment of units i and i+1 together (for 2-1 beads)."""
    sweep = _Sweep(seg_a, seg_b, merged_a, merged_b, model)
    sweep.fill()
    return in_agreement(sweep.beads(), seg_a, seg_b)


#: Log-odds added to every link of two lists of siblings that agree in full: as many units,
#: each numbered, the same numbers in the same order, every bead 1-1.
AGREEMENT = 2.0


def in_agreement(beads: list[Bead], seg_a: Sequence[Segment], seg_b: Sequence[Segment]) -> list[Bead]:
    """`beads`, their scores raised by `AGREEMENT` when the two lists agree in full: a short
    definition translated at half the length is still paragraph 2 of both, when both number
    1, 2, 3 and every unit pairs with the one of its number."""
    if len(seg_a) != len(seg_b) or not beads or any(len(b.a) != 1 or len(b.b) != 1 for b in beads):
        return beads
    if any(a.key is None or a.key != b.key for a, b in zip(seg_a, seg_b)):
        return beads
    if any(b.a[0] != b.b[0] for b in beads):
        return beads
    return [b._replace(score=_logistic(_logit(b.score) + AGREEMENT),
                       pieces=(*b.pieces, ("agreement", AGREEMENT))) for b in beads]


def _logit(p: float) -> float:
    p = min(max(p, 1e-12), 1 - 1e-12)
    return math.log(p / (1 - p))


def band(n: int, m: int) -> int:
    """The half-width of the band of cells explored for lists of `n` and `m` units."""
    return max(BAND_MIN, abs(n - m) + 3, int(BAND_SHARE * max(n, m)))


class _Sweep:
    """The dynamic program of `align_sequences`: the cost of the best path into every cell
    (i, j) of the band (units i of list a and j of list b done) and the bead it ends with
    (`fill`), then the beads of the best path back from the last cell (`beads`)."""

    def __init__(self, seg_a: Sequence[Segment], seg_b: Sequence[Segment],
                 merged_a: Mapping[int, Segment], merged_b: Mapping[int, Segment],
                 model: Model) -> None:
        self.n, self.m = n, m = len(seg_a), len(seg_b)
        self.seg_a, self.seg_b, self.merged_a, self.merged_b = seg_a, seg_b, merged_a, merged_b
        self.model = model
        self.limit = _lexicon_limit(model)
        # the position piece of a 1-1 bead of units i and i: the same place in two lists of
        # the same length (more for the only child of both parents)
        self.diagonal = (2.0 if n == 1 else 1.0) if n == m else 0.0
        self.cost = [[_INF] * (m + 1) for _ in range(n + 1)]
        self.cost[0][0] = 0.0
        self.back: list[list[tuple[int, int] | None]] = [[None] * (m + 1) for _ in range(n + 1)]
        # the lexicon piece of the bead into each cell (read for beads of units of both lists)
        self.lexicon: list[list[float]] = [[0.0] * (m + 1) for _ in range(n + 1)]

    def fill(self) -> None:
        """The best bead into every cell near the diagonal, row by row. Only cells near the
        diagonal are explored (as hunalign does): versions of one treaty do not drift far
        apart, and the band keeps long lists from costing n x m evidence."""
        n, m = self.n, self.m
        half = band(n, m)
        row, back = self.cost[0], self.back[0]
        for j in range(1, min(m, half + 1) + 1):  # row 0: units of list b skipped
            row[j], back[j] = SKIP + row[j - 1], ZERO_ONE
        for i in range(1, n + 1):
            centre = int(i * m / n)
            self._row(i, max(0, centre - half), min(m, centre + half + 1) + 1)

    def _row(self, i: int, start: int, stop: int) -> None:
        """The best bead into cells (i, start) .. (i, stop - 1) (i > 0), the beads tried in
        the order of BEADS (the first of equal costs wins)."""
        row, above, back, lexicon = self.cost[i], self.cost[i - 1], self.back[i], self.lexicon[i]
        a, b = self.seg_a[i - 1], self.seg_b
        a2 = self.merged_a.get(i - 2)  # units i-2 and i-1
        merges = a2 is not None or bool(self.merged_b)
        weigh, diagonal = self._weigh, self.diagonal
        for j in range(start, stop):
            up = above[j]
            left = row[j - 1] if j else _INF
            # the cheapest skip into this cell: a bead whose evidence cannot bring it below
            # that (or below the best so far) is not weighed in full
            skip = min(up, left) + SKIP
            best, arg, lex = _INF, None, 0.0
            if j and above[j - 1] != _INF:
                best, lex = weigh(a, b[j - 1], diagonal if i == j else 0.0, 0.0, above[j - 1],
                                  skip)
                if best < _INF:
                    arg = ONE_ONE
            if SKIP + up < best:
                best, arg = SKIP + up, ONE_ZERO
            if SKIP + left < best:
                best, arg = SKIP + left, ZERO_ONE
            if merges and j:
                best, arg, lex = self._merges(i, j, a2, best, arg, lex, skip)
            row[j], back[j], lexicon[j] = best, arg, lex

    def _merges(self, i: int, j: int, a2: Segment | None, best: float,
                arg: tuple[int, int] | None, lex: float, skip: float
                ) -> tuple[float, tuple[int, int] | None, float]:
        """The best of (`best`, `arg`, `lex`) and the 2-1 bead (of `a2`, units i-2 and i-1)
        and the 1-2 bead into cell (i, j), as (cost, bead, lexicon piece)."""
        cost = self.cost
        if a2 is not None and cost[i - 2][j - 1] != _INF:
            c, piece = self._weigh(a2, self.seg_b[j - 1], 0.0, MERGE, cost[i - 2][j - 1],
                                   min(best, skip))
            if c < best:
                best, arg, lex = c, TWO_ONE, piece
        if j > 1 and cost[i - 1][j - 2] != _INF and (b2 := self.merged_b.get(j - 2)) is not None:
            c, piece = self._weigh(self.seg_a[i - 1], b2, 0.0, MERGE, cost[i - 1][j - 2],
                                   min(best, skip))
            if c < best:
                best, arg, lex = c, ONE_TWO, piece
        return best, arg, lex

    def _weigh(self, a: Segment, b: Segment, pos: float, merge: float, before: float,
               bound: float) -> tuple[float, float]:
        """The cost into a cell of the bead of `a` and `b` after cost `before`, and its
        lexicon piece; (inf, 0.0) when even the largest lexicon piece could not bring it to
        `bound`: it is then not weighed in full, since it cannot win (tried first with the
        cheap `_most` of the structural pieces, then with their sum)."""
        limit = self.limit
        if -(PRIOR + (_most(a, b) + pos + limit)) + merge + before > bound + 1e-9:
            return _INF, 0.0
        model = self.model
        total = _pieces(a, b, model)[0]  # the evidence without the lexicon piece
        if -(PRIOR + (total + pos + limit)) + merge + before > bound + 1e-9:
            return _INF, 0.0
        piece = _lexicon_llr(a, b, model)
        total += piece  # as the evidence adds up: structure, lexicon, position
        if pos:
            total += pos
        return -(PRIOR + total) + merge + before, piece

    def beads(self) -> list[Bead]:
        """The beads of the best path, from the last cell back, in list order."""
        beads: list[Bead] = []
        i, j = self.n, self.m
        while i or j:
            di, dj = self.back[i][j]
            beads.append(self._bead(i, j, di, dj))
            i, j = i - di, j - dj
        beads.reverse()
        return beads

    def _bead(self, i: int, j: int, di: int, dj: int) -> Bead:
        """The bead of `di` and `dj` units into cell (i, j), with the evidence of its pieces
        for its score, method and description."""
        pi, pj = i - di, j - dj
        if not (di and dj):
            return Bead(tuple(range(pi, i)), tuple(range(pj, j)), 0.0, UNMATCHED, ())
        a = self.seg_a[pi] if di == 1 else self.merged_a[pi]
        b = self.seg_b[pj] if dj == 1 else self.merged_b[pj]
        ev = _structural(a, b, self.model)
        ev["lexicon"] = self.lexicon[i][j]
        if di == dj == 1 and pi == pj and self.diagonal:
            ev["position"] = self.diagonal
        llr = PRIOR + sum(ev.values()) - (1.0 if di + dj > 2 else 0.0)
        return Bead(tuple(range(pi, i)), tuple(range(pj, j)), _logistic(llr),
                    _method(ev, (di, dj)), tuple(ev.items()))
