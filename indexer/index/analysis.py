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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import chain, repeat
from operator import itemgetter
from typing import NamedTuple

from indexer.policy import policy

__all__ = [
    "IndexTerms",
    "Token",
    "TokenTuple",
    "analyse",
    "analyse_query_term",
    "has_han",
    "index_terms",
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


#: A `Token` as a plain tuple: (term, pos, start, end).
TokenTuple = tuple[str, int, int, int]


class IndexTerms(NamedTuple):
    """The tokens of `analyse` as an index needs them (no offsets): what `index_terms`
    returns."""

    terms: list[str]  # each token's term, in the order of `analyse`
    positions: list[int] | None  # each token's position; None when they are 0, 1, 2, ...
    written: list[str] | None  # each token as written in the text (None for Chinese)


_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
_HAN_RE = re.compile(f"[{_CJK}]")
# A word character that is not CJK; combining accents (decomposed input) stay in the word.
_WCH = rf"(?:[^\W_{_CJK}]|[\u0300-\u036f])"


def _latin_token_re(wch: str, named: bool) -> re.Pattern[str]:
    """The regex of Latin-script tokens whose word characters are `wch`. `named`: each
    alternative is a group named by its kind; else there are no groups, so that `findall`
    gives the tokens as written. Runs of characters are possessive (they never give one
    back, so the matches are those of plain ``+``, found without backtracking). The repeated
    groups end their alternative, so nothing after them can fail and make them give one back:
    they are plain greedy, since a possessive group (``(?:...)*+``) matches wrongly on Python
    3.11.0 to 3.11.4, e.g. taking the quote of "Directors’ fees" into the word (CPython
    gh-106052)."""
    alternatives = (
        ("cjk", rf"[{_CJK}]++"),  # a CJK run inside Latin text: kept verbatim, never unidecoded
        ("num", r"\d++(?:[.,]\d++)+"),  # 1.000 / 10,5 / 2.1: one token, separators kept
        ("word", rf"{wch}++(?:['’]{wch}++)*"),  # words, with inner apostrophes (State's)
    )
    return re.compile("|".join(f"(?P<{kind}>{rx})" if named else rx
                               for kind, rx in alternatives))


_LATIN_TOKEN_RE = _latin_token_re(_WCH, named=True)
_LATIN_WORDS_RE = _latin_token_re(_WCH, named=False)
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


#: Most tokens a language's table of token -> term holds (it is emptied when full).
_TERMS_MAX = 200_000
_term_tables: dict[str, dict[str, str]] = {}


def _token_term(token: str, lang: str) -> str | None:
    """The term `_analyse_latin` makes of `token`, one match of `_LATIN_TOKEN_RE` (the
    alternative that matches a token alone is the one that matched it in its text); None when
    `token` is not one whole token (a piece of text for `_latin_words`)."""
    m = _LATIN_TOKEN_RE.fullmatch(token)
    if m is None:
        return None
    return _latin_term(token, lang, True) if m.lastgroup == "word" else token


def _latin_terms(tokens: list[str], lang: str) -> list[str | None]:
    """The term of each token (None for a piece of text that is not one token), through a
    per-language table: only the tokens new to it are analysed, one by one (and only when
    there are some is the set of them made)."""
    table = _term_tables.setdefault(lang, {})
    try:
        return list(map(table.__getitem__, tokens))
    except KeyError:
        pass
    new = set(tokens).difference(table)
    if len(table) + len(new) > _TERMS_MAX:
        table.clear()
        new = set(tokens)
    for token in new:
        table[token] = _token_term(token, lang)
    return list(map(table.__getitem__, tokens))


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


def _latin_words(text: str, lang: str) -> tuple[list[str], list[str]]:
    """(terms, tokens as written) of Latin-script `text`: `_LATIN_WORDS_RE.findall(text)` and
    their terms. Tokens hold no whitespace and no character of `_ASCII_CUTS`, so they are those
    of the pieces of text between such characters, in order; a piece stripped of `_PIECE_ENDS`
    that is one whole token (its term is not None) is its only token, found by string methods;
    the regex cuts the others."""
    utf8 = text.encode(errors="surrogatepass")
    cut = utf8.translate(_ASCII_CUTS).decode(errors="surrogatepass")
    pieces = list(filter(None, map(str.strip, cut.split(), repeat(_PIECE_ENDS))))
    terms = _latin_terms(pieces, lang)
    if None not in terms:
        return terms, pieces  # type: ignore[return-value]
    written = list(chain.from_iterable(
        _LATIN_WORDS_RE.findall(piece) if term is None else (piece,)
        for piece, term in zip(pieces, terms)))
    return _latin_terms(written, lang), written  # type: ignore[return-value]


# --- Chinese ---------------------------------------------------------------------------


@cache
def _t2s() -> Callable[[str], str]:
    from opencc import OpenCC  # lazy

    return OpenCC("t2s").convert


@cache
def _t2s_markers() -> frozenset[str] | None:
    """One character of every entry of the t2s dictionaries that converts to something else
    (a character that itself converts, if the entry has one): text with none of them holds
    no such entry, so it is its own conversion (most of a Simplified corpus). None when the
    converter's tables are not where this version keeps them: then every text is converted."""
    from opencc import OpenCC

    try:
        cc = OpenCC("t2s")
        cc.convert("a")
        changing = [
            key
            for group in cc._dict_chain_data  # a private table: read only, guarded below
            for _max_len, _min_len, table in group
            for key, value in table.items()
            if key != value
        ]
        singles = {key for key in changing if len(key) == 1}
        return frozenset(next((c for c in key if c in singles), key[0]) for key in changing)
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


class _NFKCTable(dict[int, str]):
    """A `str.translate` table: each character's NFKC form, filled in as characters come."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        form = self[code] = unicodedata.normalize("NFKC", ch) if not ch.isascii() else ch
        return form


_NFKC = _NFKCTable()


def _zh_normalise(text: str) -> tuple[str, Sequence[int]]:
    """NFKC (character by character) and Traditional→Simplified, with a map from each output
    character to the index of the input character it came from (so offsets can be reported
    in the input)."""
    norm = text.translate(_NFKC)
    src: Sequence[int]
    if len(norm) == len(text):  # no character became several: the map is the identity
        src = range(len(text))
    else:
        out: list[str] = []
        src = []
        for i, ch in enumerate(text):
            n = _NFKC[ord(ch)]
            out.append(n)
            src.extend([i] * len(n))
        norm = "".join(out)
    if has_han(norm) and ((marks := _t2s_markers()) is None or not marks.isdisjoint(norm)):
        conv = _t2s()(norm)
        if len(conv) == len(norm):
            norm = conv
        else:  # a phrase mapping changed the length: convert char by char to keep offsets
            t2s = _t2s()
            norm = "".join(c if len(s := t2s(c)) != 1 else s for c in norm)
    return norm, src


def _zh_search_words(norm: str) -> tuple[list[tuple[int, int, int, str]], int]:
    """The (sub-)words jieba's search mode cuts from Chinese `norm` that have a term, last
    first, as (start, end, k, term) — start and end are offsets in `norm`, k the number of the
    precise (default-mode) word each lies in counted from the last such word with a term (1)
    — and the number of those precise words.

    One call of the segmenter does: search mode is the default cut in which each word longer
    than two characters is preceded by the dictionary's 2- and 3-grams inside it (jieba and
    jieba-rs alike). So, read backwards, a token that ends at or before the start of the
    precise word met last is the precise word before it; any other token lies inside that
    word, after whose start it ends. A sub-word has a letter or digit only if its word has,
    so the words without a term carry no sub-word with one."""
    _, tokenize = _zh_tokenizer()
    backwards: list[tuple[int, int, int, str]] = []
    word_start = len(norm)  # start of the precise word met last, reading backwards
    n = 0  # the precise words with a term met so far, reading backwards
    for word, s, e in reversed(tokenize(norm, "search")):
        term = _zh_term(word)
        if e <= word_start:  # a precise word
            word_start = s
            if term is None:
                continue
            n += 1
        elif term is None:
            continue
        backwards.append((s, e, n, term))
    return backwards, n


def _zh_words(norm: str) -> list[tuple[int, int, int, str]]:
    """The (sub-)words jieba's search mode cuts from Chinese `norm`, in its order, as (pos,
    start, end, term): pos is the number of the precise (default-mode) word each lies in,
    start and end are offsets in `norm`."""
    backwards, n = _zh_search_words(norm)
    return [(n - k, s, e, term) for s, e, k, term in reversed(backwards)]


def _zh_tuples(text: str) -> list[TokenTuple]:
    """`_analyse_zh` as (term, pos, start, end) tuples."""
    norm, src = _zh_normalise(text)
    if not norm:
        return []

    if not has_han(norm):
        # No Chinese at all (a number, a Latin name): words, lower case, no folding, no jieba.
        return [
            (m.group().lower(), pos, src[m.start()], src[m.end() - 1] + 1)
            for pos, m in enumerate(_ZH_LATIN_RE.finditer(norm))
        ]
    tokens = [(term, i, src[s], src[e - 1] + 1) for i, s, e, term in _zh_words(norm)]
    tokens.sort(key=_ZH_ORDER)
    return tokens


def _zh_index_terms(text: str) -> tuple[list[str], list[int]]:
    """The terms and positions of `_zh_tuples`, in its order, without the offsets an index
    does not need. When normalising kept every character one character, offsets in the
    normalised text are those in `text`, so they order the tokens alike and are not mapped."""
    norm, src = _zh_normalise(text)
    if not isinstance(src, range):
        tokens = _zh_tuples(text)
        return [t[0] for t in tokens], [t[1] for t in tokens]
    if not has_han(norm):
        terms = [m.group().lower() for m in _ZH_LATIN_RE.finditer(norm)]
        return terms, list(range(len(terms)))
    keyed, n = _zh_search_words(norm)  # (start, end, k, term); pos = n - k
    # Sorted by (start, end), which is the order of _ZH_ORDER: a word's pos grows with its
    # start (precise words do not overlap and hold their sub-words). Equal (start, end): the
    # same word, so the same term.
    keyed.sort()
    return [k[3] for k in keyed], [n - k[2] for k in keyed]


_ZH_LATIN_RE = re.compile(r"\d+(?:[.,]\d+)+|[^\W_]+")
_ZH_ORDER = itemgetter(1, 2, 3)  # (pos, start, end)


@lru_cache(maxsize=65536)
def _zh_term(word: str) -> str | None:
    """The term of a word jieba cut (lower case), None for one without letters or digits."""
    return word.lower() if _ALNUM_RE.search(word) else None


def _analyse_zh(text: str) -> list[Token]:
    return [Token(*t) for t in _zh_tuples(text)]


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


def index_terms(text: str, lang: str) -> IndexTerms:
    """The terms and positions of `analyse(text, lang)`, without the Token objects and
    offsets an index does not need: the fast path of an index build.

    >>> index_terms("Tributação dos dividendos", "pt")
    IndexTerms(terms=['tribut', 'dos', 'dividend'], positions=None, written=['Tributação', \
'dos', 'dividendos'])
    """
    if not text:
        return IndexTerms([], None, [])
    pol = policy(lang)
    if pol is not None and pol.tokenizer == "jieba":
        terms, positions = _zh_index_terms(text)
        ordinal = positions == list(range(len(positions)))
        return IndexTerms(terms, None if ordinal else positions, None)
    terms, written = _latin_words(text, lang)
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
        return _zh_normalise(term)[0].lower()
    if has_han(term):
        return term
    return "".join(
        _latin_term(w, lang, False) if w.strip() else w for w in re.split(r"(\s+)", term)
    )
