"""SQLite store: the system of record.

Writes go to a new file beside the old one that replaces it (os.replace) only when complete,
so a failed or interrupted ingest never leaves a broken corpus. Documents whose content hash
is unchanged are kept from the previous store instead of being re-processed: the new file
starts as a copy of the previous one, less what changed (`NewStore`'s `extend`), when that
one is of this pipeline version; else their rows are copied into a new file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Self

from indexer import datadir
from indexer.errors import StoreError
from indexer.models import Change, Document, Unit

if TYPE_CHECKING:  # (the store is read by `treaty search`, which needs no audit code)
    from indexer.audit import Audit

# sqlite3 binds int, float and str directly, but sends every other value, None included,
# through its adaptation protocol: a (type, protocol) key looked up in its adapter registry,
# then `__adapt__` and `__conform__` looked for. A unit row holds about eight NULLs, so that
# search was a third of the cost of inserting the units. With an adapter registered for None
# it is one registry hit, and the adapter (a C function returning None) still binds NULL.
sqlite3.register_adapter(type(None), {}.get)

STORE_NAME = "corpus.sqlite"
#: Bump when the pipeline's output changes, so unchanged files are re-processed once.
PIPELINE_VERSION = "6"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE documents (
    file TEXT PRIMARY KEY, treaty TEXT NOT NULL, sha256 TEXT NOT NULL, encoding TEXT,
    source_lines INTEGER, languages TEXT, warnings TEXT, meta TEXT
);
CREATE TABLE treaties (
    id TEXT PRIMARY KEY, parties TEXT, signed TEXT, place TEXT, title TEXT,
    languages TEXT, files TEXT
);
CREATE TABLE units (
    id TEXT PRIMARY KEY, treaty TEXT NOT NULL, lang TEXT NOT NULL, eid TEXT NOT NULL,
    parent TEXT, top TEXT NOT NULL, seq INTEGER NOT NULL, depth INTEGER NOT NULL,
    kind TEXT NOT NULL, number INTEGER, label TEXT, num TEXT, title TEXT, topic TEXT,
    number_inferred INTEGER NOT NULL DEFAULT 0, refers_to INTEGER, chapter TEXT, note TEXT,
    text TEXT NOT NULL, raw TEXT NOT NULL, file TEXT NOT NULL,
    start_line INTEGER, end_line INTEGER, changes TEXT
);
CREATE TABLE removed (
    file TEXT NOT NULL, start_line INTEGER, end_line INTEGER, raw TEXT, reason TEXT
);
CREATE TABLE links (
    treaty TEXT NOT NULL, eid TEXT NOT NULL, lang_a TEXT NOT NULL, lang_b TEXT NOT NULL,
    eid_b TEXT NOT NULL, level TEXT NOT NULL, score REAL NOT NULL, method TEXT NOT NULL
);
CREATE TABLE audited (file TEXT NOT NULL, treaty TEXT NOT NULL, lang TEXT NOT NULL);
CREATE TABLE doc_articles (
    file TEXT NOT NULL, treaty TEXT NOT NULL, lang TEXT NOT NULL, articles INTEGER NOT NULL
);
CREATE TABLE doc_topics (file TEXT NOT NULL, treaty TEXT NOT NULL, topic TEXT NOT NULL);
CREATE TABLE findings (
    file TEXT NOT NULL, treaty TEXT NOT NULL, lang TEXT NOT NULL, eid TEXT, kind TEXT NOT NULL,
    message TEXT NOT NULL, start_line INTEGER, end_line INTEGER
);
""" + """
-- issue 29: a treaty is a stack of instruments (indexer.instruments). The units table holds
-- each treaty as amended; these hold its instruments, what each amending clause did, the
-- units as they read before an amendment changed them, and which units an amendment made.
CREATE TABLE instruments (
    treaty TEXT NOT NULL, lang TEXT NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL, title TEXT,
    signed TEXT, place TEXT, in_force TEXT, effective TEXT, base INTEGER NOT NULL,
    file TEXT NOT NULL, start_line INTEGER, end_line INTEGER, eids TEXT, signed_line TEXT,
    seq INTEGER NOT NULL
);
CREATE TABLE amendments (
    treaty TEXT NOT NULL, lang TEXT NOT NULL, instrument TEXT NOT NULL, seq INTEGER NOT NULL,
    action TEXT NOT NULL, target TEXT, after TEXT, status TEXT NOT NULL, clause TEXT,
    old_words TEXT, new_words TEXT, date TEXT, file TEXT NOT NULL, new_text TEXT
);
CREATE TABLE unit_history (
    id TEXT NOT NULL, treaty TEXT NOT NULL, lang TEXT NOT NULL, eid TEXT NOT NULL,
    parent TEXT, top TEXT NOT NULL, seq INTEGER NOT NULL, depth INTEGER NOT NULL,
    kind TEXT NOT NULL, number INTEGER, label TEXT, num TEXT, title TEXT, topic TEXT,
    number_inferred INTEGER NOT NULL DEFAULT 0, refers_to INTEGER, chapter TEXT, note TEXT,
    text TEXT NOT NULL, raw TEXT NOT NULL, file TEXT NOT NULL,
    start_line INTEGER, end_line INTEGER, changes TEXT,
    valid_from TEXT, valid_to TEXT, instrument TEXT
);
CREATE TABLE unit_sources (
    treaty TEXT NOT NULL, lang TEXT NOT NULL, eid TEXT NOT NULL, instrument TEXT NOT NULL,
    valid_from TEXT, action TEXT NOT NULL, level TEXT, file TEXT NOT NULL
);
"""
#: The secondary indexes, built once the tables are filled (one sort each instead of a
#: B-tree insert per row, which at 100 MB of text no longer fits SQLite's page cache).
INDEXES = """
CREATE INDEX IF NOT EXISTS units_treaty ON units(treaty, lang, seq);
CREATE INDEX IF NOT EXISTS units_top ON units(treaty, lang, top);
CREATE INDEX IF NOT EXISTS units_eid ON units(treaty, eid, lang);
CREATE INDEX IF NOT EXISTS units_topic ON units(topic, kind);
CREATE INDEX IF NOT EXISTS links_treaty ON links(treaty, eid);
CREATE INDEX IF NOT EXISTS findings_treaty ON findings(treaty, lang);
CREATE INDEX IF NOT EXISTS doc_articles_file ON doc_articles(file);
CREATE INDEX IF NOT EXISTS doc_articles_treaty ON doc_articles(treaty, lang);
CREATE INDEX IF NOT EXISTS doc_topics_topic ON doc_topics(topic, treaty);
CREATE INDEX IF NOT EXISTS history_top ON unit_history(treaty, lang, top);
CREATE INDEX IF NOT EXISTS sources_treaty ON unit_sources(treaty, lang, eid);
CREATE INDEX IF NOT EXISTS amendments_treaty ON amendments(treaty, lang, target);
CREATE INDEX IF NOT EXISTS removed_file ON removed(file);
CREATE INDEX IF NOT EXISTS documents_treaty ON documents(treaty);
CREATE INDEX IF NOT EXISTS instruments_treaty ON instruments(treaty, base, seq);
"""
#: The tables `indexer.instruments` fills, with the number of columns of each.
INSTRUMENT_TABLES = {"instruments": 16, "amendments": 14, "unit_history": 27, "unit_sources": 8}


