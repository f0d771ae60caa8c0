"""The alignment as rows of the store's ``links`` table, and Versions rebuilt from the rows of
its ``units`` table."""

from __future__ import annotations

from collections.abc import Iterable

from indexer.align.results import UNMATCHED, Alignment
from indexer.models import Unit, Version


def store_rows(alignment: Alignment) -> list[tuple]:
    """Rows of the store's ``links`` table: (treaty, eid, lang_a, lang_b, eid_b, level, score,
    method). A unit with no counterpart is a row with method "unmatched", score 0 and the
    missing side's eId empty."""
    t = alignment.treaty
    rows = [(t, x.eid_a, x.lang_a, x.lang_b, x.eid_b, x.level, x.score, x.method)
            for x in alignment.links]
    order = {lang: i for i, lang in enumerate(alignment.langs)}
    for u in alignment.unmatched:
        if order.get(u.lang, 0) <= order.get(u.other, 0):
            rows.append((t, u.eid, u.lang, u.other, "", u.level, 0.0, UNMATCHED))
        else:
            rows.append((t, "", u.other, u.lang, u.eid, u.level, 0.0, UNMATCHED))
    return rows


def versions_from_rows(rows: Iterable[dict]) -> dict[tuple[str, str], Version]:
    """Rebuild Versions from stored unit rows (columns of the ``units`` table), keyed by
    (treaty, lang), units in stored order."""
    nodes: dict[tuple[str, str, str], dict] = {}
    roots: dict[tuple[str, str], list[dict]] = {}
    for r in sorted(rows, key=lambda r: (r["treaty"], r["lang"], r.get("file") or "", r["seq"])):
        node = {"row": r, "children": []}
        nodes[r["treaty"], r["lang"], r["eid"]] = node
        parent = nodes.get((r["treaty"], r["lang"], r["parent"])) if r["parent"] else None
        if parent is not None:
            parent["children"].append(node)
        else:
            roots.setdefault((r["treaty"], r["lang"]), []).append(node)

    def build(node: dict) -> Unit:
        r = node["row"]
        return Unit(eid=r["eid"], kind=r["kind"], text=r["text"], raw=r["raw"],
                    start=r["start_line"] or 0, end=r["end_line"] or 0, number=r["number"],
                    label=r["label"], num=r["num"], title=r["title"], topic=r["topic"],
                    children=tuple(build(c) for c in node["children"]))

    return {k: Version(k[1], tuple(build(n) for n in v)) for k, v in roots.items()}
