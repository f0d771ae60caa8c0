"""The stop of a whole search. One search is many engine queries (the words as typed,
relaxed matching word by word, translations, a correction): each has its own bound, and
together they once ran 5-20 s past the documented 5 s stop. A search's engine handle is
wrapped here with the search's deadline: every query after it is refused ("query too
expensive: the search took more than 5 s; narrow it"), on both engines, and on Whoosh each
query also stops at it (its time limit is what is left)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from indexer.index.query_syntax import QUERY_SECONDS, FNode, QueryTooExpensive


class Bounded:
    """`engine` (an EngineSearcher) whose queries stop at the monotonic time `deadline`."""

    def __init__(self, engine, deadline: float, seconds: float = QUERY_SECONDS) -> None:
        self._engine = engine
        self._deadline = deadline
        self._seconds = seconds

    def _check(self) -> None:
        if time.monotonic() > self._deadline:
            raise QueryTooExpensive(f"the search took more than {self._seconds:g} s")

    def _call(self, name: str, *args):
        self._check()
        stops = hasattr(self._engine, "until")  # (Whoosh: each query stops at the deadline)
        if stops:
            self._engine.until = self._deadline
        try:
            return getattr(self._engine, name)(*args)
        finally:
            if stops:
                self._engine.until = None

    def search(self, tree: FNode, filters: Sequence[tuple[str, str]], limit: int | None):
        return self._call("search", tree, filters, limit)

    def matches(self, tree: FNode, filters: Sequence[tuple[str, str]], limit: int | None):
        return self._call("matches", tree, filters, limit)

    def group_count(self, tree: FNode, filters: Sequence[tuple[str, str]]) -> int:
        return self._call("group_count", tree, filters)

    def in_groups(self, tree: FNode, filters: Sequence[tuple[str, str]],
                  groups: Sequence[int], limit: int):
        return self._call("in_groups", tree, filters, groups, limit)

    def __getattr__(self, name: str):  # stored, ref_key, grouped, close: the engine's
        return getattr(self._engine, name)
