"""One provision (a model-convention topic) across treaties, whatever its article number."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from indexer.errors import NotFoundError
from search.compare.links import UNMATCHED, UnionFind
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


def _topic(topic: str) -> str:
    """The topic key of a key or of a display name in any language."""
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
    topic = _topic(topic)
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
