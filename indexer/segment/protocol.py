"""A protocol's items: where each begins and which article it is about.

Protocols number their items in roman numerals ("I", "### II", "III. It is understood …"),
in arabic numerals ("1. Ad Article 2", "2. With reference to Article 8:"), or not at all,
each item opening with a reference ("Ad Article 4", "Till artikel 23:", "With reference to
Articles 6 and 13", "Artiklarna 10, 11 och 12"). A label line and a reference line right
after it (or before it) open one item; the label style is the one the first item uses, so
numbered paragraphs inside "Ad Article" items stay paragraphs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from indexer.hanzi import either_script
from indexer.segment.lines import Label
from indexer.segment.numerals import parse_label, parse_roman

_MARKS = r"^\s*(?:#{1,6}\s*)?(?:\*{1,2}\s*)?"
# "III", "### III", "III. It is understood …", and an inserted item "VII. a) Till artikel 18"
_ROMAN_ITEM_RE = re.compile(_MARKS + r"(?P<r>[IVXL]{1,6})\s*(?:\.\s*(?P<ins>[a-z]\)\s*|bis\b\s*)?(?P<rest>.*)|\s*)$")
# A phrase that says which article an item is about, at the start of the item.
_REFERRING = (
    r"(?:ad|with\s+reference\s+to|with\s+respect\s+to|as\s+regards|re:?|concerning|regarding"
    r"|in\s+respect\s+of|in\s+relation\s+to|med\s+hänvisning\s+till|till|beträffande|angående"
    r"|avseende|rörande|i\s+fråga\s+om|vad\s+gäller|com\s+referência\s+ao?|com\s+respeito\s+ao?"
    r"|relativamente\s+ao?|em\s+relação\s+ao?|no\s+que\s+se\s+refere\s+ao?|quanto\s+ao?)"
)
_ARTICLE_WORD = r"(?:articles?|artigos?|artik(?:larna|lar|eln|el)|art\.)"
_REF_LINE_RE = re.compile(either_script(
    _MARKS + r"(?:" + _REFERRING + r"\s+(?:the\s+|o\s+|a\s+)?(?:" + _ARTICLE_WORD + r"|paragraph|subparagraph"
    r"|clause|parágrafo|alínea|punkt)|" + _ARTICLE_WORD + r"\s+\d{1,3}\w?(?:\s*(?:,|och|and|e)\s*\d{1,3}\w?)+\s*\*?\s*$"
    r"|关于第)"),
    re.IGNORECASE,
)
_FIRST_ARTICLE_RE = re.compile(either_script(
    r"\b" + _ARTICLE_WORD + r"\s+(?P<label>\d{1,3}(?=[A-Za-z]?\b)|[IVXL]{1,6}\b)"
    r"|第\s*(?P<zlabel>[一二三四五六七八九十百]{1,5}|[0-9０-９]{1,3})\s*条"),
    re.IGNORECASE,
)
#: Paragraph label styles that number protocol items: "1.", "(1)", "1)", "一、", "１．".
_ITEM_LABEL_STYLES = ("dot", "paren", "rparen", "cn", "fw")
#: A reference to the item's article is looked for this far into its first line.
_REFERENCE_REACH = 160


def item_starts(texts: Sequence[str], labels: Sequence[Label | None], lo: int, hi: int) -> list[int]:
    """The lines in [lo, hi) that open a protocol item (see module doc)."""
    style: str | None = None  # "roman", "arabic" or "ref": how the first item is opened
    expected = 1  # the next item's number, in a numbered style
    starts: list[int] = []
    last: tuple[str | None, bool] = (None, False)  # kind and alone-ness of the line before
    for k in range(lo, hi):
        kind, value, alone = _item_mark(texts[k], labels[k])
        if kind is not None and starts and starts[-1] == k - 1 and last[1]:
            last = (None, False)
            continue  # "### I" then "####Ad Article 3" (or the other way round): one item
        if kind is None or not _opens(kind, value, alone, style, expected):
            last = (None, False)
            continue
        style = style or kind
        if kind in ("roman", "arabic"):
            expected = value + 1
        elif kind == "ref" and style != "ref":
            expected += 1  # a numbered item whose number the print lost
        starts.append(k)
        last = (kind, alone)
    return starts


def _opens(kind: str, value: int | None, alone: bool, style: str | None, expected: int) -> bool:
    """Does a line marked `kind` (`value`, `alone`) open an item of a protocol whose items
    are opened `style`-wise (None: no item yet) and whose next number is `expected`?"""
    if kind == "ref":
        return alone or style in (None, "ref")  # a reference heading, even where a label was lost
    if kind == "inserted":
        return style == "roman" and value == expected - 1
    return style in (None, kind) and value == expected


def _item_mark(text: str, label: Label | None) -> tuple[str | None, int | None, bool]:
    """(kind, value, alone) of a line that can open an item: "roman" or "arabic" with its
    value, "inserted" (an item "VII. a)" inserted after VII), or "ref" (a reference to an
    article); `alone`: nothing else is on the line."""
    m = _ROMAN_ITEM_RE.match(text)
    if m and (n := parse_roman(m.group("r"))):
        return "inserted" if m.group("ins") else "roman", n, not (m.group("rest") or "").strip()
    if label is not None and label[0] in _ITEM_LABEL_STYLES:
        rest = text[label[2]:].strip()
        return "arabic", label[1], not rest
    if _REF_LINE_RE.match(text):
        return "ref", None, len(text.strip()) <= 80
    return None, None, False


def item_label(text: str, label: Label | None) -> str | None:
    """The label printed on an item's first line ("IV", "3"), or None."""
    m = _ROMAN_ITEM_RE.match(text)
    if m and parse_roman(m.group("r")):
        return m.group("r")
    return str(label[1]) if label is not None and label[0] in _ITEM_LABEL_STYLES else None


def item_title(lines: Sequence[str]) -> str | None:
    """The reference heading of an item ("Ad Article 3, paragraph (1)"), when its first or
    second line is one on its own."""
    for text in lines:
        head = _strip_label(text).strip("* ")
        if head:
            return head if _REF_LINE_RE.match(head) and len(head) <= 80 else None
    return None


def refers_to(lines: Sequence[str]) -> int | None:
    """The article an item (its first lines `lines`) is about: the first article named in
    its opening reference ("Ad paragraph 2 of Article 3" -> 3, "Ad Articles 10, 11 and 12"
    -> 10), or None when it opens without one."""
    for text in lines:
        head = _strip_label(text)
        if not head:
            continue
        if not _REF_LINE_RE.match(head):
            return None
        m = _FIRST_ARTICLE_RE.search(head[:_REFERENCE_REACH])
        if m is None:
            return None
        return parse_label(m.group("label") or m.group("zlabel"))
    return None


_LABEL_PREFIX_RE = re.compile(
    _MARKS + r"(?:[IVXL]{1,6}\s*\.?(?:\s*[a-z]\))?|\(?\d{1,2}\s*[.)]|[一二三四五六七八九十]{1,3}\s*[、，,]"
    r"|[０-９]{1,2}\s*[．.])\s*(?=\S|$)")


def _strip_label(text: str) -> str:
    """An item's line without its label: "III. *Ad Article 1*" -> "*Ad Article 1*"."""
    m = _LABEL_PREFIX_RE.match(text)
    return text[m.end():].strip() if m else text.strip()
