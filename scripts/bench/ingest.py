"""Ingest time of real corpora and of scaled copies of the bundled one, per engine, with a
cold and a warm machine cache, for this checkout and optionally another one run in the same
session (interleaved, same interpreter), so that a change is judged by a ratio, not by this
machine's mood.

    python scripts/bench ingest --corpus ../shared/corpus-wild --corpus ../shared/corpus-extra
    python scripts/bench ingest --corpus ../shared/corpus-wild --baseline ../old-checkout
    python scripts/bench ingest --scaled-mb 100 --engines tantivy --baseline ../old-checkout

Every ingest runs in a fresh process (`treaty ingest` as a library call, `force=True`) whose
imports come from the checkout measured, with its own data directory and a cache directory
(`$TREATY_CACHE`; an older checkout that kept its caches in the data directory gets the same
treatment through `$TREATY_DATA`). Cold: an empty cache and data directory, so the word
tables, lexicons and model sidecars are built; warm: the same directories again, everything
re-processed. `python scripts/bench scale --corpus DIR` runs the real-corpus table as part of
the full benchmark.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bench import checkouts
from bench.common import ROOT, text_mb, write_section
from bench.corpus import bundled_copies, combined_corpus


@dataclass
class Series:
    """The timings of one (corpus, engine, checkout)."""

    cold: list[float] = field(default_factory=list)
    warm: list[float] = field(default_factory=list)
    warm_cpu: list[float] = field(default_factory=list)  # CPU s of the process and its workers
    documents: int = 0
    failed: list[str] = field(default_factory=list)


def ingest_once(code: Path, corpus: Path, work: Path, engine: str, workers: int) -> dict:
    """One ingest of `corpus` by the checkout `code`, its cache and data under `work`: its
    outcome (seconds, documents, failed) and CPU seconds."""
    got, cpu = checkouts.run(code, work, checkouts.ingest_args(corpus, work / "data", engine,
                                                               workers, force=True))
    return {**got, "cpu": cpu}


def measure(corpus: Path, codes: dict[str, Path], engine: str, repeats: int, workers: int,
            scratch: Path, log) -> dict[str, Series]:
    """A cold ingest per checkout, then `repeats` warm rounds, the checkouts interleaved."""
    out = {name: Series() for name in codes}
    for name, code in codes.items():
        work = scratch / f"{engine}-{name}"
        shutil.rmtree(work, ignore_errors=True)
        got = ingest_once(code, corpus, work, engine, workers)
        out[name].cold.append(got["seconds"])
        out[name].documents, out[name].failed = got["documents"], got["failed"]
        log(f"  {engine} {name} cold: {got['seconds']:.1f} s")
    for k in range(repeats):
        for name, code in checkouts.interleaved(codes, k):
            got = ingest_once(code, corpus, scratch / f"{engine}-{name}", engine, workers)
            out[name].warm.append(got["seconds"])
            out[name].warm_cpu.append(got["cpu"])
            log(f"  {engine} {name} warm: {got['seconds']:.1f} s, {got['cpu']:.1f} CPU s")
    return out


def table(title: str, mb: float, results: dict[str, dict[str, Series]]) -> list[str]:
    """Markdown rows: per engine and checkout the cold and median warm time, throughput, the
    cold/warm ratio and the warm throughput against the first checkout's."""
    lines = [f"### {title} ({mb:.1f} MB of text)", "",
             ("| engine | checkout | documents (failed) | cold s | warm s (median of n) | "
              "warm MB/s | cold / warm | throughput vs baseline | warm CPU s | CPU vs baseline |"),
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for engine, by_code in results.items():
        base = base_cpu = None
        for name, s in by_code.items():
            warm = statistics.median(s.warm) if s.warm else s.cold[0]
            cpu = statistics.median(s.warm_cpu) if s.warm_cpu else math.nan
            base = base or warm
            base_cpu = base_cpu or cpu
            lines.append(
                f"| {engine} | {name} | {s.documents} ({len(s.failed)}) | {s.cold[0]:.1f} | "
                f"{warm:.1f} ({len(s.warm)}; {min(s.warm or [warm]):.1f}–"
                f"{max(s.warm or [warm]):.1f}) | {mb / warm:.2f} | {s.cold[0] / warm:.2f}× | "
                f"{base / warm:.2f}× | {cpu:.1f} | {cpu / base_cpu:.2f}× |")
    return lines + [""]


def real_corpora(folders: list[Path], codes: dict[str, Path], engines: list[str], repeats: int,
                 workers: int, log=print) -> list[str]:
    """The markdown table of the ingest of `folders` together, per engine and checkout."""
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
        corpus = combined_corpus(folders, Path(tmp) / "real")
        results = {e: measure(corpus, codes, e, repeats, workers, Path(tmp) / "work", log)
                   for e in engines}
        return table(" + ".join(f.name for f in folders), text_mb(corpus), results)


def scaled(size_mb: float, codes: dict[str, Path], engines: list[str], repeats: int,
           workers: int) -> list[str]:
    """The markdown table of the ingest of `size_mb` of copies of the bundled corpus."""
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
        corpus = bundled_copies(size_mb, Path(tmp) / "scaled")
        results = {e: measure(corpus, codes, e, repeats, workers, Path(tmp) / "work", print)
                   for e in engines}
        return table("scaled copies of the bundled corpus", text_mb(corpus), results)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--corpus", type=Path, action="append", default=[],
                   help="A real corpus folder (repeat: they are ingested together).")
    p.add_argument("--scaled-mb", type=float, default=0,
                   help="Also ingest this many MB of copies of the bundled corpus.")
    p.add_argument("--baseline", type=Path, default=None,
                   help="Another checkout to time the same way, interleaved (listed first).")
    p.add_argument("--engines", default="whoosh,tantivy")
    p.add_argument("--repeats", type=int, default=2, help="Warm rounds (default 2).")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", type=Path, default=None,
                   help="Also write the tables into this file's bench_ingest section "
                        "(e.g. docs/benchmarks.md; the rest of the file is kept).")


def run(args: argparse.Namespace) -> None:
    if not args.corpus and not args.scaled_mb:
        raise SystemExit("give --corpus DIR and/or --scaled-mb N")
    codes = {"baseline": args.baseline.resolve()} if args.baseline else {}
    codes["this checkout"] = ROOT
    lines = [(f"Python {sys.version.split()[0]} ({sys.executable}), {args.workers} workers, "
              f"{os.cpu_count()} CPUs."), ""]
    engines = args.engines.split(",")
    if args.corpus:
        lines += real_corpora(args.corpus, codes, engines, args.repeats, args.workers)
    if args.scaled_mb:
        lines += scaled(args.scaled_mb, codes, engines, args.repeats, args.workers)
    text = "\n".join(lines)
    print(text)
    if args.out:
        write_section(args.out, "bench_ingest",
                      "## Ingest, this checkout against a baseline\n\n" + text)
