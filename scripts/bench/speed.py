"""The speed figures of issue 28, for this checkout and baseline checkouts in one run (the
checkouts interleaved, each step a fresh process whose imports come from the checkout
measured, one interpreter), so that a change is judged by ratios, not by this machine's mood:

- ingest of real text (the .txt files of the corpora given; `--workers`, `--engine`): wall
  time, MB/s, CPU seconds (the process and its workers) and CPU per MB;
- the same ingest again with nothing changed (a declared copy of the corpus, so that files
  are reused where a checkout can), then with one treaty added (a bundled text, declared);
- a cold `treaty search` (a new process, compiled modules on disk) in English and in Chinese
  on the bundled corpus and on the real one;
- the web app on the bundled corpus and the real corpus together: `/api/search` over a mixed
  query set (p50, p95) and the home, topic and search pages (p95).

    python scripts/bench speed --corpus ../shared/corpus-wild --corpus ../shared/corpus-extra \\
        --baseline 6456788=/tmp/base --baseline 3eef3e6=/tmp/branch-point --repeats 3
    python scripts/bench speed ... --out docs/benchmarks.md   # also writes its section

Timings only: the outcomes are the tests' business (and `scripts/measure_*.py`'s).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench import checkouts
from bench.common import BUNDLED, ROOT, load_average, pct, text_mb, write_section
from bench.corpus import plus_one, text_corpus, web_corpus

#: A mixed query set: words, a phrase, boolean, prefix, a slip, a country, Swedish,
#: Portuguese and Chinese questions.
QUERIES = ("dividends", "beneficial owner", '"permanent establishment"', "royalties OR interest",
           "tax NOT capital", "pensions Sweden", "股息", "利息如何征税", "utdelning", "royalty*",
           "dividents", "tributação dos dividendos", "capital gains shares",
           "exchange of information", "teachers students", "Netherlands dividends")
PAGES = {"home": ("/",), "topic": ("/topic/dividends", "/topic/interest?lang=en"),
         "search page": ("/search?q=tax", "/search?q=beneficial+owner")}
#: The cold searches: (key, data directory, query).
COLD = (("en", "bundled", "dividends"), ("zh", "bundled", "股息"),
        ("en_real", "real", "dividends"), ("zh_real", "real", "股息"))


def web_args(data: Path, rounds: int) -> list[str]:
    """A process timing the web app on `data` (checkouts.WEB) with this set and these pages."""
    return ["-c", checkouts.WEB, str(data), json.dumps(QUERIES), json.dumps(PAGES), str(rounds)]


def measure(codes: dict[str, Path], folders: list[Path], engine: str, workers: int,
            repeats: int, scratch: Path, log) -> dict[str, dict]:
    real = text_corpus(folders, scratch / "real", declared=True)
    plus = plus_one(real, scratch / "plus")
    mb = text_mb(real)
    web = web_corpus(folders, scratch / "web")
    out: dict[str, dict] = {name: {"mb": mb, "wall": [], "cpu": [], "same": [], "add": [],
                                   "en": [], "zh": [], "en_real": [], "zh_real": [], "web": {}}
                            for name in codes}
    for name, code in codes.items():  # caches, the bundled and web data directories
        work = scratch / name
        checkouts.ingest(code, work, BUNDLED, work / "bundled", engine, workers, True)
        checkouts.ingest(code, work, web, work / "webdata", engine, workers, True)
        log(f"  {name}: ready")
    for k in range(repeats):
        for name, code in checkouts.interleaved(codes, k):
            _round(code, scratch / name, real, plus, engine, workers, out[name])
            r = out[name]
            log(f"  {name} round {k + 1}: ingest {r['wall'][-1]:.1f} s ({r['cpu'][-1]:.1f} "
                f"CPU s), unchanged {r['same'][-1]:.1f} s, one added {r['add'][-1]:.1f} s, "
                f"cold search {r['en'][-1]:.2f} / {r['zh'][-1]:.2f} s")
    return out


def _round(code: Path, work: Path, real: Path, plus: Path, engine: str, workers: int,
           r: dict) -> None:
    """One round of one checkout: the three ingests, the cold searches, the web app."""
    wall, cpu = checkouts.ingest(code, work, real, work / "real", engine, workers, True)
    same, _cpu = checkouts.ingest(code, work, real, work / "real", engine, workers, False)
    add, _cpu = checkouts.ingest(code, work, plus, work / "real", engine, workers, False)
    r["add"].append(add)
    r["wall"].append(wall)
    r["cpu"].append(cpu)
    r["same"].append(same)
    for key, data, query in COLD:
        wall_cpu = checkouts.cold_search(code, work, work / data, query, 3)
        r[key].append(wall_cpu[0])
        r.setdefault(f"{key}_cpu", []).append(wall_cpu[1])
    got, _cpu = checkouts.run(code, work, web_args(work / "webdata", 5))
    for key, values in got.items():
        r["web"].setdefault(key, []).extend(values)


def table(results: dict[str, dict], engine: str, workers: int) -> list[str]:
    names = list(results)
    first = results[names[0]]
    med = statistics.median
    lines = [f"| measure | {' | '.join(names)} | last ÷ first |",
             "| --- |" + " --- |" * (len(names) + 1)]

    def row(label: str, values: list[float], fmt: str) -> None:
        ratio = values[-1] / values[0] if values[0] else float("nan")
        lines.append(f"| {label} | {' | '.join(format(v, fmt) for v in values)} | "
                     f"{ratio:.2f}× |")

    mb = first["mb"]
    row(f"ingest of real text ({mb:.1f} MB, {engine}, {workers} workers), wall s",
        [med(r["wall"]) for r in results.values()], ".1f")
    row("  MB/s", [mb / med(r["wall"]) for r in results.values()], ".2f")
    row("  CPU s (process and workers)", [med(r["cpu"]) for r in results.values()], ".1f")
    row("  CPU s per MB", [med(r["cpu"]) / mb for r in results.values()], ".2f")
    row("the same ingest again, nothing changed, wall s",
        [med(r["same"]) for r in results.values()], ".2f")
    row("then one treaty added (a declared file), wall s",
        [med(r["add"]) for r in results.values()], ".2f")
    for key, label in (("en", "cold `treaty search dividends`, bundled corpus, s"),
                       ("zh", "cold `treaty search 股息`, bundled corpus, s"),
                       ("en_real", "cold `treaty search dividends`, real corpus, s"),
                       ("zh_real", "cold `treaty search 股息`, real corpus, s")):
        row(label, [med(r[key]) for r in results.values()], ".3f")
        row("  its CPU s", [med(r[f"{key}_cpu"]) for r in results.values()], ".3f")
    row("`/api/search` p50 ms (bundled + real corpus, mixed queries)",
        [med(r["web"]["api"]) for r in results.values()], ".1f")
    row("`/api/search` p95 ms", [pct(r["web"]["api"], 95) for r in results.values()], ".1f")
    for page in PAGES:
        row(f"{page} p95 ms", [pct(r["web"][page], 95) for r in results.values()], ".1f")
    return lines


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--corpus", type=Path, action="append", required=True,
                   help="A real corpus folder (repeat: they are ingested together).")
    p.add_argument("--baseline", action="append", default=[], metavar="NAME=DIR",
                   help="Another checkout, timed the same way (repeat; listed first).")
    p.add_argument("--engine", default="tantivy")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--out", type=Path, default=None,
                   help="Also write the table into this file's bench_speed section.")


def run(args: argparse.Namespace) -> None:
    codes = {}
    for spec in args.baseline:
        name, _, path = spec.partition("=")
        codes[name] = Path(path).resolve()
    codes["this checkout"] = ROOT
    with tempfile.TemporaryDirectory(prefix="bench-speed-") as tmp:
        results = measure(codes, [c.resolve() for c in args.corpus], args.engine,
                          args.workers, args.repeats, Path(tmp), print)
    lines = [(f"Measured by `scripts/bench speed` on {time.strftime('%Y-%m-%d %H:%M')}: "
             f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average at the "
             f"end {load_average()}; medians of {args.repeats} interleaved rounds."), "",
             *table(results, args.engine, args.workers)]
    text = "\n".join(lines)
    print(text)
    if args.out:
        write_section(args.out, "bench_speed", "## Speed (issue 28)\n\n" + text)
