"""The searchable documents, derived from the store: one per paragraph with its article
context (an article or other unit without paragraphs is one document itself)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Collection, Iterator
from contextlib import closing
from functools import cache
from pathlib import Path

from indexer import store
from indexer.models import IndexDoc

_FIELDS = tuple(f.name for f in dataclasses.fields(IndexDoc))
#: Most characters of text in one index document: a longer paragraph (a file that is one
#: huge line) is indexed as several documents of that paragraph, each at most this long, so
#: that no search loads, scores or makes a snippet of the whole of it.
MAX_DOC_CHARS = 100_000


@cache
def topic_names(topic: str | None) -> str:
    """The topic's display names in every language, space separated ("" for none)."""
    if not topic:
        return ""
    from indexer.topics import TOPICS

    names = TOPICS.get(topic) or {}
    return " ".join(names.values())


def index_docs(data_dir: Path, treaties: Collection[str] | None = None) -> Iterator[IndexDoc]:
    """Every searchable paragraph of the store (of `treaties` only, when given), in store
    order."""
    with closing(store.connect(data_dir)) as db:
        if treaties is None:
            yield from _documents(db, "", ())
        for treaty in sorted(treaties or ()):  # (store order is treaty order first)
            yield from _documents(db, " AND treaty = ?", (treaty,))


def _documents(db: sqlite3.Connection, where: str, args: tuple) -> Iterator[IndexDoc]:
    """`index_docs` of every treaty, or of one: `where` (" AND treaty = ?", `args` its id)."""
    parties = {r["id"]: tuple(json.loads(r["parties"] or "[]")) for r in db.execute(
        "SELECT id, parties FROM treaties" + (" WHERE id = ?" if args else ""), args)}
    # Per top-level unit, a template of its documents: every field but their own (None
    # here), in the order of IndexDoc's fields.
    tops = {}
    for r in db.execute("SELECT treaty, lang, eid, kind, number, label, title, topic"
                        f" FROM units WHERE depth = 0{where} ORDER BY treaty, lang, seq", args):
        fields = dict.fromkeys(_FIELDS)
        fields.update(
            treaty=r["treaty"], parties=parties.get(r["treaty"], ()), lang=r["lang"],
            kind=r["kind"], article_eid=r["eid"], number=r["number"], label=r["label"],
            title=r["title"] or "", topic=r["topic"] or "", topic_names=topic_names(r["topic"]),
        )
        tops[(r["treaty"], r["lang"], r["eid"])] = IndexDoc(**fields)
    rows = db.cursor()
    rows.row_factory = None  # plain tuples, in the order of the columns selected
    # A top-level unit with paragraphs is indexed through them: it is left out here (not
    # read and thrown away: its text and raw are most of the store's). A chapter heading
    # is structure, not text a search should answer with (the articles under it are).
    rows.execute("SELECT treaty, lang, top, id, eid, text, raw, changes FROM units AS u"
                 " WHERE depth <= 1 AND kind != 'chapter' AND NOT (depth = 0 AND EXISTS ("
                 "SELECT 1 FROM units AS c WHERE c.treaty = u.treaty AND c.lang = u.lang"
                 f" AND c.top = u.top AND c.depth = 1)){where}"
                 " ORDER BY treaty, lang, seq", args)
    for treaty, lang, top, uid, eid, text, raw, changes in rows:
        doc = dataclasses.replace(tops[treaty, lang, top], id=uid, eid=eid, text=text, raw=raw,
                                  printed=printed_words(changes))
        yield from parts(doc) if len(text) > MAX_DOC_CHARS else (doc,)


def printed_words(changes: str | None) -> str:
    """The words as printed of a unit's OCR repairs (the store's `changes` JSON), each once."""
    from indexer.normalise import LAYOUT_STEPS

    if not changes:
        return ""
    found = dict.fromkeys(ch["before"] for ch in json.loads(changes)
                          if ch["step"] not in LAYOUT_STEPS and ch["before"] != ch["after"])
    return " ".join(found)


def parts(doc: IndexDoc, size: int = MAX_DOC_CHARS) -> Iterator[IndexDoc]:
    """`doc` as index documents of at most `size` characters of its text, cut at a space
    where there is one in the second half of a part: the first keeps its id, the others are
    "<id>#2", "<id>#3", ... (the same paragraph: the same eid). Each part's raw text is its
    text (the store keeps the paragraph's own)."""
    text, start, n = doc.text, 0, 1
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text) and (sp := text.rfind(" ", start + size // 2, end)) != -1:
            end = sp + 1
        piece = text[start:end]
        yield dataclasses.replace(doc, id=doc.id if n == 1 else f"{doc.id}#{n}", text=piece,
                                  raw=piece)
        start, n = end, n + 1


def oversized(texts: dict[str, str], size: int = MAX_DOC_CHARS) -> list[str]:
    """A warning for each unit (eid -> text) longer than `size`: it is indexed in parts."""
    return [f"{eid} is {len(t):,} characters long: indexed in {-(-len(t) // size)} parts "
            f"of at most {size:,}" for eid, t in texts.items() if len(t) > size]
