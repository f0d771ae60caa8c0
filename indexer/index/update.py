"""A new index generation made from the one before: the documents of the treaties that
changed taken out, theirs now put in, the rest shared (adding one treaty to a large corpus
costs in proportion to that treaty, not to the corpus).

The engine's files of the generation before are hard-linked into the new one (neither engine
writes into a segment file: tantivy adds segments, delete bitsets and a new meta, each a file
of its own, and writes its meta files by renaming; Whoosh adds a segment and a new table of
contents holding the deletions), then the engine takes the treaties out and adds the new
documents. The vocabulary of "did you mean" is the one before less that of the
documents taken out plus that of those added; the article groups keep their numbers (new
ones are numbered on); the bilingual term table is kept (it is learnt from a bounded sample
of the corpus, at the last whole build).

What differs from building the index whole: the added documents come after the others
(hits of equal score in that order), and the engines count a deleted document in their
term statistics until its segment is merged, so scores may differ slightly from a whole build's.
Whoosh, which would renumber the documents of the segments it merges, adds one segment per
extension and merges none, until `engines.extendable` says the next ingest builds it whole.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections import Counter
from collections.abc import Collection, Iterable
from pathlib import Path

from indexer.index.build import IndexStats, _analysed, _Groups, _write_generation
from indexer.index.engines import extendable, update
from indexer.index.generations import (
    GROUPS_FILE,
    META,
    VOCAB,
    GroupTable,
    live_generation,
    make_live,
    new_generation,
    prune,
)
from indexer.index.rows import Vocabulary, analyse_chunk
from indexer.index.terms import TERMS_FILE
from indexer.models import IndexDoc


def can_extend(before: Path, engine: str) -> bool:
    """Whether the live generation of the index directory `before` is whole, of `engine`,
    and of an engine that can extend it."""
    gen = live_generation(before)
    if gen is None:
        return False
    try:
        meta = json.loads((gen / META).read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return meta.get("engine") == engine and all(
        (gen / name).is_file() for name in (VOCAB, GROUPS_FILE)) and extendable(
        engine, gen / "engine")


def extend(before: Path, index_dir: Path, engine: str, treaties: Collection[str],
           gone: Iterable[IndexDoc], added: Iterable[IndexDoc],
           workers: int | None = None) -> IndexStats:
    """A new generation of `index_dir` (made live) from the live one of `before` (see
    `can_extend`): the documents of `treaties` taken out (`gone`: those documents, as the
    index before has them) and `added` put in."""
    old = live_generation(before)
    assert old is not None
    index_dir.mkdir(parents=True, exist_ok=True)
    gen = new_generation(index_dir)
    t0 = time.perf_counter()
    try:
        _link_files(old / "engine", gen / "engine")
        groups, vocab = _previous(old)
        _less(groups, vocab, analyse_chunk(gone))
        workers = (os.cpu_count() or 1) if workers is None else workers
        rows = groups.numbered(_analysed(added, workers), vocab, None)
        n = update(engine, gen / "engine", rows, treaties)
        shutil.copyfile(old / TERMS_FILE, gen / TERMS_FILE)
        meta = _write_generation(gen, engine, n, groups, vocab)
        previous = live_generation(index_dir)
        make_live(index_dir, gen)
    except BaseException:
        shutil.rmtree(gen, ignore_errors=True)
        raise
    prune(index_dir, keep={gen.name, previous.name if previous else ""})
    return IndexStats(engine, n, time.perf_counter() - t0, gen, tuple(meta["languages"]))


def _link_files(source: Path, target: Path) -> None:
    """Hard links in `target` to the engine files of `source` (copies where the file system
    has no hard links); its lock files are left out."""
    target.mkdir(parents=True)
    for path in source.iterdir():
        if not path.is_file() or path.name.endswith(".lock"):
            continue
        try:
            os.link(path, target / path.name)
        except OSError:
            shutil.copyfile(path, target / path.name)


def _previous(gen: Path) -> tuple[_Groups, Vocabulary]:
    """The article groups and the vocabulary of the generation `gen`."""
    table = GroupTable.load(gen / GROUPS_FILE)
    groups = _Groups()
    groups.numbers = {tuple(key): k for k, key in enumerate(table.keys)}
    groups.sizes = list(table.sizes)
    data = json.loads((gen / VOCAB).read_text("utf-8"))
    vocab = Vocabulary()
    vocab.df = {fl: Counter(c) for fl, c in data["df"].items()}
    vocab.surface = {fl: Counter(c) for fl, c in data["surface"].items()}
    vocab.langs = set(json.loads((gen / META).read_text("utf-8"))["languages"])
    return groups, vocab


def _less(groups: _Groups, vocab: Vocabulary, gone: tuple[list, Vocabulary]) -> None:
    """Take the rows and vocabulary `gone` (of the documents taken out) from `groups` and
    `vocab`."""
    rows, gone_vocab = gone
    for row in rows:
        group = groups.numbers.get(row.key)
        if group is not None:
            groups.sizes[group] -= 1
    for mine, theirs in ((vocab.df, gone_vocab.df), (vocab.surface, gone_vocab.surface)):
        for fl, counts in theirs.items():
            total = mine.get(fl)
            if total is None:
                continue
            total.subtract(counts)
            for word in [w for w in counts if total[w] <= 0]:
                del total[word]
    vocab.langs = {fl for fl in vocab.langs if vocab.df.get(fl)}
