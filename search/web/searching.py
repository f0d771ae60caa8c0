"""Search for the web app: hits grouped by article, facets with counts, pages, snippets.

A thin adapter over `indexer.index`: the query is parsed and compiled exactly as
`Searcher.search` does, every matching document is fetched once (cheap: no snippets), the
filters and facet counts are applied to those documents here, and snippets are made only for
the hits on the page shown. "Did you mean" comes from the index's own vocabulary.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from indexer.engines import EngineSearcher, open_engine
from indexer.errors import QueryError
from indexer.index import Searcher, make_snippet, open_index
from indexer.models import IndexDoc
from indexer.query import compile_query, field_lang, parse, term_matcher
from search.web.pages import citation_of, topic_name, unit_label

FACETS = ("treaty", "party", "lang", "topic", "kind")
FILTERS = (*FACETS, "article")
PAGE_SIZE = 10
MAX_QUERY = 500
MAX_PAGE = 1000
SNIPPETS_PER_GROUP = 3


class WebIndex:
    """An open index: the Searcher (vocabulary, languages) and its engine (raw hits)."""

    def __init__(self, index_dir: Path) -> None:
        self.searcher: Searcher = open_index(index_dir)
        self.engine: EngineSearcher = open_engine(self.searcher.engine,
                                                  self.searcher.path / "engine")

    def close(self) -> None:
        self.engine.close()
        self.searcher.close()


@dataclass(frozen=True)
class Params:
    q: str = ""
    treaty: str = ""
    party: str = ""
    lang: str = ""
    topic: str = ""
    kind: str = ""
    article: str = ""
    page: int = 1
    size: int = PAGE_SIZE

    def filters(self) -> dict[str, str]:
        return {k: getattr(self, k) for k in FILTERS if getattr(self, k)}


def _clean(value: str) -> str:
    """User input without control characters, whitespace collapsed."""
    value = "".join(ch for ch in value if ch.isprintable() or ch in " \t\n")
    return " ".join(value.split())


def _int(value: str, what: str, lo: int, hi: int) -> int:
    try:
        n = int(value.strip())
    except ValueError:
        raise QueryError(f"{what} must be a whole number, not '{value[:20]}'") from None
    if not lo <= n <= hi:
        raise QueryError(f"{what} must be between {lo} and {hi}, not {n}")
    return n


def params_from(args: Mapping[str, str], languages: tuple[str, ...]) -> Params:
    """Validated search parameters from a request's query string (QueryError: bad input)."""
    q = _clean(args.get("q", ""))
    if len(q) > MAX_QUERY:
        raise QueryError(f"the query is too long ({len(q)} characters; at most {MAX_QUERY})")
    values = {k: _clean(args.get(k, ""))[:60] for k in FILTERS}
    lang = values["lang"].lower()
    if lang and lang not in languages:
        raise QueryError(f"no '{lang}' version in the index (it has: {', '.join(languages)})")
    values["lang"] = lang
    if values["article"]:
        values["article"] = str(_int(values["article"], "article", 1, 999))
    page = _int(args.get("page", "") or "1", "page", 1, MAX_PAGE)
    size = _int(args.get("size", "") or str(PAGE_SIZE), "size", 1, 100)
    return Params(q=q, page=page, size=size, **values)


def _doc(stored: str) -> IndexDoc:
    data = json.loads(stored)
    data["parties"] = tuple(data.get("parties") or ())
    return IndexDoc(**data)


def _value(doc: IndexDoc, name: str) -> tuple[str, ...]:
    if name == "party":
        return tuple(p.upper() for p in doc.parties)
    if name == "article":
        return (str(doc.number),) if doc.number is not None else ()
    value = getattr(doc, name) or ""
    return (value.lower(),) if value else ()


def _keeps(doc: IndexDoc, filters: Mapping[str, str]) -> bool:
    for name, want in filters.items():
        want = want.upper() if name == "party" else want.lower()
        if want not in _value(doc, name):
            return False
    return True


def _group_key(doc: IndexDoc) -> tuple[str, str, str]:
    return (doc.treaty, doc.lang, doc.article_eid)


