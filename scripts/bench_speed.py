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

    python scripts/bench_speed.py --corpus ../shared/corpus-wild --corpus ../shared/corpus-extra \\
        --baseline 6456788=/tmp/base --baseline 3eef3e6=/tmp/branch-point --repeats 3
    python scripts/bench_speed.py ... --out docs/benchmarks.md   # also writes its section

Timings only: the outcomes are the tests' business (and `scripts/measure_*.py`'s).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MB = 1_000_000
#: A mixed query set: words, a phrase, boolean, prefix, a slip, a country, Swedish,
#: Portuguese and Chinese questions.
QUERIES = ("dividends", "beneficial owner", '"permanent establishment"', "royalties OR interest",
           "tax NOT capital", "pensions Sweden", "股息", "利息如何征税", "utdelning", "royalty*",
           "dividents", "tributação dos dividendos", "capital gains shares",
           "exchange of information", "teachers students", "Netherlands dividends")
PAGES = {"home": ("/",), "topic": ("/topic/dividends", "/topic/interest?lang=en"),
         "search page": ("/search?q=tax", "/search?q=beneficial+owner")}

_INGEST = """
import json, sys, time
def main():
    t = time.perf_counter()
    from indexer.pipeline import ingest
    workers = int(sys.argv[4]) or None
    report = ingest(sys.argv[1], sys.argv[2], engine=sys.argv[3], force=sys.argv[5] == "1",
                    workers=workers)
    print(json.dumps({"seconds": time.perf_counter() - t, "documents": len(report.documents),
                      "failed": [d.error for d in report.documents if d.error]}))
if __name__ == "__main__":
    main()
"""

_WEB = """
import json, statistics, sys, time
def main():
    from pathlib import Path
    from search.web import create_app, warm_up
    queries, pages, rounds = json.loads(sys.argv[2]), json.loads(sys.argv[3]), int(sys.argv[4])
    app = create_app(Path(sys.argv[1])); warm_up(app); client = app.test_client()
    out = {"api": []}
    for q in queries:
        client.get("/api/search", query_string={"q": q})
    for _ in range(rounds):
        for q in queries:
            t = time.perf_counter()
            client.get("/api/search", query_string={"q": q})
            out["api"].append((time.perf_counter() - t) * 1000)
    for name, urls in pages.items():
        out[name] = []
        for u in urls:
            client.get(u)
            for _ in range(rounds):
                t = time.perf_counter()
                client.get(u)
                out[name].append((time.perf_counter() - t) * 1000)
    print(json.dumps(out))
if __name__ == "__main__":
    main()
"""


def _env(code: Path, work: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(code), TREATY_CACHE=str(work / "cache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # (a user's modules are compiled once)
    return env


def _run(code: Path, work: Path, args: list[str]) -> tuple[dict, float]:
    """A fresh process of `code` (its last line of output as JSON) and its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, *args], cwd=code, env=_env(code, work),
                          capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{code}: {' '.join(args)[:80]} failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return json.loads(done.stdout.strip().splitlines()[-1]), cpu


def _ingest(code: Path, work: Path, corpus: Path, data: Path, engine: str, workers: int,
            force: bool) -> tuple[float, float]:
    got, cpu = _run(code, work, ["-c", _INGEST, str(corpus), str(data), engine, str(workers),
                                 "1" if force else "0"])
    if got["failed"]:
        raise SystemExit(f"{code}: {len(got['failed'])} documents failed: {got['failed'][:2]}")
    return got["seconds"], cpu


def _cold_search(code: Path, work: Path, data: Path, query: str, n: int) -> float:
    """Median wall time of `treaty search QUERY` in a new process (after one run that
    compiles the modules)."""
    return cold_search(code, work, data, query, n)[0]


def cold_search(code: Path, work: Path, data: Path, query: str, n: int
                ) -> tuple[float, float]:
    """Median wall time and median CPU seconds of `treaty search QUERY` in a new process
    (after one run that compiles the modules): on a loaded machine the CPU seconds are
    the closer to what an idle one's wall time would be."""
    times, cpus = [], []
    for k in range(n + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "search.cli", "search", query, "--data", str(data)],
                       cwd=code, env=_env(code, work), capture_output=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if k:
            times.append(time.perf_counter() - t)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(times), statistics.median(cpus)


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))]


def text_corpus(folders: list[Path], into: Path, declared: bool) -> Path:
    """One corpus folder of the .txt files of `folders` (each in a sub-folder of its own);
    `declared`: with a manifest naming each file with its treaty id (the file's name), so
    that an unchanged file is reused."""
    files = []
    for folder in folders:
        for path in sorted(folder.rglob("*.txt")):
            rel = Path(folder.name) / path.relative_to(folder)
            (into / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, into / rel)
            files.append(rel.as_posix())
    if declared:
        entries = [f'[[document]]\nfile = "{f}"\ntreaty = "{f.replace("/", "-")[:-4].lower()}"\n'
                   for f in files]
        (into / "manifest.toml").write_text("\n".join(entries), "utf-8")
    return into


