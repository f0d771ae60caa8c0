"""Practitioners' shorthand on the real texts: the abbreviations lawyers type (PE, MAP, LOB,
WHT, DTA…) and the names of the model articles' rules (tie-breaker, force of attraction,
183-day rule) reach the article they mean in every language of the corpus, are never
"corrected" into other words, and say how they were read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from search.results import SearchSession
from search.results.shorthand import read, table

#: (query, --lang) -> (treaty, article) of the first hit: the article the shorthand names.
CASES = {
    ("PE definition", "en"): ("br-pe-2006", "art_5"),
    ("PE definition", "pt"): ("br-co-2022", "art_5"),
    ("PE definition", "sv"): ("br-se-1965", "art_18"),  # the 1965 agreement defines it there
    ("PE definition", "zh"): ("br-cn-1991", "art_5"),
    ("tie-breaker rule dual resident", "en"): ("br-pe-2006", "art_4"),
    ("tie-breaker rule dual resident", "pt"): ("br-co-2022", "art_4"),
    ("tie-breaker rule dual resident", "zh"): ("br-cn-1991", "art_4"),
    ("force of attraction", "en"): ("br-pe-2006", "art_7"),
    ("force of attraction", "pt"): ("br-co-2022", "art_7"),
    ("force of attraction", "sv"): ("br-se-1965", "art_8"),
    ("force of attraction", "zh"): ("br-cn-1991", "art_7"),
    ("183-day rule", "en"): ("br-pe-2006", "art_15"),
    ("183-day rule", "pt"): ("br-co-2022", "art_16"),
    ("183-day rule", "zh"): ("br-cn-1991", "art_15"),
    ("MAP", "en"): ("br-pe-2006", "art_24"),
    ("MAP", "pt"): ("br-co-2022", "art_26"),
    ("MAP", "zh"): ("br-cn-1991", "art_25"),
    ("LOB", "pt"): ("br-co-2022", "art_28"),
    ("PPT", "pt"): ("br-co-2022", "art_28"),
}
#: the topics a withholding-tax query may answer with: the source-state limits
WHT_TOPICS = {"dividends", "interest", "royalties", "technical-services"}


@pytest.fixture(scope="module")
def session(ingested):
    with SearchSession(ingested) as s:
        yield s


@pytest.mark.parametrize("query,lang", list(CASES))
def test_shorthand_reaches_its_article_in_every_language(session, query, lang):
    result = session.search(query, lang=lang, limit=3)
    first = result["hits"][0]
    assert (first["treaty"], first["eid"]) == CASES[query, lang], (query, lang, first)
    assert result["read_as"] and result["suggestions"] == []  # no "did you mean: per"


def test_pe_is_read_not_corrected(session):
    result = session.search("PE definition", limit=3)
    assert result["read_as"] == [{"typed": "PE", "as": "permanent establishment"}]
    assert result["searched"] == "permanent establishment definition"
    assert result["corrected"] is None and result["showing"] is None
    assert result["hits"][0]["topic"] == "permanent-establishment"
    as_typed = session.search("PE definition", limit=3, correct=False)
    assert as_typed["read_as"] == [] and as_typed["searched"] is None


@pytest.mark.parametrize("lang", ["en", "pt", "zh"])
def test_withholding_tax_reaches_the_limits(session, lang):
    hits = session.search("WHT", lang=lang, limit=3)["hits"]
    assert len(hits) == 3 and {h["topic"] for h in hits} <= WHT_TOPICS


def test_dta_with_the_parties_reaches_their_treaty(session):
    hits = session.search("DTA Brazil Peru", limit=3)["hits"]
    assert {h["treaty"] for h in hits} == {"br-pe-2006"}


@pytest.mark.parametrize("query", ["map of the territory", "pe", "Map"])
def test_words_are_not_abbreviations(query):
    assert read(query).read == ()  # an abbreviation counts only as typed in capitals


def test_the_table_is_data_every_entry_reads_as_itself():
    from indexer.topics import TOPICS

    for entry in table():
        assert entry.topic is None or entry.topic in TOPICS
        for typed in (*entry.abbreviations, *entry.names):
            got = read(typed)
            assert got.read and got.topic == entry.topic, typed


@given(st.text(max_size=60))
def test_reading_any_text_never_fails(text):
    got = read(text)
    assert isinstance(got.query, str) and (got.read or got.query == text)


def test_the_web_says_how_it_read_the_query(ingested):
    from search.web import create_app

    html = create_app(ingested).test_client().get("/search?q=PE+definition").get_data(
        as_text=True)
    assert "Read <q>PE</q> as <q>permanent establishment</q>" in html
    assert "Did you mean" not in html
