"""The machine misbehaving, not the input: a cache that cannot be written, a full disk, a
read-only data directory, a data directory that is not there; and what a failed document
does to the live corpus. Each is one line naming the path and what to do (never "internal
error ... please report it"), and nothing the live corpus has is dropped. File names with
escape sequences are printed escaped. scripts/probe_faults.py runs the same at full size."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from indexer import store
from indexer.cache import ENV, configured_cache, machine_cache, write_sidecar
from indexer.errors import EnvironmentProblem
from indexer.pipeline import ingest
from search.cli import main
from search.corpus import Corpus

ROOT = Path(__file__).resolve().parent.parent
EXCERPT = "portugal-spain-1993-art10.en-pt.txt"
PERU = "brazil-peru-2006.en.txt"


def _corpus(into: Path, corpus_dir: Path, names=(EXCERPT, PERU)) -> Path:
    into.mkdir()
    treaties = {EXCERPT: "es-pt-1993", PERU: "br-pe-2006"}
    entries = []
    for name in names:
        shutil.copy(corpus_dir / name, into / name)
        entries.append(f'[[document]]\nfile = "{name}"\ntreaty = "{treaties[name]}"\n')
    (into / "manifest.toml").write_text("\n".join(entries), "utf-8")
    return into


def _articles(data: Path) -> dict[str, int]:
    with Corpus(data) as c:
        rows = c.db.execute("SELECT treaty, COUNT(*) FROM units WHERE kind = 'article' "
                            "AND depth = 0 GROUP BY treaty").fetchall()
    return {r[0]: r[1] for r in rows}


# --- the cache -------------------------------------------------------------------------------


def test_an_unwritable_cache_falls_back_to_a_private_temp_folder(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv(ENV, str(blocker / "cache"))  # (even root cannot write there)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", None)  # (read $TMPDIR again)
    assert configured_cache() == blocker / "cache"
    fallback = machine_cache()
    assert fallback == tmp_path / "tmp" / f"treaty-cache-{os.getuid()}"
    assert fallback.is_dir() and (fallback.stat().st_mode & 0o777) == 0o700
    fallback.chmod(0o777)  # a folder others may write: pickles are never loaded from it
    assert machine_cache() == blocker / "cache"


def test_a_sidecar_of_a_source_never_written_is_no_error(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    write_sidecar(blocker / "side.pickle", blocker / "missing.pickle", {"a": 1})


def test_an_unwritable_cache_drops_no_document(tmp_path: Path, corpus_dir: Path,
                                               ingest_report) -> None:  # (a warm cache)
    """The run that lost 3 of 5 treaties: every document is ingested, from the fallback
    cache (made here of links to the warm cache, so that nothing is rebuilt)."""
    warm = configured_cache()
    tmp = tmp_path / "tmp"
    fallback = tmp / f"treaty-cache-{os.getuid()}"
    for path in warm.rglob("*"):
        if path.is_file() and not path.name.endswith((".lock", ".tmp")):
            target = fallback / path.relative_to(warm)
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            target.symlink_to(path)
    fallback.chmod(0o700)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    env = dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(tmp),
               **{ENV: str(blocker / "cache")})
    env.pop("TREATY_DATA", None)
    corpus = _corpus(tmp_path / "corpus", corpus_dir, (EXCERPT,))
    done = subprocess.run([sys.executable, "-m", "search.cli", "ingest", "--corpus",
                           str(corpus), "--data", str(tmp_path / "data")], env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "internal error" not in done.stdout + done.stderr
    assert _articles(tmp_path / "data") == {"es-pt-1993": 2}


# --- a failed document and the live corpus ---------------------------------------------------


def test_a_failed_document_keeps_its_live_version(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", corpus_dir)
    data = tmp_path / "data"
    ingest(corpus, data)
    before = _articles(data)
    assert before == {"es-pt-1993": 2, "br-pe-2006": 29}
    (corpus / PERU).write_bytes(b"\x00\x01\x02" * 100)  # now unreadable
    for forced in ([], ["--force"]):
        result = CliRunner().invoke(main, ["ingest", "--corpus", str(corpus), "--data",
                                           str(data), *forced])
        assert result.exit_code == 1, result.output
        lines = result.output.strip().splitlines()
        assert lines[-1] == ("Error: 1 of 2 documents failed; the other one was ingested; "
                             "its version ingested before is kept")
        assert any(f"{PERU}: binary file" in x and x.endswith(
            "; the version ingested before is kept") for x in lines)
        assert _articles(data) == before


def test_a_treaty_stays_whole_when_one_of_its_files_fails(tmp_path, corpus_dir) -> None:
    """A treaty of two files: when one fails, the other keeps its live version too (never
    half old, half new)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text = (corpus_dir / EXCERPT).read_text("utf-8")
    (corpus / "a.txt").write_text(text, "utf-8")
    (corpus / "b.txt").write_text(text.replace("Article", "Article"), "utf-8")
    (corpus / "manifest.toml").write_text(
        '[[document]]\nfile = "a.txt"\ntreaty = "es-pt-1993"\nlanguages = ["en"]\n'
        '[[document]]\nfile = "b.txt"\ntreaty = "es-pt-1993"\nlanguages = ["pt"]\n', "utf-8")
    data = tmp_path / "data"
    ingest(corpus, data)
    with Corpus(data) as c:
        rows = sorted(tuple(r) for r in c.db.execute("SELECT file, sha256 FROM documents"))
    (corpus / "a.txt").write_text(text + "\nA new last line.\n", "utf-8")
    (corpus / "b.txt").write_bytes(b"")
    report = ingest(corpus, data)
    [a, b] = report.documents
    assert b.error and b.kept_before and a.kept_before and not a.error
    with Corpus(data) as c:
        assert sorted(tuple(r) for r in c.db.execute("SELECT file, sha256 FROM documents")) \
            == rows


