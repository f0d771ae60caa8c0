"""Links between the language versions of one treaty: article -> paragraph -> point.

Structural keys come first (article eId, paragraph number, point letter); every candidate
pair is then weighed by evidence that survives translation:

- ``numbers``: digits, percentages, years, article cross-references (arabic, roman, Chinese)
  and small number words ("ten", "tio", "dez"), compared as multisets;
- ``length``: the Gale–Church length model, with the character ratio of the two versions
  estimated from the treaty itself;
- ``lexicon``: cognates (a shared 5-letter prefix after accent folding: dividends /
  dividender / dividendos) plus a bilingual lexicon of treaty terms learnt from the
  first-pass alignment of the treaty itself (Dice coefficient over aligned paragraph pairs,
  as hunalign builds its dictionary).

The pieces are log-likelihood ratios that add up; a pair's confidence is their logistic. One
dynamic-programming aligner (1–1, 1–2, 2–1, 1–0, 0–1 beads, as in Gale–Church, hunalign and
bertalign) runs over every list of siblings, with key agreement as one more piece of
evidence, so the numbering decides when it is there and agrees, and content and position
decide when it is absent or disagrees. A unit with no counterpart is reported in
``Alignment.unmatched``, never forced onto a neighbour.

Everything here is pure: Versions in, an Alignment out. ``store_rows`` turns it into the rows
of the store's ``links`` table; ``versions_from_rows`` rebuilds Versions from stored units.
"""

from __future__ import annotations

import math
import operator
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache, reduce
from itertools import chain, combinations, compress, repeat
from typing import NamedTuple

from indexer.models import Unit, Version

#: Kinds of top-level units that are aligned (title, preamble, closing and other are not).
ALIGNED_KINDS = ("article", "protocol")

# DP bead penalties (in the same log-odds units as the evidence).
SKIP = 2.5  # a unit with no counterpart (1-0 / 0-1)
MERGE = 2.5  # a 2-1 / 1-2 bead, on top of the evidence of the merged pair
PRIOR = -1.0  # log-odds of a link before any evidence

UNMATCHED = "unmatched"  # method of the store rows that report a unit with no counterpart


@dataclass(frozen=True)
class Link:
    """Unit `eid_a` of version `lang_a` corresponds to `eid_b` of version `lang_b`."""

    eid_a: str
    lang_a: str
    eid_b: str
    lang_b: str
    level: str  # "article", "paragraph" or "point"
    score: float  # confidence 0..1
    method: str  # "number+numbers", "number+lexicon", "number+length", "number", "dp-1:1", ...
    # the pieces of evidence (name, log-odds) in the order they add up; `evidence` spells
    # them out (formatted only when read: the store keeps none of it)
    pieces: tuple[tuple[str, float], ...] = ()

    @property
    def evidence(self) -> str:
        """The pieces of evidence, for a person checking the link ("number+3.0 length+0.4")."""
        return _describe(self.pieces)


@dataclass(frozen=True)
class Unmatched:
    """A unit of version `lang` with no counterpart in version `other`."""

    eid: str
    lang: str
    other: str
    level: str
    reason: str = ""


@dataclass(frozen=True)
class Alignment:
    treaty: str
    langs: tuple[str, ...]
    links: tuple[Link, ...] = ()
    unmatched: tuple[Unmatched, ...] = ()


# ---------------------------------------------------------------------------------------------
# Cues
# ---------------------------------------------------------------------------------------------

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


@dataclass(frozen=True)
class Segment:
    """One side of a candidate bead: one unit, or two adjacent units merged."""

    eids: tuple[str, ...]
    key: str | None
    keys: tuple[str | None, ...]
    length: int
    nums: Mapping[str, int] = field(compare=False)  # number -> count, as `numbers`
    toks: frozenset[str] = field(compare=False)
    pref5: frozenset[str] = field(compare=False, default=frozenset())
    n_nums: int = field(compare=False, default=0)  # sum(nums.values())
    spread: float = field(compare=False, default=0.0)  # sqrt(6.8 * max(length, 20))
    # 5-letter prefix -> the types of `toks` with it (the keys are `pref5`)
    by_prefix: Mapping[str, frozenset[str]] = field(compare=False, default_factory=dict)
    key_set: frozenset[str] = field(compare=False, default=frozenset())  # keys but None


@lru_cache(maxsize=65536)
def _segment_of(eids: tuple[str, ...], texts: tuple[str, ...], keys: tuple[str | None, ...],
                lang: str) -> Segment:
    """The segment of `texts` joined by newlines (built once per treaty: the cache is emptied
    with the others). Its cues are those of the texts put together: no word or number spans
    the joining newline, and it is whitespace."""
    cues = [_cues(text, lang) for text in texts]
    if len(cues) == 1:
        toks, by_prefix, nums, length = cues[0].toks, cues[0].by_prefix, cues[0].nums, \
            cues[0].length
    else:
        # built from the words in text order, as a set of the joined text's words would be
        toks = frozenset(chain.from_iterable(c.types for c in cues))
        by_prefix = dict(cues[0].by_prefix)
        nums = dict(cues[0].nums)
        length = cues[0].length
        for c in cues[1:]:
            for p, ts in c.by_prefix.items():
                by_prefix[p] = by_prefix[p] | ts if p in by_prefix else ts
            for k, n in c.nums.items():  # as a Counter adds (every count is positive)
                nums[k] = nums.get(k, 0) + n
            length += c.length
    length = max(1, length)
    return Segment(eids=eids, key=keys[0] if len(keys) == 1 else None, keys=keys,
                   length=length, nums=nums, toks=toks, pref5=frozenset(by_prefix),
                   n_nums=sum(nums.values()), by_prefix=by_prefix,
                   spread=math.sqrt(6.8 * max(length, 20)),
                   key_set=frozenset(keys).difference((None,)))


_LABEL_RE = re.compile(r"^\s*(?:§\s*)?\(?[0-9a-zA-Z]{1,4}[.)]\s*")


def _own(text: str) -> str:
    """A unit's text without its leading label ("2.", "a)", "§ 1."): labels are keys, not
    content evidence."""
    return _LABEL_RE.sub("", text, count=1)


# ---------------------------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------------------------

