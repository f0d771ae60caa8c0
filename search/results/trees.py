"""The query trees a search runs: the query compiled for the index's fields, and the OR of
its plain words for relaxed matching."""

from __future__ import annotations

from collections.abc import Sequence

from indexer.index.query_syntax import And, FNode, FNone, Node, Or, Word, compile_query, leaves


def compiled(tree: Node | None, langs: Sequence[str]) -> FNode:
    """`tree` compiled for the fields of `langs`; FNone when nothing in it is searchable."""
    ftree = compile_query(tree, langs)
    if next(iter(leaves(ftree)), None) is None:
        return FNone()  # nothing searchable (empty, punctuation): no hits, not all
    return ftree


def plain_words(tree: Node | None) -> list[Word] | None:
    """The words of a query made only of plain words (ANDed), else None."""
    if isinstance(tree, Word):
        return [tree]
    if isinstance(tree, And) and all(isinstance(c, Word) for c in tree.children):
        return list(tree.children)  # type: ignore[arg-type]
    return None


def relaxed_tree(words: Sequence[Word], langs: Sequence[str]) -> FNode:
    """The OR of the words (what a relaxed hit matches some of)."""
    if not words:
        return FNone()
    return compiled(Or(tuple(words)) if len(words) > 1 else words[0], langs)
