"""Kill re-ingests of the bundled corpus at spread moments and check what a reader sees.

    python scripts/kill_ingest.py [-n 30] [--engines whoosh,tantivy] [--work DIR]
    python scripts/kill_ingest.py --concurrent 5      # two ingests at once, 5 trials/engine
    python scripts/kill_ingest.py --orphans 10        # kill -9 parallel ingests: orphans?

Each round re-ingests (`treaty ingest --force`) the bundled corpus or a smaller one (without
one treaty), alternately, into one data directory, with one engine (in turn), and sends a
signal (SIGKILL, SIGINT, SIGTERM in turn) at a moment spread over the ingest's duration
(measured once first). A round survives when the store and the index a reader then opens hold
the same treaties, those of one of the two corpora, and, for SIGINT / SIGTERM, the ingest
exited 130 / 143 with its one line (or finished before the signal, exit 0). After the last
round one more ingest runs and nothing but the live generation and the one before may remain.
Prints "survived K of N" (exit status 1 unless K = N).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DROPPED = "portugal-spain-1993-art10.en-pt.txt"
SIGNALS = (signal.SIGKILL, signal.SIGINT, signal.SIGTERM)
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}
LINES = ("interrupted: the previous corpus is unchanged",
         "interrupted: the new corpus had already been made live")


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "search.cli", "ingest", *args]


def _env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TREATY_DATA", None)
    return env


def _smaller(corpus: Path, into: Path) -> Path:
    shutil.copytree(corpus, into)
    (into / DROPPED).unlink()
    blocks = (into / "manifest.toml").read_text("utf-8").split("[[document]]")
    (into / "manifest.toml").write_text(
        "[[document]]".join(b for b in blocks if f'"{DROPPED}"' not in b), "utf-8")
    return into


def pair(data: Path) -> tuple[set[str], set[str]]:
    """(treaties of the store, treaties of the index) as a reader opens them."""
    from search.results import SearchSession

    with SearchSession(data) as s:
        table = s.searcher.groups()
        return set(s.treaties()), table.treaties() if table else set()


def leftovers(data: Path) -> list[str]:
    """What an ingest should have removed: more than two generations, unfinished index
    generations, temporary files."""
    out = [p.name for p in sorted(data.glob("gen-*"))[:-2]] if len(
        list(data.glob("gen-*"))) > 2 else []
    out += [str(p) for p in data.rglob("*.tmp")]
    out += [str(g) for g in data.rglob("g-*") if not (g / "index.json").exists()]
    return out


def _round(k: int, corpora: list[Path], engines: list[str], data: Path, full: float,
           sets: list[set[str]]) -> tuple[bool, str]:
    sig = SIGNALS[k % len(SIGNALS)]
    engine = engines[(k // len(SIGNALS)) % len(engines)]
    offset = full * (0.05 + 0.95 * ((k * 0.618034) % 1.0))  # spread over the whole run
    proc = subprocess.Popen(_cli("--corpus", str(corpora[k % 2]), "--data", str(data),
                                 "--force", "--engine", engine), env=_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    started = time.monotonic()
    while proc.poll() is None and time.monotonic() - started < offset:
        time.sleep(0.01)
    if proc.poll() is None:
        proc.send_signal(sig)
    _out, err = proc.communicate()
    what = f"{sig.name:7} {engine:7} at {offset:4.1f} s: exit {proc.returncode}"
    stored, indexed = pair(data)
    if stored != indexed or stored not in sets:
        return False, f"{what}; store {sorted(stored)} index {sorted(indexed)}"
    if sig in EXIT and proc.returncode != 0 and (
            proc.returncode != EXIT[sig] or err.strip() not in LINES):
        return False, f"{what}; message {err.strip()!r}"
    return True, f"{what}; {err.strip() or 'no message'}; {len(stored)} treaties, agree"


def concurrent(trials: int, engines: list[str], work: Path) -> int:
    """`trials` times per engine, two ingests of two one-treaty corpora started together into
    one fresh data directory: how many ended with both exit 0 and one corpus (not a mix)."""
    corpora = []
    for name, treaty in ((DROPPED, "es-pt-1993"), ("brazil-peru-2006.en.txt", "br-pe-2006")):
        folder = work / f"one-{treaty}"
        folder.mkdir(exist_ok=True)
        shutil.copy(ROOT / "corpus" / name, folder / name)
        (folder / "manifest.toml").write_text(
            f'[[document]]\nfile = "{name}"\ntreaty = "{treaty}"\n', "utf-8")
        corpora.append((folder, {treaty}))
    good = 0
    for engine in engines:
        for t in range(trials):
            data = work / f"concurrent-{engine}-{t}"
            procs = [subprocess.Popen(_cli("--corpus", str(c), "--data", str(data), "--engine",
                                           engine), env=_env(), stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True) for c, _ in corpora]
            errs = [p.communicate()[1] for p in procs]
            stored, indexed = pair(data)
            ok = ([p.returncode for p in procs] == [0, 0] and stored == indexed
                  and stored in [s for _, s in corpora])
            waited = sum("waiting" in e for e in errs)
            good += ok
            print(f"{engine:7} trial {t + 1}: {'ok  ' if ok else 'FAIL'} store {sorted(stored)}"
                  f" index {sorted(indexed)}; {waited} waited", flush=True)
            shutil.rmtree(data, ignore_errors=True)
    print(f"concurrent: one corpus in {good} of {trials * len(engines)}")
    return 0 if good == trials * len(engines) else 1


def _children(pid: int) -> set[int]:
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                out.add(int(entry.name))
    return out


def _rss_mb(pid: int) -> float | None:
    """The resident memory of a running process (None when it has ended or is a zombie)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    if "\nState:\tZ" in status:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def orphans(rounds: int, work: Path) -> int:
    """`rounds` parallel ingests (--workers 2) of the bundled corpus, each SIGKILLed at a
    moment spread over the time its pool runs: the processes of the pool still running
    2 s after the kill, and their memory. They are then ended (by their pid)."""
    data = work / "orphans-data"
    left_total, rss_total = 0, 0.0
    for k in range(rounds):
        proc = subprocess.Popen(_cli("--corpus", str(ROOT / "corpus"), "--data", str(data),
                                     "--workers", "2", "--force"), env=_env(),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        kids: set[int] = set()
        started = time.monotonic()
        while proc.poll() is None and len(kids) < 3 and time.monotonic() - started < 60:
            kids |= _children(proc.pid)
            time.sleep(0.02)
        time.sleep(0.5 + 2.0 * ((k * 0.618034) % 1.0))  # (into the pool's work)
        kids |= _children(proc.pid)
        proc.kill()
        proc.wait()
        time.sleep(2)
        alive = {pid: rss for pid in kids if (rss := _rss_mb(pid)) is not None}
        left_total += len(alive)
        rss_total += sum(alive.values())
        print(f"{k + 1:3}/{rounds}: pool of {len(kids)} processes; {len(alive)} still running "
              f"2 s after the kill ({sum(alive.values()):.0f} MB)", flush=True)
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    print(f"orphans: {left_total} processes outlived {rounds} killed ingests "
          f"({rss_total:.0f} MB in all)")
    return 0 if left_total == 0 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=30, help="rounds (kills)")
    ap.add_argument("--engines", default="whoosh,tantivy")
    ap.add_argument("--work", type=Path, default=None, help="work directory (default: temp)")
    ap.add_argument("--concurrent", type=int, default=0, metavar="T",
                    help="instead: T trials per engine of two ingests at once")
    ap.add_argument("--orphans", type=int, default=0, metavar="N",
                    help="instead: N parallel ingests killed; count the processes left")
    a = ap.parse_args()
    work = a.work or Path(tempfile.mkdtemp(prefix="kill-ingest-"))
    if a.orphans:
        status = orphans(a.orphans, work)
        if a.work is None:
            shutil.rmtree(work, ignore_errors=True)
        return status
    if a.concurrent:
        status = concurrent(a.concurrent, a.engines.split(","), work)
        if a.work is None:
            shutil.rmtree(work, ignore_errors=True)
        return status
    data = work / "data"
    shutil.rmtree(data, ignore_errors=True)
    shutil.rmtree(work / "smaller", ignore_errors=True)
    corpora = [_smaller(ROOT / "corpus", work / "smaller"), ROOT / "corpus"]
    engines = a.engines.split(",")
    subprocess.run(_cli("--corpus", str(corpora[1]), "--data", str(data)), env=_env(),
                   check=True, capture_output=True)
    t0 = time.monotonic()  # (a forced re-ingest, as in the rounds)
    subprocess.run(_cli("--corpus", str(corpora[1]), "--data", str(data), "--force"),
                   env=_env(), check=True, capture_output=True)
    full = time.monotonic() - t0
    whole = pair(data)[0]
    sets = [whole, whole - {"es-pt-1993"}]
    survived = left = signalled = 0
    for k in range(a.n):
        ok, line = _round(k, corpora, engines, data, full, sets)
        survived += ok
        signalled += "exit 0;" not in line
        found = leftovers(data)  # (each ingest removes those of the rounds before)
        left += len(found)
        print(f"{k + 1:3}/{a.n} {'ok  ' if ok else 'FAIL'} {line}; {len(found)} left",
              flush=True)
    subprocess.run(_cli("--corpus", str(corpora[0]), "--data", str(data)), env=_env(),
                   check=True, capture_output=True)
    after = leftovers(data)
    print(f"leftovers seen after the rounds: {left}; after one more ingest: {len(after)} "
          f"{after if after else ''}")
    print(f"survived {survived} of {a.n} ({signalled} ended by the signal, the others had "
          f"finished first; forced re-ingest {full:.1f} s)")
    if a.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if survived == a.n and not after else 1


if __name__ == "__main__":
    sys.exit(main())
