"""What a source file is, from its content (magic bytes, markup), not from its name."""

from __future__ import annotations

import codecs
import io
import re
import zipfile

PDF, DOCX, HTML, TEXT = "pdf", "docx", "html", "text"

#: A PDF starts with its header (white space before it tolerated, within this many bytes).
_PDF_HEAD = 1024
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # Word 97-2003 .doc, old Excel, ...
_ZIP = (b"PK\x03\x04", b"PK\x05\x06")
_MARKUP_HEAD = 4096
# An HTML document starts with a doctype or a root <html>/<head>/<body> tag, after white
# space, an XML declaration and comments (XHTML): a text that merely contains tags (Markdown
# with a <meta> or <sup>) is no page.
_HTML_START = re.compile(
    r"\A\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*(?:<!doctype\s+html\b|<(?:html|head|body)\b)",
    re.IGNORECASE | re.DOTALL)
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_XML_ENCODING = re.compile(rb"""\A\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""")
#: The character sets a page may declare and be read in (Python's names for the encodings of
#: the WHATWG Encoding Standard): a page that declares anything else (a codec that is no text
#: encoding, "base64", "zlib", "rot13", or one no browser reads, "unicode_escape", "idna")
#: is read in the encoding found from its bytes.
_PAGE_CHARSETS = re.compile(
    r"utf-8|utf-16(?:-[lb]e)?|ascii|cp(?:125\d|866|874|932|936|949|950)|iso8859-\d+|"
    r"koi8-[ru]|mac-(?:roman|cyrillic)|gb2312|gbk|gb18030|big5(?:hkscs)?|shift_jis|euc_jp|"
    r"iso2022_jp|euc_kr")


def binary_kind(data: bytes) -> str | None:
    """PDF, DOCX, or a one-line reason a binary container is no source ('old Word'…); None
    for anything else (text, HTML: decoded first)."""
    if data[:_PDF_HEAD].lstrip().startswith(b"%PDF-"):
        return PDF
    if data.startswith(_ZIP):
        return DOCX if _is_docx(data) else "zip"
    if data.startswith(_OLE):
        return "ole"
    return None


def _is_docx(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return "word/document.xml" in z.namelist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return False


def is_html(text: str) -> bool:
    """Does the decoded `text` begin as an HTML or XHTML document?"""
    return _HTML_START.match(text[:_MARKUP_HEAD]) is not None


def declared_charset(data: bytes) -> str | None:
    """The character set a page declares (a `<meta charset>` or the XML declaration's
    encoding), when it is one a page may be read in (`_PAGE_CHARSETS`); None otherwise."""
    head = data[:_MARKUP_HEAD]
    m = _XML_ENCODING.match(head) or _CHARSET.search(head)
    if m is None:
        return None
    try:
        name = codecs.lookup(m.group(1).decode("ascii")).name
    except (LookupError, UnicodeDecodeError):
        return None
    return name if _PAGE_CHARSETS.fullmatch(name) else None
