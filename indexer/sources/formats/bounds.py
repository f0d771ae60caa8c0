"""Bounds on what a container file expands to. The size limit of a source file bounds its
bytes, not what they unpack to: a Word file is a ZIP archive, and 3 MB of it can inflate to
1 GB of XML. A ZIP archive is therefore read here, member by member in small steps, counting
the bytes it really inflates to (never trusting the sizes its directory declares), and
repacked uncompressed for the library that parses it; past the bounds it is refused in one
line. XML nesting depth and single text nodes are bounded by libxml2's own limits (lxml
parses without ``huge_tree``), entities are not expanded (python-docx's parser)."""

from __future__ import annotations

import io
import zipfile
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


def _reason(exc: BaseException) -> str:
    return (str(exc) or type(exc).__name__).splitlines()[0][:120]
