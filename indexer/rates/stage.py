"""The `rates` stage: run once a store holds every treaty's units with their final topics and
alignment links, it derives the rates table from them (every treaty, whichever files were
kept or made anew), cross-checking each rate across the treaty's language versions."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from indexer.policy import policy
from indexer.rates import intime
from indexer.rates.extract import version_rates
from indexer.rates.model import Found, Rate, VersionUnit

#: Below this a rate is listed by `treaty check`.
LOW_CONFIDENCE = 0.8

#: `kind` (limit, branch-profits, mfn), `conditions` (the condition's fields, JSON),
#: `clauses` and `quotes` (the condition's words and the sentence in each version, JSON
#: {lang: text}), `in_force_from` / `in_force_to` (the dates between which the text that
#: states the rate is in force; NULL: open) and `instrument` (the instrument whose text
#: states it) came with issue 29, after the first fifteen columns.
SCHEMA = """
CREATE TABLE IF NOT EXISTS rates (
    treaty TEXT NOT NULL, topic TEXT NOT NULL, rate REAL, exempt INTEGER NOT NULL,
    by_reference INTEGER NOT NULL, condition TEXT, base TEXT, lang TEXT NOT NULL,
    eid TEXT NOT NULL, quote TEXT, langs TEXT NOT NULL, confidence REAL NOT NULL,
    disagree TEXT, target TEXT, seq INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'limit',
    conditions TEXT, clauses TEXT, quotes TEXT, in_force_from TEXT, in_force_to TEXT,
    instrument TEXT
);
"""
COLUMNS = ("treaty", "topic", "rate", "exempt", "by_reference", "condition", "base", "lang",
           "eid", "quote", "langs", "confidence", "disagree", "target", "seq", "kind",
           "conditions", "clauses", "quotes", "in_force_from", "in_force_to", "instrument")
INDEXES = "CREATE INDEX IF NOT EXISTS rates_treaty ON rates(treaty, topic);"


def confidence(f: Found, agree: int, disagree: int) -> float:
    """How sure the stage is of a rate: by how it was stated (a limit with its number in
    digits, in a list, in words, an exemption, by reference, resolved or not), lowered where
    the text was repaired, raised by each other version that states it, halved where one
    that has the provision does not."""
    if f.by_reference:
        score = 0.85 if f.rate is not None else 0.3
    elif f.exempt:
        score = 0.9
    else:
        score = 0.93 if f.in_list else 0.95
        if f.words:
            score -= 0.05
    if f.changed:
        score -= 0.05
    score = min(0.99, score + 0.02 * max(0, agree - 1))
    if disagree:
        score *= 0.5
    return round(score, 2)


#: (lang, eid, other lang) -> the eid of the aligned unit in the other language version.
Alignment = dict[tuple[str, str, str], str]


def alignment(links: Iterable[tuple[str, str, str, str]]) -> Alignment:
    """The aligned units of a treaty's versions from its link rows (eid, lang_a, lang_b,
    eid_b), both ways."""
    out: Alignment = {}
    for eid, lang_a, lang_b, eid_b in links:
        out.setdefault((lang_a, eid, lang_b), eid_b)
        out.setdefault((lang_b, eid_b, lang_a), eid)
    return out


def combine(treaty: str, per_lang: dict[str, list[Found]], eids: dict[str, set[str]],
            order: Sequence[str], aligned: Alignment | None = None) -> list[Rate]:
    """The rates of a treaty from those of each version (`eids`: the unit eIds each version
    has; `order`: the treaty's languages, the first that states a rate is cited; `aligned`:
    the units alignment links pair, else a provision is the unit of the same eId)."""
    aligned = aligned or {}

    def counterpart(lang: str, eid: str, other: str) -> str | None:
        found = aligned.get((lang, eid, other))
        if found is None and eid in eids.get(other, ()):
            found = eid
        return found

    keyed: dict[tuple, dict[str, Found]] = {}
    anchors: dict[tuple, str] = {}  # (lang, eid) -> the eid of the group it joined
    for lang in order:
        for f in per_lang.get(lang, []):
            group = next((anchors[(o, e)] for o in order if o != lang
                          for e in [counterpart(lang, f.eid, o)] if (o, e) in anchors), f.eid)
            anchors.setdefault((lang, f.eid), group)
            keyed.setdefault((group, f.topic, f.kind, f.rate, f.exempt), {}).setdefault(lang, f)
    out = []
    for by_lang in keyed.values():
        langs = tuple(lg for lg in order if lg in by_lang)
        cited = _finest(langs, by_lang, eids)
        langs = (cited, *(lg for lg in langs if lg != cited))
        f = by_lang[langs[0]]
        missing = tuple(lg for lg in order if lg not in by_lang
                        and counterpart(langs[0], f.eid, lg) is not None)
        said = next((by_lang[lg].conditions for lg in langs if by_lang[lg].conditions.said),
                    f.conditions)
        out.append(Rate(treaty=treaty, topic=f.topic, eid=f.eid, lang=langs[0], rate=f.rate,
                        exempt=f.exempt, by_reference=f.by_reference, condition=f.condition,
                        base=f.base, quote=f.sentence, langs=langs,
                        confidence=confidence(f, len(langs), len(missing)), disagree=missing,
                        target=f.target, kind=f.kind, conditions=said,
                        clauses=tuple((lg, by_lang[lg].condition) for lg in langs
                                      if by_lang[lg].condition),
                        quotes=tuple((lg, by_lang[lg].sentence) for lg in langs)))
    return general_rates(out)


def _finest(langs: Sequence[str], by_lang: dict[str, Found], eids: dict[str, set[str]]) -> str:
    """The version a rate is cited in: the first that states it, unless another cuts the
    article into more paragraphs (where a print ran two paragraphs together, "1. … 2. …",
    the version that has them apart cites the one that states the rate)."""
    def paragraphs(lg: str) -> int:
        article = by_lang[lg].eid.split("__")[0] + "__para_"
        return sum(1 for e in eids.get(lg, ()) if e.startswith(article) and e.count("__") == 1)

    if len({by_lang[lg].eid for lg in langs}) == 1:
        return langs[0]
    return max(langs, key=lambda lg: (paragraphs(lg), -langs.index(lg)))


def general_rates(rates: list[Rate]) -> list[Rate]:
    """A limit that states no condition where other limits on the same income in the same
    article do is the one for the cases theirs do not meet ("15 per cent …; however, if the
    beneficial owner is a company holding 25 per cent … exempt"): its condition is "all
    other cases"."""
    said = {(r.topic, r.eid.split("__")[0]) for r in rates
            if r.kind == "limit" and r.conditions.said}
    out = []
    for r in rates:
        if (r.kind == "limit" and not r.conditions.said
                and (r.topic, r.eid.split("__")[0]) in said):
            r = replace(r, conditions=replace(r.conditions, otherwise=True))
        out.append(r)
    return out


def treaty_rates(treaty: str, rows: Iterable[sqlite3.Row], order: Sequence[str],
                 links: Iterable[tuple[str, str, str, str]] = ()) -> list[Rate]:
    """The rates of one treaty from its unit rows (in reading order) and its alignment link
    rows (eid, lang_a, lang_b, eid_b)."""
    units: dict[str, list[VersionUnit]] = {}
    for r in rows:
        if policy(r["lang"]) is not None:
            units.setdefault(r["lang"], []).append(VersionUnit.of_row(r))
    per_lang = {lang: version_rates(us, lang) for lang, us in units.items()}
    eids = {lang: {u.eid for u in us} for lang, us in units.items()}
    langs = [lg for lg in order if lg in units] + [lg for lg in units if lg not in order]
    return combine(treaty, per_lang, eids, langs, alignment(links))


def write_rates(db: sqlite3.Connection, kept: Collection[str] = frozenset()) -> int:
    """(Re)derive the rates table of the store `db` from its units (each treaty in each of
    its states in time: `intime`), but for the treaties `kept` (their rates copied from the
    store before, with their units and links); the number of rate rows derived."""
    db.executescript(SCHEMA)
    db.row_factory = sqlite3.Row
    try:
        treaties = [(t, json.loads(langs or "[]"))
                    for t, langs in db.execute("SELECT id, languages FROM treaties ORDER BY id")
                    if t not in kept]
        if kept:
            db.executemany("DELETE FROM rates WHERE treaty = ?", [(t,) for t, _ in treaties])
        else:
            db.execute("DELETE FROM rates")
        n = 0
        for treaty, order in treaties:
            links = [tuple(r) for r in db.execute(
                "SELECT eid, lang_a, lang_b, eid_b FROM links WHERE treaty=?", (treaty,))]
            base_date, base_id, found, made = intime.states(db, treaty)
            seqs = {}  # (lang, eid) -> its place in reading order, in the state that has it
            for _start, rows in found:
                for k, r in enumerate(rows):
                    seqs[(r["lang"], r["eid"])] = k
            per_state = [(start, treaty_rates(treaty, rows, order, links))
                         for start, rows in found]
            rows = [_row(r, seq, (frm, to, intime.instrument_of(r, frm, made, base_id)))
                    for r, seq, (frm, to) in intime.merged(per_state, base_date, seqs)]
            db.executemany(
                f"INSERT INTO rates ({','.join(COLUMNS)}) VALUES ({','.join('?' * len(COLUMNS))})",
                rows)
            n += len(rows)
    finally:
        db.row_factory = None
    db.executescript(INDEXES)
    return n


def _row(r: Rate, seq: int, valid: tuple[str | None, str | None, str | None] = (None, None, None)
         ) -> tuple:
    return (r.treaty, r.topic, r.rate, int(r.exempt), int(r.by_reference), r.condition, r.base,
            r.lang, r.eid, r.quote, json.dumps(list(r.langs)), r.confidence,
            json.dumps(list(r.disagree)) if r.disagree else None, r.target, seq, r.kind,
            json.dumps(r.conditions.as_json(), ensure_ascii=False),
            json.dumps(dict(r.clauses), ensure_ascii=False),
            json.dumps(dict(r.quotes), ensure_ascii=False), *valid)
