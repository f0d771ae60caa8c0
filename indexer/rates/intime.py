"""The rates of a treaty over time: from the text as first signed to the text as amended by
each later instrument (`indexer.instruments`), each rate with the dates between which the
text that states it is in force and the instrument that text comes from.

The store holds each treaty as amended (`units`), the text each amendment replaced
(`unit_history`, with the dates it read so) and the units an amendment made or changed
(`unit_sources`). The treaty's states are the intervals between the dates its instruments
take effect; the rates of each state are read from the units as they read then, and a rate
the same in consecutive states is one row with the dates of all of them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from indexer.rates.model import Rate

_COLS = "eid, kind, text, top, parent, number, topic, refers_to, changes, lang, seq"
#: The units the stage reads: those of the articles and protocol items (the top-level units
#: themselves included), of one treaty, in reading order. Articles of no rate topic are read
#: for what they state of a branch-profits tax (a non-discrimination article may) and for
#: limits whose base names a rate's income (an article whose topic was not found).
UNITS = (
    f"SELECT {_COLS} FROM units WHERE treaty=? AND (lang, top) IN (SELECT lang, eid FROM units"
    " WHERE treaty=? AND depth=0 AND kind IN ('protocol', 'article')) ORDER BY seq"
)
#: A state: the date it begins (None: before any known date), what it reads.
State = tuple[str | None, list]


def _has(db: sqlite3.Connection, table: str) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                      (table,)).fetchone() is not None


def _amending_tops(db: sqlite3.Connection, treaty: str) -> set[tuple[str, str]]:
    """(lang, eid) of the top-level units that hold a later instrument whose amendments were
    applied: its clauses and quoted text are no rates of their own."""
    out: set[tuple[str, str]] = set()
    for lang, eids in db.execute(
            "SELECT i.lang, i.eids FROM instruments i WHERE i.treaty=? AND i.base=0 AND EXISTS "
            "(SELECT 1 FROM amendments a WHERE a.treaty=i.treaty AND a.lang=i.lang AND "
            "a.instrument=i.id AND a.status='applied')", (treaty,)):
        out.update((lang, e) for e in json.loads(eids or "[]"))
    return out


#: The instrument each top-level unit comes from, from when: (lang, eid) -> (from, id).
Made = dict[tuple[str, str], tuple[str | None, str]]


def states(db: sqlite3.Connection, treaty: str) -> tuple[str | None, str | None, list[State],
                                                        Made]:
    """(the base's date, the base's id, the treaty's states in date order, the units later
    instruments made or changed)."""
    current = db.execute(UNITS, (treaty, treaty)).fetchall()
    if not _has(db, "instruments"):
        return None, None, [(None, current)], {}
    base = db.execute("SELECT COALESCE(effective, in_force, signed), id FROM instruments WHERE "
                      "treaty=? AND base=1 ORDER BY seq LIMIT 1", (treaty,)).fetchone()
    base_date, base_id = (base[0], base[1]) if base else (None, None)
    skip = _amending_tops(db, treaty)
    current = [r for r in current if (r["lang"], r["top"]) not in skip]
    made = {(r["lang"], r["eid"]): (r["valid_from"], r["instrument"]) for r in db.execute(
        "SELECT lang, eid, valid_from, instrument FROM unit_sources WHERE treaty=?", (treaty,))}
    history = db.execute(f"SELECT {_COLS}, valid_from, valid_to, instrument FROM unit_history "
                         "WHERE treaty=? ORDER BY seq", (treaty,)).fetchall()
    history = [r for r in history if r["kind"] in ("article", "protocol", "paragraph", "point")]
    if not made:
        return base_date, base_id, [(base_date, current)], {}
    dates = sorted({d for d, _i in made.values() if d and (base_date is None or d > base_date)})
    tops = {(r["lang"], r["eid"]): r["seq"] for r in current if r["eid"] == r["top"]}
    out: list[State] = []
    for start in [base_date, *dates]:
        old = [r for r in history if _within(r["valid_from"], r["valid_to"], start, base_date)]
        replaced = {(r["lang"], r["top"]) for r in old}
        new = [r for r in current if (r["lang"], r["top"]) not in replaced
               and _current(made.get((r["lang"], r["top"])), start, base_date)]
        # in reading order: a text a unit had before reads where the unit now stands (a
        # history row's seq counts from its own top-level unit)
        keyed = [((tops.get((r["lang"], r["top"]), r["seq"]), r["seq"]), r) for r in old]
        keyed += [((tops.get((r["lang"], r["top"]), r["seq"]),
                    r["seq"] - tops.get((r["lang"], r["top"]), r["seq"]) + 1), r) for r in new]
        out.append((start, [r for _k, r in sorted(keyed, key=lambda kr: kr[0])]))
    return base_date, base_id, out, made


def instrument_of(rate: Rate, start: str | None, made: Made, base_id: str | None) -> str | None:
    """The instrument whose text states `rate` in the state that begins at `start`."""
    key = (rate.lang, rate.eid.split("__")[0])
    frm, inst = made.get(key, (None, None))
    if inst is not None and frm is not None and start is not None and frm <= start:
        return inst
    return base_id


def _within(frm: str | None, to: str | None, at: str | None, base: str | None) -> bool:
    """Whether a text that read so from `frm` to `to` reads so at `at` (None: the base
    state, when the text read so from the start)."""
    if at is None or at == base:
        return frm is None or frm == base or (base is not None and frm <= base)
    return (frm is None or frm <= at) and (to is None or at < to)


def _current(made: tuple | None, at: str | None, base: str | None) -> bool:
    """Whether a top-level unit as it now reads already reads so at `at`: it always did
    (no amendment made it), or the amendment that made it took effect by then."""
    if made is None:
        return True
    frm = made[0]
    if frm is None:
        return True
    if at is None or at == base:
        return False
    return frm <= at


def merged(per_state: Sequence[tuple[str | None, list[Rate]]], base: str | None,
           seqs: dict) -> list[tuple[Rate, int, tuple[str | None, str | None]]]:
    """The rates of consecutive states as rows with the dates between which each holds: a
    rate the same in consecutive states is one row."""
    out: list[tuple[Rate, int, tuple[str | None, str | None]]] = []
    open_rows: dict[tuple, int] = {}  # key -> index in out of the row still holding
    for n, (start, rates) in enumerate(per_state):
        end = per_state[n + 1][0] if n + 1 < len(per_state) else None
        keys = set()
        for r in rates:
            key = (r.lang, r.eid, r.topic, r.kind, r.rate, r.exempt, r.by_reference, r.target,
                   r.conditions)
            keys.add(key)
            if key in open_rows:
                k = open_rows[key]
                rate, seq, (frm, _to) = out[k]
                out[k] = (rate, seq, (frm, end))
            else:
                open_rows[key] = len(out)
                out.append((r, seqs.get((r.lang, r.eid), 0), (start, end)))
        for key in [k for k in open_rows if k not in keys]:
            del open_rows[key]
    return out
