"""An ingest that changes nothing keeps the live generation (no copy of the store, no index
built); one that changes a file makes a new generation, as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

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


@pytest.mark.parametrize("engine", ["whoosh", "tantivy"])
def test_a_treaty_added_extends_the_index(tmp_path: Path, corpus_dir: Path, engine: str
                                          ) -> None:
    """The unchanged treaty's index files are shared (hard links into the new generation),
    and the index answers as one built whole; so it does when that treaty changes again (its
    documents taken out of the extended index, the new ones put in)."""
    corpus = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    data = tmp_path / "data"
    ingest(corpus, data, engine=engine)
    before = _engine_files(data)
    added = corpus / "brazil-peru-2006.en.txt"
    shutil.copy(corpus_dir / added.name, added)
    with (corpus / "manifest.toml").open("a", encoding="utf-8") as fh:
        fh.write(f'[[document]]\nfile = "{added.name}"\ntreaty = "br-pe-2006"\n')
    report = ingest(corpus, data, engine=engine)
    assert [d.reused for d in report.documents] == [True, False]
    after = _engine_files(data)
    assert set(before.items()) & set(after.items())  # segments shared, not copied
    queries = ["dividends", "beneficial owner", '"permanent establishment"', "tributação",
               "interest Peru", "royalties OR interest", "Article 12"]
    assert _hits(data, queries) == _hits(_whole(corpus, tmp_path / "w1", engine), queries)
    # the store extended (the kept treaty's rows, rates and facts kept, the new one's
    # added): every table as a whole ingest's
    assert _tables(data) == _tables(tmp_path / "w1") and _tables(data)["facts"]
    # the added treaty changed: its royalties are fees now
    added.write_text(added.read_text("utf-8").replace("royalties", "fees"), "utf-8")
    ingest(corpus, data, engine=engine)
    assert set(after.items()) & set(_engine_files(data).items())
    # (the documents taken out still count in the term statistics of their segment, so
    # scores may differ a little from a whole build's: the same hits, not always in order)
    extended, whole = _hits(data, queries), _hits(_whole(corpus, tmp_path / "w2", engine), queries)
    assert [set(h) for h in extended] == [set(h) for h in whole]
    assert [h[0] for h in extended] == [h[0] for h in whole]
    assert _tables(data) == _tables(tmp_path / "w2")
    assert _pair(data) == ({"es-pt-1993", "br-pe-2006"},) * 2


def _tables(data: Path) -> dict[str, list[tuple]]:
    """Every table of the live store of `data`, its rows sorted."""
    from contextlib import closing

    from indexer import store

    with closing(store.connect(data)) as db:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {n: sorted(map(tuple, db.execute(f"SELECT * FROM {n}")), key=repr)
                for n in names}


def _whole(corpus: Path, data: Path, engine: str) -> Path:
    """`data` with `corpus` ingested from nothing."""
    ingest(corpus, data, engine=engine)
    return data


def test_whoosh_builds_whole_again_past_its_segments(tmp_path: Path, corpus_dir: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Each extension adds a Whoosh segment; once the live index has `SEGMENTS` of them the
    next ingest builds it whole again (one segment, no file shared)."""
    from whoosh import index as whoosh_index

    from indexer.index.engines import whoosh_engine
    from indexer.index.generations import live_generation

    def segments(data: Path) -> int:
        engine = live_generation(datadir.live(data) / "index") / "engine"
        with whoosh_index.open_dir(str(engine)).reader() as reader:
            return len(reader.leaf_readers())

    monkeypatch.setattr(whoosh_engine, "SEGMENTS", 2)
    corpus = _one_doc_corpus(corpus_dir, tmp_path / "a", DROPPED)
    data = tmp_path / "data"
    ingest(corpus, data, engine="whoosh")
    added = corpus / "brazil-peru-2006.en.txt"
    shutil.copy(corpus_dir / added.name, added)
    with (corpus / "manifest.toml").open("a", encoding="utf-8") as fh:
        fh.write(f'[[document]]\nfile = "{added.name}"\ntreaty = "br-pe-2006"\n')
    ingest(corpus, data, engine="whoosh")
    assert segments(data) == 2
    before = _engine_files(data)
    added.write_text(added.read_text("utf-8").replace("royalties", "fees"), "utf-8")
    ingest(corpus, data, engine="whoosh")
    assert segments(data) == 1 and not set(before.values()) & set(_engine_files(data).values())
    queries = ["fees", "royalties", "dividends"]
    assert _hits(data, queries) == _hits(_whole(corpus, tmp_path / "w", "whoosh"), queries)