def _ordinal(num: str | None, style_roman: bool) -> str | None:
    """A paragraph/point number as an ordinal key: "2" -> "2", "b" -> "2", "iv" -> "4"
    (roman only when its siblings are roman), "(3)" -> "3"."""
    if not num:
        return None
    s = num.strip().strip("().§ ").lower()
    if s.isdigit():
        return str(int(s))
    if style_roman:
        value = _roman(s)
        if value:
            return str(value)
    if len(s) == 1 and "a" <= s <= "z":
        return str(ord(s) - ord("a") + 1)
    return s or None


def _keys(units: Sequence[Unit], level: str) -> list[str | None]:
    if level == "article":
        return [u.eid for u in units]
    nums = [(u.num or "").strip("().§ ").lower() for u in units]
    # "i" is roman only when every sibling is roman ("i", "ii", ...), a letter after "h"
    roman = bool(nums) and all(n and set(n) <= set("ivxl") for n in nums)
    return [_ordinal(u.num, roman) for u in units]


# ---------------------------------------------------------------------------------------------
# Evidence model
# ---------------------------------------------------------------------------------------------

@dataclass
class Model:
    """What the aligner knows about one language pair of one treaty."""

    ratio: float = 1.0  # expected length(b) / length(a)
    lexicon: dict[str, frozenset[str]] = field(default_factory=dict)
    df_a: Counter = field(default_factory=Counter)
    df_b: Counter = field(default_factory=Counter)
    n_docs: int = 1
    lex_pos: float = 0.30  # mean lexical similarity of aligned pairs
    lex_neg: float = 0.10  # ... of non-aligned siblings
    lex_var: float = 0.02  # pooled variance of the two
    calibrated: bool = False  # False: too few pairs to measure the above; the cue is damped
    # side ("a", "b") -> its IDF table and segment profiles (see `align_pair` for sharing)
    _weights: dict = field(default_factory=lambda: {"a": _SideWeights(), "b": _SideWeights()},
                           repr=False)
    # (id(a), id(b)) -> `_pieces` of segments a and b, with a, b and the ratio they are for
    _pieces: dict = field(default_factory=dict, repr=False)
    # (a.eids, b.eids) -> `_Lexical` of segments a and b
    _lexical: dict = field(default_factory=dict, repr=False)
    # (level, lang, ids of the units) -> the units, their `_segments` (see `segments`)
    _segment_lists: dict = field(default_factory=dict, repr=False)

    def segments(self, units: Sequence[Unit], level: str, lang: str
                 ) -> tuple[list[Segment], dict[int, Segment]]:
        """`_segments` of a list of siblings, built once for every pass (and, through
        `align_pair`'s shared dict, every pair) that aligns the same unit objects; the entry
        keeps the units, and so their ids. Not to be changed."""
        key = (level, lang, *map(id, units))
        got = self._segment_lists.get(key)
        if got is None:
            got = self._segment_lists[key] = (tuple(units), *_segments(units, level, lang))
        return got[1], got[2]

    def weights(self, seg: Segment, side: str) -> dict[str, float]:
        """IDF weights of a segment's informative word types (cached per segment)."""
        return self.profile(seg, side).weights

    def profile(self, seg: Segment, side: str) -> _Profile:
        """A segment's weighted word types as `lexical` uses them (cached per segment)."""
        side_weights = self._weights[side]
        got = side_weights.profiles.get(seg.eids)
        if got is None:
            idf = side_weights.idf
            if idf is None:  # the IDF of every type, computed once
                df = self.df_a if side == "a" else self.df_b
                seen = {t: _idf(c, self.n_docs) for t, c in df.items()}
                idf = side_weights.idf = (seen, _idf(0, self.n_docs),  # > 0.3 (n >= 1)
                                          frozenset(t for t, w in seen.items() if w <= 0.3))
            seen, unseen, uninformative = idf
            toks = seg.toks
            # every type with its IDF, then those of IDF 0.3 or less taken out
            weights = dict(zip(toks, map(seen.get, toks, repeat(unseen))))
            for t in uninformative.intersection(toks):
                del weights[t]
            got = side_weights.profiles[seg.eids] = _Profile(weights, seg)
        return got


class _SideWeights:
    """One side of a `Model`: the IDF of every type of its version ((type -> IDF, the IDF of
    an unseen type, the types of IDF 0.3 or less), None until first needed) and the profiles
    of its segments by eIds. They depend on the version's document frequencies and the
    model's `n_docs` only, so the models of the pairs one version takes part in with the same
    `n_docs` share them (see `align_pair`). So do the terms `_learn_lexicon` takes from the
    version's units (`_lexicon_terms`)."""

    __slots__ = ("idf", "profiles", "terms")

    def __init__(self) -> None:
        self.idf: tuple[dict[str, float], float, frozenset[str]] | None = None
        self.profiles: dict[tuple[str, ...], _Profile] = {}
        self.terms: _Terms | None = None


def _idf(df: int, n: int) -> float:
    """The IDF of a type in `df` of `n` paragraphs."""
    return math.log((n + 1) / (df + 0.5))


class _Profile:
    """One segment's IDF weights, indexed so that `lexical` finds the word types matched on
    the other side by set operations."""

    def __init__(self, weights: dict[str, float], seg: Segment) -> None:
        self.weights = weights
        self.types = set(weights)
        # the cognate prefixes of the segment the weights are of (`Model.profile` keys them by
        # eIds only), 5-letter prefix -> its types (the weighted ones and others)
        self.pref5, self.by_prefix = seg.pref5, seg.by_prefix
        self.total = sum(weights.values())
        self.all_hit = reduce(operator.add, weights.values(), 0.0)  # as `share` adds
        self._lexicon: Mapping[str, frozenset[str]] | None = None
        self._by_translation: dict[str, set[str]] = {}
        self._position: dict[str, int] | None = None  # type -> its place in `weights`

    def by_translation(self, lexicon: Mapping[str, frozenset[str]]) -> dict[str, set[str]]:
        """Lexicon translation -> the types of this segment it translates (redone when the
        model gets a new lexicon)."""
        if self._lexicon is not lexicon:
            inv: defaultdict[str, set[str]] = defaultdict(set)
            for t in filter(lexicon.__contains__, self.weights):  # (most have none)
                for y in lexicon[t]:
                    inv[y].add(t)
            self._lexicon, self._by_translation = lexicon, dict(inv)
        return self._by_translation

    def share(self, hits: set[str]) -> float:
        """The weight of `hits` (some of the types) as a share of the total. The weights are
        added up in the order of `weights`, which fixes the last bits of the float (two
        weights add up the same either way)."""
        weights = self.weights
        if len(hits) <= 2:
            if not hits:
                return 0.0
            hit = 0.0
            for t in hits:
                hit += weights[t]
        elif len(hits) == len(weights):
            hit = self.all_hit
        elif 4 * len(hits) < len(weights):  # a few: put them in order rather than scan
            position = self._position
            if position is None:
                position = self._position = dict(zip(weights, range(len(weights))))
            hit = reduce(operator.add,
                         map(weights.__getitem__, sorted(hits, key=position.__getitem__)), 0.0)
        else:
            hit = reduce(operator.add, compress(weights.values(), map(hits.__contains__, weights)),
                         0.0)
        return hit / self.total


