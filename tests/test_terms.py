"""The bilingual term table learnt at index time (`indexer.index.terms`)."""

from __future__ import annotations

from indexer.datadir import live
from indexer.index.analysis import analyse
from indexer.index.documents import index_docs
from indexer.index.terms import TermSample, learn, load_terms
from indexer.models import IndexDoc


def _table(data):
    sample = TermSample()
    for _ in sample.tee(index_docs(live(data))):
        pass
    return learn(sample)


def _term(word: str, lang: str) -> str:
    return analyse(word, lang)[0].term


def test_the_table_pairs_treaty_terms_across_languages(ingested):
    table = _table(ingested)
    assert "退休金" in table["pt"]["zh"][_term("pensões", "pt")]
    assert _term("dividends", "en") in table["zh"]["en"]["股息"]
    # parallel versions of one treaty: the 1965 agreement's Swedish and English
    assert _term("royalty", "sv") in table["en"]["sv"][_term("royalties", "en")]


def test_the_index_holds_the_table(ingested):
    from search.results import SearchSession

    with SearchSession(ingested) as s:
        table = s.searcher.terms()
        assert table and table == load_terms(s.searcher.path)


def _doc(n: int, lang: str, topic: str, text: str, treaty: str = "t") -> IndexDoc:
    return IndexDoc(id=f"{treaty}/{lang}/art_{n}", treaty=treaty, parties=(), lang=lang,
                    kind="article", eid=f"art_{n}", article_eid=f"art_{n}", number=n,
                    label=None, title="", topic=topic, topic_names="", text=text, raw=text)


def test_the_sample_is_bounded_whatever_the_corpus_size():
    from indexer.index import terms

    sample = TermSample()
    docs = (_doc(i, "en", "dividends", f"word{i}", treaty=f"t{i}") for i in range(5000))
    for _ in sample.tee(docs):
        pass
    assert len(sample.texts) <= terms.PER_TOPIC + terms.TREATIES
