"""The searchable documents, derived from the store: one per paragraph with its article
context (an article or other unit without paragraphs is one document itself)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

from indexer import store
from indexer.models import IndexDoc


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
        tops = {}
        for r in db.execute("SELECT * FROM units WHERE depth = 0 ORDER BY treaty, lang, seq"):
            tops[(r["treaty"], r["lang"], r["eid"])] = r
        has_children = {
            (r["treaty"], r["lang"], r["top"])
            for r in db.execute("SELECT DISTINCT treaty, lang, top FROM units WHERE depth = 1")
        }
        rows = db.execute(
            "SELECT * FROM units WHERE depth <= 1 ORDER BY treaty, lang, seq"
        )
        for r in rows:
            key = (r["treaty"], r["lang"], r["top"])
            if r["depth"] == 0 and key in has_children:
                continue  # indexed through its paragraphs
            top = tops[key]
            text, raw = r["text"], r["raw"]
            yield IndexDoc(
                id=r["id"], treaty=r["treaty"], parties=parties.get(r["treaty"], ()),
                lang=r["lang"], kind=top["kind"], eid=r["eid"], article_eid=top["eid"],
                number=top["number"], label=top["label"], title=top["title"] or "",
                topic=top["topic"] or "", topic_names=topic_names(top["topic"]),
                text=text, raw=raw,
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