def store_path(data_dir: Path) -> Path:
    """The live store of `data_dir` (in its live generation: `indexer.datadir`)."""
    return datadir.live(data_dir) / STORE_NAME


#: `json.dumps(x, ensure_ascii=False)` without making an encoder per call
_json_text = json.JSONEncoder(ensure_ascii=False).encode


def _change_dict(change: Change) -> dict[str, str]:
    return {"step": change.step, "before": change.before, "after": change.after,
            "why": change.why}


def flatten(unit: Unit, treaty: str, lang: str, file: str) -> list[tuple]:
    """The units rows of the top-level `unit` and its descendants (seq from 1)."""
    return list(_flatten(unit, treaty, lang, file, unit.eid, None, 0, [0]))


def _flatten(unit: Unit, treaty: str, lang: str, file: str, top: str, parent: str | None,
             depth: int, counter: list[int]) -> Iterator[tuple]:
    counter[0] += 1
    yield (
        f"{treaty}/{lang}/{unit.eid}", treaty, lang, unit.eid, parent, top, counter[0], depth,
        unit.kind, unit.number, unit.label, unit.num, unit.title, unit.topic,
        int(unit.number_inferred), unit.refers_to, unit.chapter, unit.note, unit.text, unit.raw,
        file, unit.start, unit.end,
        _json_text([_change_dict(c) for c in unit.changes]) if unit.changes else None,
    )
    for child in unit.children:
        yield from _flatten(child, treaty, lang, file, top, unit.eid, depth + 1, counter)


