"""References inside an article to its own paragraphs and points, no article named:
"paragraph 3", "paragraphs 1 and 2 of this Article", "subparagraph (a) of paragraph 2",
"alínea a) do parágrafo 2", "n.º 2", "§§ 1 och 2 av denna artikel", "punkt 2 a", "stycket 2",
"第二款第（一）项", "本条第一款"; a bare point ("subparagraph (b)", "alínea f)", "punkt e)",
"第（一）项") is a point of the paragraph the text is in.

A reference that names another article ("paragraph 2 of Article 11", "§ 1 av artikel II",
"第十一条第七款") or another instrument ("paragraph 1 of the Protocol") is not one of these:
`indexer.segment.numerals.paragraph_reference_re` links the first kind. A paragraph's own
label ("§ 1." opening a line) is no reference. Each number of a list is a reference of its
own, with its own span.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from indexer.segment.numerals import parse_chinese

_N = r"\d{1,2}"
_ZN = r"[一二三四五六七八九十0-9]{1,3}"
_SEP = r"(?:\s*,\s*|\s+(?:and|or|to|e|ou|a|och|eller|till)\s+)"


def _item(i: int) -> str:
    """Paragraph number `i` of a list, a point label in brackets after it: "2 (a)", "2 a)"."""
    return (rf"(?P<n{i}>{_N})(?:\s*(?:\((?P<p{i}>[a-z]{{1,2}})\)"
            rf"|(?P<p{i}x>[a-z]{{1,2}})\)))?")


_PARAS_WORD = (r"\b(?:sub-?paragraph|paragraph|parágrafo|paragrafo|número|stycket|"
               r"n\.?\s?(?:º|°|os))s?|§§?")
#: What makes a reference point outside the article: "of Article 11", "av artikel II",
#: "do Artigo 20", "of the Protocol", "i avtalet".
#: (White space is taken once, possessively: two runs of white space side by side, under a
#: repeat, backtracked exponentially on a list of points, and quadratically before "of".)
_OUTSIDE = re.compile(
    r"(?:\s*+(?:(?:punkt|point|alínea|sub-?paragraph)\s*+)?(?:\([a-z\d]{1,2}\)|[a-z\d]{1,2}\)))*+"
    r"(?:\s*+,\s++|\s++)(?:of|in|do|da|dos|das|de|av|i)\s+"
    r"(?:the\s+|o\s+|a\s+)?(?:art(?:icle|igo|ikel)?s?\b\.?\s*(?:\d|[IVXL])|convention|convenção|"
    r"agreement|acordo|avtal|protocol|protocolo|protokoll)", re.IGNORECASE)


@dataclass(frozen=True)
class SelfRef:
    """One reference: `text[start:end]` names paragraph `para` (None: the paragraph the text
    is in) and, when not None, its point `point` ("a", or "1" for a Chinese （一）)."""

    start: int
    end: int
    para: int | None
    point: str | None


def _list_re() -> re.Pattern[str]:
    items = _item(0) + "".join(rf"(?:{_SEP}{_item(i)})?" for i in range(1, 4))
    return re.compile(rf"(?P<word>{_PARAS_WORD})\s*(?:{items})", re.IGNORECASE)


_LIST = _list_re()
#: "subparagraph (a) of paragraph 2", "alínea a) do parágrafo 2", "alínea f)", "punkt e)".
_POINT_OF = re.compile(
    r"\b(?:sub-?paragraph|alínea|punkt(?:en)?)s?\s+(?:\((?P<pt>[a-z]{1,2})\)|(?P<ptx>[a-z]{1,2})\))"
    r"(?:\s+(?:of|in|do|da|i|av)\s+(?:paragraph|parágrafo|n\.?\s?º|número|§)\s*(?P<para>\d{1,2}))?",
    re.IGNORECASE)
#: Swedish "punkt 2 a", "punkt 2": punkt then a number is a paragraph.
_PUNKT = re.compile(rf"\bpunkt(?:en|erna)?\s+(?P<n>{_N})(?![\d)])(?:\s+(?P<pb>[a-df-hj-np-z])"
                    r"(?=\s*(?:$|[,;:.)])|\s))?", re.IGNORECASE)
_ZH = re.compile(rf"(?<![条款])(?:本条)?第(?P<para>{_ZN})款(?:第?[（(](?P<pt>{_ZN})[）)]项?)?"
                 rf"|(?<![条款])第[（(](?P<bare>{_ZN})[）)]项")


def _is_label(text: str, m: re.Match[str]) -> bool:
    """A paragraph's own label: at the start of a line, a full stop after it ("§ 1. …")."""
    line_start = text.rfind("\n", 0, m.start()) + 1
    return not text[line_start:m.start()].strip() and text[m.end():m.end() + 1] == "."


