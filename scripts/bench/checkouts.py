"""Running a step of a benchmark in a fresh process whose imports come from a given checkout
(this one or a baseline), with its own cache directory: an ingest, a cold `treaty search`,
the web app's timings; its CPU seconds and, for an ingest, the peak memory of its process
tree."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from bench.common import MB, children_cpu

#: One ingest, its own wall time (imports included) and outcome as JSON. Arguments: corpus,
#: data directory, engine, workers (0: the default), force (1 or 0).
INGEST = """
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

#: The web app's timings with the test client: `/api/search` over the queries, then each
#: page's URLs, `rounds` times after one warm-up. Arguments: data, queries, pages (JSON), rounds.
WEB = """
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


def env(code: Path, work: Path) -> dict[str, str]:
    """The environment of a process of the checkout `code`: its imports, a cache directory
    under `work` (and a data directory, for an older checkout that kept its caches there)."""
    out = dict(os.environ, PYTHONPATH=str(code), TREATY_CACHE=str(work / "cache"),
               TREATY_DATA=str(work / "data"))
    out.pop("PYTHONDONTWRITEBYTECODE", None)  # (a user's modules are compiled once)
    return out


def interleaved(codes: dict[str, Path], k: int) -> Iterable[tuple[str, Path]]:
    """The checkouts in round `k`: in order, then reversed, and so on."""
    return list(codes.items())[::-1] if k % 2 else codes.items()


def run(code: Path, work: Path, args: list[str]) -> tuple[dict, float]:
    """A fresh process of `code` (its last line of output as JSON) and its CPU seconds."""
    before = children_cpu()
    done = subprocess.run([sys.executable, *args], cwd=code, env=env(code, work),
                          capture_output=True, text=True, check=False)
    cpu = children_cpu() - before
    if done.returncode:
        raise SystemExit(f"{code}: {' '.join(args)[:80]} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1]), cpu


def ingest_args(corpus: Path, data: Path, engine: str, workers: int, force: bool) -> list[str]:
    return ["-c", INGEST, str(corpus), str(data), engine, str(workers), "1" if force else "0"]


def ingest(code: Path, work: Path, corpus: Path, data: Path, engine: str, workers: int,
           force: bool) -> tuple[float, float]:
    """(wall s, CPU s) of one ingest by the checkout `code`; every document must succeed."""
    got, cpu = run(code, work, ingest_args(corpus, data, engine, workers, force))
    if got["failed"]:
        raise SystemExit(f"{code}: {len(got['failed'])} documents failed: {got['failed'][:2]}")
    return got["seconds"], cpu


def cold_search(code: Path, work: Path, data: Path, query: str, n: int
                ) -> tuple[float, float]:
    """Median wall time and median CPU seconds of `treaty search QUERY` in a new process
    (after one run that compiles the modules): on a loaded machine the CPU seconds are
    the closer to what an idle one's wall time would be."""
    times, cpus = [], []
    for k in range(n + 1):
        before = children_cpu()
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "search.cli", "search", query, "--data", str(data)],
                       cwd=code, env=env(code, work), capture_output=True, check=True)
        if k:
            times.append(time.perf_counter() - t)
            cpus.append(children_cpu() - before)
    return statistics.median(times), statistics.median(cpus)


# --- peak memory of an ingest's process tree -------------------------------------------------


class PeakMemory:
    """The largest sum of the resident sizes of process `pid` and its descendants (sampled
    every 0.2 s)."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self.done = pid, 0, False
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.done:
            self.peak = max(self.peak, tree_rss(self.pid))
            time.sleep(0.2)

    def stop(self) -> int:
        self.done = True
        self.thread.join()
        return self.peak


def tree_rss(root: int) -> int:
    """Bytes resident in process `root` and its descendants (from /proc)."""
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


def watched_ingest(code: Path, work: Path, corpus: Path, data: Path, engine: str,
                   workers: int, force: bool) -> tuple[float, float, int]:
    """(wall s, CPU s, peak MB of the process tree) of one ingest in a fresh process; failed
    documents are reported, not fatal."""
    before = children_cpu()
    proc = subprocess.Popen(
        [sys.executable, *ingest_args(corpus, data, engine, workers, force)], cwd=code,
        env=env(code, work), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watch = PeakMemory(proc.pid)
    out, err = proc.communicate()
    peak = watch.stop()
    if proc.returncode:
        raise SystemExit(f"ingest failed:\n{err[-2000:]}")
    got = json.loads(out.strip().splitlines()[-1])
    cpu = children_cpu() - before
    if got["failed"]:
        print(f"  {len(got['failed'])} documents failed: {got['failed'][:2]}")
    return got["seconds"], cpu, peak // MB
