"""Side-by-side reading: one article in its language versions, row by row as the alignment
links them; one provision (a model-convention topic) across treaties; the links a person
should check first.

Everything here reads the store (units and links), never the raw texts.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from indexer.errors import NotFoundError, QueryError
from indexer.segment.numerals import parse_roman
from search.corpus import Corpus

GAP = "—"
UNMATCHED = "unmatched"


# ---------------------------------------------------------------------------------------------
# Article references
# ---------------------------------------------------------------------------------------------

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


def _ranges(numbers: Iterable[int]) -> str:
    nums = sorted(set(numbers))
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        parts.append(str(nums[i]) if i == j else f"{nums[i]}–{nums[j]}")
        i = j + 1
    return ", ".join(parts)


def _articles_message(corpus: Corpus, treaty: str) -> str:
    rows = corpus.db.execute(
        "SELECT DISTINCT number FROM units WHERE treaty=? AND kind='article' "
        "AND number IS NOT NULL", (treaty,)).fetchall()
    nums = [r[0] for r in rows]
    return f"{treaty} has articles {_ranges(nums)}" if nums else f"{treaty} has no articles"


# ---------------------------------------------------------------------------------------------
# Links
# ---------------------------------------------------------------------------------------------

def links(corpus: Corpus, treaty: str) -> list[dict]:
    """The stored links of `treaty` (unmatched reports included)."""
    return [dict(r) for r in corpus.db.execute(
        "SELECT * FROM links WHERE treaty=? ORDER BY lang_a, lang_b, rowid", (treaty,))]


class _Union:
    def __init__(self) -> None:
        self.parent: dict = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


# ---------------------------------------------------------------------------------------------
# One article, side by side
# ---------------------------------------------------------------------------------------------

_HEADING_RE = re.compile(r"^\s*(?:article|artikel|artigo|art\.?)\b[^\n]{0,20}\n",
                         re.IGNORECASE)


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


def compare_article(corpus: Corpus, treaty: str, article: str | int,
                    langs: Sequence[str] | None = None) -> dict:
    """One article's versions in rows aligned paragraph by paragraph and point by point
    (see README, "compare JSON")."""
    t = corpus.treaty(treaty)
    for lg in langs or ():
        corpus.check_lang(t, lg)
    eid = article_eid(article)
    langs = list(langs) if langs else [
        lg for lg in t.languages
        if corpus.db.execute("SELECT 1 FROM units WHERE treaty=? AND lang=? AND kind='article' "
                             "LIMIT 1", (t.id, lg)).fetchone()]
    tops: dict[str, dict] = {}
    for lg in langs:
        found = corpus.tree(t.id, lg, top=eid)
        if found:
            tops[lg] = found[0]
    if not tops:
        raise NotFoundError(f"{t.id} has no article {article}; {_articles_message(corpus, t.id)}")
    nodes: dict[tuple[str, str], tuple[int, str, str | None, str]] = {}
    for lg, top in tops.items():
        for pos, (nid, level, num, text) in enumerate(_flatten(top)):
            nodes[lg, nid] = (pos, level, num, text)
    union = _Union()
    for key in nodes:
        union.find(key)
    link_of: dict[frozenset, dict] = {}
    prefix = eid + "__"
    for x in links(corpus, t.id):
        if x["method"] == UNMATCHED or x["level"] == "article":
            continue
        if x["lang_a"] not in tops or x["lang_b"] not in tops:
            continue
        if not (x["eid"] == eid or x["eid"].startswith(prefix)):
            continue
        a, b = (x["lang_a"], x["eid"]), (x["lang_b"], x["eid_b"])
        if a in nodes and b in nodes:
            union.union(a, b)
            link_of[frozenset((a, b))] = x
            ta, tb = (a[0], a[1] + "#tail"), (b[0], b[1] + "#tail")
            if ta in nodes and tb in nodes:
                union.union(ta, tb)
                link_of[frozenset((ta, tb))] = x
    groups: dict = defaultdict(list)
    for key in nodes:
        groups[union.find(key)].append(key)
    rows = _order(list(groups.values()), nodes, langs)
    out_rows = []
    for members in rows:
        cells: dict[str, dict | None] = {}
        for lg in langs:
            mine = sorted((k for k in members if k[0] == lg), key=lambda k: nodes[k][0])
            if not mine:
                cells[lg] = None
                continue
            nums = [nodes[k][2] for k in mine if nodes[k][2]]
            cells[lg] = {"num": ", ".join(nums) if nums else None,
                         "text": "\n".join(nodes[k][3] for k in mine),
                         "eid": ", ".join(k[1].replace("#tail", "") for k in mine)}
        inner = [v for k, v in link_of.items() if k <= set(members)]
        weakest = min(inner, key=lambda x: x["score"]) if inner else None
        first = min(members, key=lambda k: (langs.index(k[0]), nodes[k][0]))
        out_rows.append({
            "eid": first[1].replace("#tail", ""),
            "level": nodes[first][1] + ("-tail" if first[1].endswith("#tail") else ""),
            "cells": cells,
            "score": round(weakest["score"], 4) if weakest else None,
            "method": weakest["method"] if weakest else UNMATCHED,
        })
    number = next((tp["number"] for tp in tops.values() if tp["number"] is not None), None)
    if number is None and re.fullmatch(r"art_\d+", eid):
        number = int(eid[4:])
    return {"treaty": t.id, "article": number, "eid": eid, "langs": langs,
            "titles": {lg: (tops[lg]["title"] if lg in tops else None) for lg in langs},
            "labels": {lg: (tops[lg]["label"] if lg in tops else None) for lg in langs},
            "rows": out_rows}


def _order(groups: list[list[tuple[str, str]]], nodes: dict, langs: Sequence[str]
           ) -> list[list[tuple[str, str]]]:
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


# ---------------------------------------------------------------------------------------------
# One provision across treaties
# ---------------------------------------------------------------------------------------------

def _topic_keys() -> dict[str, dict[str, str]]:
    from indexer.topics import TOPICS

    return TOPICS


def article_topics(corpus: Corpus, treaty: str) -> dict[tuple[str, str], str | None]:
    """The topic of every article of `treaty`, per (lang, eid): the majority topic of the
    article's linked group, so versions agree even when one was classified differently."""
    rows = corpus.db.execute(
        "SELECT lang, eid, topic FROM units WHERE treaty=? AND kind='article' ORDER BY seq",
        (treaty,)).fetchall()
    union = _Union()
    for r in rows:
        union.find((r["lang"], r["eid"]))
    for x in corpus.db.execute(
            "SELECT * FROM links WHERE treaty=? AND level='article' AND method != ?",
            (treaty, UNMATCHED)):
        union.union((x["lang_a"], x["eid"]), (x["lang_b"], x["eid_b"]))
    votes: dict = defaultdict(Counter)
    for r in rows:
        if r["topic"]:
            votes[union.find((r["lang"], r["eid"]))][r["topic"]] += 1
    out = {}
    for r in rows:
        v = votes.get(union.find((r["lang"], r["eid"])))
        out[r["lang"], r["eid"]] = v.most_common(1)[0][0] if v else None
    return out


