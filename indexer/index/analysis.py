"""Our own analysers, one per language: the tokens every search engine indexes.

Both engines (Whoosh and tantivy) are fed the tokens made here, never their own analysis, so
they agree on hits and the highlighter can use our character offsets for every engine.

- en, pt, sv: words and numbers; lower case; accent folding with unidecode (Swedish keeps
  å/ä/ö, which are letters of their own: folding would merge ``år`` and ``är``); Snowball
  stemming. Portuguese folds *before* stemming so that ``tributação``, ``tributacao`` and the
  OCR's ``tributacäo`` meet; common folded suffixes (``-cao``, ``-coes``, ``-encia``...) are
  restored before the stemmer sees them so plurals still conflate.
- zh: NFKC, Traditional→Simplified, then jieba's search mode (`indexer.index.chinese`).

Positions are token ordinals, for phrase queries (in Chinese those of jieba's precise cut).

An index build analyses many texts that share their words: it passes `index_terms` a
`TermMemo`, which it makes and drops, so that each distinct token is analysed once.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import chain, repeat
from typing import NamedTuple

from indexer.index.chinese import CJK, has_han, zh_index_terms, zh_normalise, zh_tuples
from indexer.policy import policy

__all__ = [
    "IndexTerms",
    "TermMemo",
    "Token",
    "analyse",
    "analyse_query_term",
    "index_terms",
    "normalise_term",
]


@dataclass(frozen=True, slots=True)
class Token:
    """One analysed token: the indexed ``term``, its ordinal ``pos`` (for phrases) and its
    character span ``start:end`` in the analysed input (for highlighting)."""

    term: str
    pos: int
    start: int
    end: int


class IndexTerms(NamedTuple):
    """The tokens of `analyse` as an index needs them (no offsets): what `index_terms`
    returns."""

    terms: list[str]  # each token's term, in the order of `analyse`
    positions: list[int] | None  # each token's position; None when they are 0, 1, 2, ...
    written: list[str] | None  # each token as written in the text (None for Chinese)


# A word character that is not CJK; combining accents (decomposed input) stay in the word.
_WCH = rf"(?:[^\W_{CJK}]|[\u0300-\u036f])"


def _latin_token_re(wch: str) -> re.Pattern[str]:
    """The regex of Latin-script tokens whose word characters are `wch`, each alternative a
    group named by its kind. Runs of characters are possessive (they never give one
    back, so the matches are those of plain ``+``, found without backtracking). The repeated
    groups end their alternative, so nothing after them can fail and make them give one back:
    they are plain greedy, since a possessive group (``(?:...)*+``) matches wrongly on Python
    3.11.0 to 3.11.4, e.g. taking the quote of "Directors’ fees" into the word (CPython
    gh-106052)."""
    alternatives = (
        ("cjk", rf"[{CJK}]++"),  # a CJK run inside Latin text: kept verbatim, never unidecoded
        ("num", r"\d++(?:[.,]\d++)+"),  # 1.000 / 10,5 / 2.1: one token, separators kept
        ("word", rf"{wch}++(?:['’]{wch}++)*"),  # words, with inner apostrophes (State's)
    )
    return re.compile("|".join(f"(?P<{kind}>{rx})" for kind, rx in alternatives))


_LATIN_TOKEN_RE = _latin_token_re(_WCH)

# Portuguese suffixes as they look once folded, and the accented form the stemmer knows.
_PT_RESTORE = (
    ("coes", "ção"),  # plural to singular: the stemmer keeps "convençõ" apart from "convençã"
    ("cao", "ção"),
    ("soes", "são"),
    ("sao", "são"),
    ("encias", "ências"),
    ("encia", "ência"),
    ("ancias", "âncias"),
    ("ancia", "ância"),
    ("aveis", "áveis"),
    ("avel", "ável"),
    ("iveis", "íveis"),
    ("ivel", "ível"),
)


@cache
def _stemmer(algorithm: str) -> Callable[[str], str]:
    import snowballstemmer  # lazy: only when a Latin language is analysed

    return snowballstemmer.stemmer(algorithm).stemWord


@cache
def _unidecode() -> Callable[[str], str]:
    from unidecode import unidecode

    return unidecode


@lru_cache(maxsize=4096)
def _fold_char(c: str) -> str:
    if unicodedata.combining(c):
        return ""
    f = _unidecode()(c).lower()
    return f if f.isalnum() and f.isascii() else c  # a script unidecode cannot fold: keep


@lru_cache(maxsize=65536)
def _fold(word: str, keep: str) -> str:
    """Accent folding of a lower-cased word, keeping the letters in `keep` (and characters
    unidecode has no letters for)."""
    if word.isascii():
        return word
    return "".join(c if c.isascii() or c in keep else _fold_char(c) for c in word) or word


@lru_cache(maxsize=65536)
def _latin_term(word: str, lang: str, stem: bool) -> str:
    pol = policy(lang)
    form = unicodedata.normalize(pol.normal_form if pol else "NFKC", word)
    form = form.lower().replace("’", "'")
    if pol is None:
        return form
    form = _fold(form, pol.fold_keep)
    if not stem or pol.stemmer is None:
        return form
    if lang == "pt":
        for folded, accented in _PT_RESTORE:
            if form.endswith(folded) and len(form) > len(folded) + 1:
                form = form[: -len(folded)] + accented
                break
        return _fold(_stemmer("portuguese")(form), "")
    return _stemmer(pol.stemmer)(form)


def _analyse_latin(text: str, lang: str, stem: bool = True) -> list[Token]:
    tokens: list[Token] = []
    for pos, m in enumerate(_LATIN_TOKEN_RE.finditer(text)):
        kind = m.lastgroup
        word = m.group()
        if kind == "word":
            term = _latin_term(word, lang, stem)
        elif kind == "num":
            term = word
        else:
            term = word  # CJK run in a Latin text: untouched
        tokens.append(Token(term, pos, m.start(), m.end()))
    return tokens


class TermMemo:
    """The term of each Latin-script token met so far, per language: a memo for a run of
    analysis (an index build keeps one for the whole build, or one per chunk of documents in a
    worker process). A token's term depends on the token and the language alone, so a memo
    changes no result, only how often a token is analysed; the caller decides how long it
    lives."""

    __slots__ = ("_tables",)

    def __init__(self) -> None:
        self._tables: dict[str, _TermTable] = {}

    def table(self, lang: str) -> _TermTable:
        """The terms of the tokens of `lang` met so far."""
        table = self._tables.get(lang)
        if table is None:
            table = self._tables[lang] = _TermTable(lang)
        return table


class _TermTable(dict[str, str | None]):
    """token -> its term in one language (None: a piece of text, not one token), each worked
    out when first looked up."""

    __slots__ = ("lang",)

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def __missing__(self, token: str) -> str | None:
        term = self[token] = _token_term(token, self.lang)
        return term


@lru_cache(maxsize=65536)
def _token_term(token: str, lang: str) -> str | None:
    """The term `_analyse_latin` makes of `token`, one match of `_LATIN_TOKEN_RE` (the
    alternative that matches a token alone is the one that matched it in its text); None when
    `token` is not one whole token (a piece of text for `_latin_words`). (Cached: the tokens
    new to a memo made for one chunk are mostly known from the chunks before.)"""
    m = _LATIN_TOKEN_RE.fullmatch(token)
    if m is None:
        return None
    return _latin_term(token, lang, True) if m.lastgroup == "word" else token


def _latin_terms(tokens: list[str], lang: str, memo: TermMemo | None = None
                 ) -> list[str | None]:
    """The term of each token (None for a piece of text that is not one token), through the
    table of `lang` in `memo` (default: a new one), which analyses only the tokens new to it."""
    return list(map((memo or TermMemo()).table(lang).__getitem__, tokens))


#: The ASCII characters in no Latin token (all but letters, digits and the separators . , '
#: that join one between word characters), each to a space: as a `bytes.translate` table of
#: UTF-8, which changes only ASCII characters (every byte of a longer character is >= 0x80),
#: and fast on any text, where `str.translate` is fast only on ASCII.
_ASCII_CUTS = bytes.maketrans(
    bytes(cuts := [c for c in range(128) if not chr(c).isalnum() and chr(c) not in ".,'"]),
    b" " * len(cuts),
)
#: Characters that never begin or end a Latin token, stripped from the ends of each piece of
#: text between cuts: the separators, and the commonest non-ASCII quotes, dashes and signs.
_PIECE_ENDS = ".,'’«»‘“”„–—…§°·"


def _latin_words(text: str, lang: str, memo: TermMemo | None = None
                 ) -> tuple[list[str], list[str]]:
    """(terms, tokens as written) of Latin-script `text`: the matches of `_LATIN_TOKEN_RE` and
    their terms. Tokens hold no whitespace and no character of `_ASCII_CUTS`, so they are those
    of the pieces of text between such characters, in order; a piece stripped of `_PIECE_ENDS`
    that is one whole token (its term is not None) is its only token, found by string methods;
    the regex cuts the others. `memo`: the terms of tokens already met (default: none)."""
    memo = memo or TermMemo()
    utf8 = text.encode(errors="surrogatepass")
    cut = utf8.translate(_ASCII_CUTS).decode(errors="surrogatepass")
    pieces = list(filter(None, map(str.strip, cut.split(), repeat(_PIECE_ENDS))))
    terms = _latin_terms(pieces, lang, memo)
    if None not in terms:
        return terms, pieces  # type: ignore[return-value]
    written = list(chain.from_iterable(
        [m.group() for m in _LATIN_TOKEN_RE.finditer(piece)] if term is None else (piece,)
        for piece, term in zip(pieces, terms)))
    return _latin_terms(written, lang, memo), written  # type: ignore[return-value]


# --- public ----------------------------------------------------------------------------


def analyse(text: str, lang: str) -> list[Token]:
    """Analyse `text` of language `lang` into the tokens an index holds.

    >>> [t.term for t in analyse("Tributação dos dividendos", "pt")]
    ['tribut', 'dos', 'dividend']
    """
    if not text:
        return []
    pol = policy(lang)
    if pol is not None and pol.tokenizer == "jieba":
        return [Token(*t) for t in zh_tuples(text)]
    return _analyse_latin(text, lang)


def index_terms(text: str, lang: str, memo: TermMemo | None = None) -> IndexTerms:
    """The terms and positions of `analyse(text, lang)`, without the Token objects and
    offsets an index does not need: the fast path of an index build. `memo`: the terms of
    the tokens met so far in this run (a new one when None).

    >>> index_terms("Tributação dos dividendos", "pt")
    IndexTerms(terms=['tribut', 'dos', 'dividend'], positions=None, written=['Tributação', \
'dos', 'dividendos'])
    """
    if not text:
        return IndexTerms([], None, [])
    pol = policy(lang)
    if pol is not None and pol.tokenizer == "jieba":
        terms, positions = zh_index_terms(text)
        ordinal = positions == list(range(len(positions)))
        return IndexTerms(terms, None if ordinal else positions, None)
    terms, written = _latin_words(text, lang, memo)
    return IndexTerms(terms, None, written)


def analyse_query_term(term: str, lang: str) -> list[Token]:
    """Analyse one query word or phrase exactly as indexed text is analysed, so they meet.

    Several tokens come back for a hyphenated word, a phrase or a run of Chinese; Chinese
    search-mode sub-words share the position of their word."""
    return analyse(term, lang)


def normalise_term(term: str, lang: str) -> str:
    """Lower case and accent folding without stemming (for prefix and fuzzy queries and
    spelling suggestions); Chinese: NFKC and Traditional→Simplified."""
    pol = policy(lang)
    if pol is not None and pol.tokenizer == "jieba":
        return zh_normalise(term)[0].lower()
    if has_han(term):
        return term
    return "".join(
        _latin_term(w, lang, False) if w.strip() else w for w in re.split(r"(\s+)", term)
    )
