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
