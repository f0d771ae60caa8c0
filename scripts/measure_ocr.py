"""Measure OCR repair as the ingest makes it: recall on the hand-made 1965 gold list, by half
(dev: the rules may be tuned on it; held-out: only measured) and by origin (the list the line
steps were built on, and the errors added from a scan of what they left), and false changes
on the clean texts (the bundled ones, ../shared/corpus-extra and ../shared/corpus-wild).

    python scripts/measure_ocr.py [--show] [--no-clean]

A gold case is repaired when the changes recorded on the smallest unit holding its source line
turn its token into the expected one. A change on a clean text is false unless it was judged
a repair by reading the source (tests/cases/ocr_clean_judged.json); one not judged yet counts
as false and is listed as UNJUDGED.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOLD = ROOT / "tests" / "cases" / "ocr_gold_1965.json"
SHARED = ROOT.parent / "shared"
#: the clean texts: the bundled typed ones, and the extra and wild corpora
CLEAN_BUNDLED = ("brazil-colombia-2022.pt.txt", "brazil-peru-2006.en.txt",
                 "china-brazil-1991.zh.txt", "portugal-spain-1993-art10.en-pt.txt")
#: The changes on the clean texts judged by reading the source (repair or false).
JUDGED = ROOT / "tests" / "cases" / "ocr_clean_judged.json"
WORDS = re.compile(r"[^\W\d_]+", re.UNICODE)

from indexer.normalise import LAYOUT_STEPS


def ingest(corpus: Path, data: Path) -> Path:
    """Ingest the texts of `corpus` (a copy without its whole web pages, html/) into `data`;
    the store's path."""
    import shutil

    from indexer import datadir
    from indexer.pipeline import ingest as run_ingest

    copy = data.parent / f"{data.name}-corpus"
    shutil.copytree(corpus, copy, ignore=shutil.ignore_patterns("html", "*.md"))
    run_ingest(copy, data, force=True, engine="whoosh")
    return datadir.live(data) / "corpus.sqlite"


def units(db_path: Path) -> list[dict]:
    import sqlite3

    db = sqlite3.connect(db_path)
    db.row_factory = sqlite3.Row
    return [dict(r) for r in db.execute("SELECT * FROM units")]


def follow(token: str, changes: list[dict]) -> str:
    """What `token` became through a chain of changes."""
    cur = token
    for ch in changes:
        if ch["before"] == cur:
            cur = ch["after"]
        elif len(ch["before"]) >= 3 and ch["before"] in cur:  # a step that repaired a piece
            cur = cur.replace(ch["before"], ch["after"], 1)
    return cur


def verdicts(gold: list[dict], rows: list[dict], treaty: str) -> list[tuple[dict, str]]:
    """Each gold case with what its token became."""
    mine = [r for r in rows if r["treaty"] == treaty]
    out = []
    for case in gold:
        holding = [r for r in mine if r["start_line"] <= case["line"] <= r["end_line"]]
        holding.sort(key=lambda r: (r["lang"] != case["lang"], r["end_line"] - r["start_line"]))
        got = case["before"]
        for r in holding:
            got = follow(case["before"], json.loads(r["changes"] or "[]"))
            if got != case["before"]:
                break
        out.append((case, got))
    return out


def report_gold(results: list[tuple[dict, str]], show: bool) -> dict[str, tuple[int, int]]:
    figures: dict[str, tuple[int, int]] = {}
    groups: dict[str, list[bool]] = {}
    for case, got in results:
        ok = got == case["after"]
        origin = "added" if case.get("added") else "original"
        for key in (case["half"], f"{case['half']}/{origin}", "all"):
            groups.setdefault(key, []).append(ok)
        if show and not ok:
            what = "missed" if got == case["before"] else f"WRONG -> {got!r}"
            print(f"  {case['half']:8} {case['line']:>5} {case['lang']} {case['before']!r} -> "
                  f"{case['after']!r}: {what}  ({case['note']})")
    for key in sorted(groups):
        oks = groups[key]
        figures[key] = (sum(oks), len(oks))
        print(f"gold 1965 {key:18} repaired {sum(oks):>3}/{len(oks):<3} = "
              f"{sum(oks) / len(oks):.1%}")
    return figures


def judged() -> dict[tuple[str, str], str]:
    doc = json.loads(JUDGED.read_text(encoding="utf-8"))
    return {(c["before"], c["after"]): c["verdict"] for c in doc["changes"]}


def false_changes(rows: list[dict], show: bool) -> tuple[int, int, int, Counter]:
    """(false changes, judged repairs, words, false ones by step) over the top-level units
    of `rows`."""
    verdict = judged()
    false = repairs = words = 0
    steps: Counter = Counter()
    for r in rows:
        if r["parent"]:
            continue
        words += len(WORDS.findall(r["text"]))
        for ch in json.loads(r["changes"] or "[]"):
            if ch["step"] in LAYOUT_STEPS:
                continue
            got = verdict.get((ch["before"], ch["after"]))
            if got == "repair":
                repairs += 1
                continue
            false += 1
            steps[ch["step"]] += 1
            if show:
                print(f"  {'FALSE' if got else 'UNJUDGED'} {r['file']} {r['lang']} {r['eid']} "
                      f"{ch['step']}: {ch['before']!r} -> {ch['after']!r}  ({ch['why']})")
    return false, repairs, words, steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", action="store_true", help="list missed cases and false changes")
    ap.add_argument("--no-clean", action="store_true", help="skip the clean corpora")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="treaty-ocr-") as tmp:
        measure(Path(tmp), args)


def measure(work: Path, args: argparse.Namespace) -> None:
    t0 = time.perf_counter()
    rows = units(ingest(ROOT / "corpus", work / "bundled"))
    gold = json.loads(GOLD.read_text(encoding="utf-8"))
    report_gold(verdicts(gold, rows, "br-se-1965"), args.show)
    if args.no_clean:
        return
    clean = [r for r in rows if r["file"] in CLEAN_BUNDLED]
    for name in ("corpus-extra", "corpus-wild"):
        if (SHARED / name).is_dir():
            clean += units(ingest(SHARED / name, work / name))
    false, repairs, words, steps = false_changes(clean, args.show)
    print(f"clean texts: {words} words, false changes {false} = {false / max(words, 1):.4%} "
          f"(target <= 0.01%), by step {dict(steps)}; typos and layout breaks repaired "
          f"{repairs}")
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
