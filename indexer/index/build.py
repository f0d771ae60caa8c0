"""The search index: built from `IndexDoc`s, searched through one small interface.

Two engines — Whoosh (default) and tantivy (large corpora) — chosen by ``engine`` or
``TREATY_ENGINE``. Both index the *same* tokens from our analysers (`indexer.analysis`) and
answer the *same* engine-neutral query tree (`indexer.query`), so they return the same hits;
snippets and "did you mean" are computed here, from our offsets and our vocabulary, so they
are identical for both engines too.

Layout of an index directory (rebuilt atomically; readers never see half an index)::

    index_dir/CURRENT           name of the live generation (replaced with os.replace)
    index_dir/g-<time>-<pid>/   one generation: index.json (meta), vocab.json, engine/

Fields per document: ``text_<l>`` and ``title_<l>`` for the document's language ``l`` (or
``other``), and ``topic_<l>`` for *every* language: the topic's display names analysed by each
analyser, so that a query in one language reaches the right article in another.
"""

from __future__ import annotations

import dataclasses
import html
import json
import os
import re
import shutil
import time
import unicodedata
from bisect import bisect_left
from collections import _count_elements, deque  # type: ignore[attr-defined]
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, islice, pairwise, repeat
from operator import add, attrgetter
from pathlib import Path
from typing import Self

from indexer.errors import StoreError, TreatyError
from indexer.index.analysis import IndexTerms, Token, analyse, has_han, index_terms
from indexer.index.documents import GROUPS_FILE, GroupTable
from indexer.index.engines import (
    ENGINES,
    Article,
    EngineSearcher,
    FieldTerms,
    Row,
    build,
    open_engine,
)
from indexer.index.query_syntax import (
    OTHER,
    FNone,
    Node,
    compile_query,
    field_lang,
    leaves,
    levenshtein,
    parse,
    term_matcher,
    words_of,
)
from indexer.models import IndexDoc
from indexer.policy import LANGUAGES, policy

__all__ = [
    "ArticleGroup",
    "Hit",
    "IndexMissingError",
    "IndexStats",
    "SearchResult",
    "Searcher",
    "Suggestion",
    "build_index",
    "default_engine",
    "open_index",
]

FORMAT = 1
META = "index.json"
VOCAB = "vocab.json"
POINTER = "CURRENT"
SNIPPET_WIDTH = 240


class IndexMissingError(StoreError):
    """There is no (complete) search index where one was expected."""


def default_engine() -> str:
    """The engine named by TREATY_ENGINE, else whoosh."""
    return os.environ.get("TREATY_ENGINE", "").strip().lower() or "whoosh"


def _check_engine(engine: str) -> str:
    if engine not in ENGINES:
        raise TreatyError(f"unknown search engine {engine!r}: use one of {', '.join(ENGINES)}")
    return engine


@dataclass(frozen=True)
class IndexStats:
    engine: str
    docs: int
    seconds: float
    path: Path  # the generation directory now live
    languages: tuple[str, ...]


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
class Suggestion:
    term: str  # as typed
    alternatives: tuple[str, ...]  # best first


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


# --- building ------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _analyse_cached(text: str, lang: str) -> tuple[Token, ...]:
    return tuple(analyse(text, lang))


@lru_cache(maxsize=4096)
def _offsets(text: str, lang: str) -> tuple[tuple[str, int, int], ...]:
    """(term, start, end) of each token of `text`, in text order (for snippets)."""
    toks = sorted(_analyse_cached(text, lang), key=lambda t: (t.start, t.end))
    return tuple((t.term, t.start, t.end) for t in toks)


def _keyword(value: object) -> str:
    return "_".join(str(value).split())


_DOC_FIELDS = tuple(f.name for f in dataclasses.fields(IndexDoc))
_STORED_JSON = json.JSONEncoder(ensure_ascii=False)  # as json.dumps(..., ensure_ascii=False)


