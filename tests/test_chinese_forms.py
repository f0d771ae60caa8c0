"""The bundled Chinese treaty as other publishers print it (issue 15, class 10): Traditional
script (OpenCC s2t, s2tw), Arabic article numbers (with and without spaces, half and
fullwidth), lines hard-wrapped inside paragraphs as a PDF extraction leaves them, page
numbers and a running header every 40 lines, and all of these at once. Each variant is made
here from corpus/china-brazil-1991.zh.txt and must give the same 29 articles as the bundled
text: numbers, titles, paragraph counts and text (whitespace and line breaks aside)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.models import Decoded, DocMeta, Unit

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
SOURCE = "china-brazil-1991.zh.txt"
ARTICLES = 29

Convert = Callable[[str], str]

# --- the variants --------------------------------------------------------------------------


@cache
def _opencc(config: str) -> Convert:
    from opencc import OpenCC

    return OpenCC(config).convert


def traditional(config: str) -> Convert:
    """Simplified to Traditional by OpenCC's `config` ("s2t", "s2tw")."""
    return lambda text: _opencc(config)(text)


_CN_NUMBER = re.compile(r"第([〇零一二两三四五六七八九十百]+)(条|條)")
_FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def arabic(spaces: bool, fullwidth: bool) -> Convert:
    """Every 第X条 written with the number in Arabic digits: "第 12 条", "第12条", "第１２条"."""
    from indexer.segment.numerals import parse_chinese

    def digits(m: re.Match[str]) -> str:
        number = str(parse_chinese(m.group(1)))
        if fullwidth:
            number = number.translate(_FULLWIDTH)
        return f"第 {number} {m.group(2)}" if spaces else f"第{number}{m.group(2)}"

    return lambda text: _CN_NUMBER.sub(digits, text)


#: Characters a line may not begin with: a wrapped line hangs them at the end of the line before.
_NO_LINE_START = set("，。、；：？！）》」』”’")


def wrapped(width: int) -> Convert:
    """Every line longer than `width` characters cut into lines of `width` characters, as a PDF
    extraction leaves a paragraph (closing punctuation hangs at the end of a line)."""

    def wrap(text: str) -> str:
        out = []
        for line in text.split("\n"):
            while len(line) > width:
                cut = width
                while cut < len(line) and line[cut] in _NO_LINE_START:
                    cut += 1
                out.append(line[:cut])
                line = line[cut:]
            out.append(line)
        return "\n".join(out)

    return wrap


_PAGE_NUMBERS: dict[str, Callable[[int], str]] = {
    "dashes": lambda n: f"- {n} -",
    "page": lambda n: f"第 {n} 页",
    "bare": str,
}


_HEADER = "中国—巴西税收协定"  # the running header: the treaty's short title


def paged(number: str, header: str = _HEADER, every: int = 40) -> Convert:
    """Pages of `every` lines, each with the running `header` at its top and its page number
    (style `number` of `_PAGE_NUMBERS`) at its foot, no blank lines around either."""
    page_number = _PAGE_NUMBERS[number]

    def pages(text: str) -> str:
        lines = text.rstrip("\n").split("\n")
        out = []
        for page, start in enumerate(range(0, len(lines), every), 1):
            out += [header, *lines[start:start + every], page_number(page)]
        return "\n".join(out) + "\n"

    return pages


def chain(*steps: Convert) -> Convert:
    def convert(text: str) -> str:
        for step in steps:
            text = step(text)
        return text

    return convert


class Variant(NamedTuple):
    """A way of printing the bundled text: its `steps` in turn (script, numbering, then
    layout), and what they do to an article's words (`words`: the steps that are not layout)."""

    steps: tuple[Convert, ...]
    layout: int  # how many of the steps, at the end, are layout (wrapping, pages)

    def make(self, text: str) -> str:
        return chain(*self.steps)(text)

    def words(self, text: str) -> str:
        return chain(*self.steps[:len(self.steps) - self.layout])(text)

    def unpaged(self, text: str) -> str:
        """The variant's text before its last step (the pages, in a paged variant)."""
        return chain(*self.steps[:-1])(text)


