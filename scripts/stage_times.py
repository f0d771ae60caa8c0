"""Where a worker's ingest time goes, stage by stage (warm: one untimed pass first).

    python scripts/stage_times.py                 # bundled corpus + ../shared/corpus-extra
    python scripts/stage_times.py --bundled -n 5  # only corpus/ (what `scripts/bench scale` copies)

Runs what an ingest worker runs per document (`pipeline.entries._process_entry`, each file alone in
its treaty, so topics and alignment included) and reports each stage's seconds per MB of
source text and its share. Wall time in one process: compare runs made back to back.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: (module, function, stage name) timed around each call.
STAGES = (
    ("pipeline.entries", "decode_source", "read"),
    ("clean", "clean", "clean"),
    ("languages", "split", "languages"),
    ("normalise", "normalise_line", "normalise"),
    ("normalise", "repair_version", "normalise-version"),
    ("segment", "segment", "segment"),
    ("sources.metadata", "guess", "metadata"),
    ("pipeline.treaty", "harmonise_topics", "topics"),
    ("pipeline.treaty", "links_of", "align"),
    ("pipeline.treaty", "repair_across", "cross-version"),
)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bundled", action="store_true", help="Only the bundled corpus.")
    p.add_argument("-n", "--repeats", type=int, default=3, help="Timed passes (default 3).")
    args = p.parse_args()

    import importlib

    from indexer.pipeline import entries as pipeline
    from indexer.sources import manifest

    spent: dict[str, float] = defaultdict(float)

    def timed(func, label):
        def run(*a, **k):
            t = time.perf_counter()
            try:
                return func(*a, **k)
            finally:
                spent[label] += time.perf_counter() - t
        return run

    for mod_name, func_name, label in STAGES:
        mod = importlib.import_module(f"indexer.{mod_name}")
        if hasattr(mod, func_name):  # (a stage older code lacks is left out)
            setattr(mod, func_name, timed(getattr(mod, func_name), label))
    corpora = [ROOT / "corpus"]
    if not args.bundled and (ROOT.parent / "shared" / "corpus-extra").is_dir():
        corpora.append(ROOT.parent / "shared" / "corpus-extra")
    jobs = [(c, e) for c in corpora for e in manifest.load(c)]
    mb = sum((c / e.file).stat().st_size for c, e in jobs) / 1e6
    for c, e in jobs:  # warm-up: lexicons, caches of word verdicts
        pipeline._process_entry(c, e, None, True)
    spent.clear()
    t0 = time.perf_counter()
    for _ in range(args.repeats):
        for c, e in jobs:
            pipeline._process_entry(c, e, None, True)
    total = (time.perf_counter() - t0) / args.repeats
    print(f"{len(jobs)} files, {mb:.2f} MB: {total:.3f} s a pass = {total / mb:.2f} s/MB")
    for label, s in sorted(spent.items(), key=lambda x: -x[1]):
        s /= args.repeats
        print(f"  {label:10s} {s:7.3f} s  {s / mb:5.2f} s/MB  {100 * s / total:4.1f} %")


if __name__ == "__main__":
    main()
