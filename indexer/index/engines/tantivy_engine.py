"""tantivy engine: our pre-analysed tokens go in as text tantivy only splits, or as
`tantivy.PreTokenizedString`s.

A text field whose terms are at positions 0, 1, 2, ... and hold no whitespace (every
Latin-script field, as a rule, and Chinese without search-mode sub-words) goes in as its terms
joined by spaces, which the field's whitespace tokenizer splits back into the same terms at the
same positions — in Rust, without a Python object per token. Other fields (Chinese sub-words
share their word's position) go in pre-tokenized with our positions. Either way tantivy never
analyses text itself and indexes the same postings (offsets are not indexed). Scoring is
tantivy's BM25; title and topic boosts come with the query.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from itertools import repeat
from pathlib import Path

import tantivy

from indexer.index.engines import EngineHit, FieldTerms, Match, Row, treaty_keyword
from indexer.index.query_syntax import (
    KEYWORD_FIELDS,
    FAll,
    FAnd,
    FFuzzy,
    FNode,
    FNone,
    FNot,
    FOr,
    FPhrase,
    FPrefix,
    FTerm,
    text_fields,
)

#: Text fields named so hold a topic's display names (see `indexer.index.rows`): few distinct
#: values.
TOPIC_PREFIX = "topic_"
#: The fast field of each document's group number (`Row.group`).
GROUP = "group"
#: Most groups one terms aggregation may count (tantivy's bucket limit is 65000); more are
#: counted in ranges of group numbers.
_BUCKETS = 60_000


def _schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_bytes_field("doc", stored=True)
    sb.add_unsigned_field(GROUP, indexed=True, fast=True)
    for name in KEYWORD_FIELDS:
        sb.add_text_field(name, tokenizer_name="raw", index_option="basic")
    for name in text_fields():
        sb.add_text_field(name, tokenizer_name="whitespace", index_option="position")
    return sb.build()


def build(path: Path, rows: Iterable[Row]) -> int:
    ix = tantivy.Index(_schema(), path=str(path), reuse=False)
    with _writing(ix) as writer, _gc_paused():
        return _add_rows(writer, rows)


def update(path: Path, rows: Iterable[Row], treaties: Iterable[str]) -> int:
    """Take the documents of `treaties` out of the index in `path` (a copy of another's
    files: tantivy never writes into a segment file, it adds new ones and a new meta) and
    add `rows` after the others; the number of documents then."""
    ix = tantivy.Index.open(str(path))
    with _writing(ix) as writer:
        for treaty in treaties:  # (the treaty field holds the id as the rows' keyword)
            writer.delete_documents_by_term("treaty", treaty_keyword(treaty))
        with _gc_paused():
            _add_rows(writer, rows)
    ix.reload()
    return ix.searcher().num_docs


@contextmanager
def _writing(ix: tantivy.Index) -> Iterator[tantivy.IndexWriter]:
    """A writer of `ix`, committed when the block ends, rolled back when it raises. One
    indexing thread: documents keep the order they are added in, so hits of equal score come
    in store order, the same in every build (the analysis is what runs in parallel)."""
    writer = ix.writer(heap_size=256_000_000, num_threads=1)
    try:
        yield writer
    except BaseException:
        # Stop the writer's threads before the caller deletes the directory under them.
        writer.rollback()
        writer.wait_merging_threads()
        raise
    writer.commit()
    writer.wait_merging_threads()


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block (as it was after). Rows stream millions
    of acyclic containers through this process, freed by reference counting, and this engine
    makes next to no cycles: collections would scan them for nothing. (Not for Whoosh, whose
    writer leaves much cyclic garbage.)"""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _add_rows(writer: tantivy.IndexWriter, rows: Iterable[Row]) -> int:
    """Add `rows`; the fields of an article go into one template document, copied for each
    of its rows (tantivy indexes a document's values field by field, whatever their order)."""
    n = 0
    article = template = None
    for row in rows:
        if row.article is not article:
            article = row.article
            template = tantivy.Document()
            _add_fields(template, article.keywords, article.texts)
        doc = template.__copy__()
        doc.add_bytes("doc", row.data)
        if row.group >= 0:
            doc.add_unsigned(GROUP, row.group)
        _add_fields(doc, row.own_keywords, row.own_texts)
        writer.add_document(doc)
        n += 1
    return n