def _variants() -> dict[str, Variant]:
    s2t, s2tw = traditional("s2t"), traditional("s2tw")
    return {
        "s2t": Variant((s2t,), 0),
        "s2tw": Variant((s2tw,), 0),
        "arabic-spaced": Variant((arabic(True, False),), 0),
        "arabic": Variant((arabic(False, False),), 0),
        "arabic-fullwidth": Variant((arabic(False, True),), 0),
        "arabic-fullwidth-spaced": Variant((arabic(True, True),), 0),
        "wrap-24": Variant((wrapped(24),), 1),
        "wrap-37": Variant((wrapped(37),), 1),
        **{f"pages-{style}": Variant((paged(style),), 1) for style in _PAGE_NUMBERS},
        "s2tw+arabic-spaced+wrap-24+pages-dashes": Variant(
            (s2tw, arabic(True, False), wrapped(24), paged("dashes", s2tw(_HEADER))), 2),
        "s2t+arabic-fullwidth+wrap-37+pages-page": Variant(
            (s2t, arabic(False, True), wrapped(37), paged("page", s2t(_HEADER))), 2),
        "arabic+wrap-37+pages-bare": Variant((arabic(False, False), wrapped(37), paged("bare")), 2),
    }


VARIANTS = _variants()


# --- running the pipeline --------------------------------------------------------------------


def bundled_text() -> str:
    return (CORPUS / SOURCE).read_text(encoding="utf-8")


def units_of(text: str) -> tuple[Unit, ...]:
    """The units of the zh version of `text`, processed as the ingest does."""
    from indexer.pipeline.document import process

    meta = DocMeta(file=SOURCE, treaty="br-cn-1991", parties=("BR", "CN"),
                   signed="1991-08-05", languages=("zh",))
    doc, _removed = process(Decoded(SOURCE, text, "utf-8", ""), meta)
    return next(v for v in doc.versions if v.lang == "zh").units


def articles_of(text: str) -> list[Unit]:
    return [u for u in units_of(text) if u.kind == "article"]


_BLANKS = re.compile(r"\s+")
_SPACES = re.compile(r"[^\S\n]+")


def _flat(text: str | None) -> str:
    return _BLANKS.sub("", text or "")


def _lines(text: str) -> list[str]:
    """The logical lines of a unit's text, spaces removed: a wrapped paragraph joined again
    without a space is one of them, as in the bundled text."""
    return _SPACES.sub("", text).split("\n")


_SENTENCE_END = re.compile(r"[。；：！？][”’」』）)]*$")


def _same_paragraphs(want: list[str], have: list[str]) -> bool:
    """Are the lines `have` the lines `want`, but where a line of `want` is cut after a
    sentence's end (a wrapped line ending there ends its paragraph, as the layout cannot
    tell)?"""
    k = 0
    for line in want:
        text = ""
        while k < len(have) and len(text) < len(line):
            if text and not _SENTENCE_END.search(text):
                return False
            text += have[k]
            k += 1
        if text != line:
            return False
    return k == len(have)


def _points(article: Unit) -> list[int]:
    return [len(p.children) for p in article.children]


def article_verdicts(expected: list[Unit], got: list[Unit], words: Convert) -> list[str]:
    """For each expected article: "" when the variant's article of that number has the same
    title, paragraph count and text (the expected one converted by `words`; whitespace and
    line breaks ignored), else what differs; then whether its lines and points are the same
    (a wrapped paragraph joined again, `_same_paragraphs`; the same points in each)."""
    by_number = {u.number: u for u in got}
    out = []
    for want in expected:
        have = by_number.get(want.number)
        if have is None:
            out.append("missing")
            continue
        wrong = []
        if _flat(have.title) != _flat(words(want.title or "")):
            wrong.append(f"title {have.title!r}")
        if len(have.children) != len(want.children):
            wrong.append(f"{len(have.children)} paragraphs, not {len(want.children)}")
        if _flat(have.text) != _flat(words(want.text)):
            wrong.append("text")
        elif not _same_paragraphs(_lines(words(want.text)), _lines(have.text)):
            wrong.append("lines")
        if _points(have) != _points(want):
            wrong.append(f"points {_points(have)}, not {_points(want)}")
        out.append(", ".join(wrong))
    return out


