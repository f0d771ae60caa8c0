"""What each page of the web app shows, as plain data from the store (no Flask here).

`article_page` lines up the language versions of one top-level unit paragraph by paragraph
(by the alignment links of the store where there are any, else by eId, which names aligned
units); `topic_page` puts the article on one model-convention topic of every treaty side by
side; `treaty_page` is a treaty's metadata, outline and the parts that are not treaty text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from indexer.errors import NotFoundError, QueryError, StoreError
from indexer.segment.numerals import article_reference_re, paragraph_reference_re, parse_label
from indexer.topics import TOPICS
from search.check import check, lines_text, per_version
from search.citations import Citation, format_citation
from search.compare.links import paragraph_links
from search.compare.rows import TermTable
from search.corpus import Corpus, Treaty
from search.web.markup import VIEWS

LANG_NAMES = {"en": "English", "pt": "Português", "sv": "Svenska", "zh": "中文"}


def lang_name(lang: str) -> str:
    return LANG_NAMES.get(lang, lang)


def title_lang(treaty: Treaty) -> str:
    """The language of a treaty's title, identified as the ingest identifies text, among
    its versions' languages and English (a manifest's own language); "" for no title."""
    if not treaty.title:
        return ""
    return _text_lang(treaty.title, tuple(dict.fromkeys([*treaty.languages, "en"])))


@lru_cache(maxsize=8192)
def _text_lang(text: str, candidates: tuple[str, ...]) -> str:
    """`indexer.languages.detect` (a pure function of its arguments), remembered: the home
    page shows every treaty's title on every visit."""
    from indexer.languages import detect

    return detect(text, list(candidates))


def topic_name(topic: str | None, lang: str = "en") -> str:
    if not topic:
        return ""
    names = TOPICS.get(topic) or {}
    return names.get(lang) or names.get("en") or topic


def unit_label(kind: str, number: int | None, eid: str, lang: str = "en") -> str:
    """"Article 7", "Article 21A", "Protocol 4", "Chapter 2", "Annex 1", "Preamble", "Other 1"
    (in English: the UI's language)."""
    if kind == "article" and number is not None:
        return f"Article {number}{_inserted(eid)}"
    if kind in ("chapter", "annex") and number is not None:
        return f"{kind.title()} {number}"
    if kind == "protocol" and number is not None:
        return f"Protocol item {number}"
    if kind == "protocol":
        return "Protocol"
    return eid.replace("_", " ").capitalize()


def citation_of(treaty: str, kind: str, number: int | None, eid: str) -> str:
    """The citation of a top-level unit: "br-pe-2006 Art. 10", "br-pe-2006 Protocol 4"."""
    if kind == "article" and number is not None and _inserted(eid):
        return f"{treaty} Art. {number}{_inserted(eid)}"
    if kind in ("article", "protocol") and number is not None:
        c = Citation(treaty_id=treaty, article=number, protocol=kind == "protocol")
        return format_citation(c, "en")
    return f"{treaty} {eid.replace('_', ' ')}"


def _inserted(eid: str) -> str:
    """The suffix of an inserted article's eid: "art_21A" -> "A", "art_5bis" -> "bis"."""
    m = re.fullmatch(r"art_\d+([A-Za-z]+)_*", eid)
    return m.group(1) if m else ""


def check_langs(treaty: Treaty, langs: Sequence[str]) -> list[str]:
    """The requested languages in the treaty's order (all when none); a language it does
    not have is a QueryError naming the ones it has."""
    wanted = [lg for lg in dict.fromkeys(x.strip().lower() for x in langs) if lg]
    bad = [lg for lg in wanted if lg not in treaty.languages]
    if bad:
        raise QueryError(f"{treaty.id} has no '{bad[0][:20]}' version "
                         f"(it has: {', '.join(treaty.languages)})")
    return [lg for lg in treaty.languages if lg in wanted] if wanted else list(treaty.languages)


def check_view(view: str | None) -> str:
    view = (view or "text").strip().lower()
    if view not in VIEWS:
        raise QueryError(f"unknown view '{view[:20]}': use one of {', '.join(VIEWS)}")
    return view


