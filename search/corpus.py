"""Read access to the stored corpus: treaties, outlines, unit trees and the JSONL export.

Everything here reads the SQLite store, never the raw texts.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Self

from indexer import store
from indexer.errors import NotFoundError


@dataclass(frozen=True)
class Treaty:
    id: str
    parties: tuple[str, ...]
    signed: str | None
    place: str | None
    title: str | None
    languages: tuple[str, ...]
    files: tuple[str, ...]


def _treaty(row: sqlite3.Row) -> Treaty:
    return Treaty(
        id=row["id"], parties=tuple(json.loads(row["parties"] or "[]")), signed=row["signed"],
        place=row["place"], title=row["title"],
        languages=tuple(json.loads(row["languages"] or "[]")),
        files=tuple(json.loads(row["files"] or "[]")),
    )


class Corpus:
    """The store, opened read-only."""

    def __init__(self, data_dir: Path):
        self.data_dir = Path(data_dir)
        self.db = store.connect(self.data_dir)
        self._read: dict[str, Treaty] = {}  # treaties read one by one (`treaty`)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- treaties -------------------------------------------------------------------------
    @cached_property
    def _treaties(self) -> dict[str, Treaty]:
        """Every treaty, read once: the store does not change while it is open."""
        return {r["id"]: _treaty(r)
                for r in self.db.execute("SELECT * FROM treaties ORDER BY id")}

    def treaties(self) -> list[Treaty]:
        return list(self._treaties.values())

    def treaties_page(self, start: int, count: int) -> list[Treaty]:
        """`count` treaties from the `start`-th, in id order (without reading them all)."""
        return [_treaty(r) for r in self.db.execute(
            "SELECT * FROM treaties ORDER BY id LIMIT ? OFFSET ?", (count, start))]

    @cached_property
    def summarised(self) -> bool:
        """The store has the per-treaty summaries (`store.SUMMARIES`; a store written before
        them does not)."""
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND"
                               " name = 'doc_articles'").fetchone() is not None

    def has_treaty(self, treaty_id: str) -> bool:
        return treaty_id in self._treaties

    @cached_property
    def citation_refs(self) -> list:
        """The treaties as citation targets (search.citations.TreatyRef), derived once."""
        from search.citations import RefIndex, TreatyRef

        refs = []
        for t in self._treaties.values():
            year = t.signed[:4] if t.signed else t.id[-4:]
            refs.append(TreatyRef(t.id, tuple(t.parties), int(year) if year.isdigit() else None))
        return RefIndex(refs)

    def treaty(self, treaty_id: str) -> Treaty:
        """One treaty, read by itself (a page about one treaty need not read them all)."""
        found = self._read.get(treaty_id)
        if found is None:
            row = self.db.execute("SELECT * FROM treaties WHERE id = ?", (treaty_id,)).fetchone()
            if row is None:
                known = ", ".join(self._treaties) or "none"
                raise NotFoundError(f"no treaty '{treaty_id}' (the corpus has: {known})")
            found = self._read[treaty_id] = _treaty(row)
        return found

    def check_lang(self, treaty: Treaty, lang: str | None) -> None:
        if lang and lang not in treaty.languages:
            raise NotFoundError(
                f"{treaty.id} has no '{lang}' version (it has: {', '.join(treaty.languages)})"
            )

    # -- units ----------------------------------------------------------------------------
    def rows(self, treaty: str, lang: str | None = None, *, top: str | None = None,
             kinds: tuple[str, ...] | None = None) -> list[sqlite3.Row]:
        sql = "SELECT * FROM units WHERE treaty = ?"
        args: list = [treaty]
        if lang:
            sql += " AND lang = ?"
            args.append(lang)
        if top:
            sql += " AND top = ?"
            args.append(top)
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args.extend(kinds)
        return self.db.execute(sql + " ORDER BY lang, seq", args).fetchall()

    def tree(self, treaty: str, lang: str, top: str | None = None) -> list[dict]:
        """Top-level units of one version as nested dicts (children under "children")."""
        return nested(self.rows(treaty, lang, top=top))


def nested(rows: Iterable[sqlite3.Row]) -> list[dict]:
    """Unit rows (each after its parent) as nested dicts, the top-level ones with their
    descendants under "children"."""
    nodes: dict[str, dict] = {}
    roots: list[dict] = []
    for r in rows:
        node = dict(r)
        node["children"] = []
        nodes[r["eid"]] = node
        parent = nodes.get(r["parent"]) if r["parent"] else None
        (parent["children"] if parent else roots).append(node)
    return roots


def outline(corpus: Corpus, treaty_id: str, lang: str | None = None) -> dict:
    """Per language: each top-level unit with number, label, title, topic, paragraph count."""
    t = corpus.treaty(treaty_id)
    corpus.check_lang(t, lang)
    versions = {}
    for lg in [lang] if lang else t.languages:
        units = []
        for node in corpus.tree(t.id, lg):
            units.append({
                "eid": node["eid"], "kind": node["kind"], "number": node["number"],
                "label": node["label"], "title": node["title"], "topic": node["topic"],
                "number_inferred": bool(node["number_inferred"]),
                "refers_to": node["refers_to"],
                "paragraphs": sum(1 for c in node["children"] if c["kind"] == "paragraph"),
                "lines": [node["start_line"], node["end_line"]],
            })
        versions[lg] = units
    from search.instruments import instruments, provenance
    from search.names import treaty_name

    made = provenance(corpus, t.id)
    for lg, units in versions.items():
        for u in units:
            source = made.get((lg, u["eid"]))
            u["instrument"] = source["instrument"] if source else None
    return {"treaty": t.id, "name": treaty_name(t), "parties": list(t.parties),
            "signed": t.signed, "place": t.place, "title": t.title,
            "languages": list(t.languages), "files": list(t.files),
            "facts": facts(corpus, t.id), "instruments": instruments(corpus, t.id),
            "versions": versions}


def facts(corpus: Corpus, treaty_id: str) -> list[dict]:
    """The treaty's facts (`indexer.instruments.facts`), each with where it came from:
    [{name, value, source ("text" or "manifest"), lang, file, line, quote}]; [] for a store
    made before facts were read."""
    if corpus.db.execute("SELECT 1 FROM sqlite_master WHERE name='facts'").fetchone() is None:
        return []
    return [{"name": r["name"], "value": r["value"], "source": r["source"], "lang": r["lang"],
             "file": r["file"], "line": r["line"], "quote": r["quote"] or ""}
            for r in corpus.db.execute("SELECT * FROM facts WHERE treaty=? ORDER BY seq",
                                       (treaty_id,))]


def _point(node: dict, treaty: str, lang: str) -> dict:
    return {"id": f"{treaty}/{lang}/{node['eid']}", "num": node["num"], "text": node["text"],
            "raw": node["raw"],
            "points": [_point(c, treaty, lang) for c in node["children"]]}


def export_record(node: dict) -> dict:
    """The export object of one top-level unit (see README, "Export format")."""
    treaty, lang = node["treaty"], node["lang"]
    paragraphs = []
    for c in node["children"]:
        if c["kind"] != "paragraph":
            continue
        p = _point(c, treaty, lang)
        paragraphs.append(p)
    return {
        "id": node["id"], "treaty": treaty, "lang": lang, "kind": node["kind"],
        "number": node["number"], "label": node["label"], "title": node["title"],
        "topic": node["topic"], "number_inferred": bool(node["number_inferred"]),
        "refers_to": node["refers_to"], "chapter": node["chapter"], "note": node["note"],
        "text": node["text"], "raw": node["raw"], "paragraphs": paragraphs,
        "changes": json.loads(node["changes"]) if node["changes"] else [],
        "source": {"file": node["file"], "lines": [node["start_line"], node["end_line"]]},
    }


def export_jsonl(corpus: Corpus, treaty: str | None = None,
                 lang: str | None = None, as_: str | None = None) -> Iterator[dict]:
    """Every top-level unit (of one treaty / language if given) as an export record: the
    treaty as amended, or `as_` ("original", a date); each record says the instrument its
    text comes from ("instrument": null for the text as signed)."""
    from search.instruments import check_as, provenance, tree_as

    as_ = check_as(as_)
    treaties = [corpus.treaty(treaty)] if treaty else corpus.treaties()
    for t in treaties:
        if treaty:
            corpus.check_lang(t, lang)
        made = provenance(corpus, t.id)
        for lg in t.languages:
            if lang and lg != lang:
                continue
            for node in corpus.tree(t.id, lg):
                if as_ is not None:
                    found = tree_as(corpus, t.id, lg, node["eid"], as_)
                    if not found:
                        continue
                    node = found[0]
                source = made.get((lg, node["eid"])) if as_ is None else None
                yield {**export_record(node), "instrument": source["instrument"]
                       if source else None}
