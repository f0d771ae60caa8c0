"""What every benchmark uses: where things are, the machine and the interpreter, percentiles,
peak memory and CPU seconds of child processes, ratios, and the marked sections of
docs/benchmarks.md that each command rewrites."""

from __future__ import annotations

import json
import math
import os
import platform
import resource
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
BUNDLED = ROOT / "corpus"
MB = 1_000_000

#: The hand-written notes of docs/benchmarks.md: a rewrite by `scale` keeps them (and any
#: section after them).
NOTES = "<!-- notes: kept when the benchmarks are rewritten -->"


def pct_rank(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), nearest rank (the scale benchmark's)."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))]


def pct(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0..100), the value at the rounded position p% of the way from the
    smallest to the largest (the speed, web and load benchmarks')."""
    values = sorted(values)
    return values[max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))]


def peak_mb() -> dict[str, float]:
    """Peak resident memory (MB) of this process and of its largest waited-for child."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"self_mb": round(own, 1), "children_mb": round(kids, 1)}


def children_cpu() -> float:
    """CPU seconds (user + system) of the waited-for child processes so far: the difference
    around a run is that run's (its workers are waited for by the time it exits)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def dir_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file()) / MB


def text_mb(corpus: Path) -> float:
    """MB of the .txt files under `corpus`."""
    return sum(p.stat().st_size for p in corpus.rglob("*.txt")) / MB


def load_average() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def machine() -> dict:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {"nproc": os.cpu_count(), "cpu": cpu, "ram_gb": round(ram, 1),
            "python": platform.python_version(), "platform": platform.platform(),
            "load": os.getloadavg(), "interpreter": interpreter()}


def interpreter(python: str | None = None) -> dict:
    """What runs the ingest: the interpreter `python` (default this one), its version and how
    its CPython was built (configure options; whether the running process maps a shared
    libpython, slower to call into than one linked into the executable). The build
    matters: on one machine the same 100 MB ingest ran 1.05-1.35x as fast (seven pairs of
    runs) under Debian's CPython (PGO, LTO, libpython linked in) as under a pyenv build
    without them."""
    code = ("import json, os, platform, sys, sysconfig; m = '/proc/self/maps'; "
            "print(json.dumps({'executable': sys.executable, 'version': "
            "platform.python_version(), 'shared': 'libpython' in open(m).read() "
            "if os.path.exists(m) else None, 'optimized': "
            "'--enable-optimizations' in (sysconfig.get_config_var('CONFIG_ARGS') or ''), "
            "'lto': '--with-lto' in (sysconfig.get_config_var('CONFIG_ARGS') or '')}))")
    out = subprocess.run([python or sys.executable, "-c", code], capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"cannot run {python}: {out.stderr.strip()[-300:]}")
    return json.loads(out.stdout)


def describe_interpreter(i: dict) -> str:
    linked = {True: "libpython shared", False: "libpython linked in"}.get(i["shared"], "")
    build = ", ".join(x for x in (linked,
                                  "configured with PGO" if i["optimized"] else "",
                                  "LTO" if i["lto"] else "") if x)
    return f"`{i['executable']}`, CPython {i['version']} ({build})"


def ratio(a: float | None, b: float | None) -> str:
    if not a or not b:
        return "–"
    return f"{a / b:.2f}×" if a / b < 1 else f"{a / b:.1f}×"


def verdict(value: float | None, target: float, higher_is_better: bool = False) -> str:
    if value is None:
        return "–"
    ok = value >= target if higher_is_better else value <= target
    return "met" if ok else "**not met**"


# --- the marked sections of docs/benchmarks.md -----------------------------------------------


def markers(name: str) -> tuple[str, str]:
    """The comments around the section a command writes (name: bench_ingest, bench_speed,
    bench_scale; the names the file has always used)."""
    return f"<!-- {name}: begin -->", f"<!-- {name}: end -->"


def with_section(old: str, name: str, section: str) -> str:
    """`old` with its section `name` replaced by `section`; a file without one gets it before
    the hand-written notes, or at its end when it has none."""
    begin, end = markers(name)
    block = f"{begin}\n{section.rstrip()}\n{end}\n"
    if begin in old and end in old:
        head, rest = old.split(begin, 1)
        return head + block + rest.split(end, 1)[1].lstrip("\n")
    if NOTES in old:
        head, notes = old.split(NOTES, 1)
        return head.rstrip() + "\n\n" + block + "\n" + NOTES + notes
    return old.rstrip() + ("\n\n" if old else "") + block


def write_section(out: Path, name: str, section: str) -> None:
    """Rewrite the section `name` of the file `out`, the rest of it kept."""
    old = out.read_text("utf-8") if out.exists() else ""
    out.write_text(with_section(old, name, section), "utf-8")


def kept_parts(old: str) -> str:
    """The bench_ingest section and the notes (with what follows them) of an existing file,
    for a rewrite by `scale` to keep."""
    begin, end = markers("bench_ingest")
    out = ""
    if begin in old and end in old:
        out += begin + old.split(begin, 1)[1].split(end, 1)[0] + end + "\n"
    if NOTES in old:
        out += "\n" + NOTES + old.split(NOTES, 1)[1]
    return out
