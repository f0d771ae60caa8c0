"""Run the stages over a corpus: read -> clean -> languages -> normalise -> segment (with
topics) -> store -> index. `process` is pure (text in, Document out); `ingest` does the I/O."""

from __future__ import annotations

import os
import time
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace
from pathlib import Path

from indexer import clean as clean_stage
from indexer import languages as lang_stage
from indexer import manifest, metadata, store
from indexer import workers as worker_setup
from indexer.errors import SourceError, TreatyError
from indexer.models import Change, Decoded, DocMeta, Document, Line, Unit, Version
from indexer.policy import policy
from indexer.read import read_file

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
    )


def _other_units(lines: Sequence[Line], note: str) -> tuple[Unit, ...]:
    """Text kept as `other`, one unit per run of consecutive blocks."""
    units: list[Unit] = []
    run: list[Line] = []

    def flush() -> None:
        if run:
            units.append(Unit(
                eid=f"other_{len(units) + 1}", kind="other",
                text="\n".join(x.text for x in run), raw="\n".join(x.raw for x in run),
                start=min(x.start for x in run), end=max(x.end for x in run), note=note,
            ))
            run.clear()

    for line in lines:
        if run and line.block - run[-1].block > 1:
            flush()
        run.append(line)
    flush()
    return tuple(units)


class _ChangedLines:
    """The OCR repairs of one version's lines by source line, looked up by line span: the
    starts sorted once, so a unit finds its lines by bisection instead of scanning them all."""

    def __init__(self, changes_by_line: dict[int, tuple[Change, ...]]) -> None:
        self.items = list(changes_by_line.items())  # in the dict's (reading) order
        order = sorted(range(len(self.items)), key=lambda k: self.items[k][0])
        self.starts = [self.items[k][0] for k in order]
        self.order = order

    def within(self, first: int, last: int) -> list[tuple[int, tuple[Change, ...]]]:
        """The (start, changes) items with first <= start <= last, in the dict's order."""
        lo = bisect_left(self.starts, first)
        hi = bisect_right(self.starts, last, lo)
        return [self.items[k] for k in sorted(self.order[lo:hi])]


def _with_changes(unit: Unit, changed: _ChangedLines) -> Unit:
    """Attach the OCR repairs of the unit's source lines where `segment` did not."""
    children = tuple(_with_changes(c, changed) for c in unit.children)
    same = all(a is b for a, b in zip(children, unit.children))
    if unit.changes or not changed.items:
        return unit if same else replace(unit, children=children)
    found: list[Change] = []
    for _start, changes in changed.within(unit.start, unit.end):
        found.extend(ch for ch in changes if ch.before in unit.raw or ch.after in unit.text)
    if not found and same:
        return unit
    return replace(unit, children=children, changes=tuple(found))


def _title_and_closing(versions: Sequence[Version]) -> tuple[str | None, str | None]:
    """The segmented title and closing formula, where a version has them: metadata is read
    from these before any other line (a bill may quote other treaties' dates first)."""
    title = formula = None
    for v in versions:
        for u in v.units:
            if u.kind == "title" and title is None:
                title = u.text
            elif u.kind == "closing" and formula is None:
                formula = u.text
    return title, formula


def _count(units: Sequence[Unit], kind: str) -> int:
    return sum(1 for u in units if u.kind == kind)


