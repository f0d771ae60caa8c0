"""Our own analysers, one per language: the tokens every search engine indexes.

Both engines (Whoosh and tantivy) are fed the tokens made here, never their own analysis, so
they agree on hits and the highlighter can use our character offsets for every engine.

- en, pt, sv: words and numbers; lower case; accent folding with unidecode (Swedish keeps
  å/ä/ö, which are letters of their own: folding would merge ``år`` and ``är``); Snowball
  stemming. Portuguese folds *before* stemming so that ``tributação``, ``tributacao`` and the
  OCR's ``tributacäo`` meet; common folded suffixes (``-cao``, ``-coes``, ``-encia``...) are
  restored before the stemmer sees them so plurals still conflate.
- zh: NFKC, Traditional→Simplified (OpenCC ``t2s``), then jieba's search mode (rjieba, the
  same dictionary and output, much faster; jieba as a fallback), loaded lazily. Never unidecode
  (it would turn Chinese into pinyin).

Positions are token ordinals, for phrase queries. In Chinese the ordinal is that of the word of
jieba's default (precise) cut; the extra sub-words of search mode share the position of the
word they lie in, so a phrase of precise words matches whether or not the index also holds the
sub-words.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from indexer.policy import policy

__all__ = [
    "Token",
    "analyse",
    "analyse_query_term",
    "has_han",
    "normalise_term",
    "zh_backend",
]


@dataclass(frozen=True, slots=True)
class Token:
    """One analysed token: the indexed ``term``, its ordinal ``pos`` (for phrases) and its
    character span ``start:end`` in the analysed input (for highlighting)."""

    term: str
    pos: int
    start: int
    end: int


_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
_HAN_RE = re.compile(f"[{_CJK}]")
# A word character that is not CJK; combining accents (decomposed input) stay in the word.
_WCH = rf"(?:[^\W_{_CJK}]|[\u0300-\u036f])"
_LATIN_TOKEN_RE = re.compile(
    rf"(?P<cjk>[{_CJK}]+)"  # a CJK run inside Latin text: kept verbatim, never unidecoded
    r"|(?P<num>\d+(?:[.,]\d+)+)"  # 1.000 / 10,5 / 2.1: one token, separators kept
    rf"|(?P<word>{_WCH}+(?:['’]{_WCH}+)*)"  # words, with inner apostrophes (State's)
)
_ALNUM_RE = re.compile(r"[^\W_]")

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


def has_han(text: str) -> bool:
    """True when `text` contains a CJK ideograph."""
    return _HAN_RE.search(text) is not None


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


# --- Chinese ---------------------------------------------------------------------------


@cache
def _t2s() -> Callable[[str], str]:
    from opencc import OpenCC  # lazy

    return OpenCC("t2s").convert


@cache
def _t2s_chars() -> frozenset[str] | None:
    """Every character in a key of the t2s dictionaries: text with none of them needs no
    conversion (most of a Simplified corpus). None when the converter's tables are not where
    this version keeps them: then every text is converted."""
    from opencc import OpenCC

    try:
        cc = OpenCC("t2s")
        cc.convert("a")
        chars: set[str] = set()
        for group in cc._dict_chain_data:  # a private table: read only, guarded below
            for _max_len, _min_len, table in group:
                chars.update(*table)
        return frozenset(chars)
    except (AttributeError, TypeError, ValueError):  # pragma: no cover - another layout
        return None


@cache
def _zh_tokenizer() -> tuple[str, Callable[[str, str], list[tuple[str, int, int]]]]:
    """(name, tokenize(text, mode)) where mode is "default" or "search"."""
    try:
        import rjieba  # lazy: the dictionary costs time, load only when Chinese is analysed

        def tok(text: str, mode: str) -> list[tuple[str, int, int]]:
            return rjieba.tokenize(text, mode=mode)

        return "rjieba", tok
    except ImportError:  # pragma: no cover - rjieba is a dependency; jieba is the fallback
        import logging

        import jieba

        jieba.setLogLevel(logging.WARNING)

        def tok(text: str, mode: str) -> list[tuple[str, int, int]]:
            return list(jieba.tokenize(text, mode=mode))

        return "jieba", tok


def zh_backend() -> str:
    """Name of the Chinese segmenter in use ("rjieba" or "jieba"); loads it."""
    return _zh_tokenizer()[0]


def _zh_normalise(text: str) -> tuple[str, list[int]]:
    """NFKC and Traditional→Simplified, with a map from each output character to the index of
    the input character it came from (so offsets can be reported in the input)."""
    out: list[str] = []
    src: list[int] = []
    for i, ch in enumerate(text):
        n = unicodedata.normalize("NFKC", ch) if not ch.isascii() else ch
        out.append(n)
        src.extend([i] * len(n))
    norm = "".join(out)
    if has_han(norm) and ((keys := _t2s_chars()) is None or not keys.isdisjoint(norm)):
        conv = _t2s()(norm)
        if len(conv) == len(norm):
            norm = conv
        else:  # a phrase mapping changed the length: convert char by char to keep offsets
            t2s = _t2s()
            norm = "".join(c if len(s := t2s(c)) != 1 else s for c in norm)
    return norm, src


def _analyse_zh(text: str) -> list[Token]:
    norm, src = _zh_normalise(text)
    if not norm:
        return []

    def span(s: int, e: int) -> tuple[int, int]:
        return src[s], src[e - 1] + 1

    if not has_han(norm):
        # No Chinese at all (a number, a Latin name): words, lower case, no folding, no jieba.
        return [
            Token(m.group().lower(), pos, *span(m.start(), m.end()))
            for pos, m in enumerate(re.finditer(r"\d+(?:[.,]\d+)+|[^\W_]+", norm))
        ]
    _, tokenize = _zh_tokenizer()
    words = [w for w in tokenize(norm, "default") if _ALNUM_RE.search(w[0])]
    starts = [w[1] for w in words]
    ends = [w[2] for w in words]
    tokens: list[Token] = []
    for term, s, e in tokenize(norm, "search"):
        if not _ALNUM_RE.search(term):
            continue
        i = bisect_right(starts, s) - 1  # the precise word this (sub-)word lies in
        if i < 0 or e > ends[i]:
            continue  # pragma: no cover - search mode only splits precise words
        tokens.append(Token(term.lower(), i, *span(s, e)))
    tokens.sort(key=lambda t: (t.pos, t.start, t.end))
    return tokens


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
        return _analyse_zh(text)
    return _analyse_latin(text, lang)


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
        return _zh_normalise(term)[0].lower()
    if has_han(term):
        return term
    return "".join(
        _latin_term(w, lang, False) if w.strip() else w for w in re.split(r"(\s+)", term)
    )