class _Lexical(NamedTuple):
    """What `lexical` found for two segments (cached on the model)."""

    toks_a: frozenset[str]  # the word types of the two segments it is for
    toks_b: frozenset[str]
    lexicon: Mapping[str, frozenset[str]]  # the model's lexicon it is for
    value: float
    # the types of each side found on the other side without the lexicon (None when a side
    # has no weighted type), and the similarity they give
    fwd: set[str] | None
    back: set[str] | None
    plain: float


def lexical(a: Segment, b: Segment, model: Model) -> float:
    """IDF-weighted share of word types with a cognate or lexicon translation on the other
    side (the mean of both directions).

    Cached on the model per pair of segments (by eIds, for the word types they had): the
    calibration and the aligner weigh many of the same pairs, and with a new lexicon only the
    translations are looked up again (the same types and cognates are found as before)."""
    lexicon = model.lexicon
    got = model._lexical.get((a.eids, b.eids))
    if got is None or got.toks_a is not a.toks or got.toks_b is not b.toks:
        got = _lexical_plain(a, b, model)  # (stored with its value below)
    elif got.lexicon is lexicon:
        return got.value
    if not lexicon or got.fwd is None:
        value = got.plain
    else:
        pa, pb = model._weights["a"].profiles[a.eids], model._weights["b"].profiles[b.eids]
        by_translation = pa.by_translation(lexicon)
        translated = by_translation.keys() & b.toks  # b's, translating a's
        if translated:
            # a's types translated in b, b's translations of a's types
            value = (pa.share(got.fwd.union(*map(by_translation.__getitem__, translated)))
                     + pb.share(got.back | pb.types.intersection(translated))) / 2
        else:
            value = got.plain
    # (as got._replace(lexicon=lexicon, value=value), without its keyword machinery)
    model._lexical[a.eids, b.eids] = _Lexical(got.toks_a, got.toks_b, lexicon, value, got.fwd,
                                              got.back, got.plain)
    return value


def _lexical_plain(a: Segment, b: Segment, model: Model) -> _Lexical:
    """`lexical` without the lexicon: the same types and cognates."""
    pa = model._weights["a"].profiles.get(a.eids) or model.profile(a, "a")
    pb = model._weights["b"].profiles.get(b.eids) or model.profile(b, "b")
    if not pa.weights or not pb.weights:
        return _Lexical(a.toks, b.toks, None, 0.0, None, None, 0.0)
    shared = pa.pref5 & b.pref5  # 5-letter prefixes of cognates
    # a's types found in b: the same type or a cognate
    fwd = pa.types & b.toks
    if shared:
        fwd.update(*map(pa.by_prefix.__getitem__, shared))
        fwd &= pa.types
    # b's types found in a
    if pa.pref5 is not a.pref5 or pb.pref5 is not b.pref5:  # profiles of namesakes
        shared = pb.pref5 & a.pref5
    back = pb.types & a.toks
    if shared:
        back.update(*map(pb.by_prefix.__getitem__, shared))
        back &= pb.types
    plain = (pa.share(fwd) + pb.share(back)) / 2
    return _Lexical(a.toks, b.toks, None, plain, fwd, back, plain)


def _phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def evidence(a: Segment, b: Segment, model: Model) -> dict[str, float]:
    """The log-likelihood ratio pieces for `a` and `b` being translations of each other."""
    ev = _structural(a, b, model)
    ev["lexicon"] = _lexicon_llr(a, b, model)
    return ev


def _lexicon_limit(model: Model) -> float:
    """The bound of the lexicon piece: |lexicon| <= this."""
    return 3.0 if model.calibrated else 1.0


def _structural(a: Segment, b: Segment, model: Model) -> dict[str, float]:
    """The cheap pieces of `evidence`: numbering key, numbers, length (in that order)."""
    _, number, nums, length = _pieces(a, b, model)[:4]
    ev: dict[str, float] = {}
    if number is not None:
        ev["number"] = number
    if nums is not None:
        ev["numbers"] = nums
    ev["length"] = length
    return ev


_SQRT2 = math.sqrt(2)


def _pieces(a: Segment, b: Segment, model: Model) -> tuple:
    """`_structural` as plain floats: (the sum of the pieces (added in their order, as
    ``sum(ev.values())``), the number and numbers pieces (None when absent), the length piece,
    then a, b and the model's ratio). Cached on the model per pair of segment objects: the
    second pass weighs the same beads, and the pieces depend on the model's length ratio
    only (kept with them)."""
    got = model._pieces.get((id(a), id(b)))
    if got is not None and got[4] is a and got[5] is b and got[6] == model.ratio:
        return got
    number = None
    total = 0.0
    if a.key is not None and b.key is not None:
        number = 3.0 if a.key == b.key else -2.0
        total += number
    elif not a.key_set.isdisjoint(b.key_set):
        number = 1.5
        total += number
    na, nb = a.nums, b.nums
    nums = None
    if na or nb:
        # the size of the multiset intersection (counts are positive)
        matched = sum(min(c, nb[k]) for k, c in na.items() if k in nb) if na and nb else 0
        missing = a.n_nums + b.n_nums - 2 * matched
        nums = 1.2 * min(matched, 3) - 0.6 * min(missing, 4)
        total += nums
    delta = (b.length - a.length * model.ratio) / a.spread
    # the two-sided tail of the standard normal: 2 * (1 - _phi(|delta|))
    p = max(1e-12, 2 * (1 - 0.5 * (1 + math.erf(abs(delta) / _SQRT2))))
    length = max(-2.5, min(1.0, 1.0 + 0.5 * math.log(p)))
    total += length
    got = model._pieces[id(a), id(b)] = (total, number, nums, length, a, b, model.ratio)
    return got


