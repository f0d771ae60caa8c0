"""Recall and precision of the rates stage against the hand-read gold of
`tests/cases/rates.json`, per treaty, per half of the gold's split (tune / measure) and per
kind of rate row (limit, branch-profits, mfn); and the checks on the condition phrases.

    python scripts/measure_rates.py                    # ingests bundled, extra and wild corpora
    python scripts/measure_rates.py --data wild=/tmp/w # use a store already made for a corpus
    python scripts/measure_rates.py --json
    python scripts/measure_rates.py --only wild --quiet

A stated rate matches a gold rate when treaty, unit eId, income (topic), kind and rate are
the same (an exemption is a rate of 0); every rate the stage states in a gold treaty that the
gold lacks is a false positive. "Wrong kind" counts the residence-state exemptions and
branch-profits taxes the stage presents as withholding limits (the gold has no limit there):
the issue's acceptance wants none.

The condition checks, on every stated rate of a gold treaty: a rate that shares its income
and article with another rate has a non-empty condition phrase; no phrase ends inside a word
("…law of th…"); asked in a language the treaty has, the phrase is in it.
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
SHARED = ROOT.parent / "shared"
CORPORA = {"bundled": ROOT / "corpus", "extra": SHARED / "corpus-extra",
           "wild": SHARED / "corpus-wild"}
KINDS = ("limit", "branch-profits", "mfn")


def _key(topic: str, kind: str | None, eid: str, rate) -> tuple:
    return (eid, topic, kind or "limit", None if rate is None else round(float(rate), 4))


def gold_keys(gold: dict) -> dict[str, set[tuple]]:
    return {t: {_key(r["topic"], r.get("kind"), r["eid"], r["rate"]) for r in g["rates"]}
            for t, g in gold["treaties"].items()}


def stated_rows(data: Path) -> list[dict]:
    """Every current rate row of the store in `data` (the text as amended, today)."""
    from indexer import store

    with closing(store.connect(data)) as db:
        cols = {r[1] for r in db.execute("PRAGMA table_info(rates)")}
        where = " WHERE in_force_to IS NULL" if "in_force_to" in cols else ""
        return [dict(r) for r in db.execute(f"SELECT * FROM rates{where}")]


def stated_keys(data: Path | list[dict]) -> dict[str, set[tuple]]:
    rows = stated_rows(data) if isinstance(data, Path) else data
    out: dict[str, set[tuple]] = {}
    for r in rows:
        out.setdefault(r["treaty"], set()).add(
            _key(r["topic"], r.get("kind"), r["eid"], r["rate"]))
    return out


def score(gold: set, stated: set) -> dict:
    hit = len(gold & stated)
    return {"gold": len(gold), "stated": len(stated), "matched": hit,
            "recall": hit / len(gold) if gold else 1.0,
            "precision": hit / len(stated) if stated else 1.0,
            "missed": sorted(map(str, gold - stated)), "extra": sorted(map(str, stated - gold))}


def _wrong_kind(gold: dict[str, set[tuple]], stated: dict[str, set[tuple]]) -> list[str]:
    """Stated withholding limits that the gold says are no limit: at a unit where the gold
    has a branch-profits row, or a dividend exemption (a limit of 0) at a unit where the
    gold has no row at all (the texts' dividend exemptions that are no rate are a residence
    state's)."""
    out = []
    for t, keys in stated.items():
        g = gold.get(t, set())
        branch = {k[0] for k in g if k[2] == "branch-profits"}
        rowed = {k[0] for k in g}
        for k in keys:
            if k[2] != "limit" or k in g:
                continue
            if k[0] in branch:
                out.append(f"{t} {k} (a branch-profits tax stated as a limit)")
            elif k[1] == "dividends" and k[3] == 0 and k[0] not in rowed:
                out.append(f"{t} {k} (a residence state's exemption stated as a limit)")
    return out


def measure(gold: dict, stated: dict[str, set[tuple]]) -> dict:
    keys = gold_keys(gold)
    per_treaty = {t: score(keys[t], stated.get(t, set())) for t in keys}
    halves = {}
    for half, treaties in gold["split"].items():
        g = {(t, *k) for t in treaties for k in keys.get(t, ())}
        s = {(t, *k) for t in treaties if t in keys for k in stated.get(t, set())}
        whole = {k: v for k, v in score(g, s).items() if k not in ("missed", "extra")}
        whole["kinds"] = {kind: {k: v for k, v in score(
            {x for x in g if x[3] == kind}, {x for x in s if x[3] == kind}).items()
            if k not in ("missed", "extra")} for kind in KINDS}
        halves[half] = whole
    return {"treaties": per_treaty, "halves": halves,
            "wrong_kind": _wrong_kind(keys, {t: v for t, v in stated.items() if t in keys})}


def phrase_checks(data: Path, treaties: set[str]) -> dict:
    """The condition checks (module doc) on the rates of `treaties` in the store `data`, in
    each of the treaty's languages."""
    from search.corpus import Corpus
    from search.rates import cut_in_word, rates

    out = {"rates": 0, "needed": 0, "empty_needed": [], "cut": [], "wrong_lang": []}
    with Corpus(data) as corpus:
        for t in sorted(treaties):
            if not corpus.has_treaty(t):
                continue
            langs = [lg for lg in corpus.treaty(t).languages if lg in ("en", "pt", "sv", "zh")]
            for lang in langs:
                rows = rates(corpus, treaty=t, lang=lang)["rates"]
                shared: dict[tuple, int] = {}
                for r in rows:
                    if r["kind"] == "limit":
                        key = (r["topic"], r["unit"].split("/")[2].split("__")[0])
                        shared[key] = shared.get(key, 0) + 1
                for r in rows:
                    out["rates"] += 1
                    where = f"{t} {lang} {r['unit'].split('/')[2]} {r['topic']} {r['rate']}"
                    need = r["kind"] == "limit" and shared.get((r["topic"], r["unit"].split(
                        "/")[2].split("__")[0]), 0) > 1
                    out["needed"] += need
                    if need and not r["condition"]:
                        out["empty_needed"].append(where)
                    if r["condition"] and cut_in_word(r["condition"], r["quote"]):
                        out["cut"].append(f"{where}: …{r['condition'][-30:]}")
                    if r["condition"] and r["condition_lang"] != lang:
                        out["wrong_lang"].append(f"{where}: {r['condition_lang']}")
    return out


def _ingest(corpus: Path, into: Path) -> Path:
    from indexer.pipeline import ingest

    ingest(corpus, into, workers=2)
    return into


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", action="append", default=[], metavar="NAME=DIR",
                   help="use the store in DIR for corpus NAME (bundled, extra, wild) instead "
                   "of ingesting it")
    p.add_argument("--only", action="append", default=[], metavar="NAME",
                   help="measure only these corpora")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true", help="only the totals and what was missed")
    args = p.parse_args()
    gold = json.loads(GOLD.read_text("utf-8"))
    given = dict(x.split("=", 1) for x in args.data)
    names = args.only or list(CORPORA)
    gold["treaties"] = {t: g for t, g in gold["treaties"].items() if g["corpus"] in names}
    gold["split"] = {h: [t for t in ts if t in gold["treaties"]] for h, ts in gold["split"].items()}
    stated: dict[str, set[tuple]] = {}
    checks: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            corpus = CORPORA[name]
            if name in given:
                data = Path(given[name])
            elif corpus.is_dir():
                data = _ingest(corpus, Path(tmp) / name)
            else:
                continue
            stated.update(stated_keys(data))
            own = {t for t, g in gold["treaties"].items() if g["corpus"] == name}
            for k, v in phrase_checks(data, own).items():
                checks[k] = checks.get(k, 0 if isinstance(v, int) else []) + v
    result = measure(gold, stated)
    result["conditions"] = checks
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    _print(result, gold, args.quiet)