def _add_fields(doc: tantivy.Document, keywords: dict[str, tuple[str, ...]],
                texts: dict[str, FieldTerms]) -> None:
    for name, values in keywords.items():
        for value in values:
            doc.add_text(name, value)
    for name, tokens in texts.items():
        if not tokens.terms:
            continue
        if isinstance(tokens.terms, str) and tokens.positions is None:
            doc.add_text(name, tokens.terms)  # joined by spaces, no space in a term
        else:
            doc.add_pre_tokenized_text(name, _shared_pre_tokenized(
                tokens.terms if isinstance(tokens.terms, str) else tuple(tokens.terms),
                None if tokens.positions is None else tuple(tokens.positions),
            ) if name.startswith(TOPIC_PREFIX) else _pre_tokenized(tokens))


def _pre_tokenized(tokens: FieldTerms) -> tantivy.PreTokenizedString:
    """Our tokens as tantivy's, at our positions. Neither the text nor the offsets are indexed
    (nor stored): the text is empty and every offset 0."""
    terms = tokens.term_list()
    positions = range(len(terms)) if tokens.positions is None else tokens.positions
    if len(positions) != len(terms):
        raise ValueError("a position for every term")
    zeros = repeat(0)
    return tantivy.PreTokenizedString("", list(map(tantivy.Token, terms, positions, zeros, zeros)))


@lru_cache(maxsize=1024)
def _shared_pre_tokenized(terms: str | tuple[str, ...],
                          positions: tuple[int, ...] | None) -> tantivy.PreTokenizedString:
    """`_pre_tokenized` of a topic field: the display names of a topic, one of a small fixed
    set that many documents share (so cached)."""
    return _pre_tokenized(FieldTerms(terms, positions))


def _regex_escape(s: str) -> str:
    # tantivy's regex syntax: escape every ASCII punctuation character.
    return re.sub(r"([\\.+*?()|\[\]{}^$#&\-~\"'<>@%=!,:;/`])", r"\\\1", s)


def translate(node: FNode, schema: tantivy.Schema) -> tantivy.Query:
    """The tantivy query for a field tree."""
    Q, O = tantivy.Query, tantivy.Occur
    if isinstance(node, (FTerm, FPhrase, FFuzzy, FPrefix)):
        if isinstance(node, FTerm):
            q = Q.term_query(schema, node.field, node.term)
        elif isinstance(node, FPhrase):
            q = Q.phrase_query(schema, node.field, list(node.terms), slop=0)
        elif isinstance(node, FFuzzy):
            q = Q.fuzzy_term_query(
                schema,
                node.field,
                node.term,
                distance=node.distance,
                transposition_cost_one=False,
                prefix=False,
            )
        else:
            q = Q.regex_query(schema, node.field, _regex_escape(node.prefix) + ".*")
        return Q.boost_query(q, node.boost) if node.boost != 1.0 else q
    if isinstance(node, FAnd):
        subs = [
            (O.MustNot, translate(c.child, schema))
            if isinstance(c, FNot)
            else (O.Must, translate(c, schema))
            for c in node.children
        ]
        if all(isinstance(c, FNot) for c in node.children):
            subs.insert(0, (O.Must, Q.all_query()))
        return Q.boolean_query(subs)
    if isinstance(node, FOr):
        return Q.boolean_query([(O.Should, translate(c, schema)) for c in node.children])
    if isinstance(node, FNot):
        return Q.boolean_query(
            [(O.Must, Q.all_query()), (O.MustNot, translate(node.child, schema))]
        )
    if isinstance(node, FAll):
        return Q.all_query()
    assert isinstance(node, FNone)
    return Q.empty_query()


