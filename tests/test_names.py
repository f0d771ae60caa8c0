"""Languages and parties as users type them (`search.names`), and the options that read them:
`--lang english`, `--party Brasil`, `--party Suécia` are understood; a name that names
nothing, a party no treaty has and an empty search are one line, exit 1, with the choices."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.errors import QueryError
from indexer.sources.countries import country_name
from search.cli import main
from search.names import known_language, known_party, language_code, party_code

runner = CliRunner()


@pytest.mark.parametrize("typed,code", [
    ("english", "en"), ("English", "en"), ("Inglês", "en"), ("ingles", "en"),
    ("engelska", "en"), ("英文", "en"), ("英语", "en"), ("eng", "en"), ("EN", "en"),
    ("portuguese", "pt"), ("português", "pt"), ("portugisiska", "pt"), ("葡萄牙文", "pt"),
    ("swedish", "sv"), ("sueco", "sv"), ("Svenska", "sv"), ("瑞典语", "sv"),
    ("chinese", "zh"), ("chinês", "zh"), ("kinesiska", "zh"), ("中文", "zh"), ("汉语", "zh"),
])
def test_language_names_in_the_four_languages(typed, code):
    assert language_code(typed) == code


@pytest.mark.parametrize("typed", ["klingon", "", "  ", "e", "englisch-ish"])
def test_what_names_no_language_is_none(typed):
    assert language_code(typed) is None


@pytest.mark.parametrize("code", ["BR", "SE", "PE", "CO", "CN", "ES", "PT"])
@pytest.mark.parametrize("lang", ["en", "pt", "sv", "zh"])
def test_every_party_by_its_name_in_every_language(code, lang):
    assert party_code(country_name(code, lang)) == code
    assert party_code(code.lower()) == code


@settings(deadline=None)  # (the first call reads the catalogues)
@given(st.text(max_size=40))
def test_reading_a_name_never_raises(text):
    code = language_code(text)
    assert code is None or (len(code) == 2 and code.islower())
    party = party_code(text)
    assert party is None or (len(party) == 2 and party.isupper())


def test_the_choices_are_named():
    with pytest.raises(QueryError) as info:
        known_party("Norway", ["BR", "PE"])
    assert str(info.value) == ("no treaty with party 'Norway' (NO) (parties in the corpus: "
                               "BR (Brazil), PE (Peru))")
    with pytest.raises(QueryError) as info:
        known_language("dutch", ["en", "pt"])
    assert str(info.value) == ("the corpus has no Nederlands ('nl') text: it has en (English), "
                               "pt (Português)")
    assert known_party("Suécia", ["SE"]) == "SE" and known_language("sueco", ["sv"]) == "sv"


def _run(data, *args: str):
    return runner.invoke(main, [*args, "--data", str(data)])


def test_names_as_typed_reach_the_same_results(ingested):
    by_code = json.loads(_run(ingested, "search", "dividends", "--lang", "en", "--party", "BR",
                              "--json").output)
    by_name = json.loads(_run(ingested, "search", "dividends", "--lang", "english", "--party",
                              "Brasil", "--json").output)
    assert by_code["hits"] and by_name["hits"] == by_code["hits"]
    rates = _run(ingested, "rates", "--party", "Suécia", "--csv")
    assert rates.exit_code == 0 and "br-se-1965" in rates.output and "br-pe-2006" not in rates.output
    topic = json.loads(_run(ingested, "compare", "--topic", "dividends", "--lang", "português",
                            "--json").output)
    assert {(a["treaty"], a["lang"]) for a in topic["articles"]} == {
        ("br-co-2022", "pt"), ("br-se-1965", "pt"), ("es-pt-1993", "pt")}


@pytest.mark.parametrize("args,line", [
    (["search", ""], "Error: nothing to search for: type words"),
    (["search", "   "], "Error: nothing to search for: type words"),
    (["rates", "--party", "NO"], ("Error: no treaty with party 'NO' (parties in the corpus: "
                                 "BR (Brazil), CN (China)")),
    (["rates", "--party", "Atlantis"], "Error: --party: unknown party 'Atlantis'"),
    (["compare", "--topic", "dividends", "--lang", "nl"], "Error: the corpus has no Nederlands"),
    (["show", "br-se-1965", "--lang", "klingon"], "Error: --lang: unknown language 'klingon'"),
])
def test_dead_ends_say_what_there_is(ingested, args, line):
    result = _run(ingested, *args)
    assert result.exit_code == 1
    assert result.output.startswith(line), result.output
    assert result.output.count("\n") == 1


def test_the_web_search_reads_names_too(ingested):
    from search.web import create_app

    client = create_app(ingested).test_client()
    by_name = client.get("/api/search?q=dividends&lang=english&party=Brasil").get_json()
    by_code = client.get("/api/search?q=dividends&lang=en&party=BR").get_json()
    assert by_name["hits"] and [h["eid"] for h in by_name["hits"]] == [
        h["eid"] for h in by_code["hits"]]
