"""The machine-wide cache of word tables, lexicons and model sidecars: built once, by several
processes at once safely, never in the working directory."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing
from pathlib import Path

from click.testing import CliRunner

from indexer import store
from indexer.cache import ENV, building, machine_cache, read_sidecar, write_atomic, write_sidecar
from indexer.pipeline import ingest
from search.cli import main


def _articles(data: Path) -> list[tuple]:
    with closing(store.connect(data)) as db:
        return db.execute("SELECT id, text FROM units WHERE kind = 'article' ORDER BY id"
                          ).fetchall()


def test_fresh_cache_two_workers_build_every_lexicon_once(corpus_dir, ingested, tmp_path,
                                                          monkeypatch):
    """Two worker processes on an empty cache, four languages (en, pt, sv, zh) whose lexicons,
    word tables and foreign-word lists they both need at once: no document fails, the result
    is the one made with a warm cache, and no temporary file is left."""
    cache = tmp_path / "cache"
    monkeypatch.setenv(ENV, str(cache))  # (the spawned workers inherit it)
    report = ingest(corpus_dir, tmp_path / "data", workers=2, force=True)
    assert [d.error for d in report.documents if d.error] == []
    assert _articles(tmp_path / "data") == _articles(ingested)
    built = {p.name for p in (cache / "lexicon").iterdir()}
    for lang in ("en", "pt", "sv", "de", "fr", "nl"):
        assert any(name.startswith(f"{lang}-") and name.endswith(".pickle") for name in built), lang
    assert (cache / "langid").is_dir()
    assert not [p for p in cache.rglob("*") if p.name.endswith(".tmp")]


def test_ingest_with_data_elsewhere_leaves_the_working_directory_alone(corpus_dir, tmp_path,
                                                                     monkeypatch):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    result = CliRunner().invoke(main, ["ingest", "--corpus", str(corpus_dir),
                                       "--data", str(tmp_path / "data")])
    assert result.exit_code == 0, result.output
    assert list(here.iterdir()) == []
    assert store.store_path(tmp_path / "data").exists()


def test_the_cache_follows_its_variable_else_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.setenv(ENV, str(tmp_path))
    assert machine_cache() == tmp_path
    monkeypatch.delenv(ENV)
    assert machine_cache().name == "treaty"
    assert machine_cache() != Path("data")


def _build(target: str) -> int:
    """Build `target` under its lock unless it exists; 1 when this call built it."""
    path = Path(target)
    with building(path):
        if path.exists():
            return 0
        write_atomic(path, lambda tmp: tmp.write_text(f"built by {os.getpid()}\n" * 10_000))
        return 1


def test_concurrent_builders_build_once_and_leave_one_whole_file(tmp_path):
    target = tmp_path / "sub" / "table.txt"
    with ProcessPoolExecutor(4) as pool:
        built = list(pool.map(_build, [str(target)] * 16))
    assert sum(built) == 1
    lines = target.read_text().splitlines()
    assert len(lines) == 10_000 and len(set(lines)) == 1
    assert sorted(p.name for p in target.parent.iterdir()) == ["table.txt", "table.txt.lock"]


def test_an_unwritable_cache_is_no_error(tmp_path):
    """A cache that cannot be written (here its folder is a file) is not written: False, and
    nothing is left behind."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert write_atomic(blocker / "x", lambda tmp: tmp.write_text("x")) is False
    assert list(tmp_path.iterdir()) == [blocker]


def test_a_sidecar_of_a_changed_source_is_stale(tmp_path):
    src = tmp_path / "model.bin"
    src.write_bytes(b"one")
    side = tmp_path / "model.pickle"
    write_sidecar(side, src, {"unpacked": 1})
    assert read_sidecar(side, src) == {"unpacked": 1}
    src.write_bytes(b"other")  # the source changed
    assert read_sidecar(side, src) is None
    side.write_bytes(b"not a pickle")
    assert read_sidecar(side, src) is None
