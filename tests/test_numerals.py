"""Numerals and label grammars: tables of printed forms, round trips, OCR-garbled labels."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indexer.segment.numerals import (
    article_heading_re,
    article_heading_zh_re,
    chapter_heading_re,
    paragraph_label,
    parse_chinese,
    parse_label,
    parse_roman,
    plausible_label,
    point_labels,
    to_chinese,
    to_roman,
)


@given(st.integers(min_value=1, max_value=3999))
def test_roman_round_trip(n: int) -> None:
    assert parse_roman(to_roman(n)) == n
    assert parse_roman(to_roman(n).lower()) == n


@given(st.integers(min_value=1, max_value=199))
def test_chinese_round_trip(n: int) -> None:
    assert parse_chinese(to_chinese(n)) == n


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("十", 10), ("十一", 11), ("二十", 20), ("二十三", 23), ("九十九", 99),
        ("一百零一", 101), ("一百一十", 110), ("两", 2), ("〇", 0),
        ("１２", 12),  # fullwidth digits
        ("12", 12),
        ("一九九一", 1991),  # years are read digit by digit
        ("二三十", None),  # two digits without a unit
        ("十百", None),  # units must fall
        ("abc", None),
    ],
)  # fmt: skip
def test_parse_chinese_table(text: str, value: int | None) -> None:
    assert parse_chinese(text) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("XIV", 14), ("xiv", 14), ("IIII", None),  # canonical forms only
        ("VX", None), ("", None),
    ],
)  # fmt: skip
def test_parse_roman_table(text: str, value: int | None) -> None:
    assert parse_roman(text) == value


@pytest.mark.parametrize(
    ("label", "value"),
    [
        ("10", 10), ("１０", 10), ("X", 10), ("十", 10), ("二十三", 23),
        ("Xl", 11),  # lower-case l for I among upper-case roman letters
        ("XVll", 17),
        ("X1", 11),  # digit 1 for I
        ("xl", 40),  # one case throughout: a real roman numeral
        ("l", None),  # lone l: 50 or a garbled I -- context decides
        ("26-A", 26), ("12A", 12),  # lettered insertions keep the number
        ("ÅT", None),  # needs context: see plausible_label
    ],
)  # fmt: skip
def test_parse_label_table(label: str, value: int | None) -> None:
    assert parse_label(label) == value


def test_garbled_labels_need_context() -> None:
    assert plausible_label("ÅT", 15)  # "Article ÅT" between XIV and XVI
    assert not plausible_label("ÅT", 14)
    assert not plausible_label("ÅT", 16)
    assert plausible_label("Xl", 11) and not plausible_label("Xl", 40)
    assert plausible_label("l", 1)
    assert not plausible_label("XIX", 20)


@pytest.mark.parametrize(
    ("line", "label", "title"),
    [
        ("ARTICLE 10", "10", ""), ("Article X", "X", ""),
        ("Artiele II", "II", ""),  # OCR: c read as e
        ("ARTIGO 5", "5", ""), ("Artigo I", "I", ""), ("Artikel XVII", "XVII", ""),
        ("Art. 3", "3", ""),
        ("##Article 5", "5", ""),  # markdown without a space after the hashes
        ("A R T I C L E 5", "5", ""),  # letter-spaced
        ("Article 5 - Dividends", "5", "Dividends"),
        ("Article ÅT", "ÅT", ""),  # garbled label still found as a label
        ("Artikel 26-A", "26-A", ""),
    ],
)  # fmt: skip
def test_article_heading(line: str, label: str, title: str) -> None:
    m = article_heading_re().match(line)
    assert m is not None
    assert (m.group("label"), m.group("title")) == (label, title)


@pytest.mark.parametrize("line", ["Article shall apply only to so much", "Articles 14 and 15"])
def test_not_article_heading(line: str) -> None:
    assert article_heading_re().match(line) is None


def test_chinese_heading_and_chapter() -> None:
    m = article_heading_zh_re().match("第二十三条 消除双重征税方法")
    assert m and m.group("label") == "二十三" and m.group("title") == "消除双重征税方法"
    assert chapter_heading_re().match("C H A P T E R III").group("label") == "III"
    assert chapter_heading_re().match("第一章 总则").group("zlabel") == "一"


@pytest.mark.parametrize(
    ("line", "style", "value"),
    [
        ("1. text", "dot", 1), ("(1) text", "paren", 1), ("§ 1. text", "sect", 1),
        ("1 - text", "dash", 1), ("1) text", "rparen", 1), ("一、text", "cn", 1),
        ("十二、text", "cn", 12), ("１．text", "fw", 1),
    ],
)  # fmt: skip
def test_paragraph_labels(line: str, style: str, value: int) -> None:
    assert paragraph_label(line)[:2] == (style, value)


@pytest.mark.parametrize("line", ["1.5 million", "1991. The", "text 1."])
def test_not_paragraph_labels(line: str) -> None:
    assert paragraph_label(line) is None


@pytest.mark.parametrize(
    ("line", "readings"),
    [
        ("a) text", [("alpha", "a")]), ("(a) text", [("palpha", "a")]),
        ("(ii) text", [("proman", "ii")]),
        ("i) text", [("roman", "i"), ("alpha", "i")]),  # letter i or roman one: context decides
        ("A) text", [("ualpha", "A")]), ("（一）text", [("cnparen", "一")]),
        ("1) text", [("rparen", "1")]), ("１．text", [("fw", "１")]),
    ],
)  # fmt: skip
def test_point_labels(line: str, readings: list[tuple[str, str]]) -> None:
    assert [(s, v) for s, v, _ in point_labels(line)] == readings


@pytest.mark.parametrize(
    ("text", "style", "expected", "ok"),
    [
        ("(3t The competent authorities", "paren", 3, True),  # ")" read as "t"
        ("(l) The taxes", "paren", 1, True),  # 1 read as l
        ("(3t The competent authorities", "paren", 4, False),  # not the expected number
        ("(3t The competent authorities", "sect", 3, False),  # not the article's style
        ("§ l. De skatter", "sect", 1, True),
        ("(a) a point", "paren", 1, False),
    ],
)
def test_garbled_paragraph_label_only_where_expected(text, style, expected, ok) -> None:
    from indexer.segment.numerals import garbled_paragraph_label

    assert (garbled_paragraph_label(text, style, expected) is not None) is ok
