"""Ingesting in worker processes gives exactly the store a single process gives."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from indexer import store
from indexer.pipeline import ingest


def _dump(data: Path) -> dict[str, list[tuple]]:
    with closing(sqlite3.connect(store.store_path(data))) as db:
        return {
            table: sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
            for table in ("documents", "treaties", "units", "removed", "links")
        }


def test_two_workers_store_the_same_units(corpus_dir: Path, ingested: Path,
                                          tmp_path: Path) -> None:
    seen: list[str] = []
    report = ingest(corpus_dir, tmp_path, workers=2, progress=seen.append)
    assert not report.failed
    assert sorted(seen) == sorted(d.file for d in report.documents)  # one call per document
    one, two = _dump(ingested), _dump(tmp_path)  # `ingested`: the same corpus, one process
    assert one["units"] and two.keys() == one.keys()
    for table in one:
        assert two[table] == one[table], table