# --- article page ----------------------------------------------------------------------------


@dataclass
class Row:
    """One aligned row: a cell (unit tree or None) per language."""

    id: str  # HTML id and permalink: the eId of the row (in the first language that has it)
    num: str | None
    cells: dict[str, dict | None]
    links: dict[str, tuple[float, str]] = field(default_factory=dict)  # lang -> score, method

    @property
    def note(self) -> str:
        """How the row was aligned, for a tooltip."""
        return "; ".join(f"{lg}: {m} ({sc})" for lg, (sc, m) in self.links.items())


@dataclass
class ArticlePage:
    treaty: Treaty
    eid: str
    kind: str
    number: int | None
    langs: list[str]
    view: str
    heads: dict[str, dict | None]  # per language: the top-level unit (tree) or None
    rows: list[Row]
    protocol: list[dict] = field(default_factory=list)  # protocol items referring to it
    refers_to: dict | None = None  # the article a protocol item refers to
    xrefs: list[dict] = field(default_factory=list)  # articles its text refers to
    referred_by: list[dict] = field(default_factory=list)  # units whose text refers to it
    prev: dict | None = None
    next: dict | None = None
    articles: set[int] = field(default_factory=set)
    topic: str | None = None
    citation: str = ""
    removed: dict[str, list[dict]] = field(default_factory=dict)  # per language: furniture
    as_: str | None = None  # None: as amended; "original"; or the ISO date it is read at
    amended: dict[str, dict] = field(default_factory=dict)  # per language: its instrument
    understandings: list[dict] = field(default_factory=list)  # free text about it, not applied

    @property
    def label(self) -> str:
        return unit_label(self.kind, self.number, self.eid)


def _sequence(corpus: Corpus, treaty: str, lang: str) -> list[dict]:
    return [dict(r) for r in corpus.db.execute(
        "SELECT eid, kind, number, label, title, topic FROM units "
        "WHERE treaty = ? AND lang = ? AND depth = 0 ORDER BY seq", (treaty, lang))]


def align_rows(corpus: Corpus, treaty: str, heads: dict[str, dict | None]) -> list[Row]:
    """Paragraph rows of one top-level unit across languages."""
    rows: dict[str, Row] = {}
    order: list[str] = []
    langs = [lg for lg, h in heads.items() if h is not None]
    if not langs:
        return []
    first = langs[0]
    for lang in langs:
        mapping = paragraph_links(corpus, treaty, first, lang) if lang != first else {}
        last = -1
        for child in heads[lang]["children"]:  # type: ignore[index]
            key, score, method = mapping.get(child["eid"], (child["eid"], None, None))
            row = rows.get(key)
            if row is not None and row.cells.get(lang) is None:
                row.cells[lang] = child
                if score is not None:
                    row.links[lang] = (round(score, 3), method)
                last = order.index(key)
                continue
            if row is not None:  # taken: a row of its own
                key = f"{lang}-{child['eid']}"
            rows[key] = Row(key, child["num"], {lg: None for lg in heads})
            rows[key].cells[lang] = child
            order.insert(last + 1, key)
            last += 1
    return [rows[k] for k in order]


def anchor_ids(page: ArticlePage) -> dict[str, frozenset[str]]:
    """Per language, the eIds of its paragraphs and points that have an anchor on the page:
    its paragraphs that name a row (a row has the eId of its first version's cell) and the
    points the first version's cells anchor that it has too."""
    from search.web.markup import anchored_points

    field = "raw" if page.view == "raw" else "text"
    rows = {r.id for r in page.rows}
    first = next((lg for lg in page.langs if page.heads[lg] is not None), None)
    points = anchored_points(page.heads[first], field) if first else set()
    out = {}
    for lang in page.langs:
        paras = {c["eid"] for r in page.rows if (c := r.cells.get(lang)) is not None}
        out[lang] = frozenset((paras & rows) | (points & _descendants(page.heads[lang])))
    return out


