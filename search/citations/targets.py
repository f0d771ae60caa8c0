"""The treaties of a corpus as citation targets, and ``resolve``: which of them a citation
can mean."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from search.citations.model import Citation


class TreatyRef(NamedTuple):
    """What ``resolve`` needs to know about a treaty of the corpus."""

    treaty_id: str
    parties: tuple[str, ...]
    year: int | None


class RefIndex(Sequence):
    """The treaties as citation targets (a sequence of TreatyRef), with the positions of the
    treaties of each party, so that `resolve` looks at the cited parties' treaties only
    instead of every treaty of the corpus."""

    def __init__(self, refs: Iterable[TreatyRef | tuple]) -> None:
        self._refs = list(refs)
        self._by_party: dict[str, list[int]] = {}
        for k, t in enumerate(self._refs):
            for p in {*t[1], *(p.upper() for p in t[1])}:
                self._by_party.setdefault(p, []).append(k)

    def __len__(self) -> int:
        return len(self._refs)

    def __getitem__(self, k):  # type: ignore[override]
        return self._refs[k]

    def having(self, parties: Iterable[str]) -> list[TreatyRef | tuple]:
        """The treaties (in order) whose parties, as given or upper-cased, include all of
        `parties` (a superset of those `resolve` keeps; it checks each)."""
        lists = [self._by_party.get(p, []) for p in set(parties)]
        if not lists:
            return self._refs
        common = set(min(lists, key=len)).intersection(*lists)
        return [self._refs[k] for k in sorted(common)]


def resolve(c: Citation, treaties: Sequence[TreatyRef | tuple]) -> list[str]:
    """Ids of the treaties a citation can mean: 0, 1 or several (the caller decides).

    By id when it has one; else by parties (a treaty between exactly the cited parties is
    preferred to a multilateral one that also includes them) and year; with neither, every
    treaty is a candidate. A `RefIndex` is searched by party, any other sequence in full.
    """
    if c.treaty_id:
        wanted_id = c.treaty_id.lower()
        return [t[0] for t in treaties if t[0].lower() == wanted_id]
    wanted = set(c.parties)
    hits: list[tuple[str, bool]] = []  # (id, parties exactly the cited ones)
    if isinstance(treaties, RefIndex):
        treaties = treaties.having(wanted)
    for t in treaties:
        treaty_id, parties, year = t[0], t[1], t[2]
        if c.year is not None and year != c.year:
            continue
        if not wanted <= set(parties):
            have = {p.upper() for p in parties}
            if not wanted <= have:
                continue
        else:
            have = set(parties)
        hits.append((treaty_id, bool(wanted) and have == wanted))
    exact = [tid for tid, is_exact in hits if is_exact]
    return exact or [tid for tid, _ in hits]