def compare_topic(corpus: Corpus, topic: str, lang: str | None = None,
                  treaties: Sequence[str] | None = None) -> dict:
    """The article on `topic` (a model-convention key such as "dividends") of every treaty, in
    every language (or `lang` only), whatever its number."""
    keys = _topic_keys()
    if topic not in keys:
        matches = [k for k, names in keys.items()
                   if topic.lower() in (n.lower() for n in names.values())]
        if len(matches) != 1:
            raise NotFoundError(f"unknown topic '{topic}' (topics: {', '.join(keys)})")
        topic = matches[0]
    ids = list(treaties) if treaties else [t.id for t in corpus.treaties()]
    articles = []
    for tid in ids:
        t = corpus.treaty(tid)
        if lang and lang not in t.languages:
            continue
        topics = article_topics(corpus, t.id)
        for lg in t.languages:
            if lang and lg != lang:
                continue
            for node in corpus.tree(t.id, lg):
                if node["kind"] == "article" and topics.get((lg, node["eid"])) == topic:
                    articles.append({
                        "treaty": t.id, "lang": lg, "eid": node["eid"],
                        "number": node["number"], "label": node["label"],
                        "title": node["title"], "text": node["text"],
                    })
    return {"topic": topic, "articles": articles}


# ---------------------------------------------------------------------------------------------
# Links to check
# ---------------------------------------------------------------------------------------------