def _print(result: dict, gold: dict, quiet: bool) -> None:
    for t, s in result["treaties"].items():
        half = next(h for h, ts in gold["split"].items() if t in ts)
        if not quiet or s["missed"] or s["extra"]:
            print(f"{t:<22} {half:<8} gold {s['gold']:>2} stated {s['stated']:>2} "
                  f"recall {s['recall']:.2f} precision {s['precision']:.2f}")
        for m in s["missed"]:
            print(f"    missed {m}")
        for e in s["extra"]:
            print(f"    extra  {e}")
    for half, s in result["halves"].items():
        print(f"{half:<8} gold {s['gold']:>3} stated {s['stated']:>3} matched {s['matched']:>3} "
              f"recall {s['recall']:.3f} precision {s['precision']:.3f}")
        for kind, k in s["kinds"].items():
            print(f"    {kind:<15} gold {k['gold']:>3} stated {k['stated']:>3} "
                  f"recall {k['recall']:.3f} precision {k['precision']:.3f}")
    print(f"wrong kind (residence exemption or branch tax as a limit): {len(result['wrong_kind'])}")
    for w in result["wrong_kind"]:
        print(f"    {w}")
    c = result["conditions"]
    if c:
        print(f"conditions: {c['rates']} rates in each language, {c['needed']} need a phrase; "
              f"empty where needed {len(c['empty_needed'])}, cut in a word {len(c['cut'])}, "
              f"in another language {len(c['wrong_lang'])}")
        for name in ("empty_needed", "cut", "wrong_lang"):
            for x in c[name][:15]:
                print(f"    {name}: {x}")


if __name__ == "__main__":
    main()
