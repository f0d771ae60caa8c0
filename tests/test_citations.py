"""Citations: a table of cases (tests/cases/citations.json), errors, round trips, resolve."""

from __future__ import annotations

import dataclasses
import doctest
import json
from pathlib import Path

import pycountry
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.errors import QueryError
from indexer.sources import countries
from search import citations
from search.citations import (
    Citation,
    TreatyRef,
    ambiguous_message,
    format_citation,
    missing_message,
    number_ranges,
    parse_citation,
    resolve,
    to_eid,
)

CASES = json.loads((Path(__file__).parent / "cases" / "citations.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES["parse"], ids=lambda c: c["input"])
def test_parse_table(case: dict) -> None:
    got = dataclasses.asdict(parse_citation(case["input"]))
    for key, want in case["expected"].items():
        value = list(got[key]) if key == "parties" else got[key]
        assert value == want, f"{key}: {case['note']}"


@pytest.mark.parametrize("case", CASES["errors"], ids=lambda c: c["note"])
def test_errors_are_one_line(case: dict) -> None:
    with pytest.raises(QueryError) as info:
        parse_citation(case["input"])
    message = str(info.value)
    assert case["message"] in message, case["note"]
    assert "\n" not in message


def test_table_covers_the_issue_examples() -> None:
    inputs = {c["input"] for c in CASES["parse"]}
    for example in (
        "Brazil–Peru Art. 10(2)(a)",
        "br-pe-2006 art 10 para 2 (a)",
        "Art. 10(2)(a) BR-PE",
        "Artigo 10, parágrafo 2, alínea a) da Convenção Brasil–Colômbia",
        "artikel VII § 2 avtalet Sverige–Brasilien",
        "中国巴西协定第十条第二款",
        "Protocol 4",
        "议定书第二条",
    ):
        assert example in inputs
    assert len(CASES["parse"]) >= 40


@pytest.mark.parametrize(
    "name, code",
    [
        ("Suécia", "SE"), ("Sverige", "SE"), ("瑞典", "SE"), ("Sweden", "SE"),
        ("Brasil", "BR"), ("Brasilien", "BR"), ("巴西", "BR"), ("Brazil", "BR"),
        ("Peru", "PE"), ("秘鲁", "PE"), ("祕魯", "PE"),
        ("Colômbia", "CO"), ("Colombia", "CO"), ("哥伦比亚", "CO"),
        ("China", "CN"), ("Kina", "CN"), ("中国", "CN"), ("中國", "CN"),
        ("Portugal", "PT"), ("葡萄牙", "PT"), ("Espanha", "ES"), ("Spanien", "ES"),
        ("西班牙", "ES"), ("Konungariket Sverige", "SE"), ("Republic of Peru", "PE"),
    ],
)  # fmt: skip
def test_country_names(name: str, code: str) -> None:
    assert countries.lookup(name) == code


def test_country_ambiguous_short_form_is_dropped() -> None:
    # "Korea" would be derived only from North Korea's official name: not guessed.
    assert countries.lookup("Korea") is None
    assert countries.lookup("South Korea") == "KR"


def test_longest_country_name_wins() -> None:
    # 中国台湾省 (Taiwan) must not be read as 中国 + 台湾省
    assert [m.code for m in countries.find_countries("中国台湾省")] == ["TW"]


@pytest.mark.parametrize(
    "text, eid",
    [
        ("br-pe-2006 Art. 10(2)(a)", "art_10__para_2__point_a"),
        ("br-pe-2006 Art. 10", "art_10"),
        ("br-pe-2006 Art. 3(a)", "art_3__point_a"),
        ("br-pe-2006 Protocol 4", "prot_4"),
        ("br-pe-2006 Protocol", "prot"),
        ("br-pe-2006", ""),
    ],
)
def test_to_eid(text: str, eid: str) -> None:
    assert to_eid(parse_citation(text)) == eid


@pytest.mark.parametrize(
    "style, text",
    [
        ("en", "br-pe-2006 Art. 10(2)(a)"),
        ("pt", "br-pe-2006 Artigo 10, parágrafo 2, alínea a)"),
        ("sv", "br-pe-2006 artikel 10 punkt 2 a)"),
        ("zh", "br-pe-2006 第十条第二款第（一）项"),
    ],
)
def test_format_styles(style: str, text: str) -> None:
    c = Citation("br-pe-2006", ("BR", "PE"), 2006, 10, 2, "a", lang_hint=style)
    assert format_citation(c, style) == text


@pytest.mark.parametrize(
    "style, text",
    [
        ("en", "br-pe-2006 Protocol 4"),
        ("pt", "br-pe-2006 Protocolo, item 4"),
        ("sv", "br-pe-2006 protokollet punkt 4"),
        ("zh", "br-pe-2006 议定书第四条"),
    ],
)
def test_format_protocol(style: str, text: str) -> None:
    c = Citation("br-pe-2006", ("BR", "PE"), 2006, 4, protocol=True, lang_hint=style)
    assert format_citation(c) == text


def test_format_unknown_style() -> None:
    with pytest.raises(QueryError):
        format_citation(Citation("br-pe-2006"), "fr")


@pytest.mark.parametrize(
    "n, chinese",
    [(1, "一"), (10, "十"), (11, "十一"), (20, "二十"), (23, "二十三"), (100, "一百"),
     (105, "一百零五"), (110, "一百一十"), (999, "九百九十九")],
)  # fmt: skip
def test_chinese_article_numbers(n: int, chinese: str) -> None:
    assert parse_citation(f"巴西秘鲁协定第{chinese}条").article == n
    c = Citation("br-pe-2006", ("BR", "PE"), 2006, n, lang_hint="zh")
    assert format_citation(c) == f"br-pe-2006 第{chinese}条"


@pytest.mark.parametrize(
    "text, n",
    [("第一〇五条", 105), ("第１２条", 12), ("artikel XXIII", 23), ("Art. xiv", 14)],
)
def test_other_numerals(text: str, n: int) -> None:
    assert parse_citation(f"br-pe-2006 {text}").article == n


def test_non_canonical_roman_is_not_an_article() -> None:
    # "iiii" and "civil" look roman but are not numbers: nothing is cited
    for text in ("Art. iiii", "art civil"):
        with pytest.raises(QueryError):
            parse_citation(text)


# --- round trip: parse(format(c)) == c ------------------------------------------------------

_CODES = sorted(c.alpha_2 for c in pycountry.countries)
_POINTS = st.sampled_from(list("abcdefghijklmnopqrstuvwxyz") + ["aa", "bb", "ii", "iii", "iv"])


@st.composite
def cited(draw: st.DrawFn) -> Citation:
    year = draw(st.integers(1900, 2099))
    if draw(st.booleans()):
        parties = tuple(sorted(draw(st.sets(st.sampled_from(_CODES), min_size=2, max_size=3))))
        treaty_id = "-".join(p.lower() for p in parties) + f"-{year}"
    else:
        parties = ()
        treaty_id = draw(st.sampled_from(["nordic", "andean", "mercosur"])) + f"-{year}"
    protocol = draw(st.booleans())
    article = draw(st.none() | st.integers(1, 150))
    paragraph = draw(st.none() | st.integers(1, 30)) if article is not None else None
    point = draw(st.none() | _POINTS) if article is not None else None
    style = draw(st.sampled_from(citations.STYLES))
    bare = article is None and not protocol
    return Citation(
        treaty_id=treaty_id,
        parties=parties,
        year=year,
        article=article,
        paragraph=paragraph,
        point=point,
        protocol=protocol,
        lang_hint=None if bare and style == "en" else style,
    )


@settings(max_examples=300, deadline=None)
@given(cited())
def test_round_trip(c: Citation) -> None:
    text = format_citation(c)
    assert parse_citation(text) == c, text


@settings(max_examples=100, deadline=None)
@given(cited(), st.sampled_from(citations.STYLES))
def test_round_trip_any_style_keeps_the_reference(c: Citation, style: str) -> None:
    back = parse_citation(format_citation(c, style))
    assert dataclasses.replace(back, lang_hint=None) == dataclasses.replace(c, lang_hint=None)


# --- resolve ---------------------------------------------------------------------------------

TREATIES = [
    TreatyRef("br-pe-2006", ("BR", "PE"), 2006),
    TreatyRef("br-co-2022", ("BR", "CO"), 2022),
    TreatyRef("br-se-1965", ("BR", "SE"), 1965),
    TreatyRef("br-se-2019", ("BR", "SE"), 2019),
    TreatyRef("br-cn-1991", ("BR", "CN"), 1991),
    TreatyRef("es-pt-1993", ("ES", "PT"), 1993),
    TreatyRef("nordic-1996", ("DK", "FI", "IS", "NO", "SE"), 1996),
]


@pytest.mark.parametrize(
    "text, ids",
    [
        ("Brazil–Peru Art. 10(2)(a)", ["br-pe-2006"]),
        ("br-pe-2006 Art. 10", ["br-pe-2006"]),
        ("artikel VII avtalet Sverige–Brasilien", ["br-se-1965", "br-se-2019"]),  # ambiguous
        ("Convenção Brasil–Suécia de 1965, artigo 2", ["br-se-1965"]),  # year decides
        ("中国巴西协定第十条", ["br-cn-1991"]),
        ("Sverige Norge artikel 3", ["nordic-1996"]),  # a multilateral covers both
        ("Sverige artikel 3", ["br-se-1965", "br-se-2019", "nordic-1996"]),
        ("br-ar-1980 Art. 1", []),  # not in the corpus
        ("Brazil–Peru 1999 Art. 1", []),
    ],
)
def test_resolve(text: str, ids: list[str]) -> None:
    assert resolve(parse_citation(text), TREATIES) == ids


def test_resolve_prefers_exact_parties_and_takes_plain_tuples() -> None:
    treaties = [
        ("nordic-1996", ("DK", "FI", "IS", "NO", "SE"), 1996),
        ("no-se-1980", ("NO", "SE"), 1980),
    ]
    assert resolve(parse_citation("Norge–Sverige artikel 1"), treaties) == ["no-se-1980"]


def test_resolve_without_treaty_lists_all() -> None:
    assert resolve(parse_citation("Art. 10"), TREATIES) == [t.treaty_id for t in TREATIES]


@pytest.mark.parametrize(
    "text, want",
    [
        ("br-pe-2006/pt/art_10__para_2__point_a", ("br-pe-2006", 10, 2, "a", False, "pt")),
        ("br-pe-2006/zh/prot_4", ("br-pe-2006", 4, None, None, True, "zh")),
        ("art_10__para_2 Brazil–Peru", (None, 10, 2, None, False, "en")),  # "Brazil" is en
    ],
)
def test_pasted_eids(text: str, want: tuple) -> None:
    c = parse_citation(text)
    assert (c.treaty_id, c.article, c.paragraph, c.point, c.protocol, c.lang_hint) == want


def test_messages_are_one_line() -> None:
    assert number_ranges([3, 1, 2, 5, 7, 8]) == "1–3, 5, 7–8"
    c = parse_citation("br-pe-2006 Art. 40")
    assert missing_message(c, "br-pe-2006", range(1, 30)) == (
        "br-pe-2006 has no article 40; it has articles 1–29"
    )
    p = parse_citation("br-pe-2006 Protocol 9")
    assert missing_message(p, "br-pe-2006", []) == "br-pe-2006 has no protocol items"
    text = "artikel VII avtalet Sverige–Brasilien"
    ids = resolve(parse_citation(text), TREATIES)
    assert ambiguous_message(text, ids) == (
        "'artikel VII avtalet Sverige–Brasilien' matches 2 treaties: br-se-1965, br-se-2019; "
        "cite one by its id or add the year"
    )


def test_doctests() -> None:
    from search.citations import format as formatting
    from search.citations import grammar, lookup, messages, model, parse, targets

    for module in (citations, formatting, grammar, lookup, messages, model, parse, targets,
                   countries):
        result = doctest.testmod(module)
        assert result.failed == 0


_PARTY = st.sampled_from(["BR", "PE", "SE", "CN", "PT", "ES", "se", "br"])


@settings(max_examples=200, deadline=None)
@given(refs=st.lists(st.tuples(st.sampled_from(["a", "b", "c"]),
                               st.lists(_PARTY, max_size=4).map(tuple),
                               st.sampled_from([None, 1965, 2006])), max_size=12),
       parties=st.lists(st.sampled_from(["BR", "PE", "SE", "CN", "XX"]), max_size=3),
       year=st.sampled_from([None, 1965, 2006]))
def test_resolve_by_party_index_is_resolve_over_all(refs, parties, year):
    """The corpus's party index (RefIndex) gives what checking every treaty gives."""
    from search.citations import Citation, RefIndex, TreatyRef, resolve

    treaties = [TreatyRef(f"{name}-{k}", ps, y) for k, (name, ps, y) in enumerate(refs)]
    c = Citation(parties=tuple(sorted(set(parties))), year=year)
    assert resolve(c, RefIndex(treaties)) == resolve(c, treaties)
