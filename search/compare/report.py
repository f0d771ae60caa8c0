"""The links a person should check first."""

from __future__ import annotations

from search.compare.links import links
from search.corpus import Corpus

_LEVEL_ORDER = {"article": 0, "paragraph": 1, "point": 2}


def align_report(corpus: Corpus, treaty: str, limit: int = 20) -> list[dict]:
    """The lowest-confidence links of `treaty` (units without counterpart first), with the
    start of both texts, for a person to check."""
    t = corpus.treaty(treaty)
    texts = {(r["lang"], r["eid"]): r["text"] for r in corpus.db.execute(
        "SELECT lang, eid, text FROM units WHERE treaty=?", (t.id,))}
    rows = sorted(links(corpus, t.id),
                  key=lambda x: (x["score"], _LEVEL_ORDER.get(x["level"], 3), x["eid"],
                                 x["eid_b"]))
    out = []
    for x in rows[:limit] if limit else rows:
        out.append({
            "lang_a": x["lang_a"], "eid_a": x["eid"], "lang_b": x["lang_b"],
            "eid_b": x["eid_b"], "level": x["level"], "score": x["score"],
            "method": x["method"],
            "text_a": texts.get((x["lang_a"], x["eid"]), ""),
            "text_b": texts.get((x["lang_b"], x["eid_b"]), ""),
        })
    return out
