"""Cues: what the evidence uses of a unit's text — its word types (folded stems; Han
characters for Chinese) and the numbers it carries (digits, percentages, years, article
cross-references in arabic, roman or Chinese numerals, small number words).

`TextCues` computes them once per text and each token's once per language: one is made per
treaty (`align_versions`) and passed down with the treaty's segments."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
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
    from indexer.numerals import parse_roman

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
        from indexer.numerals import parse_chinese

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


@lru_cache(maxsize=200_000)
def _token_words(token: str, lang: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The types of the words of one whitespace-delimited token ("dividends,", "(a)") in
    order, and the values of its number words (a pure function of the token, bounded as
    `_word_type`). Whitespace is not a word character, so the words of a text are those of
    its tokens."""
    types = []
    for word in _WORD_RE.findall(token):
        t = _word_type(word, lang)
        if t:
            types.append(t)
    return tuple(types), _token_numbers(token, lang) if lang in _WORD_VALUES else ()


def _per_token(known: dict[str, tuple[str, ...]], pieces: Sequence[str],
               compute: Callable[[str], tuple[str, ...]]) -> list[tuple[str, ...]]:
    """`compute(piece)` of every piece, through the per-token memo `known`."""
    found = list(map(known.get, pieces))
    if None in found:
        for i, f in enumerate(found):
            if f is None:
                piece = pieces[i]
                f = known.get(piece)  # a repeat of a piece computed just now
                if f is None:
                    f = known[piece] = compute(piece)
                found[i] = f
    return found


class _Words:
    """The word types and number words of the tokens of one language's texts of a treaty
    (`_token_words`), each token looked up once: looking up the tokens of a text costs less
    than running _WORD_RE over it."""

    __slots__ = ("lang", "number_tokens", "numbered", "token_types")

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.numbered = lang in _WORD_VALUES  # a language with number words
        self.token_types: dict[str, tuple[str, ...]] = {}  # token -> the types of its words
        # the tokens of `token_types` with number words -> their values (filled with
        # `token_types`: a token of it not in here has none)
        self.number_tokens: dict[str, tuple[str, ...]] = {}

    def types(self, pieces: Sequence[str]) -> tuple[str, ...]:
        """The word types of tokens `pieces`, in order."""
        return tuple(chain.from_iterable(_per_token(self.token_types, pieces,
                                                    self._token_types)))

    def _token_types(self, token: str) -> tuple[str, ...]:
        """The types of one token's words, noting its number words in `number_tokens`."""
        types, values = _token_words(token, self.lang)
        if values:
            self.number_tokens[token] = values
        return types

    def looked_up_words(self, split: Sequence[str]) -> tuple[str, ...]:
        """The values of the number words of tokens `types` looked up just now (so that
        `number_tokens` has those of them with number words), in order."""
        if not self.numbered:
            return ()
        number_tokens = self.number_tokens
        if number_tokens.keys().isdisjoint(split):
            return ()
        return tuple(chain.from_iterable(number_tokens[t] for t in split if t in number_tokens))

    def numbers_of(self, pieces: Sequence[str]) -> list[tuple[str, ...]]:
        """The values of the number words of each of tokens `pieces`."""
        lang = self.lang
        return [_token_words(t, lang)[1] for t in pieces]


class Cues(NamedTuple):
    """What the evidence uses of one unit's text (see `Segments.segment`)."""

    types: tuple[str, ...]  # `TextCues.types`, in text order
    toks: frozenset[str]  # the same as a set, built in that order
    by_prefix: dict[str, frozenset[str]]  # 5-letter prefix -> the types of `toks` with it
    nums: dict[str, int]  # `numbers` of the text without its label (not to be changed)
    length: int  # characters other than whitespace (str.isspace, as regex \s)
    split: list[str]  # the text's whitespace-delimited tokens (not to be changed)
    # the values of the number words of `split`, in order (() in languages without them)
    words: tuple[str, ...] = ()