@cache
def _expected() -> tuple[Unit, ...]:
    return tuple(articles_of(bundled_text()))


def test_bundled_text_gives_29_articles() -> None:
    arts = _expected()
    assert [a.number for a in arts] == list(range(1, ARTICLES + 1))
    assert arts[0].title == "人的范围" and arts[-1].title == "终止"
    assert [len(a.children) for a in arts[:3]] == [1, 2, 2]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_gives_the_same_29_articles(name: str) -> None:
    variant = VARIANTS[name]
    text = variant.make(bundled_text())
    assert text != bundled_text()
    got = articles_of(text)
    assert [a.number for a in got] == list(range(1, ARTICLES + 1))
    verdicts = article_verdicts(list(_expected()), got, variant.words)
    assert {n: v for n, v in enumerate(verdicts, 1) if v} == {}


# --- page furniture: what is removed is exactly what the pages added -------------------------


@pytest.mark.parametrize("name", [n for n in sorted(VARIANTS) if "pages" in n])
def test_page_marks_are_the_furniture_and_no_text_is(name: str) -> None:
    from indexer.clean import clean

    variant = VARIANTS[name]
    text = variant.make(bundled_text())
    added = text.count("\n") - variant.unpaged(bundled_text()).count("\n")
    cleaned = clean(text)
    assert len(cleaned.furniture) == added
    for f in cleaned.furniture:
        assert re.fullmatch(r"- \d+ -|第 \d+ [页頁]|\d+|中[国國]—巴西[税稅]收[协協]定", f.raw), f.raw
    # every other source line is in exactly one logical line, in order
    furniture = {f.start for f in cleaned.furniture}
    kept = [p for line in cleaned.lines for p in line.raw.split("\n")]
    assert kept == [s for n, s in enumerate(text.split("\n"), 1) if s.strip() and n not in furniture]


def test_the_bundled_text_has_no_wrapped_layout_and_the_variants_have() -> None:
    from indexer.clean.document import _han_layout

    def layout(text: str):
        return _han_layout([line.strip() for line in text.split("\n")])

    assert layout(bundled_text()) is None
    for width in (24, 37):
        found = layout(wrapped(width)(bundled_text()))
        assert found is not None and found.chars == width


# --- the heading recognisers, over generated numbers -----------------------------------------

_SCRIPTS = {"simplified": "条", "traditional": "條"}
_NUMERALS: dict[str, Callable[[int], str]] = {
    "chinese": lambda n: _chinese(n),
    "arabic": str,
    "arabic-spaced": lambda n: f" {n} ",
    "fullwidth": lambda n: str(n).translate(_FULLWIDTH),
    "fullwidth-spaced": lambda n: f" {str(n).translate(_FULLWIDTH)} ",
}


def _chinese(n: int) -> str:
    from indexer.segment.numerals import to_chinese

    return to_chinese(n)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 999), st.sampled_from(sorted(_SCRIPTS)), st.sampled_from(sorted(_NUMERALS)),
       st.sampled_from(["", " 人的范围", " 人的範圍", "\u3000股息", "：利息"]))
