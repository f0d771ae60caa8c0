"""`treaty search` through click's CliRunner and `search.results` directly, on the ingested
bundled corpus: the JSON contract, grouping, citations, --aligned, did-you-mean, filters,
one-line errors, and random input that never ends in a traceback."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from search.cli import main
from search.results import SearchSession, citation

runner = CliRunner()


def run(data, *args: str, **kw):
    return runner.invoke(main, ["search", "--data", str(data), *args], **kw)


def search_json(data, *args: str) -> dict:
    result = run(data, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


# --- the JSON contract -----------------------------------------------------------------------


def test_json_contract(ingested):
    out = search_json(ingested, "beneficial", "owner", "dividends")
    assert set(out) >= {"query", "total", "suggestions", "hits"}
    assert out["query"] == "beneficial owner dividends"
    assert out["total"] >= len(out["hits"]) >= 2
    hit = out["hits"][0]
    assert {"treaty", "lang", "kind", "number", "eid", "citation", "score", "snippets",
            "paragraphs"} <= set(hit)
    assert (hit["treaty"], hit["lang"], hit["kind"], hit["number"], hit["eid"]) == (
        "br-pe-2006", "en", "article", 10, "art_10")
    assert hit["citation"] == "br-pe-2006 Art. 10(2)"
    assert hit["paragraphs"][0] == "art_10__para_2"
    assert all(p.startswith("art_10__para_") for p in hit["paragraphs"])
    assert "<b>beneficial</b> <b>owner</b>" in hit["snippets"][0]
    assert isinstance(hit["score"], float)


def test_one_hit_per_article_best_first(ingested):
    """The language versions of an article are one hit, which lists the languages that
    matched (best first) and each version's paragraphs."""
    out = search_json(ingested, "dividends", "--limit", "50")
    keys = [(h["treaty"], h["eid"]) for h in out["hits"]]
    assert len(keys) == len(set(keys)) == out["total"]
    one = next(h for h in out["hits"] if (h["treaty"], h["eid"]) == ("br-se-1965", "art_3"))
    assert sorted(one["languages"]) == ["en", "pt", "sv"] and one["lang"] == "en"
    assert set(one["versions"]) == {"en", "pt", "sv"}
    assert one["versions"]["sv"]["paragraphs"][0].startswith("art_3")
    exact = [h["score"] for h in out["hits"] if not h["relaxed"] and not h["translated"]]
    assert exact == sorted(exact, reverse=True)
    assert {lg for h in out["hits"] for lg in h["languages"]} >= {"en", "pt", "sv", "zh"}


def test_relaxed_hits_rank_below_full_matches(ingested):
    out = search_json(ingested, "students'", "payments", "for", "maintenance")
    flags = [h["relaxed"] for h in out["hits"]]
    assert flags == sorted(flags) and flags[0] is False and flags[-1] is True
    assert [h["treaty"] for h in out["hits"][:2]] == ["br-pe-2006", "br-se-1965"]
    out = search_json(ingested, "tax", "on", "pensions")  # no paragraph has all three
    top = out["hits"][0]
    assert (top["treaty"], top["eid"]) in {("br-pe-2006", "art_18"), ("br-se-1965", "art_12")}
    assert top["relaxed"]


def test_partial_matches_count_words_over_the_whole_article(ingested):
    """An article whose paragraphs between them hold most of the words follows the full
    matches; a word the corpus does not have at all does not empty the result."""
    out = search_json(ingested, "dividends", "fixed", "base", "Lima", "--treaty", "br-pe-2006")
    assert any(h["eid"] == "art_10" and h["relaxed"] for h in out["hits"])
    out = search_json(ingested, "owner", "xyzzyq", "--treaty", "br-pe-2006")
    assert out["total"] >= 3 and {"art_10", "art_11", "art_12"} <= {h["eid"] for h in out["hits"]}


def test_a_country_named_in_the_query_narrows_to_its_treaties(ingested):
    """'dividends Peru': the dividends article of the treaty with Peru comes first, though
    "Peru" is not printed in it."""
    out = search_json(ingested, "dividends", "Peru")
    assert (out["hits"][0]["treaty"], out["hits"][0]["eid"]) == ("br-pe-2006", "art_10")
    out = search_json(ingested, "royalties", "Colômbia")
    assert (out["hits"][0]["treaty"], out["hits"][0]["eid"]) == ("br-co-2022", "art_12")


