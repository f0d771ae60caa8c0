"""Structure of the seed texts: article counts, paragraphs, protocol items, `other` text, no
text lost, and perturbed copies (headings deleted, appended document moved to the front)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from indexer.models import TOP_KINDS, Line, Unit
from indexer.segment import segment

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def _lines(name: str) -> list[Line]:
    """One Line per non-empty source line (these texts have one paragraph per line)."""
    text = (CORPUS / name).read_text(encoding="utf-8")
    return [Line(t, t, n, n) for n, t in enumerate(text.split("\n"), 1) if t.strip()]


@cache
def _units(name: str) -> tuple[Unit, ...]:
    lang = name.split(".")[-2]
    return segment(_lines(name), lang)


def _articles(units: tuple[Unit, ...]) -> list[Unit]:
    return [u for u in units if u.kind == "article"]


def _by(units: tuple[Unit, ...], eid: str) -> Unit:
    return next(u for u in units if u.eid == eid)


def _check_no_text_lost(lines: list[Line], units: tuple[Unit, ...]) -> None:
    """Every input line's raw is in exactly one top-level unit, in reading order."""
    joined = "\n".join(u.raw for u in units)
    assert joined == "\n".join(ln.raw for ln in lines)
    words_in = re.findall(r"\w+", " ".join(ln.raw for ln in lines))
    assert re.findall(r"\w+", " ".join(u.raw for u in units)) == words_in
    for u in units:
        assert u.kind in TOP_KINDS
        for child in u.children:  # children's lines are inside the parent's span
            assert u.start <= child.start <= child.end <= u.end
            assert child.raw in u.raw


SEEDS = ["brazil-peru-2006.en.txt", "brazil-colombia-2022.pt.txt", "china-brazil-1991.zh.txt"]


@pytest.mark.parametrize("name", SEEDS)
def test_no_text_lost(name: str) -> None:
    _check_no_text_lost(_lines(name), _units(name))


@pytest.mark.parametrize(
    ("name", "count"),
    [("brazil-peru-2006.en.txt", 29), ("brazil-colombia-2022.pt.txt", 31), ("china-brazil-1991.zh.txt", 29)],
)
def test_article_counts_and_numbers(name: str, count: int) -> None:
    arts = _articles(_units(name))
    assert [a.number for a in arts] == list(range(1, count + 1))
    assert [a.eid for a in arts] == [f"art_{n}" for n in range(1, count + 1)]


def test_peru_structure() -> None:
    units = _units("brazil-peru-2006.en.txt")
    assert [u.kind for u in units[:3]] == ["preamble", "chapter", "article"]
    art10 = _by(units, "art_10")
    assert (art10.title, art10.topic, art10.label, art10.number_inferred) == ("Dividends", "dividends", "10", False)
    assert [p.num for p in art10.children] == ["1", "2", "3", "4", "5", "6", "7"]
    para2 = art10.children[1]
    assert [p.num for p in para2.children] == ["a", "b"]
    # the unnumbered sentence after the points belongs to paragraph 2, not to point b
    assert para2.raw.endswith("the dividends are paid.") and "shall not affect" not in para2.children[1].raw
    assert (art10.start, art10.end) == (106, 117)
    art1 = _by(units, "art_1")
    # the letter-spaced chapter heading and its title are a unit of their own, before Art. 1
    chp1 = _by(units, "chp_1")
    assert (chp1.kind, chp1.label, chp1.number, chp1.title) == ("chapter", "I", 1, "Scope of the Convention")
    assert art1.chapter == "chp_1" and art1.raw.startswith("ARTICLE 1") and chp1.end < art1.start
    chapters = [u for u in units if u.kind == "chapter"]
    assert [c.number for c in chapters] == sorted(c.number for c in chapters)
    assert all(u.chapter in {c.eid for c in chapters} for u in _articles(units))
    assert [p.num for p in art1.children] == [None] and art1.children[0].eid == "art_1__para_1"
    # h) … i) ii) (roman under h) then i) the letter, with its own i) ii)
    art3_p1 = _by(units, "art_3").children[0]
    assert [p.num for p in art3_p1.children] == list("abcdefghi")
    assert "Minister of Finance" in art3_p1.children[7].raw
    art29 = _by(units, "art_29")
    assert art29.raw.startswith("ARTICLE 29") and art29.raw.endswith("in which the termination occurred.")
    assert (art29.start, art29.end) == (245, 252)
    prot = [u for u in units if u.kind == "protocol" and u.number]
    assert [p.refers_to for p in prot] == [3, 8, 11, 12, 23, 24, 25, 27]
    closings = [u for u in units if u.kind == "closing"]
    assert [c.eid for c in closings] == ["closing", "closing_2"]
    assert closings[0].start == 253 and closings[0].end == 265  # signature block with | and ___
    assert "Minister of Foreign Affairs" in closings[1].raw
    assert not [u for u in units if u.kind == "other"]


