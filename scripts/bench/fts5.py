"""The scale benchmark's baseline: an SQLite FTS5 table of the same paragraphs holding the same
analysed terms, the same fields and boosts, queried with the mix compiled as the engines
compile it (FTS5 has no fuzzy search: those queries are left out)."""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import closing
from pathlib import Path

from bench.common import MB, peak_mb
from bench.mix import MIX, interleaved, label, summary


def _fts_quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def fts_match(node: object) -> str | None:
    """An FTS5 MATCH expression for a field tree (None: FTS5 cannot say it, e.g. fuzzy)."""
    from indexer.index.query_syntax import (
        FAll,
        FAnd,
        FFuzzy,
        FNone,
        FNot,
        FOr,
        FPhrase,
        FPrefix,
        FTerm,
    )

    if isinstance(node, FTerm):
        return f"{node.field} : {_fts_quote(node.term)}"
    if isinstance(node, FPhrase):
        return f"{node.field} : {_fts_quote(' '.join(node.terms))}"
    if isinstance(node, FPrefix):
        return f"{node.field} : {_fts_quote(node.prefix)} *"
    if isinstance(node, (FFuzzy, FAll, FNone)):
        return None
    if isinstance(node, FOr):
        parts = [fts_match(c) for c in node.children]
        return None if None in parts else "(" + " OR ".join(parts) + ")"  # type: ignore[arg-type]
    if isinstance(node, FAnd):
        pos = [fts_match(c) for c in node.children if not isinstance(c, FNot)]
        neg = [fts_match(c.child) for c in node.children if isinstance(c, FNot)]
        if not pos or None in pos or None in neg:
            return None
        expr = "(" + " AND ".join(pos) + ")"  # type: ignore[arg-type]
        return "(" + expr + "".join(f" NOT {n}" for n in neg) + ")"
    return None


def build_table(data: Path, path: Path) -> tuple[list[str], float]:
    """Write the FTS5 table of the store in `data` to `path`; its text fields and build s."""
    from functools import lru_cache

    import indexer.index.rows as index_mod
    from indexer.index import index_docs
    from indexer.index.query_syntax import KEYWORD_FIELDS, text_fields

    # Every copy has the same paragraphs: analyse each distinct text once (build time of the
    # baseline is not compared, its query time is).
    index_mod.index_terms = lru_cache(maxsize=None)(index_mod.index_terms)  # type: ignore
    fields = text_fields()
    path.unlink(missing_ok=True)
    t0 = time.perf_counter()
    rows = []
    chars: set[str] = set()
    for doc in index_docs(data):
        row = index_mod._row(doc)
        texts = {name: " ".join(f.term_list()) for name, f in row.texts.items()}
        for s in texts.values():
            chars.update(c for c in s if not c.isalnum() and c != " ")
        kw = {name: " ".join(row.keywords.get(name, ())) for name in KEYWORD_FIELDS}
        for s in kw.values():
            chars.update(c for c in s if not c.isalnum() and c != " ")
        rows.append([texts.get(f, "") for f in fields] + [kw[k] for k in KEYWORD_FIELDS]
                    + [row.stored])
    tokenchars = "".join(sorted(chars)).replace("'", "''").replace('"', '""')
    cols = ", ".join([*fields, *(f"k_{k}" for k in KEYWORD_FIELDS), "doc UNINDEXED"])
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"CREATE VIRTUAL TABLE fts USING fts5({cols}, tokenize = \"unicode61 "
                   f"remove_diacritics 0 tokenchars '{tokenchars}'\")")
        db.executemany(f"INSERT INTO fts VALUES ({','.join('?' * (len(fields) + 8))})", rows)
        db.commit()
        db.execute("INSERT INTO fts(fts) VALUES ('optimize')")
        db.commit()
    return fields, time.perf_counter() - t0


def match_expression(query: str, filters: dict, langs: tuple[str, ...]) -> str | None:
    """The mix's query as the engines compile it, as an FTS5 MATCH with its filters."""
    from indexer.index.query_syntax import FNone, compile_query, field_lang, leaves, parse
    from indexer.index.searcher import _FILTER_FIELDS

    lang = filters.get("lang")
    tree, _ = parse(query)
    ftree = compile_query(tree, (field_lang(lang),) if lang else langs)
    if next(iter(leaves(ftree)), None) is None:
        ftree = FNone()
    expr = fts_match(ftree)
    if expr is None:
        return None
    for k, v in filters.items():
        key = "number" if k == "article" else k
        expr = f"({expr}) AND k_{key} : {_fts_quote(_FILTER_FIELDS[k](v))}"
    return expr


def phase_fts5(a: dict) -> dict:
    """Build an FTS5 table of the same documents with the same analysed terms (space-joined),
    then time the same engine-level queries on it."""
    from indexer.index.query_syntax import BOOSTS

    path = Path(a["path"])
    fields, build_s = build_table(Path(a["data"]), path)
    weights = [BOOSTS[f.split("_")[0]] for f in fields]
    langs = tuple(json.loads((Path(a["index_meta"])).read_text("utf-8"))["languages"])
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rank = f"bm25(fts, {', '.join(str(w) for w in weights)})"
    calls, skipped, totals = [], [], {}
    for cat, q, filters in MIX:
        expr = match_expression(q, filters, langs)
        if expr is None:
            skipped.append(q)
            continue

        def call(expr: str = expr) -> None:
            db.execute(f"SELECT doc, {rank} AS r FROM fts WHERE fts MATCH ? ORDER BY r "
                       "LIMIT 10", (expr,)).fetchall()
            db.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (expr,)).fetchone()

        calls.append((cat, call))
        totals[label(q, filters)] = db.execute(
            "SELECT count(*) FROM fts WHERE fts MATCH ?", (expr,)).fetchone()[0]
    out = {"build_s": round(build_s, 2), "size_mb": round(path.stat().st_size / MB, 1),
           "engine": summary(interleaved(calls, a["rounds"])), "skipped": skipped,
           "totals": totals, **peak_mb()}
    db.close()
    return out

