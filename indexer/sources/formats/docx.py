"""Word (.docx) -> text through python-docx: the body's paragraphs and tables in document
order, each paragraph a block set off by blank lines (its manual line breaks kept, as a
hard-wrapped paragraph of a plain text is: without the blank lines a one-line heading and the
title under it would read as one block), a table row a line with its cells separated by
tabs. Word's automatic numbering is recovered as text.

Automatic numbering is not in a paragraph's text: Word generates "Article 1", "2.", "(a)"
from the list definition the paragraph refers to (`w:numPr`: a list and its level, directly
or through the paragraph's style) and the count of earlier items of that list. Here each
list's counters are kept as Word keeps them (a level's counter restarts when a level above
it advances) and the level's text pattern ("Article %1", "%1.%2.") filled in with them in
the level's number format.

A Word file is hostile input like any other: its archive is read within bounds
(`bounds.repacked_zip`: what it inflates to, its member count), a style's chain of base
styles is followed at most `MAX_STYLE_DEPTH` deep and never round a loop, list levels and
start numbers are read only within Word's own ranges, and broken XML is one line.
"""

from __future__ import annotations

import io
import zipfile

from indexer.errors import SourceError
from indexer.segment.numerals import to_roman

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
#: Most styles a chain of base styles is followed through (Word's own chains are short).
MAX_STYLE_DEPTH = 16
#: Word's list levels are 0-8, and a level starts at most at 32767.
MAX_LEVEL = 8
MAX_START = 32767
#: A letter label repeats its letter once per 26 (AA, BBB): at most this many times.
_MAX_LETTER_REPEAT = 8


def _letters(n: int) -> str:
    repeat = (n - 1) // 26 + 1
    if repeat > _MAX_LETTER_REPEAT:
        return str(n)
    return chr(ord("A") + (n - 1) % 26) * repeat


def _number(text: str | None, default: int, most: int) -> int | None:
    """A whole number attribute in 0..`most` (`default` when absent); None when it is out
    of that range or not a number (the item is then not numbered)."""
    if text is None:
        return default
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        return None
    value = int(text)
    return value if value <= most else None


def _formatted(n: int, fmt: str) -> str:
    if fmt in ("upperRoman", "lowerRoman") and not 0 < n < 4000:
        return str(n)
    if fmt == "upperRoman":
        return to_roman(n)
    if fmt == "lowerRoman":
        return to_roman(n).lower()
    if fmt == "upperLetter":
        return _letters(n)
    if fmt == "lowerLetter":
        return _letters(n).lower()
    if fmt in ("bullet", "none"):
        return ""
    return str(n)


def _val(el, name: str) -> str | None:
    child = el.find(f"{_W}{name}") if el is not None else None
    return child.get(f"{_W}val") if child is not None else None


class Numbering:
    """The list definitions of a document and the counters of its lists."""

    def __init__(self, root) -> None:
        self.levels: dict[tuple[str, int], tuple[str, str, int]] = {}
        self.counters: dict[str, list[int]] = {}
        if root is None:
            return
        abstract = {a.get(f"{_W}abstractNumId"): a for a in root.iter(f"{_W}abstractNum")}
        for num in root.iter(f"{_W}num"):
            definition = abstract.get(_val(num, "abstractNumId"))
            if definition is None:
                continue
            for lvl in definition.iter(f"{_W}lvl"):
                ilvl = _number(lvl.get(f"{_W}ilvl"), 0, MAX_LEVEL)
                start = _number(_val(lvl, "start"), 1, MAX_START)
                if ilvl is None or start is None:
                    continue
                self.levels[(num.get(f"{_W}numId"), ilvl)] = (
                    _val(lvl, "lvlText") or "", _val(lvl, "numFmt") or "decimal", start)

    def label(self, num_id: str, ilvl: int) -> str:
        """The generated label of the next item of list `num_id` at level `ilvl`."""
        if (num_id, ilvl) not in self.levels:
            return ""
        counts = self.counters.setdefault(num_id, [])
        while len(counts) <= ilvl:
            counts.append(0)
        counts[ilvl] += 1
        del counts[ilvl + 1:]
        text, fmt, _start = self.levels[(num_id, ilvl)]
        if fmt == "bullet":
            return "• "
        for level, count in enumerate(counts):
            _text, lvl_fmt, start = self.levels.get((num_id, level), ("", "decimal", 1))
            text = text.replace(f"%{level + 1}", _formatted(start - 1 + max(count, 1), lvl_fmt))
        return text + " " if text else ""