def align_report(corpus: Corpus, treaty: str, limit: int = 20) -> list[dict]:
    """The lowest-confidence links of `treaty` (units without counterpart first), with the
    start of both texts, for a person to check."""
    t = corpus.treaty(treaty)
    texts = {(r["lang"], r["eid"]): r["text"] for r in corpus.db.execute(
        "SELECT lang, eid, text FROM units WHERE treaty=?", (t.id,))}
    order = {"article": 0, "paragraph": 1, "point": 2}
    rows = sorted(links(corpus, t.id),
                  key=lambda x: (x["score"], order.get(x["level"], 3), x["eid"], x["eid_b"]))
    out = []
    for x in rows[:limit] if limit else rows:
        out.append({
            "lang_a": x["lang_a"], "eid_a": x["eid"], "lang_b": x["lang_b"],
            "eid_b": x["eid_b"], "level": x["level"], "score": x["score"],
            "method": x["method"],
            "text_a": texts.get((x["lang_a"], x["eid"]), ""),
            "text_b": texts.get((x["lang_b"], x["eid_b"]), ""),
        })
    return out


# ---------------------------------------------------------------------------------------------
# Text columns
# ---------------------------------------------------------------------------------------------

def char_width(c: str) -> int:
    if unicodedata.combining(c):
        return 0
    return 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1


def display_width(s: str) -> int:
    return sum(char_width(c) for c in s)


def wrap(text: str, width: int) -> list[str]:
    """Wrap to `width` display columns: at spaces, anywhere inside a run of wide (CJK)
    characters, and inside a word longer than the line."""
    lines: list[str] = []
    for para in text.split("\n"):
        line, w = "", 0
        for word in re.findall(r"\S+|\s+", para):
            if word.isspace():
                if line:
                    line, w = line + " ", w + 1
                continue
            ww = display_width(word)
            if w + ww <= width:
                line, w = line + word, w + ww
                continue
            if line.strip() and ww <= width and not any(char_width(c) == 2 for c in word):
                lines.append(line.rstrip())
                line, w = word, ww
                continue
            for c in word:  # break the word (CJK runs break anywhere)
                cw = char_width(c)
                if w + cw > width:
                    lines.append(line.rstrip())
                    line, w = "", 0
                line, w = line + c, w + cw
        lines.append(line.rstrip())
    return lines or [""]


def pad(s: str, width: int, right: bool = False) -> str:
    """`s` padded with spaces to `width` terminal columns (CJK characters take two)."""
    fill = " " * max(0, width - display_width(s))
    return fill + s if right else s + fill


def _columns(cells: Sequence[str], width: int, sep: str = " │ ") -> list[str]:
    k = len(cells)
    col = max(8, (width - len(sep) * (k - 1)) // k)
    wrapped = [wrap(c, col) for c in cells]
    height = max(len(w) for w in wrapped)
    out = []
    for i in range(height):
        parts = [pad(w[i] if i < len(w) else "", col) for w in wrapped]
        out.append(sep.join(parts).rstrip())
    return out


def _cell_text(cell: dict | None) -> str:
    if cell is None:
        return GAP
    text = cell["text"] or ""
    return text if text.strip() else GAP


def render_columns(result: dict, width: int = 80) -> str:
    """A compare result as text: columns side by side, wrapped to `width`, rows separated by
    a rule with the row's eId, link method and score; a missing counterpart shows "—"."""
    if "articles" in result:
        return _render_topic(result, width)
    langs = result["langs"]
    heads = []
    for lg in langs:
        label = result["labels"].get(lg) or result["article"] or ""
        title = result["titles"].get(lg) or ""
        heads.append(f"[{lg}] {label}" + (f" {title}" if title else ""))
    lines = [f"{result['treaty']} {result['eid']}"[:width]]
    lines.extend(_columns(heads, width))
    for row in result["rows"]:
        score = f" {row['score']:.2f}" if row["score"] is not None else ""
        rule = f"── {row['eid']}{' (cont.)' if row['level'].endswith('tail') else ''}  " \
               f"{row['method']}{score} "
        rule = rule[:width]
        lines.append(rule + "─" * max(0, width - display_width(rule)))
        lines.extend(_columns([_cell_text(row["cells"][lg]) for lg in langs], width))
    return "\n".join(lines)


def _render_topic(result: dict, width: int) -> str:
    lines = [f"topic: {result['topic']}  ({len(result['articles'])} articles)"]
    for a in result["articles"]:
        head = f"── {a['treaty']} [{a['lang']}] Article {a['label'] or a['number'] or '?'}"
        if a["title"]:
            head += f" {a['title']}"
        head = head[:width - 1] + " "
        lines.append(head + "─" * max(0, width - display_width(head)))
        lines.extend(wrap(a["text"], width))
    return "\n".join(lines)
