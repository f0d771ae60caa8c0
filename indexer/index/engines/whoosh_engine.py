"""Whoosh engine: our pre-analysed tokens go in as their postings, Whoosh never analyses text.

A text field (`PreAnalysedText`) takes our tokens (`FieldTerms`) and gives Whoosh's writer
their postings itself: each distinct term, its frequency and its positions encoded by the
field's format, exactly what Whoosh's own analysis would give for the same tokens (phrase
positions are ours). The postings of the fields a document shares with the other documents of
its article are worked out once per article (`_ArticlePostings`). Indexes written before this
field type, whose fields decode ``"<pos>\\x1f<term>"`` items (`PreAnalysedTokenizer`), still
open. Scoring is BM25F; title and topic boosts come with the query.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from math import log
from pathlib import Path
from typing import TYPE_CHECKING

from whoosh import collectors, fields, formats, index, query, scoring
from whoosh.analysis import Token as WToken
from whoosh.analysis import Tokenizer

from indexer.index.engines import Article, EngineHit, FieldTerms, Match, Row, treaty_keyword
from indexer.index.engines.expansion import Expander
from indexer.index.query_syntax import (
    KEYWORD_FIELDS,
    QUERY_SECONDS,
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
    QueryTooExpensive,
    text_fields,
)

if TYPE_CHECKING:
    from whoosh.writing import SegmentWriter

_SEP = "\x1f"
#: Each document's group number (`Row.group`), by document number: 32-bit, native order.
GROUPS = "groups.u32"


class PreAnalysedTokenizer(Tokenizer):
    """Decodes `encode`d tokens; no analysis of its own."""

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: object,
    ) -> Iterable[WToken]:
        t = WToken(positions, chars, removestops=removestops, mode=mode, **kwargs)
        for item in value.split(" "):
            pos, sep, term = item.partition(_SEP)
            if not sep:
                continue
            t.text = term
            t.boost = 1.0
            t.stopped = False
            if keeporiginal:
                t.original = term
            if positions:
                t.pos = start_pos + int(pos)
            if chars:
                t.startchar = t.endchar = start_char
            yield t


def _schema() -> fields.Schema:
    spec: dict[str, fields.FieldType] = {"doc": fields.STORED()}
    for name in KEYWORD_FIELDS:
        spec[name] = fields.KEYWORD(lowercase=False, commas=False, scorable=False)
    for name in text_fields():
        spec[name] = PreAnalysedText(analyzer=PreAnalysedTokenizer(), phrase=True,
                                     stored=False)
    return fields.Schema(**spec)


#: A text field's postings as Whoosh's writer takes them: (term as UTF-8, frequency, weight,
#: encoded positions) for each distinct term.
Postings = tuple[tuple[bytes, int, float, bytes], ...]


class PreAnalysedText(fields.TEXT):
    """A text field whose values are our tokens (`FieldTerms`) or their `Postings` (the
    documented `index` hook of a field type: what it returns is what the writer adds)."""

    def index(self, value, **kwargs):
        if isinstance(value, FieldTerms):
            return postings(value, self.format)
        if isinstance(value, tuple):
            return value
        return super().index(value, **kwargs)  # (text: decoded by the analyser)


def postings(tokens: FieldTerms, fmt: formats.Format) -> Postings:
    """The postings of `tokens` in a field of format `fmt`: the items Whoosh's analysis of
    the same tokens gives (each term's positions in token order, weight = frequency)."""
    terms = tokens.term_list()
    at: dict[str, list[int]] = {}
    for term, pos in zip(terms, tokens.positions or range(len(terms)), strict=True):
        found = at.get(term)
        if found is None:
            at[term] = [pos]
        else:
            found.append(pos)
    encode = fmt.encode
    return tuple((term.encode("utf-8"), len(poses), float(len(poses)), encode(poses))
                 for term, poses in at.items())


def _article_values(article: Article, schema: fields.Schema) -> dict[str, object]:
    """The field values of the fields `article`'s documents share: keywords as text, text
    fields as their postings."""
    doc: dict[str, object] = {}
    for name, values in article.keywords.items():
        if values:
            doc[name] = " ".join(values)
    for name, tokens in article.texts.items():
        if tokens.terms:
            doc[name] = postings(tokens, schema[name].format)
    return doc


def _add_rows(writer, rows: Iterable[Row], groups: array) -> int:
    """Add `rows` to `writer`, each row's group number to `groups`; how many."""
    schema = writer.schema
    article = shared = None
    n = 0
    for row in rows:
        if row.article is not article:
            article = row.article
            shared = _article_values(article, schema)
        groups.append(row.group)
        doc: dict[str, object] = {"doc": row.stored}
        for name, values in row.own_keywords.items():
            if values:
                doc[name] = " ".join(values)
        for name, tokens in row.own_texts.items():
            if tokens.terms:
                doc[name] = tokens
        doc.update(shared)  # (as `Row.keywords` and `Row.texts`: the article's last)
        writer.add_document(**doc)
        n += 1
    return n


def build(path: Path, rows: Iterable[Row]) -> int:
    ix = index.create_in(str(path), _schema())
    groups = array("i")
    with _writing(ix) as writer:
        n = _add_rows(writer, rows, groups)
    # One writer makes one segment: document numbers are the order the rows came in.
    (path / GROUPS).write_bytes(groups.tobytes())
    return n


#: Most segments an extended index may have; past them the next ingest builds it whole. Each
#: extension adds one segment (never merged: document numbers stay those of `GROUPS`), and a
#: query reads every segment's term tables.
SEGMENTS = 8


def update(path: Path, rows: Iterable[Row], treaties: Iterable[str]) -> int:
    """Take the documents of `treaties` out of the index in `path` (hard links to another
    generation's files: Whoosh never writes into a segment file, its deletions and segment
    list go into a new table of contents) and add `rows` as one new segment after the others,
    merging none; the number of documents then."""
    ix = index.open_dir(str(path))
    groups = array("i")
    groups.frombytes((path / GROUPS).read_bytes())
    with _writing(ix, merge=False) as writer:
        for treaty in treaties:
            writer.delete_by_term("treaty", treaty_keyword(treaty))
        _add_rows(writer, rows, groups)
    with ix.searcher() as searcher:
        if searcher.doc_count_all() != len(groups):
            raise RuntimeError(f"{path}: the extended index numbers its documents otherwise")
        count = searcher.doc_count()
    _replace(path / GROUPS, groups.tobytes())
    return count


@contextmanager
def _writing(ix: index.Index, merge: bool = True) -> Iterator[SegmentWriter]:
    """A writer of `ix`, committed when the block ends (`merge`: Whoosh may merge small
    segments), cancelled when it raises."""
    writer = ix.writer(limitmb=256)
    try:
        yield writer
    except BaseException:
        writer.cancel()
        raise
    writer.commit(merge=merge)


def extendable(path: Path) -> bool:
    """Whether the index in `path` has fewer segments than `SEGMENTS` and a group number for
    each of its documents (then `update` can extend it)."""
    try:
        with index.open_dir(str(path)).reader() as reader:
            leaves = len(reader.leaf_readers())
            total = reader.doc_count_all()
    except (OSError, index.EmptyIndexError):
        return False
    file = path / GROUPS
    return leaves < SEGMENTS and file.is_file() and file.stat().st_size == 4 * total


def _replace(file: Path, data: bytes) -> None:
    """Write `data` as `file` by replacing it (it may be a hard link to another generation's
    file, which must stay as it is)."""
    tmp = file.with_name(file.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(file)


class BM25(scoring.BM25F):
    """Whoosh's BM25F with the inverse document frequency of tantivy's BM25,
    ln(1 + (N − n + 0.5) / (n + 0.5)), in place of Whoosh's log(N / (n + 1)) + 1, which weighs
    a rare term against a common one otherwise: the two engines then rank alike."""

    def idf(self, searcher, fieldname, text):
        parent = searcher.get_parent()
        n = parent.doc_frequency(fieldname, text)
        return log(1 + (parent.doc_count_all() - n + 0.5) / (n + 0.5))


def translate(node: FNode) -> query.Query:
    """The Whoosh query for a field tree."""
    if isinstance(node, FTerm):
        return query.Term(node.field, node.term, boost=node.boost)
    if isinstance(node, FPhrase):
        return query.Phrase(node.field, list(node.terms), slop=1, boost=node.boost)
    if isinstance(node, FFuzzy):
        return query.FuzzyTerm(
            node.field, node.term, boost=node.boost, maxdist=node.distance, prefixlength=0
        )
    if isinstance(node, FPrefix):
        return query.Prefix(node.field, node.prefix, boost=node.boost)
    if isinstance(node, FAnd):
        subs = [
            query.Not(translate(c.child)) if isinstance(c, FNot) else translate(c)
            for c in node.children
        ]
        if all(isinstance(c, FNot) for c in node.children):
            subs.insert(0, query.Every())
        return query.And(subs)
    if isinstance(node, FOr):
        return query.Or([translate(c) for c in node.children])
    if isinstance(node, FNot):
        return query.And([query.Every(), query.Not(translate(node.child))])
    if isinstance(node, FAll):
        return query.Every()
    assert isinstance(node, FNone)
    return query.NullQuery


class WhooshSearcher:
    #: A monotonic time no query goes past (the deadline of the whole search a query is part
    #: of, `search.results.deadline`), besides each query's own `seconds`; None: no other.
    until: float | None = None

    def __init__(self, path: Path, seconds: float = QUERY_SECONDS) -> None:
        self.seconds = seconds
        self._ix = index.open_dir(str(path))
        self._searcher = self._ix.searcher(weighting=BM25())
        self._groups = array("i")
        file = Path(path) / GROUPS
        if file.exists():
            self._groups.frombytes(file.read_bytes())
        self.grouped = len(self._groups) == self._searcher.doc_count_all() and (
            min(self._groups, default=0) >= 0)

    def _query(self, tree: FNode, filters: Sequence[tuple[str, str]], deadline: float
               ) -> query.Query:
        """The Whoosh query of `tree` with each fuzzy and prefix leaf expanded to a bounded
        set of index terms (Whoosh's own expansion has no bound), the filters ANDed in with
        no score (as in the tantivy engine: a filter collector would bypass the deadline)."""
        reader = self._searcher.reader()
        expander = Expander(
            lambda f, p: reader.expand_prefix(f, p),
            lambda f, t, d: reader.terms_within(f, t, d),
            lambda f, t: reader.doc_frequency(f, t),
            deadline,
        )
        q = translate(expander.expand(tree))
        if not filters:
            return q
        flt = query.And([query.Term(f, v) for f, v in filters])
        return query.And([q, query.ConstantScoreQuery(flt, 0.0)])

    def _run(self, tree: FNode, filters: Sequence[tuple[str, str]], limit: int | None):
        """Whoosh's results of `tree`, or QueryTooExpensive after `seconds`."""
        deadline = time.monotonic() + self.seconds
        if self.until is not None:
            deadline = min(deadline, self.until)
        q = self._query(tree, filters, deadline)
        left = max(deadline - time.monotonic(), 0.01)
        collector = collectors.TimeLimitCollector(
            self._searcher.collector(limit=limit), left, use_alarm=False)
        try:
            self._searcher.search_with_collector(q, collector)
        except collectors.TimeLimit:
            raise QueryTooExpensive(f"it took more than {self.seconds:g} s") from None
        return collector.results()

    def matches(
        self, tree: FNode, filters: Sequence[tuple[str, str]], limit: int | None
    ) -> tuple[list[Match], int]:
        """Every match, whatever `limit` (Whoosh scores every match anyway)."""
        results = self._run(tree, filters, None)
        groups = self._groups
        return [(float(s or 0.0), groups[d], d) for s, d in results.top_n], len(results)

    def group_count(self, tree: FNode, filters: Sequence[tuple[str, str]]) -> int:
        found, _ = self.matches(tree, filters, None)
        return len({g for _s, g, _d in found})

    def in_groups(
        self, tree: FNode, filters: Sequence[tuple[str, str]], groups: Sequence[int], limit: int
    ) -> list[Match]:
        found, _ = self.matches(tree, filters, None)
        want = set(groups)
        return [m for m in found if m[1] in want][:limit]

    def ref_key(self, ref: object) -> Hashable:
        return ref  # type: ignore[return-value]

    def stored(self, ref: object) -> str:
        return self._searcher.stored_fields(ref)["doc"]

    def search(
        self, tree: FNode, filters: Sequence[tuple[str, str]], limit: int | None
    ) -> tuple[list[EngineHit], int]:
        results = self._run(tree, filters, limit)
        hits = [EngineHit(hit["doc"], float(hit.score or 0.0)) for hit in results]
        return hits, len(results)

    def close(self) -> None:
        self._searcher.close()


def open_engine(path: Path, seconds: float = QUERY_SECONDS) -> WhooshSearcher:
    return WhooshSearcher(path, seconds)
