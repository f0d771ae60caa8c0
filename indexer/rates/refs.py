"""The provision a limit by reference names, as an eId in the same article: "subparagraph
(a) of paragraph 2 of this Article", "paragraph 2 a)", "alínea a) do parágrafo 2", "punkt 2
a)", "第二款第（一）项", "paragraph 2"."""

from __future__ import annotations

import re
from functools import cache

from indexer.segment.numerals import CN_NUMERAL_CHARS, parse_chinese

_CN = f"[{CN_NUMERAL_CHARS}0-9]"


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    point = r"\(?(?P<point>[a-z]|[ivx]{1,4})\)"
    bare_point = r"\(?(?P<point>[a-z])\)?"
    para = r"(?P<para>\d{1,2})"
    return tuple(re.compile(p, re.IGNORECASE) for p in (
        rf"^\W{{0,3}}(?:the\s+)?sub-?paragraphs?\s+{bare_point}\s+of\s+(?:this\s+)?paragraph\s+{para}",
        rf"^\W{{0,3}}(?:the\s+)?paragraph\s+{para}\s*{point}",
        rf"^\W{{0,3}}(?:a\s+|na\s+)?alínea\s+{bare_point}\s+do\s+(?:n\.?º\s+|parágrafo\s+){para}",
        rf"^\W{{0,3}}(?:o\s+|no\s+)?parágrafo\s+{para}\s*,?\s*(?:alínea\s+)?{point}",
        rf"^\W{{0,3}}punkt(?:en)?\s+{para}\s*(?:{point}|(?P<bpoint>[a-h])(?![\w)]))",
        rf"^\W{{0,3}}第(?P<zpara>{_CN}{{1,3}})款第[（(](?P<zpoint>{_CN}{{1,3}})[)）]项",
        rf"^\W{{0,3}}(?:the\s+)?(?:paragraph|parágrafo|punkt(?:en)?)\s+{para}\b",
        rf"^\W{{0,3}}第(?P<zpara>{_CN}{{1,3}})款",
    ))


def reference_target(text: str, eid: str) -> str | None:
    """The eId in the article of `eid` that `text` (what follows "the limit provided for in")
    names, or None."""
    article = eid.split("__")[0]
    for pattern in _patterns():
        m = pattern.search(text)
        if not m:
            continue
        groups = m.groupdict()
        para = groups.get("para") or (str(parse_chinese(groups["zpara"]))
                                       if groups.get("zpara") else None)
        point = groups.get("point") or groups.get("bpoint")
        if groups.get("zpoint"):
            point = str(parse_chinese(groups["zpoint"]))
        if para is None or para == "None":
            return None
        target = f"{article}__para_{int(para)}"
        return f"{target}__point_{point.lower()}" if point else target
    return None


@cache
def _article_patterns() -> tuple[re.Pattern[str], ...]:
    point = r"(?:\s*,?\s*(?:sub-?paragraph\s+|alínea\s+)?\(?(?P<point>[a-z])\))?"
    return tuple(re.compile(p, re.IGNORECASE) for p in (
        # "sub-paragraph a) of paragraph 2 of Article 10", "paragraph 2 of Article 12"
        (r"(?:sub-?paragraph\s+\(?(?P<point>[a-z])\)?\s+of\s+)?paragraph\s+(?P<para>\d{1,2})"
        r"\s+of\s+Article\s+(?P<art>\d{1,3})"),
        # "Article 11, paragraph 2", "artikel 11 punkt 2", "artigo 11, parágrafo 2"
        (rf"(?:Article|artikel|artigo)\s+(?P<art>\d{{1,3}})\s*,?\s*(?:paragraph|punkt|parágrafo)"
        rf"\s+(?P<para>\d{{1,2}}){point}"),
        # "punkt 2 a i artikel 10", "parágrafo 2 do Artigo 11"
        (r"(?:punkt|parágrafo)\s+(?P<para>\d{1,2})\s*\(?(?P<point>[a-z])?\)?\s+(?:i|do|da)\s+"
        r"(?:artikel|artigo)\s+(?P<art>\d{1,3})"),
        # "punkt 2 a i denna artikel", "paragraph 2 of this Article"
        (r"(?:punkt|paragraph|parágrafo)\s+(?P<para>\d{1,2})\s*\(?(?P<point>[a-z])?\)?\s+(?:i\s+denna"
        r"\s+artikel|of\s+this\s+Article|deste\s+Artigo)"),
    ))


def article_target(text: str, eid: str) -> str | None:
    """The eId a rate reference anywhere in `text` names, in any article ("the rate provided
    for in paragraph 2 of Article 12" -> art_12__para_2; "punkt 2 a i denna artikel" in
    art_10 -> art_10__para_2__point_a), or None."""
    for pattern in _article_patterns():
        m = pattern.search(text)
        if not m:
            continue
        groups = m.groupdict()
        article = f"art_{int(groups['art'])}" if groups.get("art") else eid.split("__")[0]
        if not article.startswith("art_"):
            continue
        target = f"{article}__para_{int(groups['para'])}"
        return f"{target}__point_{groups['point'].lower()}" if groups.get("point") else target
    return None