def _most(a: Segment, b: Segment) -> float:
    """An upper bound of `_pieces`' sum from the keys and the number counts alone: the number
    piece as it is, the numbers piece as if every number of the smaller side were matched,
    and the largest length piece, 1.0 (float sums are monotone, so it bounds the float sum
    too)."""
    total = 0.0
    if a.key is not None and b.key is not None:
        total += 3.0 if a.key == b.key else -2.0
    elif not a.key_set.isdisjoint(b.key_set):
        total += 1.5
    na, nb = a.n_nums, b.n_nums
    if na or nb:  # matched <= min(na, nb), missing >= |na - nb|
        total += 1.2 * min(na, nb, 3) - 0.6 * min(abs(na - nb), 4)
    return total + 1.0


def _lexicon_llr(a: Segment, b: Segment, model: Model) -> float:
    """The lexicon piece of `evidence`: log-likelihood ratio of two normal distributions
    with a shared variance (LDA) of the lexical similarity, within +-`_lexicon_limit`."""
    s = lexical(a, b, model)
    mid = (model.lex_pos + model.lex_neg) / 2
    slope = (model.lex_pos - model.lex_neg) / max(model.lex_var, 1e-4)
    limit = _lexicon_limit(model)
    return max(-limit, min(limit, slope * (s - mid)))


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-max(-40.0, min(40.0, x))))


def _method(ev: dict[str, float], bead: tuple[int, int]) -> str:
    if bead == (1, 1) and ev.get("number", 0) >= 3.0:
        for name in ("numbers", "lexicon", "length"):
            if ev.get(name, 0) > 0.5:
                return f"number+{name}"
        return "number"
    return f"dp-{bead[0]}:{bead[1]}"


def _describe(pieces: Iterable[tuple[str, float]]) -> str:
    return " ".join(f"{k}{v:+.1f}" for k, v in pieces)


# ---------------------------------------------------------------------------------------------
# Dynamic programming over siblings
# ---------------------------------------------------------------------------------------------

BEADS = ((1, 1), (1, 0), (0, 1), (2, 1), (1, 2))


class Bead(NamedTuple):
    """One bead of `align_sequences`: units `a` of one list with units `b` of the other."""

    a: tuple[int, ...]
    b: tuple[int, ...]
    score: float
    method: str
    pieces: tuple[tuple[str, float], ...]  # as `Link.pieces`


#: Skip weighing a bead in full when even the largest lexicon piece could not make it win
#: (False weighs every bead: the same alignment, slower; tests compare the two).
PRUNE = True

#: Half-width of the diagonal band the sequence aligner explores (at least, and as a share).
BAND_MIN = 4
BAND_SHARE = 0.15


def align_sequences(seg_a: Sequence[Segment], seg_b: Sequence[Segment],
                    merged_a: Mapping[int, Segment], merged_b: Mapping[int, Segment],
                    model: Model) -> list[Bead]:
    """The best monotone sequence of beads between two lists of siblings.

    ``merged_a[i]`` is the segment of units i and i+1 together (for 2-1 beads)."""
    n, m = len(seg_a), len(seg_b)
    inf = float("inf")
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    back: list[list[tuple | None]] = [[None] * (m + 1) for _ in range(n + 1)]
    lexicon_of: dict[tuple[int, int], float] = {}  # cell -> lexicon piece of its bead
    cost[0][0] = 0.0
    limit = _lexicon_limit(model)
    sides_a, sides_b = (None, seg_a, merged_a), (None, seg_b, merged_b)

    def position(i: int, j: int, di: int, dj: int) -> float:
        if n == m and i == j and di == dj == 1:
            # same place in two lists of the same length; the only child of both parents
            return 2.0 if n == 1 else 1.0
        return 0.0

    def weigh(a: Segment, b: Segment, pos: float, merge: float, before: float,
              bound: float) -> tuple[float, float]:
        """The cost into a cell of the bead of `a` and `b` after cost `before`, and its
        lexicon piece; (inf, 0.0) when even the largest lexicon piece could not bring it to
        `bound`: it is then not weighed in full, since it cannot win (tried first with the
        cheap `_most` of the structural pieces, then with their sum)."""
        if PRUNE and -(PRIOR + (_most(a, b) + pos + limit)) + merge + before > bound + 1e-9:
            return inf, 0.0
        total = _pieces(a, b, model)[0]  # the evidence without the lexicon piece
        if PRUNE and -(PRIOR + (total + pos + limit)) + merge + before > bound + 1e-9:
            return inf, 0.0
        piece = _lexicon_llr(a, b, model)
        total += piece  # as the evidence adds up: structure, lexicon, position
        if pos:
            total += pos
        return -(PRIOR + total) + merge + before, piece

    # Only cells near the diagonal are explored (as hunalign does): versions of one treaty
    # do not drift far apart, and the band keeps long lists from costing n x m evidence.
    # The beads into a cell are tried in the order of BEADS (the first of equal costs wins).
    one_one, one_zero, zero_one, two_one, one_two = BEADS
    band = max(BAND_MIN, abs(n - m) + 3, int(BAND_SHARE * max(n, m)))
    for i in range(n + 1):
        centre = i * m / n if n else 0
        row = cost[i]
        above, above2 = (cost[i - 1] if i else None), (cost[i - 2] if i > 1 else None)
        a, a2 = (seg_a[i - 1] if i else None), merged_a.get(i - 2)  # units i-1; i-2 and i-1
        for j in range(max(0, int(centre) - band), min(m, int(centre) + band + 1) + 1):
            if not (i or j):
                continue
            best, arg, lex = inf, None, 0.0
            up = above[j] if i else inf
            left = row[j - 1] if j else inf
            # the cheapest skip into this cell: a bead whose evidence cannot bring it below
            # that (or below the best so far) is not weighed in full
            skip = min(up, left) + SKIP
            if i and j and above[j - 1] != inf:
                pos = (2.0 if n == 1 else 1.0) if n == m and i == j else 0.0
                best, lex = weigh(a, seg_b[j - 1], pos, 0.0, above[j - 1], skip)
                if best < inf:
                    arg = one_one
            c = SKIP + up
            if c < best:
                best, arg = c, one_zero
            c = SKIP + left
            if c < best:
                best, arg = c, zero_one
            if a2 is not None and j and above2[j - 1] != inf:
                c, piece = weigh(a2, seg_b[j - 1], 0.0, MERGE, above2[j - 1], min(best, skip))
                if c < best:
                    best, arg, lex = c, two_one, piece
            if i and j > 1 and above[j - 2] != inf and (b2 := merged_b.get(j - 2)) is not None:
                c, piece = weigh(a, b2, 0.0, MERGE, above[j - 2], min(best, skip))
                if c < best:
                    best, arg, lex = c, one_two, piece
            row[j], back[i][j] = best, arg
            if arg is not None and arg[0] and arg[1]:
                lexicon_of[i, j] = lex
    beads: list[Bead] = []
    i, j = n, m
    while i or j:
        di, dj = back[i][j]
        pi, pj = i - di, j - dj
        if di and dj:
            # the evidence of the chosen beads only, for their method and description
            _, number, nums, length = _pieces(sides_a[di][pi], sides_b[dj][pj], model)[:4]
            ev: dict[str, float] = {}
            if number is not None:
                ev["number"] = number
            if nums is not None:
                ev["numbers"] = nums
            ev["length"] = length
            ev["lexicon"] = lexicon_of[i, j]
            pos = position(pi, pj, di, dj)
            if pos:
                ev["position"] = pos
            llr = PRIOR + sum(ev.values()) - (1.0 if di + dj > 2 else 0.0)
            beads.append(Bead(tuple(range(pi, i)), tuple(range(pj, j)), _logistic(llr),
                              _method(ev, (di, dj)), tuple(ev.items())))
        else:
            beads.append(Bead(tuple(range(pi, i)), tuple(range(pj, j)), 0.0, UNMATCHED, ()))
        i, j = pi, pj
    beads.reverse()
    return beads


