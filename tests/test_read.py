"""Tests for indexer.read: encodings, line ends, refusals."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from indexer.errors import SourceError
from indexer.sources.read import decode, read_file

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
SEED = CORPUS / "portugal-spain-1993-art10.en-pt.txt"
SV_SEED = CORPUS / "sweden-brazil-1965.sv-en-pt.txt"


def _text(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


@pytest.mark.parametrize("seed", [SEED, SV_SEED])
def test_real_file_same_text_in_every_encoding(seed: Path) -> None:
    text = _text(seed)
    crlf = text.replace("\n", "\r\n")
    variants = {
        "utf-8": text.encode("utf-8"),
        "utf-8-sig": codecs.BOM_UTF8 + text.encode("utf-8"),
        "utf-16-le-bom": codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
        "utf-16-be-bom": codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
        "utf-16-le": text.encode("utf-16-le"),
        "utf-16-be": text.encode("utf-16-be"),
        "cp1252-crlf": crlf.encode("cp1252", errors="replace"),
        "utf-8-cr": text.replace("\n", "\r").encode("utf-8"),
    }
    expected_cp1252 = crlf.encode("cp1252", errors="replace").decode("cp1252").replace("\r\n", "\n")
    for name, data in variants.items():
        decoded = decode(data, f"x/{name}.txt")
        want = expected_cp1252 if name.startswith("cp1252") else text
        assert decoded.text == want, name
        assert "\r" not in decoded.text


def test_reported_encodings() -> None:
    text = _text(SEED)
    assert decode(text.encode("utf-8"), "a").encoding == "utf-8"
    assert decode(codecs.BOM_UTF8 + text.encode(), "a").encoding == "utf-8-sig"
    assert decode(text.encode("utf-16"), "a").encoding == "utf-16"
    assert decode(text.encode("utf-16-le"), "a").encoding == "utf-16-le"
    assert decode(text.encode("utf-16-be"), "a").encoding == "utf-16-be"
    assert decode(text.encode("cp1252", errors="replace"), "a").encoding == "cp1252"


def test_cp1252_specific_characters() -> None:
    raw = "Acordo “dividendos” – é ç\r\nsegunda linha\r\n".encode("cp1252")
    decoded = decode(raw, "x.txt")
    assert decoded.encoding == "cp1252"
    assert decoded.text == "Acordo “dividendos” – é ç\nsegunda linha\n"


def test_sha256_of_raw_bytes() -> None:
    import hashlib

    data = SEED.read_bytes()
    assert decode(data, "a").sha256 == hashlib.sha256(data).hexdigest()
    assert read_file(SEED).sha256 == hashlib.sha256(data).hexdigest()


def test_read_file_real_seed() -> None:
    decoded = read_file(SV_SEED)
    assert decoded.path == str(SV_SEED)
    assert decoded.text.startswith("Kungl. Maj.ts proposition")
    assert decoded.text == _text(SV_SEED)


def _one_line_error(excinfo: pytest.ExceptionInfo[SourceError], name: str) -> str:
    message = str(excinfo.value)
    assert "\n" not in message
    assert name in message
    return message


@pytest.mark.parametrize("content", [b"", b"   \n\r\n\t  ", codecs.BOM_UTF8 + b"\n \n"])
def test_empty_file_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty-treaty.txt"
    path.write_bytes(content)
    with pytest.raises(SourceError) as excinfo:
        read_file(path)
    assert "empty" in _one_line_error(excinfo, "empty-treaty.txt")


@pytest.mark.parametrize(
    "content",
    [
        bytes(range(256)) * 4,
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00" + bytes(200),
        b"PK\x03\x04" + bytes([7, 1, 2, 3, 4, 5, 6, 8, 14, 15, 16]) * 40,
    ],
)
def test_binary_file_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "scan.pdf.txt"
    path.write_bytes(content)
    with pytest.raises(SourceError) as excinfo:
        read_file(path)
    assert "binary" in _one_line_error(excinfo, "scan.pdf.txt")


def test_missing_file_refused(tmp_path: Path) -> None:
    path = tmp_path / "no-such-treaty.txt"
    with pytest.raises(SourceError) as excinfo:
        read_file(path)
    assert "not found" in _one_line_error(excinfo, "no-such-treaty.txt")


def test_directory_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError) as excinfo:
        read_file(tmp_path)
    _one_line_error(excinfo, tmp_path.name)


_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="\ufeff"),
    min_size=1,
).filter(lambda s: s.strip())


@given(_TEXT)
def test_utf8_round_trip(text: str) -> None:
    assert decode(text.encode("utf-8"), "p").text == text


@given(_TEXT)
def test_utf16_round_trip(text: str) -> None:
    assert decode(text.encode("utf-16"), "p").text == text


@given(_TEXT)
def test_utf8_bom_round_trip(text: str) -> None:
    assert decode(codecs.BOM_UTF8 + text.encode("utf-8"), "p").text == text


_CP1252_CHARS = (
    "".join(ch for ch in bytes(range(0x20, 0x100)).decode("cp1252", errors="ignore")) + "\n\t"
)


@given(st.text(alphabet=_CP1252_CHARS, min_size=1).filter(lambda s: s.strip()))
def test_cp1252_round_trip(text: str) -> None:
    data = text.encode("cp1252")
    try:
        data.decode("utf-8")
        assume(text.isascii())  # cp1252 bytes that are also valid UTF-8 read as UTF-8
    except UnicodeDecodeError:
        # as do bytes with fewer invalid UTF-8 sequences than valid non-ASCII ones (in real
        # cp1252 text no byte pair happens to be valid UTF-8: test_cp1252_copies_stay_cp1252)
        as_utf8 = data.decode("utf-8", errors="replace")
        bad = as_utf8.count("\ufffd")
        assume(bad >= sum(1 for ch in as_utf8 if ord(ch) > 127) - bad)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:  # "þÿ"/"ÿþ" are a UTF-16 byte-order mark: such bytes read as UTF-16 when they can
            data.decode("utf-16")
            assume(False)
        except UnicodeDecodeError:
            pass
    decoded = decode(data, "p")
    assert decoded.text == text
    assert decoded.encoding in {"utf-8", "cp1252"}


@given(
    st.lists(st.text(alphabet="abcäö ", min_size=1), min_size=1),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_line_ends_normalised(lines: list[str], end: str) -> None:
    text = end.join(lines)
    if not text.strip():
        return
    assert decode(text.encode("utf-8"), "p").text == "\n".join(lines)