def _facets(docs: list[IndexDoc], params: Params, lang_docs: list[IndexDoc] | None) -> dict:
    filters = params.filters()
    out: dict[str, list[dict]] = {}
    for name in FACETS:
        others = {k: v for k, v in filters.items() if k != name}
        source = lang_docs if name == "lang" and lang_docs is not None else docs
        groups: dict[str, set[tuple[str, str, str]]] = {}
        for d in source:
            if _keeps(d, others):
                for v in _value(d, name):
                    groups.setdefault(v, set()).add(_group_key(d))
        selected = filters.get(name, "")
        selected = selected.upper() if name == "party" else selected.lower()
        values = sorted(groups, key=lambda v: (-len(groups[v]), v))
        if selected and selected not in groups:
            values.append(selected)
        out[name] = [{"value": v, "count": len(groups.get(v, ())), "selected": v == selected,
                      "label": topic_name(v) if name == "topic" else v} for v in values]
    return out


def _suggestions(query: str, suggestions: tuple) -> list[str]:
    """Whole corrected queries, best first: every word corrected, then one at a time."""
    out: list[str] = []

    def sub(text: str, term: str, alt: str) -> str:
        return re.sub(rf"(?<!\w){re.escape(term)}(?!\w)", lambda _m: alt, text)

    if suggestions:
        full = query
        for s in suggestions:
            full = sub(full, s.term, s.alternatives[0])
        out.append(full)
        for s in suggestions:
            for alt in s.alternatives:
                out.append(sub(query, s.term, alt))
    return [q for q in dict.fromkeys(out) if q != query][:3]


def _empty(params: Params) -> dict:
    return {"query": params.q, "total": 0, "paragraphs": 0, "suggestions": [], "hits": [],
            "page": 1, "pages": 0, "size": params.size, "filters": params.filters(),
            "facets": {name: [] for name in FACETS}, "plain": False}


def search(index: WebIndex, params: Params) -> dict:
    """The search page's data; its JSON form is the /api/search contract (query, total,
    suggestions, hits with treaty, lang, kind, number, eid, citation, score, snippets,
    paragraphs) plus facets and paging."""
    tree, plain = parse(params.q)
    if tree is None:
        return _empty(params)
    s = index.searcher
    langs = (field_lang(params.lang),) if params.lang else s.languages
    ftree = compile_query(tree, langs)
    found, _total = index.engine.search(ftree, [], None)
    docs = [_doc(h.stored) for h in found]
    scores = {d.id: h.score for d, h in zip(docs, found)}
    lang_docs = None
    if params.lang:  # the language facet counts every language
        every, _n = index.engine.search(compile_query(tree, s.languages), [], None)
        lang_docs = [_doc(h.stored) for h in every]
    filters = params.filters()
    kept = [d for d in docs if _keeps(d, filters)]
    groups: dict[tuple[str, str, str], list[IndexDoc]] = {}
    for d in kept:
        groups.setdefault(_group_key(d), []).append(d)
    keys = list(groups)
    pages = (len(keys) + params.size - 1) // params.size
    page = min(params.page, max(pages, 1))
    hits = []
    for key in keys[(page - 1) * params.size: page * params.size]:
        members = groups[key]
        top = members[0]
        snippets = []
        for d in members[:SNIPPETS_PER_GROUP]:
            match = term_matcher(ftree, f"text_{field_lang(d.lang)}")
            snippets.append(make_snippet(d, match))
        hits.append({
            "treaty": top.treaty, "lang": top.lang, "kind": top.kind, "number": top.number,
            "eid": top.article_eid,
            "citation": citation_of(top.treaty, top.kind, top.number, top.article_eid),
            "score": round(scores[top.id], 3), "snippets": snippets,
            "paragraphs": [d.eid for d in members if d.eid != d.article_eid],
            "snippet_eids": [d.eid for d in members[:SNIPPETS_PER_GROUP]],
            "title": top.title, "topic": top.topic,
            "label": unit_label(top.kind, top.number, top.article_eid),
        })
    counts = Counter(_group_key(d) for d in kept)
    return {
        "query": params.q, "total": len(keys), "paragraphs": sum(counts.values()),
        "suggestions": _suggestions(params.q, s.suggest(tree, langs)), "hits": hits,
        "page": page, "pages": pages, "size": params.size, "filters": filters,
        "facets": _facets(docs, params, lang_docs), "plain": plain,
    }
