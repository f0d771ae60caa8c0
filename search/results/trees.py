"""The query trees a search runs: the query compiled for the index's fields, and the OR of
its plain words for relaxed matching."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from indexer.index.query_syntax import (
    And,
    FNode,
    FNone,
    FOr,
    Node,
    Or,
    Word,
    compile_query,
    leaves,
)


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


def relaxed_tree(words: Sequence[Word], langs: Sequence[str],
                 word_tree: Callable[[Word], FNode] | None = None) -> FNode:
    """The OR of the words (what a relaxed hit matches some of); `word_tree` compiles one
    word (default: as written)."""
    if not words:
        return FNone()
    if word_tree is None:
        return compiled(Or(tuple(words)) if len(words) > 1 else words[0], langs)
    kids = [t for t in map(word_tree, words) if not isinstance(t, FNone)]
    if not kids:
        return FNone()
    return kids[0] if len(kids) == 1 else FOr(tuple(kids))
