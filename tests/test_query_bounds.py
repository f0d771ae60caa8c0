"""The query bounds of issue 27, on both engines: what a query analyses into (a run of
1,000 Chinese characters is hundreds of words), the length of a fuzzy or prefix word (its
automaton), of any word, and a run that repeats one character (once a RecursionError in
Whoosh's nested intersections). Each is one line before either engine is asked, or, for a
repetition, searched as the few words it is. scripts/probe_queries.py times them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from test_query_cost import ENGINES, searchers  # noqa: F401 - the shared fixture

from indexer.index.query_syntax import (
    MAX_ANALYSED,
    MAX_EXPANDING_CHARS,
    MAX_WORD_CHARS,
    QueryTooExpensive,
    parse,
)
from search.results import search
from search.results.trees import han_words

_ZH = (Path(__file__).resolve().parent.parent / "corpus" / "china-brazil-1991.zh.txt")
#: The first 1,000 Han characters of the Chinese treaty, and 1,000 drawn from it at random.
ZH_TEXT = "".join(c for c in _ZH.read_text("utf-8") if "\u4e00" <= c <= "\u9fff")[:1000]
_rng = random.Random(27)
HAN = "".join(_rng.choice(ZH_TEXT) for _ in range(1000))

REFUSED = [
    (ZH_TEXT, rf"over {MAX_ANALYSED} distinct words once analysed"),
    (HAN, rf"over {MAX_ANALYSED} distinct words once analysed"),
    ("a" * 999 + "~", (rf"a fuzzy \(~\) or prefix \(\*\) word of 999 characters \(at most "
                       rf"{MAX_EXPANDING_CHARS}\)")),
    ("b" * 999 + "*", r"a fuzzy \(~\) or prefix \(\*\) word of 999 characters"),
    ("a" * 1000, rf"a word of over {MAX_WORD_CHARS} characters"),
    ('"' + " ".join(f"w{i}" for i in range(100)) + '"', rf"over {MAX_ANALYSED} distinct words"),
    (".".join(f"x{i}" for i in range(100)), rf"a word of over {MAX_WORD_CHARS} characters"),
]


@pytest.mark.parametrize(("query", "message"), REFUSED)
@pytest.mark.parametrize("engine", ENGINES)
def test_an_analysed_query_over_the_bounds_is_one_line(searchers, engine, query,  # noqa: F811
                                                       message):
    with pytest.raises(QueryTooExpensive, match=rf"^query too expensive: {message}.*; narrow "
                                                r"it$"):
        searchers[engine].search(query)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("query", ["的" * 1000, "税" * 999, "的的 " * 250])
def test_a_repeated_character_is_searched_as_its_few_words(searchers, engine,  # noqa: F811
                                                           query):
    searchers[engine].search(query)  # (before: RecursionError in Whoosh)
    assert len(han_words(parse(query)[0])) < 10 if " " not in query else True


def test_a_run_of_one_repeated_word_is_that_word_once() -> None:
    tree, _ = parse("税" * 999)
    words = han_words(tree)
    assert len(words) == len(set(words)) <= 3


def test_the_session_answers_a_repetition(ingested) -> None:
    result = search(ingested, "的" * 1000)
    assert result["total"] >= 0


def test_the_cli_says_it_in_one_line(ingested) -> None:
    from search.cli import main

    res = CliRunner().invoke(main, ["search", HAN, "--data", str(ingested)])
    assert res.exit_code == 1
    line = (f"Error: query too expensive: over {MAX_ANALYSED} distinct words once analysed "
            "(a long run of Chinese is many words); narrow it")
    assert res.output.strip().splitlines() == [line]


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="税的股息利a b~*.-(", max_size=300))
def test_any_query_parses_within_the_bounds_or_says_why(query: str) -> None:
    try:
        tree, _plain = parse(query)
    except QueryTooExpensive as exc:
        assert str(exc).startswith("query too expensive: ") and "\n" not in str(exc)
    else:
        assert tree is None or len(set(han_words(tree) if hasattr(tree, "text") else [])) <= 64


def test_a_whole_search_stops_at_its_deadline(ingested, monkeypatch) -> None:
    """Every engine query of a search (as typed, relaxed, translated, corrected) counts
    against one deadline: past it, the search is one line, on either engine."""
    import search.results.session as session_module
    from search.results import SearchSession

    monkeypatch.setattr(session_module, "QUERY_SECONDS", 0.0)
    with SearchSession(ingested) as s, pytest.raises(QueryTooExpensive) as caught:
        s.search("beneficial owner dividends")
    assert str(caught.value) == ("query too expensive: the search took more than 5 s; "
                                 "narrow it")


def test_the_budget_caps_each_whoosh_query(searchers) -> None:  # noqa: F811
    from indexer.index.query_syntax import compile_query
    from search.results.deadline import Bounded

    engine = searchers["whoosh"].backend
    ftree = compile_query(parse("dividends")[0], ["en"])
    bounded = Bounded(engine, 60)
    assert bounded.search(ftree, [], 5)[1] > 0
    assert engine.until is None  # (set for the query only)
    spent = Bounded(engine, 0)
    with pytest.raises(QueryTooExpensive, match="the search took more than 5 s"):
        spent.matches(ftree, [], 5)
