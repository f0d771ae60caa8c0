"""What the vectorised py3langid ranking (`indexer.languages.fastid`) saves over py3langid's
own `rank`: one ingest worker's CPU time, and the part of it spent identifying languages, with
each ranker (warm: one untimed pass first).

    python scripts/measure_fastid.py          # bundled corpus + ../shared/corpus-extra, -wild
    python scripts/measure_fastid.py -n 3     # timed passes (default 2)

Both rankers give the same labels (the store dump is identical); run on a quiet machine or
compare runs made back to back.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def measure(ranker: str, repeats: int) -> tuple[float, float, float]:
    """(MB, CPU seconds of a pass, CPU seconds of it spent ranking) with `ranker`."""
    from indexer.languages import fastid, identify, model
    from indexer.pipeline import entries as pipeline
    from indexer.sources import manifest

    spent = [0.0]

    def timed(func):
        def run(*args, **kwargs):
            start = time.process_time()
            try:
                return func(*args, **kwargs)
            finally:
                spent[0] += time.process_time() - start
        return run

    if ranker == "public":  # (each document's rankings by `rank`, timed where they are made)
        identify.new_ranks = model.PublicRanks
        model.PublicRanks.top = timed(model.PublicRanks.top)
    else:
        fastid.count_features = timed(fastid.count_features)
        fastid.Scorer.tops = timed(fastid.Scorer.tops)
    shared = ROOT.parent / "shared"
    corpora = [c for c in (ROOT / "corpus", shared / "corpus-extra", shared / "corpus-wild")
               if c.is_dir()]
    jobs = [(c, e) for c in corpora for e in manifest.load(c)]
    mb = sum((c / e.file).stat().st_size for c, e in jobs) / 1e6
    for c, e in jobs:  # warm-up: lexicons, the model
        pipeline._process_entry(c, e, None, True)
    spent[0] = 0.0
    start = time.process_time()
    for _ in range(repeats):
        for c, e in jobs:
            pipeline._process_entry(c, e, None, True)
    return mb, (time.process_time() - start) / repeats, spent[0] / repeats


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", "--repeats", type=int, default=2, help="Timed passes (default 2).")
    p.add_argument("--ranker", choices=("fast", "public"),
                   help="Measure one ranker in this process (else each in a process of its own).")
    args = p.parse_args()
    if args.ranker:
        mb, total, ranking = measure(args.ranker, args.repeats)
        print(f"{args.ranker:6s} {mb:.2f} MB: ingest {total:6.2f} s CPU a pass, "
              f"identification {ranking:5.2f} s ({100 * ranking / total:4.1f} %)")
        return
    import subprocess

    for ranker in ("fast", "public"):
        subprocess.run([sys.executable, __file__, "--ranker", ranker, "-n", str(args.repeats)],
                       check=True)


if __name__ == "__main__":
    main()
