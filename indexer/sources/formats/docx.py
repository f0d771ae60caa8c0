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
"""

from __future__ import annotations

import io
import zipfile

from indexer.errors import SourceError
from indexer.segment.numerals import to_roman

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"



def _letters(n: int) -> str:
    return chr(ord("A") + (n - 1) % 26) * ((n - 1) // 26 + 1)


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
                ilvl = int(lvl.get(f"{_W}ilvl") or 0)
                start = int(_val(lvl, "start") or 1)
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
            if num_id is None or num_id == "0":
                return None
            return num_id, int(_val(num_pr, "ilvl") or 0)
    return None


def _styles(style):
    while style is not None:
        yield style
        style = style.base_style


def _open(data: bytes, path: str):
    import docx

    try:
        return docx.Document(io.BytesIO(data))
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise SourceError(f"{path}: not a readable Word file ({exc})") from None


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


def docx_text(data: bytes, path: str) -> str:
    """The text of the Word file `data` (`path` for messages)."""
    document = _open(data, path)
    numbering = _numbering(document)
    styles = {s.style_id: s for s in document.styles}
    blocks = [text for element in document.element.body.iterchildren()
              if (text := _block_text(element, document, numbering, styles))]
    if not blocks:
        raise SourceError(f"{path}: the Word file holds no text")
    return "\n\n".join(blocks) + "\n"
