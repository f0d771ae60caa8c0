"""The per-document summaries the ingest writes (`store.SUMMARIES`) say what counting the
store's articles says, and the home page lists the treaties a page at a time from them."""

from __future__ import annotations

from search.compare.topic import topic_treaties
from search.corpus import Corpus
from search.web.pages import home_page


def test_summaries_are_the_counts_of_the_articles(ingested):
    with Corpus(ingested) as corpus:
        assert corpus.summarised
        counted = corpus.db.execute(
            "SELECT treaty, lang, COUNT(*) FROM units WHERE kind = 'article'"
            " GROUP BY treaty, lang ORDER BY 1, 2").fetchall()
        stored = corpus.db.execute(
            "SELECT treaty, lang, SUM(articles) FROM doc_articles GROUP BY 1, 2 HAVING SUM(articles)"
            " ORDER BY 1, 2").fetchall()
        assert [tuple(r) for r in stored] == [tuple(r) for r in counted]
        topics = {r[0] for r in corpus.db.execute(
            "SELECT DISTINCT topic FROM units WHERE kind = 'article' AND topic IS NOT NULL")}
        for topic in topics:
            assert topic_treaties(corpus, topic) == [r[0] for r in corpus.db.execute(
                "SELECT DISTINCT treaty FROM units WHERE kind = 'article' AND topic = ?"
                " ORDER BY treaty", (topic,))]


def test_the_home_page_is_paged(ingested):
    with Corpus(ingested) as corpus:
        whole = home_page(corpus, per_page=100)
        assert whole["pages"] == 1 and whole["total"] == len(corpus.treaties()) == 5
        pages = [home_page(corpus, page, per_page=2) for page in (1, 2, 3, 9)]
        assert [p["page"] for p in pages] == [1, 2, 3, 3]  # past the last: the last
        listed = [item for p in pages[:3] for item in p["treaties"]]
        assert [(i["treaty"].id, i["articles"]) for i in listed] == \
            [(i["treaty"].id, i["articles"]) for i in whole["treaties"]]
