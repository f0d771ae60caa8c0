"""One pattern of the topic tables, ready to run: its regexes, weight and declared literals.

Running ~130 case-insensitive regexes over every text is what scoring costs. Two exact
shortcuts, for texts whose characters lower-case one for one as the regex engine folds them
(`lowered`; the others take the plain path):
- each pattern declares literals one of which every match contains (`indexer.topics.table`),
  and runs only when the lower-cased text contains one (`indexer.topics.prefilter`);
- it runs case-sensitively on the lower-cased text: the tables' patterns are written in lower
  case, so on such a text that is the case-insensitive pattern's match, without per-character
  folding and with the regex engine's literal-prefix search.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: A pattern counts at most this many times per text.
MAX_HITS = 4

#: The characters for which `str.lower` and the regex engine's case-insensitive matching
#: disagree on the tables' letters: "İ" lower-cases to two characters, and "ı" and "ſ" match
#: "i" and "s" case-insensitively but lower-case to themselves. `tests/test_topics.py` checks
#: every other code point against every letter of the tables.
UNSAFE_CHARS = "\u0130\u0131\u017f"
_UNSAFE = re.compile(f"[{UNSAFE_CHARS}]")


def lowered(text: str) -> str | None:
    """`text` lower-cased for the shortcuts, or None when they would not be exact for it."""
    if text.isascii() or _UNSAFE.search(text) is None:
        return text.lower()
    return None


def lower_case_source(pattern: str) -> bool:
    """Is `pattern` written in lower case outside escapes (``\\S`` may stay ``\\S``)?"""
    return pattern == re.sub(r"\\.|[^\\]+", lambda m: m[0] if m[0][0] == "\\" else m[0].lower(),
                             pattern, flags=re.DOTALL)


#: The most word characters a cue's open word ending (``attribut\\w+``) takes: longer than any
#: word of the four languages' treaties, and a bound, so that a search over one long run of
#: letters ("attributattribut…", a hostile 1 MB word) scans a bounded stretch from each stem
#: it holds instead of the rest of the run (quadratic).
WORD_RUN = 60
_OPEN_WORD_RUN = re.compile(r"(?<!\\)((?:\\\\)*)\\w([+*])(?![?+])")


def bounded_word_runs(pattern: str) -> str:
    """`pattern` with each unbounded run of word characters (``\\w+``, ``\\w*``) bounded to
    `WORD_RUN` characters (same matches on any real word, linear time on a hostile one)."""
    return _OPEN_WORD_RUN.sub(lambda m: m[1] + ("\\w{1,%d}" if m[2] == "+" else "\\w{0,%d}")
                              % WORD_RUN, pattern)


class _Lazy:
    """A regex compiled on first use, with the compiled pattern's `search`, `findall` and
    `match` (bound in its place by the first call, so later calls go straight to them). Most
    patterns never run on a given text (the literal prefilter rules them out), so compiling
    them all up front would cost every process most of a second for nothing."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def _compile(self) -> re.Pattern[str]:
        compiled = re.compile(bounded_word_runs(self.pattern), self.flags)
        self.search = compiled.search  # type: ignore[method-assign]
        self.findall = compiled.findall  # type: ignore[method-assign]
        self.match = compiled.match  # type: ignore[method-assign]
        return compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self._compile().search(text)

    def findall(self, text: str) -> list[Any]:
        return self._compile().findall(text)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self._compile().match(text, pos)


Literals = tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Matcher:
    """A table pattern of topic `key`: `plain` matches it case-insensitively on any text,
    `folded` case-sensitively on a text's `lowered` form. Every match holds one of `need`
    and one literal of each clause of `more`, and begins with one of `starts` (when given).
    `weight`: of a content keyword (0 for titles and the register)."""

    key: str
    plain: _Lazy
    folded: _Lazy
    weight: int
    need: Literals
    more: tuple[Literals, ...]
    starts: Literals

    @classmethod
    def of(cls, key: str, pattern: str, weight: int, clauses: Sequence[str]) -> Matcher:
        """The matcher of a table entry: `clauses` as the table declares them (the first one
        the prefilter's, "^" before a clause whose literals begin every match)."""
        if not lower_case_source(pattern):
            raise ValueError(f"table pattern not in lower case: {pattern!r}")
        parsed = [(c.startswith("^"), tuple(c.removeprefix("^").split("|"))) for c in clauses]
        _check_clauses(pattern, parsed)
        starts = next((lits for start, lits in parsed if start), ())
        return cls(key, _Lazy(pattern, re.IGNORECASE), _Lazy(pattern), weight, parsed[0][1],
                   tuple(lits for _start, lits in parsed[1:]), starts)

    def search(self, text: str, low: str | None) -> bool:
        """Does the pattern match `text` (whose `lowered` form is `low`)?"""
        if low is None:
            return self.plain.search(text) is not None
        if not any(x in low for x in self.need):
            return False
        return self.folded.search(low) is not None

    def count(self, text: str, low: str | None) -> int:
        """Number of (non-overlapping) matches in `text`."""
        if low is None:
            return len(self.plain.findall(text))
        if not any(x in low for x in self.need):
            return 0
        return len(self.folded.findall(low))

    def hits(self, text: str, low: str | None) -> int:
        """`count` capped at `MAX_HITS`, its literals known present when `low` is given."""
        if low is None:
            hits = len(self.plain.findall(text))
        elif self.starts:
            return _matches_from(self.folded.match, low, self.starts, MAX_HITS)
        else:
            hits = len(self.folded.findall(low))
        return min(hits, MAX_HITS)


def _check_clauses(pattern: str, parsed: list[tuple[bool, Literals]]) -> None:
    """Raise ValueError unless the (is a start clause, literals) clauses of `pattern` are
    usable: at least one, at most one start clause, every literal non-empty, lower-cased and
    without a line break (the prefilter reads lines on their own)."""
    if not parsed or sum(start for start, _lits in parsed) > 1:
        raise ValueError(f"{pattern!r}: needs its literals, and has at most one start clause")
    literals = [x for _start, lits in parsed for x in lits]
    if not all(literals) or any("\n" in x or x != x.lower() for x in literals):
        raise ValueError(f"literals of {pattern!r}: empty, with a line break or not lower case")


def _matches_from(match: Any, low: str, starts: Literals, cap: int) -> int:
    """`len(findall(low))` of a pattern (`match` its `match`), up to `cap`, when each of its
    matches begins with one of the literals `starts`: `findall` tries each position in
    turn and takes the match found there, going on after its end; no position where no
    literal of `starts` begins can hold one, so only those are tried (with `match` at that
    position, which reads the text before it as the search does, e.g. for ``\\b``)."""
    find = low.find
    hits = pos = 0
    while True:
        at = -1
        for x in starts:  # the first position at or after `pos` where one begins
            k = find(x, pos)
            if k >= 0 and (at < 0 or k < at):
                at = k
        if at < 0:
            return hits
        m = match(low, at)
        if m is None:
            pos = at + 1
        else:
            hits += 1
            if hits == cap:
                return hits
            pos = m.end()  # > at: a literal of `starts` is not empty
