"""Bounds on what a container file expands to. The size limit of a source file bounds its
bytes, not what they unpack to: a Word file is a ZIP archive, and 3 MB of it can inflate to
1 GB of XML. A ZIP archive is therefore read here, member by member in small steps, counting
the bytes it really inflates to (never trusting the sizes its directory declares), and
repacked uncompressed for the library that parses it; past the bounds it is refused in one
line. XML nesting depth and single text nodes are bounded by libxml2's own limits (lxml
parses without ``huge_tree``), entities are not expanded (python-docx's parser).

A PDF's compressed streams (page contents, object streams; not images, which text
extraction never decodes) are inflated here in steps too, counting, before PDFium reads
them: a page whose content inflates past the bound is refused instead of read (300 MB of
content took 5 s and 660 MB)."""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Callable

from indexer.errors import SourceError

#: Most members one archive may hold (a Word file has a few dozen).
MAX_MEMBERS = 10_000
#: Bytes read from a member at a time.
_STEP = 1 << 20


def _inflated(z: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> bytes | None:
    """The member's bytes, or None when they pass `budget`."""
    out: list[bytes] = []
    total = 0
    with z.open(info) as member:
        while chunk := member.read(_STEP):
            total += len(chunk)
            if total > budget:
                return None
            out.append(chunk)
    return b"".join(out)


def repacked_zip(data: bytes, path: str, limit: int, parsed: Callable[[str], bool]) -> bytes:
    """The ZIP archive `data` repacked uncompressed, with the members that `parsed(name)`
    says are parsed read whole (their inflated bytes together at most `limit`) and the
    others (images, fonts: never read for text) left empty. SourceError, one line naming
    `path`, for more than MAX_MEMBERS members, more than `limit` bytes once inflated, or a
    damaged archive."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
            if len(infos) > MAX_MEMBERS:
                raise SourceError(f"{path}: a ZIP archive of {len(infos):,} parts (at most "
                                  f"{MAX_MEMBERS:,}); not a Word file to read")
            out = io.BytesIO()
            budget = limit
            with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as packed:
                for info in infos:
                    if info.is_dir():
                        continue
                    body = b""
                    if parsed(info.filename):
                        body = _inflated(z, info, budget)
                        if body is None:
                            raise SourceError(
                                f"{path}: its parts expand to over {limit / (1 << 20):g} MB "
                                "(a compressed bomb?); not read (--max-file-mb raises the "
                                "limit)")
                        budget -= len(body)
                    packed.writestr(info.filename, body)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError,
            NotImplementedError, RuntimeError) as exc:  # (RuntimeError: an encrypted member)
        raise SourceError(f"{path}: a damaged ZIP archive ({_reason(exc)}); save the file "
                          "again") from None
    return out.getvalue()


_STREAM = re.compile(rb">>\s{0,16}stream\r?\n")
#: How far before a stream its dictionary is looked for (its `obj` keyword).
_DICT_REACH = 4096


def _flate_size(data: bytes, start: int, budget: int) -> int:
    """What the zlib stream at `start` inflates to, counted in steps up to `budget` + 1."""
    inflater = zlib.decompressobj()
    total, at = 0, start
    pending = b""
    while total <= budget:
        if not pending:
            if at >= len(data) or inflater.eof:
                break
            pending, at = data[at:at + _STEP], at + _STEP
        try:
            out = inflater.decompress(pending, _STEP)
        except zlib.error:
            break  # (not zlib after all, or damaged: PDFium deals with it)
        pending = inflater.unconsumed_tail
        total += len(out)
        if inflater.eof or (not out and not pending and at >= len(data)):
            break
    return total


def check_pdf_streams(data: bytes, path: str, limit: int) -> None:
    """SourceError, one line naming `path`, when the PDF's Flate-compressed streams other
    than images inflate to more than `limit` bytes together."""
    budget = limit
    for m in _STREAM.finditer(data):
        head = data[max(0, m.start() - _DICT_REACH):m.start()]
        head = head[head.rfind(b"obj") + 1:] if b"obj" in head else head
        if b"/FlateDecode" not in head or b"/Image" in head:
            continue
        budget -= _flate_size(data, m.end(), budget)
        if budget < 0:
            raise SourceError(f"{path}: its compressed streams expand to over "
                              f"{limit / (1 << 20):g} MB (a compressed bomb?); not read "
                              "(--max-file-mb raises the limit)")


def _reason(exc: BaseException) -> str:
    return (str(exc) or type(exc).__name__).splitlines()[0][:120]
