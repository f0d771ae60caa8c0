"""Whether two checkouts give the same search results, and whether both engines agree: every
query of the relevance set (tests/relevance.json) run through `search.results.SearchSession`
by each checkout in a fresh process whose imports come from that checkout, each on its own
ingest of the same corpora (the bundled corpus; with ../shared/corpus-extra, the texts of
tests/cases/relevance_extra.toml added), with each engine's index built from its store.

Compared per query: the hits (article, language, the versions a hit groups), in order, and the
total; and, within this checkout, the two engines' top five.

    python scripts/compare_results.py --baseline /tmp/main-before   # speed work vs before it
    python scripts/compare_results.py                                # engines only

Outcomes only, no timings.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure_relevance import CASES, EXTRA, FILTERS, combined_corpus, corpus_of, load_cases

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ("whoosh", "tantivy")
TOP = 5

_RUN = """
import json, sys
from pathlib import Path
def main():
    from indexer.datadir import live
    from indexer.index import build_index, index_docs
    from indexer.pipeline import ingest
    from search.results import SearchSession
    corpora, cases, engines, filters = (json.loads(a) for a in sys.argv[1:5])
    tmp = Path(sys.argv[5])
    out = {}
    for name, src in corpora.items():
        data = tmp / f"data-{name}"
        ingest(src, data)
        for engine in engines:
            index_dir = tmp / f"index-{engine}-{name}"
            build_index(index_docs(live(data)), index_dir, engine=engine)
            with SearchSession(live(data), index_dir) as session:
                for i, case in cases.items():
                    if case["corpus"] != name:
                        continue
                    try:  # (a query over its time limit on a loaded machine: not compared)
                        got = session.search(case["query"], limit=20,
                                             **{k: case[k] for k in filters if k in case})
                    except Exception as exc:
                        out.setdefault(engine, {})[i] = {"error": str(exc)}
                        continue
                    hits = [[h["treaty"], h["lang"], h["eid"], h.get("languages") or []]
                            for h in got["hits"]]
                    out.setdefault(engine, {})[i] = {"hits": hits, "total": got.get("total")}
    print(json.dumps(out))
if __name__ == "__main__":
    main()
"""


def results(code: Path, cases: list[dict], corpora: dict[str, str], tmp: Path) -> dict:
    """engine -> query number -> {"hits", "total"} of checkout `code`."""
    work = tmp / code.name
    work.mkdir()
    env = dict(os.environ, PYTHONPATH=str(code), TREATY_CACHE=str(work / "cache"))
    numbered = {str(i): {**c, "corpus": corpus_of(c)} for i, c in enumerate(cases)}
    done = subprocess.run(
        [sys.executable, "-c", _RUN, json.dumps(corpora), json.dumps(numbered),
         json.dumps(ENGINES), json.dumps(FILTERS), str(work)],
        cwd=code, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{code}: failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def compared(a: dict, b: dict) -> list[str]:
    """The query numbers both `a` and `b` answered (neither over its time limit)."""
    return [i for i in a if "error" not in a[i] and "error" not in b[i]]


def differences(a: dict, b: dict) -> list[str]:
    """The query numbers whose hits (in order) or totals differ between `a` and `b`."""
    return [i for i in compared(a, b)
            if a[i]["hits"] != b[i]["hits"] or a[i]["total"] != b[i]["total"]]


def top_five(hits: list) -> list:
    return [tuple(h[:3]) for h in hits[:TOP]]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--baseline", type=Path, default=None, help="Another checkout to compare.")
    p.add_argument("--save", type=Path, default=None, help="Write every result as JSON here.")
    args = p.parse_args()
    cases = load_cases(CASES)
    if not EXTRA.is_dir():
        print(f"{EXTRA} not found: only the cases over the bundled corpus", file=sys.stderr)
        cases = [c for c in cases if corpus_of(c) == "bundled"]
    with tempfile.TemporaryDirectory(prefix="compare-results-") as tmp_name:
        tmp = Path(tmp_name)
        corpora = {"bundled": str(ROOT / "corpus")}
        if any(corpus_of(c) == "all" for c in cases):
            corpora["all"] = str(combined_corpus(tmp / "corpus-all"))
        mine = results(ROOT, cases, corpora, tmp)
        base = results(args.baseline.resolve(), cases, corpora, tmp) if args.baseline else None
    if args.save:
        args.save.write_text(json.dumps({"cases": cases, "this": mine, "baseline": base}), "utf-8")
    n = len(cases)
    for engine in ENGINES:
        if base is not None:
            diff = differences(base[engine], mine[engine])
            both = len(compared(base[engine], mine[engine]))
            print(f"{engine}: hits and order the same as the baseline's on {both - len(diff)} "
                  f"of {both} queries ({n - both} over their time limit, not compared)")
            for i in diff:
                print(f"  differs: {cases[int(i)]['query']!r}: {base[engine][i]['hits'][:5]} "
                      f"-> {mine[engine][i]['hits'][:5]}")
    both = compared(mine["whoosh"], mine["tantivy"])
    split = [i for i in both if top_five(mine["whoosh"][i]["hits"])
             != top_five(mine["tantivy"][i]["hits"])]
    print(f"whoosh and tantivy: the same top five (article, language, order) on "
          f"{len(both) - len(split)} of {len(both)} queries")
    for i in split:
        a, b = (top_five(mine[e][i]["hits"]) for e in ENGINES)
        kind = "order" if set(a) == set(b) else f"{len(set(a) - set(b))} other articles"
        print(f"  differs ({kind}): {cases[int(i)]['query']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