class TantivySearcher:
    def __init__(self, path: Path) -> None:
        self._ix = tantivy.Index.open(str(path))
        self._schema = self._ix.schema
        self._searcher = self._ix.searcher()
        try:
            self._searcher.fast_field_values(GROUP, [])
            self.grouped = True
        except ValueError:  # built before documents had groups
            self.grouped = False

    def _query(self, tree: FNode, filters: Sequence[tuple[str, str]],
               extra: Sequence[tantivy.Query] = ()) -> tantivy.Query:
        Q, O = tantivy.Query, tantivy.Occur
        q = translate(tree, self._schema)
        if filters or extra:
            subs = [(O.Must, q)] + [
                (O.Must, Q.const_score_query(Q.term_query(self._schema, f, v), 0.0))
                for f, v in filters
            ] + [(O.Must, Q.const_score_query(x, 0.0)) for x in extra]
            q = Q.boolean_query(subs)
        return q

    def matches(
        self, tree: FNode, filters: Sequence[tuple[str, str]], limit: int | None
    ) -> tuple[list[Match], int]:
        n = self._searcher.num_docs
        if n == 0:
            return [], 0
        top = n if limit is None else max(1, min(limit, n))
        res = self._searcher.search(self._query(tree, filters), top, count=True)
        return self._matches(res.hits), int(res.count or 0)

    def _matches(self, hits: list) -> list[Match]:
        addrs = [a for _s, a in hits]
        groups = self._searcher.fast_field_values(GROUP, addrs)
        return [(float(s), -1 if g is None else int(g), a)
                for (s, a), g in zip(hits, groups, strict=True)]

    def group_count(self, tree: FNode, filters: Sequence[tuple[str, str]]) -> int:
        q = self._query(tree, filters)
        total, lo = 0, 0
        top = self._max_group()
        while lo <= top:
            rng = tantivy.Query.range_query(self._schema, GROUP, tantivy.FieldType.Unsigned,
                                            lo, lo + _BUCKETS - 1)
            sub = tantivy.Query.boolean_query([(tantivy.Occur.Must, q),
                                               (tantivy.Occur.Must, rng)])
            agg = self._searcher.aggregate(
                sub if top >= _BUCKETS else q,
                {"g": {"terms": {"field": GROUP, "size": _BUCKETS}}})
            total += len(agg["g"]["buckets"])
            lo += _BUCKETS
        return total

    def _max_group(self) -> int:
        if not hasattr(self, "_top"):
            agg = self._searcher.aggregate(tantivy.Query.all_query(),
                                           {"m": {"max": {"field": GROUP}}})
            self._top = int(agg["m"]["value"] or 0)
        return self._top

    def in_groups(
        self, tree: FNode, filters: Sequence[tuple[str, str]], groups: Sequence[int], limit: int
    ) -> list[Match]:
        if not groups:
            return []
        which = tantivy.Query.term_set_query(self._schema, GROUP, list(groups))
        res = self._searcher.search(self._query(tree, filters, (which,)), max(1, limit),
                                    count=False)
        return self._matches(res.hits)

    def ref_key(self, ref: object) -> Hashable:
        return (ref.segment_ord, ref.doc)  # type: ignore[attr-defined]

    def stored(self, ref: object) -> str:
        return bytes(self._searcher.doc(ref).get_first("doc")).decode("utf-8")

    def search(
        self, tree: FNode, filters: Sequence[tuple[str, str]], limit: int | None
    ) -> tuple[list[EngineHit], int]:
        q = self._query(tree, filters)
        n = self._searcher.num_docs
        if n == 0:
            return [], 0
        top = n if limit is None else max(1, min(limit, n))
        res = self._searcher.search(q, top, count=True)
        hits = []
        for score, addr in res.hits:
            stored = self._searcher.doc(addr).get_first("doc")
            hits.append(EngineHit(bytes(stored).decode("utf-8"), float(score)))
        return hits, int(res.count or 0)

    def close(self) -> None:
        self._searcher = None  # type: ignore[assignment]


def open_engine(path: Path) -> TantivySearcher:
    return TantivySearcher(path)
