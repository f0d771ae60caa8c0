"""Stage `read`: bytes -> text.

Detects the encoding (UTF-8 with or without BOM, UTF-16 with a BOM or by its NUL-byte
pattern, cp1252 / latin-1 when UTF-8 fails), normalises line ends to ``\\n`` and refuses
missing, empty and binary input with a one-line message that names the file.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
import unicodedata

from indexer.errors import SourceError
from indexer.models import Decoded

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
            continue
    raise _fail(path, f"cannot decode as {candidates[0]}; re-save the file as UTF-8")


def _normalise_line_ends(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _looks_binary(text: str) -> bool:
    if "\x00" in text:
        return True
    if _CONTROL.search(text) is None:
        return False  # (plain text: no need to count)
    controls = len(_CONTROL.findall(text))
    return controls > 3 and controls > _MAX_CONTROL_SHARE * len(text)


def decode(data: bytes, path: str) -> Decoded:
    """Decode the raw bytes of the source file `path` (used only in messages)."""
    digest = hashlib.sha256(data).hexdigest()
    if not data.strip():
        raise _fail(path, "file is empty; add the treaty text or remove the file")
    text, encoding = _decode_bytes(data, path)
    text = text.removeprefix("\ufeff")
    text = _normalise_line_ends(text)
    if not text.strip():
        raise _fail(path, "file is empty; add the treaty text or remove the file")
    if _looks_binary(text):
        raise _fail(path, "binary file (control characters); give a plain text file")
    return Decoded(path=path, text=text, encoding=encoding, sha256=digest)


def read_file(path: str | os.PathLike[str]) -> Decoded:
    """Read and decode one source file."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise _fail(name, "file not found; check the path or the corpus manifest") from None
    except IsADirectoryError:
        raise _fail(name, "is a directory, not a text file") from None
    except OSError as exc:
        reason = (exc.strerror or str(exc)).splitlines()[0] if str(exc) else "cannot read"
        raise _fail(name, f"cannot read ({reason}); check permissions") from None
    return decode(data, name)
