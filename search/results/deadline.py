"""The stop of a whole search. One search is many engine queries (the words as typed,
relaxed matching word by word, translations, a correction): each has its own bound, and
together they once ran 5-20 s past the documented 5 s stop. A search's engine handle is
wrapped here with one budget of engine time for the whole search: once its queries have
taken it, every further query is refused ("query too expensive: the search took more than
5 s; narrow it"), on both engines, and on Whoosh each query also stops when the budget is
spent (its time limit is what is left). What is not an engine query (loading a dictionary
once per process, making snippets) does not count: a search is not refused for a cold
start."""

from __future__ import annotations

import time
from collections.abc import Sequence

from indexer.index.query_syntax import QUERY_SECONDS, FNode, QueryTooExpensive


class Bounded:
    """`engine` (an EngineSearcher) whose queries together may take `seconds`."""

    def __init__(self, engine, seconds: float = QUERY_SECONDS, shown: float = QUERY_SECONDS
                 ) -> None:
        self._engine = engine
        self._left = seconds
        self._shown = shown  # (the stop the message names)

    def _call(self, name: str, *args):
        if self._left <= 0:
            raise QueryTooExpensive(f"the search took more than {self._shown:g} s")
        stops = hasattr(self._engine, "until")  # (Whoosh: each query stops at the budget)
        start = time.monotonic()
        if stops:
            self._engine.until = start + self._left
        try:
            return getattr(self._engine, name)(*args)
        finally:
            self._left -= time.monotonic() - start
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
