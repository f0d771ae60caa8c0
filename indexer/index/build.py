"""Building an index: `IndexDoc`s analysed into rows (`indexer.index.rows`, in worker
processes for a large build), written by the chosen engine into a new generation of the index
directory, which is then made live (`indexer.index.generations`)."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain, islice
from pathlib import Path

from indexer.index.engines import Row, build, check_engine
from indexer.index.generations import (
    FORMAT,
    GROUPS_FILE,
    META,
    VOCAB,
    GroupTable,
    live_generation,
    make_live,
    new_generation,
    prune,
)
from indexer.index.rows import AnalysisMemo, Vocabulary, analyse_chunk
from indexer.index.terms import TermSample, write_terms
from indexer.models import IndexDoc
from indexer.policy import LANGUAGES

__all__ = ["IndexStats", "build_index", "default_engine"]

#: Documents per unit of work; a build with fewer than PARALLEL_MIN documents (or one
#: worker) analyses in this process. Each chunk's vocabulary is pickled, sent and merged
#: into the build's: its distinct words grow slower than its documents, so larger chunks
#: move fewer of them in all (1000: half the vocabulary work of 500 on the 100 MB
#: benchmark, whose copies repeat their words; less on a corpus of distinct texts).
CHUNK = 1000
PARALLEL_MIN = 2 * CHUNK


@dataclass(frozen=True)
class IndexStats:
    engine: str
    docs: int
    seconds: float
    path: Path  # the generation directory now live
    languages: tuple[str, ...]


def default_engine() -> str:
    """The engine named by TREATY_ENGINE, else whoosh."""
    return os.environ.get("TREATY_ENGINE", "").strip().lower() or "whoosh"


def build_index(
    docs: Iterable[IndexDoc],
    index_dir: Path,
    engine: str | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int | None = None,
) -> IndexStats:
    """Build a search index of `docs` in `index_dir` with `engine` (whoosh or tantivy; default
    TREATY_ENGINE or whoosh). The new index is built in a new generation directory and made
    live by atomically replacing the CURRENT pointer; readers of the old one are undisturbed.
    `progress` is called with the number of documents done, every 1000 and at the end.
    `workers` processes analyse the documents (default: one per CPU; small inputs are
    analysed in this process); the index is the same for any number."""
    engine = check_engine(engine or default_engine())
    workers = (os.cpu_count() or 1) if workers is None else workers
    index_dir = Path(index_dir)
    index_dir.mkdir(parents=True, exist_ok=True)
    gen = new_generation(index_dir)
    (gen / "engine").mkdir(parents=True)
    t0 = time.perf_counter()
    groups = _Groups()
    vocab = Vocabulary()
    sample = TermSample()
    rows = groups.numbered(_analysed(sample.tee(docs), workers), vocab, progress)
    try:
        n = build(engine, gen / "engine", rows)
        if progress is not None:
            progress(n)
        write_terms(gen, sample)
        meta = _write_generation(gen, engine, n, groups, vocab)
        previous = live_generation(index_dir)
        make_live(index_dir, gen)
    except BaseException:
        rows.close()  # stops the analysing processes, if any
        shutil.rmtree(gen, ignore_errors=True)
        raise
    prune(index_dir, keep={gen.name, previous.name if previous else ""})
    return IndexStats(engine, n, time.perf_counter() - t0, gen, tuple(meta["languages"]))


def _analysed(docs: Iterable[IndexDoc], workers: int) -> Iterator[tuple[list[Row], Vocabulary]]:
    """(rows, vocabulary) of successive chunks of `docs`, in document order. With more than
    one worker and enough documents, the analysis (most of a build's time) runs in a pool of
    `workers` processes while this one writes the index; the rows are the same either way."""
    it = iter(docs)
    first = list(islice(it, PARALLEL_MIN))
    if workers <= 1 or len(first) < PARALLEL_MIN:
        memo = AnalysisMemo()
        chunk = first
        while chunk:
            yield analyse_chunk(chunk, memo)
            chunk = list(islice(it, CHUNK))
        return
    from concurrent.futures import Future

    from indexer import workers as worker_setup

    pending: deque[Future] = deque()
    # (the workers exit while this process goes on writing the index)
    with worker_setup.pool(workers) as pool:
        chunks = chain((first[i : i + CHUNK] for i in range(0, len(first), CHUNK)),
                       iter(lambda: list(islice(it, CHUNK)), []))
        for chunk in chunks:
            pending.append(pool.submit(analyse_chunk, chunk))
            if len(pending) > 2 * workers:  # bounded: memory stays flat
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


class _Groups:
    """The article groups of a build, numbered in the order their first document comes."""

    def __init__(self) -> None:
        self.numbers: dict[tuple[str, ...], int] = {}  # article group -> its number
        self.sizes: list[int] = []  # documents per group

    def numbered(self, chunks: Iterator[tuple[list[Row], Vocabulary]], vocab: Vocabulary,
                 progress: Callable[[int], None] | None) -> Iterator[Row]:
        """The rows of `chunks`, each with its group's number; each chunk's vocabulary is
        merged into `vocab` as it comes. `progress`: see `build_index`."""
        numbers, sizes = self.numbers, self.sizes
        n = 0
        for chunk, chunk_vocab in chunks:
            vocab.merge(chunk_vocab)
            for row in chunk:
                group = numbers.setdefault(row.key, len(numbers))
                if group == len(sizes):
                    sizes.append(0)
                sizes[group] += 1
                yield Row(*row[:-1], group)  # (group: the last field; _replace is slower)
                n += 1
                if progress is not None and n % 1000 == 0:
                    progress(n)


def _write_generation(gen: Path, engine: str, n: int, groups: _Groups, vocab: Vocabulary
                      ) -> dict:
    """Write the files of generation `gen` beside its engine's (the vocabulary, the groups and
    last the meta, which marks it complete); the meta."""
    (gen / VOCAB).write_text(json.dumps(vocab.to_json(), ensure_ascii=False), "utf-8")
    GroupTable.dump(gen / GROUPS_FILE, groups.numbers, groups.sizes)
    meta = {
        "format": FORMAT,
        "engine": engine,
        "docs": n,
        "groups": len(groups.numbers),
        "languages": sorted(vocab.langs, key=lambda lang: (lang not in LANGUAGES, lang)),
        "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    (gen / META).write_text(json.dumps(meta, indent=1), "utf-8")
    return meta
