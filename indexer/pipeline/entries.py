"""One manifest entry read and processed (in worker processes when there is enough text to
process), with the treaty-level steps of a document alone in its treaty: what an ingest does
per document, before the steps over several files (`indexer.pipeline.run`)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from indexer import store
from indexer import workers as worker_setup
from indexer.audit import Audit, Source, audit_documents
from indexer.errors import SourceError, TreatyError, environment_message
from indexer.instruments.consolidate import consolidate
from indexer.models import DocMeta, Document
from indexer.pipeline import treaty
from indexer.pipeline.document import count_kind, process, structure_missing
from indexer.sources import manifest
from indexer.sources.read import decode_source, digest, ocr_words, source_bytes


def _meta_from_entry(entry: manifest.Entry) -> DocMeta:
    return DocMeta(
        file=entry.file,
        treaty=entry.treaty or "",
        parties=entry.parties or (),
        signed=entry.signed,
        place=entry.place,
        languages=entry.languages or (),
        article=entry.article,
        title=entry.title,
        instrument=entry.instrument,
        facts=entry.facts,
    )


@dataclass
class DocReport:
    file: str
    treaty: str = ""
    languages: tuple[str, ...] = ()
    articles: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # what was guessed, inferred or kept aside (Document.notes)
    findings: int = 0  # of the audit (`treaty check` lists them)
    error: str | None = None
    reused: bool = False
    seconds: float = 0.0
    #: The file failed (or another of its treaty did) and the live corpus's version of it
    #: was kept: nothing the live corpus had was dropped.
    kept_before: bool = False


#: Below this much source text (bytes) `workers=None` stays in one process: starting workers
#: and loading their lexicons costs more than it saves.
PARALLEL_MIN_BYTES = 2_000_000


def _doubted(corpus_dir: Path, file: str, limit: int | None) -> frozenset[str]:
    """The words the OCR engine doubted in the OCR text `file` (from the words kept beside
    it, `read.ocr_words`); none for any other text."""
    words = ocr_words(corpus_dir, file, limit)
    if not words:
        return frozenset()
    from indexer.normalise.evidence import doubted

    return doubted(words)


def _process_entry(corpus_dir: Path, entry: manifest.Entry, prior_sha: str | None,
                   alone: bool = False, limit: int | None = None, guess: bool = False,
                   keep: bool = False
                   ) -> tuple[DocReport, tuple[Document, list[tuple]] | None, list[tuple],
                              Audit | Guess | None]:
    """Read and process one manifest entry (pure apart from reading the file; runs in worker
    processes too). Returns its report, the processed document (None when the file is
    unchanged, ``report.reused``, or failed, ``report.error``: also a text without treaty
    structure, unless `keep` or its entry keeps it) and, for a file that is `alone` in its
    treaty, the treaty-level steps done here too: topics, links and audit.
    `guess`: a file not known to be alone (its treaty is known once every file is
    processed) goes back as processed, with the result of those steps as if it were
    alone (a `Guess`, used when it is)."""
    t1 = time.perf_counter()
    rep = DocReport(file=entry.file)
    item = None
    links: list[tuple] = []
    checked: Audit | Guess | None = None
    try:
        data, name = source_bytes(corpus_dir, entry.file, limit)
        # (an unchanged file is told by its bytes' hash: not decoded, which costs more)
        if prior_sha is not None and entry.declared and prior_sha == digest(data):
            rep.reused = True
        else:
            decoded = decode_source(data, name, limit)
            # every document processed here goes through `treaty.harmonise_topics`, which decides
            # the topic of every article: segment's own would be overwritten
            doubted = _doubted(corpus_dir, entry.file, limit)
            doc, removed = process(decoded, _meta_from_entry(entry), topics=False,
                                   doubted=doubted)
            missing = None if keep or entry.keep else structure_missing(doc)
            if missing:
                raise TreatyError(f"{missing}; not ingested (`treaty ingest --force` or "
                                  "`keep = true` in its manifest entry keeps it)")
            if alone:
                doc, removed, links, checked = _alone_steps(doc, removed, decoded.text)
                rep.findings = len(checked.findings)
            elif guess:
                checked = _guess(doc, removed, decoded.text)
            item = (doc, removed)
            rep.treaty = doc.meta.treaty
            rep.languages = tuple(v.lang for v in doc.versions)
            rep.articles = {v.lang: count_kind(v.units, "article") for v in doc.versions}
            rep.warnings = doc.warnings
            rep.notes = doc.notes
    except SourceError as exc:
        rep.error = str(exc)
    except TreatyError as exc:
        rep.error = f"{entry.file}: {exc}"
    except Exception as exc:  # noqa: BLE001 - one bad document must not stop the others
        rep.error = _document_error(entry.file, exc)
    rep.seconds = time.perf_counter() - t1
    return rep, item, links, checked


def _alone_steps(doc: Document, removed: list[tuple], text: str
                 ) -> tuple[Document, list[tuple], list[tuple], Audit]:
    """The treaty-level steps of a document alone in its treaty (`text`: its source text):
    its topics, its links (after the repair across its versions), its audit, and the
    treaty as its amendments leave it."""
    box = [(doc, removed)]
    treaty.harmonise_topics(box)
    links = treaty.links_of(box)
    links = treaty.realigned(box, links, treaty.repair_across(box, links))
    doc, removed = box[0]
    checked = audit_documents([(doc, Source.of(text, removed))], links)
    ((doc, removed),) = consolidate([(doc, removed)])  # the treaty as amended (audited as printed)
    return doc, removed, links, checked


@dataclass
class Guess:
    """What the treaty-level steps give a document if it is alone in its treaty: its store
    rows, links and audit, and its article counts and warnings after them."""

    rows: store.StoreRows
    links: list[tuple]
    audit: Audit
    articles: dict[str, int]
    warnings: tuple[str, ...]
    notes: tuple[str, ...]


def _guess(doc: Document, removed: list[tuple], text: str) -> Guess | None:
    """The `Guess` of a processed document (None when the steps fail: the ingest then makes
    them with the other documents, and fails as it would have)."""
    try:
        final, gone, links, checked = _alone_steps(doc, removed, text)
    except Exception:  # noqa: BLE001 - made again, and raised there, after the documents
        return None
    return Guess(store.rows_of(final, gone), links, checked,
                 {v.lang: count_kind(v.units, "article") for v in final.versions},
                 final.warnings, final.notes)


def _document_error(file: str, exc: Exception) -> str:
    """The report line of a document that failed other than by its content: the machine's
    problem (a full disk, an unwritable folder: what to do) or an internal error (a bug)."""
    env = environment_message(exc)
    if env is not None:
        return f"{file}: {env}"
    return (f"{file}: internal error ({type(exc).__name__}: {exc}); "
                     "the file was skipped, please report it")


def _process_chunk(corpus_dir: Path, jobs: list[tuple[manifest.Entry, str | None]],
                   alone: frozenset[str] = frozenset(), limit: int | None = None,
                   keep: bool = False) -> list[tuple]:
    """`_process_entry` of each job, in a worker process. A document alone in its treaty is
    final here, so it goes back as its store rows (`store.rows_of`), with None for its
    removed rows: plain tuples cost a fraction of the document's objects to pickle and
    unpickle. Any other goes back with its `Guess` (most treaties are one file: their
    treaty-level steps are then made here, in parallel, not after the documents)."""
    out = []
    for entry, sha in jobs:
        rep, item, links, checked = _process_entry(corpus_dir, entry, sha, entry.file in alone,
                                                   limit, guess=True, keep=keep)
        if item is not None and entry.file in alone:
            item = (store.rows_of(*item), None)
        out.append((rep, item, links, checked))
    return out


def _worker_count(corpus_dir: Path, entries: Sequence[manifest.Entry], workers: int | None
                  ) -> int:
    if workers is not None:
        return max(1, min(workers, len(entries)))
    size = 0
    for e in entries:
        try:
            size += (corpus_dir / e.file).stat().st_size
        except OSError:
            pass
    if size < PARALLEL_MIN_BYTES:
        return 1
    return max(1, min(os.cpu_count() or 1, len(entries)))


def _run_entries(corpus_dir: Path, entries: Sequence[manifest.Entry], prior: dict,
                 workers: int | None, progress: Callable[[str], None] | None,
                 alone: frozenset[str] = frozenset(), limit: int | None = None,
                 keep: bool = False) -> Iterator[tuple[manifest.Entry, tuple]]:
    """Each entry with its result, in manifest order; `progress` is called per document in
    this process (before it is processed when sequential, as it completes when parallel).
    Unchanged files are told here first, so that workers start only for the others (and
    only when they are enough text to repay starting them)."""
    same = _unchanged(corpus_dir, entries, prior, limit)
    todo = [e for e in entries if e.file not in same]
    n = _worker_count(corpus_dir, todo, workers)
    if n <= 1:
        for entry in entries:
            if progress:
                progress(entry.file)
            yield entry, (_reused(entry) if entry.file in same else
                          _process_entry(corpus_dir, entry, None, entry.file in alone, limit,
                                         keep=keep))
        return
    # Small chunks keep both the load balanced and the results streaming back in order.
    size = max(1, min(8, len(todo) // (n * 8)))
    chunks = [[(e, None) for e in todo[i:i + size]] for i in range(0, len(todo), size)]
    with worker_setup.pool(n) as pool:  # (the workers exit while this process stores)
        futures = [pool.submit(_process_chunk, corpus_dir, chunk, alone, limit, keep)
                   for chunk in chunks]
        done: dict[str, tuple] = {}
        k = 0
        for entry in entries:
            if entry.file in same:
                result = _reused(entry)
            else:
                while entry.file not in done:  # (chunks come back in manifest order)
                    results = futures[k].result()
                    futures[k] = None  # a consumed result is not kept alive by the list
                    done.update((e.file, r) for (e, _), r in zip(chunks[k], results))
                    k += 1
                result = done.pop(entry.file)
            if progress:
                progress(entry.file)
            yield entry, result


def _unchanged(corpus_dir: Path, entries: Sequence[manifest.Entry], prior: dict,
               limit: int | None) -> set[str]:
    """The declared files whose bytes hash as the live corpus's did (a file that cannot be
    read is not: its document reports why)."""
    out = set()
    for entry in entries:
        before = prior.get(entry.file)
        if before is None or not entry.declared:
            continue
        try:
            data, _name = source_bytes(corpus_dir, entry.file, limit)
        except SourceError:
            continue
        if digest(data) == before.sha256:
            out.add(entry.file)
    return out


def _reused(entry: manifest.Entry) -> tuple:
    """The result of an unchanged file (`_process_entry`'s)."""
    return DocReport(file=entry.file, reused=True), None, [], None
