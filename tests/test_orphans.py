"""A killed parallel ingest leaves no process behind: its workers (and the pool's resource
tracker) die with it (`indexer.workers.die_with`). scripts/kill_ingest.py --orphans is the
long loop of the same."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def children(pid: int) -> set[int]:
    """The live (not zombie) processes whose parent is `pid`."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            out.add(int(entry.name))
    return out


def alive(pids: set[int]) -> set[int]:
    """Those of `pids` still running (a zombie has ended)."""
    out = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if state[state.rindex(")") + 2] != "Z":
            out.add(pid)
    return out


def test_killing_a_parallel_ingest_leaves_no_worker(tmp_path: Path, corpus_dir: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TREATY_DATA", None)
    proc = subprocess.Popen([sys.executable, "-m", "search.cli", "ingest", "--corpus",
                             str(corpus_dir), "--data", str(tmp_path / "data"), "--workers", "2",
                             "--force"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    started = time.monotonic()  # (a bound, not a measure: until both workers are up)
    kids: set[int] = set()
    while proc.poll() is None and len(kids) < 3 and time.monotonic() - started < 60:
        kids |= children(proc.pid)
        time.sleep(0.05)
    assert proc.poll() is None and len(kids) >= 3, "the ingest ended before its pool was up"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 30  # (a bound: they are killed by the kernel at once)
    while alive(kids) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = alive(kids)
    for pid in left:  # (so that a failure leaves nothing running either)
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} of {len(kids)} processes of the pool outlived the ingest"