def _analyser(doc: IndexDoc) -> str:
    """The language whose analyser reads the text and title of `doc` ("xx": none of ours)."""
    return doc.lang if field_lang(doc.lang) != OTHER else "xx"


#: The fields of an `IndexDoc` that are its own; the others are its article's, the same for
#: every paragraph of the article.
_OWN_FIELDS = tuple(f for f in _DOC_FIELDS if f in {"id", "eid", "text", "raw"})
_ARTICLE_FIELDS = tuple(f for f in _DOC_FIELDS if f not in _OWN_FIELDS)


class _Article:
    """The parts of a row that all documents of one article share (their article fields are
    equal): made once per article instead of once per paragraph."""

    __slots__ = ("alang", "fields", "fl", "key", "shared", "stored", "surface", "text_field")

    def __init__(self, doc: IndexDoc) -> None:
        self.fields = _article_fields(doc)
        self.fl = fl = field_lang(doc.lang)
        self.alang = alang = _analyser(doc)
        self.text_field = f"text_{fl}"
        texts: dict[str, FieldTerms] = {}
        if doc.title:
            texts[f"title_{fl}"] = FieldTerms.of(*index_terms(doc.title, alang)[:2])
        if doc.topic_names:
            for lang in LANGUAGES:
                texts[f"topic_{lang}"] = _topic_terms(doc.topic_names, lang)
        keywords = {
            "lang": (_keyword(doc.lang.lower()),),
            "treaty": (_keyword(doc.treaty.lower()),),
            "party": tuple(_keyword(p.upper()) for p in doc.parties),
            "topic": (_keyword(doc.topic.lower()),) if doc.topic else (),
            "number": (str(doc.number),) if doc.number is not None else (),
            "kind": (_keyword(doc.kind.lower()),),
        }
        #: after a row's own fields ("id"; the text field), in this order
        self.shared = Article(keywords, texts)
        self.stored = _stored_segments(doc)
        self.key = (doc.treaty, doc.lang, doc.article_eid)
        pol = policy(fl) if fl in LANGUAGES else None
        self.surface = pol is not None and bool(pol.stemmer)  # counts surface words

    def row(self, doc: IndexDoc, text: IndexTerms) -> Row:
        """The row of `doc`, a document of this article; `text`: `index_terms` of its text."""
        own = map(_STORED_JSON.encode, _own_fields(doc))
        stored = "".join(chain.from_iterable(zip(self.stored, own))) + self.stored[-1]
        return Row(stored.encode("utf-8"), {"id": (_keyword(doc.id),)},
                   {self.text_field: FieldTerms.of(text.terms, text.positions)}, self.shared,
                   self.key)


_article_fields = attrgetter(*_ARTICLE_FIELDS)
_own_fields = attrgetter(*_OWN_FIELDS)
_OWN_KEYS = tuple(f"{_STORED_JSON.encode(f)}: " for f in _OWN_FIELDS)
#: The runs of article fields before each own field, and after the last.
_ARTICLE_RUNS = tuple(
    tuple(_DOC_FIELDS[i + 1 : j])
    for i, j in pairwise([-1, *map(_DOC_FIELDS.index, _OWN_FIELDS), len(_DOC_FIELDS)])
)


def _stored_segments(doc: IndexDoc) -> list[str]:
    """The stored JSON of `doc` (as `json.dumps(..., ensure_ascii=False)` of its fields) around
    its own fields: segment i comes before the value of `_OWN_FIELDS[i]`, the last one after
    the last. Each run of article fields is encoded as one object, without its braces."""
    segments = []
    for i, names in enumerate(_ARTICLE_RUNS):
        run = _STORED_JSON.encode({f: getattr(doc, f) for f in names})[1:-1] if names else ""
        if i < len(_OWN_FIELDS):
            segments.append(f"{', ' if i else '{'}{run + ', ' if run else ''}{_OWN_KEYS[i]}")
        else:
            segments.append(f"{', ' + run if run else ''}}}")
    return segments


