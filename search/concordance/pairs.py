"""Where a term occurs, and what the aligned counterpart says there: pairs of a source unit
holding the term and the unit of another language version linked with it.

The occurrences are found through the index (the term as a phrase, in its language), each
placed in the finest unit that holds it (a point rather than its paragraph, where the point
is linked on its own), then paired with its counterparts through the store's alignment
links (`search.results.aligned`). The work is bounded (`Limits`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from search.concordance.words import find
from search.results.aligned import aligned_units


@dataclass(frozen=True)
class Limits:
    """How much a concordance reads: treaties at most (taken in the order the index ranks
    their paragraphs), occurrences per treaty (every one of a treaty, as a rendering is
    weighed against the treaty's other paragraphs: a cap per treaty would make a frequent
    term's rendering look rarer with it than without it), units of a treaty's target
    version read as its background, target-language treaties per source article where the
    counterparts are comparable text."""

    treaties: int = 24
    per_treaty: int = 200
    background: int = 400
    comparable: int = 8


#: A concordance asked for (`treaty terms`, /terms), and one step of a search.
FULL = Limits()
SEARCH = Limits(treaties=3, per_treaty=8, background=40, comparable=1)


@dataclass(frozen=True)
class Unit:
    """A unit of one language version, and a span in its text."""

    treaty: str
    lang: str
    eid: str
    text: str
    start: int = 0
    end: int = 0

    @property
    def article(self) -> str:
        return self.eid.split("__")[0]


@dataclass(frozen=True)
class Pair:
    source: Unit  # the unit holding the term (its span: the term)
    target: Unit  # the aligned unit of the target language (no span yet)
    method: str  # how they were aligned ("number+lexicon", ..., "same-eid")


def occurrences(docs: Sequence, lang: str, terms: Sequence[str],
                db: sqlite3.Connection, limits: Limits = FULL) -> list[Unit]:
    """The units of the index documents `docs` (paragraphs of `lang`) that hold the words
    `terms` in a row, each at its first such place: the paragraph's point that holds it
    when there is one. At most `limits.treaties` treaties and `limits.per_treaty` units of
    each, treaties taken in turn."""
    per_treaty: dict[str, list[Unit]] = {}
    for doc in docs:
        if doc.treaty not in per_treaty and len(per_treaty) >= limits.treaties:
            continue
        found = per_treaty.setdefault(doc.treaty, [])
        if len(found) >= limits.per_treaty:
            continue
        spans = find(doc.text, lang, terms)
        if spans:
            found.append(_finest(db, doc.treaty, lang, doc.eid, doc.text, spans[0], terms))
    return _in_turn(per_treaty)


def _in_turn(per_treaty: dict[str, list[Unit]]) -> list[Unit]:
    """The units of each treaty, one treaty after another in turn (the first of each, then
    the second of each, ...)."""
    out: list[Unit] = []
    lists = [v for v in per_treaty.values() if v]
    for k in range(max((len(v) for v in lists), default=0)):
        out.extend(v[k] for v in lists if k < len(v))
    return out


def _finest(db: sqlite3.Connection, treaty: str, lang: str, eid: str, text: str,
            span: tuple[int, int], terms: Sequence[str]) -> Unit:
    """The point of paragraph `eid` that holds the term (its own span), else the paragraph."""
    for row in db.execute("SELECT eid, text FROM units WHERE treaty = ? AND lang = ? AND "
                          "parent = ? ORDER BY seq", (treaty, lang, eid)):
        spans = find(row["text"] or "", lang, terms)
        if spans:
            return Unit(treaty, lang, row["eid"], row["text"], *spans[0])
    return Unit(treaty, lang, eid, text, *span)


def counterparts(db: sqlite3.Connection, languages: dict[str, Sequence[str]],
                 units: Sequence[Unit], target: str) -> list[Pair]:
    """Each of `units` with its counterpart in `target` (its linked units' text joined),
    where its treaty has a `target` version (`languages`: treaty -> its languages): the
    unit's own links, else (for a point) its paragraph's."""
    out: list[Pair] = []
    for u in units:
        if target not in languages.get(u.treaty, ()):
            continue
        linked = _linked(db, languages[u.treaty], u, target)
        if linked is None and "__point_" in u.eid:
            linked = _linked(db, languages[u.treaty], _paragraph(u), target)
        if linked is not None:
            eid, text, method = linked
            out.append(Pair(u, Unit(u.treaty, target, eid, text), method))
    return out


def _paragraph(u: Unit) -> Unit:
    return Unit(u.treaty, u.lang, u.eid.split("__point_")[0], u.text, u.start, u.end)


def _linked(db: sqlite3.Connection, languages: Sequence[str], u: Unit, target: str
            ) -> tuple[str, str, str] | None:
    """(eId, text, method) of the units of `target` aligned with `u` (joined when a link
    pairs it with two), None when there is none."""
    found = aligned_units(db, u.treaty, languages, u.lang, [u.eid]).get(target)
    if not found:
        return None
    found = sorted(found, key=lambda x: x["eid"])
    return (found[0]["eid"], "\n".join(x["text"] or "" for x in found),
            found[0].get("method", ""))
