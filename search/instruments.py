"""A treaty's instruments as the store holds them (`indexer.instruments`): the convention,
its protocols, exchanges of notes and amending instruments, each with its dates and what its
clauses did; and its articles as amended (the default everywhere), as first signed
(`as_="original"`) or as in force at a date (`as_="2010-01-01"`).

`instruments(corpus, treaty)` lists them; `provenance(corpus, treaty, lang)` says which
instrument each amended top-level unit's text comes from; `tree_as(corpus, treaty, lang,
top, as_)` is a top-level unit's tree in the state asked for; `understandings(corpus,
treaty, eid)` are the free-text understandings of later instruments about an article (shown
beside it, never applied).
"""

from __future__ import annotations

import datetime
import json

from indexer.errors import NotFoundError, QueryError
from search.corpus import Corpus, nested


def _has(corpus: Corpus, table: str) -> bool:
    return corpus.db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                             (table,)).fetchone() is not None


def check_as(as_: str | None) -> str | None:
    """"original", an ISO date, or None (as amended, today); QueryError otherwise."""
    if as_ is None or not as_.strip() or as_.strip() == "amended":
        return None
    value = as_.strip().lower()
    if value == "original":
        return value
    try:
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise QueryError(f"read a treaty 'original', as amended (the default) or at a date "
                         f"like 2010-01-01, not {as_[:20]!r}") from None


def instruments(corpus: Corpus, treaty: str) -> list[dict]:
    """The instruments of `treaty` in order (the base first), each with its languages and
    what its clauses did: {id, kind, title, signed, place, in_force, effective, base, files,
    langs, amendments: [{lang, action, target, after, status, clause, old_words,
    new_words}]}; [] for a store made before instruments were read."""
    corpus.treaty(treaty)
    if not _has(corpus, "instruments"):
        return []
    out: dict[str, dict] = {}
    for r in corpus.db.execute("SELECT * FROM instruments WHERE treaty=? ORDER BY base DESC, "
                               "COALESCE(signed, '9999'), seq", (treaty,)):
        item = out.setdefault(r["id"], {
            "id": r["id"], "kind": r["kind"], "title": r["title"] or "", "signed": r["signed"],
            "place": r["place"], "in_force": r["in_force"], "effective": r["effective"],
            "base": bool(r["base"]), "files": [], "langs": [], "signed_line": r["signed_line"],
            "lines": [r["start_line"], r["end_line"]], "amendments": [], "eids": []})
        item["eids"] += [e for e in json.loads(r["eids"] or "[]") if e not in item["eids"]]
        if r["file"] not in item["files"]:
            item["files"].append(r["file"])
        if r["lang"] not in item["langs"]:
            item["langs"].append(r["lang"])
        item["title"] = item["title"] or (r["title"] or "")
    for r in corpus.db.execute("SELECT * FROM amendments WHERE treaty=? ORDER BY lang, seq",
                               (treaty,)):
        if r["instrument"] in out:
            out[r["instrument"]]["amendments"].append({
                "lang": r["lang"], "action": r["action"], "target": r["target"],
                "after": r["after"], "status": r["status"], "clause": r["clause"] or "",
                "old_words": r["old_words"], "new_words": r["new_words"],
                "text": r["new_text"] or ""})
    return list(out.values())


def provenance(corpus: Corpus, treaty: str, lang: str | None = None) -> dict[tuple[str, str],
                                                                             dict]:
    """(lang, top eid) -> {instrument, from, action, level} of each top-level unit a later
    instrument made or changed."""
    if not _has(corpus, "unit_sources"):
        return {}
    sql = "SELECT * FROM unit_sources WHERE treaty=?"
    args: list = [treaty]
    if lang:
        sql += " AND lang=?"
        args.append(lang)
    return {(r["lang"], r["eid"]): {"instrument": r["instrument"], "from": r["valid_from"],
                                    "action": r["action"], "level": r["level"]}
            for r in corpus.db.execute(sql, args)}


def tree_as(corpus: Corpus, treaty: str, lang: str, top: str, as_: str | None) -> list[dict]:
    """The tree of the top-level unit `top` of one version: as amended (`as_` None), as
    first signed ("original") or as in force at a date; [] when it did not exist then (an
    article a protocol inserted, read as original)."""
    as_ = check_as(as_)
    current = corpus.tree(treaty, lang, top=top)
    if as_ is None or not _has(corpus, "unit_history"):
        return current
    made = provenance(corpus, treaty, lang).get((lang, top))
    history = corpus.db.execute(
        "SELECT * FROM unit_history WHERE treaty=? AND lang=? AND top=? ORDER BY seq",
        (treaty, lang, top)).fetchall()
    versions: dict[tuple, list] = {}
    for r in history:
        versions.setdefault((r["valid_from"], r["valid_to"]), []).append(r)
    if as_ == "original":
        if versions:
            first = min(versions, key=lambda k: (k[0] or "", k[1] or "9999"))
            return nested(versions[first])
        return [] if made is not None else current
    for (frm, to), rows in versions.items():
        if (frm is None or frm <= as_) and (to is None or as_ < to):
            return nested(rows)
    if made is not None and made["from"] and as_ < made["from"] and not versions:
        return []  # inserted later
    return current


def understandings(corpus: Corpus, treaty: str, eid: str) -> list[dict]:
    """The free-text understandings (and clauses no one could read) of later instruments
    about article `eid` or a paragraph of it: shown beside it, never applied."""
    if not _has(corpus, "amendments"):
        return []
    top = eid.split("__")[0]
    return [{"lang": r["lang"], "instrument": r["instrument"], "target": r["target"],
             "status": r["status"], "clause": r["clause"] or "", "date": r["date"]}
            for r in corpus.db.execute(
                "SELECT * FROM amendments WHERE treaty=? AND status != 'applied' AND "
                "(target=? OR substr(target, 1, ?) = ?) ORDER BY lang, seq",
                (treaty, top, len(top) + 2, f"{top}__"))]


def amended_note(corpus: Corpus, treaty: str, lang: str, top: str) -> dict | None:
    """What a page says above an amended article: its instrument (kind, date), how it
    changed it and from when its text is in force; None when its text is as signed."""
    made = provenance(corpus, treaty, lang).get((lang, top))
    if made is None:
        return None
    inst = next((i for i in instruments(corpus, treaty) if i["id"] == made["instrument"]), None)
    return {**made, "kind": inst["kind"] if inst else "", "signed": inst["signed"] if inst
            else None, "title": inst["title"] if inst else ""}


def require_unit(tree: list[dict], treaty: str, eid: str, as_: str | None) -> dict:
    """The one tree of a unit asked for, or NotFoundError saying it did not exist then."""
    if not tree:
        when = "as first signed" if as_ == "original" else f"on {as_}"
        raise NotFoundError(f"{treaty} has no {eid} {when}: a later instrument added it")
    return tree[0]


__all__ = ["amended_note", "check_as", "instruments", "provenance", "require_unit",
           "tree_as", "understandings"]
