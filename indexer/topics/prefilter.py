"""The literal prefilter: which patterns of a table can match a text at all.

Every pattern declares literals one of which each of its matches holds (`indexer.topics.table`).
A `Table` holds the patterns of one language (or the titles) with an Aho-Corasick automaton of
all their first-clause literals (`ahocorasick_rs`, a DFA whose match gives the literal's
index), so one pass over a lower-cased text finds every literal it holds, and with them the
only patterns worth running (`present`); `matchable` then drops those whose further clauses
the text lacks. No literal holds a line break, so the literals of lines joined by "\n" are
those of the lines: a span's patterns are the union of its lines' (`LineScores`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

import ahocorasick_rs

from indexer.topics.matcher import Matcher

_first = itemgetter(0)  # the literal's index in an Aho-Corasick match (index, start, end)


@dataclass(frozen=True)
class Table:
    """Patterns numbered in table order (topic by topic); `users[j]` are the patterns whose
    first clause holds literal `literals[j]`; `finder` finds the literals of a text."""

    matchers: tuple[Matcher, ...]
    literals: tuple[str, ...]
    users: tuple[tuple[int, ...], ...]
    finder: Any = field(compare=False, repr=False)

    def present(self, low: str) -> frozenset[int]:
        """Patterns whose first-clause literals the lower-cased text `low` holds."""
        # the literals found (each once: a common one occurs many times), collected in C
        try:
            seen = set(map(_first, self.finder.find_matches_as_indexes(low, overlapping=True)))
        except UnicodeEncodeError:  # a lone surrogate: the automaton takes UTF-8 only
            seen = {j for j, lit in enumerate(self.literals) if lit in low}
        users = self.users
        found: set[int] = set()
        for j in seen:
            found.update(users[j])
        return frozenset(found)

    def matchable(self, found: frozenset[int], low: str) -> frozenset[int]:
        """The patterns of `found` (`present(low)`) whose further literal clauses the
        lower-cased text `low` holds too: the others cannot match `low` itself (but may
        still match a longer text that `low` is one line of). Worth it on long texts, where
        a `findall` costs far more than these substring checks."""
        matchers = self.matchers
        drop = []
        for i in found:
            for clause in matchers[i].more:
                for x in clause:
                    if x in low:
                        break
                else:  # no literal of this clause
                    drop.append(i)
                    break
        return found.difference(drop) if drop else found


def build_table(entries: Sequence[tuple[str, str, int, Sequence[str]]]) -> Table:
    """The `Table` of (topic, pattern, weight, clauses) entries, numbered in the order given."""
    matchers = tuple(Matcher.of(*entry) for entry in entries)
    users: dict[str, list[int]] = {}
    for i, m in enumerate(matchers):
        for lit in m.need:
            users.setdefault(lit, []).append(i)
    # all matches, overlapping ones too
    finder = ahocorasick_rs.AhoCorasick(list(users), matchkind=ahocorasick_rs.MatchKind.Standard,
                                        implementation=ahocorasick_rs.Implementation.DFA)
    return Table(matchers, tuple(users), tuple(tuple(v) for v in users.values()), finder)
