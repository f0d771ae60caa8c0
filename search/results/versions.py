"""One result per article, not one per language version: the groups of one article in
several languages (br-se-1965 Art. 7 in en, pt and sv) become one entry, ranked where its
best version ranks. The entry shows the version in the query's language when that version
matched (or the language asked for), else its best; the languages that matched are listed
with it, best first.

The query's language is read off the index's vocabulary: the language whose texts use the
query's words most (Han characters: Chinese).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from search.results.grouping import Group

_HAN = re.compile(r"[\u3400-\u9fff]")


def query_language(words: Sequence[str], surface: dict[str, dict[str, int]]) -> str | None:
    """The language whose vocabulary (`surface`: per language, word -> count) holds the
    query's words most (summed log counts); None when none has them. Han characters are
    Chinese (the index analyses them so; its surface vocabulary is of Latin words only)."""
    if any(_HAN.search(w) for w in words):
        return "zh"
    best, best_score = None, 0.0
    for lang, vocab in surface.items():
        score = sum(math.log1p(vocab.get(w.lower(), 0)) for w in words)
        if score > best_score:
            best, best_score = lang, score
    return best


def by_article(groups: Sequence[Group]) -> list[list[Group]]:
    """The groups of each article (treaty, article eId) together, in the order in which
    each article's best version comes; within an entry, best version first."""
    out: dict[tuple[str, str], list[Group]] = {}
    for g in groups:
        out.setdefault((g.treaty, g.article_eid), []).append(g)
    return list(out.values())


def first_articles(keys: Sequence[tuple[str, str]], n: int | None) -> list[int]:
    """The positions of `keys` ((treaty, article eId) of ranked groups) that belong to the
    first `n` distinct articles (all when `n` is None)."""
    if n is None:
        return list(range(len(keys)))
    seen: set[tuple[str, str]] = set()
    out = []
    for i, k in enumerate(keys):
        if k not in seen:
            if len(seen) == n:
                continue
            seen.add(k)
        out.append(i)
    return out


def shown(entry: Sequence[Group], prefer: str | None) -> Group:
    """The version an entry shows: the one in `prefer` when it matched, else its best."""
    return next((g for g in entry if g.lang == prefer), entry[0])
