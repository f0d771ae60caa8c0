"""The scale benchmark's cold start and profile: a fresh `treaty search` on the bundled corpus
(wall time, largest imports) and where a worker's time goes per document."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.common import BUNDLED, ROOT


def cold_search(data: Path, engine_note: str, log: Callable[[str], None]) -> dict:
    """Wall time of a fresh `treaty search dividends` (the console script's own import)."""
    code = ("import sys; from search.cli import main; "
            f"sys.argv = ['treaty', 'search', 'dividends', '--data', {str(data)!r}]; main()")
    times = []
    ok = True
    for _ in range(5):
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                           text=True, check=False)
        times.append(time.perf_counter() - t)
        ok = ok and r.returncode == 0
        if r.returncode != 0:
            log(f"    cold search ({engine_note}) failed: {r.stderr.strip()[-300:]}")
    out = {"ok": ok, "median_s": round(statistics.median(times), 3),
           "min_s": round(min(times), 3)}
    out["top_imports_ms"] = largest_imports(code)
    return out


def largest_imports(code: str) -> list[tuple[float, str]]:
    """The eight largest top-level imports (ms, module) of running `code` (-X importtime)."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=ROOT,
                       capture_output=True, text=True, check=False)
    imports = []
    for line in r.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            parts = [p.strip() for p in line[len("import time:"):].split("|")]
            if parts[1].isdigit():
                imports.append((int(parts[1]), parts[2]))
    return [(round(us / 1000, 1), name.strip()) for us, name in sorted(imports, reverse=True)
            if not name.startswith("  ")][:8]


_PROFILE = r"""
import cProfile, pstats, io, sys
sys.path.insert(0, ROOT_DIR)
from pathlib import Path
from indexer.sources import manifest
from indexer.pipeline.entries import _process_entry
from indexer.pipeline.run import _alone
entries = manifest.load(Path(BUNDLED_DIR))
alone = _alone(entries)
def run():
    for e in entries:
        _process_entry(Path(BUNDLED_DIR), e, None, e.file in alone)
run()
pr = cProfile.Profile(); pr.enable(); run(); pr.disable()
st = pstats.Stats(pr)
tot = sum(v[3] for k, v in st.stats.items() if k[2] == '_process_entry')
rows = []
for (f, line, fn), v in st.stats.items():
    if '/indexer/' in f and fn in ('clean', 'split', 'normalise_line', 'segment', 'guess',
                                   'read_file', '_with_changes', '_other_units',
                                   '_harmonise_topics', '_links_of'):
        rows.append((v[3], f.split('/indexer/')[1] + ':' + fn))
rows.sort(reverse=True)
print(f'a worker\'s work per document (_process_entry) total {tot:.2f} s')
for s, n in rows:
    print(f'{s:6.2f} s  {100 * s / tot:4.0f} %  {n}')
"""


def profile_process() -> str:
    """cProfile of the pipeline's `process` over the bundled texts (one process), grouped by
    stage."""
    code = _PROFILE.replace("ROOT_DIR", repr(str(ROOT))).replace("BUNDLED_DIR",
                                                                  repr(str(BUNDLED)))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       check=False, cwd=ROOT)
    return r.stdout.strip() or r.stderr.strip()[-500:]
