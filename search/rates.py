"""The withholding rates as stored at ingest (`indexer.rates`), for `treaty rates`, the /rates
page, the rates shown on topic and treaty pages, and `treaty check`.

`rates(corpus, treaty=, topic=, party=, lang=, as_of=)` is the one query: the rates in force
today (the treaty's text as amended), or at the date `as_of`; each with its condition as a
short phrase in `lang` (the reader's language) and its structured fields. `rates_csv`
writes a result as CSV; `matrix` arranges it as treaties x incomes; `doubtful` lists the
rates of low confidence or that the versions disagree on.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from collections.abc import Sequence

from indexer.errors import QueryError, StoreError
from indexer.rates import LOW_CONFIDENCE
from indexer.rates.conditions import Conditions, clip, cut_in_word, phrase
from indexer.rates.cues import RATE_TOPICS
from search.citations import eid_citation
from search.corpus import Corpus
from search.names import cited_as, treaty_name

#: The keys of a rate in `treaty rates --json`, in order (the JSON contract). `treaty` is the
#: id, `name` how people name it; `kind` is limit, branch-profits or mfn; `condition` the
#: short phrase in `condition_lang`, `conditions` its fields; `citation` cites by id,
#: `cited_as` by name; `quote` is the sentence in `quote_lang`; `in_force` the dates
#: between which the text that states the rate is in force (null: open) and the instrument.
CONTRACT = ("treaty", "name", "topic", "kind", "rate", "exempt", "by_reference", "target",
            "condition", "condition_lang", "conditions", "base", "unit", "citation", "cited_as",
            "quote", "quote_lang", "langs", "confidence", "in_force")
#: The columns of `--csv`: names, not codes, where a person reads (the treaty, the
#: citation); the condition's fields one column each.
CSV_FIELDS = ("treaty", "citation", "topic", "kind", "rate", "exempt", "by_reference",
              "condition", "condition_lang", "holding_min", "holding_max", "holding_of",
              "holding_direct", "holding_period", "recipient", "beneficial_owner", "subject",
              "payer", "otherwise", "base", "unit", "quote", "langs", "confidence",
              "in_force_from", "in_force_to")
#: Reader's languages a condition phrase can be said in.
PHRASE_LANGS = ("en", "pt", "sv", "zh")
#: The longest condition phrase taken from a text (characters).
PHRASE_CHARS = 160

#: "br-pe-2006 Art. 10(2)(a)" for unit art_10__para_2__point_a of br-pe-2006.
citation = eid_citation


def _columns(corpus: Corpus) -> set[str]:
    return {r[1] for r in corpus.db.execute("PRAGMA table_info(rates)")}


def _load(text: str | None, default):
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


def _phrase(row: dict, lang: str, treaty_langs: Sequence[str]) -> tuple[str, str]:
    """(phrase, its language): the condition's fields said in `lang`; where they say
    nothing, the condition's words in the version of `lang` (when the treaty has it), else
    in the first version that states them — never cut inside a word."""
    fields = Conditions.of_json(_load(row.get("conditions"), None))
    said = phrase(fields, lang)
    if said:
        return said, lang
    clauses: dict[str, str] = _load(row.get("clauses"), {}) or (
        {row["lang"]: row["condition"]} if row.get("condition") else {})
    if not clauses or (lang in json.loads(row["langs"]) and lang not in clauses):
        return "", lang  # (the version in the reader's language states it on no condition)
    pick = lang if lang in clauses else next(
        (lg for lg in treaty_langs if lg in clauses), next(iter(clauses)))
    return clip(clauses[pick], PHRASE_CHARS), pick


def _as_json(row: dict, lang: str, treaty_langs: Sequence[str]) -> dict:
    condition, condition_lang = _phrase(row, lang, treaty_langs)
    quotes: dict[str, str] = _load(row.get("quotes"), {}) or {row["lang"]: row["quote"] or ""}
    quote_lang = lang if lang in quotes else row["lang"] if row["lang"] in quotes else next(
        iter(quotes))
    cite = citation(row["treaty"], row["eid"])
    return {
        "treaty": row["treaty"], "name": treaty_name(row["treaty"]), "topic": row["topic"],
        "kind": row.get("kind") or "limit",
        "rate": None if row["rate"] is None else float(row["rate"]),
        "exempt": bool(row["exempt"]), "by_reference": bool(row["by_reference"]),
        "target": row.get("target"),
        "condition": condition, "condition_lang": condition_lang,
        "conditions": Conditions.of_json(_load(row.get("conditions"), None)).as_json(),
        "base": row["base"], "unit": f"{row['treaty']}/{row['lang']}/{row['eid']}",
        "citation": cite, "cited_as": cited_as(cite), "quote": quotes.get(quote_lang, ""),
        "quote_lang": quote_lang, "langs": json.loads(row["langs"]),
        "confidence": row["confidence"],
        "in_force": {"from": row.get("in_force_from"), "to": row.get("in_force_to"),
                     "instrument": row.get("instrument")},
        "disagree": json.loads(row["disagree"]) if row["disagree"] else [],
    }


def _check_date(as_of: str | None) -> str | None:
    if as_of is None:
        return None
    value = as_of.strip()
    try:
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise QueryError(f"a date is written like 2010-01-01, not {value[:20]!r}") from None


def _check_filters(corpus: Corpus, treaty: str | None, topic: str | None,
                   party: str | None, lang: str | None) -> tuple[str | None, str]:
    if treaty:
        corpus.treaty(treaty)  # an unknown treaty is a NotFoundError
    if topic and topic not in RATE_TOPICS:
        raise QueryError(f"no rates for topic {topic[:40]!r}; use one of "
                         f"{', '.join(RATE_TOPICS)}")
    lang = (lang or "en").strip().lower()
    if lang not in PHRASE_LANGS:
        raise QueryError(f"conditions are said in {', '.join(PHRASE_LANGS)}, not {lang[:10]!r}")
    if party is None or not party.strip():
        return None, lang
    from search.names import known_party

    return known_party(party, (p for t in corpus.treaties() for p in t.parties)), lang


def rates(corpus: Corpus, treaty: str | None = None, topic: str | None = None,
          party: str | None = None, flags: bool = False,
          treaties: Sequence[str] | None = None, lang: str | None = None,
          as_of: str | None = None) -> dict:
    """The rates (of `treaty`, on `topic`, of treaties with `party`, of `treaties` only when
    given: the ones a page shows) in force today, or at the date `as_of` (ISO), in treaty
    order and, within one, in the order of the text: {"rates": [...]}, each as the JSON
    contract of `treaty rates --json` (`CONTRACT`) with its condition phrase in `lang`
    (default English); with `flags`, each also says which versions have its provision but
    do not state it ("disagree", [] when none), as the pages and `treaty check` show."""
    party, lang = _check_filters(corpus, treaty, topic, party, lang)
    as_of = _check_date(as_of)
    cols = _columns(corpus)
    if not cols:
        raise StoreError(f"the store in {corpus.data_dir} has no rates (made before the rates "
                         "stage existed): run `treaty ingest --force` once")
    pool = corpus.treaties() if treaties is None else [corpus.treaty(t) for t in sorted(treaties)]
    chosen = [t for t in pool
              if (not treaty or t.id == treaty) and (not party or party in t.parties)]
    if not chosen:
        return {"rates": []}
    ids = [t.id for t in chosen]
    sql = f"SELECT * FROM rates WHERE treaty IN ({','.join('?' * len(ids))})"
    args: list = list(ids)
    if topic:
        sql += " AND topic = ?"
        args.append(topic)
    if "in_force_to" in cols:
        if as_of is None:
            sql += " AND in_force_to IS NULL"
        else:
            sql += (" AND (in_force_from IS NULL OR in_force_from <= ?)"
                    " AND (in_force_to IS NULL OR in_force_to > ?)")
            args += [as_of, as_of]
    order = {t: i for i, t in enumerate(ids)}
    langs = {t.id: t.languages for t in chosen}
    rows = sorted((dict(r) for r in corpus.db.execute(sql, args)),
                  key=lambda r: (order[r["treaty"]], r["seq"], r.get("kind") or "",
                                 r["exempt"], r["rate"] or 0))
    out = [_as_json(r, lang, langs[r["treaty"]]) for r in rows]
    if not flags:
        out = [{k: r[k] for k in CONTRACT} for r in out]
    return {"rates": out}


def rates_csv(result: dict) -> str:
    """A `rates` result as CSV with a header row (`CSV_FIELDS`)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, extrasaction="ignore",
                            lineterminator="\n")
    writer.writeheader()
    for r in result["rates"]:
        c = r["conditions"]
        writer.writerow({
            **r, "treaty": r["name"], "citation": r["cited_as"], "langs": ",".join(r["langs"]),
            "rate": "" if r["rate"] is None else f"{r['rate']:g}",
            "exempt": str(r["exempt"]).lower(), "by_reference": str(r["by_reference"]).lower(),
            "holding_min": "" if c["holding_min"] is None else f"{c['holding_min']:g}",
            "holding_max": "" if c["holding_max"] is None else f"{c['holding_max']:g}",
            "holding_of": c["holding_of"] or "", "holding_direct": c["holding_direct"] or "",
            "holding_period": c["period"] or "", "recipient": ",".join(c["recipient"]),
            "beneficial_owner": str(c["beneficial_owner"]).lower(),
            "subject": ",".join(c["subject"]), "payer": c["payer"] or "",
            "otherwise": str(c["otherwise"]).lower(),
            "in_force_from": r["in_force"]["from"] or "", "in_force_to": r["in_force"]["to"] or ""})
    return out.getvalue()


