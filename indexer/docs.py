"""The searchable documents, derived from the store: one per paragraph with its article
context (an article or other unit without paragraphs is one document itself)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import closing
from functools import cache
from pathlib import Path

from indexer import store
from indexer.models import IndexDoc


@cache
def topic_names(topic: str | None) -> str:
    """The topic's display names in every language, space separated ("" for none)."""
    if not topic:
        return ""
    from indexer.topics import TOPICS

    names = TOPICS.get(topic) or {}
    return " ".join(names.values())


def index_docs(data_dir: Path) -> Iterator[IndexDoc]:
    """Every searchable paragraph of the store, in store order."""
    with closing(store.connect(data_dir)) as db:
        parties = {r["id"]: tuple(json.loads(r["parties"] or "[]"))
                   for r in db.execute("SELECT id, parties FROM treaties")}
        # Per top-level unit, the fields its documents take from it.
        tops = {}
        for r in db.execute("SELECT treaty, lang, eid, kind, number, label, title, topic"
                            " FROM units WHERE depth = 0 ORDER BY treaty, lang, seq"):
            tops[(r["treaty"], r["lang"], r["eid"])] = {
                "kind": r["kind"], "article_eid": r["eid"], "number": r["number"],
                "label": r["label"], "title": r["title"] or "", "topic": r["topic"] or "",
                "topic_names": topic_names(r["topic"]),
            }
        has_children = {
            (r["treaty"], r["lang"], r["top"])
            for r in db.execute("SELECT DISTINCT treaty, lang, top FROM units WHERE depth = 1")
        }
        rows = db.cursor()
        rows.row_factory = None  # plain tuples, in the order of the columns selected
        rows.execute("SELECT depth, treaty, lang, top, id, eid, text, raw FROM units"
                     " WHERE depth <= 1 ORDER BY treaty, lang, seq")
        for depth, treaty, lang, top, uid, eid, text, raw in rows:
            key = (treaty, lang, top)
            if depth == 0 and key in has_children:
                continue  # indexed through its paragraphs
            yield IndexDoc(
                id=uid, treaty=treaty, parties=parties.get(treaty, ()), lang=lang, eid=eid,
                text=text, raw=raw, **tops[key],
            )


#: File of an index generation that names its groups: ``{"keys": [[treaty, lang, article
#: eId], ...], "sizes": [documents, ...]}``, by group number.
GROUPS_FILE = "groups.json"


class GroupTable:
    """The article groups of an index: (treaty, lang, article eId) per group number, each
    group's number of documents, and its rank in (treaty, lang, article eId) order."""

    def __init__(self, keys: list[tuple[str, str, str]], sizes: list[int]) -> None:
        self.keys = keys
        self.sizes = sizes
        order = sorted(range(len(keys)), key=keys.__getitem__)
        self.rank = [0] * len(keys)
        for r, g in enumerate(order):
            self.rank[g] = r

    @classmethod
    def load(cls, path: Path) -> GroupTable:
        data = json.loads(path.read_text("utf-8"))
        return cls([tuple(k) for k in data["keys"]], list(data["sizes"]))

    @staticmethod
    def dump(path: Path, numbers: dict[tuple[str, ...], int], sizes: list[int]) -> None:
        keys = sorted(numbers, key=numbers.__getitem__)
        path.write_text(json.dumps({"keys": keys, "sizes": sizes}, ensure_ascii=False),
                        "utf-8")