class StoreRows(NamedTuple):
    """A document as the rows `write` inserts for it (`rows_of`): plain tuples, which a worker
    process that made the document hands over far more cheaply than the document itself."""

    document: tuple  # the row of the documents table
    units: list[tuple]  # the rows of the units table, in order
    removed: list[tuple]  # the rows of the removed table
    extra: dict | None = None  # table -> rows of its instruments (INSTRUMENT_TABLES)


def rows_of(doc: Document, removed: Iterable[tuple]) -> StoreRows:
    """The rows of `doc` and its removed furniture (`removed`: (start, end, raw, reason))."""
    m = doc.meta
    document = (
        m.file, m.treaty, doc.sha256, doc.encoding, doc.source_lines,
        json.dumps([v.lang for v in doc.versions]), json.dumps(list(doc.warnings)),
        json.dumps({"parties": m.parties, "signed": m.signed, "place": m.place,
                    "title": m.title, "article": m.article, "guessed": m.guessed,
                    "format": doc.format, "pages": doc.pages, "notes": doc.notes,
                    "instrument": m.instrument, "facts": [list(f) for f in m.facts]},
                   ensure_ascii=False),
    )
    counter = [0]
    units: list[tuple] = []
    for version in doc.versions:
        for unit in version.units:
            units.extend(_flatten(unit, m.treaty, version.lang, m.file, unit.eid, None, 0,
                                  counter))
    from indexer.instruments.rows import instrument_rows

    return StoreRows(document, units, [(m.file, *r) for r in removed], instrument_rows(doc))


def _insert_rows(db: sqlite3.Connection, rows: StoreRows) -> None:
    db.execute("INSERT INTO documents VALUES (?,?,?,?,?,?,?,?)", rows.document)
    db.executemany(f"INSERT INTO units VALUES ({','.join('?' * 24)})", rows.units)
    db.executemany("INSERT INTO removed VALUES (?,?,?,?,?)", rows.removed)
    articles, topics = _summary_rows(rows)
    db.executemany("INSERT INTO doc_articles VALUES (?,?,?,?)", articles)
    db.executemany("INSERT INTO doc_topics VALUES (?,?,?)", topics)
    for table, found in (rows.extra or {}).items():
        width = INSTRUMENT_TABLES[table]
        db.executemany(f"INSERT INTO {table} VALUES ({','.join('?' * width)})", found)


def _insert_links(db: sqlite3.Connection, links: Iterable[tuple]) -> None:
    db.executemany("INSERT INTO links VALUES (?,?,?,?,?,?,?,?)", links)


def _insert_audit(db: sqlite3.Connection, audit: Audit) -> None:
    """The versions an audit read (file, treaty, lang) and its findings."""
    db.executemany("INSERT INTO audited VALUES (?,?,?)",
                   [(file, treaty, lang) for treaty, lang, file in audit.versions])
    db.executemany("INSERT INTO findings VALUES (?,?,?,?,?,?,?,?)",
                   [(f.file, f.treaty, f.lang, f.eid, f.kind, f.message, f.start, f.end)
                    for f in audit.findings])


#: The summaries of each document, written with it: the home and topic pages and the
#: ingest's report read them instead of counting every article of the store.
SUMMARIES = ("doc_articles", "doc_topics")
#: The tables whose rows are a file's (kept or replaced file by file, `NewStore.copy_kept`),
#: and those whose rows are a treaty's (links; rates and facts, derived at `NewStore.commit`).
FILE_TABLES = ("documents", "units", "removed", "audited", "findings", *SUMMARIES,
               *INSTRUMENT_TABLES)
TREATY_TABLES = ("links", "rates", "facts")


#: The summaries of the documents of a store written before them, from its units (`{}`).
_SUMMARY_OF = {
    "doc_articles": "(SELECT file, treaty, lang, COUNT(*) FROM {} WHERE kind = 'article'"
                    " GROUP BY file, lang)",
    "doc_topics": "(SELECT DISTINCT file, treaty, topic FROM {} WHERE kind = 'article'"
                  " AND topic IS NOT NULL)",
}