def rate_text(r: dict) -> str:
    """"15%", "0% (exempt)", "10% (by reference)", "? (by reference)", "MFN"."""
    if r.get("kind") == "mfn":
        return "MFN"
    value = "?" if r["rate"] is None else f"{r['rate']:g}%"
    marks = [m for m, on in (("exempt", r["exempt"]), ("by reference", r["by_reference"])) if on]
    return value + (f" ({', '.join(marks)})" if marks else "")


def kind_text(r: dict) -> str:
    """"branch profits" for a branch-profits tax, "lower rate agreed with a third state"
    for an MFN clause, "" for a limit."""
    return {"branch-profits": "branch profits", "mfn": "lower rate agreed with a third state"
            }.get(r.get("kind") or "limit", "")


def matrix(result: dict) -> tuple[list[str], list[tuple[str, dict[str, list[dict]]]]]:
    """A `rates` result as a table: the incomes that have a rate (in model order) and, per
    treaty, its rates per income."""
    rows: dict[str, dict[str, list[dict]]] = {}
    for r in result["rates"]:
        rows.setdefault(r["treaty"], {}).setdefault(r["topic"], []).append(r)
    topics = [t for t in RATE_TOPICS if any(t in cells for cells in rows.values())]
    return topics, list(rows.items())


def doubtful(result: dict) -> list[dict]:
    """The rates of a `rates(..., flags=True)` result that `treaty check` lists: confidence
    below LOW_CONFIDENCE, or versions that have the provision but do not state the rate."""
    return [r for r in result["rates"] if r["confidence"] < LOW_CONFIDENCE or r["disagree"]]