def test_colombia_recovered() -> None:
    units = _units("brazil-colombia-2022.pt.txt")
    arts = _articles(units)
    expected = [
        "persons-covered", "taxes-covered", "general-definitions", "resident",
        "permanent-establishment", "immovable-property", "business-profits", "shipping",
        "associated-enterprises", "dividends", "interest", "royalties", "technical-services",
        "capital-gains", "independent-services", "employment", "directors-fees",
        "artistes-sportspersons", "pensions", "government-service", "teachers", "students",
        "other-income", "elimination-double-taxation", "non-discrimination", "mutual-agreement",
        "exchange-of-information", "entitlement-to-benefits", "diplomatic-agents",
        "entry-into-force", "termination",
    ]  # fmt: skip
    assert [a.topic for a in arts] == expected
    printed = {a.number for a in arts if not a.number_inferred}
    assert printed == {1, 2, 3, 4, 5, 21}
    assert _by(units, "art_5").end == 93  # PE ends at its paragraph 12
    assert _by(units, "art_9").raw.startswith("Quando:")  # unnumbered single-paragraph article
    assert _by(units, "art_9").start == 108 and _by(units, "art_9").end == 111
    assert _by(units, "art_17").raw.startswith("As remunerações de direção")
    assert [p.num for p in _by(units, "art_11").children] == [str(n) for n in range(1, 9)]
    assert _by(units, "art_31").end == 246
    assert [u.kind for u in units[:2]] == ["title", "preamble"]
    assert units[-1].kind == "closing" and "Embaixador da Colômbia no Brasil" in units[-1].raw


def test_china_structure() -> None:
    units = _units("china-brazil-1991.zh.txt")
    art2 = _by(units, "art_2")
    assert art2.title == "税种范围" and art2.label == "二"
    assert [p.num for p in art2.children] == ["1", "2"]
    assert [p.num for p in art2.children[0].children] == ["1", "2"]  # （一）（二）
    assert "４．地方所得税" in art2.children[0].children[1].raw  # １．… nested under （二）
    prot = [u for u in units if u.kind == "protocol" and u.number]
    assert [p.refers_to for p in prot] == [8, 10, 12, 24]
    other = [u for u in units if u.kind == "other"]
    assert len(other) == 1 and other[0].raw.startswith("河北省乡镇船舶安全管理办法")
    assert other[0].start == 209 and other[0].end == 250
    treaty = "\n".join(u.raw for u in units if u.kind == "article")
    assert "乡镇船舶" not in treaty  # no regulation text inside an article


def test_peru_without_headings() -> None:
    """Delete every "ARTICLE n" line and the title under it: same articles, numbers inferred."""
    lines = _lines("brazil-peru-2006.en.txt")
    drop: set[int] = set()
    for i, ln in enumerate(lines):
        if re.fullmatch(r"ARTICLE \d+", ln.text):
            drop |= {i, i + 1}
    cut = [ln for i, ln in enumerate(lines) if i not in drop]
    units = segment(cut, "en")
    _check_no_text_lost(cut, units)
    arts = _articles(units)
    assert [a.number for a in arts] == list(range(1, 30))
    assert all(a.number_inferred for a in arts)
    original = _articles(_units("brazil-peru-2006.en.txt"))
    for a, b in zip(arts, original, strict=True):
        assert [p.start for p in a.children] == [p.start for p in b.children], a.eid
        assert a.end == b.end or a.end < b.end  # the deleted title lines may end it earlier