# --- the data directory ----------------------------------------------------------------------


def test_a_data_directory_that_cannot_be_made_is_one_line(tmp_path: Path,
                                                          corpus_dir: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    corpus = _corpus(tmp_path / "corpus", corpus_dir, (EXCERPT,))
    result = CliRunner().invoke(main, ["ingest", "--corpus", str(corpus), "--data",
                                       str(blocker / "data")])
    assert result.exit_code == 1
    assert result.output.strip() == (
        f"Error: {blocker / 'data'}: Not a directory; a part of that path is a file, not a "
        f"folder; use another folder; the corpus in {blocker / 'data'} is unchanged")


def test_search_without_a_corpus_says_to_ingest(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["search", "dividends", "--data", str(tmp_path / "no")])
    assert result.exit_code == 1
    assert result.output.strip() == (f"Error: no search index in {tmp_path / 'no' / 'index'}: "
                                     "run `treaty ingest` first (or pass --data DIR)")


@contextlib.contextmanager
def _tmpfs(where: Path, size: str) -> Iterator[Path]:
    """A small tmpfs mounted at `where` (skips the test where mounting is not allowed)."""
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def _fill(folder: Path, leave: int) -> None:
    """Fill the file system of `folder` but `leave` bytes."""
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize
    with open(folder / "filler", "wb") as fh:
        fh.truncate(0)
        fh.write(b"\0" * max(0, free - leave))


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
@pytest.mark.parametrize("engine", ["whoosh", "tantivy"])
def test_a_full_disk_is_one_line_and_the_corpus_unchanged(tmp_path, corpus_dir, engine):
    corpus = _corpus(tmp_path / "corpus", corpus_dir)
    with _tmpfs(tmp_path / "disk", "16m") as disk:
        data = disk / "data"
        ingest(corpus, data, engine=engine)
        before = store.store_path(data).read_bytes()
        _fill(disk, 200_000)
        with pytest.raises(EnvironmentProblem) as caught:
            ingest(corpus, data, engine=engine, force=True)
        message = str(caught.value)
        assert message.endswith(f"; free space on that disk (or use another folder) and run "
                                f"it again; the corpus in {data} is unchanged")
        assert "no space left on device" in message and "\n" not in message
        assert store.store_path(data).read_bytes() == before
        assert len(list(data.glob("gen-*"))) == 1
        result = CliRunner().invoke(main, ["ingest", "--corpus", str(corpus), "--data",
                                           str(data), "--force", "--engine", engine])
        assert result.exit_code == 1 and "internal error" not in result.output
        assert result.output.strip().splitlines()[-1].startswith(f"Error: {data}")


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_a_read_only_data_directory_is_one_line(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", corpus_dir, (EXCERPT,))
    with _tmpfs(tmp_path / "disk", "8m") as disk:
        data = disk / "data"
        ingest(corpus, data)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        result = CliRunner().invoke(main, ["ingest", "--corpus", str(corpus), "--data",
                                           str(data), "--force"])
        assert result.exit_code == 1
        assert result.output.strip().splitlines()[-1] == (
            f"Error: {data / '.lock'}: Read-only file system; that file system is read-only; "
            f"use a writable folder; the corpus in {data} is unchanged")
        assert _articles(data) == {"es-pt-1993": 2}


# --- names on the terminal -------------------------------------------------------------------


def test_file_names_reach_the_terminal_escaped(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    evil = "evil\x1b[31mred\nline\u202e.txt"
    shutil.copy(corpus_dir / EXCERPT, corpus / evil)
    (corpus / "empty\x1b]0;pwned\x07.txt").write_bytes(b"")
    result = CliRunner().invoke(main, ["ingest", "--corpus", str(corpus), "--data",
                                       str(tmp_path / "data")])
    assert result.exit_code == 1
    out = result.output
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "evil\\x1b[31mred\\nline\\u202e.txt" in out
    assert "empty\\x1b]0;pwned\\x07.txt: file is empty" in out
    assert all(not line.startswith("line") for line in out.splitlines())


def test_escape_sequences_in_a_text_reach_no_terminal(tmp_path: Path, corpus_dir: Path) -> None:
    """A source text may hold a few control characters (under the binary threshold): what
    the commands print of it carries none (style codes of their own only)."""
    corpus = _corpus(tmp_path / "corpus", corpus_dir, (EXCERPT,))
    text = (corpus / EXCERPT).read_text("utf-8")
    at = text.index("dividends")
    (corpus / EXCERPT).write_text(text[:at] + "divi\x1b]0;pwned\x07dends\x1b[2J " + text[at:],
                                  "utf-8")
    data = tmp_path / "data"
    ingest(corpus, data)
    for args in (["compare", "es-pt-1993", "art_10"], ["show", "es-pt-1993"],
                 ["search", "pwned"], ["cite", "es-pt-1993 Art. 10"], ["check"]):
        result = CliRunner().invoke(main, [*args, "--data", str(data)], color=True)
        assert result.exit_code == 0, (args, result.output)
        assert "\x1b]" not in result.output and "\x07" not in result.output, args
        assert "\x1b[2J" not in result.output, args


def test_a_damaged_word_table_answers_through_wordfreq_and_is_removed(tmp_path) -> None:
    """A cache file corrupted on disk (here: a word table cut short) fails no document: the
    lookup falls back to wordfreq and the file goes, for the next process to make again."""
    from wordfreq import zipf_frequency as wordfreq_zipf

    from indexer.lexicon import word_table, zipf_frequency

    good = word_table("en")
    assert good is not None
    warm = sorted(configured_cache().glob("lexicon/en-*zipf*.sqlite"))
    assert warm, "the warm cache has no English word table"
    damaged = tmp_path / "lexicon" / warm[-1].name
    damaged.parent.mkdir()
    damaged.write_bytes(warm[-1].read_bytes()[:5000])
    assert zipf_frequency("the", "en", cache_dir=tmp_path) == wordfreq_zipf("the", "en")
    assert zipf_frequency("treaty", "en", cache_dir=tmp_path) == wordfreq_zipf("treaty", "en")
    assert not damaged.exists()