def test_article_heading_reads_the_number_in_every_script_and_numeral(
        n: int, script: str, numeral: str, title: str) -> None:
    from indexer.clean.lines import is_heading
    from indexer.segment.lines import article_heading, is_heading_line

    line = f"第{_NUMERALS[numeral](n)}{_SCRIPTS[script]}{title}"
    heading = article_heading(line)
    assert heading is not None and heading.number == n, line
    assert heading.title == title.strip(" \u3000：") and not heading.inline_text
    assert is_heading(line) and is_heading_line(line)
    # the article's first sentence printed after the label (regulations) is text, not a title
    sentence = article_heading(line.rstrip() + "，本协定适用于缔约国一方居民。")
    assert sentence is not None and sentence.number == n


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 9999), st.sampled_from(["", " ", "  "]))
def test_parse_chinese_reads_chinese_and_arabic_numbers(n: int, blank: str) -> None:
    from indexer.segment.numerals import parse_chinese, to_chinese

    printed = to_chinese(n)
    assert parse_chinese(printed) == n
    if printed[:1] == "二" and printed[1:2] in "百千":  # 两百, 兩千: 2 before a unit
        assert parse_chinese("两" + printed[1:]) == parse_chinese("兩" + printed[1:]) == n
    assert parse_chinese(f"{blank}{n}{blank}") == n
    assert parse_chinese(str(n).translate(_FULLWIDTH)) == n


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 99), st.sampled_from(["chinese", "arabic", "fullwidth"]))
def test_chapter_headings_in_every_numeral(n: int, numeral: str) -> None:
    from indexer.segment.lines import chapter_parts, is_chapter

    number = _NUMERALS[numeral](n)
    line = f"第{number}章 总则"
    assert is_chapter(line) and chapter_parts(line) == (number, "总则")


@pytest.mark.parametrize(("line", "style", "value"), [
    ("一、本协定适用的现行税种是：", "cn", 1), ("十二、本協定", "cn", 12),
    ("3、本协定", "cn", 3), ("２．中外合资经营企业所得税；", "fw", 2), ("2．外国企业所得税；", "fw", 2),
])
def test_paragraph_labels_of_chinese_texts(line: str, style: str, value: int) -> None:
    from indexer.clean.lines import starts_item
    from indexer.segment.numerals import paragraph_label

    label = paragraph_label(line)
    assert label is not None and label[:2] == (style, value)
    assert starts_item(line)


@pytest.mark.parametrize("line", ["1,5 million", "2.5 per cent", "3 of the Convention"])
def test_latin_numbers_are_no_chinese_labels(line: str) -> None:
    from indexer.segment.numerals import paragraph_label

    label = paragraph_label(line)
    assert label is None or label[0] not in ("cn", "fw")


# --- Simplified patterns, Traditional forms ---------------------------------------------------


def _chinese_patterns() -> dict[str, re.Pattern[str]]:
    from indexer.clean.furniture import _PAGE_NUMBER
    from indexer.clean.lines import CJK_HEADING
    from indexer.segment import lines
    from indexer.segment.numerals import article_heading_zh_re

    return {
        "CJK_HEADING": CJK_HEADING, "article_heading_zh_re": article_heading_zh_re(),
        "PAGE_NUMBER": _PAGE_NUMBER,
        **{name: getattr(lines, name) for name in
           ("PROTOCOL_RE", "CLOSING_RE", "SIGNATURE_RE", "INSTRUMENT_RE", "AGREED_RE")},
    }


_HAN = re.compile("[\u3400-\u9fff]")


@pytest.mark.parametrize("config", ["s2t", "s2tw", "s2hk"])
def test_every_character_of_the_patterns_has_its_traditional_forms(config: str) -> None:
    from indexer.hanzi import TRADITIONAL

    for name, pattern in _chinese_patterns().items():
        for c in set(_HAN.findall(pattern.pattern)):
            assert set(_opencc(config)(c)) <= set(pattern.pattern), (name, c)
    for simplified, forms in TRADITIONAL.items():
        assert _opencc(config)(simplified) in forms


@pytest.mark.parametrize("config", ["s2t", "s2tw"])
def test_formulas_of_the_bundled_text_match_in_traditional(config: str) -> None:
    lines = bundled_text().split("\n")
    for name, pattern in _chinese_patterns().items():
        matched = [line for line in lines if pattern.search(line)]
        if name != "PAGE_NUMBER":
            assert matched, name
        for line in matched:
            assert pattern.search(_opencc(config)(line)), (name, line)


