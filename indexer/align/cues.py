"""Cues: what the evidence uses of a unit's text — its word types (folded stems; Han
characters for Chinese) and the numbers it carries (digits, percentages, years, article
cross-references in arabic, roman or Chinese numerals, small number words).

`TextCues` computes them once per text: one is made per treaty (`align_versions`) and passed
down with the treaty's segments. The words of a token are a pure function of it, memoised
for every text (`_token_words_of`)."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache, partial
from itertools import chain
from operator import itemgetter
from typing import NamedTuple

from indexer.models import Unit

_NUMBER_WORDS = {
    "en": "two three four five six seven eight nine ten eleven twelve",
    "sv": "två tre fyra fem sex sju åtta nio tio elva tolv",
    "pt": "dois três quatro cinco seis sete oito nove dez onze doze",
}
_WORD_VALUES = {lang: {w: str(i) for i, w in enumerate(words.split(), 2)}
                for lang, words in _NUMBER_WORDS.items()}
_WORD_VALUES["pt"]["duas"] = "2"
# (``\d\d*`` rather than ``\d+``: a pattern that starts with a character class lets sre skip
# to the next digit quickly)
_DIGITS_RE = re.compile(r"\d\d*(?:[.,  ]\d{3})*(?:[.,]\d+)?")
# an article cross-reference with a roman number, found from the "rt" of "Article"/"art."
# (a literal prefix makes the search fast); `_count_numbers` checks the letter before it: an "A"
# or "a" that starts a word, as ``\b[Aa]`` would
_ROMAN_REF_RE = re.compile(r"rt(?:i(?:cles?|gos?|keln?|klarna|klar)|\.)\s+([IVXL]{1,6})\b")
_NON_DIGIT_RE = re.compile(r"\D")
_CN_NUM_RE = re.compile(r"[〇零一二两三四五六七八九十百千]+")
_WORD_RE = re.compile(r"[^\W\d_]{3,}")
# a number word not followed by a letter; `_token_numbers` checks that none comes before it
# either, so that it is a whole word of _WORD_RE (a look-behind here would make the search slow)
_NUMBER_WORD_RE = {lang: re.compile("(?:" + "|".join(values) + r")(?![^\W\d_])")
                   for lang, values in _WORD_VALUES.items()}
_LETTER_RE = re.compile(r"[^\W\d_]")
_WORD_CHAR_RE = re.compile(r"\w")


def _roman(s: str) -> int | None:
    from indexer.segment.numerals import parse_roman

    return parse_roman(s)


def numbers(text: str, lang: str) -> Counter:
    """The numbers a text carries, as strings without separators (a multiset)."""
    words = None
    if lang in _WORD_VALUES:
        # number words are words (runs of letters), so they are those of the whitespace-
        # delimited tokens, in text order
        words = chain.from_iterable(_token_numbers(t, lang) for t in text.split())
    return Counter(_count_numbers(text, lang, words))


def _count_numbers(text: str, lang: str, words: Iterable[str] | None) -> dict[str, int]:
    """`numbers` as a plain dict (number -> count, in the order a Counter would have them);
    `words` are the values of the text's number words in text order (None in a language
    without number words)."""
    out: dict[str, int] = {}
    for m in _DIGITS_RE.finditer(text):
        digits = m.group()
        if not digits.isdecimal():  # \d is a decimal digit
            digits = _NON_DIGIT_RE.sub("", digits)
        digits = digits.lstrip("0") or "0"
        out[digits] = out.get(digits, 0) + 1
    for m in _ROMAN_REF_RE.finditer(text):
        start = m.start() - 1  # the "A" of "Article"
        if start < 0 or text[start] not in "Aa" or (start and _WORD_CHAR_RE.match(text, start - 1)):
            continue
        value = _roman(m.group(1))
        if value:
            value = str(value)
            out[value] = out.get(value, 0) + 1
    if lang == "zh":
        from indexer.segment.numerals import parse_chinese

        for m in _CN_NUM_RE.finditer(text):
            value = parse_chinese(m.group())
            if value is not None:
                value = str(value)
                out[value] = out.get(value, 0) + 1
    if words is not None:
        for value in words:
            out[value] = out.get(value, 0) + 1
    return out


def _token_numbers(token: str, lang: str) -> tuple[str, ...]:
    """The values of the number words of one token (no whitespace in it, and whitespace is
    not a letter: its words are whole words of the text, and lowering it lowers them as
    lowering the text would)."""
    words = _WORD_VALUES[lang]
    low = token.lower()
    return tuple(words[m.group()] for m in _NUMBER_WORD_RE[lang].finditer(low)
                 if not (m.start() and _LETTER_RE.match(low, m.start() - 1)))


def _fold(word: str) -> str:
    if word.isascii():  # nothing to decompose
        return word.lower()
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower())
                   if not unicodedata.combining(c))


@cache
def _stemmer(lang: str):
    import snowballstemmer

    names = {"en": "english", "sv": "swedish", "pt": "portuguese"}
    return snowballstemmer.stemmer(names[lang]) if lang in names else None


def _stem(word: str, lang: str) -> str:
    stem = _stemmer(lang)
    return stem.stemWord(word) if stem is not None else word


@lru_cache(maxsize=200_000)
def _word_type(word: str, lang: str) -> str:
    """The folded stem of one word, "" when it is shorter than 3 letters (a pure function of
    the word, bounded: words repeat across tokens and treaties, and folding and stemming cost
    more than the lookup)."""
    stem = _stem(_fold(word), lang)
    return stem if len(stem) >= 3 else ""


def _token_words(token: str, lang: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The types of the words of one whitespace-delimited token ("dividends,", "(a)") in
    order, and the values of its number words (() in a language without them). Whitespace
    is not a word character, so the words of a text are those of its tokens."""
    types = []
    for word in _WORD_RE.findall(token):
        t = _word_type(word, lang)
        if t:
            types.append(t)
    return tuple(types), _token_numbers(token, lang) if lang in _WORD_VALUES else ()


