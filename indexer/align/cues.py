"""Cues: what the evidence uses of a unit's text — its word types (folded stems; Han
characters for Chinese) and the numbers it carries (digits, percentages, years, article
cross-references in arabic, roman or Chinese numerals, small number words)."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
from itertools import chain
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
# (a literal prefix makes the search fast); `_numbers` checks the letter before it: an "A"
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
    from indexer.numerals import parse_roman

    return parse_roman(s)


def numbers(text: str, lang: str) -> Counter:
    """The numbers a text carries, as strings without separators (a multiset)."""
    return Counter(_numbers(text, lang))


@lru_cache(maxsize=65536)
def _numbers(text: str, lang: str) -> dict[str, int]:
    """`numbers` as a plain dict (number -> count, in the order a Counter would have them;
    cached: not to be changed)."""
    return _count_numbers(text, lang)


def _count_numbers(text: str, lang: str, words: Iterable[str] | None = None
                   ) -> dict[str, int]:
    """`_numbers`, uncached; `words` are the values of the text's number words in text order
    when the caller has them (see `_cues`)."""
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
        from indexer.numerals import parse_chinese

        for m in _CN_NUM_RE.finditer(text):
            value = parse_chinese(m.group())
            if value is not None:
                value = str(value)
                out[value] = out.get(value, 0) + 1
    if lang in _WORD_VALUES:
        if words is None:
            # number words are words (runs of letters), so they are those of the whitespace-
            # delimited tokens, in text order
            words = chain.from_iterable(
                _per_token(_TOKEN_NUMBERS[lang], text.split(), _token_numbers, lang))
        for value in words:
            out[value] = out.get(value, 0) + 1
    return out


#: lang -> whitespace-delimited token -> the values of its number words, in order (a
#: per-token cache, emptied like _TOKEN_TYPES)
_TOKEN_NUMBERS: defaultdict[str, dict[str, tuple[str, ...]]] = defaultdict(dict)
#: lang -> the tokens of _TOKEN_TYPES[lang] with number words -> their values (as
#: _TOKEN_NUMBERS; filled as _TOKEN_TYPES is and emptied with it: a token of _TOKEN_TYPES
#: not in it has none)
_NUMBER_TOKENS: defaultdict[str, dict[str, tuple[str, ...]]] = defaultdict(dict)


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


@lru_cache(maxsize=200_000)
def _stem(word: str, lang: str) -> str:
    stem = _stemmer(lang)
    return stem.stemWord(word) if stem is not None else word


def _word_type(word: str, lang: str) -> str:
    """The folded stem of one word, "" when it is shorter than 3 letters."""
    stem = _stem(_fold(word), lang)
    return stem if len(stem) >= 3 else ""


#: lang -> word -> `_word_type` (a per-word cache: folding and stemming cost more than the
#: lookup; emptied when it reaches WORD_TYPES_MAX words)
_WORD_TYPES: defaultdict[str, dict[str, str]] = defaultdict(dict)
WORD_TYPES_MAX = 200_000
#: lang -> whitespace-delimited token ("dividends,", "(a)") -> the types of its words, in
#: order (a per-token cache, emptied like _WORD_TYPES: looking up the tokens of a text costs
#: less than running _WORD_RE over it)
_TOKEN_TYPES: defaultdict[str, dict[str, tuple[str, ...]]] = defaultdict(dict)


def _types(text: str, lang: str, split: Sequence[str] | None = None) -> tuple[str, ...]:
    """The word types of a text in text order, repeats kept: folded stems of 3 letters or more
    (Han characters for Chinese). `split` is ``text.split()`` when the caller has it."""
    if lang == "zh":
        return tuple(c for c in text if "\u4e00" <= c <= "\u9fff")
    # whitespace is not a word character, so the words of a text are those of its tokens
    pieces = text.split() if split is None else split
    known = _TOKEN_TYPES[lang]
    if len(known) > WORD_TYPES_MAX:  # (before `_per_token` would, to empty both together)
        known.clear()
        _NUMBER_TOKENS[lang].clear()
    return tuple(chain.from_iterable(_per_token(known, pieces, _token_types, lang)))


def _token_types(token: str, lang: str) -> tuple[str, ...]:
    """`_word_types` of one token, noting its number words in _NUMBER_TOKENS if it has any."""
    if lang in _WORD_VALUES:
        values = _token_numbers(token, lang)
        if values:
            _NUMBER_TOKENS[lang][token] = values
    return _word_types(token, lang)


def _per_token(known: dict[str, tuple[str, ...]], pieces: Sequence[str],
               compute: Callable[[str, str], tuple[str, ...]], lang: str
               ) -> list[tuple[str, ...]]:
    """`compute(piece, lang)` of every piece, through the per-token cache `known` (emptied
    when it holds more than WORD_TYPES_MAX tokens)."""
    found = list(map(known.get, pieces))
    if None in found:
        if len(known) > WORD_TYPES_MAX:
            known.clear()
        for i, f in enumerate(found):
            if f is None:
                piece = pieces[i]
                f = known.get(piece)  # a repeat of a piece computed just now
                if f is None:
                    f = known[piece] = compute(piece, lang)
                found[i] = f
    return found


def _word_types(text: str, lang: str) -> tuple[str, ...]:
    """The types of the words of `text` (as `_types`, not for Chinese)."""
    known = _WORD_TYPES[lang]
    if len(known) > WORD_TYPES_MAX:
        known.clear()
    types = []
    for word in _WORD_RE.findall(text):
        t = known.get(word)
        if t is None:
            t = known[word] = _word_type(word, lang)
        if t:
            types.append(t)
    return tuple(types)


def tokens(text: str, lang: str) -> frozenset[str]:
    """Word types for the lexical cue: folded stems (Han characters for Chinese); from the
    cached `_cues` of the text."""
    return _cues(text, lang).toks


class _Cues(NamedTuple):
    """What the evidence uses of one unit's text (see `_segment_of`)."""

    types: tuple[str, ...]  # `_types`, in text order
    toks: frozenset[str]  # the same as a set, built in that order
    by_prefix: dict[str, frozenset[str]]  # 5-letter prefix -> the types of `toks` with it
    nums: dict[str, int]  # `numbers` of the text without its label (not to be changed)
    length: int  # characters other than whitespace (str.isspace, as regex \s)
    split: list[str]  # the text's whitespace-delimited tokens (not to be changed)
    # the values of the number words of `split`, in order (() in languages without them)
    words: tuple[str, ...] = ()


