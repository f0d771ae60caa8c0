"""`SearchSession`: an open index and store, and the search that ranks article groups.

The query is parsed and compiled as `Searcher.search` does it (`indexer.index.query_syntax`); every
matching paragraph is fetched once, without snippets, and grouped by (treaty, language,
article) — from the top hits only where the index records groups (`paging`). A plain-words
query with too few matching articles is completed by relaxed matching (`relaxed`); snippets
are made only for the groups returned.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Self

from indexer.index import Searcher, open_index
from indexer.index.chinese import has_han
from indexer.index.engines import EngineHit, EngineSearcher
from indexer.index.query_syntax import (
    QUERY_SECONDS,
    FNode,
    FNone,
    FOr,
    Node,
    Phrase,
    field_lang,
    parse,
)
from indexer.models import IndexDoc
from search.results import options, shorthand
from search.results.aligned import aligned_units
from search.results.deadline import Bounded
from search.results.glossary import glosses
from search.results.grouping import Group, citation, group, stored_doc
from search.results.named import named_parties
from search.results.paging import PAGE_FACTOR, PAGE_HITS, page_of_groups
from search.results.relaxed import relaxed_groups
from search.results.rendered import query_term, renderings
from search.results.snippets import SNIPPETS_PER_HIT, snippet
from search.results.suggestions import corrected, useful
from search.results.topic_hint import query_topic
from search.results.translate import translated, translated_word
from search.results.trees import compiled, plain_words, relaxed_tree
from search.results.versions import (
    by_article,
    first_articles,
    preferred_first,
    query_language,
    script_language,
    shown,
    topic_first,
)

#: A query whose words all match in at most this many articles is searched as corrected
#: ("did you mean") when the correction matches more.
FEW_MATCHES = 0


#: A plain-words query matching fewer articles is searched with its translations too.
TRANSLATE_BELOW = 10


@dataclass
class _Run:
    """One query searched: its trees, the groups of the page (best first), how many groups
    match, how many of them match every word, and its "did you mean" suggestions."""

    tree: Node | None
    ftree: FNode
    plain: bool
    groups: list[Group]
    total: int
    full: int
    suggestions: list = field(default_factory=list)
    named: str | None = None  # the topic the query's shorthand names ("PE": the PE article)

    @property
    def topic(self) -> str | None:
        """The topic the query's shorthand names, else the one its plain words name
        (`topic_hint`)."""
        return self.named or query_topic([w.text for w in plain_words(self.tree) or []])


class SearchSession:
    """An open index and store. Use as a context manager or call close()."""

    #: Paragraph hits fetched first to rank a page (at least `per_group` per group asked for).
    first_hits = PAGE_HITS
    per_group = PAGE_FACTOR

    def __init__(self, data_dir: Path, index_dir: Path | None = None) -> None:
        from indexer import store
        from indexer.datadir import live

        # the live generation, resolved once: its index and its store belong together
        self.data_dir = live(data_dir) if index_dir is None else Path(data_dir)
        self.index_dir = Path(index_dir) if index_dir else self.data_dir / "index"
        self.searcher: Searcher = open_index(self.index_dir)
        try:
            self._db: sqlite3.Connection | None = store.connect(self.data_dir)
        except BaseException:
            self.searcher.close()
            raise
        self._treaties: dict[str, dict] | None = None
        self._lock = threading.Lock()
        self._bounded: Bounded | None = None  # the engine of the search under way

    @contextmanager
    def _deadline(self) -> Iterator[None]:
        """The block is one search: its engine queries together take at most QUERY_SECONDS."""
        self._bounded = Bounded(self.searcher.backend, QUERY_SECONDS)
        try:
            yield
        finally:
            self._bounded = None

    @property
    def engine(self) -> str:
        return self.searcher.engine

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.searcher.close()
        if self._db is not None:
            self._db.close()
            self._db = None

    # -- the index and the store ----------------------------------------------------------

    @property
    def _backend(self) -> EngineSearcher:
        """The engine handle of the index: the Searcher's own (`Searcher.search` would make a
        snippet for every hit, and has no paging by group), bounded by the deadline of the
        search under way (`deadline.Bounded`)."""
        return self._bounded or self.searcher.backend

    def _surface_words(self) -> dict[str, dict[str, int]]:
        """Per language, each word of the index's texts as written -> its count."""
        return self.searcher.vocabulary()["surface"]

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise ValueError("the search session is closed")
        return self._db

    def treaties(self) -> dict[str, dict]:
        """Treaty id -> {"parties": [...], "languages": [...]} from the store."""
        if self._treaties is None:
            self._treaties = {
                r["id"]: {"parties": json.loads(r["parties"] or "[]"),
                          "languages": json.loads(r["languages"] or "[]")}
                for r in self.db.execute("SELECT id, parties, languages FROM treaties")
            }
        return self._treaties

    def filters(self, **given: str | int | None) -> list[tuple[str, str]]:
        """The engine filters of the options `given` (lang, treaty, party, topic, article,
        kind), checked against the corpus (QueryError: a bad value)."""
        return options.filters(self.searcher.languages, self.treaties, **given)

    # -- searching ------------------------------------------------------------------------

    def search(self, query: str, *, lang: str | None = None, treaty: str | None = None,
               party: str | None = None, topic: str | None = None,
               article: int | str | None = None, kind: str | None = None, limit: int = 10,
               aligned: bool = False, correct: bool = True) -> dict:
        """Search; the result follows the JSON contract of `search.results`. Bad option
        values and a blank query raise QueryError (one line); any other query text is
        searched, never an error.
        A query none of whose articles has every word is searched as corrected ("did you
        mean") when the correction has some, unless not `correct`: "showing" says so.
        Practitioners' shorthand ("PE", "tie-breaker", `shorthand`) is read as the words it
        stands for, its article first ("read_as", "searched"), unless not `correct`."""
        options.check_limit(limit)
        query = options.check_query(query)
        filters = self.filters(lang=lang, treaty=treaty, party=party, topic=topic,
                               article=article, kind=kind)
        lang_filter = next((v for f, v in filters if f == "lang"), None)
        langs = (field_lang(lang_filter),) if lang_filter else self.searcher.languages
        fetch = limit * max(1, len(self.searcher.languages))  # versions of `limit` articles
        # practitioners' shorthand ("PE": permanent establishment), unless taken as typed
        reading = shorthand.read(query, lang_filter) if correct else shorthand.Reading(query)
        with self._lock, self._deadline():
            run = first = self._run(reading.query, langs, filters, fetch, lang_filter, limit,
                                    reading.topic)
            fix = corrected(reading.query, first.suggestions)
            showing = None
            if correct and fix is not None and run.full <= FEW_MATCHES:
                other = self._run(fix, langs, filters, fetch, lang_filter, limit,
                                  reading.topic)
                if other.full > run.full:
                    run, showing = other, fix
            window = run.groups
            words = [w.text for w in plain_words(run.tree) or []]
            entries = preferred_first(by_article(window),
                                      None if lang_filter else script_language(words),
                                      run.topic)
            if run.named:  # the article the shorthand names leads, however matched
                entries = topic_first(entries, run.named)
            query_lang = query_language(words, self._surface_words())
            prefer = lang_filter or query_lang
            hits = self._entries(entries[:limit], prefer, run, langs)
            if aligned:
                for hit in hits:
                    hit["aligned"] = self.aligned(hit["treaty"], hit["lang"], hit["paragraphs"])
        total = run.total - (len(window) - len(entries))  # each article once, in the window
        alternatives = list(dict.fromkeys(a for s in first.suggestions for a in s.alternatives))
        return {"query": query, "query_lang": query_lang, "total": total,
                "read_as": [{"typed": typed, "as": words} for typed, words in reading.read],
                "searched": reading.query if reading.read else None,
                "suggestions": alternatives,
                "corrected": fix, "showing": showing, "engine": self.engine,
                "plain": run.plain, "hits": hits}

    def _run(self, query: str, langs: Sequence[str], filters: list[tuple[str, str]],
             limit: int, lang_filter: str | None, articles: int | None = None,
             topic: str | None = None) -> _Run:
        """`query` searched: ranked groups, counts and suggestions. Countries it names
        (`named`) narrow a search of its other words to their treaties, whose articles
        come first. `topic`: the one its shorthand names, which leads."""
        tree, plain = parse(query)
        groups, total, full, ftree = self._translated(tree, langs, filters, limit, articles,
                                                      topic)
        suggestions = useful(self.searcher.suggest(tree, langs), langs,
                             self._surface_words(), self._match_counter(lang_filter))
        named = None if any(f in ("party", "treaty") for f, _v in filters) \
            else named_parties(query)
        if named is not None:
            codes, rest = named
            rtree, _ = parse(rest)
            scoped = [*filters, *(("party", c) for c in codes)]
            rgroups, rtotal, rfull, rftree = self._translated(rtree, langs, scoped, limit,
                                                              articles, topic)
            if rgroups:
                seen = {g.key for g in rgroups}
                others = [g for g in groups if g.key not in seen]
                total += rtotal - (len(groups) - len(others))
                groups, full = rgroups + others, full + rfull
                tree, ftree = rtree, rftree
        return _Run(tree, ftree, plain, groups, total, full, suggestions, topic)

    def _translated(self, tree: Node | None, langs: Sequence[str],
                    filters: list[tuple[str, str]], limit: int, articles: int | None = None,
                    topic: str | None = None) -> tuple[list[Group], int, int, FNode]:
        """`_ranked` of the words as written; when they match fewer than TRANSLATE_BELOW
        articles (whatever the page size, so that pages agree), of the words with
        their translations (`translate`), the articles with every word as written first.
        Also the tree searched."""
        ftree = compiled(tree, langs)
        groups, total, full = self._ranked(tree, ftree, langs, filters, limit, None, articles,
                                           topic=topic)
        table = self.searcher.terms()
        term = query_term(tree)
        if total >= TRANSLATE_BELOW or not table or (term is None and not plain_words(tree)):
            return groups, total, full, ftree
        # the term as the treaties render it, in the languages it matches too little in
        rendered = renderings(self, term, self._scarce(ftree, langs, filters)) if term else {}
        table = {src: {tgt: m for tgt, m in by.items() if tgt not in rendered}
                 for src, by in table.items()} if rendered else table
        glossed = self._glossed(tree, langs) if plain_words(tree) else {}
        wide = translated(tree, langs, table, self._surface_words(), glossed)
        if rendered:
            wide = _or_renderings(wide, rendered)
        if wide == ftree:
            return groups, total, full, ftree
        more, mtotal, _mfull = self._ranked(tree, wide, langs, filters, limit, table, articles,
                                            glossed, topic)
        direct = {g.key for g in groups[:full]}
        for g in more:
            g.translated = g.key not in direct
        more.sort(key=lambda g: g.translated)  # (stable: each part keeps its order)
        # `full` stays the count of articles with every word as written: a correction of a
        # misspelt word is to be preferred to what only translations and cognates find
        return more, max(total, mtotal), full, wide

    def _scarce(self, ftree: FNode, langs: Sequence[str],
                filters: Sequence[tuple[str, str]]) -> list[str]:
        """The languages of `langs` in which `ftree` matches fewer than TRANSLATE_BELOW
        paragraphs (those a term's renderings are searched in)."""
        if isinstance(ftree, FNone):
            return list(langs)
        out = []
        for lang in langs:
            scoped = [*[f for f in filters if f[0] != "lang"], ("lang", lang)]
            if self.searcher.groups() is not None:
                _found, n = self._backend.matches(ftree, scoped, 1)
            else:
                _hits, n = self._search_all(ftree, scoped)
            if n < TRANSLATE_BELOW:
                out.append(lang)
        return out

    def _glossed(self, tree: Node | None, langs: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """The dictionary glosses (`glossary`) of the query's Chinese words that no document
        has."""
        count = self._match_counter(None)
        return {w.text: g for w in plain_words(tree) or [] if has_han(w.text)
                and count(compiled(w, langs)) == 0 and (g := glosses(w.text))}

    def _ranked(self, tree: Node | None, ftree: FNode, langs: Sequence[str],
                filters: Sequence[tuple[str, str]], limit: int, terms: dict | None = None,
                articles: int | None = None, glossed: dict | None = None,
                topic: str | None = None) -> tuple[list[Group], int, int]:
        """The groups of the page, best first (more when relaxed matching adds some), the
        number of matching groups and of those that match every word. With a term table
        (`terms`) relaxed matching translates the words too (and glosses those of
        `glossed`). With `articles`, the page
        holds the groups of the first that many articles only (`versions.first_articles`)."""
        table = self.searcher.groups()
        if table is None:  # an index that does not record groups: group every match
            groups = self._groups(ftree, filters)
            total = len(groups)
            groups = groups[:limit]
            keep = first_articles([(g.treaty, g.article_eid) for g in groups], articles)
            groups = [groups[i] for i in keep]
        elif isinstance(ftree, FNone):
            groups, total = [], 0
        else:
            groups, total = page_of_groups(self._backend, table, ftree, filters, limit,
                                           self.first_hits, self.per_group, articles)
        full = total
        words = plain_words(tree)
        if words and len(words) > 1 and total < limit:
            n_docs = max(int(self.searcher.meta.get("docs") or 1), 1)
            relaxed = relaxed_groups(
                self._search_all, n_docs, words, langs, filters, groups,
                None if terms is None else partial(translated_word, langs=langs, table=terms,
                                                   surface=self._surface_words(),
                                                   glossed=glossed),
                topic or query_topic([w.text for w in words]))
            groups += relaxed
            total += len(relaxed)
        return groups, total, full

    def _search_all(self, tree: FNode, filters: Sequence[tuple[str, str]]
                    ) -> tuple[list[EngineHit], int]:
        """Every document matching `tree`, unranked by limit and without snippets."""
        return self._backend.search(tree, filters, None)

    def _groups(self, ftree: FNode, filters: Sequence[tuple[str, str]]) -> list[Group]:
        if isinstance(ftree, FNone):
            return []
        found, _total = self._search_all(ftree, filters)
        return group((h.score, stored_doc(h.stored)) for h in found)

    def _match_counter(self, lang: str | None):
        """How many documents a tree matches (in `lang` when given)."""
        filters = [("lang", lang)] if lang else []

        def count(tree: FNode) -> int:
            if self.searcher.groups() is not None:
                _found, n = self._backend.matches(tree, filters, 1)
            else:
                _hits, n = self._search_all(tree, filters)
            return n

        return count

    def _entries(self, entries: list[list[Group]], prefer: str | None, run: _Run,
                 langs: Sequence[str]) -> list[dict]:
        """The hits of the article entries (`versions`): the version shown, with the
        languages that matched and each version's citation and paragraphs."""
        shown_groups = [shown(e, prefer) for e in entries]
        hits = self._hits(shown_groups, run.tree, run.ftree, langs)
        for hit, entry in zip(hits, entries, strict=True):
            hit["languages"] = [g.lang for g in entry]
            hit["versions"] = {g.lang: {"paragraphs": [d.eid for _s, d in g.docs],
                                        "score": round(g.score, 4)} for g in entry}
        return hits

    def _hits(self, groups: list[Group], tree: Node | None, ftree: FNode,
              langs: Sequence[str]) -> list[dict]:
        """The hits of the JSON contract, with snippets (of the relaxed tree for a relaxed
        group: it matches only some of the words)."""
        loose: FNode | None = None
        out = []
        for g in groups:
            if g.relaxed and loose is None:
                loose = relaxed_tree(plain_words(tree) or [], langs,
                                     partial(translated_word, langs=langs,
                                             table=self.searcher.terms(),
                                             surface=self._surface_words()))
            out.append(_hit(g, loose if g.relaxed else ftree))  # type: ignore[arg-type]
        return out

    def documents(self, query: str, lang: str, treaty: str | None = None,
                  limit: int | None = None) -> list[IndexDoc]:
        """The index documents (paragraphs) of `lang` (and `treaty`) that `query` matches as
        typed, best first (`limit`: the top ones only): for callers that read the matching
        paragraphs themselves, as the term concordance does."""
        filters = self.filters(lang=lang, treaty=treaty)
        ftree = compiled(parse(query)[0], (field_lang(lang),))
        if isinstance(ftree, FNone):
            return []
        hits, _total = self._backend.search(ftree, filters, limit)
        return [stored_doc(h.stored) for h in hits]

    # -- aligned paragraphs ---------------------------------------------------------------

    def aligned(self, treaty: str, lang: str, eids: Sequence[str]) -> dict[str, list[dict]]:
        """The units aligned with `eids` (of `treaty` in `lang`) in the treaty's other
        languages (see `aligned.aligned_units`)."""
        languages = self.treaties().get(treaty, {}).get("languages", [])
        return aligned_units(self.db, treaty, languages, lang, eids)


def _or_renderings(wide: FNode, rendered: dict[str, list[str]]) -> FNode:
    """`wide` ORed with each language's renderings, as phrases of that language's fields."""
    extra = [compiled(Phrase(text), (field_lang(lang),)) for lang, texts in rendered.items()
             for text in texts]
    kids = [k for k in ([] if isinstance(wide, FNone) else [wide]) + extra
            if not isinstance(k, FNone)]
    if not kids:
        return FNone()
    return kids[0] if len(kids) == 1 else FOr(tuple(kids))


def _hit(g: Group, ftree: FNode) -> dict:
    best = g.docs[0][1]
    snippets = [snippet(doc, ftree) for _score, doc in g.docs[:SNIPPETS_PER_HIT]]
    return {
        "treaty": g.treaty, "lang": g.lang, "kind": best.kind, "number": best.number,
        "eid": g.article_eid, "title": best.title or None, "topic": best.topic or None,
        "citation": citation(g.treaty, best.kind, best.number, g.article_eid, best.eid),
        "score": round(g.score, 4), "snippets": snippets,
        "paragraphs": [d.eid for _s, d in g.docs], "relaxed": g.relaxed,
        "translated": g.translated,
    }


def search(data_dir: Path, query: str, *, lang: str | None = None, treaty: str | None = None,
           party: str | None = None, topic: str | None = None, article: int | str | None = None,
           kind: str | None = None, limit: int = 10, aligned: bool = False,
           correct: bool = True) -> dict:
    """Search the corpus in `data_dir` (its live generation's store and index) in a session
    of its own; see `search.results` for the result. Bad option values raise QueryError."""
    with SearchSession(Path(data_dir).resolve()) as s:
        return s.search(query, lang=lang, treaty=treaty, party=party, topic=topic,
                        article=article, kind=kind, limit=limit, aligned=aligned,
                        correct=correct)
