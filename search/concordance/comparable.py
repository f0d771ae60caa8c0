"""Counterparts where no treaty has both languages (the corpus's Chinese treaty has no other
version): the same provision of other treaties written in the target language. The article
holding an occurrence has a model-convention topic; each treaty with an article on that topic
in the target language is a counterpart, its paragraphs lined up with the source article's by
what they say (`search.compare.rows.align_rows`: shared terms through the index's term table,
shared numbers), and the paragraph in the occurrence's row is the counterpart ("comparable",
not parallel: what the other treaty says in the same place).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from search.concordance.pairs import FULL, Limits, Pair, Unit


def _paragraphs(db: sqlite3.Connection, treaty: str, lang: str, article: str
                ) -> list[tuple[str, str]]:
    """(eId, text) of the paragraphs of an article (the article itself when it has none)."""
    rows = [(r[0], r[1] or "") for r in db.execute(
        "SELECT eid, text FROM units WHERE treaty = ? AND lang = ? AND parent = ? AND "
        "kind = 'paragraph' ORDER BY seq", (treaty, lang, article))]
    if rows:
        return rows
    return [(r[0], r[1] or "") for r in db.execute(
        "SELECT eid, text FROM units WHERE treaty = ? AND lang = ? AND eid = ?",
        (treaty, lang, article))]


def _topic(db: sqlite3.Connection, u: Unit) -> str | None:
    row = db.execute("SELECT topic FROM units WHERE treaty = ? AND lang = ? AND eid = ?",
                     (u.treaty, u.lang, u.article)).fetchone()
    return row[0] if row and row[0] else None


def _articles_on(db: sqlite3.Connection, topic: str, lang: str, not_treaty: str,
                 limit: int) -> list[tuple[str, str]]:
    """(treaty, article eId) of the articles on `topic` in `lang` of other treaties."""
    return [(r[0], r[1]) for r in db.execute(
        "SELECT treaty, eid FROM units WHERE kind = 'article' AND depth = 0 AND topic = ? "
        "AND lang = ? AND treaty != ? ORDER BY treaty, seq LIMIT ?",
        (topic, lang, not_treaty, limit))]


def comparable_pairs(db: sqlite3.Connection, units: Sequence[Unit], target: str,
                     table: dict | None, limits: Limits = FULL) -> list[Pair]:
    """Each of `units` with the paragraph in its row of each target-language article on
    the same topic (of `limits.comparable` treaties at most; method "comparable")."""
    from search.compare.rows import align_rows

    rows_of: dict[tuple[str, str, str, str], dict[int, int]] = {}
    out: list[Pair] = []
    for u in units:
        topic = _topic(db, u)
        if topic is None:
            continue
        mine = _paragraphs(db, u.treaty, u.lang, u.article)
        para = u.eid.split("__point_")[0]
        at = next((k for k, (eid, _t) in enumerate(mine) if eid == para), None)
        if at is None:
            continue
        for treaty, article in _articles_on(db, topic, target, u.treaty, limits.comparable):
            theirs = _paragraphs(db, treaty, target, article)
            key = (u.treaty, u.article, treaty, article)
            if key not in rows_of:
                rows = align_rows([[{u.lang: t} for _e, t in mine],
                                   [{target: t} for _e, t in theirs]], table)
                rows_of[key] = {r[0]: r[1] for r in rows if r[0] is not None
                                and r[1] is not None}
            j = rows_of[key].get(at)
            if j is not None:
                eid, text = theirs[j]
                out.append(Pair(u, Unit(treaty, target, eid, text), "comparable"))
    return out