def process(decoded: Decoded, meta: DocMeta, *, topics: bool = True
            ) -> tuple[Document, list[tuple]]:
    """Turn one decoded source text into a Document (and its removed furniture rows).
    `topics=False`: articles get no topic of their own (the ingest gives each article the
    topic `_harmonise_topics` decides over all versions of the treaty)."""
    from indexer.normalise import normalise_line
    from indexer.segment import segment

    cleaned = clean_stage.clean(decoded.text)
    warnings: list[str] = []
    streams = lang_stage.split(cleaned.lines, list(meta.languages) or None)
    if not meta.languages:
        meta = replace(meta, languages=tuple(k for k in streams if policy(k)),
                       guessed=(*meta.guessed, "languages"))
    versions: list[Version] = []
    for lang, lines in streams.items():
        if policy(lang) is None or lang not in meta.languages:
            units = _other_units(lines, f"text in {lang}, not a version of this treaty")
            if lang != "und":
                warnings.append(f"{sum(len(x.raw) for x in lines)} characters of text in "
                                f"'{lang}' kept as other")
            versions.append(Version(lang=lang, units=units))
            continue
        normalised = [normalise_line(x) for x in lines]
        units = segment(normalised, lang, article=meta.article, topics=topics)
        changed = _ChangedLines({x.start: x.changes for x in normalised if x.changes})
        units = tuple(_with_changes(u, changed) for u in units)
        inferred = sum(1 for u in units if u.kind == "article" and u.number_inferred)
        if _count(units, "article") == 0:
            warnings.append(f"{lang}: no articles found")
        elif inferred:
            warnings.append(f"{lang}: {inferred} of {_count(units, 'article')} article numbers "
                            "inferred (heading missing or unreadable)")
        versions.append(Version(lang=lang, units=units))
    if not (meta.treaty and meta.parties and meta.signed):
        meta = metadata.guess(meta, [x.text for x in cleaned.lines], *_title_and_closing(versions))
    for name in meta.guessed:
        value = getattr(meta, name)
        shown = ",".join(value) if isinstance(value, tuple) else value
        warnings.append(f"{name} guessed: {shown or 'unknown'}")
    doc = Document(
        meta=meta, sha256=decoded.sha256, encoding=decoded.encoding,
        versions=tuple(versions), warnings=tuple(warnings),
        source_lines=decoded.text.count("\n") + 1,
    )
    removed = [(x.start, x.end, x.raw, "page furniture") for x in cleaned.furniture]
    return doc, removed


@dataclass
class DocReport:
    file: str
    treaty: str = ""
    languages: tuple[str, ...] = ()
    articles: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    error: str | None = None
    reused: bool = False
    seconds: float = 0.0


@dataclass
class IngestReport:
    documents: list[DocReport]
    store: Path | None
    index: Path | None = None
    seconds: float = 0.0

    @property
    def failed(self) -> list[DocReport]:
        return [d for d in self.documents if d.error]


def _articles_from_store(db_dir: Path, files: Sequence[str]) -> dict[str, DocReport]:
    out: dict[str, DocReport] = {}
    if not files:
        return out
    import json

    with closing(store.connect(db_dir)) as db:
        for f in files:
            row = db.execute("SELECT treaty, languages, warnings FROM documents WHERE file=?",
                             (f,)).fetchone()
            counts = dict(db.execute(
                "SELECT lang, COUNT(*) FROM units WHERE file=? AND kind='article' GROUP BY lang",
                (f,)).fetchall())
            langs = tuple(json.loads(row["languages"]))
            out[f] = DocReport(file=f, treaty=row["treaty"], languages=langs,
                               articles={k: counts.get(k, 0) for k in langs},
                               warnings=tuple(json.loads(row["warnings"])), reused=True)
    return out


#: Below this much source text (bytes) `workers=None` stays in one process: starting workers
#: and loading their lexicons costs more than it saves.
PARALLEL_MIN_BYTES = 2_000_000


