"""What a query's words are taken to be, on the ingested bundled corpus: a typo is corrected
to the likeliest word a typist meant (`typing_cost`), a word of the language that the corpus
lacks is left alone, a heading's words can be suggested, and a run of Chinese is searched as
its words (so that a question in Chinese finds the articles holding most of them)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from indexer.index.query_syntax import levenshtein
from indexer.index.typing_cost import EDIT, FAR_KEY, typing_cost
from search.results import SearchSession
from search.results.topic_hint import query_topic

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzåäöãç", min_size=1, max_size=10)


@given(words, words)
def test_typing_cost_is_a_weighted_edit_distance(a, b):
    cost = typing_cost(a, b)
    assert (cost == 0) == (a == b)
    assert cost == typing_cost(b, a)
    assert cost <= FAR_KEY * levenshtein(a, b)


@given(words, st.integers(min_value=0, max_value=9), st.sampled_from("aeiknrst"))
def test_one_letter_left_out_or_two_swapped_cost_one_edit(word, at, letter):
    at = min(at, len(word))
    assert typing_cost(word, word[:at] + letter + word[at:]) == EDIT
    if at + 1 < len(word) and word[at] != word[at + 1]:
        swapped = word[:at] + word[at + 1] + word[at] + word[at + 2:]
        assert typing_cost(word, swapped) == EDIT


def test_a_letter_left_out_is_likelier_than_a_key_far_away():
    """"pensons" is one edit from both "pensions" and "persons"; an i left out is the
    likelier slip than n for r, so the search shows the pensions articles."""
    assert typing_cost("pensons", "pensions") < typing_cost("pensons", "persons")


def test_the_likeliest_correction_is_searched(ingested):
    with SearchSession(ingested) as s:
        out = s.search("pensons", limit=5)
    assert out["showing"] == "pensions" and out["suggestions"][0] == "pensions"
    assert {h["topic"] for h in out["hits"][:3]} == {"pensions"}


def test_a_word_of_the_language_is_not_corrected(ingested):
    """"arv" (Swedish: inheritance) is in no text of the corpus but is a Swedish word: it is
    not turned into "av" ("of"); the dividends articles still answer "utdelning arv"."""
    with SearchSession(ingested) as s:
        out = s.search("utdelning arv", limit=5)
    assert out["showing"] is None and not out["suggestions"]
    assert out["hits"] and all(h["topic"] == "dividends" for h in out["hits"])


def test_a_word_one_slip_from_a_commoner_word_is_corrected(ingested):
    """"räta" (to straighten) and "skater" are words, but each is one letter short of a
    commoner word the corpus has: "ränta" (interest), "skatter" (taxes)."""
    with SearchSession(ingested) as s:
        assert s.search("räta", limit=5)["showing"] == "ränta"
        assert s.search("skater", limit=5)["showing"] == "skatter"


def test_a_heading_word_is_suggested(ingested):
    """"discrimination" is printed in few paragraphs, but it heads an article of every
    treaty: the misspelt "non-discrimation" is searched as "non-discrimination"."""
    with SearchSession(ingested) as s:
        out = s.search("non-discrimation", limit=5)
    assert out["showing"] == "non-discrimination"
    assert out["hits"] and out["hits"][0]["topic"] == "non-discrimination"


def test_a_chinese_question_is_searched_as_its_words(ingested):
    """"利息如何征税" (how is interest taxed): no paragraph holds all three words, the
    interest article of the Chinese text holds most of them."""
    with SearchSession(ingested) as s:
        out = s.search("利息如何征税", limit=5)
    top = out["hits"][0]
    assert (top["treaty"], top["lang"], top["eid"]) == ("br-cn-1991", "zh", "art_11")
    assert top["relaxed"]


def test_a_chinese_word_the_corpus_lacks_is_searched_as_its_gloss(ingested):
    """"養老金" (pension, Traditional) is in no text: the Chinese text says 退休金. Its
    dictionary gloss "pension" reaches the pensions articles (the Chinese one first, as the
    query is Chinese), as translated hits."""
    with SearchSession(ingested) as s:
        out = s.search("養老金", limit=5)
    top = out["hits"][0]
    assert (top["treaty"], top["lang"], top["eid"]) == ("br-cn-1991", "zh", "art_18")
    assert top["translated"]
    assert {("br-pe-2006", "art_18"), ("br-se-1965", "art_12")} <= {
        (h["treaty"], h["eid"]) for h in out["hits"]}


def test_a_chinese_query_answers_from_the_chinese_texts_first(ingested):
    """Among the articles matched alike (and alike on or off the topic the query names),
    those with a Chinese version come before those reached only through their topic names
    or translations."""
    with SearchSession(ingested) as s:
        for query in ("股息", "特许权使用费", "常设机构", "退休金 政府"):
            hits = s.search(query, limit=10)["hits"]
            topic = query_topic([query])
            tiers = [(h["relaxed"], h["translated"], topic is not None and h["topic"] == topic)
                     for h in hits]
            for tier in set(tiers):
                zh = ["zh" in h["languages"] for h, t in zip(hits, tiers, strict=True)
                      if t == tier]
                assert zh == sorted(zh, reverse=True), (query, tier, zh)
            assert "zh" in hits[0]["languages"], query


def test_the_topic_a_question_names_leads(ingested):
    """"what rate applies to interest": the 1965 text's interest article holds only one of
    the words, yet it is what the question asks about (the topic classifier reads
    "interest" in the query) and comes first; "fixed base", printed in several articles'
    exceptions, names the independent-services article."""
    with SearchSession(ingested) as s:
        top = s.search("what rate applies to interest", treaty="br-se-1965", limit=5)["hits"][0]
        assert top["topic"] == "interest" and top["relaxed"]
        top = s.search("fixed base", treaty="br-pe-2006", limit=5)["hits"][0]
        assert (top["eid"], top["topic"]) == ("art_14", "independent-services")
