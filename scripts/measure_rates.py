"""Recall and precision of the rates stage against the gold of `tests/cases/rates.json`, per
treaty and per half of the gold's split (tune / measure).

    python scripts/measure_rates.py                  # ingests the bundled corpus and corpus-extra
    python scripts/measure_rates.py --data bundled=/tmp/d1 --data extra=/tmp/d2   # stores made
    python scripts/measure_rates.py --json

A stated rate matches a gold rate when treaty, unit eId, rate and exemption are the same;
every rate the stage states in a gold treaty and the gold lacks is a false positive.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GOLD = ROOT / "tests" / "cases" / "rates.json"
CORPORA = {"bundled": ROOT / "corpus", "extra": ROOT.parent / "shared" / "corpus-extra"}


def gold_keys(gold: dict) -> dict[str, set[tuple]]:
    return {t: {(r["eid"], float(r["rate"]), bool(r.get("exempt"))) for r in g["rates"]}
            for t, g in gold["treaties"].items()}


def stated_keys(data: Path) -> dict[str, set[tuple]]:
    from indexer import store

    out: dict[str, set[tuple]] = {}
    with closing(store.connect(data)) as db:
        for r in db.execute("SELECT treaty, eid, rate, exempt FROM rates"):
            rate = None if r["rate"] is None else float(r["rate"])
            out.setdefault(r["treaty"], set()).add((r["eid"], rate, bool(r["exempt"])))
    return out


def score(gold: set, stated: set) -> dict:
    hit = len(gold & stated)
    return {"gold": len(gold), "stated": len(stated), "matched": hit,
            "recall": hit / len(gold) if gold else 1.0,
            "precision": hit / len(stated) if stated else 1.0,
            "missed": sorted(map(str, gold - stated)), "extra": sorted(map(str, stated - gold))}


def measure(gold: dict, stated: dict[str, set[tuple]]) -> dict:
    keys = gold_keys(gold)
    per_treaty = {t: score(keys[t], stated.get(t, set())) for t in keys}
    halves = {}
    for half, treaties in gold["split"].items():
        g = {(t, *k) for t in treaties for k in keys[t]}
        s = {(t, *k) for t in treaties for k in stated.get(t, set())}
        halves[half] = {k: v for k, v in score(g, s).items() if k not in ("missed", "extra")}
    return {"treaties": per_treaty, "halves": halves}


def _ingest(corpus: Path, into: Path) -> Path:
    from indexer.pipeline import ingest

    ingest(corpus, into, workers=1)
    return into


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", action="append", default=[], metavar="NAME=DIR",
                   help="use the store in DIR for corpus NAME (bundled, extra) instead of "
                   "ingesting it")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    gold = json.loads(GOLD.read_text("utf-8"))
    given = dict(x.split("=", 1) for x in args.data)
    stated: dict[str, set[tuple]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, corpus in CORPORA.items():
            if name in given:
                data = Path(given[name])
            elif corpus.is_dir():
                data = _ingest(corpus, Path(tmp) / name)
            else:
                continue
            stated.update(stated_keys(data))
    result = measure(gold, stated)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    for t, s in result["treaties"].items():
        half = next(h for h, ts in gold["split"].items() if t in ts)
        print(f"{t:<20} {half:<8} gold {s['gold']:>2} stated {s['stated']:>2} "
              f"recall {s['recall']:.2f} precision {s['precision']:.2f}")
        for m in s["missed"]:
            print(f"    missed {m}")
        for e in s["extra"]:
            print(f"    extra  {e}")
    for half, s in result["halves"].items():
        print(f"{half:<8} gold {s['gold']:>3} stated {s['stated']:>3} matched {s['matched']:>3} "
              f"recall {s['recall']:.3f} precision {s['precision']:.3f}")


if __name__ == "__main__":
    main()