def test_appended_document_moved_to_front() -> None:
    lines = _lines("china-brazil-1991.zh.txt")
    k = next(i for i, ln in enumerate(lines) if ln.text.startswith("河北省乡镇船舶安全管理办法"))
    moved = lines[k:] + lines[:k]
    units = segment(moved, "zh")
    _check_no_text_lost(moved, units)
    assert units[0].kind == "other" and units[0].start == 209
    arts = _articles(units)
    original = _articles(_units("china-brazil-1991.zh.txt"))
    assert [(a.number, a.start, a.end, a.topic) for a in arts] == [
        (a.number, a.start, a.end, a.topic) for a in original
    ]


def _excerpt(lang: str) -> list[Line]:
    lines = _lines("portugal-spain-1993-art10.en-pt.txt")
    pt = re.compile(r"^\d+ - |\b(dos|das|não|é|sociedade|Estado Contratante de que)\b")
    if lang == "pt":
        return [ln for ln in lines if ln.start <= 18 and pt.search(ln.text)]
    return [ln for ln in lines if not (ln.start <= 18 and pt.search(ln.text))]


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_headingless_excerpt(lang: str) -> None:
    lines = _excerpt(lang)
    units = segment(lines, lang)
    _check_no_text_lost(lines, units)
    arts = _articles(units)
    assert len(arts) == 1
    art = arts[0]
    assert (art.number, art.topic, art.number_inferred) == (10, "dividends", True)
    assert [p.num for p in art.children] == ["1", "2", "3", "4", "5"]
    assert segment(lines, lang, article=7)[0].number == 7  # the caller's number wins
    other = [u for u in units if u.kind == "other"]
    if lang == "en":  # the editor's note, advertisement and translation note
        assert len(other) == 1 and other[0].start == 19 and other[0].end == 21
        assert "Contracting" not in other[0].raw
    else:
        assert not other


@pytest.fixture(scope="module")
def streams_1965() -> dict[str, tuple[Line, ...]]:
    clean = pytest.importorskip("indexer.clean")
    languages = pytest.importorskip("indexer.languages")
    text = (CORPUS / "sweden-brazil-1965.sv-en-pt.txt").read_text(encoding="utf-8")
    return languages.split(clean.clean(text).lines)


@pytest.mark.parametrize("lang", ["sv", "en", "pt"])
def test_1965_three_versions(streams_1965: dict, lang: str) -> None:
    lines = list(streams_1965[lang])
    units = segment(lines, lang)
    _check_no_text_lost(lines, units)
    arts = _articles(units)
    assert [a.number for a in arts] == list(range(1, 22))
    assert [a.label for a in arts][:3] == ["I", "II", "III"]
    if lang == "en":
        art15 = _by(units, "art_15")
        assert art15.label == "ÅT" and art15.number_inferred  # garbled XV resolved by order
        assert _by(units, "art_2").label == "II"  # "Artiele II"
        assert [p.num for p in _by(units, "art_1").children] == ["1", "2"]  # (1) (2)
    if lang == "sv":
        assert [p.num for p in _by(units, "art_19").children][:2] == ["1", "2"]  # § 1. § 2.
        other = [u for u in units if u.kind == "other"]
        assert other and other[0].start < arts[0].start  # the bill's own text
        assert other[-1].start > arts[-1].end  # the minister's commentary
        assert units[[u.kind for u in units].index("title")].raw.startswith("Avtal")
    assert any(u.kind == "closing" for u in units)


@pytest.mark.parametrize(
    ("path", "lang", "count"),
    [("en/nl-se-1991.txt", "en", 33), ("sv/se-us-1994.txt", "sv", 30), ("sv/nordic-1996.txt", "sv", 32)],
)
def test_corpus_extra_counts(extra_dir: Path, path: str, lang: str, count: int) -> None:
    """Unseen real texts (markdown "##Article 5", Swedish statutes with law text around)."""
    clean = pytest.importorskip("indexer.clean")
    languages = pytest.importorskip("indexer.languages")
    text = (extra_dir / path).read_text(encoding="utf-8")
    lines = list(languages.split(clean.clean(text).lines)[lang])
    units = segment(lines, lang)
    _check_no_text_lost(lines, units)
    assert [a.number for a in _articles(units)] == list(range(1, count + 1))