def test_a_query_without_matches_is_searched_as_corrected(ingested):
    out = search_json(ingested, "permanent", "establishmnet", "--treaty", "br-pe-2006")
    assert out["showing"] == out["corrected"] == "permanent establishment"
    assert out["hits"][0]["eid"] == "art_5" and not out["hits"][0]["relaxed"]
    out = search_json(ingested, "permanent", "establishment", "--treaty", "br-pe-2006")
    assert out["showing"] is None


@pytest.mark.parametrize("treaty,kind,number,article,eid,expected", [
    ("br-pe-2006", "article", 10, "art_10", "art_10__para_2", "br-pe-2006 Art. 10(2)"),
    ("br-se-1975", "article", 26, "art_26A", "art_26A__para_1", "br-se-1975 Art. 26A(1)"),
    ("br-pe-2006", "article", 10, "art_10", "art_10", "br-pe-2006 Art. 10"),
    ("br-pe-2006", "article", 10, "art_10", None, "br-pe-2006 Art. 10"),
    ("br-cn-1991", "article", 5, "art_5", "art_5__para_12", "br-cn-1991 Art. 5(12)"),
    ("br-pe-2006", "protocol", 4, "prot_4", "prot_4", "br-pe-2006 Protocol 4"),
    ("br-pe-2006", "protocol", 2, "prot_2", "prot_2__para_1", "br-pe-2006 Protocol 2"),
    ("br-pe-2006", "preamble", None, "preamble", "preamble", "br-pe-2006 preamble"),
    ("br-se-1965", "other", None, "other_2", "other_2", "br-se-1965 other_2"),
    ("br-pe-2006", "protocol", None, "protocol", "protocol", "br-pe-2006 protocol"),
])
def test_citation_strings(treaty, kind, number, article, eid, expected):
    assert citation(treaty, kind, number, article, eid) == expected


def test_citation_of_protocol_and_chinese_hits(ingested):
    hit = search_json(ingested, "Peru", "--kind", "protocol", "--limit", "1")["hits"][0]
    assert hit["kind"] == "protocol" and hit["citation"] == f"br-pe-2006 Protocol {hit['number']}"
    hit = search_json(ingested, "股息", "--lang", "zh", "--limit", "1")["hits"][0]
    assert hit["citation"].startswith("br-cn-1991 Art. 10(")


# --- aligned paragraphs ------------------------------------------------------------------


def test_aligned_on_the_three_version_treaty(ingested):
    out = search_json(ingested, "utdelning", "--treaty", "br-se-1965", "--lang", "sv",
                      "--aligned", "--limit", "1")
    hit = out["hits"][0]
    assert (hit["treaty"], hit["lang"], hit["eid"]) == ("br-se-1965", "sv", "art_3")
    aligned = hit["aligned"]
    assert set(aligned) == {"en", "pt"}
    for lg, units in aligned.items():
        assert units and all(u["eid"].startswith("art_3") for u in units), (lg, units)
        assert all(u["text"] and u["method"] != "unmatched" for u in units)
    assert "Dividends" in " ".join(u["text"] for u in aligned["en"])
    assert "dividendos" in " ".join(u["text"] for u in aligned["pt"])


