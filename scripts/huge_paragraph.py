"""Measure a search over a corpus holding one huge single-line file.

Builds a corpus of the bundled Brazil–Peru treaty plus one file that is a single line of
MEGABYTES of real treaty text (the bundled English texts, joined and repeated), ingests it,
then times ``treaty search dividends`` (wall seconds and the peak memory of the search
process). Run it from a checkout: the ingest and the search run the code of ``--source``
(default: this checkout), so the same script measures the code before and after a change.

    python scripts/huge_paragraph.py --megabytes 50 [--engine whoosh] [--source DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "brazil-peru-2006.en.txt"


def huge_line(megabytes: float) -> str:
    """One line of real treaty text, `megabytes` long (UTF-8): the paragraphs of the
    Brazil–Peru dividends article (10(1)–(3)), repeated."""
    lines = (ROOT / "corpus" / BASE).read_text("utf-8").splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("1. Dividends paid"))
    text = " ".join(x[3:] for x in lines[start:start + 4] if x[:1].isdigit())
    want = int(megabytes * 1_000_000)
    reps = want // len(text.encode("utf-8")) + 1
    return (" ".join([text] * reps))[:want]


def make_corpus(folder: Path, megabytes: float) -> None:
    (folder / BASE).write_text((ROOT / "corpus" / BASE).read_text("utf-8"), "utf-8")
    (folder / "huge.en.txt").write_text(huge_line(megabytes) + "\n", "utf-8")
    (folder / "manifest.toml").write_text(
        f'[[document]]\nfile = "{BASE}"\ntreaty = "br-pe-2006"\nparties = ["BR", "PE"]\n'
        'signed = "2006-02-17"\nlanguages = ["en"]\n\n'
        '[[document]]\nfile = "huge.en.txt"\ntreaty = "xx-yy-2000"\nparties = ["XX", "YY"]\n'
        'signed = "2000-01-01"\nlanguages = ["en"]\n', "utf-8")


def run(source: Path, args: list[str]) -> tuple[float, float, str]:
    """(wall seconds, peak MB of the child, its last output line) of `treaty ARGS`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.monotonic()
    env = {**os.environ, "PYTHONPATH": str(source)}
    proc = subprocess.run([sys.executable, "-m", "search.cli", *args], cwd=source,
                          capture_output=True, text=True, env=env, check=False)
    secs = time.monotonic() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    lines = (proc.stdout + proc.stderr).strip().splitlines() or [""]
    return secs, max(peak, before) / 1024, lines[-1][:160]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--megabytes", type=float, default=50)
    ap.add_argument("--engine", default="whoosh")
    ap.add_argument("--source", type=Path, default=ROOT)
    ap.add_argument("--query", default="dividends")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus, data = Path(tmp) / "corpus", Path(tmp) / "data"
        corpus.mkdir()
        make_corpus(corpus, a.megabytes)
        secs, peak, last = run(a.source, ["ingest", "--corpus", str(corpus), "--data", str(data),
                                          "--engine", a.engine])
        print(f"ingest: {secs:.1f} s, peak {peak:.0f} MB: {last}")
        # RUSAGE_CHILDREN keeps the largest child so far (the ingest's): the search runs under
        # a fresh process of this script, to report its own peak.
        out = subprocess.run([sys.executable, __file__, "--search-only", str(data), a.query,
                              str(a.source)], capture_output=True, text=True, check=False)
        print(out.stdout.strip() or out.stderr.strip())


def search_only(data: str, query: str, source: str) -> None:
    secs, peak, last = run(Path(source), ["search", query, "--data", data])
    print(f"search {query!r}: {secs:.1f} s, peak {peak:.0f} MB: {last}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--search-only":
        search_only(*sys.argv[2:5])
    else:
        main()
