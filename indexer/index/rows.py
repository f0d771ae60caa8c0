"""The documents of an index as every engine receives them: each `IndexDoc` analysed into a
`Row` (its stored JSON, its filter fields, our tokens of its text fields), and the vocabulary
of the documents (for "did you mean").

Fields per document: ``text_<l>`` and ``title_<l>`` for the document's language ``l`` (or
``other``), and ``topic_<l>`` for *every* language: the topic's display names analysed by each
analyser, so that a query in one language reaches the right article in another.

A build analyses its documents in chunks (`analyse_chunk`, in worker processes for a large
build), with the memos (`AnalysisMemo`) of the process that analyses them: one for all the
chunks of a build analysed in the building process, one per chunk in a worker.
"""

from __future__ import annotations

import dataclasses
import json
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from operator import add, attrgetter

from indexer.index.analysis import IndexTerms, TermMemo, index_terms
from indexer.index.engines import Article, FieldTerms, Row, treaty_keyword
from indexer.index.query_syntax import analyser_lang, field_lang
from indexer.models import IndexDoc
from indexer.policy import LANGUAGES, policy

__all__ = ["AnalysisMemo", "Vocabulary", "analyse_chunk", "stored_json"]

_DOC_FIELDS = tuple(f.name for f in dataclasses.fields(IndexDoc))
#: The fields of an `IndexDoc` that are its article's, the same for every paragraph of the
#: article (its own are its id, eid, text and raw).
_ARTICLE_FIELDS = tuple(f for f in _DOC_FIELDS if f not in {"id", "eid", "text", "raw"})
_doc_values = attrgetter(*_DOC_FIELDS)
_article_fields = attrgetter(*_ARTICLE_FIELDS)
#: `.encode` is `json.dumps(..., ensure_ascii=False)`, without making an encoder per call.
_JSON = json.JSONEncoder(ensure_ascii=False)


def stored_json(doc: IndexDoc) -> bytes:
    """`doc` as the index stores it: the JSON object of its fields, in order (UTF-8)."""
    return _JSON.encode(dict(zip(_DOC_FIELDS, _doc_values(doc)))).encode("utf-8")


class AnalysisMemo:
    """What the analysis of documents remembers as it goes: the term of each Latin token
    (`terms`); the terms known to be non-empty and free of whitespace (`plain`, see
    `FieldTerms.of`); each token as written -> its surface word (`surface`); the fields of
    each topic's display names, per language (`topics`). Each is a pure function of its key,
    so a memo changes no result, only how often a key is worked out; it holds about as many
    keys as the vocabulary of the documents it has seen (which the build holds anyway)."""

    __slots__ = ("plain", "surface", "terms", "topics")

    def __init__(self) -> None:
        self.terms = TermMemo()
        self.plain: set[str] = set()
        self.surface = _SurfaceForms()
        self.topics: dict[tuple[str, str], FieldTerms] = {}

    def field_terms(self, terms: Sequence[str], positions: Sequence[int] | None = None
                    ) -> FieldTerms:
        """`FieldTerms.of(terms, positions)`, checking only the terms new to the memo."""
        return FieldTerms.of(terms, positions, self.plain)

    def topic_terms(self, names: str, lang: str) -> FieldTerms:
        """The field of a topic's display names `names` analysed by `lang`'s analyser."""
        field = self.topics.get((names, lang))
        if field is None:
            field = self.topics[names, lang] = self.field_terms(
                *index_terms(names, lang, self.terms)[:2])
        return field

    def surface_words(self, written: list[str]) -> set[str]:
        """The distinct surface words of tokens as written: lower case, NFC, letters only."""
        words = set(map(self.surface.__getitem__, written))
        words.discard("")
        return words


class _SurfaceForms(dict[str, str]):
    """token as written -> its surface word: lower case, NFC ("": not all letters), each
    worked out when first looked up."""

    def __missing__(self, token: str) -> str:
        low = token.lower()
        form = self[token] = unicodedata.normalize("NFC", low) if low.isalpha() else ""
        return form


def _keyword(value: object) -> str:
    return "_".join(str(value).split())


