"""Ingest time of real corpora and of scaled copies of the bundled one, per engine, with a
cold and a warm machine cache, for this checkout and optionally another one run in the same
session (interleaved, same interpreter), so that a change is judged by a ratio, not by this
machine's mood.

    python scripts/bench_ingest.py --corpus ../shared/corpus-wild --corpus ../shared/corpus-extra
    python scripts/bench_ingest.py --corpus ../shared/corpus-wild --baseline ../old-checkout
    python scripts/bench_ingest.py --scaled-mb 100 --engines tantivy --baseline ../old-checkout

Every ingest runs in a fresh process (`treaty ingest` as a library call, `force=True`) whose
imports come from the checkout measured, with its own data directory and a cache directory
(`$TREATY_CACHE`; an older checkout that kept its caches in the data directory gets the same
treatment through `$TREATY_DATA`). Cold: an empty cache and data directory, so the word
tables, lexicons and model sidecars are built; warm: the same directories again, everything
re-processed. `scripts/bench.py --corpus DIR` runs the real-corpus table as part of the full benchmark.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MB = 1_000_000

#: What a measured process runs: one ingest, its own wall time and outcome as JSON.
_INGEST = """
import json, sys, time
t = time.perf_counter()
from indexer.pipeline import ingest
workers = int(sys.argv[4]) or None
report = ingest(sys.argv[1], sys.argv[2], engine=sys.argv[3], force=True, workers=workers)
print(json.dumps({"seconds": time.perf_counter() - t, "documents": len(report.documents),
                  "failed": [d.error for d in report.documents if d.error]}))
"""


@dataclass
class Series:
    """The timings of one (corpus, engine, checkout)."""

    cold: list[float] = field(default_factory=list)
    warm: list[float] = field(default_factory=list)
    warm_cpu: list[float] = field(default_factory=list)  # CPU s of the process and its workers
    documents: int = 0
    failed: list[str] = field(default_factory=list)


def ingest_once(code: Path, corpus: Path, work: Path, engine: str, workers: int) -> dict:
    """One ingest of `corpus` by the checkout `code`, its cache and data under `work`."""
    env = dict(os.environ, PYTHONPATH=str(code), TREATY_CACHE=str(work / "cache"),
               TREATY_DATA=str(work / "data"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", _INGEST, str(corpus), str(work / "data"), engine, str(workers)],
        cwd=code, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"ingest by {code} failed:\n{done.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    got = json.loads(done.stdout.strip().splitlines()[-1])
    # (the workers are waited for by the time the process exits, so their time is counted)
    got["cpu"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return got


def combined_corpus(folders: list[Path], into: Path) -> Path:
    """One corpus folder holding a copy of each of `folders` (their text files) in a sub-folder
    of its own."""
    for folder in folders:
        if not folder.is_dir():
            raise SystemExit(f"{folder}: no such corpus folder")
        shutil.copytree(folder, into / folder.name, ignore=shutil.ignore_patterns("*.md"))
    return into


def scaled_corpus(size_mb: float, into: Path) -> Path:
    """Copies of the bundled corpus, `size_mb` of text (scripts/bench.py's scaled corpus)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import bench

    bundled = sum(p.stat().st_size for p in bench.BUNDLED.glob("*.txt"))
    per_copy, _size = bench.make_corpus(into, max(1, math.ceil(size_mb * MB / bundled)))
    bench.write_manifest(into, per_copy)
    return into


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
        for name, code in (list(codes.items())[::-1] if k % 2 else codes.items()):
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


#: The part of docs/benchmarks.md this script writes, and the hand-written notes after it; a
#: run of scripts/bench.py (which writes the rest of the file) keeps both.
SECTION = ("<!-- bench_ingest: begin -->", "<!-- bench_ingest: end -->")
NOTES = "<!-- notes: kept when the benchmarks are rewritten -->"


def with_section(old: str, section: str) -> str:
    """`old` with its bench_ingest section replaced by `section` (appended when it has none)."""
    begin, end = SECTION
    block = f"{begin}\n{section.rstrip()}\n{end}\n"
    if begin in old and end in old:
        head, rest = old.split(begin, 1)
        return head + block + rest.split(end, 1)[1].lstrip("\n")
    if NOTES in old:
        head, notes = old.split(NOTES, 1)
        return head.rstrip() + "\n\n" + block + "\n" + NOTES + notes
    return old.rstrip() + ("\n\n" if old else "") + block


def kept_parts(old: str) -> str:
    """The bench_ingest section and the notes of an existing file, for a rewrite to keep."""
    begin, end = SECTION
    out = ""
    if begin in old and end in old:
        out += begin + old.split(begin, 1)[1].split(end, 1)[0] + end + "\n"
    if NOTES in old:
        out += "\n" + NOTES + old.split(NOTES, 1)[1]
    return out


def real_corpora(folders: list[Path], codes: dict[str, Path], engines: list[str], repeats: int,
                 workers: int, log=print) -> list[str]:
    """The markdown table of the ingest of `folders` together, per engine and checkout."""
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
        corpus = combined_corpus(folders, Path(tmp) / "real")
        results = {e: measure(corpus, codes, e, repeats, workers, Path(tmp) / "work", log)
                   for e in engines}
        return table(" + ".join(f.name for f in folders), text_mb(corpus), results)


def text_mb(corpus: Path) -> float:
    return sum(p.stat().st_size for p in corpus.rglob("*.txt")) / MB


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
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
    args = p.parse_args()
    if not args.corpus and not args.scaled_mb:
        p.error("give --corpus DIR and/or --scaled-mb N")
    codes = {"baseline": args.baseline.resolve()} if args.baseline else {}
    codes["this checkout"] = ROOT
    lines = [(f"Python {sys.version.split()[0]} ({sys.executable}), {args.workers} workers, "
              f"{os.cpu_count()} CPUs."), ""]
    engines = args.engines.split(",")
    if args.corpus:
        lines += real_corpora(args.corpus, codes, engines, args.repeats, args.workers)
    if args.scaled_mb:
        with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
            corpus = scaled_corpus(args.scaled_mb, Path(tmp) / "scaled")
            results = {e: measure(corpus, codes, e, args.repeats, args.workers,
                                  Path(tmp) / "work", print) for e in engines}
            lines += table("scaled copies of the bundled corpus", text_mb(corpus), results)
    report = "\n".join(lines)
    print(report)
    if args.out:
        old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        args.out.write_text(with_section(old, "## Ingest, this checkout against a baseline\n\n"
                                         + report), encoding="utf-8")


if __name__ == "__main__":
    main()