def _descendants(head: dict | None) -> set[str]:
    out: set[str] = set()
    todo = list(head.get("children", ())) if head else []
    while todo:
        unit = todo.pop()
        out.add(unit["eid"])
        todo.extend(unit.get("children", ()))
    return out


def _refs_in(text: str) -> set[tuple[int, int | None]]:
    found: set[tuple[int, int | None]] = set()
    for m in paragraph_reference_re().finditer(text):
        art = parse_label(m.group("art") or m.group("zart") or "")
        if art is not None:
            found.add((art, parse_label(m.group("para") or m.group("zpara") or "")))
    for m in article_reference_re().finditer(text):
        art = parse_label(m.group("label") or m.group("zlabel") or "")
        if art is not None:
            found.add((art, None))
    return found


def _heads(corpus: Corpus, t: Treaty, langs: list[str], eid: str,
           as_: str | None = None) -> dict[str, dict | None]:
    """Per language: the unit's tree (as amended, or as `as_` asks: "original", a date),
    or None where that version lacks it (NotFoundError, naming the units there are, when
    every version does)."""
    from search.instruments import tree_as

    heads: dict[str, dict | None] = {}
    for lang in langs:
        tree = tree_as(corpus, t.id, lang, eid, as_)
        heads[lang] = tree[0] if tree else None
    if all(h is None for h in heads.values()) and as_ is not None:
        when = "as first signed" if as_ == "original" else f"on {as_}"
        raise NotFoundError(f"{t.id} has no {eid} {when}: a later instrument added it")
    if all(h is None for h in heads.values()):
        have = [u["eid"] for u in _sequence(corpus, t.id, langs[0])]
        raise NotFoundError(f"{t.id} has no unit '{eid[:40]}' in {', '.join(langs)} "
                            f"(it has: {', '.join(have[:12])}{' …' if len(have) > 12 else ''})")
    return heads


def _neighbours(seq: list[dict], eid: str) -> tuple[dict | None, dict | None]:
    """The top-level units before and after `eid` in reading order."""
    pos = next((i for i, u in enumerate(seq) if u["eid"] == eid), 0)
    return (seq[pos - 1] if pos > 0 else None,
            seq[pos + 1] if pos + 1 < len(seq) else None)


def _protocol_items(corpus: Corpus, treaty: str, article: int) -> list[dict]:
    """The protocol items that refer to `article`, with the start of their text."""
    return [dict(r) for r in corpus.db.execute(
        "SELECT eid, lang, number, substr(text, 1, 160) AS excerpt FROM units "
        "WHERE treaty = ? AND kind = 'protocol' AND refers_to = ? GROUP BY eid "
        "ORDER BY number", (treaty, article))]


def _xrefs(present: list[dict], articles: set[int], head: dict) -> list[dict]:
    """The articles (and paragraphs) the unit's text refers to, in any version, that the
    treaty has; an article's references to itself left out."""
    refs: set[tuple[int, int | None]] = set()
    for h in present:
        refs |= _refs_in(h["text"])
    return [
        {"number": n, "para": p, "eid": f"art_{n}" + (f"__para_{p}" if p else "")}
        for n, p in sorted(refs, key=lambda x: (x[0], x[1] or 0))
        if n in articles and not (n == head["number"] and head["kind"] == "article")
    ]


