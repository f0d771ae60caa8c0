"""The ingest of a corpus folder: every document processed (in worker processes when there
is enough text), the treaty-level steps, the new store written and swapped in, the index built.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from indexer import datadir, store
from indexer import workers as worker_setup
from indexer.audit import Audit, Source, audit_documents
from indexer.errors import (
    EmptyCorpusError,
    EnvironmentProblem,
    SourceError,
    TreatyError,
    environment_message,
)
from indexer.instruments.consolidate import consolidate
from indexer.models import DocMeta, Document
from indexer.pipeline import treaty
from indexer.pipeline.document import count_kind, process, structure_missing
from indexer.pipeline.treaty import Processed
from indexer.sources import manifest
from indexer.sources.files import size_limit
from indexer.sources.read import read_source

DEFAULT_DATA = "data"


def data_dir(explicit: str | os.PathLike | None = None) -> Path:
    """The data directory: --data, else $TREATY_DATA, else ./data."""
    return Path(explicit or os.environ.get("TREATY_DATA") or DEFAULT_DATA)


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


@dataclass
class IngestReport:
    documents: list[DocReport]
    store: Path | None
    index: Path | None = None
    seconds: float = 0.0

    @property
    def failed(self) -> list[DocReport]:
        return [d for d in self.documents if d.error]

    @property
    def findings(self) -> int:
        return sum(d.findings for d in self.documents)


def _articles_from_store(db_dir: Path, files: Sequence[str]) -> dict[str, DocReport]:
    out: dict[str, DocReport] = {}
    if not files:
        return out
    with closing(store.connect(db_dir)) as db:
        for f in files:
            row = db.execute("SELECT treaty, languages, warnings, meta FROM documents "
                             "WHERE file=?", (f,)).fetchone()
            counts = dict(db.execute(
                "SELECT lang, COUNT(*) FROM units WHERE file=? AND kind='article' GROUP BY lang",
                (f,)).fetchall())
            langs = tuple(json.loads(row["languages"]))
            found = db.execute("SELECT COUNT(*) FROM findings WHERE file=?", (f,)).fetchone()[0]
            out[f] = DocReport(file=f, treaty=row["treaty"], languages=langs,
                               articles={k: counts.get(k, 0) for k in langs},
                               warnings=tuple(json.loads(row["warnings"])), findings=found,
                               notes=tuple(json.loads(row["meta"] or "{}").get("notes") or ()),
                               reused=True)
    return out


#: Below this much source text (bytes) `workers=None` stays in one process: starting workers
#: and loading their lexicons costs more than it saves.
PARALLEL_MIN_BYTES = 2_000_000


def _process_entry(corpus_dir: Path, entry: manifest.Entry, prior_sha: str | None,
                   alone: bool = False, limit: int | None = None, keep: bool = False
                   ) -> tuple[DocReport, tuple[Document, list[tuple]] | None, list[tuple],
                              Audit | None]:
    """Read and process one manifest entry (pure apart from reading the file; runs in worker
    processes too). Returns its report, the processed document (None when the file is
    unchanged, ``report.reused``, or failed, ``report.error``: also a text without treaty
    structure, unless `keep` or its entry keeps it) and, for a file that is `alone` in its
    treaty, the treaty-level steps done here too: topics, links and audit."""
    t1 = time.perf_counter()
    rep = DocReport(file=entry.file)
    item = None
    links: list[tuple] = []
    checked = None
    try:
        decoded = read_source(corpus_dir, entry.file, limit)
        if prior_sha is not None and prior_sha == decoded.sha256 and entry.declared:
            rep.reused = True
        else:
            # every document processed here goes through `treaty.harmonise_topics`, which decides
            # the topic of every article: segment's own would be overwritten
            doc, removed = process(decoded, _meta_from_entry(entry), topics=False)
            missing = None if keep or entry.keep else structure_missing(doc)
            if missing:
                raise TreatyError(f"{missing}; not ingested (`treaty ingest --force` or "
                                  "`keep = true` in its manifest entry keeps it)")
            if alone:
                box = [(doc, removed)]
                treaty.harmonise_topics(box)
                links = treaty.links_of(box)
                links = treaty.realigned(box, links, treaty.repair_across(box, links))
                doc, removed = box[0]
                checked = audit_documents([(doc, Source.of(decoded.text, removed))], links)
                rep.findings = len(checked.findings)
                ((doc, removed),) = consolidate([(doc, removed)])
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
    unpickle."""
    out = []
    for entry, sha in jobs:
        rep, item, links, checked = _process_entry(corpus_dir, entry, sha, entry.file in alone,
                                                   limit, keep)
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
    this process (before it is processed when sequential, as it completes when parallel)."""
    n = _worker_count(corpus_dir, entries, workers)
    shas = [p.sha256 if (p := prior.get(e.file)) else None for e in entries]
    if n <= 1:
        for entry, sha in zip(entries, shas):
            if progress:
                progress(entry.file)
            yield entry, _process_entry(corpus_dir, entry, sha, entry.file in alone, limit,
                                        keep)
        return
    # Small chunks keep both the load balanced and the results streaming back in order.
    size = max(1, min(8, len(entries) // (n * 8)))
    chunks = [list(zip(entries[i:i + size], shas[i:i + size]))
              for i in range(0, len(entries), size)]
    with worker_setup.pool(n) as pool:  # (the workers exit while this process stores)
        futures = [pool.submit(_process_chunk, corpus_dir, chunk, alone, limit, keep)
                   for chunk in chunks]
        for k, chunk in enumerate(chunks):
            results = futures[k].result()
            futures[k] = None  # a consumed result is not kept alive by the list
            for (entry, _), result in zip(chunk, results):
                if progress:
                    progress(entry.file)
                yield entry, result


def ingest(corpus_dir: str | os.PathLike, data: str | os.PathLike | None = None, *,
           engine: str | None = None, force: bool = False,
           progress: Callable[[str], None] | None = None,
           workers: int | None = None, max_file_mb: float | None = None, allow_empty: bool = False,
           wait: bool = True, notify: Callable[[str], None] | None = None,
           held: bool = False) -> IngestReport:
    """Ingest every document of `corpus_dir` into a new generation of `data` (its store and
    its index, `indexer.datadir`), made live in one atomic switch once both are whole.

    Unchanged files (same content hash, same pipeline version) are not re-processed (with
    `force`, every file is). A file that fails is reported and skipped; every other document
    is still ingested. A text without treaty structure (`document.structure_missing`: a
    licence, a web page's policy) fails so, unless `force` or its entry's `keep`. When every
    document fails, or on any error or interrupt, the live corpus stays as it was.
    `workers` processes documents in that many processes (None: every CPU when there is
    enough text to repay starting them, else one); the result does not depend on it.
    A source file over `max_file_mb` (None: $TREATY_MAX_FILE_MB, else 64) fails, as does one
    that is no regular file or does not resolve inside `corpus_dir`.
    A corpus folder without documents is refused (EmptyCorpusError) unless `allow_empty`.
    One ingest at a time writes into `data`: another waits for it (`notify` is told why) or,
    without `wait`, raises BusyError; `held`: the caller holds the lock already (`treaty add`
    holds it over the add and its ingest).
    """
    t0 = time.perf_counter()
    corpus_dir = Path(corpus_dir)
    ddir = data_dir(data)
    limit = size_limit(max_file_mb)
    entries = manifest.load(corpus_dir)
    if not entries and not allow_empty:
        raise EmptyCorpusError(
            f"{corpus_dir}: no documents to ingest; the corpus in {ddir} is unchanged "
            "(pass --allow-empty to replace it with an empty one)")
    engine = engine or os.environ.get("TREATY_ENGINE") or "whoosh"
    before = _live_or_none(ddir)
    try:
        report = _ingest_locked(corpus_dir, ddir, entries, engine=engine, force=force,
                                progress=progress, workers=workers, limit=limit, wait=wait,
                                notify=notify, held=held)
    except (OSError, sqlite3.OperationalError, ValueError, RuntimeError) as exc:
        env = environment_message(exc, ddir)
        if env is None:
            raise
        raise EnvironmentProblem(f"{env}; {_outcome(ddir, before)}") from None
    report.seconds = time.perf_counter() - t0
    return report


def _live_or_none(ddir: Path) -> Path | None:
    try:
        return datadir.live(ddir)
    except OSError:
        return None


def _outcome(ddir: Path, before: Path | None) -> str:
    """Whether the corpus of `ddir` is as it was (after an ingest that stopped)."""
    after = _live_or_none(ddir)
    if after is not None and before is not None and after != before:
        return f"the new corpus in {ddir} had already been made live"
    return f"the corpus in {ddir} is unchanged"


def _ingest_locked(corpus_dir: Path, ddir: Path, entries: list[manifest.Entry], *,
                   engine: str, force: bool, progress: Callable[[str], None] | None,
                   workers: int | None, limit: int, wait: bool,
                   notify: Callable[[str], None] | None, held: bool) -> IngestReport:
    """`ingest` under the data directory's lock: a new generation, made live when whole."""
    lock = contextlib.nullcontext() if held else datadir.writing(ddir, wait=wait, notify=notify)
    with lock:
        datadir.clean(ddir)  # generations of killed ingests, older ones
        store.remove_orphans(ddir)  # temp stores of killed ingests of the earlier layout
        gen = datadir.new_generation(ddir)
        try:
            report = _ingest_into(corpus_dir, datadir.live(ddir), gen, entries, engine=engine,
                                  force=force, progress=progress, workers=workers, limit=limit)
            if report.store is not None:
                datadir.switch(ddir, gen)
        except BaseException:
            if datadir.live(ddir) != gen:  # (an interrupt after the switch keeps it)
                shutil.rmtree(gen, ignore_errors=True)
            raise
        if report.store is None:
            shutil.rmtree(gen, ignore_errors=True)
        datadir.clean(ddir)
    return report


#: The formats whose text is read again to cite a treaty fact's line (a PDF's or a Word
#: file's would be extracted anew, at a cost the line is not worth).
_RELINED = ("text", "html")


def source_lines(corpus_dir: Path, limit: int, file: str) -> list[str] | None:
    """The lines of the corpus file `file` as the ingest decoded them (what source line
    numbers count), or None for a binary format or a file that cannot be read now."""
    from indexer.errors import TreatyError
    from indexer.sources.read import read_source

    try:
        decoded = read_source(corpus_dir, file, limit)
    except (TreatyError, OSError):
        return None
    return decoded.text.split("\n") if decoded.format in _RELINED else None


def _ingest_into(corpus_dir: Path, current: Path, gen: Path,
                 entries: Sequence[manifest.Entry], *, engine: str, force: bool,
                 progress: Callable[[str], None] | None, workers: int | None,
                 limit: int) -> IngestReport:
    """The store and the index of `entries` written into generation `gen`, unchanged files
    taken from the live store in `current`; `report.store` is None when every document
    failed (nothing written)."""
    live = store.previous(current)  # (what the live corpus has: kept when a file fails)
    prior = {} if force else live
    alone = _alone(entries)
    reports: list[DocReport] = []
    keep: list[str] = []  # unchanged files, copied from the current store
    pending: list[Processed] = []  # documents waiting for the other files of their treaty
    with store.NewStore(gen, previous=current) as new:
        for entry, (rep, item, doc_links, checked) in _run_entries(
                corpus_dir, entries, prior, workers, progress, alone, limit, force):
            reports.append(rep)
            if item is None:
                if rep.reused:
                    keep.append(entry.file)
            elif entry.file in alone:  # its topics, links and audit were made with it
                new.add(*item, doc_links, checked)
            else:
                pending.append(item)
        if reports and all(r.error for r in reports):
            # nothing to store: the previous corpus (if any) stays exactly as it was
            return IngestReport(reports, None, None)
        _keep_live_versions(current, live, reports, pending, keep)
        _reprocess_partners(corpus_dir, current, entries, pending, keep, reports, limit)
        treaty.disambiguate(pending)
        treaty.harmonise_topics(pending)
        _refresh_reports(reports, pending)
        links = treaty.links(current, pending, keep, workers=workers or os.cpu_count() or 1)
        links = treaty.realigned(pending, links, treaty.repair_across(pending, links))
        checked = treaty.audit(corpus_dir, pending, links, limit)
        _count_findings(reports, checked)
        pending = consolidate(pending)  # the treaties as amended (audited as printed)
        for doc, removed in pending:
            new.add(doc, removed)
        new.copy_kept(keep)
        new.add_links(links)
        new.add_audit(checked)
        path = new.commit(functools.partial(source_lines, corpus_dir, limit))
    reused = _articles_from_store(gen, keep)
    reports = [_kept_report(reused[r.file], r) if r.kept_before and not r.error
               else reused.get(r.file, r) if r.reused else r for r in reports]
    from indexer import index as index_stage

    index_path = gen / "index"
    index_stage.build_index(index_stage.index_docs(gen), index_path, engine=engine)
    return IngestReport(reports, path, index_path)


def _keep_live_versions(current: Path, live: dict, reports: list[DocReport],
                        pending: list[Processed], keep: list[str]) -> None:
    """A file that failed stays in the new corpus as the live corpus has it (its version
    ingested before), and so does the rest of its treaty: the fresh documents of that
    treaty give way to their live versions, and one the live corpus lacks is held back (an
    error), so that a treaty is never half old, half new. A failure never removes from the
    corpus what it had."""
    failed = [r for r in reports if r.error and r.file in live]
    if not failed:
        return
    owners = store.file_treaties(current)
    treaties = {owners[r.file] for r in failed if r.file in owners}
    for r in failed:
        r.error = f"{r.error}; the version ingested before is kept"
        r.kept_before = True
        keep.append(r.file)
    by_file = {r.file: r for r in reports}
    for item in [p for p in pending if p[0].meta.treaty in treaties]:
        pending.remove(item)
        doc = item[0]
        rep = by_file[doc.meta.file]
        what = (f"another file of {doc.meta.treaty} failed ({', '.join(r.file for r in failed)})")
        if doc.meta.file in live:
            keep.append(doc.meta.file)
            rep.reused = rep.kept_before = True
            rep.warnings = (f"{what}: this file is kept as ingested before",)
        else:
            rep.error = f"{doc.meta.file}: not ingested: {what}; the treaty stays as it was"


def _kept_report(stored: DocReport, fresh: DocReport) -> DocReport:
    """The report of a file kept as ingested before because another of its treaty failed:
    its counts as stored, with the warning saying why."""
    stored.warnings = fresh.warnings
    stored.kept_before = True
    return stored


def _alone(entries: Sequence[manifest.Entry]) -> frozenset[str]:
    """Files certainly alone in their treaty: every entry declares its treaty id and no other
    entry declares the same one. (An undeclared file's id is only known once processed, so
    with any undeclared file every treaty waits for the cross-file steps.)"""
    if any(not e.declared or not e.treaty for e in entries):
        return frozenset()
    counts = Counter(e.treaty for e in entries)
    return frozenset(e.file for e in entries if counts[e.treaty] == 1)


def _reprocess_partners(corpus_dir: Path, ddir: Path, entries: Sequence[manifest.Entry],
                        fresh: list[Processed], keep: list[str],
                        reports: list[DocReport], limit: int | None = None) -> None:
    """An unchanged file of a treaty that also has a changed file is processed again, so the
    treaty's topics, eIds and links are decided over all its files together."""
    touched = {doc.meta.treaty for doc, _ in fresh}
    if not keep or not touched:
        return
    owners = store.file_treaties(ddir)
    by_file = {e.file: e for e in entries}
    for file in [f for f in keep if owners.get(f) in touched]:
        rep, item, _links, _audit = _process_entry(corpus_dir, by_file[file], None,
                                                   limit=limit, keep=True)
        keep.remove(file)
        if item is not None:
            fresh.append(item)
        reports[:] = [rep if r.file == file else r for r in reports]


def _count_findings(reports: list[DocReport], checked: Audit) -> None:
    """The findings of each document of `checked` in its report."""
    per_file = Counter(f.file for f in checked.findings)
    for r in reports:
        if r.file in per_file:
            r.findings = per_file[r.file]


def _refresh_reports(reports: list[DocReport], fresh: Sequence[Processed]) -> None:
    """Counts and warnings as finally stored (after cross-file decisions)."""
    docs = {doc.meta.file: doc for doc, _ in fresh}
    for r in reports:
        doc = docs.get(r.file)
        if doc is not None:
            r.articles = {v.lang: count_kind(v.units, "article") for v in doc.versions}
            r.warnings = doc.warnings
            r.notes = doc.notes
