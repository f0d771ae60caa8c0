"""Relaxed matching: a plain-words query with fewer matching articles than asked for (a
paraphrase such as "tax on pensions", a word the corpus does not have) is completed by the
articles that match most of its words (RELAX_SHARE of the words found anywhere, rounded up;
in any of their paragraphs; else any of them, so that a query with an answer never returns
nothing), ranked below every article that has them all: by their coverage (the share of the
query's rarity, idf, that they match, in steps), then by their score. The everyday words of
a question ("what is", "how are": frequent in the general language, `function_word`) are
neither needed nor counted."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol

from indexer.index.query_syntax import FNode, FNone, Word
from indexer.index.suggestions import FUNCTION_ZIPF, general_zipf
from indexer.models import IndexDoc
from search.results.grouping import Group, group
from search.results.trees import compiled, relaxed_tree

#: Relaxed matching: at least this share of the plain words must match (rounded up); when
#: no article has that many, any one word will do.
RELAX_SHARE = 0.6
#: Coverage (the share of the query's idf an article matches) is ranked in steps this fine;
#: within a step, by score.
COVERAGE_STEPS = 10

Key = tuple[str, str, str]  # (treaty, lang, article eId)


class Found(Protocol):
    """Every document matching a tree under the filters (unranked by limit, without
    snippets), best first: each as (score, its article's key, a handle for `doc`)."""

    def __call__(self, tree: FNode, filters: Sequence[tuple[str, str]]
                 ) -> list[tuple[float, Key, object]]: ...

    def doc(self, handle: object) -> IndexDoc:
        """The index document of a match's handle (its stored JSON loaded)."""
        ...


def function_word(word: Word) -> bool:
    """Is `word` one of the everyday words of a question ("what is", "how are"): as
    frequent in everyday en, pt or sv as `FUNCTION_ZIPF` ("the", "what", "how", "som")?"""
    text = word.text.lower()
    return text.isalpha() and general_zipf(text, ("en", "pt", "sv")) >= FUNCTION_ZIPF


def content_words(words: list[Word]) -> list[Word]:
    """`words` without the function words (all of them when every one is)."""
    kept = [w for w in words if not function_word(w)]
    return kept or words


def _words_matched(search_all: Found, n_docs: int, words: list[Word],
                   word_tree: Callable[[Word], FNode], filters: Sequence[tuple[str, str]]
                   ) -> tuple[dict[Key, float], dict[Key, int], float, int]:
    """Per article: the summed idf of the words its paragraphs match and how many words
    they match; the summed idf of every word, and how many words match anywhere."""
    matched: dict[Key, float] = {}
    count: dict[Key, int] = {}
    total, live = 0.0, 0
    for w in words:
        tree = word_tree(w)
        if isinstance(tree, FNone):
            continue
        found = search_all(tree, filters)  # (every document once: its id is its own)
        idf = math.log(1 + n_docs / (1 + len(found)))
        total += idf
        live += bool(found)
        for key in {key for _score, key, _handle in found}:
            matched[key] = matched.get(key, 0.0) + idf
            count[key] = count.get(key, 0) + 1
    return matched, count, total, live


def relaxed_groups(search_all: Found, n_docs: int, words: list[Word],
                   langs: Sequence[str], filters: Sequence[tuple[str, str]],
                   have: list[Group], word_tree: Callable[[Word], FNode] | None = None,
                   topic: str | None = None) -> list[Group]:
    """Articles (other than those in `have`) whose paragraphs match most, not all, of the
    query's words (else any), or some of them when the article is on the `topic` the query
    names: ranked by the share of the words' summed idf that the article matches (in
    COVERAGE_STEPS), then by the BM25F score of the OR of the words. `word_tree` compiles
    one word (default: as written)."""
    word_tree = word_tree or (lambda w: compiled(w, langs))
    words = content_words(words)
    matched, count, total, live = _words_matched(search_all, n_docs, words, word_tree, filters)
    need = max(1, math.ceil(live * RELAX_SHARE))
    ftree = relaxed_tree(words, langs, word_tree)
    if isinstance(ftree, FNone) or not matched or total <= 0:
        return []
    seen = {g.key for g in have}
    found = search_all(ftree, filters)
    out = (_kept(search_all, found, seen, count, need, topic)
           or _kept(search_all, found, seen, count, 1))
    for g in out:
        g.relaxed = True
        g.weight = matched[g.key]
    out.sort(key=lambda g: (-round(COVERAGE_STEPS * g.weight / total), -g.score,
                            g.treaty, g.lang, g.article_eid))
    return out


def _kept(search_all: Found, found: list[tuple[float, Key, object]], seen: set[Key],
          count: dict[Key, int], need: int, topic: str | None = None) -> list[Group]:
    """The groups of the hits `found` of articles not `seen` matching `need` words or more
    (any, for an article on `topic`); only their documents are loaded."""
    kept = []
    for score, key, handle in found:
        if key in seen:
            continue
        if count.get(key, 0) >= need:
            kept.append((score, search_all.doc(handle)))
        elif topic and (doc := search_all.doc(handle)).topic == topic:
            kept.append((score, doc))
    return group(kept)