def rates_text(result: dict) -> str:
    """A `rates` result for the terminal: one line per rate (citation by name, income, kind,
    rate, condition)."""
    if not result["rates"]:
        return "no rates"
    cites = [r.get("cited_as") or r["citation"] for r in result["rates"]]
    width = max(len(c) for c in cites)
    lines = []
    for r, cite in zip(result["rates"], cites):
        gone = r.get("disagree")
        flag = f"  [versions disagree: {','.join(gone)}]" if gone else ""
        kind = kind_text(r)
        topic = f"{r['topic']}{f' ({kind})' if kind and r.get('kind') != 'mfn' else ''}"
        cond = f"  {r['condition']}" if r["condition"] else ""
        target = f"  → {r['target']}" if r.get("kind") == "mfn" and r.get("target") else ""
        lines.append(f"{cite:<{width}}  {topic:<30} {rate_text(r):<20}"
                     f" conf {r['confidence']:.2f}{cond}{target}{flag}")
    lines.append(f"{len(result['rates'])} rate{'' if len(result['rates']) == 1 else 's'}")
    return "\n".join(lines)


__all__ = ["CONTRACT", "CSV_FIELDS", "citation", "cut_in_word", "doubtful", "kind_text",
           "matrix", "rate_text", "rates", "rates_csv", "rates_text"]