def article_page(corpus: Corpus, treaty_id: str, eid: str, langs: Sequence[str] = (),
                 view: str | None = None, as_: str | None = None) -> ArticlePage:
    """One top-level unit (article, protocol item, preamble, ...) in the chosen languages,
    as amended (or `as_`: "original", a date)."""
    from search.instruments import amended_note, check_as, understandings

    t = corpus.treaty(treaty_id)
    chosen = check_langs(t, langs)
    view = check_view(view)
    as_ = check_as(as_)
    heads = _heads(corpus, t, chosen, eid, as_)
    present = [h for h in heads.values() if h is not None]
    head = present[0]
    seq_lang = next(lg for lg, h in heads.items() if h is not None)
    prev, next_ = _neighbours(_sequence(corpus, t.id, seq_lang), eid)
    articles = {r["number"] for r in corpus.db.execute(
        "SELECT DISTINCT number FROM units WHERE treaty = ? AND kind = 'article' "
        "AND number IS NOT NULL", (t.id,))}
    page = ArticlePage(
        treaty=t, eid=eid, kind=head["kind"], number=head["number"], langs=chosen, view=view,
        heads=heads, rows=align_rows(corpus, t.id, heads), prev=prev, next=next_,
        articles=articles, topic=next((h["topic"] for h in present if h["topic"]), None),
        citation=citation_of(t.id, head["kind"], head["number"], eid),
    )
    if head["kind"] == "article" and head["number"] is not None:
        page.protocol = _protocol_items(corpus, t.id, head["number"])
    refers = next((h["refers_to"] for h in present if h["refers_to"]), None)
    if refers is not None:
        page.refers_to = {"number": refers, "eid": f"art_{refers}"}
    page.xrefs = _xrefs(present, articles, head)
    if head["kind"] == "article" and head["number"] is not None:
        page.referred_by = _referred_by(corpus, t.id, seq_lang, eid, head["number"])
    if view != "text":
        page.removed = {lg: _removed_within(corpus, h) for lg, h in heads.items() if h is not None}
    page.as_ = as_
    page.amended = {lg: note for lg in chosen
                    if (note := amended_note(corpus, t.id, lg, eid)) is not None}
    page.understandings = understandings(corpus, t.id, eid)
    return page


def _removed_within(corpus: Corpus, head: dict) -> list[dict]:
    """The source lines removed as page furniture inside a unit's lines (a running header
    between two of its pages), with why: what the repair view shows beside the repairs."""
    return [{"lines": [r[0], r[1]], "text": r[2], "reason": r[3]} for r in corpus.db.execute(
        "SELECT start_line, end_line, raw, reason FROM removed WHERE file = ? AND start_line"
        " BETWEEN ? AND ? ORDER BY start_line", (head["file"], head["start_line"], head["end_line"]))]


def _referred_by(corpus: Corpus, treaty: str, lang: str, eid: str, number: int) -> list[dict]:
    """The other top-level units of the `lang` version whose text refers to article
    `number` (or a paragraph of it), in reading order."""
    out = []
    for r in corpus.db.execute(
            "SELECT eid, kind, number, text FROM units WHERE treaty = ? AND lang = ? "
            "AND depth = 0 AND kind IN ('article', 'protocol') AND eid != ? ORDER BY seq",
            (treaty, lang, eid)):
        if any(n == number for n, _p in _refs_in(r["text"])):
            out.append({"eid": r["eid"], "kind": r["kind"], "number": r["number"],
                        "label": unit_label(r["kind"], r["number"], r["eid"])})
    return out


# --- topic page ------------------------------------------------------------------------------


#: Treaties side by side on one topic page (the others on the next pages).
TOPIC_COLUMNS = 6


@dataclass
class TopicPage:
    topic: str
    lang: str | None
    columns: list[dict]  # per treaty: treaty, lang, eid, number, title, head (tree)
    rows: list[dict]  # {cells: a paragraph tree or None per column}, by content
    page: int = 1
    pages: int = 1
    treaties: int = 0  # treaties with an article on the topic, on every page


def topics_list(corpus: Corpus) -> list[dict]:
    """Every topic with the treaties that have an article on it."""
    have: dict[str, set[str]] = {}
    query = ("SELECT DISTINCT topic, treaty FROM doc_topics" if corpus.summarised else
             "SELECT DISTINCT topic, treaty FROM units WHERE kind = 'article'"
             " AND topic IS NOT NULL")
    for r in corpus.db.execute(query):
        have.setdefault(r["topic"], set()).add(r["treaty"])
    return [{"key": key, "names": names, "treaties": sorted(have.get(key, ()))}
            for key, names in TOPICS.items()]


def _check_corpus_lang(corpus: Corpus, lang: str | None) -> None:
    if not lang:
        return
    known = {lg for (lg,) in corpus.db.execute(
        "SELECT DISTINCT j.value FROM treaties, json_each(treaties.languages) AS j")}
    if lang not in known:
        raise QueryError(f"no '{lang[:20]}' version in the corpus (it has: "
                         f"{', '.join(sorted(known))})")


