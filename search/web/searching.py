"""Search for the web app: the hits of `search.results` (as `treaty search --json`), with
facet counts and pages.

Facets: every document matching the query is fetched once from the index engine (cheap: no
snippets) and the other filters are applied here, so each facet value shows how many articles
choosing it would give.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from indexer.errors import QueryError
from indexer.index import Searcher
from indexer.index.engines import EngineSearcher, open_engine
from indexer.index.query_syntax import compile_query, field_lang, parse
from indexer.models import IndexDoc
from search.results import MAX_LIMIT, SearchSession
from search.web.pages import topic_name, unit_label

FACETS = ("treaty", "party", "lang", "topic", "kind")
FILTERS = (*FACETS, "article")
PAGE_SIZE = 10
MAX_QUERY = 1000
MAX_PAGE = 1000


class WebIndex:
    """An open index: the search session (ranked hits; its Searcher has the vocabulary and
    languages) and an engine handle of its own for the facets' raw hits."""

    def __init__(self, data_dir: Path, index_dir: Path) -> None:
        self.session = SearchSession(data_dir, index_dir)
        self.searcher: Searcher = self.session.searcher
        self.engine: EngineSearcher = open_engine(self.searcher.engine,
                                                  self.searcher.path / "engine")

    def close(self) -> None:
        self.engine.close()
        self.session.close()


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
    as_typed: bool = False

    def filters(self) -> dict[str, str]:
        return {k: getattr(self, k) for k in FILTERS if getattr(self, k)}


def clean_input(value: str) -> str:
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


def page_number(value: str) -> int:
    """A page number from a query string ("" is page 1; QueryError when out of range)."""
    return _int(value or "1", "page", 1, MAX_PAGE)


def params_from(args: Mapping[str, str], languages: tuple[str, ...]) -> Params:
    """Validated search parameters from a request's query string (QueryError: bad input)."""
    q = clean_input(args.get("q", ""))
    if len(q) > MAX_QUERY:
        raise QueryError(f"the query is too long ({len(q)} characters; at most {MAX_QUERY})")
    values = {k: clean_input(args.get(k, ""))[:60] for k in FILTERS}
    from search.names import known_language, party_code

    lang = values["lang"]
    values["lang"] = known_language(lang, languages, "the index") if lang else ""
    if values["party"]:  # a party's name as typed ("Brasil") is its code; a bad one, the 400
        values["party"] = party_code(values["party"]) or values["party"]
    if values["article"]:
        values["article"] = str(_int(values["article"], "article", 1, 999))
    page = _int(args.get("page", "") or "1", "page", 1, MAX_PAGE)
    size = _int(args.get("size", "") or str(PAGE_SIZE), "size", 1, 100)
    as_typed = args.get("as_typed", "") not in ("", "0")
    return Params(q=q, page=page, size=size, as_typed=as_typed, **values)


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


def _empty(params: Params) -> dict:
    return {"query": params.q, "query_lang": None, "total": 0, "suggestions": [], "corrected": None,
            "read_as": [], "searched": None,
            "showing": None, "hits": [], "page": 1, "pages": 0, "past_end": False, "size": params.size, "filters": params.filters(),
            "facets": {name: [] for name in FACETS}, "plain": False}


def _page_result(index: WebIndex, params: Params, page: int) -> dict:
    """`SearchSession.search` for every hit up to the end of `page`."""
    return index.session.search(
        params.q, lang=params.lang or None, treaty=params.treaty or None,
        party=params.party or None, topic=params.topic or None,
        article=params.article or None, kind=params.kind or None,
        limit=min(page * params.size, MAX_LIMIT), correct=not params.as_typed)


def search(index: WebIndex, params: Params) -> dict:
    """The search page's data: `treaty search --json` (search.results: the same ranking,
    relaxed matching, corrections and suggestions as the CLI) for the hits of the page asked
    for, plus facet counts and paging. A page past the last shows the last ("past_end").
    Bad filter values raise QueryError."""
    tree, _plain = parse(params.q)
    if tree is None:
        return _empty(params)
    filters = params.filters()
    result = _page_result(index, params, params.page)
    pages = (result["total"] + params.size - 1) // params.size
    page = params.page
    if pages and page > pages:
        page = pages
        if len(result["hits"]) <= (page - 1) * params.size:
            result = _page_result(index, params, page)
    hits = result["hits"][(page - 1) * params.size:]
    for hit in hits:
        hit["label"] = unit_label(hit["kind"], hit["number"], hit["eid"])
        hit["snippet_eids"] = hit["paragraphs"][: len(hit["snippets"])]
    # facets: every document matching the query, the filters applied here
    if result.get("showing"):  # the facets of the query searched
        tree, _plain = parse(result["showing"])
    s = index.searcher
    langs = (field_lang(params.lang),) if params.lang else s.languages
    found, _total = index.engine.search(compile_query(tree, langs), [], None)
    docs = [_doc(h.stored) for h in found]
    lang_docs = None
    if params.lang:  # the language facet counts every language
        every, _n = index.engine.search(compile_query(tree, s.languages), [], None)
        lang_docs = [_doc(h.stored) for h in every]
    return {
        **result, "hits": hits, "page": page, "pages": pages, "size": params.size,
        "past_end": page != params.page,
        "filters": filters, "facets": _facets(docs, params, lang_docs),
    }
