"""Families of line labels and the sequences their numbers form.

A family is every label of a document printed alike (`tokens.Form`). A family of labels
without a word may hold two levels, told apart by what follows the label: headings ("10."
alone, or with a short title) and running text ("1. The term …"); `Family.headings` is the
first part.
Its numbers are read as runs: each label goes on the run before it when it is the next
number (a few numbers may be missing: deleted articles, gaps the audit reports; an inserted
"21A" follows 21), a 1 starts a new run, and a label that fits neither is noise (a year, an
amount, a cross-reference at a line's start).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from indexer.segment.numbering.tokens import Form, Token

#: How many numbers a run may skip from one label to the next (deleted articles).
MAX_GAP = 3
#: The longest title a heading's label may carry on its line.
_TITLE_LEN = 100
_SENTENCE_END = (".", ";", ":", ",", "。", "；", "：", "，")


@dataclass
class Family:
    form: Form
    members: list[tuple[int, Token]] = field(default_factory=list)  # (line, token), in order

    @cached_property
    def heading_members(self) -> Family:
        return Family(self.form, [(line, t) for line, t in self.members if is_head(t)])

    def headings(self) -> Family:
        """The members that head a line of their own (`is_head`), read once."""
        return self.heading_members

    @cached_property
    def chained(self) -> list[list[tuple[int, Token]]]:
        """The members in runs of increasing numbers (noise left out), read once."""
        return runs_of(self.members)

    def runs(self) -> list[list[tuple[int, Token]]]:
        return self.chained

    def longest(self) -> int:
        return max((len(r) for r in self.runs()), default=0)


def is_head(token: Token) -> bool:
    """Is the line of `token` a heading: the label alone, or with a short title (no sentence
    end, not in lower case)?"""
    if token.runs_on:
        return False
    rest = token.rest
    if rest.startswith(("(", "[")):  # a title in brackets is the whole rest: "(Gains)", not
        close = rest.find(")" if rest[0] == "(" else "]")  # "(Gains), may be subject …"
        if close >= 0 and rest[close + 1:].strip(" .:-–—*_"):
            return False
    rest = rest.strip("()[]*_ ")
    if not rest:
        return True
    return not (len(rest) > _TITLE_LEN or rest.endswith(_SENTENCE_END) or rest[0].islower())


def families(labels: Sequence[Sequence[Token]]) -> dict[Form, Family]:
    """The families of the labels of a document's lines (`labels`: each line's readings)."""
    out: dict[Form, Family] = {}
    for line, readings in enumerate(labels):
        for token in readings:
            fam = out.get(token.form)
            if fam is None:
                fam = out[token.form] = Family(token.form)
            fam.members.append((line, token))
    return out


def fits(prev: Token, token: Token, gap: int = MAX_GAP) -> bool:
    """Does `token` go on a run whose last label is `prev`, skipping at most `gap` - 1
    numbers?"""
    if token.value == prev.value:
        return bool(token.suffix) and token.suffix != prev.suffix  # 21 then 21A
    return prev.value < token.value <= prev.value + gap


def runs_of(members: Sequence[tuple[int, Token]]) -> list[list[tuple[int, Token]]]:
    """`members` (line, token) as runs of increasing numbers: the chain through them that
    holds the most labels, each going on from the one before (`fits`) or, at a 1, starting
    a new run (another instrument, another language's copy) at a small cost; labels off the
    chain are noise (a reference "Article 13 (Gains), may …" that a wrapped line begins
    with, between headings 10 and 11; a list "1.", "2." between headings "19." and "20.").

    Found by dynamic programming over the members in order (the best chain ending at each,
    from the best ending at each of the few numbers below it), so a label that fits but
    skips numbers never wins over the labels in between."""
    n = len(members)
    if n > _MAX_CHAINED:  # (a family that large is running text's numbers, not headings)
        return _greedy_runs(members)
    score = [0] * n  # (in tenths of a label: whole numbers, so ties are ties)
    back: list[int | None] = [None] * n
    # the best chain so far ending at a label of each number and insertion (for a step that
    # fits, only the few numbers below count), and the best of all (for a new run at a 1)
    by_value: dict[int, dict[str, int]] = {}
    best_any: int | None = None
    for j in range(n):
        token = members[j][1]
        score[j], back[j] = _LABEL - _WEAK * token.weak, None
        for v in range(token.value - MAX_GAP, token.value + 1):
            for i in by_value.get(v, {}).values():
                prev = members[i][1]
                if fits(prev, token):
                    s = (score[i] + _LABEL - _SKIP * max(0, token.value - prev.value - 1)
                         - _WEAK * token.weak)
                    if s > score[j]:
                        score[j], back[j] = s, i
        if token.value == 1 and best_any is not None:
            s = score[best_any] + _LABEL - _RESTART_COST - _WEAK * token.weak
            if s > score[j]:
                score[j], back[j] = s, best_any
        best = by_value.setdefault(token.value, {})
        if token.suffix not in best or score[j] > score[best[token.suffix]]:
            best[token.suffix] = j
        if best_any is None or score[j] > score[best_any]:
            best_any = j
    if not n:
        return []
    end: int | None = max(range(n), key=lambda k: (score[k], -k))
    chain: list[int] = []
    while end is not None:
        chain.append(end)
        end = back[end]
    runs: list[list[tuple[int, Token]]] = []
    for k in reversed(chain):
        if not runs or not fits(runs[-1][-1][1], members[k][1]):
            runs.append([])
        runs[-1].append(members[k])
    return runs


#: What a label adds to a chain, and what starting a new run at a 1 costs it, each number a
#: step skips, and a label on a line a wrapped text runs on to (of two labels of one number,
#: the other is the heading), in tenths of a label.
_LABEL = 10
_RESTART_COST = 5
_SKIP = 1
_WEAK = 1
#: Families with more labels than this are read greedily (their labels are running text's).
_MAX_CHAINED = 400


def _greedy_runs(members: Sequence[tuple[int, Token]]) -> list[list[tuple[int, Token]]]:
    """`runs_of` for a very large family: each label on the current run when it fits, a 1
    starting a new one, anything else noise."""
    runs: list[list[tuple[int, Token]]] = []
    for line, token in members:
        if runs and fits(runs[-1][-1][1], token):
            runs[-1].append((line, token))
        elif not runs or token.value == 1:
            runs.append([(line, token)])
    return runs


def outer_chain(members: Sequence[tuple[int, Token]]) -> tuple[list[tuple[int, Token]], int]:
    """The labels of `members` that number 1, 2, 3 … at the top of one article, read past
    the lists nested in it (a 1 that does not go on is a list below, which goes on with its
    own numbers until the top's next number comes), and how many such lists there were.
    Within an article, numbers go on one by one: a list skips none."""
    outer: list[tuple[int, Token]] = []
    nested: Token | None = None  # the last label of the list below, while one is open
    lists = 0
    for line, token in members:
        if not outer:
            if token.value == 1:
                outer.append((line, token))
        elif nested is not None and fits(nested, token, 1):
            nested = token
        elif fits(outer[-1][1], token, 1):
            outer.append((line, token))
            nested = None
        elif token.value == 1:
            nested = token
            lists += 1
    return outer, lists
