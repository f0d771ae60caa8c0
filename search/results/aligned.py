"""The paragraphs aligned with a hit's paragraphs in the treaty's other languages, from the
store's links."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

#: (lang, eid, the hit paragraph it is aligned with, method, score)
_Pair = tuple[str, str, str, str, float | None]


def _linked(db: sqlite3.Connection, treaty: str, lang: str, eid: str) -> list[_Pair]:
    """The units linked with `eid` (either side of a link), best first; no unmatched ones."""
    rows = db.execute(
        "SELECT lang_b AS lang, eid_b AS eid, method, score FROM links "
        "WHERE treaty=? AND lang_a=? AND eid=? AND eid_b != '' "
        "UNION ALL SELECT lang_a, eid, method, score FROM links "
        "WHERE treaty=? AND lang_b=? AND eid_b=? AND eid != '' "
        "ORDER BY score DESC",
        (treaty, lang, eid, treaty, lang, eid),
    ).fetchall()
    return [(r["lang"], r["eid"], eid, r["method"], r["score"]) for r in rows
            if r["method"] != "unmatched"]


def _pairs(db: sqlite3.Connection, treaty: str, lang: str, eids: Sequence[str],
           other: list[str]) -> list[_Pair]:
    has_links = db.execute("SELECT 1 FROM links WHERE treaty=? LIMIT 1",
                           (treaty,)).fetchone() is not None
    pairs: list[_Pair] = []
    for eid in eids:
        if has_links:
            pairs.extend(_linked(db, treaty, lang, eid))
        else:
            pairs.extend((lg, eid, eid, "same-eid", None) for lg in other)
    return pairs


def aligned_units(db: sqlite3.Connection, treaty: str, languages: Sequence[str], lang: str,
                  eids: Sequence[str]) -> dict[str, list[dict]]:
    """The units aligned with `eids` (of `treaty` in `lang`) in the treaty's other
    `languages`, from the store's links; where the treaty has no links at all, the units
    with the same eId (method "same-eid"). Per language, each once, best link first."""
    other = [lg for lg in languages if lg != lang]
    if not other or not eids:
        return {}
    out: dict[str, list[dict]] = {}
    seen: set[tuple[str, str]] = set()
    for lg, eid, of, method, score in _pairs(db, treaty, lang, eids, other):
        if lg not in other or (lg, eid) in seen:
            continue
        seen.add((lg, eid))
        row = db.execute("SELECT text FROM units WHERE id=?",
                         (f"{treaty}/{lg}/{eid}",)).fetchone()
        if row is None:
            continue
        item = {"eid": eid, "text": row["text"], "of": of, "method": method}
        if score is not None:
            item["score"] = round(score, 4)
        out.setdefault(lg, []).append(item)
    return {lg: out[lg] for lg in other if lg in out}