# ---------------------------------------------------------------------------------------------
# One language pair
# ---------------------------------------------------------------------------------------------

def _children(unit: Unit, kind: str) -> list[Unit]:
    return [c for c in unit.children if c.kind == kind]


def _segments(units: Sequence[Unit], level: str, lang: str
              ) -> tuple[list[Segment], dict[int, Segment]]:
    keys = _keys(units, level)
    for u in units:
        if u.children:
            _unit_cues(u, lang)  # (put together from its children's)
    eids = [u.eid for u in units]
    texts = [u.text for u in units]
    # the segment of each unit and of each two neighbours (`_segment_of`)
    segs = [_segment_of((e,), (t,), (k,), lang) for e, t, k in zip(eids, texts, keys)]
    merged = {}
    if level != "article":  # articles are never merged: a bead of two articles is a split
        for i in range(len(units) - 1):
            merged[i] = _segment_of((eids[i], eids[i + 1]), (texts[i], texts[i + 1]),
                                    (keys[i], keys[i + 1]), lang)
    return segs, merged


_NEXT = {"article": ("paragraph", "paragraph"), "paragraph": ("point", "point"),
         "point": ("point", "point")}


def _align_level(units_a: Sequence[Unit], units_b: Sequence[Unit], level: str,
                 lang_a: str, lang_b: str, model: Model, out_links: list[Link],
                 out_unmatched: list[Unmatched], deepest: str = "point") -> None:
    """Align two lists of siblings of `level` and, below every 1-1 bead, their children,
    down to the level `deepest` ("paragraph": no points)."""
    if not units_a and not units_b:
        return
    seg_a, merged_a = model.segments(units_a, level, lang_a)
    seg_b, merged_b = model.segments(units_b, level, lang_b)
    for bead in align_sequences(seg_a, seg_b, merged_a, merged_b, model):
        if bead.method == UNMATCHED:
            for i in bead.a:
                out_unmatched.append(Unmatched(units_a[i].eid, lang_a, lang_b, level,
                                               f"no counterpart in the {lang_b} version"))
            for j in bead.b:
                out_unmatched.append(Unmatched(units_b[j].eid, lang_b, lang_a, level,
                                               f"no counterpart in the {lang_a} version"))
            continue
        for i in bead.a:
            for j in bead.b:
                out_links.append(Link(units_a[i].eid, lang_a, units_b[j].eid, lang_b, level,
                                      round(bead.score, 4), bead.method, bead.pieces))
        if len(bead.a) == 1 and len(bead.b) == 1 and level != deepest:
            ua, ub = units_a[bead.a[0]], units_b[bead.b[0]]
            child_kind, child_level = _NEXT[level]
            ca, cb = _children(ua, child_kind), _children(ub, child_kind)
            if level == "article" and bool(ca) != bool(cb):
                # one version splits the article into paragraphs, the other does not: the
                # unsplit article stands as its one paragraph
                ca, cb = ca or [ua], cb or [ub]
            _align_level(ca, cb, child_level, lang_a, lang_b, model, out_links, out_unmatched,
                         deepest)


def _top(version: Version) -> list[Unit]:
    return [u for u in version.units if u.kind in ALIGNED_KINDS]


def _all_units(units: Iterable[Unit]) -> Iterable[Unit]:
    for u in units:
        yield u
        yield from _all_units(u.children)


def _df(version: Version) -> tuple[Counter, int]:
    df: Counter = Counter()
    n = 0
    for u in _all_units(_top(version)):
        if u.kind == "paragraph" or (u.kind in ALIGNED_KINDS and not u.children):
            df.update(_unit_cues(u, version.lang).toks)
            n += 1
    return df, max(n, 1)


def _shared_df(version: Version, shared: dict) -> tuple[Counter, int]:
    """`_df` of a version, once per `shared` (the entry keeps the version, and so its id)."""
    got = shared.get(("df", id(version)))
    if got is None:
        got = shared["df", id(version)] = (version, *_df(version))
    return got[1], got[2]