def _summary_rows(rows: StoreRows) -> tuple[list[tuple], list[tuple]]:
    """The rows of `SUMMARIES` of a document's rows: its articles per language, and the
    topics of its articles."""
    file, treaty = rows.document[0], rows.document[1]
    langs = json.loads(rows.document[5])
    counts = dict.fromkeys(langs, 0)
    topics: dict[str, None] = {}
    for unit in rows.units:  # (lang, kind and topic: the 3rd, 9th and 14th columns)
        if unit[8] == "article":
            counts[unit[2]] = counts.get(unit[2], 0) + 1
            if unit[13] is not None:
                topics[unit[13]] = None
    return ([(file, treaty, lang, n) for lang, n in counts.items()],
            [(file, treaty, topic) for topic in topics])


def _treaty_rows(db: sqlite3.Connection) -> None:
    """(Re)derive the treaties table from documents: its parties, signature, place and title
    from its files' metadata, a file that holds an instrument of its own (a later protocol)
    only where no other file says."""
    db.execute("DELETE FROM treaties")
    by_treaty: dict[str, dict] = {}
    for file, treaty, langs, meta in db.execute(
        "SELECT file, treaty, languages, meta FROM documents ORDER BY file"
    ):
        meta = json.loads(meta)
        t = by_treaty.setdefault(treaty, {"languages": [], "files": [], "from": None})
        own = not meta.get("instrument")
        if t["from"] is None or (own and not t["from"]):
            t.update({"parties": meta["parties"], "signed": meta["signed"],
                      "place": meta["place"], "title": meta["title"], "from": own})
        t["files"].append(file)
        for lang in json.loads(langs):
            if lang not in t["languages"]:
                t["languages"].append(lang)
    db.executemany(
        "INSERT INTO treaties VALUES (?,?,?,?,?,?,?)",
        [(tid, json.dumps(t["parties"]), t["signed"], t["place"], t["title"],
          json.dumps(t["languages"]), json.dumps(t["files"]))
         for tid, t in by_treaty.items()],
    )


@dataclass(frozen=True)
class Prior:
    """What the previous store knows about one file."""

    file: str
    sha256: str


def previous(data_dir: Path) -> dict[str, Prior]:
    """Files of the current store with their hashes (empty when there is none or it is stale)."""
    path = store_path(data_dir)
    if not path.exists():
        return {}
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            version = db.execute("SELECT value FROM meta WHERE key='pipeline'").fetchone()
            if not version or version[0] != PIPELINE_VERSION:
                return {}
            return {f: Prior(f, h) for f, h in db.execute("SELECT file, sha256 FROM documents")}
    except sqlite3.DatabaseError:
        return {}


