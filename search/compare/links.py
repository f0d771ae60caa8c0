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


def paragraph_links(corpus: Corpus, treaty: str, first: str, other: str) -> dict[str, tuple]:
    """Paragraph eId in `other` -> (eId in `first`, score, method) of its best link."""
    out: dict[str, tuple] = {}
    for r in corpus.db.execute(
        "SELECT eid, lang_a, lang_b, eid_b, score, method FROM links WHERE treaty = ? "
        "AND level = 'paragraph' AND eid != '' AND eid_b != '' AND ((lang_a = ? AND lang_b = ?) "
        "OR (lang_a = ? AND lang_b = ?)) ORDER BY score DESC", (treaty, first, other, other, first)):
        mine, theirs = (r["eid_b"], r["eid"]) if r["lang_a"] == first else (r["eid"], r["eid_b"])
        out.setdefault(mine, (theirs, r["score"], r["method"]))
    return out


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