def _calibration_pairs(va: Version, vb: Version, model: Model
                       ) -> tuple[float | None, list[tuple[Segment, Segment]],
                                  list[tuple[Segment, Segment]]]:
    """What `_calibrate` measures on: the median length ratio of the articles the numbering
    pairs (None without any long enough), the segments of their paragraph pairs, and those
    pairs shifted by one (non-aligned siblings). The segments are those the aligner weighs
    (`Model.segments` of each list of paragraphs): `lexical` uses their word types only."""
    by_eid = {u.eid: u for u in _top(vb)}
    pairs: list[tuple[Segment, Segment]] = []
    shifted: list[tuple[Segment, Segment]] = []
    ratios: list[float] = []
    for ua in _top(va):
        ub = by_eid.get(ua.eid)
        if ub is None:
            continue
        la, lb = len(ua.text), len(ub.text)
        if la > 50 and lb > 50:
            ratios.append(lb / la)
        pa, pb = _children(ua, "paragraph"), _children(ub, "paragraph")
        if len(pa) == len(pb) and pa:
            sa = model.segments(pa, "paragraph", va.lang)[0]
            sb = model.segments(pb, "paragraph", vb.lang)[0]
            pairs.extend(zip(sa, sb))
            if len(pa) > 1:
                shifted.extend(zip(sa, sb[1:] + sb[:1]))
    ratio = None
    if ratios:
        ratios.sort()
        ratio = ratios[len(ratios) // 2]
    return ratio, pairs, shifted


def _calibrate(va: Version, vb: Version, model: Model, measured: tuple | None = None) -> None:
    """Length ratio and lexical similarity levels from the pairs the numbering proposes
    (`measured`: the `_calibration_pairs` of the versions, when the caller has them)."""
    ratio, pairs, shifted = measured or _calibration_pairs(va, vb, model)
    if ratio is not None:
        model.ratio = ratio
    if len(pairs) >= 5 and len(shifted) >= 3:
        pos = [lexical(a, b, model) for a, b in pairs]
        neg = [lexical(a, b, model) for a, b in shifted]
        mp, mn = sum(pos) / len(pos), sum(neg) / len(neg)
        var = (sum((x - mp) ** 2 for x in pos) + sum((x - mn) ** 2 for x in neg)) / (
            len(pos) + len(neg))
        if mp > mn + 0.03:
            model.lex_pos, model.lex_neg, model.lex_var = mp, mn, max(var, 0.002)
            model.calibrated = True


class _Terms(NamedTuple):
    """What `_learn_lexicon` takes from one side's version (see `_lexicon_terms`)."""

    units: dict[str, Unit]  # eId -> unit, of every aligned unit
    common: set[str]  # types in more than a quarter of the paragraphs: not terms
    of_unit: dict[str, list[str]]  # eId -> its types but the common ones (not to be changed)

    def of(self, unit: Unit, lang: str) -> list[str]:
        got = self.of_unit.get(unit.eid)
        if got is None:
            common = self.common
            got = self.of_unit[unit.eid] = [t for t in tokens(unit.text, lang)
                                            if t not in common]
        return got


def _lexicon_terms(version: Version, side: str, model: Model) -> _Terms:
    """`_Terms` of the model's side `side` (`version`), kept with its IDF: it depends on the
    version's document frequencies and `n_docs` only, so the pairs of a treaty share it."""
    side_weights = model._weights[side]
    got = side_weights.terms
    if got is None:
        df = model.df_a if side == "a" else model.df_b
        got = side_weights.terms = _Terms(
            {u.eid: u for u in _all_units(_top(version))},
            {t for t, c in df.items() if c > 0.25 * model.n_docs}, {})
    return got


def _learn_lexicon(va: Version, vb: Version, links: Sequence[Link], model: Model,
                   min_score: float = 0.9) -> None:
    """Word translations from confidently aligned units: Dice coefficient over the pairs."""
    terms_a, terms_b = _lexicon_terms(va, "a", model), _lexicon_terms(vb, "b", model)
    units_a, units_b = terms_a.units, terms_b.units
    freq_a: Counter = Counter()
    freq_b: Counter = Counter()
    pairs: list[tuple[list[str], list[str]]] = []
    for link in links:
        if link.level != "paragraph" or link.score < min_score:
            continue
        ua, ub = units_a.get(link.eid_a), units_b.get(link.eid_b)
        if ua is None or ub is None:
            continue
        # (types in more than a quarter of the paragraphs are not terms)
        ta, tb = terms_a.of(ua, va.lang), terms_b.of(ub, vb.lang)
        freq_a.update(ta)
        freq_b.update(tb)
        pairs.append((ta, tb))
    # a word of one pair only co-occurs once with anything and is left out (only words seen
    # together twice are candidates)
    twice_a = {t for t, c in freq_a.items() if c > 1}
    twice_b = {t for t, c in freq_b.items() if c > 1}
    if len(pairs) <= EXACT_DICE_PAIRS:
        model.lexicon = _mutual_best(pairs, freq_a, freq_b, twice_a, twice_b)
        return
    # Beyond EXACT_DICE_PAIRS pairs a tolerance of 1e-9 joins close dice values, as it
    # always did, and the candidates are taken in the order in which each (x, y) first
    # co-occurs, as in one pass over the pairs.
    pairs_of: defaultdict[str, list[list[str]]] = defaultdict(list)  # x -> the tb it is with
    for ta, tb in pairs:
        tb = list(filter(twice_b.__contains__, tb))
        for x in filter(twice_a.__contains__, ta):
            pairs_of[x].append(tb)
    candidates = []
    for x, tbs in pairs_of.items():
        f = freq_a[x]
        cooc = Counter(chain.from_iterable(tbs))  # y -> pairs with x and y
        candidates.extend((x, y, dice) for y, c in cooc.items()
                          if c >= 2 and (dice := 2 * c / (f + freq_b[y])) >= 0.5)
    candidates.sort(key=_first_cooccurrence(pairs))
    best_a: dict[str, tuple[float, list[str]]] = {}
    best_b: dict[str, tuple[float, list[str]]] = {}
    for x, y, dice in candidates:
        for best, k, v in ((best_a, x, y), (best_b, y, x)):
            old = best.get(k)
            if old is None or dice > old[0] + 1e-9:
                best[k] = (dice, [v])
            elif abs(dice - old[0]) <= 1e-9:
                old[1].append(v)
    model.lexicon = {
        x: frozenset(ys) for x, (_, ys) in best_a.items()
        if len(ys) == 1 and best_b.get(ys[0], (0, []))[1] == [x]
    }


#: 64-bit words of pair sets `_mutual_best` compares at once (rows of words of side a at a
#: time).
DICE_BLOCK = 1 << 20


def _mutual_best(pairs: Sequence[tuple[list[str], list[str]]], freq_a: Mapping[str, int],
                 freq_b: Mapping[str, int], twice_a: set[str], twice_b: set[str]
                 ) -> dict[str, frozenset[str]]:
    """The lexicon of `_learn_lexicon` up to EXACT_DICE_PAIRS pairs: x -> {y} for the words
    of side a and b that are each other's one best translation (ties dropped) among the
    candidates (x, y) that co-occur in at least two pairs with a Dice coefficient
    2c/(f+g) >= 0.5 (c pairs with both, f and g pairs with each), in the order in which the
    x first occur.

    The co-occurrence counts are the bits two words' pair sets share; counts and sums are
    integers below 2**53, exact as floats, and a float division of two of them is
    correctly rounded, as Python's int / int is, so every dice value is the float the pairs
    give one by one. Two different values 2c/(f+g) differ by at least 2/(2n)**2 > 1e-9 for n
    pairs (n <= EXACT_DICE_PAIRS), so the best of a word is its largest value and every word
    with it, compared exactly."""
    import numpy as np

    in_a, in_b = _pair_sets(pairs)
    # words seen in two pairs or more (the others co-occur once at most), in first-seen order
    xs = [x for x in in_a if x in twice_a]
    ys = [y for y in in_b if y in twice_b]
    if not xs or not ys:
        return {}
    n_words = (len(pairs) + 63) // 64

    def bit_words(sets: Iterable[int]) -> np.ndarray:
        # word w of a set is its bits 64w..64w+63: its bytes 8w..8w+7, little-endian
        size = 8 * n_words
        data = b"".join([s.to_bytes(size, "little") for s in sets])
        return np.frombuffer(data, dtype="<u8").astype(np.uint64).reshape(-1, n_words)

    # the pair sets as 64-bit words
    words_a, words_b = bit_words(map(in_a.get, xs)), bit_words(map(in_b.get, ys))
    f = np.array([freq_a[x] for x in xs], dtype=float)
    g = np.array([freq_b[y] for y in ys], dtype=float)
    rows = max(1, DICE_BLOCK // (len(ys) * n_words))
    # per x: its one best y (-1 for none or a tie) and that value; per y: its best value and
    # how many x have it
    best_y = np.full(len(xs), -1)
    best_of_x = np.full(len(xs), -1.0)
    top_y = np.full(len(ys), -1.0)
    ties_y = np.zeros(len(ys), dtype=np.int64)
    for lo in range(0, len(xs), rows):
        hi = min(len(xs), lo + rows)
        # x, y -> pairs with both (bits set in both)
        cooc = np.bitwise_count(words_a[lo:hi, None, :] & words_b[None, :, :]).sum(axis=2)
        dice = (2 * cooc) / (f[lo:hi, None] + g[None, :])
        dice[(cooc < 2) | (dice < 0.5)] = -1.0  # not candidates
        arg = dice.argmax(axis=1)
        top = dice[np.arange(hi - lo), arg]
        unique = (top >= 0) & ((dice == top[:, None]).sum(axis=1) == 1)
        best_y[lo:hi] = np.where(unique, arg, -1)
        best_of_x[lo:hi] = top
        col = dice.max(axis=0)
        count = (dice == col[None, :]).sum(axis=0)
        higher = col > top_y
        same = (col == top_y) & (col >= 0)
        ties_y = np.where(higher, count, np.where(same, ties_y + count, ties_y))
        top_y = np.maximum(top_y, col)
    lexicon: dict[str, frozenset[str]] = {}
    for i, j in enumerate(best_y.tolist()):
        if j >= 0 and ties_y[j] == 1 and top_y[j] == best_of_x[i]:
            lexicon[xs[i]] = frozenset((ys[j],))
    return lexicon


#: Up to this many aligned pairs, `_learn_lexicon` compares dice values exactly (`_mutual_best`).
EXACT_DICE_PAIRS = 20_000


def _pair_sets(pairs: Sequence[tuple[list[str], list[str]]]
               ) -> tuple[dict[str, int], dict[str, int]]:
    """Per side, word -> the pairs that have it (bit k for pair k), in first-seen order."""
    in_a: dict[str, int] = {}
    in_b: dict[str, int] = {}
    for k, (ta, tb) in enumerate(pairs):
        bit = 1 << k
        for x in ta:
            in_a[x] = in_a.get(x, 0) | bit
        for y in tb:
            in_b[y] = in_b.get(y, 0) | bit
    return in_a, in_b


def _first_cooccurrence(pairs: Sequence[tuple[list[str], list[str]]]):
    """A sort key of (x, y, dice) candidates: where x and y first co-occur in `pairs`."""
    in_a, in_b = _pair_sets(pairs)
    positions = [({t: i for i, t in enumerate(ta)}, {t: i for i, t in enumerate(tb)})
                 for ta, tb in pairs]

    def first(candidate: tuple[str, str, float]) -> tuple[int, int, int]:
        x, y, _ = candidate
        both = in_a[x] & in_b[y]
        k = (both & -both).bit_length() - 1  # the first pair with both words
        return k, positions[k][0][x], positions[k][1][y]

    return first


def align_pair(va: Version, vb: Version, shared: dict | None = None
               ) -> tuple[list[Link], list[Unmatched], Model]:
    """Align two language versions: a first pass with cognates only, down to paragraphs,
    then a second, in full, with the lexicon learnt from the first's paragraph links (with
    cognates only again when none is learnt).

    `shared` holds what the pairs of one treaty share about its versions (filled here; the
    caller keeps it for the treaty's other pairs and no longer): each version's document
    frequencies, its side of the model (IDF and profiles) per `n_docs`, and the segments of
    its lists of siblings."""
    if shared is None:
        shared = {}
    df_a, n_a = _shared_df(va, shared)
    df_b, n_b = _shared_df(vb, shared)
    model = Model(df_a=df_a, df_b=df_b, n_docs=max(n_a, n_b))
    for side, v in (("a", va), ("b", vb)):
        model._weights[side] = shared.setdefault(("weights", id(v), model.n_docs),
                                                 (v, model._weights[side]))[1]
    model._segment_lists = shared.setdefault("segments", {})
    measured = _calibration_pairs(va, vb, model)  # the same for both passes
    _calibrate(va, vb, model, measured)
    # the lexicon is learnt from paragraph links only: the first pass stops there
    links: list[Link] = []
    _align_level(_top(va), _top(vb), "article", va.lang, vb.lang, model, links, [],
                 "paragraph")
    _learn_lexicon(va, vb, links, model)
    if model.lexicon:
        _calibrate(va, vb, model, measured)
    # without a lexicon, the first pass in full (the same model: an empty lexicon weighs as
    # none, and the calibration is the first one)
    links, unmatched = [], []
    _align_level(_top(va), _top(vb), "article", va.lang, vb.lang, model, links, unmatched)
    return links, unmatched, model


# ---------------------------------------------------------------------------------------------
# A treaty
# ---------------------------------------------------------------------------------------------

def merge_versions(versions: Iterable[Version]) -> list[Version]:
    """One Version per language (files of one treaty in one language are concatenated), in
    first-seen order; versions without articles are dropped."""
    by_lang: dict[str, list[Unit]] = {}
    for v in versions:
        by_lang.setdefault(v.lang, []).extend(v.units)
    return [Version(lang, tuple(units)) for lang, units in by_lang.items()
            if any(u.kind in ALIGNED_KINDS for u in units)]


def align_versions(treaty: str, versions: Sequence[Version],
                   langs: Sequence[str] | None = None) -> Alignment:
    """Links between every pair of language versions of `treaty` (sv↔en, sv↔pt, en↔pt),
    each pair in the order the versions come."""
    # texts are tokenised once per treaty, whichever pairs and passes use them; the caches
    # are emptied per treaty so that nothing is carried from one treaty to the next
    _CUES.clear()
    _segment_of.cache_clear()
    _numbers.cache_clear()
    merged = merge_versions(versions)
    if langs is not None:
        merged = [v for v in merged if v.lang in langs]
    links: list[Link] = []
    unmatched: list[Unmatched] = []
    shared: dict = {}  # what the pairs share about each version (see `align_pair`)
    for va, vb in combinations(merged, 2):
        pair_links, pair_unmatched, _ = align_pair(va, vb, shared)
        links.extend(pair_links)
        unmatched.extend(pair_unmatched)
    return Alignment(treaty, tuple(v.lang for v in merged), tuple(links), tuple(unmatched))


def store_rows(alignment: Alignment) -> list[tuple]:
    """Rows of the store's ``links`` table: (treaty, eid, lang_a, lang_b, eid_b, level, score,
    method). A unit with no counterpart is a row with method "unmatched", score 0 and the
    missing side's eId empty."""
    t = alignment.treaty
    rows = [(t, x.eid_a, x.lang_a, x.lang_b, x.eid_b, x.level, x.score, x.method)
            for x in alignment.links]
    order = {lang: i for i, lang in enumerate(alignment.langs)}
    for u in alignment.unmatched:
        if order.get(u.lang, 0) <= order.get(u.other, 0):
            rows.append((t, u.eid, u.lang, u.other, "", u.level, 0.0, UNMATCHED))
        else:
            rows.append((t, "", u.other, u.lang, u.eid, u.level, 0.0, UNMATCHED))
    return rows


def versions_from_rows(rows: Iterable[dict]) -> dict[tuple[str, str], Version]:
    """Rebuild Versions from stored unit rows (columns of the ``units`` table), keyed by
    (treaty, lang), units in stored order."""
    nodes: dict[tuple[str, str, str], dict] = {}
    roots: dict[tuple[str, str], list[dict]] = {}
    for r in sorted(rows, key=lambda r: (r["treaty"], r["lang"], r.get("file") or "", r["seq"])):
        node = {"row": r, "children": []}
        nodes[r["treaty"], r["lang"], r["eid"]] = node
        parent = nodes.get((r["treaty"], r["lang"], r["parent"])) if r["parent"] else None
        if parent is not None:
            parent["children"].append(node)
        else:
            roots.setdefault((r["treaty"], r["lang"]), []).append(node)

    def build(node: dict) -> Unit:
        r = node["row"]
        return Unit(eid=r["eid"], kind=r["kind"], text=r["text"], raw=r["raw"],
                    start=r["start_line"] or 0, end=r["end_line"] or 0, number=r["number"],
                    label=r["label"], num=r["num"], title=r["title"], topic=r["topic"],
                    children=tuple(build(c) for c in node["children"]))

    return {k: Version(k[1], tuple(build(n) for n in v)) for k, v in roots.items()}


def _align_rows(treaty: str, vs: Sequence[Version]) -> list[tuple]:
    return store_rows(align_versions(treaty, vs))


#: Fewer multilingual treaties than this are aligned in this process (a pool costs ~1 s).
PARALLEL_MIN_TREATIES = 8


def align_corpus(versions: Mapping[tuple[str, str], Version] | Iterable[tuple[str, Version]],
                 workers: int = 1) -> list[tuple]:
    """Store rows for every treaty: `versions` maps (treaty, lang) -> Version, or is a list of
    (treaty, Version) pairs (several per treaty and language allowed). Treaties are
    independent, so with `workers` > 1 and enough of them they are aligned in a process pool;
    the rows are the same and in the same order either way."""
    items = versions.items() if isinstance(versions, Mapping) else versions
    by_treaty: dict[str, list[Version]] = defaultdict(list)
    for key, v in items:
        treaty = key[0] if isinstance(key, tuple) else key
        by_treaty[treaty].append(v)
    jobs: list[tuple[str, list[Version]]] = []
    for treaty, vs in by_treaty.items():
        # a canonical order (where each version starts in its source, then language), so
        # links come out the same whether a version was just processed or read back
        vs = sorted(vs, key=lambda v: (min((u.start for u in v.units), default=0), v.lang))
        if len({v.lang for v in vs}) > 1:
            jobs.append((treaty, vs))
    rows: list[tuple] = []
    if workers > 1 and len(jobs) >= PARALLEL_MIN_TREATIES:
        from indexer.workers import pool as worker_pool

        with worker_pool(workers) as pool:
            for part in pool.map(_align_rows, *zip(*jobs), chunksize=4):
                rows.extend(part)
        return rows
    for treaty, vs in jobs:
        rows.extend(_align_rows(treaty, vs))
    return rows