#: (text, lang) -> its `_Cues` (emptied per treaty by `align_versions`, and when it holds
#: more than CUES_MAX texts)
_CUES: dict[tuple[str, str], _Cues] = {}
CUES_MAX = 65536


def _cues(text: str, lang: str) -> _Cues:
    """The cues of a text, computed once (cached in _CUES)."""
    got = _CUES.get((text, lang))
    return got if got is not None else _keep_cues(text, lang, _text_cues(text, lang))


def _keep_cues(text: str, lang: str, cues: _Cues) -> _Cues:
    """Keep `cues`, those of `text`, in _CUES (emptied first when full)."""
    if len(_CUES) >= CUES_MAX:
        _CUES.clear()
    _CUES[text, lang] = cues
    return cues


def _unit_cues(unit: Unit, lang: str) -> _Cues:
    """`_cues` of a unit's text. A text that is a head line and its children's texts joined
    by newlines (an article and its paragraphs, a paragraph and its points) has the tokens
    and word types of the head's followed by the children's (whitespace is no part of a
    token), so they are put together from the children's cues rather than looked up again;
    the rest is computed from them as `_text_cues` does, and the cues are the same."""
    key = (unit.text, lang)
    got = _CUES.get(key)
    if got is not None:
        return got
    text = unit.text
    kids = [_unit_cues(c, lang) for c in unit.children]
    head = None
    if kids:
        joined = "\n".join([c.text for c in unit.children])
        if text == joined:
            head = ""
        elif len(text) > len(joined) and text.endswith(joined) and \
                text[-len(joined) - 1] == "\n":
            head = text[:-len(joined) - 1]
    if head is None:
        return _cues(text, lang)
    split = head.split()
    types = _types(head, lang, split)
    # (the characters and number words of the head's tokens and of the children's, as
    # those of `split`: the head's were all looked up by `_types` just now)
    length = sum(map(len, split)) + sum([k.length for k in kids])
    words = _looked_up_words(split, lang)
    if lang in _WORD_VALUES:
        words = tuple(chain(words, *[k.words for k in kids]))
    for k in kids:
        split += k.split
    if len(kids) == 1:
        types += kids[0].types
    else:
        types = tuple(chain(types, *[k.types for k in kids]))
    return _keep_cues(text, lang, _cues_from(text, lang, split, types, words, length))


def _text_cues(text: str, lang: str) -> _Cues:
    """`_cues`, uncached."""
    split = text.split()
    return _cues_from(text, lang, split, _types(text, lang, split))


def _looked_up_words(split: Sequence[str], lang: str) -> tuple[str, ...]:
    """The values of the number words of tokens `_types` looked up just now (so that
    _NUMBER_TOKENS has those of them with number words), in order."""
    if lang not in _WORD_VALUES:
        return ()
    number_tokens = _NUMBER_TOKENS[lang]
    if number_tokens.keys().isdisjoint(split):
        return ()
    return tuple(chain.from_iterable(number_tokens[t] for t in split if t in number_tokens))


def _cues_from(text: str, lang: str, split: list[str], types: tuple[str, ...],
               words: tuple[str, ...] | None = None, length: int | None = None) -> _Cues:
    """The cues of `text` from its tokens and word types; `words` and `length` are the
    number words and characters of `split` when the caller has them, else every token was
    looked up by `_types` just now."""
    toks = frozenset(types)
    by_prefix: dict[str, frozenset[str]] = {}
    for t in toks:
        if len(t) >= 5:
            p = t[:5]
            by_prefix[p] = by_prefix[p] | _alone(t) if p in by_prefix else _alone(t)
    label = _LABEL_RE.match(text)
    own = text[label.end():] if label else text  # as `_own`
    if words is None:
        words = _looked_up_words(split, lang)
    own_words = None
    if lang in _WORD_VALUES and (not label or text[label.end() - 1].isspace()):
        # the label ends at whitespace (regex \s, as str.split's), so the tokens of the text
        # without it are the last of `split`, and its number words the last of `words`: all
        # but those of the label's tokens (otherwise `_count_numbers` splits the text again)
        own_words = words
        if label and words:
            in_label = _per_token(_TOKEN_NUMBERS[lang], split[:len(text[:label.end()].split())],
                                  _token_numbers, lang)
            own_words = words[sum(map(len, in_label)):]
    return _Cues(types, toks, by_prefix, _count_numbers(own, lang, own_words),
                 sum(map(len, split)) if length is None else length, split, words)


@lru_cache(maxsize=WORD_TYPES_MAX)
def _alone(t: str) -> frozenset[str]:
    """frozenset({t}), one per word type (most cognate prefixes have one type in a text)."""
    return frozenset((t,))


_LABEL_RE = re.compile(r"^\s*(?:§\s*)?\(?[0-9a-zA-Z]{1,4}[.)]\s*")


def _own(text: str) -> str:
    """A unit's text without its leading label ("2.", "a)", "§ 1."): labels are keys, not
    content evidence."""
    return _LABEL_RE.sub("", text, count=1)
