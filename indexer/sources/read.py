"""Stage `read`: bytes -> text.

Detects the encoding (UTF-8 with or without BOM, UTF-16 with a BOM or by its NUL-byte
pattern, cp1252 / latin-1 when the file as a whole is not UTF-8), normalises line ends to
``\\n`` and refuses missing, empty and binary input with a one-line message that names the
file. A UTF-8 file with a few invalid bytes stays UTF-8: the bad bytes become U+FFFD (kept in
the text, and so in the raw text stored) and a warning names their lines.

Other formats are found from the content, whatever the file's name (`formats.detect`): a PDF
or a Word file is read through its library (`formats.pdf`, `formats.docx`), an HTML or XHTML
page is decoded as text (its declared character set taken when the bytes are in it) and
reduced to its main block (`formats.html`).
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
import unicodedata
from pathlib import Path

from indexer.errors import SourceError
from indexer.models import Decoded
from indexer.sources import files
from indexer.sources.formats import detect, page_starts

# Control characters that plain text may legitimately contain.
_ALLOWED_CONTROLS = frozenset("\t\n\r\f\v")
# Share of control characters above which decoded text is considered binary.
_MAX_CONTROL_SHARE = 0.01
# The other control characters (category Cc: all below U+0100, a set Unicode keeps fixed),
# as one character class, so that the text is scanned once, in C.
_OTHER_CONTROLS = "".join(
    ch
    for ch in map(chr, range(0x100))
    if ch not in _ALLOWED_CONTROLS and unicodedata.category(ch) == "Cc"
)
_CONTROL = re.compile(f"[{re.escape(_OTHER_CONTROLS)}]")
_ASCII_RUN = re.compile("[\x00-\x7f]+")
#: A file that is not valid UTF-8 is still read as UTF-8 (bad bytes replaced) while its invalid
#: byte sequences are fewer than its valid non-ASCII characters: the invalid share of its
#: non-ASCII sequences is under this. Measured on the 81 real texts of the bundled corpus,
#: corpus-extra and corpus-wild: in their cp1252 copies the share is 1.0 in every one (no byte
#: pair of them happens to be valid UTF-8), while in a UTF-8 text with a few bad bytes it is
#: bad / (bad + its non-ASCII characters), e.g. 4 / 15 for the English text with the fewest.
_MAX_INVALID_SHARE = 0.5
_REPLACED = "\ufffd"
#: Lines named in the warning about replaced bytes (then "and N more").
_LINES_SHOWN = 10


def _fail(path: str, what: str) -> SourceError:
    return SourceError(f"{path}: {what}")


def _utf16_without_bom(data: bytes) -> str | None:
    """Guess the byte order of BOM-less UTF-16 from where its NUL bytes are."""
    if len(data) < 2 or len(data) % 2:
        return None
    sample = data[:65536]
    even = sample[0::2]
    odd = sample[1::2]
    pairs = len(odd)
    nul_even = even.count(0)
    nul_odd = odd.count(0)
    # Latin-script UTF-16: one byte of nearly every pair is NUL, the other almost never.
    if nul_odd >= 0.3 * pairs and nul_even <= 0.02 * pairs:
        return "utf-16-le"
    if nul_even >= 0.3 * pairs and nul_odd <= 0.02 * pairs:
        return "utf-16-be"
    return None


def _mostly_utf8(data: bytes) -> str | None:
    """`data` decoded as UTF-8 with its invalid bytes replaced, when few enough of its
    non-ASCII sequences are invalid (else None: the file is in another encoding)."""
    text = data.decode("utf-8", errors="replace")
    bad = text.count(_REPLACED) - data.count(_REPLACED.encode("utf-8"))
    non_ascii = len(_ASCII_RUN.sub("", text))
    return text if bad < _MAX_INVALID_SHARE * non_ascii else None


def _decode_bytes(data: bytes, path: str) -> tuple[str, str]:
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        candidates = ["utf-32"]
    elif data.startswith(codecs.BOM_UTF8):
        candidates = ["utf-8-sig"]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # a UTF-16 byte-order mark; 8-bit text that merely starts with "þÿ"/"ÿþ" (cp1252)
        # and is no UTF-16 (odd length, lone surrogates) is read as 8-bit text
        candidates = ["utf-16"] if b"\x00" in data else ["utf-16", "utf-8", "cp1252", "latin-1"]
    elif b"\x00" in data:
        guess = _utf16_without_bom(data)
        if guess is None:
            raise _fail(path, "binary file (contains NUL bytes); give a plain text file")
        candidates = [guess]
    else:
        candidates = ["utf-8", "cp1252", "latin-1"]
    for encoding in candidates:
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            if encoding.startswith("utf-8") and (text := _mostly_utf8(data)) is not None:
                return text, encoding
            if encoding == "utf-8" and (found := _legacy_cjk(data, path)) is not None:
                return found
    raise _fail(path, f"cannot decode as {candidates[0]}; re-save the file as UTF-8")


def _legacy_cjk(data: bytes, path: str) -> tuple[str, str] | None:
    """(text, code page) of Chinese in a legacy code page (`codepages`); a Japanese or Korean
    one is refused in one line; None for anything else (an 8-bit Western text)."""
    from indexer.sources import codepages

    found = codepages.chinese(data)
    if found is not None:
        return found
    other = codepages.other_cjk(data)
    if other is not None:
        raise _fail(path, f"text in {other}, a language this corpus does not read; "
                          "give a text in English, Portuguese, Swedish or Chinese as UTF-8")
    return None


def _normalise_line_ends(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _looks_binary(text: str) -> bool:
    if "\x00" in text:
        return True
    if _CONTROL.search(text) is None:
        return False  # (plain text: no need to count)
    controls = len(_CONTROL.findall(text))
    return controls > 3 and controls > _MAX_CONTROL_SHARE * len(text)


def _replaced_warning(text: str, data: bytes, encoding: str = "UTF-8") -> tuple[str, ...]:
    """The warning about bytes replaced by U+FFFD in `text` (line ends normalised), naming
    their lines; none when every U+FFFD of the text was in the file itself."""
    if text.count(_REPLACED) == data.count(_REPLACED.encode("utf-8")):
        return ()
    lines: list[int] = []
    line, at = 1, 0
    for m in re.finditer(_REPLACED, text):
        line += text.count("\n", at, m.start())
        at = m.start()
        if not lines or lines[-1] != line:
            lines.append(line)
    shown = ", ".join(map(str, lines[:_LINES_SHOWN]))
    more = f" and {len(lines) - _LINES_SHOWN} more" if len(lines) > _LINES_SHOWN else ""
    bad = text.count(_REPLACED) - data.count(_REPLACED.encode("utf-8"))
    warning = (f"not valid {encoding}: {bad} invalid byte sequence{'s' if bad != 1 else ''} "
               f"replaced by U+FFFD on line{'s' if len(lines) != 1 else ''} {shown}{more}; "
               "re-save the file as UTF-8")
    return (warning,)


_CONTAINERS = {
    "zip": "a ZIP archive, not a Word (.docx) file; give the text, a PDF, a .docx or an "
           "HTML page",
    "ole": "an old binary Office file (Word 97-2003 .doc); save it as .docx or PDF",
}


def _binary(kind: str, data: bytes, path: str, digest: str, limit: int | None) -> Decoded:
    """A PDF or Word file read through its library; another container refused."""
    if kind in _CONTAINERS:
        raise _fail(path, _CONTAINERS[kind])
    bound = files.size_limit() if limit is None else limit
    if kind == detect.PDF:
        from indexer.sources.formats.pdf import pdf_text

        text = pdf_text(data, path, bound)
        return Decoded(path=path, text=text, encoding="pdf", sha256=digest, format=kind,
                       pages=page_starts(text))
    from indexer.sources.formats.docx import docx_text

    return Decoded(path=path, text=docx_text(data, path, bound), encoding="docx",
                   sha256=digest, format=kind)


def _page(data: bytes, text: str, encoding: str) -> tuple[str, str]:
    """An HTML page's text in its declared character set, when that is not what was found
    and the bytes decode in it (no byte-order mark said otherwise)."""
    declared = detect.declared_charset(data)
    if declared is None or encoding in ("utf-8-sig", "utf-16", "utf-32") or declared in (
            codecs.lookup(encoding).name, "utf-16", "utf-32"):
        return text, encoding
    try:
        return _normalise_line_ends(data.decode(declared)), declared
    except (UnicodeDecodeError, LookupError):
        return text, encoding


def _html(data: bytes, text: str, encoding: str, path: str) -> tuple[str, str]:
    from indexer.sources.formats.html import main_text

    text, encoding = _page(data, text, encoding)
    body = main_text(text)
    if not body.strip():
        raise _fail(path, "HTML page without text; save the page with its treaty text")
    return body, encoding


def decode(data: bytes, path: str, limit: int | None = None) -> Decoded:
    """Decode the raw bytes of the source file `path` (used only in messages); `limit`: what
    a container (a Word file) may expand to, in bytes (None: `files.size_limit()`)."""
    sha = digest(data)
    if not data.strip():
        raise _fail(path, "file is empty; add the treaty text or remove the file")
    kind = detect.binary_kind(data)
    if kind is not None:
        return _binary(kind, data, path, sha, limit)
    text, encoding = _decode_bytes(data, path)
    text = text.removeprefix("\ufeff")
    text = _normalise_line_ends(text)
    if not text.strip():
        raise _fail(path, "file is empty; add the treaty text or remove the file")
    fmt = "text"
    if detect.is_html(text):
        text, encoding = _html(data, text, encoding, path)
        fmt = "html"
    if _looks_binary(text):
        raise _fail(path, "binary file (control characters); give a plain text file")
    warnings = (_replaced_warning(text, data) if encoding.startswith("utf-8")
                else _replaced_warning(text, b"", encoding) if "\ufffd" in text else ())
    pages = page_starts(text) if "\f" in text else ()  # (a printed text's form feeds)
    return Decoded(path=path, text=text, encoding=encoding, sha256=sha, warnings=warnings,
                   format=fmt, pages=pages)


def read_file(path: str | os.PathLike[str], limit: int | None = None) -> Decoded:
    """Read and decode one source file: a regular file of at most `limit` bytes (None:
    `files.size_limit()`)."""
    name = os.fspath(path)
    limit = files.size_limit() if limit is None else limit
    return decode(files.read_bytes(name, limit), name, limit)


def read_source(corpus_dir: str | os.PathLike[str], file: str, limit: int | None = None
                ) -> Decoded:
    """Read and decode the document `file` of the corpus in `corpus_dir`: refused unless it
    resolves to a regular file inside the corpus folder (see `files.inside`)."""
    return decode_source(*source_bytes(corpus_dir, file, limit), limit)


def source_bytes(corpus_dir: str | os.PathLike[str], file: str, limit: int | None = None
                 ) -> tuple[bytes, str]:
    """The bytes of the document `file` of the corpus in `corpus_dir` (refused as by
    `read_source`) and its path as messages name it; `digest` of them tells an unchanged file
    before it is decoded."""
    name = os.fspath(Path(corpus_dir) / file)
    real = files.inside(corpus_dir, file)
    limit = files.size_limit() if limit is None else limit
    return files.read_bytes(real, limit, name=name, root=Path(corpus_dir).resolve()), name


def words_file(text_file: Path) -> Path:
    """Where tesseract's words and confidences are kept beside an OCR text (`x.ocr.tsv`)."""
    return text_file.with_suffix(".tsv")


def ocr_words(corpus_dir: str | os.PathLike[str], file: str, limit: int | None = None
              ) -> list:
    """Tesseract's words (boxes, confidences: `formats.ocr_words.Word`) kept beside the OCR
    text `file` of the corpus (`x.ocr.tsv` beside `x.ocr.txt`, as `treaty add --ocr` writes
    them); none when it has none or it cannot be read (the text is read all the same)."""
    if not file.endswith(".ocr.txt"):
        return []
    from indexer.sources.formats.ocr_words import read_tsv

    try:
        data, _name = source_bytes(corpus_dir, words_file(Path(file)).as_posix(), limit)
    except (SourceError, OSError):
        return []
    return read_tsv(data.decode("utf-8", errors="replace"))


def decode_source(data: bytes, name: str, limit: int | None = None) -> Decoded:
    """`decode` of what `source_bytes` read."""
    return decode(data, name, files.size_limit() if limit is None else limit)


def digest(data: bytes) -> str:
    """The content hash of a source file's bytes (`Decoded.sha256`)."""
    return hashlib.sha256(data).hexdigest()