def test_aligned_falls_back_to_same_eid_without_links(ingested, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    from indexer import store
    from indexer.datadir import live

    shutil.copy(store.store_path(ingested), data / "corpus.sqlite")
    with sqlite3.connect(data / "corpus.sqlite") as db:
        db.execute("DELETE FROM links")
    with SearchSession(data, live(ingested) / "index") as s:
        hit = s.search("dividends", treaty="es-pt-1993", lang="en", limit=1, aligned=True)
        units = hit["hits"][0]["aligned"]["pt"]
    assert units and {u["method"] for u in units} == {"same-eid"}
    assert units[0]["eid"] == units[0]["of"]


def test_aligned_text_output(ingested):
    result = run(ingested, "utdelning", "--treaty", "br-se-1965", "--lang", "sv", "--aligned",
                 "--limit", "1")
    assert result.exit_code == 0, result.output
    assert "Brazil–Sweden (1965) Art. 3(" in result.output  # names, not codes
    assert "    en art_3__para_" in result.output and "    pt art_3__para_" in result.output


# --- did you mean --------------------------------------------------------------------------


def test_did_you_mean(ingested):
    out = search_json(ingested, "dividents")
    assert "dividends" in out["suggestions"]
    assert out["corrected"] == "dividends"
    result = run(ingested, "dividents")
    assert result.exit_code == 0
    assert "Did you mean: dividends" in result.output


def test_no_suggestion_for_words_the_index_knows(ingested):
    for q in ("mutual agreement procedure", "entry into force", "tributacao", "pensions"):
        assert search_json(ingested, q)["suggestions"] == [], q


def test_absent_word_gets_a_suggestion_and_the_corrected_results(ingested):
    out = search_json(ingested, "permanent", "establisment")
    assert "establishment" in out["suggestions"]
    assert out["showing"] == "permanent establishment" and out["total"] > 0


# --- filters -------------------------------------------------------------------------------


@pytest.mark.parametrize("args,check", [
    (["--treaty", "br-cn-1991"], lambda h: h["treaty"] == "br-cn-1991"),
    (["--treaty", "BR-CN-1991"], lambda h: h["treaty"] == "br-cn-1991"),
    (["--lang", "zh"], lambda h: h["lang"] == "zh"),
    (["--party", "pe"], lambda h: h["treaty"] == "br-pe-2006"),
    (["--topic", "dividends"], lambda h: h["topic"] == "dividends"),
    (["--topic", "Utdelning"], lambda h: h["topic"] == "dividends"),
    (["--article", "10"], lambda h: h["number"] == 10 and h["kind"] == "article"),
    (["--article", "X", "--treaty", "br-se-1965"], lambda h: h["eid"] == "art_10"),
    (["--kind", "protocol"], lambda h: h["kind"] == "protocol"),
])
def test_filters(ingested, args, check):
    query = "tax" if "--article" in args or "--kind" in args else "dividends"
    out = search_json(ingested, query, *args, "--limit", "50")
    assert out["hits"], args
    assert all(check(h) for h in out["hits"]), [(h["citation"], h["lang"]) for h in out["hits"]]


def test_cross_language_query(ingested):
    out = search_json(ingested, "dividends", "--lang", "zh")
    assert [(h["treaty"], h["eid"]) for h in out["hits"]][:1] == [("br-cn-1991", "art_10")]


def test_query_syntax(ingested):
    assert search_json(ingested, '"beneficial owner"', "--lang", "en")["total"] >= 3
    assert search_json(ingested, "dividend*", "--lang", "en")["hits"][0]["topic"] == "dividends"
    both = search_json(ingested, "interest", "--lang", "en", "--limit", "50")["total"]
    fewer = search_json(ingested, "interest NOT dividends", "--lang", "en", "--limit", "50")
    assert fewer["total"] < both
    assert search_json(ingested, "dividents~", "--lang", "en")["total"] >= 3
    out = search_json(ingested, '"beneficial owner', "AND")  # invalid: plain words
    assert out["plain"] is True and out["hits"]


# --- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize("args,line", [
    (["x", "--treaty", "xx-yy-1999"], ("Error: no treaty 'xx-yy-1999' (the corpus has: "
                                      "br-cn-1991, br-co-2022, br-pe-2006, br-se-1965, "
                                      "es-pt-1993)")),
    (["x", "--lang", "fr"], ("Error: the corpus has no Français ('fr') text: it has en "
                             "(English), pt (Português), sv (Svenska), zh (中文)")),
    (["x", "--lang", "klingon"], "Error: --lang: unknown language 'klingon': give a code or a name"),
    (["x", "--topic", "gifts"], "Error: unknown topic 'gifts': use one of persons-covered, "),
    (["x", "--party", "FR"], ("Error: no treaty with party 'FR' (parties in the corpus: "
                             "BR (Brazil), CN (China), CO (Colombia), ES (Spain), PE (Peru), "
                             "PT (Portugal), SE (Sweden))")),
    (["x", "--party", "Atlantis"], "Error: --party: unknown party 'Atlantis': give an ISO 3166 code"),
    (["x", "--kind", "section"], ("Error: unknown kind 'section': use one of title, preamble, "
                                 "chapter, article, protocol, closing, annex, other")),
    (["x", "--article", "ten"], ("Error: --article must be an article number (10 or X), not "
                                "'ten'")),
])
def test_bad_option_values_are_one_line(ingested, args, line):
    result = run(ingested, *args)
    assert result.exit_code == 1
    assert result.output.startswith(line), result.output
    assert result.output.count("\n") == 1