@cache
def _token_words_of(lang: str) -> Callable[[str], tuple[tuple[str, ...], tuple[str, ...]]]:
    """`_token_words` in language `lang`, as a function of the token, memoised (a pure
    function, bounded: tokens repeat across texts and treaties, and a memo of one argument
    is looked up fastest)."""
    return lru_cache(maxsize=200_000)(partial(_token_words, lang=lang))


_TYPES, _WORDS = itemgetter(0), itemgetter(1)


def _types_and_words(text: str, lang: str, split: Sequence[str]
                     ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The word types of a text in text order, repeats kept: folded stems of 3 letters or more
    (Han characters for Chinese); and the values of its number words in text order (() in a
    language without them). `split` is ``text.split()``."""
    if lang == "zh":
        return tuple(c for c in text if "\u4e00" <= c <= "\u9fff"), ()
    found = list(map(_token_words_of(lang), split))
    types = tuple(chain.from_iterable(map(_TYPES, found)))
    if lang not in _WORD_VALUES:
        return types, ()
    return types, tuple(chain.from_iterable(map(_WORDS, found)))


def _numbers_of(pieces: Sequence[str], lang: str) -> list[tuple[str, ...]]:
    """The values of the number words of each of tokens `pieces`."""
    return list(map(_WORDS, map(_token_words_of(lang), pieces)))


class Cues(NamedTuple):
    """What the evidence uses of one unit's text (see `Segments.segment`)."""

    types: tuple[str, ...]  # the word types of the text, in order (`_types_and_words`)
    toks: frozenset[str]  # the same as a set, built in that order
    by_prefix: dict[str, frozenset[str]]  # 5-letter prefix -> the types of `toks` with it
    nums: dict[str, int]  # `numbers` of the text without its label (not to be changed)
    length: int  # characters other than whitespace (str.isspace, as regex \s)
    split: list[str]  # the text's whitespace-delimited tokens (not to be changed)
    # the values of the number words of `split`, in order (() in languages without them)
    words: tuple[str, ...] = ()


class TextCues:
    """The cues of the texts of one treaty, each computed once whichever pairs and passes use
    them."""

    def __init__(self) -> None:
        self._cues: dict[tuple[str, str], Cues] = {}  # (text, lang) -> its cues

    def tokens(self, text: str, lang: str) -> frozenset[str]:
        """Word types for the lexical cue: folded stems (Han characters for Chinese)."""
        return self.cues(text, lang).toks

    def cues(self, text: str, lang: str) -> Cues:
        """The cues of a text, computed once."""
        got = self._cues.get((text, lang))
        if got is None:
            got = self._cues[text, lang] = text_cues(text, lang)
        return got

    def unit_cues(self, unit: Unit, lang: str) -> Cues:
        """`cues` of a unit's text. A text that is a head line and its children's texts
        joined by newlines (an article and its paragraphs, a paragraph and its points) has the
        tokens and word types of the head's followed by the children's (whitespace is no part
        of a token), so they are put together from the children's cues rather than looked up
        again; the rest is computed from them as `text_cues` does, and the cues are the
        same."""
        key = (unit.text, lang)
        got = self._cues.get(key)
        if got is not None:
            return got
        kids = [self.unit_cues(c, lang) for c in unit.children]
        head = _head(unit) if kids else None
        if head is None:
            return self.cues(unit.text, lang)
        got = self._cues[key] = _composed_cues(unit.text, lang, head, kids)
        return got


def text_cues(text: str, lang: str) -> Cues:
    """The cues of a text, computed (`TextCues.cues` keeps them)."""
    split = text.split()
    types, words = _types_and_words(text, lang, split)
    return _cues_from(text, lang, split, types, words)


def _composed_cues(text: str, lang: str, head: str, kids: Sequence[Cues]) -> Cues:
    """The cues of `text`, a `head` and texts of cues `kids` joined by newlines."""
    split = head.split()
    types, words = _types_and_words(head, lang, split)
    # (the characters and number words of the head's tokens and of the children's, as
    # those of `split`)
    length = sum(map(len, split)) + sum([k.length for k in kids])
    if lang in _WORD_VALUES:
        words = tuple(chain(words, *[k.words for k in kids]))
    for k in kids:
        split += k.split
    if len(kids) == 1:
        types += kids[0].types
    else:
        types = tuple(chain(types, *[k.types for k in kids]))
    return _cues_from(text, lang, split, types, words, length)


def _cues_from(text: str, lang: str, split: list[str], types: tuple[str, ...],
               words: tuple[str, ...], length: int | None = None) -> Cues:
    """The cues of `text` from its tokens `split`, their word types and the values of
    their number words (`words`); `length` is the characters of `split` when the caller
    has them."""
    toks = frozenset(types)
    by_prefix: dict[str, frozenset[str]] = {}
    for t in toks:
        if len(t) >= 5:
            p = t[:5]
            by_prefix[p] = by_prefix[p] | _alone(t) if p in by_prefix else _alone(t)
    label = _LABEL_RE.match(text)
    own = text[label.end():] if label else text  # as `_own`
    return Cues(types, toks, by_prefix,
                _count_numbers(own, lang, _own_words(text, lang, label, split, words)),
                sum(map(len, split)) if length is None else length, split, words)


def _own_words(text: str, lang: str, label: re.Match | None, split: list[str],
               words: tuple[str, ...]) -> Iterable[str] | None:
    """The values of the number words of `text` without its `label`, from those of its
    tokens `split` (`words`); None in a language without number words."""
    if lang not in _WORD_VALUES:
        return None
    if label and not text[label.end() - 1].isspace():
        # the label ends inside a token: the tokens of the text without it, split again
        return chain.from_iterable(_numbers_of(text[label.end():].split(), lang))
    # the label ends at whitespace (regex \s, as str.split's), so the tokens of the text
    # without it are the last of `split`, and its number words the last of `words`: all
    # but those of the label's tokens
    if label and words:
        in_label = _numbers_of(split[:len(text[:label.end()].split())], lang)
        return words[sum(map(len, in_label)):]
    return words


@lru_cache(maxsize=200_000)
def _alone(t: str) -> frozenset[str]:
    """frozenset({t}), one per word type (most cognate prefixes have one type in a text; a
    pure function, bounded)."""
    return frozenset((t,))


def _head(unit: Unit) -> str | None:
    """The text of `unit` before its children's texts, when it is that head and theirs joined
    by newlines ("" without a head), else None."""
    text = unit.text
    joined = "\n".join([c.text for c in unit.children])
    if text == joined:
        return ""
    if len(text) > len(joined) and text.endswith(joined) and text[-len(joined) - 1] == "\n":
        return text[:-len(joined) - 1]
    return None


_LABEL_RE = re.compile(r"^\s*(?:§\s*)?\(?[0-9a-zA-Z]{1,4}[.)]\s*")


def _own(text: str) -> str:
    """A unit's text without its leading label ("2.", "a)", "§ 1."): labels are keys, not
    content evidence."""
    return _LABEL_RE.sub("", text, count=1)