def _row(doc: IndexDoc, text: IndexTerms | None = None) -> Row:
    """The row of `doc`; `text`: `index_terms` of its text, when already made."""
    article = _Article(doc)
    if text is None:
        text = index_terms(doc.text, article.alang)
    return article.row(doc, text)


@lru_cache(maxsize=1024)
def _topic_terms(names: str, lang: str) -> FieldTerms:
    """The tokens of a topic's display names (a small fixed set: cached)."""
    return FieldTerms.of(*index_terms(names, lang)[:2])


class _Vocabulary:
    """Per language: document frequency of each indexed text term, and of each surface word
    (lower-cased, as written) — the source of "did you mean"."""

    def __init__(self) -> None:
        # (plain dicts, not Counters: a chunk's vocabulary crosses to the parent process
        # pickled, and a Counter is re-created through its update on the way)
        self.df: dict[str, dict[str, int]] = {}
        self.surface: dict[str, dict[str, int]] = {}
        self.langs: set[str] = set()  # field languages of the documents

    def add(self, doc: IndexDoc, text: IndexTerms, article: _Article | None = None) -> None:
        """Count the terms and words of `text`, the `index_terms` of `doc.text` (`article`:
        the `_Article` of `doc`, when already made)."""
        if article is None:
            article = _Article(doc)
        fl = article.fl
        self.langs.add(fl)
        if (df := self.df.get(fl)) is None:
            df = self.df[fl] = {}
        _count(df, set(text.terms))  # Counter.update(...) on a dict
        if article.surface and text.written is not None:
            if (surface := self.surface.get(fl)) is None:
                surface = self.surface[fl] = {}
            _count(surface, _surface_words(text.written))

    def merge(self, other: _Vocabulary) -> None:
        """Add the counts of `other` (the vocabulary of the documents that follow)."""
        self.langs |= other.langs
        for mine, theirs in ((self.df, other.df), (self.surface, other.surface)):
            for fl, counts in theirs.items():
                if (total := mine.get(fl)) is None:
                    mine[fl] = dict(counts)
                else:  # `Counter.update(total, counts)`, in one dict.update: new words in
                    # their order
                    get = total.get
                    words = counts.keys()
                    total.update(zip(words, map(add, map(get, words, repeat(0)),
                                                counts.values())))

    def to_json(self) -> dict:
        return {"df": self.df, "surface": self.surface}


#: Counts one more of each element of an iterable in a dict (Counter.update's C helper).
_count: Callable[[dict[str, int], Iterable[str]], None] = _count_elements


#: Most words the table of `_surface_words` holds (it is emptied when full).
_SURFACE_MAX = 200_000
_surface_forms: dict[str, str] = {}  # word as written -> lower case NFC ("": not all letters)


def _surface_words(written: list[str]) -> set[str]:
    """The distinct surface words of tokens as written: lower case, NFC, letters only."""
    try:
        words = set(map(_surface_forms.__getitem__, written))
    except KeyError:  # some tokens are new to the table: add them
        tokens = set(written)
        new = tokens.difference(_surface_forms)
        if len(_surface_forms) + len(new) > _SURFACE_MAX:
            _surface_forms.clear()
            new = tokens
        for token in new:
            low = token.lower()
            _surface_forms[token] = unicodedata.normalize("NFC", low) if low.isalpha() else ""
        words = set(map(_surface_forms.__getitem__, tokens))
    words.discard("")
    return words


def _analyse_chunk(docs: list[IndexDoc]) -> tuple[list[Row], _Vocabulary]:
    """The rows of `docs` and their vocabulary (run in a worker process for large builds)."""
    vocab = _Vocabulary()
    rows = []
    article: _Article | None = None
    for doc in docs:
        if article is None or _article_fields(doc) != article.fields:
            article = _Article(doc)  # a new article (its documents come one after another)
        text = index_terms(doc.text, article.alang)
        rows.append(article.row(doc, text))
        vocab.add(doc, text, article)
    return rows, vocab