class _Article:
    """The parts of a row that all documents of one article share (their article fields are
    equal): made once per article instead of once per paragraph."""

    __slots__ = ("alang", "fields", "fl", "key", "shared", "surface", "text_field", "title")

    def __init__(self, doc: IndexDoc, memo: AnalysisMemo) -> None:
        self.fields = _article_fields(doc)
        self.fl = fl = field_lang(doc.lang)
        self.alang = alang = analyser_lang(doc.lang)
        self.text_field = f"text_{fl}"
        texts: dict[str, FieldTerms] = {}
        #: the terms of the article's title (None: it has none)
        self.title = index_terms(doc.title, alang, memo.terms) if doc.title else None
        if self.title is not None:
            texts[f"title_{fl}"] = memo.field_terms(*self.title[:2])
        if doc.topic_names:
            for lang in LANGUAGES:
                texts[f"topic_{lang}"] = memo.topic_terms(doc.topic_names, lang)
        keywords = {
            "lang": (_keyword(doc.lang.lower()),),
            "treaty": (treaty_keyword(doc.treaty),),
            "party": tuple(_keyword(p.upper()) for p in doc.parties),
            "topic": (_keyword(doc.topic.lower()),) if doc.topic else (),
            "number": (str(doc.number),) if doc.number is not None else (),
            "kind": (_keyword(doc.kind.lower()),),
        }
        #: after a row's own fields ("id"; the text field), in this order
        self.shared = Article(keywords, texts)
        self.key = (doc.treaty, doc.lang, doc.article_eid)
        pol = policy(fl) if fl in LANGUAGES else None
        self.surface = pol is not None and bool(pol.stemmer)  # counts surface words

    def row(self, doc: IndexDoc, text: IndexTerms, memo: AnalysisMemo) -> Row:
        """The row of `doc`, a document of this article; `text`: `index_terms` of its text."""
        return Row(stored_json(doc), {"id": (_keyword(doc.id),)},
                   {self.text_field: memo.field_terms(text.terms, text.positions)},
                   self.shared, self.key)


def _row(doc: IndexDoc, text: IndexTerms | None = None) -> Row:
    """The row of `doc` alone; `text`: `index_terms` of its text, when already made."""
    memo = AnalysisMemo()
    article = _Article(doc, memo)
    if text is None:
        text = index_terms(doc.text, article.alang)
    return article.row(doc, with_printed(text, doc, article.alang), memo)


def _add_counts(total: dict[str, int], counts: Mapping[str, int]) -> None:
    """Add `counts` to `total` (`Counter.update`), in one `dict.update`: the words new to
    `total` come in the order of `counts`."""
    words = counts.keys()
    dict.update(total, zip(words, map(add, map(total.get, words, repeat(0)), counts.values())))


class Vocabulary:
    """Per language: document frequency of each indexed text term, and of each surface word
    (lower-cased, as written) — the source of "did you mean" — counting each article's title
    once as a document of its own."""

    def __init__(self) -> None:
        self.df: dict[str, Counter[str]] = {}
        self.surface: dict[str, Counter[str]] = {}
        self.langs: set[str] = set()  # field languages of the documents

    def add(self, text: IndexTerms, article: _Article, memo: AnalysisMemo) -> None:
        """Count the terms and words of `text`, the `index_terms` of the text of a document
        of `article`."""
        fl = article.fl
        self.langs.add(fl)
        if (df := self.df.get(fl)) is None:
            df = self.df[fl] = Counter()
        df.update(set(text.terms))
        if article.surface and text.written is not None:
            if (surface := self.surface.get(fl)) is None:
                surface = self.surface[fl] = Counter()
            surface.update(memo.surface_words(text.written))

    def merge(self, other: Vocabulary) -> None:
        """Add the counts of `other` (the vocabulary of the documents that follow)."""
        self.langs |= other.langs
        for mine, theirs in ((self.df, other.df), (self.surface, other.surface)):
            for fl, counts in theirs.items():
                if (total := mine.get(fl)) is None:
                    mine[fl] = Counter(counts)
                else:
                    _add_counts(total, counts)

    def to_json(self) -> dict:
        return {"df": self.df, "surface": self.surface}


#: Positions between a text's last token and the printed forms after it, so that no phrase
#: runs from one into the other.
PRINTED_GAP = 100


def with_printed(text: IndexTerms, doc: IndexDoc, alang: str,
                 memo: TermMemo | None = None) -> IndexTerms:
    """The terms of `text` (those of `doc`'s text) followed by those of the printed forms of
    its repaired words, analysed by `alang`'s analyser, at positions past its end."""
    printed = index_terms(doc.printed, alang, memo) if doc.printed else None
    if printed is None or not printed.terms:
        return text
    positions = text.positions if text.positions is not None else list(range(len(text.terms)))
    start = (positions[-1] if positions else 0) + PRINTED_GAP
    return IndexTerms(text.terms + printed.terms,
                      positions + [start + p for p in (printed.positions
                                                       or range(len(printed.terms)))],
                      None)


def analyse_chunk(docs: Iterable[IndexDoc], memo: AnalysisMemo | None = None
                  ) -> tuple[list[Row], Vocabulary]:
    """The rows of `docs` and their vocabulary (run in a worker process for large builds);
    `memo`: what the analysis of the chunks before learnt (default: nothing)."""
    memo = memo or AnalysisMemo()
    vocab = Vocabulary()
    rows = []
    article: _Article | None = None
    for doc in docs:
        if article is None or _article_fields(doc) != article.fields:
            article = _Article(doc, memo)  # a new article (its documents come one after another)
            if article.title is not None:  # its title's words, once: "did you mean" offers
                vocab.add(article.title, article, memo)  # "non-discrimination" of a heading
        text = index_terms(doc.text, article.alang, memo.terms)
        rows.append(article.row(doc, with_printed(text, doc, article.alang, memo.terms), memo))
        vocab.add(text, article, memo)  # (what "did you mean" offers: never a misprint)
    return rows, vocab