def _process_entry(corpus_dir: Path, entry: manifest.Entry, prior_sha: str | None,
                   alone: bool = False
                   ) -> tuple[DocReport, tuple[Document, list[tuple]] | None, list[tuple]]:
    """Read and process one manifest entry (pure apart from reading the file; runs in worker
    processes too). Returns its report, the processed document (None when the file is
    unchanged, ``report.reused``, or failed, ``report.error``) and, for a file that is
    `alone` in its treaty, the treaty-level steps done here too: topics and links."""
    t1 = time.perf_counter()
    rep = DocReport(file=entry.file)
    item = None
    links: list[tuple] = []
    try:
        decoded = read_file(corpus_dir / entry.file)
        if prior_sha is not None and prior_sha == decoded.sha256 and entry.declared:
            rep.reused = True
        else:
            # every document processed here goes through `_harmonise_topics`, which decides
            # the topic of every article: segment's own would be overwritten
            doc, removed = process(decoded, _meta_from_entry(entry), topics=False)
            if alone:
                box = [(doc, removed)]
                _harmonise_topics(box)
                doc, removed = box[0]
                links = _links_of(box)
            item = (doc, removed)
            rep.treaty = doc.meta.treaty
            rep.languages = tuple(v.lang for v in doc.versions)
            rep.articles = {v.lang: _count(v.units, "article") for v in doc.versions}
            rep.warnings = doc.warnings
    except SourceError as exc:
        rep.error = str(exc)
    except TreatyError as exc:
        rep.error = f"{entry.file}: {exc}"
    except Exception as exc:  # noqa: BLE001 - one bad document must not stop the others
        rep.error = (f"{entry.file}: internal error ({type(exc).__name__}: {exc}); "
                     "the file was skipped, please report it")
    rep.seconds = time.perf_counter() - t1
    return rep, item, links


