"""How many articles the segmenter gets right when real treaties are re-typeset in other house
styles (issue 26), per value of each layout dimension of scripts/relayout.py.

    python scripts/measure_layouts.py                  # every dimension value, 6 styles x 3 files each
    python scripts/measure_layouts.py --samples 2 --files 2      # quicker
    python scripts/measure_layouts.py --alone            # each value with the others plain
    python scripts/measure_layouts.py --fresh            # the values written after tuning
    python scripts/measure_layouts.py --style 'para_label=1:,heading_word=Clause' -v

Each sample is a random style with the dimension fixed to the value measured (the others drawn
from all their values), printed from gold files of tests/cases/segments/ (drawn at random too)
and run through the pipeline (`indexer.pipeline.process`, the stages a `treaty ingest` runs per
document). An article is right when the version has an article of its number that starts on
the heading's line, ends on its last line and has the gold's number of paragraphs. Values
marked * are held out (scripts/relayout.py HELD_OUT): never looked at while tuning.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "scripts"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import relayout

GOLD = ROOT / "tests" / "cases" / "segments"
SHARED = ROOT.parent / "shared"


@dataclass(frozen=True)
class Result:
    file: str
    style: relayout.Style
    right: int
    total: int
    wrong: tuple[str, ...]


def load(gold_root: Path = GOLD) -> list[tuple[str, relayout.Treaty]]:
    """(file, model) of every gold file whose source is beside the project."""
    out = []
    for path in sorted(gold_root.rglob("*.json")):
        g = json.loads(path.read_text(encoding="utf-8"))
        src = SHARED / f"corpus-{g['corpus']}" / g["file"]
        if not src.exists():
            continue
        text = src.read_text(encoding="utf-8")
        out.append((f"{g['corpus']}/{g['file']}", relayout.read_treaty(text, g)[0]))
    return out


def found_articles(text: str) -> dict[tuple[str, int], tuple[int, int, int]]:
    """(lang, number) -> (start, end, paragraphs) of the articles the pipeline finds in `text`
    (the first article of a number in a version)."""
    from indexer.models import Decoded, DocMeta
    from indexer.pipeline import process

    doc, _removed = process(Decoded("layout.txt", text, "utf-8", ""),
                            DocMeta(file="layout.txt", treaty="xx-yy-2000"), topics=False)
    out: dict[tuple[str, int], tuple[int, int, int]] = {}
    for v in doc.versions:
        for u in v.units:
            if u.kind == "article" and u.number is not None:
                paras = sum(c.kind == "paragraph" for c in u.children)
                out.setdefault((v.lang, u.number, _suffix(u.label)), (u.start, u.end, max(paras, 1)))
    return out


def _suffix(label: str | None) -> str:
    s = "".join(c for c in (label or "") if c.isalpha())
    return s.upper() if len(s) == 1 and (label or "")[:1].isdigit() else ""


def score(name: str, treaty: relayout.Treaty, style: relayout.Style) -> Result:
    text, expected = relayout.render(treaty, style)
    found = found_articles(text)
    wrong = []
    for e in expected:
        got = found.get((e.lang, e.number, relayout._suffix(e.label)))
        why = _why(e, got)
        if why:
            wrong.append(f"{name} {e.lang} Art. {e.label}: {why}")
    return Result(name, style, len(expected) - len(wrong), len(expected), tuple(wrong))


def _why(e: relayout.Expected, got: tuple[int, int, int] | None) -> str:
    if got is None:
        return "missing"
    why = []
    if got[0] != e.start:
        why.append(f"start {got[0]} not {e.start}")
    if got[1] != e.end:
        why.append(f"end {got[1]} not {e.end}")
    if got[2] != e.paragraphs:
        why.append(f"paragraphs {got[2]} not {e.paragraphs}")
    return "; ".join(why)


def plan(treaties: list[tuple[str, relayout.Treaty]], samples: int, files: int, seed: int,
         alone: bool = False, fresh: dict | None = None) -> list[tuple[str, str, int, relayout.Style]]:
    """(dimension, value, treaty index, style) for every measurement; `alone`: each value
    with every other dimension at its plainest, on every file; `fresh`: values written after
    tuning (`relayout.FRESH`, `FRESH2`) instead, each in random styles of the others."""
    rng = random.Random(seed)
    jobs = []
    dimensions = fresh or relayout.DIMENSIONS
    if alone:
        return [(dim, value, k, relayout.Style(**{dim: value}))
                for dim, values in dimensions.items() for value in values
                for k in range(len(treaties)) if relayout.plausible(relayout.Style(**{dim: value}))]
    for dim, values in dimensions.items():
        for value in values:
            for _ in range(samples):
                style = relayout.random_style(rng, **{dim: value})
                for k in rng.sample(range(len(treaties)), min(files, len(treaties))):
                    jobs.append((dim, value, k, style))
    return jobs


_TREATIES: list[tuple[str, relayout.Treaty]] = []


def _run(job: tuple[str, str, int, relayout.Style]) -> tuple[str, str, Result]:
    dim, value, k, style = job
    if not _TREATIES:
        _TREATIES.extend(load())
    name, treaty = _TREATIES[k]
    return dim, value, score(name, treaty, style)


def report(results: list[tuple[str, str, Result]], verbose: bool) -> str:
    by_value: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    split = {True: [0, 0], False: [0, 0]}
    for dim, value, r in results:
        by_value[dim, value][0] += r.right
        by_value[dim, value][1] += r.total
    seen = set()
    for _dim, _value, r in results:
        key = (r.file, r.style)
        if key not in seen:
            seen.add(key)
            s = split[r.style.held_out()]
            s[0] += r.right
            s[1] += r.total
    lines = [("articles right (number, start, end, paragraphs), by dimension value (* held out,"
             " F written after tuning)")]
    measured = {(d, v) for d, v, _r in results}
    for dim, values in relayout.DIMENSIONS.items():
        fresh = [v for f in relayout.FRESH_SETS for v in f.get(dim, ())]
        values = [v for v in (*values, *fresh) if (dim, v) in measured]
        if not values:
            continue
        lines.append(f"  {dim}")
        for value in values:
            right, total = by_value[dim, value]
            mark = ("F" if value in fresh else
                    "*" if value in relayout.HELD_OUT[dim] else " ")
            pct = 100 * right / total if total else 0.0
            lines.append(f"   {mark} {value!r:22} {right:6} / {total:<6} {pct:6.2f}%")
    by_source: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for _dim, _value, r in results:
        source = r.file.rsplit("/", 1)[0]  # "wild/sv": the Swedish statute pages, …
        by_source[source][0] += r.right
        by_source[source][1] += r.total
    lines.append("by source of the gold treaty")
    for source, (right, total) in sorted(by_source.items()):
        lines.append(f"   {source:24} {right:6} / {total:<6} {100 * right / max(total, 1):6.2f}%")
    for held, name in ((False, "styles of tuning values only"), (True, "styles with a held-out value")):
        right, total = split[held]
        if total:
            lines.append(f"{name}: {right} / {total} = {100 * right / total:.2f}%")
    if verbose:
        for _dim, _value, r in results:
            lines.extend(f"  [{r.style.name()}] {w}" for w in r.wrong)
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--samples", type=int, default=6, help="random styles per dimension value")
    p.add_argument("--files", type=int, default=3, help="gold files per style")
    p.add_argument("--seed", type=int, default=26)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--alone", action="store_true",
                   help="each value alone (the other dimensions plain), on every file")
    p.add_argument("--fresh", action="store_true",
                   help="the values written after tuning (relayout.FRESH) instead")
    p.add_argument("--fresh2", action="store_true",
                   help="the second set written after tuning (relayout.FRESH2) instead")
    p.add_argument("--fresh3", action="store_true",
                   help="the third set written after tuning (relayout.FRESH3) instead")
    p.add_argument("--fresh4", action="store_true",
                   help="the fourth set written after tuning (relayout.FRESH4) instead")
    p.add_argument("--style", help="one style, as dim=value,dim=value (others plain), on every file")
    p.add_argument("-v", "--verbose", action="store_true", help="list every wrong article")
    args = p.parse_args()
    treaties = load()
    if not treaties:
        sys.exit("no gold sources: ../shared/corpus-wild and corpus-extra are not beside the project")
    if args.style:
        style = relayout.Style(**dict(kv.split("=", 1) for kv in args.style.split(",")))
        jobs = [("style", args.style, k, style) for k in range(len(treaties))]
    else:
        fresh = (relayout.FRESH4 if args.fresh4 else relayout.FRESH3 if args.fresh3
                 else relayout.FRESH2 if args.fresh2
                 else relayout.FRESH if args.fresh else None)
        jobs = plan(treaties, args.samples, args.files, args.seed, args.alone, fresh)
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(_run, jobs, chunksize=4))
    else:
        results = [_run(j) for j in jobs]
    if args.style:
        right = sum(r.right for _d, _v, r in results)
        total = sum(r.total for _d, _v, r in results)
        print(f"{args.style}: {right} / {total} = {100 * right / max(total, 1):.2f}%")
        if args.verbose:
            for _d, _v, r in results:
                print("\n".join(r.wrong))
        return
    print(report(results, args.verbose))


if __name__ == "__main__":
    main()
