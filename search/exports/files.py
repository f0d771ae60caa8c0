"""A comparison (`search.exports.tables.Table`) written as a file: CSV for a spreadsheet, DOCX
for a memo or an opinion (python-docx). Each cell keeps its citation and source line; the file
opens with what is compared and where it was read from."""

from __future__ import annotations

import csv
import io

from search.exports.tables import Table

#: Word's language tags of the corpus's languages (spelling and fonts follow them).
WORD_LANG = {"en": "en-GB", "pt": "pt-BR", "sv": "sv-SE", "zh": "zh-CN"}


def table_csv(table: Table) -> str:
    """One CSV row per table row: for each column its text, citation and source line; the
    first two lines say what is compared and where it comes from."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([table.title])
    w.writerow([table.source])
    head = []
    for col in table.columns:
        head += [col.head, f"{col.head}: citation", f"{col.head}: source"]
    w.writerow(head)
    for row in table.rows:
        cells = []
        for cell in row:
            cells += ["", "", ""] if cell is None else [cell.text, cell.citation, cell.source]
        w.writerow(cells)
    return out.getvalue()


def _lang(run, lang: str) -> None:
    """Mark a run as written in `lang` (w:lang; East Asian text as such), so that Word
    checks its spelling and chooses its font as for that language."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    tag = WORD_LANG.get(lang)
    if not tag:
        return
    el = OxmlElement("w:lang")
    el.set(qn("w:eastAsia" if lang == "zh" else "w:val"), tag)
    run.element.get_or_add_rPr().append(el)


def table_docx(table: Table) -> bytes:
    """A Word document: the title, the source line, then the table (landscape when it has
    more than two columns), each cell its text in its language and, below it in small type,
    its citation and source line."""
    from docx import Document
    from docx.enum.section import WD_ORIENT
    from docx.shared import Pt, RGBColor

    doc = Document()
    if len(table.columns) > 2:
        section = doc.sections[0]
        section.orientation = WD_ORIENT.LANDSCAPE
        section.page_width, section.page_height = section.page_height, section.page_width
    doc.add_heading(table.title, level=1)
    doc.add_paragraph(table.source)
    grid = doc.add_table(rows=1, cols=len(table.columns))
    grid.style = "Table Grid"
    for cell, col in zip(grid.rows[0].cells, table.columns, strict=True):
        cell.text = ""
        cell.paragraphs[0].add_run(col.head).bold = True
    for row in table.rows:
        cells = grid.add_row().cells
        for cell, value, col in zip(cells, row, table.columns, strict=True):
            if value is None:
                cell.text = "—"
                continue
            body = cell.paragraphs[0]
            _lang(body.add_run(value.text), col.lang)
            note = cell.add_paragraph().add_run(
                " · ".join(x for x in (value.citation, value.source) if x))
            note.font.size = Pt(8)
            note.font.color.rgb = RGBColor(0x5B, 0x64, 0x75)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()
