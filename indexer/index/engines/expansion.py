"""Bounded expansion of fuzzy and prefix leaves into the index terms they match.

An engine whose own expansion has no bound (Whoosh) expands each `FFuzzy`/`FPrefix` leaf here
first: at most MAX_EXPANSIONS terms per leaf, the most frequent, and at most
MAX_TOTAL_EXPANSIONS in one query, within the query's deadline — else QueryTooExpensive.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterable

from indexer.index.query_syntax import (
    MAX_EXPANSIONS,
    MAX_TOTAL_EXPANSIONS,
    FAnd,
    FFuzzy,
    FNode,
    FNone,
    FNot,
    FOr,
    FPrefix,
    FTerm,
    QueryTooExpensive,
)


class Expander:
    """Expands the leaves of one query. `prefixed(field, prefix)` and `within(field, term,
    distance)` yield the index terms of `field` that match; `frequency(field, term)` is a
    term's document frequency; `deadline` a `time.monotonic()` value."""

    def __init__(self, prefixed: Callable[[str, str], Iterable[str]],
                 within: Callable[[str, str, int], Iterable[str]],
                 frequency: Callable[[str, str], int], deadline: float,
                 per_leaf: int = MAX_EXPANSIONS, total: int = MAX_TOTAL_EXPANSIONS) -> None:
        self._prefixed, self._within, self._frequency = prefixed, within, frequency
        self.deadline, self.per_leaf, self.left = deadline, per_leaf, total

    def expand(self, node: FNode) -> FNode:
        """`node` with every fuzzy and prefix leaf an OR of (boosted) terms."""
        if isinstance(node, (FFuzzy, FPrefix)):
            return self._leaf(node)
        if isinstance(node, FAnd):
            return FAnd(tuple(self.expand(c) for c in node.children))
        if isinstance(node, FOr):
            return FOr(tuple(self.expand(c) for c in node.children))
        if isinstance(node, FNot):
            return FNot(self.expand(node.child))
        return node

    def _leaf(self, leaf: FFuzzy | FPrefix) -> FNode:
        if isinstance(leaf, FPrefix):
            found = self._prefixed(leaf.field, leaf.prefix)
        else:
            found = self._within(leaf.field, leaf.term, leaf.distance)
        terms: list[str] = []
        for term in found:
            terms.append(term)
            if len(terms) % 256 == 0:
                self._check_time()
        self._check_time()
        if len(terms) > self.per_leaf:  # the most frequent ones
            terms = heapq.nlargest(self.per_leaf, terms,
                                   key=lambda t: self._frequency(leaf.field, t))
        self.left -= len(terms)
        if self.left < 0:
            raise QueryTooExpensive(f"its fuzzy and prefix words match more than "
                                    f"{MAX_TOTAL_EXPANSIONS} index terms")
        if not terms:
            return FNone()
        return FOr(tuple(FTerm(leaf.field, t, leaf.boost) for t in sorted(terms)))

    def _check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise QueryTooExpensive("its fuzzy and prefix words took too long to expand")
