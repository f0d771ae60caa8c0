"""One provision (a model-convention topic) across treaties, whatever its article number."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from indexer.errors import NotFoundError
from search.compare.links import UNMATCHED, UnionFind, paragraph_links
from search.compare.rows import TermTable, align_rows
from search.corpus import Corpus


def _topic_keys() -> dict[str, dict[str, str]]:
    from indexer.topics import TOPICS

    return TOPICS


def article_topics(corpus: Corpus, treaty: str) -> dict[tuple[str, str], str | None]:
    """The topic of every article of `treaty`, per (lang, eid): the majority topic of the
    article's linked group, so versions agree even when one was classified differently."""
    rows = corpus.db.execute(
        "SELECT lang, eid, topic FROM units WHERE treaty=? AND kind='article' ORDER BY seq",
        (treaty,)).fetchall()
    joined = UnionFind()
    for r in rows:
        joined.find((r["lang"], r["eid"]))
    for x in corpus.db.execute(
            "SELECT * FROM links WHERE treaty=? AND level='article' AND method != ?",
            (treaty, UNMATCHED)):
        joined.union((x["lang_a"], x["eid"]), (x["lang_b"], x["eid_b"]))
    votes: dict = defaultdict(Counter)
    for r in rows:
        if r["topic"]:
            votes[joined.find((r["lang"], r["eid"]))][r["topic"]] += 1
    out = {}
    for r in rows:
        v = votes.get(joined.find((r["lang"], r["eid"])))
        out[r["lang"], r["eid"]] = v.most_common(1)[0][0] if v else None
    return out


def topic_key(topic: str) -> str:
    """The topic key of a key or of a display name in any language (NotFoundError)."""
    keys = _topic_keys()
    if topic in keys:
        return topic
    matches = [k for k, names in keys.items()
               if topic.lower() in (n.lower() for n in names.values())]
    if len(matches) != 1:
        raise NotFoundError(f"unknown topic '{topic}' (topics: {', '.join(keys)})")
    return matches[0]


def compare_topic(corpus: Corpus, topic: str, lang: str | None = None,
                  treaties: Sequence[str] | None = None) -> dict:
    """The article on `topic` (a model-convention key such as "dividends") of every treaty, in
    every language (or `lang` only), whatever its number."""
    topic = topic_key(topic)
    if lang:  # a language no treaty is written in: say which there are
        from search.names import known_language

        lang = known_language(lang, sorted({lg for t in corpus.treaties()
                                            for lg in t.languages}))
    ids = list(treaties) if treaties else [t.id for t in corpus.treaties()]
    articles = []
    for tid in ids:
        t = corpus.treaty(tid)
        if lang and lang not in t.languages:
            continue
        topics = article_topics(corpus, t.id)
        for lg in t.languages:
            if lang and lg != lang:
                continue
            for node in corpus.tree(t.id, lg):
                if node["kind"] == "article" and topics.get((lg, node["eid"])) == topic:
                    articles.append({
                        "treaty": t.id, "lang": lg, "eid": node["eid"],
                        "number": node["number"], "label": node["label"],
                        "title": node["title"], "text": node["text"],
                    })
    return {"topic": topic, "articles": articles}


def topic_treaties(corpus: Corpus, topic: str) -> list[str]:
    """The treaties (in the corpus's order) with an article some version of which has the
    topic key `topic`: those `compare_topic` can find it in, read off one index of the store
    rather than every treaty's articles."""
    return [r["treaty"] for r in corpus.db.execute(
        "SELECT DISTINCT treaty FROM units WHERE kind = 'article' AND topic = ? "
        "ORDER BY treaty", (topic,))]


def topic_columns(corpus: Corpus, articles: list[dict], lang: str | None) -> list[dict]:
    """A column per article of `compare_topic`'s `articles`, treaty by treaty (in their
    order there, the corpus's): in `lang`
    where the treaty has the article in it, else in the first language that has it
    ("fallback"). Each has treaty, lang, eid, number, head (the unit tree) and fallback."""
    by_treaty: dict[str, list[dict]] = {}
    for a in articles:
        by_treaty.setdefault(a["treaty"], []).append(a)
    columns: list[dict] = []
    for tid, arts in by_treaty.items():
        t = corpus.treaty(tid)
        have = [lg for lg in t.languages if any(a["lang"] == lg for a in arts)]
        use = lang if lang in have else have[0]
        for a in [a for a in arts if a["lang"] == use]:
            tree = corpus.tree(t.id, use, top=a["eid"])
            columns.append({"treaty": t, "lang": use, "eid": a["eid"], "number": a["number"],
                            "head": tree[0], "fallback": bool(lang) and use != lang})
    return columns


def paragraph_versions(corpus: Corpus, col: dict) -> list[dict[str, str]]:
    """Each paragraph of a column as its text in the column's language and in the treaty's
    other versions (the paragraph linked to it, else the one of the same eId)."""
    treaty, lang = col["treaty"], col["lang"]
    paras = [{lang: p["text"] or ""} for p in col["head"]["children"]]
    for other in treaty.languages:
        if other == lang:
            continue
        tree = corpus.tree(treaty.id, other, top=col["eid"])
        if not tree:
            continue
        texts = {p["eid"]: p["text"] or "" for p in tree[0]["children"]}
        linked: dict[str, str] = {}
        for theirs, (mine, _score, _method) in paragraph_links(corpus, treaty.id, lang, other).items():
            linked.setdefault(mine, theirs)
        for p, node in zip(paras, col["head"]["children"], strict=True):
            text = texts.get(linked.get(node["eid"], node["eid"]))
            if text:
                p[other] = text
    return paras


def topic_rows(corpus: Corpus, columns: list[dict], table: TermTable | None) -> list[dict]:
    """The columns' paragraphs in rows by content (`search.compare.rows`): per row, `cells`,
    a paragraph tree or None per column."""
    rows = align_rows([paragraph_versions(corpus, c) for c in columns], table)
    kids = [c["head"]["children"] for c in columns]
    return [{"cells": [None if j is None else kids[k][j] for k, j in enumerate(row)]}
            for row in rows]
