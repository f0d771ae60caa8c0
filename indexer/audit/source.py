"""Which source line each physical line of a unit's raw text came from, and the source lines
with text that no unit holds.

A top-level unit's ``raw`` is its lines exactly as in the source, in source order, but not
the whole of its line range: interleaved versions (a print with its languages in columns or
page by page) put other versions' lines inside it. So each raw line is looked up among the
source lines of the unit's range with the same text, the first one after the previous raw
line that no other unit has claimed (else the first one after it)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from indexer.audit.model import Source
from indexer.models import Unit


@dataclass
class LineClaims:
    """The source lines of one document by their stripped text, and the lines claimed so far
    by units (line number -> the claiming unit's language)."""

    source: Source
    by_text: dict[str, list[int]] = field(default_factory=dict)
    claimed: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, source: Source) -> LineClaims:
        by_text: dict[str, list[int]] = {}
        for n, line in enumerate(source.lines, 1):
            s = line.strip()
            if s:
                by_text.setdefault(s, []).append(n)
        return cls(source, by_text)

    def claim(self, unit: Unit, lang: str) -> list[int | None]:
        """The source line of each physical line of `unit.raw` (None: blank, or not found in
        the unit's range), each found line claimed for `lang`."""
        out: list[int | None] = []
        after = unit.start
        for raw in unit.raw.split("\n"):
            n = self._find(raw.strip(), after, unit.end)
            out.append(n)
            if n is not None:
                self.claimed.setdefault(n, lang)
                after = n + 1
        return out

    def _find(self, text: str, lo: int, hi: int) -> int | None:
        nums = self.by_text.get(text) if text else None
        if not nums:
            return None
        k = bisect_left(nums, lo)
        first = None
        while k < len(nums) and nums[k] <= hi:
            if nums[k] not in self.claimed:
                return nums[k]
            first = nums[k] if first is None else first
            k += 1
        return first

    def unaccounted(self) -> list[tuple[int, int, int]]:
        """Runs of source lines with text that no unit claimed and no removed range holds:
        (first, last, how many lines with text), a run ending at the next claimed line."""
        removed = set()
        for a, b in self.source.removed:
            removed.update(range(a, b + 1))
        runs: list[list[int]] = []
        run: list[int] | None = None  # [first, last, lines with text] of the open run
        for n, line in enumerate(self.source.lines, 1):
            if not line.strip():
                continue
            if n in self.claimed or n in removed:
                run = None
                continue
            if run is None:
                run = [n, n, 0]
                runs.append(run)
            run[1], run[2] = n, run[2] + 1
        return [(a, b, k) for a, b, k in runs]

    def lang_near(self, line: int, langs: Sequence[str]) -> str | None:
        """The language of the nearest claimed line before `line` (else after it) that is one
        of `langs`."""
        for n in _outward(line, len(self.source.lines)):
            lang = self.claimed.get(n)
            if lang in langs:
                return lang
        return None


def _outward(line: int, last: int) -> Iterable[int]:
    yield from range(line - 1, 0, -1)
    yield from range(line + 1, last + 1)