def has_schema(data_dir: Path) -> bool:
    """Whether the current store of `data_dir` has every table this version writes (a store
    written before one was added is written anew, even when no file changed)."""
    path = store_path(data_dir)
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            have = {name for (name,) in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error:
        return False
    return set(re.findall(r"CREATE TABLE (\w+)", SCHEMA)) <= have


def file_treaties(data_dir: Path) -> dict[str, str]:
    """File -> treaty id in the current store (empty when there is none)."""
    path = store_path(data_dir)
    if not path.exists():
        return {}
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return dict(db.execute("SELECT file, treaty FROM documents"))


class NewStore:
    """A new store written beside the current one, swapped in by `commit` only when whole:

        with NewStore(data_dir) as new:
            new.add(doc, removed, links, audit)  # as documents come, nothing piles up
            new.copy_kept(files)              # unchanged files, from the current store
            new.add_links(links)
            new.add_audit(audit)              # the audit of the documents added
            path = new.commit()

    Leaving the block without `commit` (an error, an interrupt, nothing to store) removes the
    new file and leaves the current store exactly as it was. `previous`: the directory of the
    current store that kept files are copied from (default: `data_dir`'s).

    `extend`: the new store starts as a copy of the current one (a file copy, which the
    kernel does at the disk's speed: no row is read), of this pipeline version and schema
    (`extendable`); a document added replaces its file's rows and its treaty's, and
    `copy_kept` takes out the rows of what is not kept, instead of copying in what is. The
    same rows either way; adding one treaty then costs a file copy, not a copy of every row
    and a rebuild of every secondary index."""

    def __init__(self, data_dir: Path, previous: Path | None = None,
                 extend: bool = False) -> None:
        data_dir = Path(data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        self.final = store_path(data_dir)
        self.previous = store_path(previous if previous is not None else data_dir)
        remove_orphans(self.final.parent)
        self.tmp = self.final.with_name(f".{self.final.name}.{os.getpid()}.tmp")
        self.tmp.unlink(missing_ok=True)
        self.extended = extend and self.previous.exists()
        self._db: sqlite3.Connection | None = None
        #: treaties whose rates and facts `copy_kept` copied (not derived again at `commit`)
        self.copied: frozenset[str] = frozenset()
        self.fresh: set[str] = set()  # treaties of the documents added
        self.files: set[str] = set()  # files of the documents added

    @property
    def db(self) -> sqlite3.Connection:
        """The new store, made when first written (an ingest that finds nothing changed
        writes none: an extended store is not copied for nothing)."""
        if self._db is None:
            if self.extended:
                shutil.copyfile(self.previous, self.tmp)
            self._db = sqlite3.connect(self.tmp)
            # a new file that is thrown away unless complete: nothing to roll back to
            self._db.execute("PRAGMA journal_mode=OFF")
            if not self.extended:
                self._db.executescript(SCHEMA)
                self._db.execute("INSERT INTO meta VALUES ('pipeline', ?)", (PIPELINE_VERSION,))
        return self._db

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._db is not None:
            self._db.close()
        self.tmp.unlink(missing_ok=True)

    def add(self, doc: Document | StoreRows, removed: Iterable[tuple] | None = None,
            links: Iterable[tuple] = (), audit: Audit | None = None) -> None:
        """One document (or its `rows_of`, made in a worker) with its removed furniture rows
        and the link rows and audit made with it."""
        rows = doc if isinstance(doc, StoreRows) else rows_of(doc, removed or ())
        file, treaty = rows.document[0], rows.document[1]
        if self.extended:  # (the rows the current store has of this treaty and file go: a
            # treaty with a fresh document has all its documents added, `_reprocess_partners`)
            if treaty not in self.fresh:
                _forget_treaty(self.db, treaty, files=True)
            _forget_file(self.db, file)  # (a file that was another treaty's)
        _insert_rows(self.db, rows)
        self.fresh.add(treaty)
        self.files.add(file)
        _insert_links(self.db, links)
        if audit is not None:
            _insert_audit(self.db, audit)

    def copy_kept(self, files: Sequence[str], treaties: Collection[str] = ()) -> None:
        """The rows of `files`, unchanged, from the current store, and the links, rates and
        facts of `treaties` (treaties all of whose files are among them: what they are made of
        is unchanged, so they are too)."""
        if self.extended:
            self._keep_only(files, treaties)
            return
        if not files or not self.previous.exists():
            return
        self.db.execute("ATTACH DATABASE ? AS old", (f"file:{self.previous}?mode=ro",))
        have = {name for (name,) in self.db.execute(
            "SELECT name FROM old.sqlite_master WHERE type = 'table'")}
        marks = ",".join("?" * len(files))
        for table in FILE_TABLES:
            source = f"old.{table}" if table in have else _SUMMARY_OF[table].format("old.units")
            self.db.execute(f"INSERT INTO {table} SELECT * FROM {source} WHERE file IN ({marks})",
                            list(files))
        marks = ",".join("?" * len(treaties))
        for table in TREATY_TABLES:
            if treaties and table in have:
                if table != "links":  # (derived at commit: the kept treaties' are copied)
                    self.db.executescript(_derived_schema(table))
                    self.copied = frozenset(treaties)
                self.db.execute(f"INSERT INTO {table} SELECT * FROM old.{table}"
                                f" WHERE treaty IN ({marks})", list(treaties))
        self.db.commit()
        self.db.execute("DETACH DATABASE old")

    def _keep_only(self, files: Sequence[str], treaties: Collection[str]) -> None:
        """An extended store: the rows of files neither kept (`files`) nor added taken out, and
        the rows of treaties neither kept (`treaties`) nor added."""
        kept = set(files) | self.files
        for (file,) in self.db.execute("SELECT file FROM documents").fetchall():
            if file not in kept:
                _forget_file(self.db, file)
        # (the treaties table is the previous store's until `commit`: every treaty with rows)
        for (treaty,) in self.db.execute("SELECT id FROM treaties").fetchall():
            if treaty not in treaties and treaty not in self.fresh:
                _forget_treaty(self.db, treaty)
        self.copied = frozenset(treaties)
        self.db.commit()

    def add_links(self, links: Iterable[tuple]) -> None:
        _insert_links(self.db, links)

    def add_audit(self, audit: Audit) -> None:
        _insert_audit(self.db, audit)

    def commit(self, source: Callable[[str], Sequence[str] | None] | None = None) -> Path:
        """Finish the new store and atomically replace the current one with it (`source`:
        a source file's lines by its name, for the treaty facts' lines)."""
        _treaty_rows(self.db)
        self.db.executescript(INDEXES)  # (commits the rows first)
        from indexer.instruments.facts import write_facts  # (the treaty's facts, issue 29)
        from indexer.rates import write_rates  # (the stage after topics and alignment)

        # (both read the units treaty by treaty: after the indexes, not a scan each)
        write_rates(self.db, self.copied)
        write_facts(self.db, source, self.copied)
        self.db.commit()
        self.db.close()
        os.replace(self.tmp, self.final)
        return self.final


def _derived_schema(table: str) -> str:
    """The schema of a table derived at commit (rates, facts)."""
    if table == "rates":
        from indexer.rates.stage import SCHEMA
    else:
        from indexer.instruments.facts import SCHEMA
    return SCHEMA


def extendable(data_dir: Path) -> bool:
    """Whether the current store of `data_dir` can be the start of the next (`NewStore`'s
    `extend`): of this pipeline version, with every table this version writes."""
    return bool(previous(data_dir)) and has_schema(data_dir)


def _tables(db: sqlite3.Connection) -> set[str]:
    return {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _forget_file(db: sqlite3.Connection, file: str) -> None:
    """Delete the rows of `file` from every table of file rows: found through its treaty's
    index where the table has one (a file's rows are all of one treaty)."""
    found = db.execute("SELECT treaty FROM documents WHERE file = ?", (file,)).fetchone()
    if found is None:
        return
    have = _tables(db)
    for table in FILE_TABLES:
        if table not in have:
            continue
        if table == "removed":  # (the one table of file rows without a treaty column)
            db.execute("DELETE FROM removed WHERE file = ?", (file,))
        else:
            db.execute(f"DELETE FROM {table} WHERE treaty = ? AND file = ?", (found[0], file))


def _forget_treaty(db: sqlite3.Connection, treaty: str, files: bool = False) -> None:
    """Delete the rows of `treaty` from every table of treaty rows (`files`: and from every
    table of file rows, for each of its files)."""
    have = _tables(db)
    if files:
        db.execute("DELETE FROM removed WHERE file IN (SELECT file FROM documents WHERE"
                   " treaty = ?)", (treaty,))
        for table in FILE_TABLES:
            if table in have and table != "removed":
                db.execute(f"DELETE FROM {table} WHERE treaty = ?", (treaty,))
    for table in TREATY_TABLES:
        if table in have:
            db.execute(f"DELETE FROM {table} WHERE treaty = ?", (treaty,))


def remove_orphans(directory: Path) -> None:
    """Remove the temp stores in `directory` of writers that no longer run (an ingest killed
    with SIGKILL or a power cut cannot clean up after itself); a running writer's is left."""
    for path in Path(directory).glob(f".{STORE_NAME}.*.tmp"):
        pid = path.name[len(STORE_NAME) + 2:-len(".tmp")]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            path.unlink(missing_ok=True)
        except OSError:  # alive, but another user's process
            pass


def connect(data_dir: Path) -> sqlite3.Connection:
    """A read-only connection to the store, rows as sqlite3.Row. The caller closes it (a
    sqlite3 connection used as a context manager only commits; wrap it in `closing`)."""
    path = store_path(data_dir)
    if not path.exists():
        raise StoreError(f"no corpus at {path}: run `treaty ingest` first (or pass --data DIR)")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    db.row_factory = sqlite3.Row
    return db