def plus_one(real: Path, into: Path) -> Path:
    """A copy of the declared corpus `real` with one more treaty (a bundled text, declared):
    its ingest after `real`'s is what adding one treaty costs."""
    shutil.copytree(real, into)
    source = min((ROOT / "corpus").glob("*.txt"))
    (into / "added").mkdir()
    shutil.copyfile(source, into / "added" / source.name)
    with (into / "manifest.toml").open("a", encoding="utf-8") as fh:
        fh.write(f'\n[[document]]\nfile = "added/{source.name}"\ntreaty = "added-2026"\n')
    return into


def web_corpus(folders: list[Path], into: Path) -> Path:
    """The bundled corpus (with its manifest) and the .txt files of `folders`."""
    text_corpus(folders, into, declared=False)
    (into / "bundled").mkdir()
    for path in (ROOT / "corpus").glob("*.txt"):
        shutil.copyfile(path, into / "bundled" / path.name)
    manifest = (ROOT / "corpus" / "manifest.toml").read_text("utf-8")
    (into / "manifest.toml").write_text(manifest.replace('file = "', 'file = "bundled/'),
                                        "utf-8")
    return into


def measure(codes: dict[str, Path], folders: list[Path], engine: str, workers: int,
            repeats: int, scratch: Path, log) -> dict[str, dict]:
    real = text_corpus(folders, scratch / "real", declared=True)
    plus = plus_one(real, scratch / "plus")
    mb = sum(p.stat().st_size for p in real.rglob("*.txt")) / MB
    web = web_corpus(folders, scratch / "web")
    out: dict[str, dict] = {name: {"mb": mb, "wall": [], "cpu": [], "same": [], "add": [],
                                   "en": [], "zh": [], "en_real": [], "zh_real": [], "web": {}}
                            for name in codes}
    for name, code in codes.items():  # caches, the bundled and web data directories
        work = scratch / name
        _ingest(code, work, ROOT / "corpus", work / "bundled", engine, workers, True)
        _ingest(code, work, web, work / "webdata", engine, workers, True)
        log(f"  {name}: ready")
    for k in range(repeats):
        for name, code in (list(codes.items())[::-1] if k % 2 else codes.items()):
            work, r = scratch / name, out[name]
            wall, cpu = _ingest(code, work, real, work / "real", engine, workers, True)
            same, _cpu = _ingest(code, work, real, work / "real", engine, workers, False)
            add, _cpu = _ingest(code, work, plus, work / "real", engine, workers, False)
            r["add"].append(add)
            r["wall"].append(wall)
            r["cpu"].append(cpu)
            r["same"].append(same)
            for key, data, query in (("en", "bundled", "dividends"), ("zh", "bundled", "股息"),
                                     ("en_real", "real", "dividends"),
                                     ("zh_real", "real", "股息")):
                wall_cpu = cold_search(code, work, work / data, query, 3)
                r[key].append(wall_cpu[0])
                r.setdefault(f"{key}_cpu", []).append(wall_cpu[1])
            got, _cpu = _run(code, work, ["-c", _WEB, str(work / "webdata"),
                                          json.dumps(QUERIES), json.dumps(PAGES), "5"])
            for key, values in got.items():
                r["web"].setdefault(key, []).extend(values)
            log(f"  {name} round {k + 1}: ingest {wall:.1f} s ({cpu:.1f} CPU s), unchanged "
                f"{same:.1f} s, one added {add:.1f} s, cold search {r['en'][-1]:.2f} / "
                f"{r['zh'][-1]:.2f} s")
    return out


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
    row("`/api/search` p95 ms", [_pct(r["web"]["api"], 95) for r in results.values()], ".1f")
    for page in PAGES:
        row(f"{page} p95 ms", [_pct(r["web"][page], 95) for r in results.values()], ".1f")
    return lines


SECTION = ("<!-- bench_speed: begin -->", "<!-- bench_speed: end -->")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", type=Path, action="append", required=True,
                   help="A real corpus folder (repeat: they are ingested together).")
    p.add_argument("--baseline", action="append", default=[], metavar="NAME=DIR",
                   help="Another checkout, timed the same way (repeat; listed first).")
    p.add_argument("--engine", default="tantivy")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--out", type=Path, default=None,
                   help="Also write the table into this file's bench_speed section.")
    args = p.parse_args()
    codes = {}
    for spec in args.baseline:
        name, _, path = spec.partition("=")
        codes[name] = Path(path).resolve()
    codes["this checkout"] = ROOT
    with tempfile.TemporaryDirectory(prefix="bench-speed-") as tmp:
        results = measure(codes, [c.resolve() for c in args.corpus], args.engine,
                          args.workers, args.repeats, Path(tmp), print)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [(f"Measured by `scripts/bench_speed.py` on {time.strftime('%Y-%m-%d %H:%M')}: "
             f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average at the "
             f"end {load}; medians of {args.repeats} interleaved rounds."), "",
             *table(results, args.engine, args.workers)]
    report = "\n".join(lines)
    print(report)
    if args.out:
        old = args.out.read_text("utf-8") if args.out.exists() else ""
        begin, end = SECTION
        block = f"{begin}\n## Speed (issue 28)\n\n{report}\n{end}\n"
        if begin in old and end in old:
            new = old.split(begin, 1)[0] + block + old.split(end, 1)[1].lstrip("\n")
        else:
            new = old.rstrip() + "\n\n" + block
        args.out.write_text(new, "utf-8")


if __name__ == "__main__":
    main()
