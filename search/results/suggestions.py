""""Did you mean": the index's suggestions worth showing, and the query with them applied."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from indexer.index import Suggestion
from indexer.index.query_syntax import FNode, Word
from search.results.trees import compiled

#: A word matching more documents than this by itself gets no "did you mean".
RARE_DOCS = 2


def useful(suggestions: Sequence[Suggestion], langs: Sequence[str],
           surface: dict[str, dict[str, int]], match_count: Callable[[FNode], int]
           ) -> list[Suggestion]:
    """The suggestions worth showing: for a word that matches (nearly) nothing by itself
    (`match_count` of its tree), alternatives that are clearly more common in the corpus
    (`surface`: per language, word -> count) than the word as typed (three times as
    common; any count for a word the corpus does not have). (The index's
    vocabulary knows text and title words, not topic names: a word of a topic name only
    looks rare to it, hence the check by matches first.)"""
    if not suggestions:
        return []

    def count(w: str) -> int:
        return sum(words.get(w, 0) for words in surface.values())

    out = []
    for s in suggestions:
        if match_count(compiled(Word(s.term), langs)) > RARE_DOCS:
            continue
        own = count(s.term.lower())
        alts = tuple(a for a in s.alternatives if count(a) >= max(3 * own, 1))
        if alts:
            out.append(Suggestion(s.term, alts))
    return out


def corrected(query: str, suggestions: Sequence[Suggestion]) -> str | None:
    """The query with each suggested word replaced by its first alternative (None: no
    change)."""
    out = query
    for s in suggestions:
        out = re.sub(rf"(?<!\w){re.escape(s.term)}(?!\w)", s.alternatives[0], out)
    return out if out != query else None
