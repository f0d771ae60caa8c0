"""An ingest that changes nothing keeps the live generation (no copy of the store, no index
built); one that changes a file makes a new generation, as before."""

from __future__ import annotations

import shutil
from pathlib import Path

from indexer import datadir
from indexer.pipeline import ingest
from tests.test_ingest_faults import DROPPED, _one_doc_corpus, _pair


def test_nothing_changed_keeps_the_live_generation(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    data = tmp_path / "data"
    first = ingest(corpus, data)
    live = datadir.live(data)
    again = ingest(corpus, data)
    assert again.unchanged and datadir.live(data) == live
    assert [d.reused for d in again.documents] == [True]
    assert again.documents[0].articles == first.documents[0].articles
    assert sorted(p.name for p in data.glob(f"{datadir.PREFIX}*")) == [live.name]
    assert _pair(data) == ({"es-pt-1993"}, {"es-pt-1993"})
    # another engine, or a file more, is a change: a new generation
    other = ingest(corpus, data, engine="tantivy")
    assert not other.unchanged and datadir.live(data) != live
    shutil.copy(corpus_dir / "brazil-peru-2006.en.txt", corpus / "brazil-peru-2006.en.txt")
    more = ingest(corpus, data, engine="tantivy")
    assert not more.unchanged and _pair(data) == ({"es-pt-1993", "br-pe-2006"},) * 2


def _engine_files(data: Path) -> dict[str, int]:
    from indexer.index.generations import live_generation

    engine = live_generation(datadir.live(data) / "index") / "engine"
    return {p.name: p.stat().st_ino for p in engine.iterdir() if p.is_file()}


def _hits(data: Path, queries: list[str]) -> list[list[tuple[str, str]]]:
    from search.results import SearchSession

    with SearchSession(data) as s:
        return [[(h["treaty"], h["eid"]) for h in s.search(q, limit=10)["hits"]]
                for q in queries]


def test_a_treaty_added_extends_the_index(tmp_path: Path, corpus_dir: Path) -> None:
    """The unchanged treaty's index files are shared (hard links into the new generation),
    and the index answers as one built whole."""
    corpus = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    data = tmp_path / "data"
    ingest(corpus, data, engine="tantivy")
    before = _engine_files(data)
    shutil.copy(corpus_dir / "brazil-peru-2006.en.txt", corpus / "brazil-peru-2006.en.txt")
    with (corpus / "manifest.toml").open("a", encoding="utf-8") as fh:
        fh.write('[[document]]\nfile = "brazil-peru-2006.en.txt"\ntreaty = "br-pe-2006"\n')
    report = ingest(corpus, data, engine="tantivy")
    assert [d.reused for d in report.documents] == [True, False]
    after = _engine_files(data)
    assert set(before.items()) & set(after.items())  # segments shared, not copied
    whole = tmp_path / "whole"
    ingest(corpus, whole, engine="tantivy")
    queries = ["dividends", "beneficial owner", '"permanent establishment"', "tributação",
               "interest Peru", "royalties OR interest"]
    assert _hits(data, queries) == _hits(whole, queries)
    assert _pair(data) == ({"es-pt-1993", "br-pe-2006"},) * 2
