"""`treaty add` under kills and floods: what a user loses when an add is killed at a random
moment, or when many run at once into one corpus folder.

    python scripts/probe_add.py --kills 20             # kill adds at spread moments
    python scripts/probe_add.py --flood 16             # 16 adds at once, 3 rounds
    python scripts/probe_add.py --root /tmp/base ...   # the code at another commit

Kills: each round adds one copy of the Peru treaty (with 8 MB of spaces after it, so that
its copy takes a while) under a new name to a corpus folder through the library's add (plan
and write; the CLI's add then ingests, as any ingest), and SIGKILLs it: in odd rounds as
soon as its file (or a temporary file) appears in the folder, in even rounds at a moment
spread over the add's duration. A file in the folder that is not whole (truncated: the
next ingest stores a treaty cut short) is a loss, as is an add refused when run again.
Flood: N processes add N different files at once; every one must end with its manifest
entry (a lost entry is counted). Exit 1 on any loss.
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

HERE = Path(__file__).resolve().parent.parent
PERU = "brazil-peru-2006.en.txt"


def _env(root: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("TREATY_DATA", None)
    return env


def _add(root: Path, corpus: Path, data: Path, source: Path, treaty: str) -> list[str]:
    return [sys.executable, "-m", "search.cli", "add", "--corpus", str(corpus), "--data",
            str(data), "--treaty", treaty, str(source)]


def _add_only(corpus: Path, source: Path, treaty: str) -> list[str]:
    """The library's add (plan and write; the CLI then ingests, which is not probed here)."""
    code = ("import sys; from pathlib import Path; from indexer.sources.add import add; "
            "add([Path(sys.argv[1])], Path(sys.argv[2]), {'treaty': sys.argv[3]})")
    return [sys.executable, "-c", code, str(source), str(corpus), treaty]


def _entries(root: Path, corpus: Path) -> set[str]:
    code = ("import sys; from indexer.sources import manifest; "
            "print('\\n'.join(e.file for e in manifest.load(sys.argv[1]) if e.declared))")
    done = subprocess.run([sys.executable, "-c", code, str(corpus)], env=_env(root),
                          capture_output=True, text=True, check=False)
    return set(done.stdout.split()) if done.returncode == 0 else set()


def _copy_started(corpus: Path, name: str) -> bool:
    return any(p.name == name or p.name.endswith(".tmp") for p in corpus.iterdir())


def kills(root: Path, work: Path, rounds: int) -> int:
    """Half the rounds kill at a moment spread over the add, half as the copy starts (the
    file, or a temporary file, appears in the folder)."""
    corpus = work / "corpus"
    corpus.mkdir()
    # the treaty with 8 MB of spaces after it: reading it is quick, its copy takes a while
    source = work / "source.txt"
    source.write_bytes((root / "corpus" / PERU).read_bytes() + b"\n" + b" " * (8 << 20) + b"\n")
    t0 = time.monotonic()
    subprocess.run(_add_only(corpus, source, "br-pe-2006"), env=_env(root), cwd=root,
                   capture_output=True, check=False)
    full = time.monotonic() - t0
    (corpus / "source.txt").unlink(missing_ok=True)
    (corpus / "manifest.toml").unlink(missing_ok=True)
    losses = 0
    for k in range(rounds):
        name = f"copy{k:03}.txt"
        copy = work / name
        shutil.copy(source, copy)
        at_copy = k % 2 == 1
        offset = full * (0.05 + 0.95 * ((k * 0.618034) % 1.0))
        proc = subprocess.Popen(_add_only(corpus, copy, f"br-pe-{2100 + k}"), env=_env(root),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=root)
        started = time.monotonic()
        while proc.poll() is None and (_copy_started(corpus, name) is False if at_copy
                                       else time.monotonic() - started < offset):
            time.sleep(0.0005 if at_copy else 0.005)
        killed = proc.poll() is None
        if killed:
            proc.send_signal(signal.SIGKILL)
        proc.wait()
        target = corpus / name
        partial = target.exists() and target.stat().st_size != copy.stat().st_size
        entries = _entries(root, corpus)
        again = subprocess.run(_add_only(corpus, copy, f"br-pe-{2100 + k}"), env=_env(root),
                               capture_output=True, text=True, check=False, cwd=root)
        refused = again.returncode != 0 and name not in entries
        lost = partial or refused
        losses += lost
        when = "as the copy started" if at_copy else f"at {offset:4.1f} s"
        print(f"{k + 1:3}/{rounds} {'killed' if killed else 'ended before'} {when}: "
              f"{'PARTIAL FILE ' if partial else ''}{'ADD REFUSED AFTER ' if refused else ''}"
              f"{'' if lost else 'ok'} (entry after the kill: {'yes' if name in entries else 'no'}"
              f"; add again: exit {again.returncode})", flush=True)
        if partial:
            target.unlink()  # (so that the next rounds start clean)
    temps = [p.name for p in corpus.iterdir() if p.name.endswith(".tmp")]
    print(f"kills: {losses} of {rounds} rounds lost data (a partial file, or an add refused "
          f"after); temporary files left after the last add: {len(temps)}")
    return losses


_APPLY_AT = """
import sys, time
from pathlib import Path
from indexer.sources.add import Planned, apply
corpus, source, name, at = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], float(sys.argv[4])
item = Planned(source, name, "text", {"treaty": sys.argv[5]})
time.sleep(max(0.0, at - time.time()))
apply([item], corpus)
"""


def flood(root: Path, work: Path, n: int, rounds: int = 3) -> int:
    """`rounds` times, `n` processes write one planned file each into one corpus folder at
    the same moment (the library's `apply`, the step of `treaty add` that writes)."""
    lost_total = 0
    text = (root / "corpus" / "portugal-spain-1993-art10.en-pt.txt").read_text("utf-8")
    for r in range(rounds):
        corpus = work / f"flood{r}"
        corpus.mkdir()
        sources = []
        for k in range(n):
            path = work / f"f{r}-{k:02}.txt"
            path.write_text(text + f"\n{k}\n", "utf-8")
            sources.append(path)
        at = time.time() + 3.0  # (every process started and waiting by then)
        procs = [subprocess.Popen([sys.executable, "-c", _APPLY_AT, str(corpus), str(s), s.name,
                                   str(at), f"es-pt-{2000 + k}"], env=_env(root), cwd=root,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for k, s in enumerate(sources)]
        codes = [p.wait() for p in procs]
        entries = _entries(root, corpus)
        lost = [s.name for s in sources if s.name not in entries]
        lost_total += len(lost)
        print(f"flood round {r + 1}: {n} adds at once, exits {sorted(set(codes))}, "
              f"{len(lost)} manifest entries lost", flush=True)
    print(f"flood: {lost_total} of {n * rounds} entries lost")
    return lost_total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=HERE)
    ap.add_argument("--kills", type=int, default=0, metavar="N")
    ap.add_argument("--flood", type=int, default=0, metavar="N")
    args = ap.parse_args()
    root = args.root.resolve()
    work = Path(tempfile.mkdtemp(prefix="probe-add-"))
    bad = 0
    try:
        if args.kills:
            (work / "kills").mkdir()
            bad += kills(root, work / "kills", args.kills)
        if args.flood:
            bad += flood(root, work, args.flood)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
