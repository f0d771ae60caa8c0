"""How well the topic page's rows line up paragraphs that say the same thing: rows by
content (`search.compare.rows.align_rows`, what the page shows) against rows by printed
paragraph number (`number_rows`, what it showed before), on the hand-read gold of the bundled
texts (tests/topic_rows_gold.json).

A topic's score is over pairs of gold-listed paragraphs of two different columns: a pair is
predicted when the two share a row, and correct when the gold puts them in one group; the
figure is the F1 of predicted against gold pairs (a paragraph in no row, as one without a
printed number is by number, predicts no pair). The topics are split into a tune half
(crc32 of the topic key even) and a measure half (odd), fixed before any tuning; the weights
were tuned on the tune half only.

    .venv/bin/python scripts/measure_topic_rows.py [--data DIR] [--lang en] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GOLD = ROOT / "tests" / "topic_rows_gold.json"


def half(topic: str) -> str:
    return "tune" if zlib.crc32(topic.encode()) % 2 == 0 else "measure"


def load_gold(path: Path = GOLD) -> dict[str, list[list[str]]]:
    return json.loads(path.read_text("utf-8"))["topics"]


def _pairs(groups: list[set[str]]) -> set[frozenset[str]]:
    """Unordered pairs of paragraphs of different treaties within a group."""
    return {frozenset((a, b)) for g in groups for a, b in combinations(sorted(g), 2)
            if a.split()[0] != b.split()[0]}


def score(rows: list[set[str]], gold: list[list[str]]) -> dict:
    """Pair precision, recall and F1 of `rows` (sets of "treaty eId") against `gold`."""
    listed = {p for g in gold for p in g}
    predicted = _pairs([r & listed for r in rows])
    wanted = _pairs([set(g) for g in gold])
    hit = len(predicted & wanted)
    prec = hit / len(predicted) if predicted else 1.0
    rec = hit / len(wanted) if wanted else 1.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return {"pairs": len(wanted), "predicted": len(predicted), "correct": hit,
            "precision": prec, "recall": rec, "f1": f1}


def topic_rows(corpus, topic: str, lang: str | None, table, weights=None) -> dict:
    """Rows of one topic page, by content and by number, as sets of "treaty eId"."""
    from search.compare import compare_topic, topic_columns
    from search.compare.rows import WEIGHTS, align_rows, number_rows
    from search.compare.topic import paragraph_versions

    columns = topic_columns(corpus, compare_topic(corpus, topic)["articles"], lang)
    kids = [c["head"]["children"] for c in columns]
    ids = [[f"{c['treaty'].id} {p['eid']}" for p in k] for c, k in zip(columns, kids, strict=True)]

    def named(rows):
        return [{ids[k][j] for k, j in enumerate(row) if j is not None} for row in rows]

    paras = [paragraph_versions(corpus, c) for c in columns]
    return {"content": named(align_rows(paras, table, weights or WEIGHTS)),
            "number": named(number_rows([[p["num"] for p in k] for k in kids])),
            "paragraphs": {i for col in ids for i in col}}


def measure(data: Path, lang: str | None = None, weights=None,
            gold: dict[str, list[list[str]]] | None = None) -> dict:
    """Per half and method: the summed pair counts and their F1; per topic the scores."""
    from indexer.datadir import live
    from indexer.index.generations import live_generation
    from indexer.index.terms import load_terms
    from search.corpus import Corpus

    gold = gold or load_gold()
    gen = live_generation(live(data) / "index")
    table = load_terms(gen) if gen else {}
    out: dict = {"topics": {}, "halves": {}}
    with Corpus(data) as corpus:
        for topic, groups in sorted(gold.items()):
            rows = topic_rows(corpus, topic, lang, table, weights)
            missing = sorted({p for g in groups for p in g} - rows["paragraphs"])
            if missing:
                raise SystemExit(f"gold names paragraphs not on the {topic} page: {missing[:3]}")
            out["topics"][topic] = {m: score(rows[m], groups) for m in ("content", "number")}
            out["topics"][topic]["half"] = half(topic)
    for h in ("tune", "measure", "all"):
        out["halves"][h] = {m: _total([s[m] for s in out["topics"].values()
                                       if h == "all" or s["half"] == h])
                            for m in ("content", "number")}
    return out


def _total(scores: list[dict]) -> dict:
    wanted = sum(s["pairs"] for s in scores)
    predicted = sum(s["predicted"] for s in scores)
    hit = sum(s["correct"] for s in scores)
    prec = hit / predicted if predicted else 1.0
    rec = hit / wanted if wanted else 1.0
    return {"topics": len(scores), "pairs": wanted, "precision": round(prec, 3),
            "recall": round(rec, 3), "f1": round(2 * prec * rec / (prec + rec), 3)
            if prec + rec else 0.0}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT / "data")
    ap.add_argument("--lang", default=None, help="the page's language (default: each treaty's first)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = measure(args.data, args.lang)
    if args.json:
        print(json.dumps(result, indent=1, default=str))
        return 0
    for topic, s in result["topics"].items():
        print(f"{topic:26} {s['half']:8} content F1 {s['content']['f1']:.3f}   "
              f"number F1 {s['number']['f1']:.3f}   ({s['content']['pairs']} gold pairs)")
    for h, s in result["halves"].items():
        c, n = s["content"], s["number"]
        print(f"{h:8} ({c['topics']} topics, {c['pairs']} pairs): by content P {c['precision']} "
              f"R {c['recall']} F1 {c['f1']}  |  by number P {n['precision']} R {n['recall']} "
              f"F1 {n['f1']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