#: Documents per unit of work; a build with fewer than PARALLEL_MIN documents (or one
#: worker) analyses in this process. Each chunk's vocabulary is pickled, sent and merged
#: into the build's: its distinct words grow slower than its documents, so larger chunks
#: move fewer of them in all (1000: half the vocabulary work of 500 on the 100 MB
#: benchmark, whose copies repeat their words; less on a corpus of distinct texts).
CHUNK = 1000
PARALLEL_MIN = 2 * CHUNK


def _analysed(docs: Iterable[IndexDoc], workers: int) -> Iterator[tuple[list[Row], _Vocabulary]]:
    """(rows, vocabulary) of successive chunks of `docs`, in document order. With more than
    one worker and enough documents, the analysis (most of a build's time) runs in a pool of
    `workers` processes while this one writes the index; the rows are the same either way."""
    it = iter(docs)
    first = list(islice(it, PARALLEL_MIN))
    if workers <= 1 or len(first) < PARALLEL_MIN:
        chunk = first
        while chunk:
            yield _analyse_chunk(chunk)
            chunk = list(islice(it, CHUNK))
        return
    from concurrent.futures import Future

    from indexer import workers as worker_setup

    pending: deque[Future] = deque()
    # (the workers exit while this process goes on writing the index)
    with worker_setup.pool(workers) as pool:
        chunks = chain((first[i : i + CHUNK] for i in range(0, len(first), CHUNK)),
                       iter(lambda: list(islice(it, CHUNK)), []))
        for chunk in chunks:
            pending.append(pool.submit(_analyse_chunk, chunk))
            if len(pending) > 2 * workers:  # bounded: memory stays flat
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _generation(index_dir: Path) -> Path:
    return (
        index_dir / f"g-{time.strftime('%Y%m%dT%H%M%S')}-{time.time_ns() % 10**9:09d}-{os.getpid()}"
    )


