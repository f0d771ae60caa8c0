"""The query trees a search runs: the query compiled for the index's fields, and the OR of
its plain words for relaxed matching."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from indexer.index.analysis import Token, analyse_query_term
from indexer.index.chinese import has_han
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
    """The words of a query made only of plain words (ANDed), else None. An unquoted run of
    Chinese ("股息如何征税") is the words the segmenter cuts it into, as a space would
    separate them in the other languages."""
    if isinstance(tree, Word):
        return han_words(tree)
    if isinstance(tree, And) and all(isinstance(c, Word) for c in tree.children):
        return [w for c in tree.children for w in han_words(c)]  # type: ignore[arg-type]
    return None


def han_words(word: Word) -> list[Word]:
    """`word`, or the words of a plain run of Chinese: the longest token at each position
    of its analysis (the sub-words the index also holds are searched with each), each word
    once (a run that repeats a word is not searched once per repetition)."""
    if word.prefix or word.fuzzy is not None or not has_han(word.text):
        return [word]
    longest: dict[int, Token] = {}
    for t in analyse_query_term(word.text, "zh"):
        best = longest.get(t.pos)
        if best is None or t.end - t.start > best.end - best.start:
            longest[t.pos] = t
    cut = list(dict.fromkeys(Word(word.text[t.start:t.end])
                             for _pos, t in sorted(longest.items())))
    return cut if len(cut) > 1 else [word]


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
