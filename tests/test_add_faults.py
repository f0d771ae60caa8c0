"""`treaty add` under faults: a disk that fills mid-copy, a kill, adds at once into one
corpus folder. Never a partial file in the corpus folder, never a file without its entry,
never a lost entry. scripts/probe_add.py is the long loop (kills at random moments, floods
of concurrent adds)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from indexer.sources import manifest
from indexer.sources.add import TMP_PREFIX, Planned, add, apply

ROOT = Path(__file__).resolve().parent.parent
PERU = ROOT / "corpus" / "brazil-peru-2006.en.txt"
EXCERPT = ROOT / "corpus" / "portugal-spain-1993-art10.en-pt.txt"


def _env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TREATY_DATA", None)
    return env


def _add_with_file_limit(corpus: Path, source: Path, data: Path, limit: int
                         ) -> subprocess.CompletedProcess:
    """`treaty add` in a child whose files may grow to `limit` bytes: a write past it fails
    with EFBIG as a full disk fails with ENOSPC (Python ignores SIGXFSZ)."""
    code = ("import resource, sys\n"
            f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
            "from search.cli import entry\n"
            "sys.argv = ['treaty', *sys.argv[1:]]\n"
            "entry()\n")
    return subprocess.run([sys.executable, "-c", code, "add", "--corpus", str(corpus),
                           "--data", str(data), "--treaty", "es-pt-1993", str(source)],
                          env=_env(), capture_output=True, text=True, timeout=300, check=False)


def test_a_disk_that_fills_mid_copy_leaves_the_corpus_folder_as_it_was(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "manifest.toml").write_text("# the manifest\n", "utf-8")
    source = tmp_path / "treaty.txt"
    shutil.copy(EXCERPT, source)
    before = sorted(p.name for p in corpus.iterdir())
    add([source], corpus, {}, dry_run=True)  # (a warm cache: only the corpus write may fail)
    failed = _add_with_file_limit(corpus, source, tmp_path / "data", EXCERPT.stat().st_size // 2)
    assert failed.returncode == 1, failed.stderr
    last = failed.stderr.strip().splitlines()[-1]
    assert last == (f"Error: {corpus / 'treaty.txt'}: cannot write (File too large); free space "
                    "or make the corpus folder writable, then add again; the corpus folder "
                    "is unchanged")
    assert sorted(p.name for p in corpus.iterdir()) == [".lock", *before]  # (the lock file)
    assert (corpus / "manifest.toml").read_text("utf-8") == "# the manifest\n"
    add([source], corpus, {"treaty": "es-pt-1993"})  # (room again: the same add goes through)
    assert (corpus / "treaty.txt").read_bytes() == EXCERPT.read_bytes()
    assert [e.file for e in manifest.load(corpus)] == ["treaty.txt"]


def test_what_a_killed_add_left_is_removed_and_the_add_runs_again(tmp_path: Path) -> None:
    """A kill leaves at most a temporary file (never the file itself, half copied): no
    ingest reads it, and the next add removes it."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    left = corpus / f"{TMP_PREFIX}abc123.tmp"
    left.write_bytes(PERU.read_bytes()[:1000])
    assert [e.file for e in manifest.load(corpus)] == []
    source = tmp_path / "peru.txt"
    shutil.copy(PERU, source)
    apply([Planned(source, "peru.txt", "text")], corpus)
    assert sorted(p.name for p in corpus.iterdir()) == [".lock", "manifest.toml", "peru.txt"]


def _apply_one(args: tuple[str, str, str]) -> str:
    corpus, source, name = map(Path, args)
    apply([Planned(source, name.name, "text", {"treaty": f"t{name.stem}-2000"})], corpus)
    return name.name


def test_adds_at_once_lose_no_manifest_entry(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    names = [f"doc{k:02}.txt" for k in range(12)]
    sources = []
    for name in names:
        path = tmp_path / name
        path.write_text(f"Article 1\n{name}\n", "utf-8")
        sources.append((str(corpus), str(path), name))
    with ProcessPoolExecutor(6) as pool:
        done = list(pool.map(_apply_one, sources))
    assert sorted(done) == names
    entries = manifest.load(corpus)
    assert sorted(e.file for e in entries) == names and all(e.declared for e in entries)
    assert not list(corpus.glob(f"{TMP_PREFIX}*"))


def test_a_read_only_corpus_folder_is_one_line(tmp_path: Path) -> None:
    """A corpus 'folder' that cannot be written (here: a path through a file, which even
    root cannot write) is one line naming it."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    source = tmp_path / "peru.txt"
    shutil.copy(PERU, source)
    with pytest.raises(Exception) as caught:
        apply([Planned(source, "peru.txt", "text")], blocker)
    assert type(caught.value).__name__ == "WriteError"
    assert str(caught.value).startswith(f"{blocker}")
    assert "cannot write (Not a directory)" in str(caught.value)