def build_index(
    docs: Iterable[IndexDoc],
    index_dir: Path,
    engine: str | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int | None = None,
) -> IndexStats:
    """Build a search index of `docs` in `index_dir` with `engine` (whoosh or tantivy; default
    TREATY_ENGINE or whoosh). The new index is built in a new generation directory and made
    live by atomically replacing the CURRENT pointer; readers of the old one are undisturbed.
    `progress` is called with the number of documents done, every 1000 and at the end.
    `workers` processes analyse the documents (default: one per CPU; small inputs are
    analysed in this process); the index is the same for any number."""
    engine = _check_engine(engine or default_engine())
    workers = (os.cpu_count() or 1) if workers is None else workers
    index_dir = Path(index_dir)
    index_dir.mkdir(parents=True, exist_ok=True)
    gen = _generation(index_dir)
    (gen / "engine").mkdir(parents=True)
    t0 = time.perf_counter()
    vocab = _Vocabulary()
    numbers: dict[tuple[str, ...], int] = {}  # article group -> its number
    sizes: list[int] = []  # documents per group

    def rows() -> Iterator[Row]:
        n = 0
        for chunk, chunk_vocab in _analysed(docs, workers):
            vocab.merge(chunk_vocab)
            for row in chunk:
                group = numbers.setdefault(row.key, len(numbers))
                if group == len(sizes):
                    sizes.append(0)
                sizes[group] += 1
                yield Row(*row[:-1], group)  # (group: the last field; _replace is slower)
                n += 1
                if progress is not None and n % 1000 == 0:
                    progress(n)

    row_iter = rows()
    try:
        n = build(engine, gen / "engine", row_iter)
        if progress is not None:
            progress(n)
        (gen / VOCAB).write_text(json.dumps(vocab.to_json(), ensure_ascii=False), "utf-8")
        GroupTable.dump(gen / GROUPS_FILE, numbers, sizes)
        meta = {
            "format": FORMAT,
            "engine": engine,
            "docs": n,
            "groups": len(numbers),
            "languages": sorted(vocab.langs, key=lambda lang: (lang not in LANGUAGES, lang)),
            "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        (gen / META).write_text(json.dumps(meta, indent=1), "utf-8")
        previous = _current(index_dir)
        tmp = index_dir / f"{POINTER}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(gen.name + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, index_dir / POINTER)  # the switch: atomic
    except BaseException:
        row_iter.close()  # stops the analysing processes, if any
        shutil.rmtree(gen, ignore_errors=True)
        raise
    _prune(index_dir, keep={gen.name, previous.name if previous else ""})
    return IndexStats(engine, n, time.perf_counter() - t0, gen, tuple(meta["languages"]))


def _current(index_dir: Path) -> Path | None:
    try:
        name = (index_dir / POINTER).read_text("utf-8").strip()
    except FileNotFoundError:
        return None
    return index_dir / name if name else None


def _prune(index_dir: Path, keep: set[str]) -> None:
    """Remove complete generations other than `keep` (the live one and the one before, which
    open readers may still use); unfinished ones only when over a day old (a build in
    progress)."""
    for path in index_dir.glob("g-*"):
        if path.name in keep or not path.is_dir():
            continue
        if (path / META).exists() or time.time() - path.stat().st_mtime > 86400:
            shutil.rmtree(path, ignore_errors=True)


# --- searching -----------------------------------------------------------------------------


def open_index(index_dir: Path) -> Searcher:
    """Open the live index in `index_dir` (or a generation directory itself)."""
    index_dir = Path(index_dir)
    gen = _current(index_dir)
    if gen is None and (index_dir / META).exists():
        gen = index_dir
    if gen is None or not (gen / META).exists():
        raise IndexMissingError(f"no search index in {index_dir}: build it first (treaty index)")
    meta = json.loads((gen / META).read_text("utf-8"))
    engine = _check_engine(meta["engine"])
    return Searcher(gen, engine, open_engine(engine, gen / "engine"), meta)


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
        filters = [
            ("number" if name == "article" else name, _FILTER_FIELDS[name](str(v).strip()))
            for name, v in values.items()
            if v is not None and str(v).strip()
        ]
        ask = None if limit is None else max(limit, 1)
        found, total = self._backend.search(ftree, filters, ask)
        if limit is not None:
            found = found[:limit]
        hits = []
        matchers: dict[str, Callable[[str], bool]] = {}  # one per text field, for every hit
        for eh in found:
            doc = _doc(eh.stored)
            name = f"text_{field_lang(doc.lang)}"
            if name not in matchers:
                matchers[name] = term_matcher(ftree, name)
            snippet = make_snippet(doc, matchers[name])
            hits.append(
                Hit(
                    doc.id,
                    doc.eid,
                    doc.article_eid,
                    doc.treaty,
                    doc.lang,
                    doc.kind,
                    doc.number,
                    eh.score,
                    snippet,
                    doc,
                )
            )
        suggestions = self.suggest(tree, langs)
        return SearchResult(
            query, self.engine, tuple(hits), total, suggestions,
            _corrected(query, suggestions), plain,
        )  # fmt: skip

    # -- did you mean --

    def _load_vocab(self) -> dict:
        if self._vocab is None:
            data = json.loads((self.path / VOCAB).read_text("utf-8"))
            by_initial: dict[str, dict[str, list[tuple[str, int]]]] = {}
            for lang, words in data["surface"].items():
                table = by_initial.setdefault(lang, {})
                for w, c in words.items():
                    table.setdefault(w[:1], []).append((w, c))
            data["by_initial"] = by_initial
            self._vocab = data
        return self._vocab

    def suggest(self, tree: Node | None, langs: Iterable[str]) -> tuple[Suggestion, ...]:
        """For each plain query word that is absent or rare as written, the index words
        nearest by edit distance whose terms are more frequent (Latin-script languages)."""
        vocab = self._load_vocab()
        langs = [lang for lang in langs if lang in vocab["surface"]]
        out: list[Suggestion] = []
        seen: set[str] = set()
        for word, negated in words_of(tree):
            w = unicodedata.normalize("NFC", word.text.lower())
            if negated or word.prefix or word.fuzzy is not None or w in seen or has_han(w):
                continue
            seen.add(w)
            if not w.isalpha() or sum(vocab["surface"][lang].get(w, 0) for lang in langs) > 1:
                continue
            alts = _nearest(w, langs, vocab)
            if alts:
                out.append(Suggestion(word.text, alts))
        return tuple(out)


def _term(word: str, lang: str) -> str | None:
    toks = _analyse_cached(word, lang)
    return toks[0].term if len(toks) == 1 else None


def _nearest(w: str, langs: list[str], vocab: dict, n: int = 3) -> tuple[str, ...]:
    limit = 1 if len(w) <= 4 else 2
    scored: dict[str, tuple[int, int]] = {}
    for lang in langs:
        df = vocab["df"].get(lang, {})
        own = _term(w, lang)
        own_df = df.get(own, 0) if own else 0
        for cand, _count in vocab["by_initial"][lang].get(w[:1], ()):
            if abs(len(cand) - len(w)) > limit or cand == w:
                continue
            d = levenshtein(w, cand, limit)
            if d > limit:
                continue
            term = _term(cand, lang)
            cdf = df.get(term, 0) if term else 0
            if term == own or cdf <= own_df:
                continue
            best = scored.get(cand)
            if best is None or (d, -cdf) < best:
                scored[cand] = (d, -cdf)
    return tuple(sorted(scored, key=lambda c: (*scored[c], c))[:n])


def _corrected(query: str, suggestions: tuple[Suggestion, ...]) -> str | None:
    if not suggestions:
        return None
    out = query
    for s in suggestions:
        out = re.sub(rf"(?<!\w){re.escape(s.term)}(?!\w)", s.alternatives[0], out)
    return out if out != query else None


def _doc(stored: str) -> IndexDoc:
    data = json.loads(stored)
    data["parties"] = tuple(data.get("parties") or ())
    return IndexDoc(**data)


# --- snippets ------------------------------------------------------------------------------


def make_snippet(doc: IndexDoc, match: Callable[[str], bool], width: int = SNIPPET_WIDTH) -> str:
    """HTML snippet of `doc.text` around its matched terms, each in <b>…</b>; offsets come
    from our analyser, so every engine highlights alike."""
    text = doc.text
    alang = doc.lang if field_lang(doc.lang) != OTHER else "xx"
    spans: list[list[int]] = []
    for term, start, end in _offsets(text, alang):
        if not match(term):
            continue
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    lo, hi = 0, len(text)
    if len(text) > width:
        if spans:
            # The span that starts the window with the most span starts in it (the first such):
            # starts are strictly increasing, so the count is a bisection.
            starts = [s[0] for s in spans]
            best, most = 0, 0
            for i, st in enumerate(starts):
                n = bisect_left(starts, st + width, i) - i
                if n > most:
                    best, most = i, n
            lo = max(0, spans[best][0] - width // 6)
        hi = min(len(text), lo + width)
        if lo > 0 and (sp := text.find(" ", lo, lo + 20)) != -1:
            lo = sp + 1
        if hi < len(text) and (sp := text.rfind(" ", hi - 20, hi)) != -1:
            hi = sp
    parts = ["…" if lo > 0 else ""]
    cur = lo
    for s, e in spans:
        if e <= lo or s >= hi:
            continue
        s, e = max(s, lo), min(e, hi)
        parts.append(html.escape(text[cur:s], quote=False))
        parts.append(f"<b>{html.escape(text[s:e], quote=False)}</b>")
        cur = e
    parts.append(html.escape(text[cur:hi], quote=False))
    parts.append("…" if hi < len(text) else "")
    return "".join(parts)
