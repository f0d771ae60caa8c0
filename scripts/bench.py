"""Performance benchmark: ingest throughput, index size, peak memory and query latency on a
scaled copy of the bundled corpus, against an SQLite FTS5 baseline measured in the same run.

    python scripts/bench.py                       # 100 MB, both engines -> docs/benchmarks.md
    python scripts/bench.py --size-mb 5 --queries 5 --out /tmp/bench.md   # a quick look
    python scripts/bench.py --corpus ../shared/corpus-wild --corpus ../shared/corpus-extra

The scaled corpus is made of copies of the bundled texts, each copy of a file under its own
treaty id (a pair of real ISO 3166 codes and the original year); copy 0 keeps the original
ids, so the bundled citations ("Brazil–Peru Art. 10(2)(a)") still resolve to one treaty.

Ingest runs the real pipeline (`indexer.pipeline.ingest`, `--workers` processes) on the first
`--ingest-mb` of the corpus. When that is less than `--size-mb`, the store is completed by
cloning the ingested copies' rows under the remaining treaty ids: the pipeline is
deterministic and every copy of a file is the same text, so the rows are those an ingest of
the copy would write (the script checks one clone against a real ingest of the same copy).

Every measured phase runs in its own process (this script with --phase), so the peak memory
reported for a phase (ru_maxrss of the process, and of its worker processes) is its own.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "scripts"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

BUNDLED = ROOT / "corpus"
MB = 1_000_000

#: Real ISO 3166-1 alpha-2 codes for the generated treaty ids (pairs of them, sorted). Brazil is
#: left out so that the bundled treaties' citations by party names stay unambiguous.
ISO = (
    "ae", "ar", "at", "au", "az", "be", "bg", "by", "ca", "ch", "cl", "cn", "co", "cr", "cu",
    "cy", "cz", "de", "dk", "dz", "ec", "ee", "eg", "es", "fi", "fr", "ge", "gr", "hk", "hr",
    "hu", "id", "ie", "il", "in", "is", "it", "jm", "jp", "kr", "kw", "kz", "lk", "lt", "lu",
    "lv", "ma", "mt", "mx", "my", "ng", "nl", "no", "nz", "pe", "ph", "pk", "pl", "pt", "qa",
    "ro", "rs", "ru", "sa", "se", "sg", "si", "sk", "th", "tn", "tr", "tt", "tw", "ua", "ug",
    "us", "uy", "uz", "ve", "vn", "za", "zm",
)

# --- the query mix ---------------------------------------------------------------------------
#: (category, query, filters). Every engine and the FTS5 baseline get the same mix.
MIX: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("term", "dividends", {}),
    ("term", "royalties", {}),
    ("term", "resident", {}),
    ("term", "dividendos", {}),
    ("term", "tributação", {}),
    ("term", "utdelning", {}),
    ("term", "beskattning", {}),
    ("phrase", '"permanent establishment"', {}),
    ("phrase", '"beneficial owner"', {}),
    ("phrase", '"estabelecimento permanente"', {}),
    ("phrase", '"fast driftställe"', {}),
    ("boolean", "dividends OR royalties", {}),
    ("boolean", "interest AND NOT dividends", {}),
    ("fuzzy", "dividnds~", {}),
    ("fuzzy", "royaltes~1", {}),
    ("fuzzy", "tributacão~", {}),
    ("prefix", "divid*", {}),
    ("prefix", "tribut*", {}),
    ("filtered", "dividends", {"treaty": "br-pe-2006"}),
    ("filtered", "dividendos", {"lang": "pt"}),
    ("filtered", "tax", {"topic": "dividends"}),
    ("filtered", "imposto", {"party": "BR", "lang": "pt"}),
    ("chinese", "股息", {}),
    ("chinese", "常设机构", {}),
    ("chinese", "特许权使用费", {}),
    ("chinese", "居民", {"lang": "zh"}),
    # as users type them: a typo searched as corrected, a question (relaxed matching, the
    # topic it names), a Chinese question (its words), a word no text has (its gloss)
    ("typed", "permanent establishmnet", {}),
    ("typed", "pensons", {}),
    ("typed", "what is the withholding rate on interest", {}),
    ("typed", "股息如何征税", {}),
    ("typed", "養老金", {}),
)
#: Citations looked up with search.citations.cite; "{copy}" is a generated treaty id.
CITATIONS = (
    "br-pe-2006 Art. 10(2)",
    "Brazil–Peru Art. 10(2)(a)",
    "Artigo 10, parágrafo 2 da Convenção Brasil–Colômbia",
    "中国巴西协定第十条第二款",
    "artikel VII § 2 avtalet Sverige–Brasilien",
    "es-pt-1993 Art. 10(1)",
    "{copy} Art. 12(1)",
)

TARGETS = {"p95": 20.0, "cite_p95": 5.0, "ingest_mbs": 1.0, "peak_mb": 2048.0}


# --- helpers ---------------------------------------------------------------------------------


def pct(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))]


def peak_mb() -> dict[str, float]:
    """Peak resident memory (MB) of this process and of its largest waited-for child."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"self_mb": round(own, 1), "children_mb": round(kids, 1)}


def dir_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file()) / MB


