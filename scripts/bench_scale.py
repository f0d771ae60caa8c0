"""The large-corpus figures of issue 28, for this checkout: a corpus of N MB made of copies of
the bundled texts and of the real ones (corpus-wild, corpus-extra), each copy's treaties made
distinct (their own ids in a manifest), ingested whole; then the same ingest with nothing
changed, one treaty added (`treaty add`'s ingest), cold searches and the web app on it.

    python scripts/bench_scale.py --size-mb 1000 --corpus ../shared/corpus-wild \\
        --corpus ../shared/corpus-extra --out docs/benchmarks.md

Peak memory is the largest sum of the resident sizes of the ingest's process tree (sampled
every 0.2 s). Timings only.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_speed import (
    _INGEST,
    _WEB,
    PAGES,
    QUERIES,
    ROOT,
    _cold_search,
    _env,
    _pct,
    _run,
)

MB = 1_000_000


def scaled_corpus(folders: list[Path], into: Path, size_mb: float) -> tuple[float, Path]:
    """Copies of the bundled corpus and of the .txt files of `folders` (each copy's files
    named and declared apart: c0001-...), `size_mb` of text in all; (MB, one more file to
    add: a copy of a bundled text under a new name, not in the manifest)."""
    bundled = tomllib.loads((ROOT / "corpus" / "manifest.toml").read_text("utf-8"))["document"]
    real = [p for f in folders for p in sorted(f.rglob("*.txt"))]
    sources = [(ROOT / "corpus" / d["file"], d) for d in bundled] + [(p, {}) for p in real]
    per_copy = sum(p.stat().st_size for p, _d in sources)
    copies = max(1, math.ceil(size_mb * MB / per_copy))
    into.mkdir(parents=True)
    lines = []
    for k in range(copies):
        for n, (path, declared) in enumerate(sources):
            name = f"c{k:04d}-{n:03d}-{path.name}"
            (into / name).write_bytes(path.read_bytes())
            entry = {key: v for key, v in declared.items() if key not in ("note", "file")}
            entry["treaty"] = f"c{k:04d}-{declared.get('treaty') or path.stem}"
            lines.append(_entry(name, entry))
    (into / "manifest.toml").write_text("".join(lines), "utf-8")
    extra = into.parent / "add"
    extra.mkdir()
    source, declared = sources[0]
    (extra / f"added-{source.name}").write_bytes(source.read_bytes())
    return copies * per_copy / MB, extra / f"added-{source.name}"


def _entry(name: str, fields: dict) -> str:
    out = [f'\n[[document]]\nfile = "{name}"']
    for key, value in fields.items():
        out.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(out) + "\n"


class PeakMemory:
    """The largest sum of the resident sizes of process `pid` and its descendants."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self.done = pid, 0, False
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.done:
            self.peak = max(self.peak, _tree_rss(self.pid))
            time.sleep(0.2)

    def stop(self) -> int:
        self.done = True
        self.thread.join()
        return self.peak


def _tree_rss(root: int) -> int:
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        children.setdefault(int(fields[1]), []).append(pid)
        rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, ()))
    return total


def timed_ingest(corpus: Path, data: Path, work: Path, engine: str, workers: int,
                 force: bool) -> tuple[float, float, int]:
    """(wall s, CPU s, peak MB of the process tree) of one ingest in a fresh process."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(
        [sys.executable, "-c", _INGEST, str(corpus), str(data), engine, str(workers),
         "1" if force else "0"], cwd=ROOT, env=_env(ROOT, work), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    watch = PeakMemory(proc.pid)
    out, err = proc.communicate()
    peak = watch.stop()
    if proc.returncode:
        raise SystemExit(f"ingest failed:\n{err[-2000:]}")
    got = json.loads(out.strip().splitlines()[-1])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if got["failed"]:
        print(f"  {len(got['failed'])} documents failed: {got['failed'][:2]}")
    return got["seconds"], cpu, peak // MB


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size-mb", type=float, default=1000)
    p.add_argument("--corpus", type=Path, action="append", default=[])
    p.add_argument("--engine", default="tantivy")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--keep", type=Path, default=None, help="Work in (and keep) this folder.")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args()
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="bench-scale-"))
    corpus = tmp / "corpus"
    mb, extra = scaled_corpus([c.resolve() for c in args.corpus], corpus, args.size_mb)
    data, work = tmp / "data", tmp
    print(f"corpus: {mb:.0f} MB in {corpus}")
    wall, cpu, peak = timed_ingest(corpus, data, work, args.engine, args.workers, True)
    print(f"ingest: {wall:.0f} s, {cpu:.0f} CPU s, peak {peak} MB")
    same, _c, _p = timed_ingest(corpus, data, work, args.engine, args.workers, False)
    print(f"nothing changed: {same:.1f} s")
    (corpus / extra.name).write_bytes(extra.read_bytes())
    with (corpus / "manifest.toml").open("a", encoding="utf-8") as fh:
        fh.write(_entry(extra.name, {"treaty": "added-br-pe-2006", "parties": ["BR", "PE"]}))
    add, _c, add_peak = timed_ingest(corpus, data, work, args.engine, args.workers, False)
    print(f"one treaty added: {add:.1f} s (peak {add_peak} MB)")
    cold = {q: _cold_search(ROOT, work, data, q, 3) for q in ("dividends", "股息")}
    print(f"cold search: {cold}")
    web, _cpu = _run(ROOT, work, ["-c", _WEB, str(data), json.dumps(QUERIES),
                                  json.dumps(PAGES), "5"])
    rows = [
        (f"| ingest, {args.engine}, {args.workers} workers | {wall / 60:.1f} min ({mb / wall:.2f} "
        f"MB/s, {cpu / mb:.2f} CPU s/MB) | ≤ 20 min |"),
        f"| peak memory of the ingest (process tree) | {peak} MB | ≤ 4096 MB |",
        f"| one treaty added (`treaty add`'s ingest) | {add:.1f} s | ≤ 10 s |",
        f"| ingest with nothing changed | {same:.1f} s | ≤ 5 s |",
        f"| cold `treaty search dividends` | {cold['dividends']:.2f} s | ≤ 0.3 s |",
        f"| cold `treaty search 股息` | {cold['股息']:.2f} s | ≤ 0.5 s |",
        (f"| `/api/search` p50 / p95 (mixed queries) | {statistics.median(web['api']):.1f} / "
        f"{_pct(web['api'], 95):.1f} ms | p95 ≤ 20 ms (engine) |"),
        *(f"| {page} p95 | {_pct(web[page], 95):.1f} ms | ≤ 100 ms |" for page in PAGES),
    ]
    report = "\n".join([
        (f"Measured by `scripts/bench_scale.py --size-mb {args.size_mb:g}` on "
        f"{time.strftime('%Y-%m-%d %H:%M')}: {mb:.0f} MB of text (copies of the bundled and "
        f"real texts, treaties distinct), load average at the end "
        f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}."), "",
        "| measure | this checkout | target |", "| --- | --- | --- |", *rows])
    print(report)
    if args.out:
        begin, end = "<!-- bench_scale: begin -->", "<!-- bench_scale: end -->"
        old = args.out.read_text("utf-8") if args.out.exists() else ""
        block = f"{begin}\n## A large corpus (issue 28)\n\n{report}\n{end}\n"
        new = (old.split(begin, 1)[0] + block + old.split(end, 1)[1].lstrip("\n")
               if begin in old and end in old else old.rstrip() + "\n\n" + block)
        args.out.write_text(new, "utf-8")


if __name__ == "__main__":
    main()
