"""Relaxed matching: a plain-words query with fewer matching articles than asked for (a
paraphrase such as "tax on pensions", a word the corpus does not have) is completed by the
articles that match most of its words (RELAX_SHARE of the words found anywhere, rounded up;
in any of their paragraphs), ranked below every article that has them all: by how many of
the words they match, then by their score times the share of the query's rarity (idf) that
they match."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence

from indexer.index.engines import EngineHit
from indexer.index.query_syntax import FNode, FNone, Word
from search.results.grouping import Group, group, stored_doc
from search.results.trees import compiled, relaxed_tree

#: Relaxed matching: at least this share of the plain words must match (rounded up).
RELAX_SHARE = 0.6

#: Every document matching a tree under the filters, unranked by limit, without snippets.
SearchAll = Callable[[FNode, Sequence[tuple[str, str]]], tuple[list[EngineHit], int]]


Key = tuple[str, str, str]  # (treaty, lang, article eId)


def _article(stored: str) -> Key:
    data = json.loads(stored)
    return (data["treaty"], data["lang"], data["article_eid"])


def _words_matched(search_all: SearchAll, n_docs: int, words: list[Word],
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
        found, _ = search_all(tree, filters)
        ids = {json.loads(h.stored)["id"] for h in found}
        idf = math.log(1 + n_docs / (1 + len(ids)))
        total += idf
        live += bool(ids)
        for key in {_article(h.stored) for h in found}:
            matched[key] = matched.get(key, 0.0) + idf
            count[key] = count.get(key, 0) + 1
    return matched, count, total, live


def relaxed_groups(search_all: SearchAll, n_docs: int, words: list[Word],
                   langs: Sequence[str], filters: Sequence[tuple[str, str]],
                   have: list[Group], word_tree: Callable[[Word], FNode] | None = None
                   ) -> list[Group]:
    """Articles (other than those in `have`) whose paragraphs match most, not all, of the
    query's words: ranked by the BM25F score of the OR of the words times the share of the
    words' summed idf that the article matches."""
    word_tree = word_tree or (lambda w: compiled(w, langs))
    matched, count, total, live = _words_matched(search_all, n_docs, words, word_tree, filters)
    need = max(1, math.ceil(live * RELAX_SHARE))
    ftree = relaxed_tree(words, langs, word_tree)
    if isinstance(ftree, FNone) or not matched or total <= 0:
        return []
    seen = {g.key for g in have}
    found, _ = search_all(ftree, filters)
    kept = []
    for h in found:
        doc = stored_doc(h.stored)
        key = (doc.treaty, doc.lang, doc.article_eid)
        if key not in seen and count.get(key, 0) >= need:
            kept.append((h.score, doc))
    out = group(kept)
    for g in out:
        g.relaxed = True
        g.weight = matched[g.key]
    out.sort(key=lambda g: (-count[g.key], -g.score * g.weight / total,
                            g.treaty, g.lang, g.article_eid))
    return out
