"""Reading hostile or damaged source files: special files, the size limit, and UTF-8 with a
few invalid bytes (replaced and named, not taken for cp1252)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.errors import SourceError
from indexer.sources.files import read_bytes, size_limit
from indexer.sources.read import decode, read_file

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
SV_SEED = CORPUS / "sweden-brazil-1965.sv-en-pt.txt"
EXCERPT = CORPUS / "portugal-spain-1993-art10.en-pt.txt"
REAL_DIRS = (CORPUS, ROOT.parent / "shared" / "corpus-extra", ROOT.parent / "shared" / "corpus-wild")


def _inject(data: bytes, text: str, at: dict[int, int]) -> bytes:
    """`text` encoded as UTF-8 with the byte at[i] put before its character i."""
    out = bytearray()
    for i, ch in enumerate(text):
        if i in at:
            out.append(at[i])
        out += ch.encode("utf-8")
    return bytes(out)


def test_utf8_with_four_bad_bytes_stays_utf8_and_names_the_lines() -> None:
    text = SV_SEED.read_text(encoding="utf-8")
    lines = text.split("\n")
    # one invalid byte at the start of lines 10, 200, 201 and 900 (1-based)
    starts = {sum(len(x) + 1 for x in lines[:n - 1]): b for n, b in
              [(10, 0xE4), (200, 0xF6), (201, 0x80), (900, 0xFF)]}
    decoded = decode(_inject(b"", text, starts), "x/sv.txt")
    assert decoded.encoding == "utf-8"
    assert decoded.text.count("\ufffd") == 4
    assert decoded.text.replace("\ufffd", "") == text
    assert "undanröjande" in decoded.text and "undanrÃ¶jande" not in decoded.text
    [warning] = decoded.warnings
    assert "4 invalid byte sequences" in warning and "lines 10, 200, 201, 900" in warning
    assert "\n" not in warning


def _real_texts() -> list[Path]:
    return sorted(p for d in REAL_DIRS if d.is_dir() for p in d.rglob("*.txt"))


def test_cp1252_copies_stay_cp1252() -> None:
    """Every real text with accents, saved as cp1252, still reads as cp1252 (the threshold's
    measurement: no cp1252 copy comes near it)."""
    checked = 0
    for path in _real_texts():
        text = path.read_text(encoding="utf-8").replace("\r\n", "\n").removeprefix("\ufeff")
        data = text.encode("cp1252", errors="replace")
        if data.isascii():
            continue
        decoded = decode(data, path.name)
        assert decoded.encoding == "cp1252", path.name
        assert not decoded.warnings
        checked += 1
    assert checked >= 4


def test_cp1252_copy_with_bad_bytes_still_cp1252() -> None:
    text = SV_SEED.read_text(encoding="utf-8")
    data = text.encode("cp1252", errors="replace")
    assert decode(data + b"\x81\x8d", "sv.txt").encoding in {"cp1252", "latin-1"}
    assert decode(data, "sv.txt").text == data.decode("cp1252")


_EXCERPT = EXCERPT.read_text(encoding="utf-8")


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.integers(0, len(_EXCERPT) - 1), st.integers(0x80, 0xFF),
                       min_size=1, max_size=30))
def test_injected_bytes_are_replaced_and_the_rest_intact(at: dict[int, int]) -> None:
    # a byte put before two neighbouring characters could pair up into valid UTF-8
    keep = {i: b for i, b in at.items() if i - 1 not in at}
    decoded = decode(_inject(b"", _EXCERPT, keep), "excerpt.txt")
    assert decoded.encoding == "utf-8"
    assert decoded.text.count("\ufffd") == len(keep)
    assert decoded.text.replace("\ufffd", "") == _EXCERPT
    lines = {_EXCERPT.count("\n", 0, i) + 1 for i in keep}
    assert len(decoded.warnings) == 1
    if len(lines) <= 10:
        assert all(f"{n}" in decoded.warnings[0] for n in lines)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(_EXCERPT.encode())), st.binary(min_size=1,
                                                                            max_size=4)),
                max_size=40))
def test_any_injection_never_crashes(edits: list[tuple[int, bytes]]) -> None:
    data = bytearray(_EXCERPT.encode("utf-8"))
    for pos, junk in sorted(edits, reverse=True):
        data[pos:pos] = junk
    try:
        decoded = decode(bytes(data), "excerpt.txt")
    except SourceError as exc:
        assert "\n" not in str(exc)
    else:
        assert decoded.text


def _refusal_in_a_child(path: Path | str) -> str:
    """The SourceError of `read_file(path)` in a child process with bounded memory and time,
    so that a read that blocks or never ends fails the test instead of stalling the suite."""
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
            "from indexer.sources.read import read_file\n"
            "from indexer.errors import SourceError\n"
            "try:\n    read_file(sys.argv[1])\nexcept SourceError as e:\n    print(e)\n")
    try:
        out = subprocess.run([sys.executable, "-c", code, str(path)], check=False, cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"reading {path} did not end")
    assert out.returncode == 0, out.stderr[-300:]
    return out.stdout.strip()


def test_fifo_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)  # (opening it for reading would wait for a writer forever)
    assert _refusal_in_a_child(fifo) == (
        f"{fifo}: is a named pipe (FIFO), not a regular file; give a plain text file")


def test_dev_zero_refused() -> None:
    """Before, /dev/zero was read until memory ran out."""
    assert _refusal_in_a_child("/dev/zero").startswith("/dev/zero: is a character device")


def test_file_over_the_limit_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"Article 1\n" * 20_000)  # 200,000 bytes
    with pytest.raises(SourceError, match=r"big\.txt: 0\.2 MB is over the 0\.1 MB limit"):
        read_file(big, limit=size_limit(0.1))
    assert read_file(big, limit=200_000).text.startswith("Article 1")


def test_limit_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TREATY_MAX_FILE_MB", "2")
    assert size_limit() == 2 * 1024 * 1024
    assert size_limit(1) == 1024 * 1024
    monkeypatch.setenv("TREATY_MAX_FILE_MB", "lots")
    with pytest.raises(SourceError, match="TREATY_MAX_FILE_MB"):
        size_limit()
    monkeypatch.delenv("TREATY_MAX_FILE_MB")
    assert size_limit() == 64 * 1024 * 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_no_more_than_the_limit_is_read_when_the_size_lies() -> None:
    """/proc files say they are empty (st_size 0) yet have content: the read stops at the
    limit + 1 byte whatever the size said."""
    with pytest.raises(SourceError, match="grew over"):
        read_bytes("/proc/self/status", 50)