def _units_of(name: str) -> tuple[Unit, ...]:
    return units_of(bundled_text() if name == "bundled" else VARIANTS[name].make(bundled_text()))


@pytest.mark.parametrize("name", ["s2tw", "s2tw+arabic-spaced+wrap-24+pages-dashes"])
def test_the_parts_around_the_articles_are_found_in_traditional(name: str) -> None:
    def parts(units: tuple[Unit, ...]) -> list[tuple[str, str, int | None]]:
        return [(u.eid, u.kind, u.refers_to) for u in units if u.kind != "article"]

    want = parts(_units_of("bundled"))
    assert [eid for eid, _kind, _refers in want] == [
        "title", "preamble", "closing", "protocol", "prot_1", "prot_2", "prot_3", "prot_4",
        "closing_2", "other_1"]
    assert [refers for _eid, kind, refers in want if kind == "protocol"][1:] == [8, 10, 12, 24]
    assert parts(_units_of(name)) == want


@pytest.mark.parametrize(("pattern", "both"), [
    ("第X条", "第X[条條]"), ("[条款]", "[条條款]"), (r"\[条]", r"\[[条條]]"), ("[]条]", "[]条條]"),
    ("(?:议定书|协定)", "(?:[议議]定[书書]|[协協]定)"), ("[^条]", "[^条條]"),
])
def test_either_script(pattern: str, both: str) -> None:
    from indexer.hanzi import either_script

    assert either_script(pattern) == both


def test_simplified_folds_traditional_and_leaves_the_rest() -> None:
    from indexer.hanzi import simplified

    text = bundled_text()
    assert simplified(text) is text
    assert simplified(_opencc("s2tw")(text)) == text
    assert simplified("Artikel 5") == "Artikel 5"


def test_topics_of_traditional_articles_are_those_of_the_simplified() -> None:
    from indexer.topics import classify_title

    for article in _expected():
        want = classify_title(article.title)
        assert want is not None, article.title
        assert classify_title(_opencc("s2tw")(article.title)) == want


# --- page numbers in sequence, in any script --------------------------------------------------


def _with_numbers(lines: list[str], every: int, mark: Callable[[int], str]) -> list[str]:
    out = []
    for page, start in enumerate(range(0, len(lines), every), 1):
        out += [*lines[start:start + every], mark(page)]
    return out


def test_page_numbers_without_blank_lines_are_furniture_when_they_run_in_sequence() -> None:
    from indexer.clean import clean

    body = [f"This is line {k} of a text without blank lines, a sentence of its own." for k in range(60)]
    text = "\n".join(_with_numbers(body, 12, str)) + "\n"
    assert [f.raw for f in clean(text).furniture] == ["1", "2", "3", "4", "5"]
    # two numbers do not make a sequence; nor do numbers out of order
    assert clean("\n".join(_with_numbers(body[:24], 12, str))).furniture == ()
    shuffled = _with_numbers(body, 12, lambda n: str((n * 7) % 5 + 10))
    assert clean("\n".join(shuffled)).furniture == ()


def test_a_label_under_its_heading_word_is_no_page_number() -> None:
    from indexer.clean import clean

    lines = []
    for n in range(1, 6):
        lines += ["ARTICLE", str(n)] + [f"The text of article {n}, line {k}." for k in range(10)]
    cleaned = clean("\n".join(lines) + "\n")
    assert cleaned.furniture == ()


def test_an_accented_latin_word_in_chinese_text_is_one_term():
    """jieba cuts "Pensões" at the õ; in Chinese text the word is indexed whole, as a query
    for it is read (the Portuguese topic name reaches the Chinese articles)."""
    from indexer.index.analysis import analyse, analyse_query_term

    terms = [t.term for t in analyse("退休金 Pensões Suécia税", "zh")]
    assert "pensões" in terms and "suécia" in terms and "õ" not in terms
    assert analyse_query_term("pensões", "zh")[0].term in terms