def _process_chunk(corpus_dir: Path, jobs: list[tuple[manifest.Entry, str | None]],
                   alone: frozenset[str] = frozenset()) -> list[tuple]:
    """`_process_entry` of each job, in a worker process. A document alone in its treaty is
    final here, so it goes back as its store rows (`store.rows_of`), with None for its
    removed rows: plain tuples cost a fraction of the document's objects to pickle and
    unpickle."""
    out = []
    for entry, sha in jobs:
        rep, item, links = _process_entry(corpus_dir, entry, sha, entry.file in alone)
        if item is not None and entry.file in alone:
            item = (store.rows_of(*item), None)
        out.append((rep, item, links))
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
                 alone: frozenset[str] = frozenset()) -> Iterator[tuple[manifest.Entry, tuple]]:
    """Each entry with its result, in manifest order; `progress` is called per document in
    this process (before it is processed when sequential, as it completes when parallel)."""
    n = _worker_count(corpus_dir, entries, workers)
    shas = [p.sha256 if (p := prior.get(e.file)) else None for e in entries]
    if n <= 1:
        for entry, sha in zip(entries, shas):
            if progress:
                progress(entry.file)
            yield entry, _process_entry(corpus_dir, entry, sha, entry.file in alone)
        return
    # Small chunks keep both the load balanced and the results streaming back in order.
    size = max(1, min(8, len(entries) // (n * 8)))
    chunks = [list(zip(entries[i:i + size], shas[i:i + size]))
              for i in range(0, len(entries), size)]
    with worker_setup.pool(n) as pool:  # (the workers exit while this process stores)
        futures = [pool.submit(_process_chunk, corpus_dir, chunk, alone) for chunk in chunks]
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
           workers: int | None = None) -> IngestReport:
    """Ingest every document of `corpus_dir` into the store under `data`, then build the index.

    Unchanged files (same content hash, same pipeline version) are not re-processed. A file
    that fails is reported and skipped; every other document is still ingested.
    `workers` processes documents in that many processes (None: every CPU when there is
    enough text to repay starting them, else one); the result does not depend on it.
    """
    t0 = time.perf_counter()
    corpus_dir = Path(corpus_dir)
    ddir = data_dir(data)
    entries = manifest.load(corpus_dir)
    prior = {} if force else store.previous(ddir)
    alone = _alone(entries)
    reports: list[DocReport] = []
    keep: list[str] = []
    links: list[tuple] = []

    def documents() -> Iterator[tuple[Document, list[tuple], list[tuple]]]:
        """Documents for the store as they come, with their removed rows and links: a file
        alone in its treaty goes straight in (its topics and links were made with it); the
        others wait for their partners (their links go in at the end, through `links`)."""
        pending: list[tuple[Document, list[tuple]]] = []
        for entry, (rep, item, doc_links) in _run_entries(corpus_dir, entries, prior, workers,
                                                          progress, alone):
            reports.append(rep)
            if item is None:
                if rep.reused:
                    keep.append(entry.file)
            elif entry.file in alone:
                yield (*item, doc_links)
            else:
                pending.append(item)
        if reports and all(r.error for r in reports):
            raise _NothingToStore
        _reprocess_partners(corpus_dir, ddir, entries, pending, keep, reports)
        _disambiguate(pending)
        _harmonise_topics(pending)
        _refresh_reports(reports, pending)
        links.extend(_links(ddir, pending, keep, workers=workers or os.cpu_count() or 1))
        for doc, removed in pending:
            yield doc, removed, []

    try:
        path = store.write(ddir, documents(), keep=keep, links=links)
    except _NothingToStore:
        # nothing to store: the previous corpus (if any) stays exactly as it was
        return IngestReport(reports, None, None, time.perf_counter() - t0)
    reused = _articles_from_store(ddir, keep)
    reports = [reused.get(r.file, r) if r.reused else r for r in reports]
    index_path = None
    try:
        from indexer import index as index_stage
    except ImportError:  # the index stage is optional until it exists
        index_stage = None
    if index_stage is not None:
        from indexer.index import index_docs

        index_path = ddir / "index"
        index_stage.build_index(index_docs(ddir), index_path,
                                engine=engine or os.environ.get("TREATY_ENGINE") or "whoosh")
    return IngestReport(reports, path, index_path, time.perf_counter() - t0)


class _NothingToStore(Exception):
    """Every document failed: the store is not replaced."""


def _alone(entries: Sequence[manifest.Entry]) -> frozenset[str]:
    """Files certainly alone in their treaty: every entry declares its treaty id and no other
    entry declares the same one. (An undeclared file's id is only known once processed, so
    with any undeclared file every treaty waits for the cross-file steps.)"""
    if any(not e.declared or not e.treaty for e in entries):
        return frozenset()
    counts = Counter(e.treaty for e in entries)
    return frozenset(e.file for e in entries if counts[e.treaty] == 1)


def _links_of(docs: Sequence[tuple[Document, list[tuple]]]) -> list[tuple]:
    """Alignment links of the treaties of `docs` (no kept files involved)."""
    from indexer.align import align_corpus

    return align_corpus([(doc.meta.treaty, v) for doc, _ in docs for v in doc.versions
                         if v.lang in doc.meta.languages])


def _links(ddir: Path, fresh: Sequence[tuple[Document, list[tuple]]],
           keep: Sequence[str], workers: int = 1) -> list[tuple]:
    """Alignment links of every treaty, from the fresh documents and the kept files' units
    (read from the current store before it is replaced)."""
    from indexer.align import align_corpus, versions_from_rows

    items: list[tuple[str, Version]] = []
    for doc, _ in fresh:
        items.extend((doc.meta.treaty, v) for v in doc.versions if v.lang in doc.meta.languages)
    if keep:
        with closing(store.connect(ddir)) as db:
            marks = ",".join("?" * len(keep))
            rows = db.execute(f"SELECT * FROM units WHERE file IN ({marks})", list(keep))
            kept = versions_from_rows([dict(r) for r in rows])
        items.extend((treaty, v) for (treaty, _), v in kept.items())
    return align_corpus(items, workers=workers)


def _harmonise_topics(docs: list[tuple[Document, list[tuple]]]) -> None:
    """Topics per treaty: the language versions of an article share one topic, from the
    evidence of all of them, and no two articles of a treaty get the same model topic."""
    from indexer.topics import assign, pooled_scores

    evidence: dict[str, dict[int, list[tuple[str | None, str, str]]]] = {}
    for doc, _removed in docs:
        for v in doc.versions:
            if policy(v.lang) is None:
                continue
            for u in v.units:
                if u.kind == "article" and u.number is not None:
                    evidence.setdefault(doc.meta.treaty, {}).setdefault(u.number, []).append(
                        (u.title, u.text, v.lang))
    chosen: dict[tuple[str, int], str | None] = {}
    for treaty, articles in evidence.items():
        picks = assign({n: pooled_scores(ev) for n, ev in articles.items()})
        chosen.update({(treaty, n): key for n, key in picks.items()})

    def retopic(v: Version, treaty: str) -> Version:
        """`v` with its articles' chosen topics (`v` itself when none changes)."""
        units = list(v.units)
        for k, u in enumerate(units):
            if u.kind == "article" and (treaty, u.number) in chosen:
                topic = chosen[(treaty, u.number)]
                if topic != u.topic:
                    units[k] = replace(u, topic=topic)
        if all(new is old for new, old in zip(units, v.units)):
            return v
        return replace(v, units=tuple(units))

    for i, (doc, removed) in enumerate(docs):
        versions = tuple(retopic(v, doc.meta.treaty) for v in doc.versions)
        if any(new is not old for new, old in zip(versions, doc.versions)):
            docs[i] = (replace(doc, versions=versions), removed)


def _reprocess_partners(corpus_dir: Path, ddir: Path, entries: Sequence[manifest.Entry],
                        fresh: list[tuple[Document, list[tuple]]], keep: list[str],
                        reports: list[DocReport]) -> None:
    """An unchanged file of a treaty that also has a changed file is processed again, so the
    treaty's topics, eIds and links are decided over all its files together."""
    touched = {doc.meta.treaty for doc, _ in fresh}
    if not keep or not touched:
        return
    owners = store.file_treaties(ddir)
    by_file = {e.file: e for e in entries}
    for file in [f for f in keep if owners.get(f) in touched]:
        rep, item, _links_unused = _process_entry(corpus_dir, by_file[file], None)
        keep.remove(file)
        if item is not None:
            fresh.append(item)
        reports[:] = [rep if r.file == file else r for r in reports]


def _refresh_reports(reports: list[DocReport], fresh: Sequence[tuple[Document, list]]) -> None:
    """Counts and warnings as finally stored (after cross-file decisions)."""
    docs = {doc.meta.file: doc for doc, _ in fresh}
    for r in reports:
        doc = docs.get(r.file)
        if doc is not None:
            r.articles = {v.lang: _count(v.units, "article") for v in doc.versions}
            r.warnings = doc.warnings


def _as_other(unit: Unit, eid: str, note: str) -> Unit:
    return Unit(eid=eid, kind="other", text=unit.text, raw=unit.raw, start=unit.start,
                end=unit.end, note=note, changes=unit.changes)


def _disambiguate(docs: list[tuple[Document, list[tuple]]]) -> None:
    """Files of one treaty must not share eIds within a language. For each language the file
    with the most articles in it is the version; in any other file a unit with an eId the
    version already has (a second copy of the text, a slice that repeats a heading) is kept
    as `other` with a warning, never merged or lost; `other` units are numbered on."""
    primary: dict[tuple[str, str], tuple[int, int]] = {}
    for i, (doc, _removed) in enumerate(docs):
        for v in doc.versions:
            key, n = (doc.meta.treaty, v.lang), _count(v.units, "article")
            if key not in primary or n > primary[key][1]:
                primary[key] = (i, n)
    seen: dict[tuple[str, str], set[str]] = {}
    for key, (i, _n) in primary.items():
        version = next(v for v in docs[i][0].versions if v.lang == key[1])
        seen[key] = {u.eid for u in version.units}
    for i, (doc, removed) in enumerate(docs):
        versions = []
        warnings = list(doc.warnings)
        for v in doc.versions:
            key = (doc.meta.treaty, v.lang)
            if primary[key][0] == i:
                versions.append(v)
                continue
            eids = seen[key]
            others = sum(1 for e in eids if e.startswith("other_"))
            units = []
            dup = 0
            for u in v.units:
                if u.kind == "other" or u.eid in eids:
                    others += 1
                    if u.kind == "other":
                        u = replace(u, eid=f"other_{others}")
                    else:
                        dup += 1
                        u = _as_other(u, f"other_{others}", f"another copy of {u.eid}: "
                                      f"{doc.meta.treaty}/{v.lang} already has it")
                eids.add(u.eid)
                units.append(u)
            if dup:
                warnings.append(f"{v.lang}: {dup} units repeat ones another file of "
                                f"{doc.meta.treaty} already has; kept as other")
            versions.append(replace(v, units=tuple(units)))
        docs[i] = (replace(doc, versions=tuple(versions), warnings=tuple(warnings)), removed)
