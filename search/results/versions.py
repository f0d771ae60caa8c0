"""One result per article, not one per language version: the groups of one article in
several languages (br-se-1965 Art. 7 in en, pt and sv) become one entry, ranked where its
best version ranks. The entry shows the version in the query's language when that version
matched (or the language asked for), else its best; the languages that matched are listed
with it, best first.

The query's language is read off the index's vocabulary: the language whose texts use the
query's words most (Han characters: Chinese). When its script alone tells the language (Han
characters, of the corpus's languages only Chinese), the entries with a version in that
language come first among those matched alike (every word as written, some of them, or
through translations): a Chinese query answers from the Chinese texts first, then from the
others through their topic names and the term table. Before that, the entries on the topic
the query names (`topic_hint`) lead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from indexer.index.chinese import has_han
from search.results.grouping import Group


def query_language(words: Sequence[str], surface: dict[str, dict[str, int]]) -> str | None:
    """The language whose vocabulary (`surface`: per language, word -> count) holds the
    query's words most (summed log counts); None when none has them. Han characters are
    Chinese (the index analyses them so; its surface vocabulary is of Latin words only)."""
    if any(map(has_han, words)):
        return "zh"
    best, best_score = None, 0.0
    for lang, vocab in surface.items():
        score = sum(math.log1p(vocab.get(w.lower(), 0)) for w in words)
        if score > best_score:
            best, best_score = lang, score
    return best


def script_language(words: Sequence[str]) -> str | None:
    """The language the script of the query's words tells for certain: "zh" for Han
    characters; None for Latin letters (en, pt and sv share them)."""
    return "zh" if any(map(has_han, words)) else None


def preferred_first(entries: list[list[Group]], lang: str | None = None,
                    topic: str | None = None) -> list[list[Group]]:
    """`entries` (best first) with those on `topic` first, then those with a version in
    `lang`, within each run of entries matched alike (all words, relaxed, translated); the
    order otherwise kept."""
    if lang is None and topic is None:
        return entries
    out: list[list[Group]] = []
    run: list[list[Group]] = []
    for e in entries:
        if run and _alike(run[0]) != _alike(e):
            out += _preferred(run, lang, topic)
            run = []
        run.append(e)
    return out + _preferred(run, lang, topic)


def _alike(entry: list[Group]) -> tuple[bool, bool]:
    return (entry[0].relaxed, entry[0].translated)


def _preferred(run: list[list[Group]], lang: str | None, topic: str | None
               ) -> list[list[Group]]:
    def key(e: list[Group]) -> tuple[bool, bool]:
        on_topic = topic is not None and any(g.docs[0][1].topic == topic for g in e)
        in_lang = lang is not None and any(g.lang == lang for g in e)
        return (not on_topic, not in_lang)

    return sorted(run, key=key)  # (stable)


def topic_first(entries: list[list[Group]], topic: str) -> list[list[Group]]:
    """`entries` with those on `topic` first, however matched (the article a practitioner's
    shorthand names: "PE" is the permanent-establishment article); the order otherwise
    kept."""
    def on_topic(e: list[Group]) -> bool:
        return any(g.docs[0][1].topic == topic for g in e)

    return [e for e in entries if on_topic(e)] + [e for e in entries if not on_topic(e)]


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
