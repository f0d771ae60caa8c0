"""Whoosh engine: our pre-analysed tokens go in through a tokenizer that only decodes them.

Each text field's value is our tokens encoded as ``"<pos>\\x1f<term>"`` items joined by spaces;
`PreAnalysedTokenizer` yields them back with their positions, so Whoosh never analyses text
itself and phrase positions are ours. Scoring is BM25F; title and topic boosts come with the
query.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Hashable, Iterable, Sequence
from pathlib import Path

from whoosh import collectors, fields, index, query, scoring
from whoosh.analysis import Token as WToken
from whoosh.analysis import Tokenizer

from indexer.index.engines import EngineHit, FieldTerms, Match, Row
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

_SEP = "\x1f"
#: Each document's group number (`Row.group`), by document number: 32-bit, native order.
GROUPS = "groups.u32"


def encode(tokens: FieldTerms) -> str:
    """Our tokens as the string value the Whoosh field receives."""
    terms, positions = tokens.term_list(), tokens.positions
    if positions is None:
        positions = range(len(terms))
    return " ".join(f"{pos}{_SEP}{term}" for pos, term in zip(positions, terms, strict=True))


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
        spec[name] = fields.TEXT(analyzer=PreAnalysedTokenizer(), phrase=True, stored=False)
    return fields.Schema(**spec)


def build(path: Path, rows: Iterable[Row]) -> int:
    ix = index.create_in(str(path), _schema())
    writer = ix.writer(limitmb=256)
    n = 0
    groups = array("i")
    try:
        for row in rows:
            groups.append(row.group)
            doc: dict[str, str] = {"doc": row.stored}
            for name, values in row.keywords.items():
                if values:
                    doc[name] = " ".join(values)
            for name, tokens in row.texts.items():
                if tokens.terms:
                    doc[name] = encode(tokens)
            writer.add_document(**doc)
            n += 1
    except BaseException:
        writer.cancel()
        raise
    writer.commit()
    # One writer makes one segment: document numbers are the order the rows came in.
    (path / GROUPS).write_bytes(groups.tobytes())
    return n


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
        self._searcher = self._ix.searcher(weighting=scoring.BM25F())
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
