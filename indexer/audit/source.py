"""Which source line each physical line of a unit's raw text came from, and the source lines
with text that no unit holds.

A top-level unit's ``raw`` is its lines exactly as in the source, but not the whole of its
line range: interleaved versions (a print with its languages in columns or page by page) put
other versions' lines inside it, and the same line (a signature, "a)") can stand in several.
So each raw line is matched to a source line with the same text inside its unit's range, no
source line to two raw lines: the raw lines are taken by the end of their unit's range, each
given the first free matching line from the start of its range (the greedy that matches the
most raw lines to points of their intervals)."""

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

    def claim_all(self, units: Sequence[tuple[str, Unit]]) -> list[list[int | None]]:
        """For each (lang, unit) of `units`, the source line of each physical line of its raw
        text (None: blank, or no free line with its text in the unit's range); every line
        found is claimed for the unit's language."""
        found: list[list[int | None]] = []
        jobs: list[tuple[int, int, int, str]] = []  # (end of range, unit, raw line, text)
        for k, (_lang, u) in enumerate(units):
            raws = u.raw.split("\n")
            found.append([None] * len(raws))
            jobs.extend((u.end, k, r, t) for r, x in enumerate(raws)
                        if (t := x.strip()) in self.by_text)
        free: dict[str, dict[int, int]] = {}  # text -> index -> a later index maybe free
        for end, k, r, t in sorted(jobs):
            nums, lang, start = self.by_text[t], units[k][0], units[k][1].start
            i = _first_free(free.setdefault(t, {}), bisect_left(nums, start), len(nums))
            if i < len(nums) and nums[i] <= end:
                found[k][r] = nums[i]
                self.claimed[nums[i]] = lang
                free[t][i] = i + 1
        return found

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


def _first_free(next_of: dict[int, int], i: int, stop: int) -> int:
    """The first index from `i` not taken (`next_of`: taken index -> the one after it, paths
    shortened as they are followed); `stop` when every one is."""
    path = []
    while i < stop and i in next_of:
        path.append(i)
        i = next_of[i]
    for j in path:
        next_of[j] = i
    return i


def _outward(line: int, last: int) -> Iterable[int]:
    yield from range(line - 1, 0, -1)
    yield from range(line + 1, last + 1)