def test_missing_corpus_is_one_line(tmp_path):
    result = run(tmp_path / "nothing", "dividends")
    assert result.exit_code == 1
    assert result.output.startswith("Error: no search index in ")
    assert result.output.count("\n") == 1


def test_engine_recorded_in_the_index_wins(ingested, monkeypatch):
    built = json.loads(run(ingested, "dividends", "--json").output)["engine"]
    other = "tantivy" if built == "whoosh" else "whoosh"
    monkeypatch.setenv("TREATY_ENGINE", other)
    out = search_json(ingested, "dividends")
    assert out["engine"] == built and out["hits"]


# --- terminal output -----------------------------------------------------------------------


def test_text_output_is_readable(ingested):
    result = run(ingested, "beneficial", "owner", "dividends", "--limit", "2", color=True)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert "Brazil–Peru (2006) Art. 10(2)" in lines[0] and "[en]" in lines[0] and "score" in lines[0]
    assert "\x1b[1m" in lines[0]  # bold citation
    assert "\x1b[1m\x1b[4mbeneficial" in result.output  # matches bold + underlined
    assert "<b>" not in result.output
    assert lines[-1] == "2 articles match; 2 shown." or lines[-1].endswith("2 shown.")


def test_help_has_examples():
    result = runner.invoke(main, ["search", "--help"])
    assert result.exit_code == 0 and "Examples:" in result.output


# --- never a traceback ---------------------------------------------------------------------

QUERY_CHARS = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60
) | st.sampled_from(['"', '"a', "(", ")", "AND", "OR NOT", "*", "~", "a~9", "**", "~~", "NOT",
                     "(a OR", "x*y", "\x00", "股息~", "é*", "-", "\\"])


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=QUERY_CHARS, lang=st.sampled_from([None, "en", "zh", "xx", ""]),
       as_json=st.booleans())
def test_random_queries_never_raise(ingested, query, lang, as_json):
    args = ["--", query] if query else [""]
    opts = (["--lang", lang] if lang is not None else []) + (["--json"] if as_json else [])
    result = runner.invoke(main, ["search", "--data", str(ingested), *opts, *args])
    assert result.exit_code in (0, 1), (query, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        query, repr(result.exception))
    if as_json and result.exit_code == 0:
        assert json.loads(result.output)["query"] is not None


@pytest.mark.parametrize("engine", ["whoosh", "tantivy"])
def test_page_from_few_hits_equals_grouping_every_match(ingested, tmp_path, monkeypatch, engine):
    """Ranking a page from the top hits (deepening when a bound fails) gives exactly the
    result of grouping every match; so does an index without group numbers."""
    from indexer.index import build_index, index_docs

    build_index(index_docs(ingested), tmp_path / "ix", engine=engine, workers=1)
    queries = [("resident", {}), ("dividends", {"limit": 20}), ('"permanent establishment"', {}),
               ("divid*", {"limit": 3}), ("tax", {"lang": "en", "limit": 7}),
               ("interest AND NOT dividends", {})]
    with SearchSession(ingested, tmp_path / "ix") as s:
        monkeypatch.setattr(s.searcher, "groups", lambda: None)  # the old path: every match
        expected = [s.search(q, **kw) for q, kw in queries]

    class FewFirstHits(SearchSession):  # ranks from two hits first, deepening as needed
        first_hits, per_group = 2, 1

    with FewFirstHits(ingested, tmp_path / "ix") as s:
        assert s.searcher.groups() is not None
        assert [s.search(q, **kw) for q, kw in queries] == expected


