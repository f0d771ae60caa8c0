"""Performance benchmark: ingest throughput, index size, peak memory and query latency on a
scaled copy of the bundled corpus, against an SQLite FTS5 baseline measured in the same run.

    python scripts/bench scale                    # 100 MB, both engines -> docs/benchmarks.md
    python scripts/bench scale --size-mb 5 --queries 5 --out /tmp/bench.md   # a quick look
    python scripts/bench scale --corpus ../shared/corpus-wild --corpus ../shared/corpus-extra

The scaled corpus is made of copies of the bundled texts, each copy of a file under its own
treaty id (a pair of real ISO 3166 codes and the original year); copy 0 keeps the original
ids, so the bundled citations ("Brazil–Peru Art. 10(2)(a)") still resolve to one treaty.

Ingest runs the real pipeline (`indexer.pipeline.ingest`, `--workers` processes) on the first
`--ingest-mb` of the corpus. When that is less than `--size-mb`, the store is completed by
cloning the ingested copies' rows under the remaining treaty ids: the pipeline is
deterministic and every copy of a file is the same text, so the rows are those an ingest of
the copy would write (the command checks one clone against a real ingest of the same copy).

Every measured phase runs in its own process (bench/phases.py), so the peak memory
reported for a phase (ru_maxrss of the process, and of its worker processes) is its own.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench import clone, ingest, report, startup
from bench.common import BUNDLED, MB, ROOT, interpreter, machine
from bench.corpus import bundled_bytes, make_corpus, write_manifest
from bench.phases import run_phase

Log = Callable[[str], None]


def add_arguments(p: argparse.ArgumentParser) -> None:
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
                        "(as the ingest command does).")
    p.add_argument("--baseline", type=Path, default=None,
                   help="With --corpus: time another checkout the same way, interleaved.")
    p.add_argument("--render", type=Path, default=None,
                   help="Only rewrite --out from a kept run's bench.json.")


def run(args: argparse.Namespace) -> None:
    if args.render:
        report.write_out(args.out, report.render(json.loads(args.render.read_text("utf-8"))))
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
    per_copy, ingest_dir = _corpora(work, args, r, log)
    data = work / "data"
    _ingest(work, ingest_dir, data, args, r, log)
    _fill_store(work, data, per_copy, r, log)
    _engines(work, data, engines, args.queries, per_copy[-1][0]["treaty"], r, log)
    if "whoosh" in engines:
        _whoosh_scaling(work, data, per_copy, args, r, log)
    r["cold"] = _cold(work, engines, log)
    r["profile"] = startup.profile_process()  # where ingest time goes
    log(r["profile"])
    real = []
    if args.corpus:  # real corpora, cold and warm cache
        codes = {"baseline": args.baseline.resolve()} if args.baseline else {}
        codes["this checkout"] = ROOT
        real = ingest.real_corpora(args.corpus, codes, engines, 2, args.workers, log)
    r["run_min"] = (time.time() - started) / 60
    (work / "bench.json").write_text(json.dumps(r, indent=1, ensure_ascii=False), "utf-8")
    report.write_out(args.out, report.render(r), real)
    log(f"wrote {args.out} (raw results: {work / 'bench.json'})")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


def _corpora(work: Path, args: argparse.Namespace, r: dict, log: Log
             ) -> tuple[list[list[dict]], Path]:
    """The scaled corpus, and the folder of the copies ingested through the pipeline."""
    bundle = bundled_bytes()
    copies = max(1, math.ceil(args.size_mb * MB / bundle))
    ingest_copies = min(copies, max(1, math.ceil((args.ingest_mb or args.size_mb) * MB
                                                 / bundle)))
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
    return per_copy, ingest_dir


def _ingest(work: Path, corpus: Path, data: Path, args: argparse.Namespace, r: dict,
            log: Log) -> None:
    """The ingest, and the same under `--also-python` for its ratio."""
    shutil.rmtree(data, ignore_errors=True)
    r["ingest"] = run_phase("ingest", {"corpus": str(corpus), "data": str(data),
                                       "workers": args.workers}, log)
    if args.also_python:
        alt_data = work / "data-also-python"
        shutil.rmtree(alt_data, ignore_errors=True)
        r["ingest_alt"] = run_phase("ingest", {"corpus": str(corpus), "data": str(alt_data),
                                               "workers": args.workers}, log, args.also_python)
        r["ingest_alt"]["interpreter"] = interpreter(args.also_python)
        shutil.rmtree(alt_data, ignore_errors=True)
    if r["ingest"]["failed"]:
        r["notes"].append(f"Failed documents: {r['ingest']['failed'][:5]}")


def _fill_store(work: Path, data: Path, per_copy: list[list[dict]], r: dict, log: Log) -> None:
    """The copies not ingested, cloned into the store (one clone checked first)."""
    from indexer.store import store_path

    store_file = store_path(data)
    copies, ingest_copies = r["copies"], r["ingest_docs"] // 5
    r["clone_check"] = "not needed"
    if ingest_copies < copies:
        t0 = time.perf_counter()
        if ingest_copies >= 2:
            r["clone_check"] = clone.check_clone(store_file, per_copy,
                                                 work / "clone-check.sqlite")
        clone.clone_copies(store_file, per_copy[0], per_copy[ingest_copies:])
        log(f"cloned {copies - ingest_copies} copies in {time.perf_counter() - t0:.1f} s "
            f"(check: {r['clone_check']})")
    (data / "bench-copies.json").write_text(json.dumps(per_copy), "utf-8")
    r["store_mb"] = store_file.stat().st_size / MB
    r["index_docs"] = clone.indexed_paragraphs(store_file)


def _engines(work: Path, data: Path, engines: list[str], rounds: int, copy_id: str, r: dict,
             log: Log) -> None:
    """Build and query each engine but Whoosh at full size, then the FTS5 baseline."""
    for eng in engines:
        if eng == "whoosh":
            continue  # with the scaling runs
        ix = str(work / f"ix-{eng}")
        r["engines"][eng] = {
            "build": run_phase("build", {"data": str(data), "index": ix, "engine": eng}, log),
            "query": run_phase("query", {"data": str(data), "index": ix, "rounds": rounds,
                                         "copy_id": copy_id}, log)}
    meta = next((work / f"ix-{e}").glob("g-*/index.json") for e in engines if e != "whoosh")
    meta_path = next(meta, None)
    if meta_path is not None:
        r["fts5"] = run_phase("fts5", {"data": str(data), "path": str(work / "fts5.sqlite"),
                                       "index_meta": str(meta_path), "rounds": rounds}, log)


def _whoosh_scaling(work: Path, data: Path, per_copy: list[list[dict]],
                    args: argparse.Namespace, r: dict, log: Log) -> None:
    """Whoosh at several sizes, within a build-time budget."""
    bundle, copies = bundled_bytes(), r["copies"]
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
    r["whoosh_note"] = _whoosh_note(scaling, r["corpus_mb"], args.whoosh_budget_min)


def _whoosh_note(scaling: list[dict], size_mb: float, budget_min: float) -> str:
    """Up to which size Whoosh answers p95 ≤ 50 ms, measured and extrapolated."""
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
        if done[-1]["mb"] < size_mb:
            per_mb = done[-1]["build"]["build_s"] / done[-1]["mb"]
            note += (f" Its build at {size_mb:.0f} MB was not run: at the measured "
                     f"{per_mb:.1f} s/MB it would take about {per_mb * size_mb / 60:.0f}"
                     f" min (the budget is {budget_min:.0f} min).")
    return note


def _cold(work: Path, engines: list[str], log: Log) -> dict:
    """A cold `treaty search` on the bundled corpus, per engine."""
    from indexer.index import build_index, index_docs
    from indexer.pipeline import ingest as ingest_corpus
    from indexer.store import store_path

    out = {}
    bdata = work / "bundled"
    if not store_path(bdata).exists():
        ingest_corpus(BUNDLED, bdata, engine="whoosh")
    for eng in engines:
        d = work / f"bundled-{eng}"
        d.mkdir(exist_ok=True)
        shutil.copyfile(store_path(bdata), d / "corpus.sqlite")
        if not (d / "index" / "CURRENT").exists():
            build_index(index_docs(d), d / "index", engine=eng)
        out[eng] = startup.cold_search(d, eng, log)
        log(f"cold {eng}: {out[eng]}")
    return out
