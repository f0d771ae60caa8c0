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
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from indexer import datadir, store
from indexer.audit import Audit
from indexer.errors import (
    EmptyCorpusError,
    EnvironmentProblem,
    environment_message,
)
from indexer.instruments.consolidate import consolidate
from indexer.pipeline import treaty
from indexer.pipeline.document import count_kind
from indexer.pipeline.entries import DocReport, Guess, _process_entry, _run_entries
from indexer.pipeline.treaty import Processed
from indexer.sources import manifest
from indexer.sources.files import size_limit

DEFAULT_DATA = "data"


def data_dir(explicit: str | os.PathLike | None = None) -> Path:
    """The data directory: --data, else $TREATY_DATA, else ./data."""
    return Path(explicit or os.environ.get("TREATY_DATA") or DEFAULT_DATA)


@dataclass
class IngestReport:
    documents: list[DocReport]
    store: Path | None
    index: Path | None = None
    seconds: float = 0.0
    #: Nothing changed since the live corpus was ingested: no new generation was made, and
    #: `store` and `index` are the live ones.
    unchanged: bool = False

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
        findings = dict(db.execute("SELECT file, COUNT(*) FROM findings GROUP BY file"))
        for f in files:
            row = db.execute("SELECT treaty, languages, warnings, meta FROM documents "
                             "WHERE file=?", (f,)).fetchone()
            counts = dict(db.execute("SELECT lang, articles FROM doc_articles WHERE file=?",
                                     (f,)).fetchall())
            langs = tuple(json.loads(row["languages"]))
            out[f] = DocReport(file=f, treaty=row["treaty"], languages=langs,
                               articles={k: counts.get(k, 0) for k in langs},
                               warnings=tuple(json.loads(row["warnings"])),
                               findings=findings.get(f, 0),
                               notes=tuple(json.loads(row["meta"] or "{}").get("notes") or ()),
                               reused=True)
    return out


#: The index of an ingest is the live one extended when at least this share of the
#: treaties is kept (their files unchanged), else built whole.
EXTEND_SHARE = 0.5


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
            if report.store is not None and not report.unchanged:
                datadir.switch(ddir, gen)
        except BaseException:
            if datadir.live(ddir) != gen:  # (an interrupt after the switch keeps it)
                shutil.rmtree(gen, ignore_errors=True)
            raise
        if report.store is None or report.unchanged:
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
    added = 0  # documents alone in their treaty, written as they came
    guesses: dict[str, Guess] = {}  # pending documents' steps if alone (made in workers)
    extend = bool(prior) and store.extendable(current)  # (the live store, less and more)
    with store.NewStore(gen, previous=current, extend=extend) as new:
        for entry, (rep, item, doc_links, checked) in _run_entries(
                corpus_dir, entries, prior, workers, progress, alone, limit, force):
            reports.append(rep)
            if item is None:
                if rep.reused:
                    keep.append(entry.file)
            elif entry.file in alone:  # its topics, links and audit were made with it
                new.add(*item, doc_links, checked)
                added += 1
            else:
                pending.append(item)
                if isinstance(checked, Guess):
                    guesses[entry.file] = checked
        if reports and all(r.error for r in reports):
            # nothing to store: the previous corpus (if any) stays exactly as it was
            return IngestReport(reports, None, None)
        if (not (added or pending) and not _earlier_layout(gen.parent)
                and _all_live(current, keep, live, reports, engine)):
            stored = _articles_from_store(current, keep)
            return IngestReport([stored[r.file] for r in reports], store.store_path(current),
                                current / "index", unchanged=True)
        _keep_live_versions(current, live, reports, pending, keep)
        _reprocess_partners(corpus_dir, current, entries, pending, keep, reports, limit)
        for guess in _settled(pending, guesses, reports):
            new.add(guess.rows, None, guess.links, guess.audit)
        treaty.disambiguate(pending)
        treaty.harmonise_topics(pending)
        _refresh_reports(reports, pending)
        links = treaty.links(pending, workers=workers or os.cpu_count() or 1)
        links = treaty.realigned(pending, links, treaty.repair_across(pending, links))
        checked = treaty.audit(corpus_dir, pending, links, limit)
        _count_findings(reports, checked)
        pending = consolidate(pending)  # the treaties as amended (audited as printed)
        for doc, removed in pending:
            new.add(doc, removed)
        kept = _kept_treaties(current, keep, new.fresh)
        new.copy_kept(keep, kept)
        new.add_links(links)
        new.add_audit(checked)
        path = new.commit(functools.partial(source_lines, corpus_dir, limit))
    reused = _articles_from_store(gen, keep)
    reports = [_kept_report(reused[r.file], r) if r.kept_before and not r.error
               else reused.get(r.file, r) if r.reused else r for r in reports]
    _index(current, gen, engine, kept)
    return IngestReport(reports, path, gen / "index")


def _index(current: Path, gen: Path, engine: str, kept: set[str]) -> None:
    """The index of the new store in `gen`: the live one extended (`indexer.index.update`)
    when most treaties are kept, with the others taken out and put in again; else built
    whole."""
    from indexer import index as index_stage
    from indexer.index.update import can_extend, extend

    with closing(store.connect(gen)) as db:
        treaties = {t for (t,) in db.execute("SELECT id FROM treaties")}
    if len(kept) < EXTEND_SHARE * len(treaties) or not can_extend(current / "index", engine):
        index_stage.build_index(index_stage.index_docs(gen), gen / "index", engine=engine)
        return
    out = set(store.file_treaties(current).values()) - kept
    extend(current / "index", gen / "index", engine, out, index_stage.index_docs(current, out),
           index_stage.index_docs(gen, treaties - kept))


def _earlier_layout(ddir: Path) -> bool:
    """Whether `ddir` holds files of the earlier layout (which an ingest replaces)."""
    return any((ddir / name).exists() for name in datadir.LEGACY)


def _all_live(current: Path, keep: Sequence[str], live: dict, reports: Sequence[DocReport],
              engine: str) -> bool:
    """Whether the live corpus in `current` is already what this ingest would make: every
    file of the manifest unchanged (`keep`), none failed, none gone from it, a store with
    every table of this version and a whole live index of `engine`."""
    from indexer.index.generations import live_engine

    return (not any(r.error for r in reports) and set(keep) == set(live)
            and len(keep) == len(reports) and live_engine(current / "index") == engine
            and store.has_schema(current))


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


def _kept_treaties(current: Path, keep: Sequence[str], fresh: set[str]) -> set[str]:
    """The treaties of the kept files that no fresh document belongs to: their links and
    rates are copied with them (a treaty with a fresh file had its kept files processed
    again, `_reprocess_partners`)."""
    owners = store.file_treaties(current) if keep else {}
    return {owners[f] for f in keep if f in owners} - fresh


def _settled(pending: list[Processed], guesses: dict[str, Guess],
             reports: list[DocReport]) -> list[Guess]:
    """The guesses of the pending documents that are alone in their treaty after all (no
    other file of it was processed, reprocessed or kept), taken out of `pending`, their
    reports as the steps left them; in `pending`'s order."""
    files = Counter(doc.meta.treaty for doc, _ in pending)
    by_file = {r.file: r for r in reports}
    out = []
    for item in [p for p in pending if files[p[0].meta.treaty] == 1]:
        guess = guesses.get(item[0].meta.file)
        if guess is None:
            continue
        pending.remove(item)
        rep = by_file[item[0].meta.file]
        rep.articles, rep.warnings, rep.notes = guess.articles, guess.warnings, guess.notes
        rep.findings = len(guess.audit.findings)
        out.append(guess)
    return out


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
