"""One article in its language versions, side by side: rows of paragraphs and points joined
by the alignment links of the store (see README, "compare JSON").

Each version's article is flattened into nodes in reading order (paragraph, its points, the
paragraph's text after its points); the links join nodes of different versions into sets,
each set is a row, and the rows are put in the reading order of the first language.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from indexer.errors import NotFoundError, QueryError
from indexer.segment.numerals import parse_roman
from search.citations import number_ranges
from search.compare.links import UNMATCHED, UnionFind, links
from search.corpus import Corpus, Treaty

#: (lang, node id): a node of one version; a paragraph's text after its points is the node
#: "<eid>#tail".
Key = tuple[str, str]
#: Per node: (position in its version's reading order, level, num, text).
Node = tuple[int, str, str | None, str]

_HEADING_RE = re.compile(r"^\s*(?:article|artikel|artigo|art\.?)\b[^\n]{0,20}\n",
                         re.IGNORECASE)


def article_eid(article: str | int) -> str:
    """"7", "VII", "vii", "art_7", "Article 7", "26-A", "art_26a" -> "art_7" / "art_26a"."""
    s = str(article).strip()
    if re.fullmatch(r"(?:art|prot)_\w+", s):
        return s
    s = re.sub(r"^(?:article|artikel|artigo|art\.?)\s*", "", s, flags=re.IGNORECASE)
    m = re.fullmatch(r"(\d{1,3})\s*-?\s*([A-Za-z]?)", s)
    if m:
        return f"art_{int(m.group(1))}{m.group(2).lower()}"
    value = parse_roman(s)
    if value:
        return f"art_{value}"
    raise QueryError(f"cannot read article '{article}': give a number (7), a roman numeral "
                     "(VII) or an eId (art_7)")


def _articles_message(corpus: Corpus, treaty: str) -> str:
    rows = corpus.db.execute(
        "SELECT DISTINCT number FROM units WHERE treaty=? AND kind='article' "
        "AND number IS NOT NULL", (treaty,)).fetchall()
    nums = [r[0] for r in rows]
    return f"{treaty} has articles {number_ranges(nums)}" if nums else f"{treaty} has no articles"


# --- each version as nodes in reading order ----------------------------------------------


def _split_points(node: dict) -> tuple[str, str]:
    """A paragraph's own text around its points: (before the first point, after the last)."""
    text = node["text"]
    kids = node["children"]
    if not kids:
        return text, ""
    first = text.find(kids[0]["text"][:40])
    last_text = kids[-1]["text"]
    end = text.rfind(last_text[-40:]) if last_text else -1
    intro = text[:first].rstrip() if first >= 0 else text
    tail = text[end + len(last_text[-40:]):].strip() if end >= 0 and first >= 0 else ""
    return intro, tail


def _flatten(article: dict) -> list[tuple[str, str, str | None, str]]:
    """(node id, level, num, text) in reading order: paragraphs, their points, the
    paragraph's text after its points ("#tail"). An article without paragraphs is one row."""
    out: list[tuple[str, str, str | None, str]] = []

    def walk(node: dict) -> None:
        level = node["kind"]
        intro, tail = _split_points(node)
        out.append((node["eid"], level, node["num"], intro))
        for child in node["children"]:
            walk(child)
        if tail:
            out.append((node["eid"] + "#tail", level, None, tail))

    paras = [c for c in article["children"] if c["kind"] == "paragraph"]
    if not paras:
        out.append((article["eid"], "paragraph", None, _HEADING_RE.sub("", article["text"], 1)))
    for p in paras:
        walk(p)
    return out


def _versions(corpus: Corpus, t: Treaty, eid: str, langs: Sequence[str] | None
              ) -> tuple[list[str], dict[str, dict]]:
    """The languages to show (those asked for, else every one with articles) and the
    article's tree in each that has it."""
    langs = list(langs) if langs else [
        lg for lg in t.languages
        if corpus.db.execute("SELECT 1 FROM units WHERE treaty=? AND lang=? AND kind='article' "
                             "LIMIT 1", (t.id, lg)).fetchone()]
    tops: dict[str, dict] = {}
    for lg in langs:
        found = corpus.tree(t.id, lg, top=eid)
        if found:
            tops[lg] = found[0]
    return langs, tops


def _nodes(tops: dict[str, dict]) -> dict[Key, Node]:
    nodes: dict[Key, Node] = {}
    for lg, top in tops.items():
        for pos, (nid, level, num, text) in enumerate(_flatten(top)):
            nodes[lg, nid] = (pos, level, num, text)
    return nodes


# --- rows: the nodes the links join ------------------------------------------------------


