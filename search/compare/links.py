"""The stored alignment links of a treaty, and the sets of units they join."""

from __future__ import annotations

from collections.abc import Hashable

from search.corpus import Corpus

#: The method of a link row that reports a unit without counterpart.
UNMATCHED = "unmatched"


def links(corpus: Corpus, treaty: str) -> list[dict]:
    """The stored links of `treaty` (unmatched reports included)."""
    return [dict(r) for r in corpus.db.execute(
        "SELECT * FROM links WHERE treaty=? ORDER BY lang_a, lang_b, rowid", (treaty,))]


class UnionFind:
    """Disjoint sets (union-find): which units the links join, directly or through others."""

    def __init__(self) -> None:
        self.parent: dict = {}

    def find(self, x: Hashable) -> Hashable:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: Hashable, b: Hashable) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra
