"""The large-corpus figures of issue 28, for this checkout: a corpus of N MB made of copies of
the bundled texts and of the real ones (corpus-wild, corpus-extra), each copy's treaties made
distinct (their own ids in a manifest), ingested whole; then the same ingest with nothing
changed, one treaty added (`treaty add`'s ingest), cold searches and the web app on it.

    python scripts/bench large --size-mb 1000 --corpus ../shared/corpus-wild \\
        --corpus ../shared/corpus-extra --out docs/benchmarks.md

Peak memory is the largest sum of the resident sizes of the ingest's process tree (sampled
every 0.2 s). Timings only.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from bench import checkouts
from bench.common import ROOT, load_average, pct, write_section
from bench.corpus import manifest_entry, mixed_copies
from bench.speed import PAGES, web_args


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--size-mb", type=float, default=1000)
    p.add_argument("--corpus", type=Path, action="append", default=[])
    p.add_argument("--engine", default="tantivy")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--keep", type=Path, default=None, help="Work in (and keep) this folder.")
    p.add_argument("--out", type=Path, default=None)


def run(args: argparse.Namespace) -> None:
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="bench-scale-"))
    try:
        text = measure(tmp, args)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print(text)
    if args.out:
        write_section(args.out, "bench_scale", "## A large corpus (issue 28)\n\n" + text)


def measure(tmp: Path, args: argparse.Namespace) -> str:
    """The figures, measured in the folder `tmp`: the section's text."""
    corpus = tmp / "corpus"
    mb, extra = mixed_copies([c.resolve() for c in args.corpus], corpus, args.size_mb)
    data, work = tmp / "data", tmp
    print(f"corpus: {mb:.0f} MB in {corpus}")

    def ingest(force: bool) -> tuple[float, float, int]:
        return checkouts.watched_ingest(ROOT, work, corpus, data, args.engine, args.workers,
                                        force)

    wall, cpu, peak = ingest(True)
    print(f"ingest: {wall:.0f} s, {cpu:.0f} CPU s, peak {peak} MB")
    same, _c, _p = ingest(False)
    print(f"nothing changed: {same:.1f} s")
    (corpus / extra.name).write_bytes(extra.read_bytes())
    with (corpus / "manifest.toml").open("a", encoding="utf-8") as fh:
        fh.write(manifest_entry({"file": extra.name, "treaty": "added-br-pe-2006",
                                 "parties": ["BR", "PE"]}))
    add, _c, add_peak = ingest(False)
    print(f"one treaty added: {add:.1f} s (peak {add_peak} MB)")
    cold = {q: checkouts.cold_search(ROOT, work, data, q, 3)[0] for q in ("dividends", "股息")}
    print(f"cold search: {cold}")
    web, _cpu = checkouts.run(ROOT, work, web_args(data, 5))
    rows = [
        (f"| ingest, {args.engine}, {args.workers} workers | {wall / 60:.1f} min ({mb / wall:.2f} "
        f"MB/s, {cpu / mb:.2f} CPU s/MB) | ≤ 20 min |"),
        f"| peak memory of the ingest (process tree) | {peak} MB | ≤ 4096 MB |",
        f"| one treaty added (`treaty add`'s ingest) | {add:.1f} s | ≤ 10 s |",
        f"| ingest with nothing changed | {same:.1f} s | ≤ 5 s |",
        f"| cold `treaty search dividends` | {cold['dividends']:.2f} s | ≤ 0.3 s |",
        f"| cold `treaty search 股息` | {cold['股息']:.2f} s | ≤ 0.5 s |",
        (f"| `/api/search` p50 / p95 (mixed queries) | {statistics.median(web['api']):.1f} / "
        f"{pct(web['api'], 95):.1f} ms | p95 ≤ 20 ms (engine) |"),
        *(f"| {page} p95 | {pct(web[page], 95):.1f} ms | ≤ 100 ms |" for page in PAGES),
    ]
    return "\n".join([
        (f"Measured by `scripts/bench large --size-mb {args.size_mb:g}` on "
        f"{time.strftime('%Y-%m-%d %H:%M')}: {mb:.0f} MB of text (copies of the bundled and "
        f"real texts, treaties distinct), load average at the end {load_average()}."), "",
        "| measure | this checkout | target |", "| --- | --- | --- |", *rows])