def run_phase(phase: str, args: dict, log: Callable[[str], None],
              python: str | None = None) -> dict:
    """Run `phase` of this script in a fresh process (of the interpreter `python`, default
    this one); its JSON result."""
    log(f"[{time.strftime('%H:%M:%S')}] phase {phase} {json.dumps(args, ensure_ascii=False)}"
        + (f" under {python}" if python else ""))
    t0 = time.perf_counter()
    out = subprocess.run(
        [python or sys.executable, str(Path(__file__).resolve()), "--phase", phase,
         "--phase-args", json.dumps(args)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        raise SystemExit(f"phase {phase} failed (exit {out.returncode})")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    log(f"    done in {time.perf_counter() - t0:.1f} s: "
        + json.dumps({k: v for k, v in result.items() if not isinstance(v, (dict, list))}))
    return result


# --- 1. the scaled corpus --------------------------------------------------------------------


def _toml(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)  # TOML basic strings and arrays alike


def treaty_ids(n: int, year: str, taken: set[str]) -> Iterable[tuple[str, tuple[str, str]]]:
    pairs = [(a, b) for i, a in enumerate(sorted(ISO)) for b in sorted(ISO)[i + 1:]]
    offset = 0
    while True:
        for a, b in pairs:
            tid = f"{a}-{b}-{int(year) + offset}"
            if tid not in taken:
                taken.add(tid)
                yield tid, (a.upper(), b.upper())
        offset += 1


def make_corpus(folder: Path, copies: int) -> tuple[list[list[dict]], int]:
    """Write `copies` copies of the bundled corpus into `folder` with a manifest. Returns the
    manifest entries per copy and the bytes of source text."""
    import tomllib

    folder.mkdir(parents=True, exist_ok=True)
    base = tomllib.loads((BUNDLED / "manifest.toml").read_text("utf-8"))["document"]
    taken = {d["treaty"] for d in base}
    gens = {d["file"]: treaty_ids(copies, d["signed"][:4], taken) for d in base}
    per_copy: list[list[dict]] = []
    size = 0
    for k in range(copies):
        entries = []
        for d in base:
            e = {key: v for key, v in d.items() if key != "note"}
            if k:
                tid, parties = next(gens[d["file"]])
                e.update(file=f"c{k:04d}-{d['file']}", treaty=tid, parties=list(parties))
            src = BUNDLED / d["file"]
            dst = folder / e["file"]
            if not dst.exists():
                shutil.copyfile(src, dst)
            size += src.stat().st_size
            entries.append(e)
        per_copy.append(entries)
    return per_copy, size


def write_manifest(folder: Path, per_copy: Sequence[Sequence[dict]]) -> None:
    lines = ["# generated by scripts/bench.py"]
    for entries in per_copy:
        for e in entries:
            lines.append("\n[[document]]")
            lines.extend(f"{k} = {_toml(v)}" for k, v in e.items())
    (folder / "manifest.toml").write_text("\n".join(lines) + "\n", "utf-8")


def clone_copies(store_file: Path, template: Sequence[dict], targets: Sequence[Sequence[dict]]
                 ) -> None:
    """Add the rows of each copy in `targets` to the store by cloning those of `template`
    (a copy already ingested: same files, other treaty ids)."""
    with closing(sqlite3.connect(store_file)) as db:
        for entries in targets:
            for src, dst in zip(template, entries):
                t0, t1, f0, f1 = src["treaty"], dst["treaty"], src["file"], dst["file"]
                parties = json.dumps(sorted(dst["parties"]))
                db.execute(
                    "INSERT INTO documents SELECT ?, ?, sha256, encoding, source_lines, "
                    "languages, warnings, json_set(meta, '$.parties', json(?)) "
                    "FROM documents WHERE file = ?", (f1, t1, parties, f0))
                db.execute(
                    "INSERT INTO treaties SELECT ?, ?, signed, place, title, languages, "
                    "json_array(?) FROM treaties WHERE id = ?", (t1, parties, f1, t0))
                db.execute(
                    "INSERT INTO units SELECT ? || substr(id, ?), ?, lang, eid, parent, top, "
                    "seq, depth, kind, number, label, num, title, topic, number_inferred, "
                    "refers_to, chapter, note, text, raw, ?, start_line, end_line, changes "
                    "FROM units WHERE treaty = ? AND file = ?",
                    (t1, len(t0) + 1, t1, f1, t0, f0))
                db.execute("INSERT INTO removed SELECT ?, start_line, end_line, raw, reason "
                           "FROM removed WHERE file = ?", (f1, f0))
                db.execute("INSERT INTO links SELECT ?, eid, lang_a, lang_b, eid_b, level, "
                           "score, method FROM links WHERE treaty = ?", (t1, t0))
        db.commit()


def store_rows(store_file: Path, treaty: str) -> dict[str, list]:
    """A treaty's rows, treaty id and file name blanked (to compare a clone with an ingest)."""
    with closing(sqlite3.connect(store_file)) as db:
        units = db.execute(
            "SELECT substr(id, length(treaty) + 1), lang, eid, parent, top, seq, depth, kind, "
            "number, label, num, title, topic, number_inferred, refers_to, chapter, note, "
            "text, raw, start_line, end_line, changes FROM units WHERE treaty = ? ORDER BY id",
            (treaty,)).fetchall()
        links = db.execute("SELECT eid, lang_a, lang_b, eid_b, level, score, method FROM links "
                           "WHERE treaty = ? ORDER BY 1, 2, 3, 4", (treaty,)).fetchall()
    return {"units": units, "links": links}


# --- phases (each in its own process) --------------------------------------------------------


def phase_ingest(a: dict) -> dict:
    from indexer.pipeline import ingest

    marks: list[float] = []
    t0 = time.perf_counter()
    report = ingest(a["corpus"], a["data"], engine="tantivy", force=True,
                    workers=a["workers"], progress=lambda f: marks.append(time.perf_counter()))
    total = time.perf_counter() - t0
    return {
        "docs": len(report.documents),
        "failed": [f"{d.file}: {d.error}" for d in report.failed],
        "docs_s": round(marks[-1] - t0, 2) if marks else None,
        "total_s": round(total, 2),
        "doc_cpu_s": round(sum(d.seconds for d in report.documents), 2),
        "slowest": sorted(((round(d.seconds, 2), d.file) for d in report.documents),
                          reverse=True)[:3],
        **peak_mb(),
    }


def _subset(data: str, copies: int | None) -> set[str] | None:
    if copies is None:
        return None
    per_copy = json.loads((Path(data) / "bench-copies.json").read_text("utf-8"))
    return {e["treaty"] for entries in per_copy[:copies] for e in entries}


def phase_build(a: dict) -> dict:
    from indexer.index import build_index, index_docs

    keep = _subset(a["data"], a.get("copies"))
    docs = (d for d in index_docs(Path(a["data"])) if keep is None or d.treaty in keep)
    t0 = time.perf_counter()
    stats = build_index(docs, Path(a["index"]), engine=a["engine"], workers=a.get("workers"))
    return {"docs": stats.docs, "build_s": round(time.perf_counter() - t0, 2),
            "workers": a.get("workers") or os.cpu_count() or 1,
            "size_mb": round(dir_mb(stats.path), 1), **peak_mb()}


def _engine_call(searcher: object, query: str, filters: dict) -> Callable[[], object]:
    """The engine-level search the Searcher makes (parse, compile, backend), no snippets."""
    from indexer.index.query_syntax import FNone, compile_query, field_lang, leaves, parse
    from indexer.index.searcher import _FILTER_FIELDS

    lang = filters.get("lang")
    tree, _ = parse(query)
    langs = (field_lang(lang),) if lang else searcher.languages  # type: ignore[attr-defined]
    ftree = compile_query(tree, langs)
    if next(iter(leaves(ftree)), None) is None:
        ftree = FNone()
    fl = [("number" if k == "article" else k, _FILTER_FIELDS[k](v)) for k, v in filters.items()]
    backend = searcher.backend
    return lambda: backend.search(ftree, fl, 10)


def _grouped(e: dict | None) -> str:
    g = e and e["query"].get("grouped")
    return f"{g['p50']} / {g['p95']} ms" if g else "not run"


def _build_peak(e: dict | None) -> float | None:
    """Peak memory of a build: the parent plus each worker at the largest worker's peak."""
    if not e:
        return None
    b = e["build"]
    return b["self_mb"] + b.get("workers", 1) * b["children_mb"] if b["children_mb"] else b["self_mb"]


def _build_mem(e: dict | None) -> str:
    peak = _build_peak(e)
    return "not run" if peak is None else f"{peak:.1f} MB"


def _time(fn: Callable[[], object], rounds: int) -> list[float]:
    fn()  # warm-up
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def _summary(samples: dict[str, list[float]]) -> dict:
    every = [x for v in samples.values() for x in v]
    plain = [x for k, v in samples.items() if k != "fuzzy" for x in v]
    return {
        "p50": round(pct(every, 50), 2), "p95": round(pct(every, 95), 2),
        "p95_no_fuzzy": round(pct(plain, 95), 2),
        "by_category": {k: {"p50": round(pct(v, 50), 2), "p95": round(pct(v, 95), 2)}
                        for k, v in samples.items()},
    }


#: A query phase stops after this many seconds of timing (at least 3 rounds are kept).
PHASE_SECONDS = 90.0


def _interleaved(calls: Sequence[tuple[str, Callable[[], object]]], rounds: int
                 ) -> dict[str, list[float]]:
    """Time every call `rounds` times, round-robin over the mix (after one warm-up each);
    stop early after PHASE_SECONDS (a slow engine at a large size)."""
    for _, fn in calls:
        fn()
    samples: dict[str, list[float]] = {}
    start = time.perf_counter()
    for i in range(rounds):
        if i >= 3 and time.perf_counter() - start > PHASE_SECONDS:
            break
        for cat, fn in calls:
            t = time.perf_counter()
            fn()
            samples.setdefault(cat, []).append((time.perf_counter() - t) * 1000)
    return samples


def phase_query(a: dict) -> dict:
    from indexer.index import open_index
    from search.citations import cite
    from search.corpus import Corpus

    t0 = time.perf_counter()
    searcher = open_index(Path(a["index"]))
    open_s = time.perf_counter() - t0
    rounds = a["rounds"]
    totals = {}
    full, engine = [], []
    for cat, q, filters in MIX:
        full.append((cat, lambda q=q, f=filters: searcher.search(q, **f)))
        engine.append((cat, _engine_call(searcher, q, filters)))
        totals[f"{q} {filters or ''}".strip()] = searcher.search(q, **filters).total
    out = {"open_s": round(open_s, 3), "full": _summary(_interleaved(full, rounds)),
           "engine": _summary(_interleaved(engine, rounds)), "totals": totals}
    from search.results import SearchSession

    with SearchSession(Path(a["data"]), Path(a["index"])) as session:
        grouped = [(cat, lambda q=q, f=filters: session.search(q, **f)) for cat, q, filters in MIX]
        out["grouped"] = _summary(_interleaved(grouped, max(3, rounds // 3)))
    with Corpus(Path(a["data"])) as corpus:
        cites = []
        for text in CITATIONS:
            t = text.format(copy=a["copy_id"])
            cites.append((text, lambda t=t: cite(corpus, t)))
        samples = _interleaved(cites, rounds)
    every = [x for v in samples.values() for x in v]
    out["cite"] = {"p50": round(pct(every, 50), 2), "p95": round(pct(every, 95), 2),
                   "by_citation": {k: round(pct(v, 95), 2) for k, v in samples.items()}}
    searcher.close()
    out.update(peak_mb())
    return out


# --- the FTS5 baseline -----------------------------------------------------------------------


def _fts_quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def fts_match(node: object) -> str | None:
    """An FTS5 MATCH expression for a field tree (None: FTS5 cannot say it, e.g. fuzzy)."""
    from indexer.index.query_syntax import (
        FAll,
        FAnd,
        FFuzzy,
        FNone,
        FNot,
        FOr,
        FPhrase,
        FPrefix,
        FTerm,
    )

    if isinstance(node, FTerm):
        return f"{node.field} : {_fts_quote(node.term)}"
    if isinstance(node, FPhrase):
        return f"{node.field} : {_fts_quote(' '.join(node.terms))}"
    if isinstance(node, FPrefix):
        return f"{node.field} : {_fts_quote(node.prefix)} *"
    if isinstance(node, (FFuzzy, FAll, FNone)):
        return None
    if isinstance(node, FOr):
        parts = [fts_match(c) for c in node.children]
        return None if None in parts else "(" + " OR ".join(parts) + ")"  # type: ignore[arg-type]
    if isinstance(node, FAnd):
        pos = [fts_match(c) for c in node.children if not isinstance(c, FNot)]
        neg = [fts_match(c.child) for c in node.children if isinstance(c, FNot)]
        if not pos or None in pos or None in neg:
            return None
        expr = "(" + " AND ".join(pos) + ")"  # type: ignore[arg-type]
        return "(" + expr + "".join(f" NOT {n}" for n in neg) + ")"
    return None


def phase_fts5(a: dict) -> dict:
    """Build an FTS5 table of the same documents with the same analysed terms (space-joined),
    then time the same engine-level queries on it."""
    from functools import lru_cache

    import indexer.index.rows as index_mod
    from indexer.index import index_docs
    from indexer.index.query_syntax import (
        BOOSTS,
        KEYWORD_FIELDS,
        FNone,
        compile_query,
        field_lang,
        leaves,
        parse,
        text_fields,
    )
    from indexer.index.searcher import _FILTER_FIELDS

    # Every copy has the same paragraphs: analyse each distinct text once (build time of the
    # baseline is not compared, its query time is).
    index_mod.index_terms = lru_cache(maxsize=None)(index_mod.index_terms)  # type: ignore
    fields = text_fields()
    weights = [BOOSTS[f.split("_")[0]] for f in fields]
    path = Path(a["path"])
    path.unlink(missing_ok=True)
    t0 = time.perf_counter()
    rows = []
    chars: set[str] = set()
    for doc in index_docs(Path(a["data"])):
        row = index_mod._row(doc)
        texts = {name: " ".join(f.term_list()) for name, f in row.texts.items()}
        for s in texts.values():
            chars.update(c for c in s if not c.isalnum() and c != " ")
        kw = {name: " ".join(row.keywords.get(name, ())) for name in KEYWORD_FIELDS}
        for s in kw.values():
            chars.update(c for c in s if not c.isalnum() and c != " ")
        rows.append([texts.get(f, "") for f in fields] + [kw[k] for k in KEYWORD_FIELDS]
                    + [row.stored])
    tokenchars = "".join(sorted(chars)).replace("'", "''").replace('"', '""')
    cols = ", ".join([*fields, *(f"k_{k}" for k in KEYWORD_FIELDS), "doc UNINDEXED"])
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"CREATE VIRTUAL TABLE fts USING fts5({cols}, tokenize = \"unicode61 "
                   f"remove_diacritics 0 tokenchars '{tokenchars}'\")")
        db.executemany(f"INSERT INTO fts VALUES ({','.join('?' * (len(fields) + 8))})", rows)
        db.commit()
        db.execute("INSERT INTO fts(fts) VALUES ('optimize')")
        db.commit()
    build_s = time.perf_counter() - t0
    del rows
    langs = tuple(json.loads((Path(a["index_meta"])).read_text("utf-8"))["languages"])
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rank = f"bm25(fts, {', '.join(str(w) for w in weights)})"
    calls, skipped, totals = [], [], {}
    for cat, q, filters in MIX:
        lang = filters.get("lang")
        tree, _ = parse(q)
        ftree = compile_query(tree, (field_lang(lang),) if lang else langs)
        if next(iter(leaves(ftree)), None) is None:
            ftree = FNone()
        expr = fts_match(ftree)
        if expr is None:
            skipped.append(q)
            continue
        for k, v in filters.items():
            key = "number" if k == "article" else k
            expr = f"({expr}) AND k_{key} : {_fts_quote(_FILTER_FIELDS[k](v))}"

        def call(expr: str = expr) -> None:
            db.execute(f"SELECT doc, {rank} AS r FROM fts WHERE fts MATCH ? ORDER BY r "
                       "LIMIT 10", (expr,)).fetchall()
            db.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (expr,)).fetchone()

        calls.append((cat, call))
        totals[f"{q} {filters or ''}".strip()] = db.execute(
            "SELECT count(*) FROM fts WHERE fts MATCH ?", (expr,)).fetchone()[0]
    out = {"build_s": round(build_s, 2), "size_mb": round(path.stat().st_size / MB, 1),
           "engine": _summary(_interleaved(calls, a["rounds"])), "skipped": skipped,
           "totals": totals, **peak_mb()}
    db.close()
    return out


PHASES = {"ingest": phase_ingest, "build": phase_build, "query": phase_query,
          "fts5": phase_fts5}


# --- cold start ------------------------------------------------------------------------------


def cold_search(data: Path, engine_note: str, log: Callable[[str], None]) -> dict:
    """Wall time of a fresh `treaty search dividends` (the console script's own import)."""
    code = ("import sys; from search.cli import main; "
            f"sys.argv = ['treaty', 'search', 'dividends', '--data', {str(data)!r}]; main()")
    times = []
    ok = True
    for _ in range(5):
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, check=False)
        times.append(time.perf_counter() - t)
        ok = ok and r.returncode == 0
        if r.returncode != 0:
            log(f"    cold search ({engine_note}) failed: {r.stderr.strip()[-300:]}")
    out = {"ok": ok, "median_s": round(statistics.median(times), 3),
           "min_s": round(min(times), 3)}
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=ROOT,
                       capture_output=True, text=True, check=False)
    imports = []
    for line in r.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            parts = [p.strip() for p in line[len("import time:"):].split("|")]
            if parts[1].isdigit():
                imports.append((int(parts[1]), parts[2]))
    top = [(round(us / 1000, 1), name.strip()) for us, name in sorted(imports, reverse=True)
           if not name.startswith("  ")][:8]
    out["top_imports_ms"] = top
    return out


# --- the report ------------------------------------------------------------------------------


def machine() -> dict:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {"nproc": os.cpu_count(), "cpu": cpu, "ram_gb": round(ram, 1),
            "python": platform.python_version(), "platform": platform.platform(),
            "load": os.getloadavg(), "interpreter": interpreter()}


def interpreter(python: str | None = None) -> dict:
    """What runs the ingest: the interpreter `python` (default this one), its version and how
    its CPython was built (configure options; whether the running process maps a shared
    libpython, slower to call into than one linked into the executable). The build
    matters: on one machine the same 100 MB ingest ran 1.05-1.35x as fast (seven pairs of
    runs) under Debian's CPython (PGO, LTO, libpython linked in) as under a pyenv build
    without them."""
    code = ("import json, os, platform, sys, sysconfig; m = '/proc/self/maps'; "
            "print(json.dumps({'executable': sys.executable, 'version': "
            "platform.python_version(), 'shared': 'libpython' in open(m).read() "
            "if os.path.exists(m) else None, 'optimized': "
            "'--enable-optimizations' in (sysconfig.get_config_var('CONFIG_ARGS') or ''), "
            "'lto': '--with-lto' in (sysconfig.get_config_var('CONFIG_ARGS') or '')}))")
    out = subprocess.run([python or sys.executable, "-c", code], capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"cannot run {python}: {out.stderr.strip()[-300:]}")
    return json.loads(out.stdout)


def describe_interpreter(i: dict) -> str:
    linked = {True: "libpython shared", False: "libpython linked in"}.get(i["shared"], "")
    build = ", ".join(x for x in (linked,
                                  "configured with PGO" if i["optimized"] else "",
                                  "LTO" if i["lto"] else "") if x)
    return f"`{i['executable']}`, CPython {i['version']} ({build})"


def ratio(a: float | None, b: float | None) -> str:
    if not a or not b:
        return "–"
    return f"{a / b:.2f}×" if a / b < 1 else f"{a / b:.1f}×"


def verdict(value: float | None, target: float, higher_is_better: bool = False) -> str:
    if value is None:
        return "–"
    ok = value >= target if higher_is_better else value <= target
    return "met" if ok else "**not met**"


def render(r: dict) -> str:
    m, a = r["machine"], r["args"]
    ing = r["ingest"]
    src_mb = r["corpus_mb"]
    ing_mb = r["ingest_mb"]
    ing_mbs = ing_mb / ing["total_s"]
    doc_mbs = ing_mb / ing["docs_s"]
    peak_ingest = ing["self_mb"] + ing["children_mb"] * max(1, a["workers"])
    lines = [
        "# Benchmarks",
        "",
        "Measured by `scripts/bench.py` (not a timed test). Regenerate with the command below;",
        "this file is written by the script.",
        "",
        (f"- Machine: {m['nproc']} CPUs ({m['cpu']}), {m['ram_gb']} GB RAM, Python "
        f"{m['python']}, {m['platform']}"),
        *([f"- Interpreter: {describe_interpreter(m['interpreter'])}"]
          if m.get("interpreter") else []),
        f"- Load average at start: {', '.join(f'{x:.1f}' for x in m['load'])} (other work was "
        "running on the machine: treat latencies as upper bounds)" if m["load"][0] > 1.5 else
        f"- Load average at start: {', '.join(f'{x:.1f}' for x in m['load'])}",
        f"- Command: `{r['command']}`",
        f"- Date: {r['date']}; total run time {r['run_min']:.0f} min",
        (f"- Corpus: {r['copies']} copies of the 5 bundled texts = {r['documents']} documents, "
        f"{src_mb:.1f} MB of source text, {r['index_docs']} indexed paragraphs"),
        "",
        f"## Results at {src_mb:.0f} MB against the targets",
        "",
        "| measure | tantivy | Whoosh | FTS5 baseline | target (tantivy) | |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    t = r["engines"].get("tantivy")
    w = r["engines"].get("whoosh")
    f = r.get("fts5")

    def cell(e: dict | None, *keys: str, unit: str = " ms") -> str:
        if not e:
            return "not run"
        v = e
        for k in keys:
            v = v[k]
        return f"{v}{unit}"

    tp95 = t["query"]["full"]["p95"] if t else None
    lines += [
        (f"| query p50, full search (parse, engine, snippets, did-you-mean) | "
        f"{cell(t and t['query'], 'full', 'p50')} | {cell(w and w['query'], 'full', 'p50')} | "
        f"– | | |"),
        (f"| **query p95, full search** | **{cell(t and t['query'], 'full', 'p95')}** | "
        f"{cell(w and w['query'], 'full', 'p95')} | – | ≤ 20 ms | "
        f"{verdict(tp95, TARGETS['p95'])} |"),
        (f"| query p95 excluding the fuzzy queries, full search | "
         f"{cell(t and t['query'], 'full', 'p95_no_fuzzy')} | "
         f"{cell(w and w['query'], 'full', 'p95_no_fuzzy')} | – | | |"),
        (f"| query p50, engine only (same compiled query) | "
        f"{cell(t and t['query'], 'engine', 'p50')} | "
        f"{cell(w and w['query'], 'engine', 'p50')} | {cell(f, 'engine', 'p50')} | | |"),
        (f"| query p95, engine only | {cell(t and t['query'], 'engine', 'p95')} | "
        f"{cell(w and w['query'], 'engine', 'p95')} | {cell(f, 'engine', 'p95')} | | |"),
        (f"| query p50 / p95, `treaty search` (search.results: a page of 10 article groups, "
         f"the article count, snippets) | {_grouped(t)} | {_grouped(w)} | – | | |"),
    ]
    if f:
        lines.append(
            f"| engine p95 ÷ FTS5 p95 (same mix without the fuzzy queries) | "
            f"{ratio(t and t['query']['engine']['p95_no_fuzzy'], f['engine']['p95'])} | "
            f"{ratio(w and w['query']['engine']['p95_no_fuzzy'], f['engine']['p95'])} | 1.0× "
            "| | |")
    cp95 = t["query"]["cite"]["p95"] if t else None
    lines += [
        (f"| **citation lookup p95** (`search.citations.cite`) | "
        f"**{cell(t and t['query'], 'cite', 'p95')}** | {cell(w and w['query'], 'cite', 'p95')}"
        f" | – | ≤ 5 ms | {verdict(cp95, TARGETS['cite_p95'])} |"),
        (f"| **ingest throughput**, {a['workers']} workers (read → store + links + tantivy "
        f"index), on {ing_mb:.1f} MB | **{ing_mbs:.3f} MB/s** | – | – | ≥ 1 MB/s | "
        f"{verdict(ing_mbs, TARGETS['ingest_mbs'], True)} |"),
        f"| documents stage (read → segment, with topics and links made in the workers), same run | {doc_mbs:.3f} MB/s | – | – | | |",
        *(_alt_rows(r, ing_mbs) if r.get("ingest_alt") else []),
        (f"| index build, {src_mb:.0f} MB | {cell(t and t['build'], 'build_s', unit=' s')} | "
        f"{cell(w and w['build'], 'build_s', unit=' s')} | "
        f"{cell(f, 'build_s', unit=' s')}¹ | | |"),
        (f"| index size on disk | {cell(t and t['build'], 'size_mb', unit=' MB')} | "
        f"{cell(w and w['build'], 'size_mb', unit=' MB')} | {cell(f, 'size_mb', unit=' MB')}"
        f" | | (store: {r['store_mb']:.0f} MB) |"),
        (f"| **peak memory**, ingest (parent + {a['workers']} × worker peak) | "
        f"**{peak_ingest:.0f} MB** | – | – | ≤ 2 GB | "
        f"{verdict(peak_ingest, TARGETS['peak_mb'])} |"),
        (f"| peak memory, index build (parent + workers × largest worker) | "
        f"{_build_mem(t)} | {_build_mem(w)} | {cell(f, 'self_mb', unit=' MB')}"
        f" | ≤ 2 GB | {verdict(t and _build_peak(t), TARGETS['peak_mb'])} |"),
        (f"| peak memory, searching | {cell(t and t['query'], 'self_mb', unit=' MB')} | "
        f"{cell(w and w['query'], 'self_mb', unit=' MB')} | – | ≤ 2 GB | "
        f"{verdict(t and t['query']['self_mb'], TARGETS['peak_mb'])} |"),
    ]
    cold = r.get("cold", {})
    for eng in ("tantivy", "whoosh"):
        c = cold.get(eng)
        if c:
            lines.append(f"| cold `treaty search dividends`, bundled corpus, {eng} (median of 5)"
                         f" | {c['median_s']} s | | | < 1 s | "
                         f"{verdict(c['median_s'] if c['ok'] else None, 1.0)} |")
    lines += ["", ("¹ FTS5 build analyses each distinct paragraph once (every copy repeats the "
              "same paragraphs), so its build time is not comparable; its query time is."), ""]
    if ing_mb < src_mb:
        lines += [
            (f"The ingest was measured on the first {ing_mb:.1f} MB of the scaled corpus "
            f"({r['ingest_docs']} documents); at the measured rate the whole {src_mb:.0f} MB "
            f"would take about {src_mb / ing_mbs / 60:.0f} min. The rest of the "
            f"{src_mb:.0f} MB store was filled by cloning the ingested copies' rows under "
            "new treaty ids (one clone checked identical to a real ingest of that copy: "
            f"{r['clone_check']})."), ""]
    # per category
    lines += ["## Query latency by category (full search, ms, warm)", "",
              "| category | " + " | ".join(
                  f"{e} p50 | {e} p95" for e in r["engines"]) + " | FTS5 p50 | FTS5 p95 |",
              "| --- |" + " --- | --- |" * (len(r["engines"]) + 1)]
    cats = list(dict.fromkeys(c for c, _, _ in MIX))
    for cat in cats:
        row = [cat]
        for e in r["engines"].values():
            bc = e["query"]["full"]["by_category"].get(cat, {})
            row += [str(bc.get("p50", "–")), str(bc.get("p95", "–"))]
        fb = (f or {}).get("engine", {}).get("by_category", {}).get(cat)
        row += [str(fb["p50"]), str(fb["p95"])] if fb else ["n/a", "n/a"]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Engine-only latency by category (ms, p95): " + "; ".join(
        f"{name}: " + ", ".join(f"{c} {v['p95']}" for c, v in
                                e["query"]["engine"]["by_category"].items())
        for name, e in r["engines"].items()), ""]
    # whoosh scaling
    if r.get("whoosh_scaling"):
        lines += ["## Whoosh at several corpus sizes", "",
                  ("| corpus MB | paragraphs | build s | index MB | full p50 ms | full p95 ms "
                   "| full p95 excl. fuzzy ms | engine p95 ms | cite p95 ms |"),
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for s in r["whoosh_scaling"]:
            if s.get("skipped"):
                lines.append(f"| {s['mb']:.0f} | – | skipped: {s['skipped']} | | | | | | |")
                continue
            q = s["query"]
            lines.append(f"| {s['mb']:.1f} | {s['build']['docs']} | {s['build']['build_s']} | "
                         f"{s['build']['size_mb']} | {q['full']['p50']} | {q['full']['p95']} | "
                         f"{q['full']['p95_no_fuzzy']} | "
                         f"{q['engine']['p95']} | {q['cite']['p95']} |")
        lines += ["", r.get("whoosh_note", ""), ""]
    # ingest detail
    lines += [
        "## Ingest detail", "",
        (f"- {r['ingest_docs']} documents, {ing_mb:.1f} MB, {a['workers']} worker processes: "
        f"documents done after {ing['docs_s']} s, whole ingest {ing['total_s']} s (store "
        f"write, alignment links and the tantivy index of the sample after the documents)."),
        (f"- Sum of per-document processing time {ing['doc_cpu_s']} s → parallel speed-up "
        f"{ing['doc_cpu_s'] / ing['docs_s']:.2f} on {a['workers']} workers."),
        f"- Slowest documents: {', '.join(f'{f} {s} s' for s, f in ing['slowest'])}.",
        (f"- Peak RSS: parent {ing['self_mb']:.0f} MB, largest worker {ing['children_mb']:.0f}"
        " MB."),
    ]
    if r.get("profile"):
        lines += ["", ("Where a worker's time goes (cProfile of `pipeline._process_entry`, what a worker "
                  "does per document, over the 5 bundled texts, warm, cumulative seconds; "
                  "`_links_of` is alignment, `_harmonise_topics` topics):"), "", "```", r["profile"], "```"]
    for eng, c in cold.items():
        if c.get("top_imports_ms"):
            lines += ["", f"Cold `treaty search` ({eng}) largest imports (ms, -X importtime): "
                      + ", ".join(f"{n} {ms}" for ms, n in c["top_imports_ms"][:6])]
    lines += ["", "## Notes", "", *notes(r, ing_mbs, peak_ingest), *r.get("notes", []), ""]
    return "\n".join(lines)


def _alt_rows(r: dict, ing_mbs: float) -> list[str]:
    """Rows of the ingest under `--also-python`, measured in the same run."""
    alt = r["ingest_alt"]
    alt_mbs = r["ingest_mb"] / alt["total_s"]
    return [(f"| ingest throughput, same corpus and run, under "
             f"{describe_interpreter(alt['interpreter'])} | {alt_mbs:.3f} MB/s "
             f"({alt['total_s']} s; {alt_mbs / ing_mbs:.2f}× the above) | – | – | | |")]


def notes(r: dict, ing_mbs: float, peak_ingest: float) -> list[str]:
    """What the figures mean, what dominates, and what would fix a missed target."""
    ing = r["ingest"]
    per_core = r["ingest_mb"] / ing["doc_cpu_s"]
    t = r["engines"].get("tantivy")
    met = ing_mbs >= TARGETS["ingest_mbs"]
    build = f"{t['build']['build_s']:.0f} s" if t else "–"
    out = [
        ((f"- Ingest meets the target: {ing_mbs:.3f} MB/s" if met else
          f"- **Ingest is the missed target**: {ing_mbs:.3f} MB/s, about "
          f"{1 / ing_mbs:.1f}× short of 1 MB/s")
         + f" on {r['args']['workers']} workers (one worker does {per_core * 1000:.0f} KB/s "
        f"of documents; the pool's speed-up is {ing['doc_cpu_s'] / ing['docs_s']:.2f}). The "
        "time is spread over the per-document stages of the profile above: alignment of the "
        "language versions (three pairs for a trilingual text, two passes each), "
        "segmentation (topic scores while recovering lost article boundaries), OCR repair, "
        "cleaning and language identification; the index build follows the documents "
        f"(tantivy build alone: {build}). The bundled texts are the hard cases: the 1965 "
        "OCR'd trilingual text is 42 % of the bytes and costs the most per byte."),
        (f"- Memory: each ingest worker peaks near {ing['children_mb']:.0f} MB (the lexicons "
        "of en/pt/sv and their SymSpell indexes, loaded per process). The parent writes each "
        "document and its alignment links to the new store as they arrive, so it does not "
        f"hold the corpus ({ing['self_mb']:.0f} MB peak for {r['ingest_mb']:.1f} MB here)."),
    ]
    if r.get("ingest_alt"):
        alt = r["ingest_alt"]
        alt_mbs = r["ingest_mb"] / alt["total_s"]
        out.append(
            f"- The interpreter: the same ingest under "
            f"{describe_interpreter(alt['interpreter'])} took {alt['total_s']} s "
            f"({alt_mbs:.3f} MB/s, {alt_mbs / ing_mbs:.2f}× this run's), in the same run "
            f"(documents after {alt['docs_s']} s, their CPU {alt['doc_cpu_s']} s against "
            f"{ing['doc_cpu_s']} s here). The ingest is CPU-bound Python, so how CPython was "
            "built (profile-guided optimisation, LTO, libpython linked in or shared) moves it "
            "as much as any change left in the code; the store and index are the same under "
            "both.")
    if t and t["query"]["cite"]["p95"] > TARGETS["cite_p95"]:
        out.append(
            f"- Citation lookup ({t['query']['cite']['p95']} ms p95 at "
            f"{r['corpus_mb']:.0f} MB, {r['documents']} treaties) is dominated by "
            "`search.cite._refs`, which reads and JSON-decodes every treaty row of the store on "
            "each lookup (about 90 % of the time in a profile); caching the treaty references "
            "per open corpus (the store is read-only) or looking a written treaty id up "
            "directly would make it independent of corpus size.")
    if t and t["query"]["full"]["p95"] > TARGETS["p95"]:
        out.append(
            f"- tantivy answers the compiled query in {t['query']['engine']['p95']} ms p95; "
            f"the full search's p95 ({t['query']['full']['p95']} ms) adds our Python layer: "
            "snippets (re-analysing each hit's text), did-you-mean and per-language "
            "compilation; phrases and fuzzy queries are the slowest categories.")
    if t and t["query"].get("grouped"):
        g = t["query"]["grouped"]
        out.append(
            f"- `treaty search` and the web app go through `search.results`: {g['p50']} ms p50 "
            f"and {g['p95']} ms p95 at {r['corpus_mb']:.0f} MB. It ranks a page of article "
            "groups from the top paragraph hits only (4000 at first), reading each hit's "
            "article group from a fast field: the page is final once no article below it "
            "could outscore it (a bound from the last hit's score), else it fetches four "
            "times as many, at worst every match (queries whose scores are flat over "
            "thousands of hits, as in this corpus, whose copies repeat every paragraph, pay "
            "for that); the number of articles comes from a terms aggregation on the same "
            "field (its result holds one bucket per matching article, about 1 µs each: "
            "most of the time of queries matching 10k+ articles), and only the page's "
            "paragraphs are loaded and decoded. The result is exactly the one of grouping "
            "every match.")
    if t:
        out.append(
            f"- The tantivy index build ({t['build']['build_s']:.0f} s for "
            f"{r['corpus_mb']:.0f} MB) analyses the documents (`indexer.index.analysis`: Snowball + "
            f"folding, jieba + t2s) in {t['build'].get('workers', 1)} worker processes while "
            "the parent feeds the writer in document order (one tantivy indexing thread, so "
            "the index is the same as a sequential build's); the parent's share (building "
            "tantivy documents from the tokens, unpickling the rows) and tantivy's own "
            "indexing are what the workers cannot take over.")
    out += [
        ("- Query latency is warm (one warm-up run of every query, then round-robin rounds). "
        "\"Full search\" is `indexer.index.Searcher.search`, the top 10 paragraphs (parsing, "
        "compiling per language — each query word's analysis is cached, so a warm mix "
        "reuses it — engine, snippets from our offsets, did-you-mean); "
        "\"engine only\" is the compiled query on the engine, which is what the FTS5 "
        "baseline is compared with: an FTS5 table of the same paragraphs holding the same "
        "analysed terms (space-joined, unicode61 with every term character kept), the same "
        "fields and boosts, the same compiled query as an FTS5 MATCH, top 10 by bm25 plus the "
        "count. FTS5 has no fuzzy search, so its mix leaves the fuzzy queries out (the hit "
        "counts of every other query agree with the engines')."),
        ("- The scaled corpus repeats the same paragraphs, so the vocabulary does not grow "
        "with size, only posting lists do; a real 100 MB corpus has a larger vocabulary, "
        "which makes fuzzy and prefix queries (which expand over the vocabulary) slower "
        "than measured here."),
    ]
    return out


def profile_process() -> str:
    """cProfile of the pipeline's `process` over the bundled texts (one process), grouped by
    stage."""
    code = r"""
import cProfile, pstats, io, sys
sys.path.insert(0, ROOT_DIR)
from pathlib import Path
from indexer.sources import manifest
from indexer.pipeline.entries import _process_entry
from indexer.pipeline.run import _alone
entries = manifest.load(Path(BUNDLED_DIR))
alone = _alone(entries)
def run():
    for e in entries:
        _process_entry(Path(BUNDLED_DIR), e, None, e.file in alone)
run()
pr = cProfile.Profile(); pr.enable(); run(); pr.disable()
st = pstats.Stats(pr)
tot = sum(v[3] for k, v in st.stats.items() if k[2] == '_process_entry')
rows = []
for (f, line, fn), v in st.stats.items():
    if '/indexer/' in f and fn in ('clean', 'split', 'normalise_line', 'segment', 'guess',
                                   'read_file', '_with_changes', '_other_units',
                                   '_harmonise_topics', '_links_of'):
        rows.append((v[3], f.split('/indexer/')[1] + ':' + fn))
rows.sort(reverse=True)
print(f'a worker\'s work per document (_process_entry) total {tot:.2f} s')
for s, n in rows:
    print(f'{s:6.2f} s  {100 * s / tot:4.0f} %  {n}')
""".replace("ROOT_DIR", repr(str(ROOT))).replace("BUNDLED_DIR", repr(str(BUNDLED)))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       check=False, cwd=ROOT)
    return r.stdout.strip() or r.stderr.strip()[-500:]