def test_text_output_counts_one_article_in_the_singular(ingested):
    result = run(ingested, "advisors")
    assert result.exit_code == 0 and "1 article matches; 1 shown." in result.output


def test_text_output_says_which_query_it_shows(ingested):
    result = run(ingested, "permanent", "establishmnet", "--treaty", "br-pe-2006")
    assert "Showing results for 'permanent establishment'" in result.output
    typed = run(ingested, "permanent", "establishmnet", "--treaty", "br-pe-2006", "--as-typed")
    assert "Did you mean" in typed.output and "(partial match)" in typed.output


def test_a_query_reaches_the_same_provision_in_another_language(ingested):
    """Through the term table learnt at index time (`indexer.index.terms`)."""
    out = search_json(ingested, "pensões", "--lang", "zh")
    assert out["hits"] and out["hits"][0]["eid"] == "art_18"
    out = search_json(ingested, "beneficiário", "efectivo", "--lang", "zh")
    assert {"art_10", "art_11", "art_12"} <= {h["eid"] for h in out["hits"][:5]}
    out = search_json(ingested, "受益所有人", "--treaty", "br-pe-2006")
    assert {"art_10", "art_11", "art_12"} <= {h["eid"] for h in out["hits"][:5]}
    # the words as written come first: a Chinese query's Chinese articles before translations
    out = search_json(ingested, "退休金")
    assert out["hits"][0]["lang"] == "zh"


def test_a_question_with_an_answer_never_returns_nothing(ingested):
    """No article has most of the words: the articles with any of them, by coverage."""
    words = ["are", "students", "taxed", "on", "payments", "from", "abroad", "while", "studying"]
    out = search_json(ingested, *words, "--treaty", "br-se-1965", "--lang", "en")
    assert out["hits"] and all(h["relaxed"] for h in out["hits"])
    assert out["hits"][0]["eid"] == "art_14"  # Article XIV: students


def test_the_version_shown_is_in_the_query_language(ingested):
    out = search_json(ingested, "utdelning", "--treaty", "br-se-1965")
    assert out["hits"][0]["lang"] == "sv" and "sv" in out["hits"][0]["languages"]
    out = search_json(ingested, "royalty", "--treaty", "br-se-1965", "--lang", "pt")
    assert out["hits"][0]["lang"] == "pt"


def test_the_everyday_words_of_a_question_are_not_needed():
    from indexer.index.query_syntax import Word
    from search.results.relaxed import content_words, function_word

    assert all(function_word(Word(w)) for w in ("what", "is", "the", "how", "som", "como"))
    assert not any(function_word(Word(w)) for w in ("interest", "pensões", "utdelning", "股息"))
    words = [Word(w) for w in ["what", "is", "the", "withholding", "rate", "on", "interest"]]
    assert [w.text for w in content_words(words)] == ["withholding", "rate", "interest"]
    assert content_words([Word("what"), Word("is")]) == [Word("what"), Word("is")]


def test_a_typo_inside_a_hyphenated_word_is_corrected(ingested):
    out = search_json(ingested, "non-residnet", "--treaty", "br-pe-2006")
    assert "resident" in out["suggestions"] and out["showing"] == "non-resident"
    assert out["hits"]


def test_a_word_reaches_its_cognates_in_a_treaty_without_its_language(ingested):
    """br-pe-2006 is in English only; "beneficiário" begins as "beneficial" does."""
    out = search_json(ingested, "beneficiário", "efectivo", "--treaty", "br-pe-2006")
    assert {"art_10", "art_11", "art_12"} <= {h["eid"] for h in out["hits"][:5]}
    assert all(h["translated"] or h["relaxed"] for h in out["hits"])


def test_the_printed_form_of_a_repaired_word_finds_its_paragraph(ingested):
    """br-se-1965 Art. 8(6) printed "profils"; the repair made it "profits". A reader who
    copies the printed word finds the paragraph, and "did you mean" never offers a misprint."""
    found = search_json(ingested, "profils", "--as-typed")
    assert found["hits"][0]["citation"] == "br-se-1965 Art. 8(6)"
    corrected = search_json(ingested, "profts")
    assert "profils" not in json.dumps(corrected.get("suggestions", []))
