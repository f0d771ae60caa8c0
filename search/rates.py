"""The withholding rates as stored at ingest (`indexer.rates`), for `treaty rates`, the /rates
page, the rates shown on topic and treaty pages, and `treaty check`.

`rates(corpus, treaty=, topic=, party=)` is the one query; `rates_csv` writes its result as
CSV; `matrix` arranges it as treaties x incomes; `doubtful` lists the rates of low
confidence or that the versions disagree on.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence

from indexer.errors import QueryError, StoreError
from indexer.rates import LOW_CONFIDENCE
from indexer.rates.cues import RATE_TOPICS
from search.citations import eid_citation
from search.corpus import Corpus

#: The keys of a rate in `treaty rates --json`, in order (the JSON contract), and the columns
#: of `--csv` (langs joined by ",").
CONTRACT = ("treaty", "topic", "rate", "exempt", "by_reference", "condition", "base", "unit",
            "citation", "quote", "langs", "confidence")
CSV_FIELDS = CONTRACT

#: "br-pe-2006 Art. 10(2)(a)" for unit art_10__para_2__point_a of br-pe-2006.
citation = eid_citation


def _has_rates(corpus: Corpus) -> bool:
    return corpus.db.execute(
        "SELECT 1 FROM sqlite_master WHERE type='table' AND name='rates'").fetchone() is not None


def _as_json(row) -> dict:
    return {
        "treaty": row["treaty"], "topic": row["topic"],
        "rate": None if row["rate"] is None else float(row["rate"]),
        "exempt": bool(row["exempt"]), "by_reference": bool(row["by_reference"]),
        "condition": row["condition"] or "", "base": row["base"],
        "unit": f"{row['treaty']}/{row['lang']}/{row['eid']}",
        "citation": citation(row["treaty"], row["eid"]), "quote": row["quote"] or "",
        "langs": json.loads(row["langs"]), "confidence": row["confidence"],
        "disagree": json.loads(row["disagree"]) if row["disagree"] else [],
    }


def _check_filters(corpus: Corpus, treaty: str | None, topic: str | None,
                   party: str | None) -> str | None:
    if treaty:
        corpus.treaty(treaty)  # an unknown treaty is a NotFoundError
    if topic and topic not in RATE_TOPICS:
        raise QueryError(f"no rates for topic {topic[:40]!r}; use one of "
                         f"{', '.join(RATE_TOPICS)}")
    if party is None or not party.strip():
        return None
    from search.names import known_party

    return known_party(party, (p for t in corpus.treaties() for p in t.parties))


def rates(corpus: Corpus, treaty: str | None = None, topic: str | None = None,
          party: str | None = None, flags: bool = False,
          treaties: Sequence[str] | None = None) -> dict:
    """The rates (of `treaty`, on `topic`, of treaties with `party`, of `treaties` only when
    given: the ones a page shows), in treaty order and,
    within one, in the order of the text: {"rates": [...]}, each as the JSON contract of
    `treaty rates --json` (`CONTRACT`); with `flags`, each also says which versions have its
    provision but do not state it ("disagree", [] when none), as the pages and `treaty
    check` show."""
    party = _check_filters(corpus, treaty, topic, party)
    if not _has_rates(corpus):
        raise StoreError(f"the store in {corpus.data_dir} has no rates (made before the rates "
                         "stage existed): run `treaty ingest --force` once")
    pool = corpus.treaties() if treaties is None else [corpus.treaty(t) for t in sorted(treaties)]
    ids = [t.id for t in pool
           if (not treaty or t.id == treaty) and (not party or party in t.parties)]
    if not ids:
        return {"rates": []}
    sql = f"SELECT * FROM rates WHERE treaty IN ({','.join('?' * len(ids))})"
    args: list = list(ids)
    if topic:
        sql += " AND topic = ?"
        args.append(topic)
    order = {t: i for i, t in enumerate(ids)}
    rows = sorted(corpus.db.execute(sql, args).fetchall(),
                  key=lambda r: (order[r["treaty"]], r["seq"], r["exempt"], r["rate"] or 0))
    out = [_as_json(r) for r in rows]
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
        writer.writerow({**r, "langs": ",".join(r["langs"]),
                         "rate": "" if r["rate"] is None else f"{r['rate']:g}",
                         "exempt": str(r["exempt"]).lower(),
                         "by_reference": str(r["by_reference"]).lower()})
    return out.getvalue()


def rate_text(r: dict) -> str:
    """"15%", "0% (exempt)", "10% (by reference)", "? (by reference)"."""
    value = "?" if r["rate"] is None else f"{r['rate']:g}%"
    marks = [m for m, on in (("exempt", r["exempt"]), ("by reference", r["by_reference"])) if on]
    return value + (f" ({', '.join(marks)})" if marks else "")


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
    """A `rates` result for the terminal: one line per rate (citation, income, rate,
    condition)."""
    if not result["rates"]:
        return "no rates"
    width = max(len(r["citation"]) for r in result["rates"])
    lines = []
    for r in result["rates"]:
        gone = r.get("disagree")
        flag = f"  [versions disagree: {','.join(gone)}]" if gone else ""
        cond = f"  {r['condition']}" if r["condition"] else ""
        lines.append(f"{r['citation']:<{width}}  {r['topic']:<18} {rate_text(r):<20}"
                     f" conf {r['confidence']:.2f}{cond[:120]}{flag}")
    lines.append(f"{len(result['rates'])} rate{'' if len(result['rates']) == 1 else 's'}")
    return "\n".join(lines)
