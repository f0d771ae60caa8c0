"""Searching an index: the live generation opened with the engine that built it, queries
parsed and compiled to the engine-neutral field tree (`indexer.index.query_syntax`), hits
with snippets and "did you mean" made from our own analysis, the same for every engine."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

from indexer.errors import StoreError
from indexer.index.engines import EngineHit, EngineSearcher, check_engine, open_engine
from indexer.index.generations import GROUPS_FILE, META, VOCAB, GroupTable, live_generation
from indexer.index.query_syntax import (
    FNode,
    FNone,
    Node,
    compile_query,
    field_lang,
    leaves,
    parse,
    term_matcher,
)
from indexer.index.snippets import make_snippet
from indexer.index.suggestions import Suggestion, corrected, load_vocabulary, suggest
from indexer.models import IndexDoc
from indexer.policy import LANGUAGES

__all__ = ["ArticleGroup", "Hit", "IndexMissingError", "SearchResult", "Searcher", "open_index"]


class IndexMissingError(StoreError):
    """There is no (complete) search index where one was expected."""


@dataclass(frozen=True)
class Hit:
    id: str
    eid: str
    article_eid: str
    treaty: str
    lang: str
    kind: str
    number: int | None
    score: float
    snippet: str  # HTML: the text escaped, matched terms in <b>…</b>
    doc: IndexDoc = field(compare=False, repr=False)


@dataclass(frozen=True)
class ArticleGroup:
    treaty: str
    lang: str
    article_eid: str
    number: int | None
    title: str
    hits: tuple[Hit, ...]


@dataclass(frozen=True)
class SearchResult:
    query: str
    engine: str
    hits: tuple[Hit, ...]
    total: int  # documents matching (hits holds at most `limit` of them)
    suggestions: tuple[Suggestion, ...] = ()
    corrected: str | None = None  # the query with each suggestion's best alternative
    plain: bool = False  # the query was not valid syntax and was searched as plain words

    @property
    def ids(self) -> set[str]:
        return {h.id for h in self.hits}

    @property
    def groups(self) -> tuple[ArticleGroup, ...]:
        """Hits grouped by article, groups in the order of their best hit."""
        order: dict[tuple[str, str, str], list[Hit]] = {}
        for h in self.hits:
            order.setdefault((h.treaty, h.lang, h.article_eid), []).append(h)
        return tuple(
            ArticleGroup(t, lang, a, hs[0].number, hs[0].doc.title, tuple(hs))
            for (t, lang, a), hs in order.items()
        )


def open_index(index_dir: Path, seconds: float | None = None) -> Searcher:
    """Open the live index in `index_dir` (or a generation directory itself); `seconds`: the
    deadline of one query (see `indexer.index.engines.open_engine`)."""
    index_dir = Path(index_dir)
    gen = live_generation(index_dir)
    if gen is None and (index_dir / META).exists():
        gen = index_dir
    if gen is None or not (gen / META).exists():
        raise IndexMissingError(f"no search index in {index_dir}: run `treaty ingest` first "
                                "(or pass --data DIR)")
    meta = json.loads((gen / META).read_text("utf-8"))
    engine = check_engine(meta["engine"])
    return Searcher(gen, engine, open_engine(engine, gen / "engine", seconds), meta)


#: The filters of `Searcher.search`: each value as its keyword field holds it.
_FILTER_FIELDS = {
    "lang": str.lower,
    "treaty": str.lower,
    "party": str.upper,
    "topic": str.lower,
    "article": str,
    "kind": str.lower,
}


class Searcher:
    """Searches one generation of an index. Use as a context manager or call close()."""

    def __init__(self, path: Path, engine: str, backend: EngineSearcher, meta: dict) -> None:
        self.path = path
        self.engine = engine
        self.meta = meta
        self.languages: tuple[str, ...] = tuple(meta.get("languages", ())) or (*LANGUAGES,)
        self._backend = backend
        self._vocab: dict | None = None
        self._groups: GroupTable | None = None
        self._terms: dict | None = None

    @property
    def backend(self) -> EngineSearcher:
        """The engine's own searcher (compiled field trees in, engine hits out)."""
        return self._backend

    def groups(self) -> GroupTable | None:
        """The article groups of the index (None: built before it recorded them)."""
        if self._groups is None and self.meta.get("groups") is not None and (
                self._backend.grouped):
            self._groups = GroupTable.load(self.path / GROUPS_FILE)
        return self._groups

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._backend.close()

    def search(
        self,
        query: str,
        *,
        lang: str | None = None,
        treaty: str | None = None,
        party: str | None = None,
        topic: str | None = None,
        article: int | str | None = None,
        kind: str | None = None,
        limit: int | None = 10,
    ) -> SearchResult:
        """Search; `lang` also picks the analyser (else the query is analysed in every
        language of the corpus and the alternatives ORed). `limit=None` returns every hit."""
        tree, plain = parse(query)
        langs = (field_lang(lang.lower()),) if lang else self.languages
        ftree = compile_query(tree, langs)
        if next(iter(leaves(ftree)), None) is None:
            ftree = FNone()  # nothing searchable (empty, punctuation): no hits, not all
        values = {"lang": lang, "treaty": treaty, "party": party, "topic": topic,
                  "article": article, "kind": kind}  # fmt: skip
        ask = None if limit is None else max(limit, 1)
        found, total = self._backend.search(ftree, _filters(values), ask)
        if limit is not None:
            found = found[:limit]
        suggestions = self.suggest(tree, langs)
        return SearchResult(
            query, self.engine, _hits(found, ftree), total, suggestions,
            corrected(query, suggestions), plain,
        )  # fmt: skip

    # -- did you mean --

    def vocabulary(self) -> dict:
        """The build's vocabulary (surface words and their counts), read on first use."""
        if self._vocab is None:
            self._vocab = load_vocabulary(self.path / VOCAB)
        return self._vocab

    def terms(self) -> dict:
        """The build's bilingual term table (`indexer.index.terms`), read on first use."""
        if self._terms is None:
            from indexer.index.terms import load_terms

            self._terms = load_terms(self.path)
        return self._terms

    def suggest(self, tree: Node | None, langs: Iterable[str]) -> tuple[Suggestion, ...]:
        """For each plain query word that is absent or rare as written, the index words
        nearest by edit distance whose terms are more frequent (Latin-script languages)."""
        return suggest(tree, langs, self.vocabulary())


def _filters(values: dict[str, object]) -> list[tuple[str, str]]:
    """(keyword field, value) of each filter of `Searcher.search` given (not None or blank)."""
    return [
        ("number" if name == "article" else name, _FILTER_FIELDS[name](str(v).strip()))
        for name, v in values.items()
        if v is not None and str(v).strip()
    ]


def _hits(found: list[EngineHit], ftree: FNode) -> tuple[Hit, ...]:
    """The hits of the engine's `found` documents, each with its snippet of the terms of
    `ftree` it matches."""
    hits = []
    matchers: dict[str, Callable[[str], bool]] = {}  # one per text field, for every hit
    for eh in found:
        doc = _doc(eh.stored)
        name = f"text_{field_lang(doc.lang)}"
        if name not in matchers:
            matchers[name] = term_matcher(ftree, name)
        snippet = make_snippet(doc, matchers[name])
        hits.append(Hit(doc.id, doc.eid, doc.article_eid, doc.treaty, doc.lang, doc.kind,
                        doc.number, eh.score, snippet, doc))
    return tuple(hits)


def _doc(stored: str) -> IndexDoc:
    data = json.loads(stored)
    data["parties"] = tuple(data.get("parties") or ())
    return IndexDoc(**data)
