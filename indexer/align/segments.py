"""Segments: the units of a list of siblings as the evidence weighs them (one unit, or two
neighbours merged), with their structural keys (article eId, paragraph or point ordinal)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain

from indexer.align.cues import Cues, TextCues, _roman
from indexer.align.results import ALIGNED_KINDS
from indexer.models import Unit, Version


@dataclass(frozen=True)
class Segment:
    """One side of a candidate bead: one unit, or two adjacent units merged."""

    eids: tuple[str, ...]
    key: str | None
    keys: tuple[str | None, ...]
    length: int
    nums: Mapping[str, int] = field(compare=False)  # number -> count, as `numbers`
    toks: frozenset[str] = field(compare=False)
    pref5: frozenset[str] = field(compare=False, default=frozenset())
    n_nums: int = field(compare=False, default=0)  # sum(nums.values())
    spread: float = field(compare=False, default=0.0)  # sqrt(6.8 * max(length, 20))
    # 5-letter prefix -> the types of `toks` with it (the keys are `pref5`)
    by_prefix: Mapping[str, frozenset[str]] = field(compare=False, default_factory=dict)
    key_set: frozenset[str] = field(compare=False, default=frozenset())  # keys but None


def _segment(eids: tuple[str, ...], cues: Sequence[Cues], keys: tuple[str | None, ...]
             ) -> Segment:
    """The segment of texts of `cues` joined by newlines. Its cues are those of the texts put
    together: no word or number spans the joining newline, and it is whitespace."""
    if len(cues) == 1:
        toks, by_prefix, nums, length = cues[0].toks, cues[0].by_prefix, cues[0].nums, \
            cues[0].length
    else:
        # built from the words in text order, as a set of the joined text's words would be
        toks = frozenset(chain.from_iterable(c.types for c in cues))
        by_prefix = dict(cues[0].by_prefix)
        nums = dict(cues[0].nums)
        length = cues[0].length
        for c in cues[1:]:
            for p, ts in c.by_prefix.items():
                by_prefix[p] = by_prefix[p] | ts if p in by_prefix else ts
            for k, n in c.nums.items():  # as a Counter adds (every count is positive)
                nums[k] = nums.get(k, 0) + n
            length += c.length
    length = max(1, length)
    return Segment(eids=eids, key=keys[0] if len(keys) == 1 else None, keys=keys,
                   length=length, nums=nums, toks=toks, pref5=frozenset(by_prefix),
                   n_nums=sum(nums.values()), by_prefix=by_prefix,
                   spread=math.sqrt(6.8 * max(length, 20)),
                   key_set=frozenset(keys).difference((None,)))


def _ordinal(num: str | None, style_roman: bool) -> str | None:
    """A paragraph/point number as an ordinal key: "2" -> "2", "b" -> "2", "iv" -> "4"
    (roman only when its siblings are roman), "(3)" -> "3"."""
    if not num:
        return None
    s = num.strip().strip("().§ ").lower()
    if s.isdigit():
        return str(int(s))
    if style_roman:
        value = _roman(s)
        if value:
            return str(value)
    if len(s) == 1 and "a" <= s <= "z":
        return str(ord(s) - ord("a") + 1)
    return s or None


def _keys(units: Sequence[Unit], level: str) -> list[str | None]:
    if level == "article":
        return [u.eid for u in units]
    if len(units) == 1 and not units[0].num:
        return ["1"]  # an article's one unnumbered paragraph is its first, in every version
    nums = [(u.num or "").strip("().§ ").lower() for u in units]
    # "i" is roman only when every sibling is roman ("i", "ii", ...), a letter after "h"
    roman = bool(nums) and all(n and set(n) <= set("ivxl") for n in nums)
    return [_ordinal(u.num, roman) for u in units]


def _children(unit: Unit, kind: str) -> list[Unit]:
    return [c for c in unit.children if c.kind == kind]


class Segments:
    """The segments of the lists of siblings of one treaty, each built once for every pass and
    every pair that weighs it, with the cues of their texts (`cues`). One is made per treaty
    (`align_versions`) and held by the models of its pairs."""

    def __init__(self, cues: TextCues | None = None) -> None:
        self.cues = TextCues() if cues is None else cues
        # (eIds, texts, keys, lang) -> the segment of those texts
        self._segments: dict[tuple, Segment] = {}
        # (level, lang, eIds, texts, numbers of the units) -> `of`'s segments (what they
        # are built from)
        self._lists: dict[tuple, tuple[list[Segment], dict[int, Segment]]] = {}

    def of(self, units: Sequence[Unit], level: str, lang: str
           ) -> tuple[list[Segment], dict[int, Segment]]:
        """The segment of each of a list of siblings and, below articles, of each two
        neighbours (`merged[i]`: units i and i+1). Not to be changed."""
        key = (level, lang, tuple([u.eid for u in units]), tuple([u.text for u in units]),
               tuple([u.num for u in units]))
        got = self._lists.get(key)
        if got is None:
            got = self._lists[key] = self.build(units, level, lang)
        return got

    def build(self, units: Sequence[Unit], level: str, lang: str
              ) -> tuple[list[Segment], dict[int, Segment]]:
        """`of`, built (from segments built before when there are)."""
        keys = _keys(units, level)
        for u in units:
            if u.children:
                self.cues.unit_cues(u, lang)  # (put together from its children's)
        eids = [u.eid for u in units]
        texts = [u.text for u in units]
        segs = [self.segment((e,), (t,), (k,), lang) for e, t, k in zip(eids, texts, keys)]
        merged = {}
        if level != "article":  # articles are never merged: a bead of two articles is a split
            for i in range(len(units) - 1):
                merged[i] = self.segment((eids[i], eids[i + 1]), (texts[i], texts[i + 1]),
                                         (keys[i], keys[i + 1]), lang)
        return segs, merged

    def segment(self, eids: tuple[str, ...], texts: tuple[str, ...],
                keys: tuple[str | None, ...], lang: str) -> Segment:
        """The segment of `texts` joined by newlines, built once."""
        key = (eids, texts, keys, lang)
        got = self._segments.get(key)
        if got is None:
            cues = self.cues.cues
            got = self._segments[key] = _segment(eids, [cues(t, lang) for t in texts], keys)
        return got


def _top(version: Version) -> list[Unit]:
    return [u for u in version.units if u.kind in ALIGNED_KINDS]


def _all_units(units: Iterable[Unit]) -> Iterable[Unit]:
    for u in units:
        yield u
        yield from _all_units(u.children)
