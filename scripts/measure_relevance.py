"""Measure search relevance on the golden queries of tests/relevance.json, per engine.

Each case names the corpus it is written for: "bundled" (corpus/) or "all" (the bundled corpus
plus the texts of shared/corpus-extra listed in tests/cases/relevance_extra.toml); its
"category" (exact, typo, partial, paraphrase, question, cross-language, traditional, ocr,
filter, syntax) and its "half": "tune" (may be looked at while tuning ranking) or "measure"
(measure only: alternate cases of each category, fixed in the file).

For each engine and corpus the index is built from the store into a temporary directory,
every query is run through `search.results`, and the script prints per query the rank of each
expected article, then recall@5 (the share of expected articles found in the top 5, averaged
over queries), MRR (the reciprocal rank of the first expected article found) and first@1 (the
share of queries whose top hit is the article listed first; any expected one for a "tie"
case), overall, per half, per category and per query language.

    python scripts/measure_relevance.py                  # ingests both corpora first
    python scripts/measure_relevance.py --engines tantivy --quiet
    python scripts/measure_relevance.py --half measure --json
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
EXTRA_MANIFEST = ROOT / "tests" / "cases" / "relevance_extra.toml"
EXTRA = ROOT.parent / "shared" / "corpus-extra"
FILTERS = ("lang", "treaty", "party", "topic", "article", "kind")
TOP = 5


@dataclass(frozen=True)
class Outcome:
    case: dict
    ranked: tuple[frozenset[str], ...]  # per hit its article ids "treaty/lang/eid", best first
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
        return min(self.ranked[0]) if self.ranked else None


def load_cases(path: Path = CASES) -> list[dict]:
    return json.loads(path.read_text("utf-8"))


_HAN = re.compile(r"[\u3400-\u9fff]")


def query_lang(case: dict) -> str:
    """The language a query is written in (for the per-language counts): zh when it has Han
    characters, else the language of its first expected article unless the query is
    cross-language (then the note says so and the query is English or Swedish); "qlang" when
    the case gives it."""
    if case.get("qlang"):
        return case["qlang"]
    if _HAN.search(case["query"]):
        return "zh"
    note = case.get("note", "")
    if note.startswith("cross-language"):
        m = re.search(r"(English|Swedish|Portuguese|Chinese) query", note)
        return {"English": "en", "Swedish": "sv", "Portuguese": "pt",
                "Chinese": "zh"}.get(m.group(1), "en") if m else "en"
    return case["expect"][0].split("/")[1]


def hit_ids(hit: dict) -> frozenset[str]:
    """The article ids a hit stands for: one per language version it groups ("languages",
    when the hit lists them), else its own."""
    langs = hit.get("languages") or [hit["lang"]]
    return frozenset(f"{hit['treaty']}/{lg}/{hit['eid']}" for lg in langs)


def evaluate(session, cases: Sequence[dict], limit: int = 20) -> list[Outcome]:
    """Run every case through a `search.results.SearchSession`."""
    out = []
    for case in cases:
        filters = {k: case[k] for k in FILTERS if k in case}
        result = session.search(case["query"], limit=limit, **filters)
        ranked = tuple(hit_ids(h) for h in result["hits"])
        ranks = tuple(next((i + 1 for i, ids in enumerate(ranked) if e in ids), None)
                      for e in case["expect"])
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

    parts: dict[str, list[Outcome]] = {}
    for o in outcomes:
        for key in (f"half:{o.case.get('half', 'tune')}", f"kind:{o.case.get('category')}",
                    f"lang:{query_lang(o.case)}"):
            parts.setdefault(key, []).append(o)
    return {"all": stats(outcomes), **{k: stats(v) for k, v in sorted(parts.items())}}


def table(engine: str, outcomes: Sequence[Outcome]) -> str:
    lines = [f"== {engine} ==", f"{'query':44} {'filters':28} {'ranks':12} top hit"]
    for o in outcomes:
        filters = " ".join(f"{k}={o.case[k]}" for k in FILTERS if k in o.case)
        ranks = ",".join(str(r) if r else "-" for r in o.ranks)
        flag = "" if o.recall == 1 and o.first else "  <--"
        lines.append(f"{o.case['query'][:44]:44} {filters[:28]:28} {ranks:12} "
                     f"{o.top1 or '-'}{flag}")
    lines.append("")
    lines += summary_lines(outcomes)
    return "\n".join(lines)


def summary_lines(outcomes: Sequence[Outcome]) -> list[str]:
    return [f"{key:22} queries {v['queries']:3}  recall@5 {v['recall@5']:.3f}  "
            f"MRR {v['mrr']:.3f}  first@1 {v['first@1']:.3f}"
            for key, v in summary(outcomes).items()]


def combined_corpus(dest: Path, extra: Path = EXTRA) -> Path:
    """The bundled corpus plus the corpus-extra texts of tests/cases/relevance_extra.toml,
    copied into `dest` (under extra/) with one manifest."""
    import shutil
    import tomllib

    shutil.copytree(ROOT / "corpus", dest)
    fragment = EXTRA_MANIFEST.read_text("utf-8")
    for doc in tomllib.loads(fragment)["document"]:
        target = dest / "extra" / doc["file"]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(extra / doc["file"], target)
    manifest = dest / "manifest.toml"
    manifest.write_text(manifest.read_text("utf-8") + "\n"
                        + fragment.replace('file = "', 'file = "extra/'), "utf-8")
    return dest


def corpus_of(case: dict) -> str:
    return case.get("corpus", "bundled")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engines", default="whoosh,tantivy")
    ap.add_argument("--quiet", action="store_true", help="only the summary lines")
    ap.add_argument("--half", choices=("tune", "measure"), default=None,
                    help="only the cases of this half")
    ap.add_argument("--json", action="store_true", help="the summaries as JSON")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    cases = [c for c in load_cases() if args.half in (None, c.get("half"))]
    if not EXTRA.is_dir():
        print(f"{EXTRA} not found: only the cases over the bundled corpus", file=sys.stderr)
        cases = [c for c in cases if corpus_of(c) == "bundled"]
    with tempfile.TemporaryDirectory() as tmp:
        datas = _ingested(Path(tmp), {corpus_of(c) for c in cases})
        top1: dict[str, list[str | None]] = {}
        report = {}
        for engine in args.engines.split(","):
            outcomes = run_engine(engine, datas, cases, Path(tmp))
            top1[engine] = [o.top1 for o in outcomes]
            report[engine] = summary(outcomes)
            if args.json:
                continue
            text = table(engine, outcomes)
            print(f"== {engine} ==\n" + "\n".join(summary_lines(outcomes)) if args.quiet
                  else text)
            print()
        if args.json:
            print(json.dumps(report, indent=1))
            return 0
        if len(top1) == 2:
            a, b = top1.values()
            same = sum(1 for x, y in zip(a, b, strict=True) if x == y)
            print(f"same top-1 article on both engines: {same} of {len(a)} queries")
    return 0


def _ingested(tmp: Path, corpora: set[str]) -> dict[str, Path]:
    """Corpus name -> a data directory it was ingested into."""
    from indexer.pipeline import ingest

    out = {}
    for name in sorted(corpora):
        src = ROOT / "corpus" if name == "bundled" else combined_corpus(tmp / "corpus-all")
        out[name] = tmp / f"data-{name}"
        ingest(src, out[name])
    return out


def run_engine(engine: str, datas: dict[str, Path], cases: Sequence[dict],
               tmp: Path) -> list[Outcome]:
    """The outcomes of `cases` (in order) on indexes built with `engine`."""
    from indexer.datadir import live
    from indexer.index import build_index, index_docs
    from search.results import SearchSession

    done: dict[int, Outcome] = {}
    for name, data in datas.items():
        index_dir = tmp / f"index-{engine}-{name}"
        build_index(index_docs(live(data)), index_dir, engine=engine)
        mine = [(i, c) for i, c in enumerate(cases) if corpus_of(c) == name]
        with SearchSession(live(data), index_dir) as session:
            for (i, _c), o in zip(mine, evaluate(session, [c for _i, c in mine]), strict=True):
                done[i] = o
    return [done[i] for i in range(len(cases))]


if __name__ == "__main__":
    sys.exit(main())
