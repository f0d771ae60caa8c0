"""The Chinese analyser: NFKC, Traditional→Simplified (OpenCC ``t2s``), then jieba's search
mode (rjieba: the same dictionary and output, much faster; jieba as a fallback), loaded
lazily. Never unidecode (it would turn Chinese into pinyin).

Positions are token ordinals, for phrase queries: the ordinal is that of the word of jieba's
default (precise) cut; the extra sub-words of search mode share the position of the word they
lie in, so a phrase of precise words matches whether or not the index also holds the
sub-words. Offsets are those of the input text, whatever normalising changed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from operator import itemgetter

from indexer.hanzi import t2s as _t2s
from indexer.hanzi import t2s_markers as _t2s_markers

__all__ = ["TokenTuple", "has_han", "zh_backend", "zh_index_terms", "zh_normalise", "zh_tuples"]

#: A token as a plain tuple: (term, pos, start, end).
TokenTuple = tuple[str, int, int, int]

#: The CJK ideograph blocks (as a regex character-class body).
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"
_HAN_RE = re.compile(f"[{CJK}]")
_ALNUM_RE = re.compile(r"[^\W_]")


def has_han(text: str) -> bool:
    """True when `text` contains a CJK ideograph."""
    return _HAN_RE.search(text) is not None


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


def zh_normalise(text: str) -> tuple[str, Sequence[int]]:
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
    for word, s, e in reversed(_joined_latin(tokenize(norm, "search"))):
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


def _joined_latin(tokens: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """jieba's tokens with the pieces it cuts a Latin word into at a letter outside ASCII
    ("Pensões" -> "Pens", "õ", "es") joined again: one word, as a query for it is read."""
    out: list[tuple[str, int, int]] = []
    for word, s, e in tokens:
        if out and out[-1][2] == s and _LATIN_WORD.fullmatch(word) \
                and _LATIN_WORD.fullmatch(out[-1][0]):
            prev, ps, _pe = out.pop()
            out.append((prev + word, ps, e))
        else:
            out.append((word, s, e))
    return out


_LATIN_WORD = re.compile(r"[^\W\d_\u3400-\u9fff\uf900-\ufaff]+")


def _zh_words(norm: str) -> list[tuple[int, int, int, str]]:
    """The (sub-)words jieba's search mode cuts from Chinese `norm`, in its order, as (pos,
    start, end, term): pos is the number of the precise (default-mode) word each lies in,
    start and end are offsets in `norm`."""
    backwards, n = _zh_search_words(norm)
    return [(n - k, s, e, term) for s, e, k, term in reversed(backwards)]


def zh_tuples(text: str) -> list[TokenTuple]:
    """The tokens of Chinese `text` as (term, pos, start, end) tuples, in (pos, start, end)
    order; offsets in `text`."""
    norm, src = zh_normalise(text)
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


def zh_index_terms(text: str) -> tuple[list[str], list[int]]:
    """The terms and positions of `zh_tuples`, in its order, without the offsets an index
    does not need. When normalising kept every character one character, offsets in the
    normalised text are those in `text`, so they order the tokens alike and are not mapped."""
    norm, src = zh_normalise(text)
    if not isinstance(src, range):
        tokens = zh_tuples(text)
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