def topic_page(corpus: Corpus, topic: str, lang: str | None = None,
               table: TermTable | None = None, page: int = 1,
               per_page: int = TOPIC_COLUMNS) -> TopicPage:
    """The article on `topic` of the treaties of page `page` (`per_page` a page; a page
    past the last is the last), in `lang` where the treaty has it (else in its first
    language), paragraphs in rows by content (`search.compare.rows`; `table`: the index's
    bilingual term table, for columns of different languages)."""
    from search.compare import compare_topic, topic_columns, topic_key, topic_rows, topic_treaties

    lang = (lang or "").strip().lower() or None
    _check_corpus_lang(corpus, lang)
    key = topic_key(topic.strip()[:80])
    treaties = topic_treaties(corpus, key)
    pages = max(1, -(-len(treaties) // per_page))
    page = min(max(1, page), pages)
    shown = treaties[(page - 1) * per_page:page * per_page]
    found = compare_topic(corpus, key, treaties=shown) if shown else {"articles": []}
    columns = topic_columns(corpus, found["articles"], lang)
    return TopicPage(key, lang, columns, topic_rows(corpus, columns, table), page, pages,
                     len(treaties))


# --- treaty and home pages -------------------------------------------------------------------


def treaty_page(corpus: Corpus, treaty_id: str) -> dict:
    """Metadata, outline (rows by eId, a cell per language), the `other` parts, warnings."""
    t = corpus.treaty(treaty_id)
    outline: dict[str, dict] = {}
    others: list[dict] = []
    for lang in t.languages:
        for r in corpus.db.execute(
                "SELECT u.eid, u.kind, u.number, u.label, u.title, u.topic, u.number_inferred, "
                "u.refers_to, u.note, u.start_line, u.end_line, u.file, substr(u.text, 1, 300) "
                "AS excerpt, (SELECT COUNT(*) FROM units c WHERE c.treaty = u.treaty AND "
                "c.lang = u.lang AND c.parent = u.eid AND c.kind = 'paragraph') AS paras "
                "FROM units u WHERE u.treaty = ? AND u.lang = ? AND u.depth = 0 ORDER BY u.seq",
                (t.id, lang)):
            row = dict(r)
            if row["kind"] == "other":
                others.append({**row, "lang": lang})
                continue
            entry = outline.setdefault(row["eid"], {"eid": row["eid"], "kind": row["kind"],
                                                    "number": row["number"], "cells": {}})
            entry["cells"][lang] = row
    docs = [dict(r) for r in corpus.db.execute(
        "SELECT file, encoding, source_lines, languages, warnings, meta FROM documents "
        "WHERE treaty = ? ORDER BY file", (t.id,))]
    for d in docs:
        d["warnings"] = json.loads(d["warnings"] or "[]")
        d["languages"] = json.loads(d["languages"] or "[]")
        d["guessed"] = json.loads(d["meta"] or "{}").get("guessed") or []
        d["notes"] = json.loads(d["meta"] or "{}").get("notes") or []
        d["format"] = json.loads(d["meta"] or "{}").get("format") or "text"
    _pages_of_cells(outline.values(), docs)
    from search.check import removed_lines

    removed = removed_lines(corpus, [t.id])
    from search.corpus import facts
    from search.instruments import instruments, provenance

    made = provenance(corpus, t.id)
    for row in outline.values():
        row["instrument"] = next((made[(lg, row["eid"])]["instrument"] for lg in row["cells"]
                                  if (lg, row["eid"]) in made), None)
    later = {e for i in instruments(corpus, t.id) if not i["base"] for e in i.get("eids", ())}
    return {"treaty": t, "outline": list(outline.values()), "others": others,
            "documents": docs, "removed": removed, "audit": _audit(corpus, t),
            "facts": facts(corpus, t.id), "instruments": instruments(corpus, t.id),
            "later": later}


def _pages_of_cells(rows, docs: list[dict]) -> None:
    """Each outline cell's page in its source file (`page`; None for a file without pages)."""
    from indexer.sources.formats import page_of

    pages = {d["file"]: json.loads(d["meta"] or "{}").get("pages") or [] for d in docs}
    for row in rows:
        for cell in row["cells"].values():
            cell["page"] = page_of(pages.get(cell["file"]), cell["start_line"])


def _audit(corpus: Corpus, t: Treaty) -> list[dict] | None:
    """The self-audit's findings per audited language version ({lang, findings}), in the
    treaty's order; None for a store made before the audit existed."""
    try:
        result = check(corpus, t.id)
    except StoreError:
        return None
    audited = {lang for (lang,) in corpus.db.execute(
        "SELECT lang FROM audited WHERE treaty = ?", (t.id,))}
    found = {lang: fs for (_t, lang), fs in per_version(result).items()}
    return [{"lang": lang, "findings": [{**f, "lines": lines_text(f["lines"])}
                                        for f in found.get(lang, [])]}
            for lang in t.languages if lang in audited]


#: Treaties listed on one page of the home page.
HOME_TREATIES = 100


def home_page(corpus: Corpus, page: int = 1, per_page: int = HOME_TREATIES) -> dict:
    """The treaties of page `page` (`per_page` a page; a page past the last is the last)
    with their article counts, and the topics that occur, from the summaries the ingest
    wrote (`store.SUMMARIES`)."""
    total = corpus.db.execute("SELECT COUNT(*) FROM treaties").fetchone()[0]
    pages = max(1, -(-total // per_page))
    page = min(max(1, page), pages)
    shown = corpus.treaties_page((page - 1) * per_page, per_page)
    marks = ",".join("?" * len(shown))
    query = (f"SELECT treaty, lang, SUM(articles) AS n FROM doc_articles"
             f" WHERE treaty IN ({marks}) GROUP BY treaty, lang"
             if corpus.summarised else
             f"SELECT treaty, lang, COUNT(*) AS n FROM units WHERE kind = 'article'"
             f" AND treaty IN ({marks}) GROUP BY treaty, lang")
    counts = {(r["treaty"], r["lang"]): r["n"]
              for r in corpus.db.execute(query, [t.id for t in shown])}
    treaties = [{"treaty": t, "articles": {lg: counts.get((t.id, lg), 0) for lg in t.languages}}
                for t in shown]
    topics = [x for x in topics_list(corpus) if x["treaties"]]
    return {"treaties": treaties, "topics": topics, "page": page, "pages": pages,
            "total": total}


# --- JSON forms ------------------------------------------------------------------------------


def _cell(node: dict | None) -> dict | None:
    if node is None:
        return None
    return {"id": node["id"], "eid": node["eid"], "num": node["num"], "text": node["text"],
            "raw": node["raw"],
            "points": [_cell(c) for c in node["children"]]}


def compare_json(corpus: Corpus, treaty_id: str, article: str,
                 langs: Sequence[str] = ()) -> dict:
    """`treaty compare TREATY ARTICLE --json`: one article's versions in aligned rows."""
    from search.compare import compare_article

    return compare_article(corpus, treaty_id, article.strip()[:40], list(langs) or None)


def topic_json(corpus: Corpus, topic: str, lang: str | None = None,
               table: TermTable | None = None, page: int = 1) -> dict:
    """`treaty compare --topic TOPIC --json`: the article on a topic of every treaty, plus
    the topic page's `columns` and `rows` (a row: per column the eId of its paragraph, or
    None) for page `page` of `pages`."""
    from search.compare import compare_topic

    lang = (lang or "").strip().lower() or None
    out = compare_topic(corpus, topic.strip()[:80], lang)
    shown = topic_page(corpus, topic, lang, table, page)
    out["columns"] = [{"treaty": c["treaty"].id, "lang": c["lang"], "eid": c["eid"],
                       "number": c["number"]} for c in shown.columns]
    out["rows"] = [[None if cell is None else cell["eid"] for cell in row["cells"]]
                   for row in shown.rows]
    out["page"], out["pages"] = shown.page, shown.pages
    return out
