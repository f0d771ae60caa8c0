"""The dynamic program over two lists of siblings: the best monotone sequence of 1-1, 1-0,
0-1, 2-1 and 1-2 beads (as in Gale–Church, hunalign and bertalign) in a band around the
diagonal."""

from __future__ import annotations

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
)
from indexer.align.results import UNMATCHED
from indexer.align.segments import Segment

# DP bead penalties (in the same log-odds units as the evidence).
SKIP = 2.5  # a unit with no counterpart (1-0 / 0-1)
MERGE = 2.5  # a 2-1 / 1-2 bead, on top of the evidence of the merged pair


BEADS = ((1, 1), (1, 0), (0, 1), (2, 1), (1, 2))


class Bead(NamedTuple):
    """One bead of `align_sequences`: units `a` of one list with units `b` of the other."""

    a: tuple[int, ...]
    b: tuple[int, ...]
    score: float
    method: str
    pieces: tuple[tuple[str, float], ...]  # as `Link.pieces`


#: Skip weighing a bead in full when even the largest lexicon piece could not make it win
#: (False weighs every bead: the same alignment, slower; tests compare the two).
PRUNE = True

#: Half-width of the diagonal band the sequence aligner explores (at least, and as a share).
BAND_MIN = 4
BAND_SHARE = 0.15


def align_sequences(seg_a: Sequence[Segment], seg_b: Sequence[Segment],
                    merged_a: Mapping[int, Segment], merged_b: Mapping[int, Segment],
                    model: Model) -> list[Bead]:
    """The best monotone sequence of beads between two lists of siblings.

    ``merged_a[i]`` is the segment of units i and i+1 together (for 2-1 beads)."""
    n, m = len(seg_a), len(seg_b)
    inf = float("inf")
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    back: list[list[tuple | None]] = [[None] * (m + 1) for _ in range(n + 1)]
    lexicon_of: dict[tuple[int, int], float] = {}  # cell -> lexicon piece of its bead
    cost[0][0] = 0.0
    limit = _lexicon_limit(model)
    sides_a, sides_b = (None, seg_a, merged_a), (None, seg_b, merged_b)

    def position(i: int, j: int, di: int, dj: int) -> float:
        if n == m and i == j and di == dj == 1:
            # same place in two lists of the same length; the only child of both parents
            return 2.0 if n == 1 else 1.0
        return 0.0

    def weigh(a: Segment, b: Segment, pos: float, merge: float, before: float,
              bound: float) -> tuple[float, float]:
        """The cost into a cell of the bead of `a` and `b` after cost `before`, and its
        lexicon piece; (inf, 0.0) when even the largest lexicon piece could not bring it to
        `bound`: it is then not weighed in full, since it cannot win (tried first with the
        cheap `_most` of the structural pieces, then with their sum)."""
        if PRUNE and -(PRIOR + (_most(a, b) + pos + limit)) + merge + before > bound + 1e-9:
            return inf, 0.0
        total = _pieces(a, b, model)[0]  # the evidence without the lexicon piece
        if PRUNE and -(PRIOR + (total + pos + limit)) + merge + before > bound + 1e-9:
            return inf, 0.0
        piece = _lexicon_llr(a, b, model)
        total += piece  # as the evidence adds up: structure, lexicon, position
        if pos:
            total += pos
        return -(PRIOR + total) + merge + before, piece

    # Only cells near the diagonal are explored (as hunalign does): versions of one treaty
    # do not drift far apart, and the band keeps long lists from costing n x m evidence.
    # The beads into a cell are tried in the order of BEADS (the first of equal costs wins).
    one_one, one_zero, zero_one, two_one, one_two = BEADS
    band = max(BAND_MIN, abs(n - m) + 3, int(BAND_SHARE * max(n, m)))
    for i in range(n + 1):
        centre = i * m / n if n else 0
        row = cost[i]
        above, above2 = (cost[i - 1] if i else None), (cost[i - 2] if i > 1 else None)
        a, a2 = (seg_a[i - 1] if i else None), merged_a.get(i - 2)  # units i-1; i-2 and i-1
        for j in range(max(0, int(centre) - band), min(m, int(centre) + band + 1) + 1):
            if not (i or j):
                continue
            best, arg, lex = inf, None, 0.0
            up = above[j] if i else inf
            left = row[j - 1] if j else inf
            # the cheapest skip into this cell: a bead whose evidence cannot bring it below
            # that (or below the best so far) is not weighed in full
            skip = min(up, left) + SKIP
            if i and j and above[j - 1] != inf:
                pos = (2.0 if n == 1 else 1.0) if n == m and i == j else 0.0
                best, lex = weigh(a, seg_b[j - 1], pos, 0.0, above[j - 1], skip)
                if best < inf:
                    arg = one_one
            c = SKIP + up
            if c < best:
                best, arg = c, one_zero
            c = SKIP + left
            if c < best:
                best, arg = c, zero_one
            if a2 is not None and j and above2[j - 1] != inf:
                c, piece = weigh(a2, seg_b[j - 1], 0.0, MERGE, above2[j - 1], min(best, skip))
                if c < best:
                    best, arg, lex = c, two_one, piece
            if i and j > 1 and above[j - 2] != inf and (b2 := merged_b.get(j - 2)) is not None:
                c, piece = weigh(a, b2, 0.0, MERGE, above[j - 2], min(best, skip))
                if c < best:
                    best, arg, lex = c, one_two, piece
            row[j], back[i][j] = best, arg
            if arg is not None and arg[0] and arg[1]:
                lexicon_of[i, j] = lex
    beads: list[Bead] = []
    i, j = n, m
    while i or j:
        di, dj = back[i][j]
        pi, pj = i - di, j - dj
        if di and dj:
            # the evidence of the chosen beads only, for their method and description
            _, number, nums, length = _pieces(sides_a[di][pi], sides_b[dj][pj], model)[:4]
            ev: dict[str, float] = {}
            if number is not None:
                ev["number"] = number
            if nums is not None:
                ev["numbers"] = nums
            ev["length"] = length
            ev["lexicon"] = lexicon_of[i, j]
            pos = position(pi, pj, di, dj)
            if pos:
                ev["position"] = pos
            llr = PRIOR + sum(ev.values()) - (1.0 if di + dj > 2 else 0.0)
            beads.append(Bead(tuple(range(pi, i)), tuple(range(pj, j)), _logistic(llr),
                              _method(ev, (di, dj)), tuple(ev.items())))
        else:
            beads.append(Bead(tuple(range(pi, i)), tuple(range(pj, j)), 0.0, UNMATCHED, ()))
        i, j = pi, pj
    beads.reverse()
    return beads
