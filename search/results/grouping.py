"""Paragraph hits grouped by article: a group per (treaty, language, article), scored by its
best paragraph plus a little of the next two; and the citation of a hit."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from indexer.models import IndexDoc

#: Weight of an article's second and third best paragraph in its score.
MORE_PARAGRAPHS = 0.25
_INSERTED = re.compile(r"art_\d+([A-Za-z]+)_*")  # "art_26A": an inserted article
_PARA_RE = re.compile(r"__para_([^_]+(?:_[^_]+)*?)(?:__|$)")


@dataclass
class Group:
    """The matching paragraphs of one article (best first) and the article's score."""

    treaty: str
    lang: str
    article_eid: str
    score: float
    docs: list[tuple[float, IndexDoc]] = field(default_factory=list)
    relaxed: bool = False
    translated: bool = False  # matches only through the term table (`translate`)
    weight: float = 0.0  # relaxed groups: summed idf of the query words matched

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.treaty, self.lang, self.article_eid)


def group_score(scores: list[float]) -> float:
    """An article's score from its paragraphs' scores, best first."""
    return scores[0] + MORE_PARAGRAPHS * sum(scores[1:3])


def stored_doc(stored: str) -> IndexDoc:
    """The index document of a hit's stored JSON."""
    data = json.loads(stored)
    data["parties"] = tuple(data.get("parties") or ())
    return IndexDoc(**data)


def group(scored: Iterable[tuple[float, IndexDoc]]) -> list[Group]:
    """Paragraph hits grouped by (treaty, lang, article), best group first; within a group the
    paragraphs best first. A group scores its best paragraph plus a little of the next two
    (an article that matches in several paragraphs is more about the query)."""
    groups: dict[tuple[str, str, str], Group] = {}
    for score, doc in scored:
        key = (doc.treaty, doc.lang, doc.article_eid)
        g = groups.get(key)
        if g is None:
            g = groups[key] = Group(doc.treaty, doc.lang, doc.article_eid, score)
        g.docs.append((score, doc))
    out = list(groups.values())
    for g in out:
        g.docs.sort(key=lambda x: -x[0])
        g.docs = best_part(g.docs)
        g.score = group_score([s for s, _ in g.docs])
    out.sort(key=lambda g: (-g.score, g.treaty, g.lang, g.article_eid))
    return out


def citation(treaty: str, kind: str, number: int | None, article_eid: str,
             eid: str | None = None) -> str:
    """The citation of a hit: "br-pe-2006 Art. 10(2)" (the paragraph `eid` when it is one of
    the article's numbered paragraphs), "br-pe-2006 Protocol 4", else "br-pe-2006 preamble"."""
    if kind == "article" and number is not None:
        inserted = _INSERTED.fullmatch(article_eid)
        out = f"{treaty} Art. {number}{inserted.group(1) if inserted else ''}"
        m = _PARA_RE.search(eid or "")
        if m and eid and eid.startswith(article_eid + "__"):
            out += f"({m.group(1).rstrip('_')})"
        return out
    if kind == "protocol" and number is not None:
        return f"{treaty} Protocol {number}"
    return f"{treaty} {article_eid}"


def best_part(docs: list[tuple[float, IndexDoc]]) -> list[tuple[float, IndexDoc]]:
    """`docs` (best first) with one document per paragraph: a paragraph too long for one
    index document is indexed in parts (`indexer.index.documents.parts`), its best part
    stands for it."""
    seen: set[str] = set()
    out = []
    for score, doc in docs:
        if doc.eid not in seen:
            seen.add(doc.eid)
            out.append((score, doc))
    return out
