"""The measured phases of the scale benchmark, each run in a fresh process of its own (so that
the peak memory reported for a phase is its own): ingest, index build, queries (full search,
engine only, `treaty search`'s grouped page, citations) and the FTS5 baseline (fts5.py).

    python -m bench.phases PHASE JSON-ARGS     # (with ROOT and scripts/ on PYTHONPATH)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.common import ROOT, dir_mb, peak_mb
from bench.mix import CITATIONS, MIX, interleaved, label, p50_p95, summary


def run_phase(phase: str, args: dict, log: Callable[[str], None],
              python: str | None = None) -> dict:
    """Run `phase` in a fresh process (of the interpreter `python`, default this one); its
    JSON result."""
    log(f"[{time.strftime('%H:%M:%S')}] phase {phase} {json.dumps(args, ensure_ascii=False)}"
        + (f" under {python}" if python else ""))
    t0 = time.perf_counter()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "scripts")]))
    out = subprocess.run(
        [python or sys.executable, "-m", "bench.phases", phase, json.dumps(args)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        raise SystemExit(f"phase {phase} failed (exit {out.returncode})")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    log(f"    done in {time.perf_counter() - t0:.1f} s: "
        + json.dumps({k: v for k, v in result.items() if not isinstance(v, (dict, list))}))
    return result


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
    backend = searcher.backend  # type: ignore[attr-defined]
    return lambda: backend.search(ftree, fl, 10)


def phase_query(a: dict) -> dict:
    from indexer.index import open_index
    from search.citations import cite
    from search.corpus import Corpus
    from search.results import SearchSession

    t0 = time.perf_counter()
    searcher = open_index(Path(a["index"]))
    open_s = time.perf_counter() - t0
    rounds = a["rounds"]
    totals = {}
    full, engine = [], []
    for cat, q, filters in MIX:
        full.append((cat, lambda q=q, f=filters: searcher.search(q, **f)))
        engine.append((cat, _engine_call(searcher, q, filters)))
        totals[label(q, filters)] = searcher.search(q, **filters).total
    out = {"open_s": round(open_s, 3), "full": summary(interleaved(full, rounds)),
           "engine": summary(interleaved(engine, rounds)), "totals": totals}
    with SearchSession(Path(a["data"]), Path(a["index"])) as session:
        grouped = [(cat, lambda q=q, f=filters: session.search(q, **f)) for cat, q, filters in MIX]
        out["grouped"] = summary(interleaved(grouped, max(3, rounds // 3)))
    with Corpus(Path(a["data"])) as corpus:
        cites = []
        for text in CITATIONS:
            t = text.format(copy=a["copy_id"])
            cites.append((text, lambda t=t: cite(corpus, t)))
        samples = interleaved(cites, rounds)
    every = [x for v in samples.values() for x in v]
    out["cite"] = {**p50_p95(every),
                   "by_citation": {k: p50_p95(v)["p95"] for k, v in samples.items()}}
    searcher.close()
    out.update(peak_mb())
    return out


def phases() -> dict[str, Callable[[dict], dict]]:
    from bench.fts5 import phase_fts5

    return {"ingest": phase_ingest, "build": phase_build, "query": phase_query,
            "fts5": phase_fts5}


if __name__ == "__main__":
    _name, phase, args = sys.argv
    print(json.dumps(phases()[phase](json.loads(args)), ensure_ascii=False))
