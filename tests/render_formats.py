"""Real renderers for the format tests (and scripts/measure_formats.py): a corpus text laid
out as a two-column PDF with a running header and page numbers (reportlab), as a Word file
whose article headings are automatic list numbering (python-docx), and a PDF of one image
without any text layer."""

from __future__ import annotations

import io
import re
from xml.sax.saxutils import escape

_HEADING = re.compile(r"^\s*(article|artikel|artigo|artículo)\s+(\d+)\s*$", re.IGNORECASE)


def source_lines(text: str) -> list[tuple[str, bool]]:
    """The non-blank lines of `text`, each with whether it ends a block (a blank line or the
    end follows)."""
    lines = text.replace("\r\n", "\n").split("\n")
    out: list[tuple[str, bool]] = []
    for i, line in enumerate(lines):
        if line.strip():
            last = i + 1 >= len(lines) or not lines[i + 1].strip()
            out.append((line.strip(), last))
    return out


#: A font with Han characters (Debian's fonts-wqy-microhei, which .ci/run installs).
HAN_FONT = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"


def _font(text: str) -> str:
    """Helvetica, or for a text with Han characters the WenQuanYi font (registered)."""
    if not re.search(r"[\u4e00-\u9fff]", text):
        return "Helvetica"
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("WenQuanYi", HAN_FONT, subfontIndex=0))
    return "WenQuanYi"


def pdf_two_columns(text: str, header: str, columns: int = 2) -> bytes:
    """`text` as a PDF: each source line a paragraph, with space after it where a blank line
    follows (after every one when the text has no blank lines: its lines are paragraphs), in
    `columns` columns, a running header on every page and its number at the foot."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph

    width, height = A4
    margin, gutter = 50, 24
    col = (width - 2 * margin - gutter * (columns - 1)) / columns

    font = _font(text + header)

    def furniture(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFont(font, 9)
        canvas.drawCentredString(width / 2, height - 32, header)
        canvas.drawCentredString(width / 2, 28, f"- {doc.page} -")
        canvas.restoreState()

    frames = [Frame(margin + i * (col + gutter), margin, col, height - 2 * margin,
                    id=f"col{i}") for i in range(columns)]
    out = io.BytesIO()
    doc = BaseDocTemplate(out, pagesize=A4, title=header)
    doc.addPageTemplates([PageTemplate(id="cols", frames=frames, onPage=furniture)])
    body = ParagraphStyle("body", fontName=font, fontSize=9, leading=11,
                          wordWrap="CJK" if font != "Helvetica" else None)
    gap = ParagraphStyle("gap", parent=body, spaceAfter=7)
    lines = source_lines(text)
    spaced = not any(last for _line, last in lines[:-1])
    doc.build([Paragraph(escape(line), gap if last or spaced else body)
               for line, last in lines])
    return out.getvalue()


def pdf_image_only() -> bytes:
    """A one-page PDF holding only a picture (no text layer)."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas as pdfcanvas

    picture = Image.new("L", (200, 100), 255)
    for x in range(20, 180):
        picture.putpixel((x, 50), 0)
    out = io.BytesIO()
    c = pdfcanvas.Canvas(out)
    c.drawImage(ImageReader(picture), 100, 500, 200, 100)
    c.showPage()
    c.save()
    return out.getvalue()


def pdf_scanned(pdf: bytes, pages: list[int] | None = None, dpi: int = 200) -> bytes:
    """The pages of `pdf` (all, or the 0-based `pages`) as pictures only: a scan."""
    import pypdfium2 as pdfium
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas as pdfcanvas

    source = pdfium.PdfDocument(pdf)
    out = io.BytesIO()
    c = None
    for number in pages if pages is not None else range(len(source)):
        page = source[number]
        width, height = page.get_size()
        picture = page.render(scale=dpi / 72, grayscale=True).to_pil()
        if c is None:
            c = pdfcanvas.Canvas(out, pagesize=(width, height))
        c.drawImage(ImageReader(picture), 0, 0, width, height)
        c.showPage()
    c.save()
    return out.getvalue()


def _numbering(document, word: str) -> int:
    """A list definition numbering its items "<word> 1", "<word> 2"… (Word's automatic
    numbering); its numId."""
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    numbering = document.part.numbering_part.element
    abstract = parse_xml(
        f'<w:abstractNum {nsdecls("w")} w:abstractNumId="90"><w:multiLevelType '
        f'w:val="singleLevel"/><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt '
        f'w:val="decimal"/><w:lvlText w:val="{escape(word)} %1"/><w:lvlJc w:val="left"/>'
        f'</w:lvl></w:abstractNum>')
    num = parse_xml(f'<w:num {nsdecls("w")} w:numId="90"><w:abstractNumId w:val="90"/>'
                    f'</w:num>')
    first_num = numbering.find(num.tag)
    if first_num is not None:
        first_num.addprevious(abstract)
    else:
        numbering.append(abstract)
    numbering.append(num)
    return 90


def _blocks(text: str) -> list[list[str]]:
    """The blank-line separated blocks of `text`, each a list of its (stripped) lines (each
    line a block of its own when the text has no blank lines)."""
    lines = source_lines(text)
    spaced = not any(last for _line, last in lines[:-1])
    blocks: list[list[str]] = [[]]
    for line, last in lines:
        blocks[-1].append(line)
        if last or spaced:
            blocks.append([])
    return [b for b in blocks if b]


def docx_numbered(text: str) -> bytes:
    """`text` as a Word file: a paragraph per block (its lines kept by line breaks), every
    "Article N" heading that continues the count written as an item of an automatic list
    "Article %1" (the number not in the text)."""
    import docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls, qn

    document = docx.Document()
    num_id, count = None, 0
    for block in _blocks(text):
        m = _HEADING.match(block[0]) if len(block) == 1 else None
        if m is None or int(m.group(2)) != count + 1:
            para = document.add_paragraph()
            for k, line in enumerate(block):
                run = para.add_run(line)
                if k + 1 < len(block):
                    run.add_break()
            continue
        if num_id is None:
            num_id = _numbering(document, m.group(1))
        count += 1
        document.add_paragraph()
        element = document.element.body.findall(qn("w:p"))[-1]
        element.insert(0, parse_xml(
            f'<w:pPr {nsdecls("w")}><w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num_id}"/>'
            f'</w:numPr></w:pPr>'))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