def _outside(text: str, end: int) -> bool:
    return _OUTSIDE.match(text, end) is not None


def _lists(text: str) -> list[SelfRef]:
    out = []
    for m in _LIST.finditer(text):
        if m.group("word").lower().startswith("sub"):  # "subparagraph 2": not a paragraph
            continue
        if _is_label(text, m) or _outside(text, m.end()):
            continue
        for i in range(4):
            if m.group(f"n{i}") is None:
                break
            point = m.group(f"p{i}") or m.group(f"p{i}x")
            end = m.end(f"p{i}" if m.group(f"p{i}") else f"p{i}x") + 1 if point \
                else m.end(f"n{i}")
            out.append(SelfRef(m.start() if i == 0 else m.start(f"n{i}"), end,
                               int(m.group(f"n{i}")), point and point.lower()))
    return out


def _points(text: str) -> list[SelfRef]:
    out = []
    for m in _POINT_OF.finditer(text):
        if _outside(text, m.end()):
            continue
        para = int(m.group("para")) if m.group("para") else None
        out.append(SelfRef(m.start(), m.end(), para, (m.group("pt") or m.group("ptx")).lower()))
    for m in _PUNKT.finditer(text):
        if _is_label(text, m) or _outside(text, m.end()):
            continue
        point = m.group("pb")
        out.append(SelfRef(m.start(), m.end(), int(m.group("n")), point and point.lower()))
    return out


def _chinese(text: str) -> list[SelfRef]:
    out = []
    for m in _ZH.finditer(text):
        if m.group("bare"):
            n = parse_chinese(m.group("bare"))
            if n is not None:
                out.append(SelfRef(m.start(), m.end(), None, str(n)))
            continue
        para = parse_chinese(m.group("para"))
        point = parse_chinese(m.group("pt")) if m.group("pt") else None
        if para is not None:
            out.append(SelfRef(m.start(), m.end(), para, None if point is None else str(point)))
    return out


def self_references(text: str) -> list[SelfRef]:
    """The references in `text` to paragraphs and points of its own article, in order, none
    overlapping another."""
    found = sorted(_lists(text) + _points(text) + _chinese(text),
                   key=lambda r: (r.start, -(r.end - r.start)))
    out: list[SelfRef] = []
    for r in found:
        if not out or r.start >= out[-1].end:
            out.append(r)
    return out


def target(ref: SelfRef, article: str, here: str | None, units: Collection[str]) -> str | None:
    """The eId `ref` names in `article` (its eId), when the store has it: `here` is the eId of
    the unit the text is in (for a bare point); a point numbered the other way in this version
    ("a" for a Chinese （一）, which the store numbers 1) is found as its twin."""
    from search.citations.lookup import ordinal_twin

    if ref.para is not None:
        para = f"{article}__para_{ref.para}"
    else:
        m = re.match(r".*?__para_\w+?(?=__|$)", here or "")
        if m is None or not m.group().startswith(article + "__"):
            return None
        para = m.group()
    if ref.point is None:
        return para if para in units else None
    eid = f"{para}__point_{ref.point}"
    if eid in units:
        return eid
    twin = ordinal_twin(eid)
    return twin if twin in units else None
