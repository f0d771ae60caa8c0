"""Words hyphenated across a line end: joined when the joined word is known (in the text's own
words, else in wordfreq's lists), the hyphen kept for compounds and dashes.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

_HYPHEN_END = re.compile(r"(\w)( ?)[-\u00ad\u2010\u2011]$")
HYPHENS = frozenset("-\u00ad\u2010\u2011")
_FIRST_WORD = re.compile(r"^(\w+)")
# (tried at the start of a word only: from every position of a long word, a search
# rescanned the rest of it, quadratic on a long line that ends with a hyphen)
_LAST_WORD = re.compile(r"(?<!\w)(\w+)$")

# Languages whose word lists judge a hyphen across a line end (first hit wins).
HYPHEN_LEXICONS = ("en", "pt", "sv", "nl", "es", "de", "fr")


def _zipf(word: str) -> float:
    """wordfreq's Zipf frequency of `word` in the first of `HYPHEN_LEXICONS` that knows it as a
    common word (3.0 or more), else the highest of them (`lexicon.zipf_frequency`: a plain word
    is read from a table on disk instead of wordfreq's whole word lists)."""
    from indexer.lexicon import zipf_frequency

    best = 0.0
    for lang in HYPHEN_LEXICONS:
        best = max(best, zipf_frequency(word, lang))
        if best >= 3.0:
            break
    return best


# How the two parts of a word split by a line-end hyphen are joined: as one word, with the
# hyphen kept, or as written (a hyphen glued to the word is kept, a spaced one is a dash).
_JOIN, _HYPHEN, _AS_WRITTEN = "join", "hyphen", "as written"


def join_hyphenated(head: str, tail: str, vocabulary: Vocabulary | None = None) -> str | None:
    """Join word parts split by a hyphen at a line end, or None when `head` has no such hyphen.

    "finans-" + "är" -> "finansär" when the joined word is plausible (in the text's own
    vocabulary or in wordfreq); else the hyphen is kept: "Sven-" + "Eric" -> "Sven-Eric".
    `vocabulary`: the words of the text (none when not given).
    """
    split = _split_at_hyphen(head, tail)
    if split is None:
        return None
    stem, left, right, spaced = split
    how = _how_joined(left, right, vocabulary if vocabulary is not None else Vocabulary(""))
    if how == _JOIN:
        return stem + tail
    if how == _AS_WRITTEN and spaced:
        return None  # "rum -" + "och": a dash
    return f"{stem}-{tail}"


def _split_at_hyphen(head: str, tail: str) -> tuple[str, str, str, bool] | None:
    """`head` up to its line-end hyphen, the word before the hyphen, the first word of `tail`,
    and whether a space stands before the hyphen; None without a hyphen and two words."""
    # A match takes the last 3 characters (4 with the newline `$` admits before the end):
    # test the last one, then search only there (a search from the start tries every position).
    bare = head.removesuffix("\n")
    if not bare or bare[-1] not in HYPHENS:
        return None
    end = _HYPHEN_END.search(head, max(len(head) - 4, 0))
    first = _FIRST_WORD.match(tail)
    if not end or not first:
        return None
    stem = head[: end.end(1)]
    left_word = _LAST_WORD.search(stem)
    return stem, left_word.group(1) if left_word else "", first.group(1), bool(end.group(2))


def _how_joined(left: str, right: str, words: Vocabulary) -> str:
    """`_JOIN`, `_HYPHEN` or `_AS_WRITTEN`: how `left` and `right`, split by a line-end hyphen,
    are joined, judged by the text's own `words`, else by wordfreq."""
    if right[0].isupper() or right[0].isdigit() or left.isdigit():
        return _AS_WRITTEN
    joined = (left + right).lower()
    hyphened = f"{left}-{right}".lower()
    if words[joined] > words[hyphened]:
        return _JOIN
    if words[hyphened] > words[joined]:
        return _HYPHEN
    # (wordfreq splits hyphenated words into tokens, so only the joined form is looked up)
    if words.zipf(joined) >= 1.0:
        return _JOIN
    if words.zipf(right.lower()) >= 4.5:  # "sjöfarts-" + "eller": a suspended compound
        return _AS_WRITTEN
    if words.zipf(left.lower()) >= 2.5 and words.zipf(right.lower()) >= 2.5:
        return _HYPHEN  # two known words: a compound such as "tax-free"
    return _JOIN  # fragments: an ordinary word break


class Vocabulary:
    """What the line-end hyphens of one text are judged by: its lowercased word counts (words
    may be joined by hyphens) and the wordfreq frequencies asked so far (`zipf`).

    Only some hyphens ask for words: a word asked for is counted alone (a literal search, in
    C) when the text can be lowercased as a whole, else all words are counted on first use."""

    _WORDS = re.compile(r"\w+(?:-\w+)*")
    # Where a word found by `_WORDS` can start: not inside a word or after "word-".
    _WORD_START = re.compile(r"(?<!\w)(?<!\w-)")

    def __init__(self, text: str) -> None:
        self._text = text
        self._lowered: str | None = None  # the text lowercased, once a word is asked for
        self._counts: dict[str, int] = {}
        self._all: Counter[str] | None = None  # every word (when the text cannot be lowered)
        self._zipf: dict[str, float] = {}  # the `zipf` of the words asked for

    def __getitem__(self, word: str) -> int:
        if self._all is not None:
            return self._all[word]
        count = self._counts.get(word)
        if count is None:
            if self._lowered is None:
                self._lowered = self._lower(self._text)
                if self._lowered is None:
                    self._all = Counter(map(str.lower, self._WORDS.findall(self._text)))
                    return self._all[word]
            count = self._counts[word] = self._occurrences(word, self._lowered)
        return count

    def zipf(self, word: str) -> float:
        """`_zipf(word)` (looked up once per text: a word breaks at several line ends)."""
        frequency = self._zipf.get(word)
        if frequency is None:
            frequency = self._zipf[word] = _zipf(word)
        return frequency

    @staticmethod
    def _lower(text: str) -> str | None:
        """`text` lowercased, or None when its words, lowercased, would not be the words of
        the lowercased text: a character changes length or word-ness ("İ" -> "i̇") or a final
        sigma depends on what follows the word ("ΟΔΟΣ'Α"); checked per distinct character
        that lowercasing changes (found in C, comparing the code points of both texts)."""
        if "Σ" in text:
            return None
        lowered = text.lower()
        if len(lowered) != len(text):
            return None  # a character lowercased into more than one (none into nothing)
        before = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        after = np.frombuffer(lowered.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        for code in np.unique(before[before != after]).tolist():
            ch = chr(code)
            low = ch.lower()
            if (ch.isalnum() or ch == "_") != (low.isalnum() or low == "_") or low == "-":
                return None
        return lowered

    @classmethod
    def _occurrences(cls, word: str, text: str) -> int:
        """How many of the words `_WORDS` finds in `text` are `word`."""
        if not cls._WORDS.fullmatch(word):
            return 0
        # Occurrences of `word` where a word ends; those where one starts too are words.
        # (The matches do not overlap, but no word starting inside a match is lost: `word`
        # is made of word characters and inner hyphens, so no word starts there.)
        ends = re.compile(re.escape(word) + r"(?!\w)(?!-\w)")
        return sum(1 for m in ends.finditer(text) if cls._WORD_START.match(text, m.start()))
