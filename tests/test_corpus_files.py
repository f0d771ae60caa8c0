"""What an ingest reads: only regular files inside the corpus folder, of bounded size; a
file outside it, a FIFO or a file over the limit fails alone with one line naming it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from indexer.index import open_index
from indexer.pipeline import ingest
from search.corpus import Corpus, export_jsonl

ROOT = Path(__file__).resolve().parents[1]
EXCERPT = "portugal-spain-1993-art10.en-pt.txt"
SECRET = "brazil-peru-2006.en.txt"  # a treaty that must stay out: it lives outside the corpus
MANIFEST = '[[document]]\nfile = "{}"\ntreaty = "es-pt-1993"\nlanguages = ["en", "pt"]\n'


def _corpus(tmp_path: Path, corpus_dir: Path, extra: str = "") -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(corpus_dir / EXCERPT, corpus / EXCERPT)
    (corpus / "manifest.toml").write_text(MANIFEST.format(EXCERPT) + extra, encoding="utf-8")
    return corpus


def _outside(tmp_path: Path, corpus_dir: Path) -> Path:
    (tmp_path / "elsewhere").mkdir()
    secret = tmp_path / "elsewhere" / SECRET
    shutil.copy(corpus_dir / SECRET, secret)
    return secret


def _entry(file: str) -> str:
    return f'\n[[document]]\nfile = "{file}"\n'


def _case(case: str, tmp_path: Path, corpus_dir: Path) -> tuple[Path, str]:
    """The corpus of `case` and the document name that must be refused."""
    secret = _outside(tmp_path, corpus_dir)
    if case == "absolute":
        return _corpus(tmp_path, corpus_dir, _entry(str(secret))), str(secret)
    if case == "dot-dot":
        rel = os.path.relpath(secret, tmp_path / "corpus")
        return _corpus(tmp_path, corpus_dir, _entry(rel)), rel
    corpus = _corpus(tmp_path, corpus_dir)
    if case == "symlink":
        (corpus / "passwd.txt").symlink_to(secret)
        return corpus, "passwd.txt"
    (corpus / "ext").symlink_to(secret.parent, target_is_directory=True)  # a linked folder
    (corpus / "manifest.toml").write_text(MANIFEST.format(EXCERPT) + _entry(f"ext/{SECRET}"),
                                          encoding="utf-8")
    return corpus, f"ext/{SECRET}"


@pytest.mark.parametrize("case", ["absolute", "dot-dot", "symlink", "linked-folder"])
def test_a_file_outside_the_corpus_is_refused(case: str, tmp_path: Path,
                                              corpus_dir: Path) -> None:
    corpus, name = _case(case, tmp_path, corpus_dir)
    report = ingest(corpus, tmp_path / "data")
    [failed] = report.failed
    assert failed.file == name
    assert "outside the corpus folder" in failed.error and "\n" not in failed.error
    with Corpus(tmp_path / "data") as c:
        assert [t.id for t in c.treaties()] == ["es-pt-1993"]
        assert not any("Peru" in r["text"] for r in export_jsonl(c))
    assert open_index(report.index).search("Peru", limit=None).total == 0
    assert open_index(report.index).search("dividends", limit=None).total > 0


def test_a_symlink_inside_the_corpus_is_read(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = _corpus(tmp_path, corpus_dir)
    (corpus / "texts").mkdir()
    shutil.copy(corpus_dir / SECRET, corpus / "texts" / SECRET)
    (corpus / "peru.txt").symlink_to(Path("texts") / SECRET)
    report = ingest(corpus, tmp_path / "data")
    assert not report.failed
    assert "br-pe-2006" in {d.treaty for d in report.documents}


def test_fifos_fail_alone_and_the_ingest_ends(tmp_path: Path, corpus_dir: Path) -> None:
    """A FIFO named in the manifest and one found in the folder: each fails with a message
    and the ingest ends (before, the first open waited for a writer forever). Run as the
    CLI in a child process, so that a hang fails the test instead of stalling the suite."""
    corpus = _corpus(tmp_path, corpus_dir, _entry("named.fifo"))
    os.mkfifo(corpus / "named.fifo")
    os.mkfifo(corpus / "found.txt")
    env = {**os.environ, "TREATY_DATA": str(tmp_path / "data")}
    try:
        out = subprocess.run([sys.executable, "-m", "search.cli", "ingest", "--corpus",
                              str(corpus)], check=False, cwd=ROOT, env=env,
                             capture_output=True,
                             text=True, timeout=180)
    except subprocess.TimeoutExpired:
        pytest.fail("the ingest hung on a FIFO")
    assert out.returncode == 1
    for name in ("named.fifo", "found.txt"):
        assert f"{name}: is a named pipe (FIFO), not a regular file" in out.stdout
    assert "2 of 3 documents failed" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_file_over_the_limit_fails_alone(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = _corpus(tmp_path, corpus_dir)
    shutil.copy(corpus_dir / SECRET, corpus / SECRET)  # 51 kB, the excerpt 6 kB
    report = ingest(corpus, tmp_path / "data", max_file_mb=0.02)
    [failed] = report.failed
    assert failed.file == SECRET
    assert "0.049 MB is over the 0.02 MB limit for one file" in failed.error
    assert "\n" not in failed.error
    assert [d.treaty for d in report.documents if not d.error] == ["es-pt-1993"]


def test_invalid_bytes_are_a_warning_and_stored_as_replacement(tmp_path: Path,
                                                               corpus_dir: Path) -> None:
    corpus = _corpus(tmp_path, corpus_dir)
    data = (corpus / EXCERPT).read_bytes()
    lines = data.split(b"\n")
    lines[4] = b"\xff" + lines[4]
    (corpus / EXCERPT).write_bytes(b"\n".join(lines))
    report = ingest(corpus, tmp_path / "data")
    [doc] = report.documents
    assert not doc.error
    assert any("not valid UTF-8" in w and "line 5" in w for w in doc.warnings)
    with Corpus(tmp_path / "data") as c:  # line 5 is point a) of the article
        raws = [r["raw"] for r in export_jsonl(c) if r["lang"] == "en"]
    assert any("\ufffda) 10% of the gross amount" in r for r in raws)
