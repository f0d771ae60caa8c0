"""Measure search relevance on the golden queries of tests/relevance.json, per engine.

For each engine the index is built from the store of a data directory into a temporary
directory (the store itself is not touched), every query is run through `search.results`, and
the script prints per query the rank of each expected article, then recall@5 (the share of
expected articles found in the top 5, averaged over queries), MRR (the reciprocal rank of the
first expected article found) and first@1 (the share of queries whose top hit is the article
listed first, the one that should come first; any expected one for a "tie" case: the same
provision in several treaties or versions), overall and per query language.

    python scripts/measure_relevance.py                  # ingests the bundled corpus first
    python scripts/measure_relevance.py --data data      # an existing store
    python scripts/measure_relevance.py --engines tantivy --quiet
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "relevance.json"
FILTERS = ("lang", "treaty", "party", "topic", "article", "kind")
TOP = 5


@dataclass(frozen=True)
class Outcome:
    case: dict
    ranked: tuple[str, ...]  # article ids "treaty/lang/eid", best first
    ranks: tuple[int | None, ...]  # 1-based rank of each expected article (None: not found)

    @property
    def recall(self) -> float:
        found = sum(1 for r in self.ranks if r is not None and r <= TOP)
        return found / len(self.ranks)

    @property
    def rr(self) -> float:
        found = [r for r in self.ranks if r is not None]
        return 1.0 / min(found) if found else 0.0

    @property
    def first(self) -> bool:
        """The article that should come first did; with "tie" (the same provision in several
        treaties or versions) any expected article may be first."""
        return self.ranks[0] == 1 or (bool(self.case.get("tie")) and 1 in self.ranks)

    @property
    def top1(self) -> str | None:
        return self.ranked[0] if self.ranked else None


def load_cases(path: Path = CASES) -> list[dict]:
    return json.loads(path.read_text("utf-8"))


_HAN = re.compile(r"[\u3400-\u9fff]")


def query_lang(case: dict) -> str:
    """The language a query is written in (for the per-language counts): zh when it has Han
    characters, else the language of its first expected article unless the query is
    cross-language (then the note says so and the query is English or Swedish)."""
    if _HAN.search(case["query"]):
        return "zh"
    note = case.get("note", "")
    if note.startswith("cross-language"):
        m = re.search(r"(English|Swedish|Portuguese|Chinese) query", note)
        return {"English": "en", "Swedish": "sv", "Portuguese": "pt",
                "Chinese": "zh"}.get(m.group(1), "en") if m else "en"
    return case["expect"][0].split("/")[1]


def evaluate(session, cases: Sequence[dict], limit: int = 20) -> list[Outcome]:
    """Run every case through a `search.results.SearchSession`."""
    out = []
    for case in cases:
        filters = {k: case[k] for k in FILTERS if k in case}
        result = session.search(case["query"], limit=limit, **filters)
        ranked = tuple(f"{h['treaty']}/{h['lang']}/{h['eid']}" for h in result["hits"])
        ranks = tuple(ranked.index(e) + 1 if e in ranked else None for e in case["expect"])
        out.append(Outcome(case, ranked, ranks))
    return out


def summary(outcomes: Sequence[Outcome]) -> dict:
    """recall@5, MRR and first@1 overall and per query language, with the number of queries."""
    def stats(items: Sequence[Outcome]) -> dict:
        n = len(items)
        return {"queries": n,
                "recall@5": round(sum(o.recall for o in items) / n, 4) if n else 0.0,
                "mrr": round(sum(o.rr for o in items) / n, 4) if n else 0.0,
                "first@1": round(sum(o.first for o in items) / n, 4) if n else 0.0}

    by_lang: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_lang.setdefault(query_lang(o.case), []).append(o)
    return {"all": stats(outcomes), **{lg: stats(v) for lg, v in sorted(by_lang.items())}}


def table(engine: str, outcomes: Sequence[Outcome]) -> str:
    lines = [f"== {engine} ==", f"{'query':44} {'filters':28} {'ranks':12} top hit"]
    for o in outcomes:
        filters = " ".join(f"{k}={o.case[k]}" for k in FILTERS if k in o.case)
        ranks = ",".join(str(r) if r else "-" for r in o.ranks)
        flag = "" if o.recall == 1 and o.first else "  <--"
        lines.append(f"{o.case['query'][:44]:44} {filters[:28]:28} {ranks:12} "
                     f"{o.top1 or '-'}{flag}")
    s = summary(outcomes)
    lines.append("")
    for key, v in s.items():
        lines.append(f"{key:4} queries {v['queries']:3}  recall@5 {v['recall@5']:.3f}  "
                     f"MRR {v['mrr']:.3f}  first@1 {v['first@1']:.3f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None,
                    help="data directory with the store (default: ingest the bundled corpus "
                         "into a temporary one)")
    ap.add_argument("--engines", default="whoosh,tantivy")
    ap.add_argument("--quiet", action="store_true", help="only the summary lines")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from indexer.index import build_index, index_docs
    from search.results import SearchSession

    cases = load_cases()
    with tempfile.TemporaryDirectory() as tmp:
        data = args.data
        if data is None:
            from indexer.pipeline import ingest

            data = Path(tmp) / "data"
            ingest(ROOT / "corpus", data)
        top1: dict[str, list[str | None]] = {}
        for engine in args.engines.split(","):
            index_dir = Path(tmp) / f"index-{engine}"
            build_index(index_docs(data), index_dir, engine=engine)
            with SearchSession(data, index_dir) as session:
                outcomes = evaluate(session, cases)
            top1[engine] = [o.top1 for o in outcomes]
            text = table(engine, outcomes)
            print("\n".join(text.splitlines()[-6:]) if args.quiet else text)
            print()
        if len(top1) == 2:
            a, b = top1.values()
            same = sum(1 for x, y in zip(a, b, strict=True) if x == y)
            print(f"same top-1 article on both engines: {same} of {len(a)} queries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
