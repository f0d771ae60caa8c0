"""Search engines behind one small interface.

Each engine module offers ``build(path, rows) -> int`` (the number of documents indexed) and
``open_engine(path) -> EngineSearcher``. Rows carry *pre-analysed* tokens (our analysers, see
`indexer.index.analysis`), so no engine analyses text itself; queries arrive as the
engine-neutral field tree of `indexer.index.query_syntax`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Protocol

from indexer.errors import TreatyError
from indexer.index.query_syntax import QUERY_SECONDS, FNode

ENGINES: tuple[str, ...] = ("whoosh", "tantivy")


def check_engine(engine: str) -> str:
    """`engine`, when it is one of ENGINES; else a TreatyError."""
    if engine not in ENGINES:
        raise TreatyError(f"unknown search engine {engine!r}: use one of {', '.join(ENGINES)}")
    return engine


class FieldTerms(NamedTuple):
    """A text field's tokens as rows carry them (offsets are not indexed, so not carried).

    ``terms``: the terms in token order, joined by spaces into one string — cheap to pass from
    the processes that analyse to the one that writes — when no term holds whitespace (see
    `of`), else a list. ``positions``: each term's position; None when they are 0, 1, 2, ...
    """

    terms: str | Sequence[str]
    positions: Sequence[int] | None = None

    @classmethod
    def of(cls, terms: Sequence[str], positions: Sequence[int] | None = None,
           plain: set[str] | None = None) -> FieldTerms:
        """The field of `terms` at `positions`. `plain`: terms already known to be non-empty
        and free of whitespace (only the others are checked); the checked ones that are, are
        added to it."""
        if plain is None:
            plain = set()
        if not plain.issuperset(terms):  # some terms not seen before: check them
            new = set(terms).difference(plain)
            if len(" ".join(new).split()) != len(new):  # an empty term, or one with whitespace
                return cls(terms, positions)
            plain.update(new)
        return cls(" ".join(terms), positions)

    def term_list(self) -> Sequence[str]:
        """The terms, one by one."""
        if isinstance(self.terms, str):
            return self.terms.split(" ") if self.terms else []
        return self.terms


class Article(NamedTuple):
    """The fields a row shares with the other rows of its article: one object for all of them
    (an engine may add these once per article). As in `Row`: filter and text fields."""

    keywords: dict[str, tuple[str, ...]]
    texts: dict[str, FieldTerms]


def treaty_keyword(treaty: str) -> str:
    """The value of the "treaty" filter field of the documents of `treaty`."""
    return "_".join(treaty.lower().split())


#: The `Row.article` of a row that shares no fields.
NO_ARTICLE = Article({}, {})


class Row(NamedTuple):
    """One document as every engine receives it: its own fields, and its article's."""

    data: bytes  # the IndexDoc as JSON (UTF-8), returned with hits
    own_keywords: dict[str, tuple[str, ...]]  # filter field -> values (exact match)
    own_texts: dict[str, FieldTerms]  # text field -> our tokens of its text
    article: Article = NO_ARTICLE  # the fields that follow these, the article's
    key: tuple[str, ...] = ()  # the article group: (treaty, lang, article eId)
    group: int = -1  # the group's number in this index (assigned by the builder; -1: none)

    @property
    def stored(self) -> str:
        """The IndexDoc as JSON."""
        return self.data.decode("utf-8")

    @property
    def keywords(self) -> dict[str, tuple[str, ...]]:
        """Every filter field of the row: its own, then its article's."""
        return {**self.own_keywords, **self.article.keywords}

    @property
    def texts(self) -> dict[str, FieldTerms]:
        """Every text field of the row: its own, then its article's."""
        return {**self.own_texts, **self.article.texts}


@dataclass(frozen=True)
class EngineHit:
    stored: str
    score: float


#: One match without its stored document: (score, group number, the engine's handle of the
#: document for `EngineSearcher.stored`).
Match = tuple[float, int, object]


class EngineSearcher(Protocol):
    #: The index records each document's group (indexes built before groups existed do not).
    grouped: bool

    def search(
        self, tree: FNode, filters: Sequence[tuple[str, str]], limit: int | None
    ) -> tuple[list[EngineHit], int]:
        """(top hits, total number of matching documents)."""
        ...

    def matches(
        self, tree: FNode, filters: Sequence[tuple[str, str]], limit: int | None
    ) -> tuple[list[Match], int]:
        """(the top `limit` matches best first, in the order `search` gives, total number of
        matching documents); an engine may return more than `limit` (all of them)."""
        ...

    def group_count(self, tree: FNode, filters: Sequence[tuple[str, str]]) -> int:
        """The number of distinct groups of the matching documents."""
        ...

    def in_groups(
        self, tree: FNode, filters: Sequence[tuple[str, str]], groups: Sequence[int], limit: int
    ) -> list[Match]:
        """The matches (at most `limit`) that belong to `groups`, best first."""
        ...

    def stored(self, ref: object) -> str:
        """The stored document of a match's handle."""
        ...

    def ref_key(self, ref: object) -> Hashable:
        """A match's handle as a value that compares and hashes."""
        ...

    def close(self) -> None: ...


def build(engine: str, path: Path, rows: Iterable[Row]) -> int:
    """Build an index of `rows` with `engine` in the empty directory `path`."""
    if engine == "whoosh":
        from indexer.index.engines import whoosh_engine

        return whoosh_engine.build(path, rows)
    from indexer.index.engines import tantivy_engine

    return tantivy_engine.build(path, rows)


def update(engine: str, path: Path, rows: Iterable[Row], treaties: Iterable[str]) -> int:
    """Take the documents of `treaties` out of the index `engine` has in `path` (hard links to
    another generation's files: neither engine writes into an existing file) and add `rows`
    after the others; the number of documents then."""
    if engine == "whoosh":
        from indexer.index.engines import whoosh_engine

        return whoosh_engine.update(path, rows, treaties)
    from indexer.index.engines import tantivy_engine

    return tantivy_engine.update(path, rows, treaties)


def extendable(engine: str, path: Path) -> bool:
    """Whether the index `engine` has in `path` should be extended rather than built again
    (Whoosh: while its segments, one more per extension, stay few; tantivy merges its own)."""
    if engine == "whoosh":
        from indexer.index.engines import whoosh_engine

        return whoosh_engine.extendable(path)
    return True


def open_engine(engine: str, path: Path, seconds: float | None = None) -> EngineSearcher:
    """Open the index `engine` built in `path`. `seconds`: the deadline of one query
    (default QUERY_SECONDS) where the engine can stop a query (Whoosh; tantivy's queries run
    in Rust and are bounded by the limits of the query tree alone)."""
    if engine == "whoosh":
        from indexer.index.engines import whoosh_engine

        return whoosh_engine.open_engine(path, QUERY_SECONDS if seconds is None else seconds)
    from indexer.index.engines import tantivy_engine

    return tantivy_engine.open_engine(path)