class TextCues:
    """The cues of the texts of one treaty, each computed once whichever pairs and passes use
    them, and the words of its tokens per language (`_Words`)."""

    def __init__(self) -> None:
        self._words: dict[str, _Words] = {}  # lang -> its tokens' words
        self._cues: dict[tuple[str, str], Cues] = {}  # (text, lang) -> its cues
        self._alone: dict[str, frozenset[str]] = {}  # type -> frozenset({type})

    def words(self, lang: str) -> _Words:
        got = self._words.get(lang)
        if got is None:
            got = self._words[lang] = _Words(lang)
        return got

    def types(self, text: str, lang: str, split: Sequence[str] | None = None
              ) -> tuple[str, ...]:
        """The word types of a text in text order, repeats kept: folded stems of 3 letters or
        more (Han characters for Chinese). `split` is ``text.split()`` when the caller has
        it."""
        if lang == "zh":
            return tuple(c for c in text if "\u4e00" <= c <= "\u9fff")
        return self.words(lang).types(text.split() if split is None else split)

    def tokens(self, text: str, lang: str) -> frozenset[str]:
        """Word types for the lexical cue: folded stems (Han characters for Chinese)."""
        return self.cues(text, lang).toks

    def cues(self, text: str, lang: str) -> Cues:
        """The cues of a text, computed once."""
        got = self._cues.get((text, lang))
        if got is None:
            got = self._cues[text, lang] = self.text_cues(text, lang)
        return got

    def text_cues(self, text: str, lang: str) -> Cues:
        """`cues`, computed from the text (its tokens' words from the memo)."""
        split = text.split()
        return self._cues_from(text, lang, split, self.types(text, lang, split))

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
        got = self._cues[key] = self._composed_cues(unit.text, lang, head, kids)
        return got

    def _composed_cues(self, text: str, lang: str, head: str, kids: Sequence[Cues]) -> Cues:
        """The cues of `text`, a `head` and texts of cues `kids` joined by newlines."""
        split = head.split()
        types = self.types(head, lang, split)
        # (the characters and number words of the head's tokens and of the children's, as
        # those of `split`: the head's were all looked up by `types` just now)
        length = sum(map(len, split)) + sum([k.length for k in kids])
        words = self.words(lang).looked_up_words(split)
        if lang in _WORD_VALUES:
            words = tuple(chain(words, *[k.words for k in kids]))
        for k in kids:
            split += k.split
        if len(kids) == 1:
            types += kids[0].types
        else:
            types = tuple(chain(types, *[k.types for k in kids]))
        return self._cues_from(text, lang, split, types, words, length)

    def _cues_from(self, text: str, lang: str, split: list[str], types: tuple[str, ...],
                   words: tuple[str, ...] | None = None, length: int | None = None) -> Cues:
        """The cues of `text` from its tokens and word types; `words` and `length` are the
        number words and characters of `split` when the caller has them, else every token
        was looked up by `types` just now."""
        toks = frozenset(types)
        alone = self._alone
        by_prefix: dict[str, frozenset[str]] = {}
        for t in toks:
            if len(t) >= 5:
                p = t[:5]
                one = alone.get(t)  # (most cognate prefixes have one type in a text)
                if one is None:
                    one = alone[t] = frozenset((t,))
                by_prefix[p] = by_prefix[p] | one if p in by_prefix else one
        label = _LABEL_RE.match(text)
        own = text[label.end():] if label else text  # as `_own`
        if words is None:
            words = self.words(lang).looked_up_words(split)
        return Cues(types, toks, by_prefix,
                    _count_numbers(own, lang, self._own_words(text, lang, label, split, words)),
                    sum(map(len, split)) if length is None else length, split, words)

    def _own_words(self, text: str, lang: str, label: re.Match | None, split: list[str],
                   words: tuple[str, ...]) -> Iterable[str] | None:
        """The values of the number words of `text` without its `label`, from those of its
        tokens `split` (`words`); None in a language without number words."""
        if lang not in _WORD_VALUES:
            return None
        number_words = self.words(lang)
        if label and not text[label.end() - 1].isspace():
            # the label ends inside a token: the tokens of the text without it, split again
            return chain.from_iterable(number_words.numbers_of(text[label.end():].split()))
        # the label ends at whitespace (regex \s, as str.split's), so the tokens of the text
        # without it are the last of `split`, and its number words the last of `words`: all
        # but those of the label's tokens
        if label and words:
            in_label = number_words.numbers_of(split[:len(text[:label.end()].split())])
            return words[sum(map(len, in_label)):]
        return words


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