def _join(corpus: Corpus, treaty: str, eid: str, tops: dict[str, dict],
          nodes: dict[Key, Node]) -> tuple[list[list[Key]], dict[frozenset, dict]]:
    """The sets of nodes joined by the paragraph and point links of the article (a link
    also joins the two paragraphs' tails), and the link of each joined pair."""
    joined = UnionFind()
    for key in nodes:
        joined.find(key)
    link_of: dict[frozenset, dict] = {}
    prefix = eid + "__"
    for x in links(corpus, treaty):
        if x["method"] == UNMATCHED or x["level"] == "article":
            continue
        if x["lang_a"] not in tops or x["lang_b"] not in tops:
            continue
        if not (x["eid"] == eid or x["eid"].startswith(prefix)):
            continue
        a, b = (x["lang_a"], x["eid"]), (x["lang_b"], x["eid_b"])
        if a in nodes and b in nodes:
            joined.union(a, b)
            link_of[frozenset((a, b))] = x
            ta, tb = (a[0], a[1] + "#tail"), (b[0], b[1] + "#tail")
            if ta in nodes and tb in nodes:
                joined.union(ta, tb)
                link_of[frozenset((ta, tb))] = x
    groups: dict = defaultdict(list)
    for key in nodes:
        groups[joined.find(key)].append(key)
    return list(groups.values()), link_of


def _order(groups: list[list[Key]], nodes: dict[Key, Node], langs: Sequence[str]
           ) -> list[list[Key]]:
    """Rows in reading order: by the first language; a row missing from it goes after the row
    that precedes it in the first language where it exists."""
    def pos(group: list, lg: str) -> int | None:
        found = [nodes[k][0] for k in group if k[0] == lg]
        return min(found) if found else None

    placed: list[list] = []
    for lg in langs:
        todo = sorted((g for g in groups if pos(g, lg) is not None and
                       all(g is not p for p in placed)), key=lambda g: pos(g, lg))
        for g in todo:
            mine = pos(g, lg)
            at = 0
            for i, p in enumerate(placed):
                q = pos(p, lg)
                if q is not None and q < mine:
                    at = i + 1
            placed.insert(at, g)
    return placed


def _cell(members: list[Key], nodes: dict[Key, Node], lg: str) -> dict | None:
    """One version's part of a row: its nodes' nums, texts and eIds joined (None: none)."""
    mine = sorted((k for k in members if k[0] == lg), key=lambda k: nodes[k][0])
    if not mine:
        return None
    nums = [nodes[k][2] for k in mine if nodes[k][2]]
    return {"num": ", ".join(nums) if nums else None,
            "text": "\n".join(nodes[k][3] for k in mine),
            "eid": ", ".join(k[1].replace("#tail", "") for k in mine)}


def _row(members: list[Key], nodes: dict[Key, Node], langs: Sequence[str],
         link_of: dict[frozenset, dict]) -> dict:
    """A row of the JSON: its cells, and the weakest link inside it (its score and
    method; "unmatched" when no link joins it)."""
    cells = {lg: _cell(members, nodes, lg) for lg in langs}
    inner = [v for k, v in link_of.items() if k <= set(members)]
    weakest = min(inner, key=lambda x: x["score"]) if inner else None
    first = min(members, key=lambda k: (langs.index(k[0]), nodes[k][0]))
    return {
        "eid": first[1].replace("#tail", ""),
        "level": nodes[first][1] + ("-tail" if first[1].endswith("#tail") else ""),
        "cells": cells,
        "score": round(weakest["score"], 4) if weakest else None,
        "method": weakest["method"] if weakest else UNMATCHED,
    }


def _number(tops: dict[str, dict], eid: str) -> int | None:
    """The article's number: as stored in a version, else the one in its eId (art_7)."""
    number = next((tp["number"] for tp in tops.values() if tp["number"] is not None), None)
    if number is None and re.fullmatch(r"art_\d+", eid):
        number = int(eid[4:])
    return number


def compare_article(corpus: Corpus, treaty: str, article: str | int,
                    langs: Sequence[str] | None = None) -> dict:
    """One article's versions in rows aligned paragraph by paragraph and point by point
    (see README, "compare JSON")."""
    t = corpus.treaty(treaty)
    for lg in langs or ():
        corpus.check_lang(t, lg)
    eid = article_eid(article)
    langs, tops = _versions(corpus, t, eid, langs)
    if not tops:
        raise NotFoundError(f"{t.id} has no article {article}; {_articles_message(corpus, t.id)}")
    nodes = _nodes(tops)
    groups, link_of = _join(corpus, t.id, eid, tops, nodes)
    rows = [_row(members, nodes, langs, link_of) for members in _order(groups, nodes, langs)]
    return {"treaty": t.id, "article": _number(tops, eid), "eid": eid, "langs": langs,
            "titles": {lg: (tops[lg]["title"] if lg in tops else None) for lg in langs},
            "labels": {lg: (tops[lg]["label"] if lg in tops else None) for lg in langs},
            "rows": rows}
