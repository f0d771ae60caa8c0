"""Hostile source files made on the spot (never committed binaries), for the tests and for
scripts/probe_hostile.py: Word files with looping styles, absurd list numbers, broken XML
and compressed bombs; signature lines of underscores; texts in legacy CJK code pages."""

from __future__ import annotations

import io
import zipfile

_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
_CT = (_HEAD + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
       '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
       'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
       '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-'
       'officedocument.wordprocessingml.document.main+xml"/>'
       '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-'
       'officedocument.wordprocessingml.styles+xml"/>'
       '<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-'
       'officedocument.wordprocessingml.numbering+xml"/></Types>')
_RELS = (_HEAD + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
         'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
         'officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
         '</Relationships>')
_DOC_RELS = (_HEAD + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
             'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
             'officeDocument/2006/relationships/styles" Target="styles.xml"/>'
             '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/'
             '2006/relationships/numbering" Target="numbering.xml"/></Relationships>')


def para(text: str, style: str | None = None, num: str | None = None, ilvl: str = "0") -> str:
    """A Word paragraph, with a style and a list (numId) if given."""
    props = ""
    if style or num:
        props = ("<w:pPr>" + (f'<w:pStyle w:val="{style}"/>' if style else "")
                 + (f'<w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num}"/></w:numPr>'
                    if num else "") + "</w:pPr>")
    return f"<w:p>{props}<w:r><w:t>{text}</w:t></w:r></w:p>"


def articles(n: int = 3) -> str:
    return "".join(para(f"Article {i}") + para(f"The text of article {i} of this treaty.")
                   for i in range(1, n + 1))


def document(body: str) -> str:
    return f"{_HEAD}<w:document {_W}><w:body>{body}</w:body></w:document>"


def styles(inner: str = "") -> str:
    return f"{_HEAD}<w:styles {_W}>{inner}</w:styles>"


def style(style_id: str, based_on: str | None = None) -> str:
    base = f'<w:basedOn w:val="{based_on}"/>' if based_on else ""
    return (f'<w:style w:type="paragraph" w:styleId="{style_id}"><w:name w:val="{style_id}"/>'
            f"{base}</w:style>")


def numbering(start: str = "1", fmt: str = "decimal", text: str = "Article %1",
              ilvl: str = "0") -> str:
    return (f"{_HEAD}<w:numbering {_W}><w:abstractNum w:abstractNumId=\"0\">"
            f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{text}"/></w:lvl></w:abstractNum>'
            '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>')


def docx(doc: str, sty: str | None = None, num: str | None = None,
         extra: tuple[tuple[str, bytes], ...] = ()) -> bytes:
    """A minimal Word file of these parts."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CT)
        z.writestr("_rels/.rels", _RELS)
        z.writestr("word/_rels/document.xml.rels", _DOC_RELS)
        z.writestr("word/document.xml", doc)
        z.writestr("word/styles.xml", sty or styles())
        z.writestr("word/numbering.xml", num or numbering())
        for name, data in extra:
            z.writestr(name, data)
    return buf.getvalue()


def style_loop() -> bytes:
    """A style based on itself through another."""
    sty = styles(style("A", "B") + style("B", "A") + style("C", "C"))
    return docx(document(para("Convention", style="A") + para("x", style="C") + articles()),
                sty)


def absurd_list(start: str = "999999999", fmt: str = "upperLetter",
                ilvl: str = "0") -> bytes:
    """A list whose start number (or level) would allocate gigabytes when taken at its word."""
    items = "".join(para(f"item {i}", num="1", ilvl=ilvl) for i in range(3))
    return docx(document(items + articles()), num=numbering(start=start, fmt=fmt, ilvl=ilvl))


def broken_xml() -> bytes:
    return docx(document(articles())[:-30])


def bomb(megabytes: int) -> bytes:
    """A Word file whose document part inflates to `megabytes` MB of XML (paragraphs of
    spaces), compressed about a thousandfold; written in a stream, never whole in memory."""
    buf = io.BytesIO()
    head, tail = document(articles() + "\0").split("\0")
    chunk = (para(" " * 4000) * 256).encode()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("[Content_Types].xml", _CT), ("_rels/.rels", _RELS),
                           ("word/_rels/document.xml.rels", _DOC_RELS),
                           ("word/styles.xml", styles()), ("word/numbering.xml", numbering())):
            z.writestr(name, data)
        with z.open("word/document.xml", "w", force_zip64=True) as part:
            part.write(head.encode())
            for _ in range(megabytes * (1 << 20) // len(chunk)):
                part.write(chunk)
            part.write(tail.encode())
    return buf.getvalue()


def signature_text(underscores: int, base: str) -> str:
    """`base` with a signature line of `underscores` underscores between words."""
    return base + f"\n\nSigned at Lima {'_' * underscores} for Brazil\n"


def pdf_bomb(megabytes: int, text: str = "Article 1 of this treaty") -> bytes:
    """A one-page PDF whose content stream inflates to `megabytes` MB (spaces before one text
    operator), compressed about a thousandfold."""
    import zlib

    deflate = zlib.compressobj(9)
    spaces = b" " * (1 << 20)
    stream = b"".join([*(deflate.compress(spaces) for _ in range(megabytes)),
                       deflate.compress(f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()),
                       deflate.flush()])
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
                b"/Resources << /Font << /F1 5 0 R >> >> >>"),
               (b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream
                + b"\nendstream"),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % o for o in offsets))
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n"
              % (len(objects) + 1, xref))
    return out.getvalue()