def write_out(out: Path, text: str, real: Sequence[str] = ()) -> None:
    """Write the rendered results to `out`, keeping its real-corpus section (replaced when
    this run measured one) and its hand-written notes (scripts/bench_ingest.py)."""
    import bench_ingest

    old = out.read_text("utf-8") if out.exists() else ""
    text = text.rstrip() + "\n\n" + bench_ingest.kept_parts(old)
    if real:
        text = bench_ingest.with_section(
            text, "## Ingest of real corpora, cold and warm cache\n\n" + "\n".join(real))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, "utf-8")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size-mb", type=float, default=100.0, help="Scaled corpus size.")
    p.add_argument("--ingest-mb", type=float, default=None,
                   help="Ingest this much through the pipeline (default: all of --size-mb); "
                   "the rest of the store is cloned.")
    p.add_argument("--engines", default="whoosh,tantivy")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    p.add_argument("--queries", type=int, default=20, help="Timed rounds over the query mix.")
    p.add_argument("--whoosh-sizes", default="5,10,25,50",
                   help="Corpus sizes (MB) at which to build and time Whoosh as well.")
    p.add_argument("--whoosh-budget-min", type=float, default=15.0,
                   help="Total Whoosh build time allowed; larger builds are skipped.")
    p.add_argument("--keep", type=Path, default=None, help="Work in (and keep) this folder.")
    p.add_argument("--also-python", default=None, metavar="PYTHON",
                   help="Also time the ingest under this interpreter (an environment with "
                        "the project's dependencies), in the same run: its MB/s and ratio.")
    p.add_argument("--corpus", type=Path, action="append", default=[],
                   help="Also time the ingest of this real corpus folder (repeat to ingest "
                        "several together), per engine, cold and warm cache "
                        "(scripts/bench_ingest.py).")
    p.add_argument("--baseline", type=Path, default=None,
                   help="With --corpus: time another checkout the same way, interleaved.")
    p.add_argument("--render", type=Path, default=None,
                   help="Only rewrite --out from a kept run's bench.json.")
    p.add_argument("--phase", help=argparse.SUPPRESS)
    p.add_argument("--phase-args", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.render:
        write_out(args.out, render(json.loads(args.render.read_text("utf-8"))))
        return
    if args.phase:
        print(json.dumps(PHASES[args.phase](json.loads(args.phase_args)), ensure_ascii=False))
        return

    started = time.time()
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    work = args.keep or Path(tempfile.mkdtemp(prefix="treaty-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    log_file = (work / "bench.log").open("a", encoding="utf-8")

    def log(msg: str) -> None:
        print(msg, flush=True)
        log_file.write(msg + "\n")
        log_file.flush()

    r: dict = {"machine": machine(), "args": {"workers": args.workers},
               "command": " ".join([sys.executable, Path(sys.argv[0]).as_posix(), *sys.argv[1:]]),
               "date": time.strftime("%Y-%m-%d %H:%M"), "engines": {}, "notes": []}
    log(json.dumps(r["machine"]))
    bundle = sum((BUNDLED / f).stat().st_size for f in os.listdir(BUNDLED)
                 if f.endswith(".txt"))
    copies = max(1, math.ceil(args.size_mb * MB / bundle))
    ingest_copies = min(copies, max(1, math.ceil((args.ingest_mb or args.size_mb) * MB
                                                 / bundle)))
    # 1. corpus
    corpus = work / "corpus"
    per_copy, size = make_corpus(corpus, copies)
    ingest_dir = work / "corpus-ingest"
    if ingest_dir.exists():
        shutil.rmtree(ingest_dir)
    ingest_dir.mkdir()
    for entries in per_copy[:ingest_copies]:
        for e in entries:
            # a copy, not a link: ingest reads only files inside the corpus folder
            shutil.copyfile(corpus / e["file"], ingest_dir / e["file"])
    write_manifest(ingest_dir, per_copy[:ingest_copies])
    r.update(corpus_mb=size / MB, copies=copies, documents=copies * 5,
             ingest_mb=ingest_copies * bundle / MB, ingest_docs=ingest_copies * 5)
    log(f"corpus: {copies} copies, {size / MB:.1f} MB; ingesting {ingest_copies} copies")
    # 2. ingest
    data = work / "data"
    shutil.rmtree(data, ignore_errors=True)
    r["ingest"] = run_phase("ingest", {"corpus": str(ingest_dir), "data": str(data),
                                       "workers": args.workers}, log)
    if args.also_python:  # the same ingest under another interpreter, for its ratio
        alt_data = work / "data-also-python"
        shutil.rmtree(alt_data, ignore_errors=True)
        r["ingest_alt"] = run_phase("ingest", {"corpus": str(ingest_dir),
                                               "data": str(alt_data),
                                               "workers": args.workers}, log, args.also_python)
        r["ingest_alt"]["interpreter"] = interpreter(args.also_python)
        shutil.rmtree(alt_data, ignore_errors=True)
    if r["ingest"]["failed"]:
        r["notes"].append(f"Failed documents: {r['ingest']['failed'][:5]}")
    from indexer.store import store_path

    store_file = store_path(data)
    r["clone_check"] = "not needed"
    if ingest_copies < copies:
        t0 = time.perf_counter()
        if ingest_copies >= 2:  # check: clone copy 0 as copy 1 and compare with its ingest
            tmp = work / "clone-check.sqlite"
            shutil.copyfile(store_file, tmp)
            fake = [dict(e, treaty="check-" + e["treaty"], file="check-" + e["file"])
                    for e in per_copy[1]]
            clone_copies(tmp, per_copy[0], [fake])
            same = all(store_rows(tmp, f["treaty"]) == store_rows(store_file, e["treaty"])
                       for f, e in zip(fake, per_copy[1]))
            r["clone_check"] = "identical" if same else "DIFFERENT"
            tmp.unlink()
        clone_copies(store_file, per_copy[0], per_copy[ingest_copies:])
        log(f"cloned {copies - ingest_copies} copies in {time.perf_counter() - t0:.1f} s "
            f"(check: {r['clone_check']})")
    (data / "bench-copies.json").write_text(json.dumps(per_copy), "utf-8")
    r["store_mb"] = store_file.stat().st_size / MB
    with closing(sqlite3.connect(store_file)) as db:
        r["index_docs"] = db.execute(
            "SELECT COUNT(*) FROM units u WHERE depth = 1 OR (depth = 0 AND NOT EXISTS "
            "(SELECT 1 FROM units c WHERE c.treaty = u.treaty AND c.lang = u.lang "
            "AND c.top = u.eid AND c.depth = 1))").fetchone()[0]
    copy_id = per_copy[-1][0]["treaty"]
    # 3-5. engines at full size
    for eng in engines:
        if eng == "whoosh":
            continue  # below, with the scaling runs
        res: dict = {}
        res["build"] = run_phase("build", {"data": str(data), "index": str(work / f"ix-{eng}"),
                                           "engine": eng}, log)
        res["query"] = run_phase("query", {"data": str(data), "index": str(work / f"ix-{eng}"),
                                           "rounds": args.queries, "copy_id": copy_id}, log)
        r["engines"][eng] = res
    meta = next((work / f"ix-{e}").glob("g-*/index.json") for e in engines if e != "whoosh")
    meta_path = next(meta, None)
    if meta_path is not None:
        r["fts5"] = run_phase("fts5", {"data": str(data), "path": str(work / "fts5.sqlite"),
                                       "index_meta": str(meta_path), "rounds": args.queries},
                              log)
    # 6. Whoosh at several sizes, within a build-time budget
    if "whoosh" in engines:
        sizes = sorted({float(s) for s in args.whoosh_sizes.split(",") if s.strip()}
                       | {args.size_mb})
        budget = args.whoosh_budget_min * 60
        spent, rate = 0.0, None
        scaling = []
        for mb in sizes:
            if mb > args.size_mb:
                continue
            n = min(copies, max(1, math.ceil(mb * MB / bundle)))
            real_mb = n * bundle / MB
            if rate is not None and spent + rate * real_mb > budget:
                scaling.append({"mb": real_mb, "skipped": f"predicted build "
                                f"{rate * real_mb / 60:.0f} min exceeds the budget left"})
                continue
            ix = work / f"ix-whoosh-{n}"
            b = run_phase("build", {"data": str(data), "index": str(ix), "engine": "whoosh",
                                    "copies": n}, log)
            spent += b["build_s"]
            rate = b["build_s"] / real_mb
            q = run_phase("query", {"data": str(data), "index": str(ix),
                                    "rounds": max(3, args.queries // (2 if n < copies else 1)),
                                    "copy_id": per_copy[n - 1][0]["treaty"]}, log)
            scaling.append({"mb": real_mb, "build": b, "query": q})
            if n == copies:
                r["engines"]["whoosh"] = {"build": b, "query": q}
            shutil.rmtree(ix, ignore_errors=True)
        r["whoosh_scaling"] = scaling
        done = [s for s in scaling if not s.get("skipped")]
        ok = [s["mb"] for s in done if s["query"]["full"]["p95"] <= 50]
        ok_nf = [s["mb"] for s in done if s["query"]["full"]["p95_no_fuzzy"] <= 50]
        note = (f"Whoosh answers p95 ≤ 50 ms (full search) up to the largest size measured "
                f"with it, {max(ok):.0f} MB." if ok and max(ok) == done[-1]["mb"] else
                f"Whoosh answers p95 ≤ 50 ms up to {max(ok):.0f} MB of the sizes measured."
                if ok else "Whoosh's p95 exceeds 50 ms at every size measured.")
        note += (f" Without the fuzzy queries (Whoosh expands a fuzzy term in Python), its "
                 f"p95 is ≤ 50 ms up to {max(ok_nf):.0f} MB of the sizes measured." if ok_nf
                 else " Even without the fuzzy queries its p95 exceeds 50 ms at every size.")
        if len(done) >= 2:
            (x0, y0), (x1, y1) = [(s["mb"], s["query"]["full"]["p95"]) for s in done[-2:]]
            slope = (y1 - y0) / (x1 - x0) if x1 != x0 else 0
            if slope > 0 and y1 < 50:
                note += (f" Extrapolating linearly from the last two sizes, p95 reaches 50 ms "
                         f"near {x1 + (50 - y1) / slope:.0f} MB (an extrapolation, not a "
                         "measurement).")
            if done[-1]["mb"] < size / MB:
                note += (f" Its build at {size / MB:.0f} MB was not run: at the measured "
                         f"{done[-1]['build']['build_s'] / done[-1]['mb']:.1f} s/MB it would "
                         f"take about {done[-1]['build']['build_s'] / done[-1]['mb'] * size / MB / 60:.0f}"
                         " min (the budget is "
                         f"{args.whoosh_budget_min:.0f} min).")
        r["whoosh_note"] = note
    # 7. cold search on the bundled corpus
    r["cold"] = {}
    bdata = work / "bundled"
    from indexer.store import store_path

    if not store_path(bdata).exists():
        from indexer.pipeline import ingest

        ingest(BUNDLED, bdata, engine="whoosh")
    for eng in engines:
        d = work / f"bundled-{eng}"
        d.mkdir(exist_ok=True)
        shutil.copyfile(store_path(bdata), d / "corpus.sqlite")
        if not (d / "index" / "CURRENT").exists():
            from indexer.index import build_index, index_docs

            build_index(index_docs(d), d / "index", engine=eng)
        r["cold"][eng] = cold_search(d, eng, log)
        log(f"cold {eng}: {r['cold'][eng]}")
    # 8. where ingest time goes
    r["profile"] = profile_process()
    log(r["profile"])
    # 9. real corpora, cold and warm cache
    real = []
    if args.corpus:
        import bench_ingest

        codes = {"baseline": args.baseline.resolve()} if args.baseline else {}
        codes["this checkout"] = ROOT
        real = bench_ingest.real_corpora(args.corpus, codes, engines, 2, args.workers, log)
    r["run_min"] = (time.time() - started) / 60
    (work / "bench.json").write_text(json.dumps(r, indent=1, ensure_ascii=False), "utf-8")
    write_out(args.out, render(r), real)
    log(f"wrote {args.out} (raw results: {work / 'bench.json'})")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