def _num_pr(p, styles: dict) -> tuple[str, int] | None:
    """The list (numId) and level of the paragraph element `p`, from itself or its style
    (`styles`: the document's styles by id)."""
    ppr = p.find(f"{_W}pPr")
    style = styles.get(_val(ppr, "pStyle")) if ppr is not None else None
    for props in (ppr, *(s.element.find(f"{_W}pPr") for s in _styles(style))):
        num_pr = props.find(f"{_W}numPr") if props is not None else None
        if num_pr is not None:
            num_id = _val(num_pr, "numId")
            ilvl = _number(_val(num_pr, "ilvl"), 0, MAX_LEVEL)
            if num_id is None or num_id == "0" or ilvl is None:
                return None
            return num_id, ilvl
    return None


def _styles(style):
    """`style` and its base styles, nearest first: at most MAX_STYLE_DEPTH, each once (a
    style based on itself, directly or through another, ends the chain)."""
    seen: set[str] = set()
    while style is not None and len(seen) < MAX_STYLE_DEPTH and style.style_id not in seen:
        seen.add(style.style_id)
        yield style
        style = style.base_style


def _parsed(name: str) -> bool:
    """Is the archive member `name` one python-docx parses (XML, relationships)?"""
    return name.lower().endswith((".xml", ".rels"))


def _open(data: bytes, path: str, limit: int):
    import docx

    from indexer.sources.formats.bounds import repacked_zip

    packed = repacked_zip(data, path, limit, _parsed)
    try:
        return docx.Document(io.BytesIO(packed))
    except (zipfile.BadZipFile, KeyError, ValueError, TypeError, AttributeError) as exc:
        raise SourceError(f"{path}: not a readable Word file ({_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    return (str(exc) or type(exc).__name__).splitlines()[0][:160]


def _numbering(document) -> Numbering:
    try:
        return Numbering(document.part.numbering_part.element)
    except (KeyError, NotImplementedError):  # (a document without list definitions)
        return Numbering(None)


def _block_text(element, document, numbering: Numbering, styles: dict) -> str:
    """The text of a body element: a paragraph with its generated number, or a table."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    if element.tag == f"{_W}p":
        where = _num_pr(element, styles)
        label = numbering.label(*where) if where else ""
        return (label + Paragraph(element, document).text).strip()
    if element.tag == f"{_W}tbl":
        rows = Table(element, document).rows
        return "\n".join("\t".join(c.text.strip() for c in row.cells) for row in rows).strip()
    return ""


def docx_text(data: bytes, path: str, limit: int = 64 << 20) -> str:
    """The text of the Word file `data` (`path` for messages; `limit`: the most its parts
    may expand to, in bytes)."""
    from lxml import etree

    try:
        document = _open(data, path, limit)
        numbering = _numbering(document)
        styles = {s.style_id: s for s in document.styles}
        blocks = [text for element in document.element.body.iterchildren()
                  if (text := _block_text(element, document, numbering, styles))]
    except etree.LxmlError as exc:  # (XML that is not well formed, past libxml2's limits)
        raise SourceError(f"{path}: not a readable Word file (broken XML: "
                          f"{_first_line(exc)}); save it again from Word") from None
    if not blocks:
        raise SourceError(f"{path}: the Word file holds no text")
    return "\n\n".join(blocks) + "\n"
