"""Stage `clean`: page furniture, hyphenation and column-wrapped lines.

`clean(text)` turns decoded text into logical `Line`s in source order. Running page headers
and footers (recognised as fuzzy-recurring isolated lines, so OCR variants are caught), page
numbers and pure drawing lines (signature-block rules made of ``|`` and ``_``) go to
`Cleaned.furniture`. Blocks whose layout shows hard wrapping (lines of similar width, breaks
inside sentences) are joined into paragraphs; texts already written one paragraph per line are
left as they are.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
import statistics
from collections import Counter
from difflib import SequenceMatcher
from functools import cache, partial
from typing import NamedTuple

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import LCSseq

from indexer.models import Cleaned, Line

# --- named patterns -------------------------------------------------------------------------

_HEADING_WORDS = (
    r"article|artikel|artigo|artículo|articolo|art\.|chapter|kapitel|cap[ií]tulo|chapitre|"
    r"hoofdstuk|protocol|protokoll|protocolo|protocole|section|avdelning|se[cç][cç][aã]o|"
    r"annex|bilaga|anexo"
)
# What a heading word starts with (tested first: a line that cannot open one fails at once,
# without trying every word).
_HEADING_FIRST = "[" + "".join(sorted({word[0] for word in _HEADING_WORDS.split("|")})) + "]"
# A whole line that is a heading: keyword and a short (possibly OCR-garbled) label.
HEADING_LINE = re.compile(
    rf"^\s*(?:#+\s*)?(?={_HEADING_FIRST})(?:{_HEADING_WORDS})"
    rf"(?:\s+[\w.\-–]{{1,10}}){{0,2}}\s*\.?\s*$",
    re.IGNORECASE,
)
# A line opening with a heading keyword and a label (may carry a title after it).
HEADING_START = re.compile(
    rf"^\s*(?:#+\s*)?(?={_HEADING_FIRST})(?:{_HEADING_WORDS})"
    rf"\s+(?:\d+[\w\-]*|[IVXLC]+\b|[ivxlc]+\b)",
    re.IGNORECASE,
)
# Chinese article / chapter headings: 第二十三条, 第三章.
CJK_HEADING = re.compile(r"^\s*第[一二三四五六七八九十百零〇两\d０-９]+[条章节款]")
# Paragraph and point labels that open a new item.
_LABEL = re.compile(
    r"""^\s*(?:
        \#+\s*\S                                   # markdown heading
      | §\s*\d+[a-z]?\.?(?:\s|$)                   # § 1.
      | \d{1,3}(?:\.\d{1,3})*\.(?:\s|$|(?=[^\W\d_]))  # 1.   2.1.   1.glued
      | \d{1,3}\)\s                                # 1)
      | \(\d{1,3}[a-z]?\)                          # (1)
      | \d{1,3}\s?[-–—]\s                          # 1 -   (Portuguese style)
      | [a-zA-Z]\)(?:\s|(?=[^\W\d_]))                # a)  A)  a)glued
      | \([a-zA-Z]\)\s                             # (a)
      | [ivxlc]{1,6}\)\s                           # iv)
      | \([ivxlcIVXLC]{1,6}\)                      # (iv)
      | [IVXLC]{1,6}\.\s                           # IV.
      | [-–—•·▪◦*]\s?(?=\S)                        # bullet
      | [一二三四五六七八九十]+、                   # 一、
      | （[一二三四五六七八九十]+）                 # （一）
      | [０-９]+．                                  # １．
      | \([一二三四五六七八九十]+\)                 # (一)
    )""",
    re.VERBOSE,
)
# A parenthesised label followed by a lowercase word: a cross-reference when it follows a
# line ending in a word ("subparagraph\n(iv) below applies"), not a new point.
_REFERENCE = re.compile(r"^\s*\(\w{1,5}\)\s+(?:[^\W\d_A-Z]|\()")
TERMINAL = re.compile(r"[.!?;:。；：！？…]['\"”’»)]*\s*$")
_HYPHEN_END = re.compile(r"(\w)( ?)[-\u00ad\u2010\u2011]$")
_HYPHENS = frozenset("-\u00ad\u2010\u2011")
_FIRST_WORD = re.compile(r"^(\w+)")
_LAST_WORD = re.compile(r"(\w+)$")
_WORD = re.compile(r"[^\W\d_]+")
_DRAWING = re.compile(r"^[\s|_¦│┃─━┼┤├+=]*[|_¦│┃─━][\s|_¦│┃─━┼┤├+=]*$")
_RULE_CHARS = "|_¦│┃─━"  # one of which every `_DRAWING` line has
_EDGE_DRAWING = re.compile(r"^(?:[\s|¦│]|_{2,})+|(?:[\s|¦│]|_{2,})+$")
_PAGE_NUMBER = re.compile(
    r"^[\s\-–—]*(?:(?:page|sida|página|pagina|p\.)\s*)?\d{1,4}"
    r"(?:\s*(?:/|of|av|de|van)\s*\d{1,4})?[\s\-–—]*$",
    re.IGNORECASE,
)
#: The Han ranges cleaning knows (CJK Extension A and Unified Ideographs; Compatibility
#: Ideographs), first and last code point of each.
_HAN_RANGES = ((0x3400, 0x9FFF), (0xF900, 0xFAFF))
_HAN = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in _HAN_RANGES) + "]")
# Either heading pattern, in one match: HEADING_LINE (case-insensitive) or CJK_HEADING.
_ANY_HEADING = re.compile(f"(?i:{HEADING_LINE.pattern})|{CJK_HEADING.pattern}")


def _is_han(ch: str) -> bool:
    """Is the character `ch` one `_HAN` matches?"""
    return _HAN.match(ch) is not None


def _has_han(text: str) -> bool:
    """Has `text` a character `_HAN` matches? Tested on all code points at once (in numpy;
    the regex search tries every position in turn)."""
    if text.isascii():
        return False
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    # (unsigned: a code point below a range's start wraps round to a large difference)
    return any(bool((codes - a <= b - a).any()) for a, b in _HAN_RANGES)

_ENDS_IN_LETTER = re.compile(r"[^\W\d_]$")

# Languages whose word lists judge a hyphen across a line end (first hit wins).
HYPHEN_LEXICONS = ("en", "pt", "sv", "nl", "es", "de", "fr")
# Similarity above which two isolated lines count as variants of one running header.
_SIMILAR = 0.75


# `starts_item(line)` with no previous line, in one match: a heading, a label or a heading
# keyword with a label (the alternatives of one pattern match where any of them would).
_STARTS_ALONE = re.compile(
    f"{_ANY_HEADING.pattern}|(?x:{_LABEL.pattern})|(?i:{HEADING_START.pattern})"
)


# A heading or a label, in one match telling which opened the line: group 1 a heading
# (`is_heading`), 2 a label (tried in that order, so a heading always matches as one).
_HEADING_OR_LABEL = re.compile(f"({_ANY_HEADING.pattern})|((?x:{_LABEL.pattern}))")


def is_heading(line: str) -> bool:
    """A line that is only a heading ("Artikel I", "ARTICLE 5", "第三条 ...")."""
    return _ANY_HEADING.match(line) is not None


def starts_item(line: str, previous: str = "") -> bool:
    """Does `line` open a new structural item (heading, paragraph or point label)?"""
    if is_heading(line) or _LABEL.match(line):
        return True
    return bool(HEADING_START.match(line)) and (not previous or ends_sentence(previous))


_TERMINALS = frozenset(".!?;:。；：！？…")
_CLOSERS = "'\"”’»)"


def ends_sentence(line: str) -> bool:
    """Does `line` end a sentence (`TERMINAL`)? Tested from the end: trailing whitespace,
    then closing quotes and brackets, then a terminal mark (the regex search would try every
    position of the line)."""
    s = line.rstrip().rstrip(_CLOSERS)
    return bool(s) and s[-1] in _TERMINALS


def _has_edge_rule(text: str) -> bool:
    """Has `text` a character `_EDGE_DRAWING` strips besides whitespace?"""
    return "|" in text or "_" in text or "¦" in text or "│" in text


def strip_drawing(line: str) -> str:
    """`line` without the signature-block rules (``|``, ``___``) at its edges."""
    if not _has_edge_rule(line):
        return line.strip()  # only whitespace to remove (the regex tries every position)
    return _EDGE_DRAWING.sub("", line).strip()


# --- hyphenation ----------------------------------------------------------------------------


@cache
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


def join_hyphenated(
    head: str, tail: str, vocabulary: Counter[str] | _Vocabulary | None = None
) -> str | None:
    """Join word parts split by a hyphen at a line end, or None when `head` has no such hyphen.

    "finans-" + "är" -> "finansär" when the joined word is plausible (in the text's own
    vocabulary or in wordfreq); else the hyphen is kept: "Sven-" + "Eric" -> "Sven-Eric".
    """
    # A match takes the last 3 characters (4 with the newline `$` admits before the end):
    # test the last one, then search only there (a search from the start tries every position).
    bare = head.removesuffix("\n")
    if not bare or bare[-1] not in _HYPHENS:
        return None
    end = _HYPHEN_END.search(head, max(len(head) - 4, 0))
    first = _FIRST_WORD.match(tail)
    if not end or not first:
        return None
    left_word = _LAST_WORD.search(head[: end.end(1)])
    left = left_word.group(1) if left_word else ""
    right = first.group(1)
    stem = head[: end.end(1)]
    if right[0].isupper() or right[0].isdigit() or left.isdigit():
        return None if end.group(2) else f"{stem}-{tail}"
    joined = (left + right).lower()
    hyphened = f"{left}-{right}".lower()
    vocab = vocabulary if vocabulary is not None else Counter()
    if vocab[joined] > vocab[hyphened]:
        return stem + tail
    if vocab[hyphened] > vocab[joined]:
        return f"{stem}-{tail}"
    # (wordfreq splits hyphenated words into tokens, so only the joined form is looked up)
    if _zipf(joined) >= 1.0:
        return stem + tail
    if _zipf(right.lower()) >= 4.5:  # "sjöfarts-" + "eller": a suspended compound
        return None if end.group(2) else f"{stem}-{tail}"  # "rum -" + "och": a dash
    if _zipf(left.lower()) >= 2.5 and _zipf(right.lower()) >= 2.5:
        return f"{stem}-{tail}"  # two known words: a compound such as "tax-free"
    return stem + tail  # fragments: an ordinary word break


def join_lines(head: str, tail: str, vocabulary: Counter[str] | _Vocabulary | None = None) -> str:
    """Join two cleaned texts that belong to one paragraph (de-hyphenating if needed)."""
    head, tail = head.rstrip(), tail.lstrip()
    if not head:
        return tail
    if not tail:
        return head
    hyphenated = join_hyphenated(head, tail, vocabulary)
    if hyphenated is not None:
        return hyphenated
    if _is_han(head[-1]) and _is_han(tail[0]):
        return head + tail
    return f"{head} {tail}"


class _Vocabulary:
    """Lowercased word counts of one text (words may be joined by hyphens), looked up only
    for some line-end hyphens: a word asked for is counted alone (a literal search, in C)
    when the text can be lowercased as a whole, else all words are counted on first use."""

    _WORDS = re.compile(r"\w+(?:-\w+)*")
    # Where a word found by `_WORDS` can start: not inside a word or after "word-".
    _WORD_START = re.compile(r"(?<!\w)(?<!\w-)")

    def __init__(self, text: str) -> None:
        self._text = text
        self._lowered: str | None = None  # the text lowercased, once a word is asked for
        self._counts: dict[str, int] = {}
        self._all: Counter[str] | None = None  # every word (when the text cannot be lowered)

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


# --- furniture ------------------------------------------------------------------------------


_DIGITS = re.compile(r"\d+")
_NOT_WORD_OR_BREAK = re.compile(r"[^\w \n]+")
_SPACED_OUT = re.compile(r"\b(?:\w ){3,}\w\b")


def _keys(lines: list[str]) -> list[str]:
    """Comparison keys of header candidates (`lines` without line breaks): letters, digits
    as 0, single spaces, no other characters.

    Made for all lines at once, joined by line breaks: no pattern matches across one, and a
    line break is neither cased nor case-ignorable, so lowercasing the whole (a final sigma
    looks at the letters around it) lowercases each line as it would alone."""
    text = _NOT_WORD_OR_BREAK.sub("", _DIGITS.sub("0", "\n".join(lines).lower()))
    # (only spaces are left between the words: one split on them drops the outer ones)
    return [" ".join(line.split()) for line in text.split("\n")]


def _similar(a: str, b: str, verdicts: dict[tuple[str, str], bool] | None = None) -> bool:
    """Are `a` and `b` variants of one header (difflib ratio, or a common start)?

    `verdicts`: this document's pairs compared so far (headers recur), filled in here."""
    if verdicts is None:
        return _compare(a, b)
    verdict = verdicts.get((a, b))
    if verdict is None:
        verdict = verdicts[a, b] = _compare(a, b)
    return verdict


def _compare(a: str, b: str) -> bool:
    """`_similar` without the verdicts.

    difflib's matching blocks form a common subsequence, so twice the length of the longest
    common subsequence over the total length (counted by rapidfuzz, in C) bounds its `ratio`
    from above: SequenceMatcher only runs on pairs that can pass."""
    la, lb = len(a), len(b)
    if not la or not lb:
        return False
    if a == b:
        return True  # difflib's ratio of equal strings is 1.0
    short, long_ = (a, b) if la <= lb else (b, a)
    ls = len(short)
    whole = 2 * ls / (la + lb) >= _SIMILAR - 0.1
    if not whole and ls < 15:
        return False  # neither test below can pass
    lcs = LCSseq.similarity(a, b)
    if (
        whole
        and 2.0 * lcs / (la + lb) >= _SIMILAR
        and SequenceMatcher(None, a, b, autojunk=False).ratio() >= _SIMILAR
    ):
        return True
    if ls >= 15 and len(long_) > ls and 2.0 * lcs / (ls + ls) >= 0.9:  # header with a tail
        head = long_[:ls]  # (its common subsequence with `short` is at most `lcs` long)
        if 2.0 * LCSseq.similarity(short, head) / (ls + ls) < 0.9:
            return False
        return SequenceMatcher(None, short, head, autojunk=False).ratio() >= 0.9
    return False


def _could_match(texts: list[str], reps: list[str]) -> list[bool]:
    """For each of `texts`: can it be `_similar` to one of `reps`? False where the bounds of
    `_compare` by the longest common subsequence rule out every pair (taken all at once, in
    C, and with a margin against rounding); True only means `_similar` has to decide."""
    if not texts or not reps:
        return [False] * len(texts)
    return _pair_bounds(texts, reps).any(axis=1).tolist()


def _pair_bounds(texts: list[str], reps: list[str]) -> np.ndarray:
    """Matrix of `_could_match` per pair: False where `_similar(texts[i], reps[j])` cannot
    hold (symmetric in the pair, as the bounds are)."""
    lcs = process.cdist(texts, reps, scorer=LCSseq.similarity, dtype=np.int32)
    lt = np.array([len(t) for t in texts])[:, None]
    lr = np.array([len(r) for r in reps])[None, :]
    ls, total, eps = np.minimum(lt, lr), lt + lr, 1e-9
    whole = (2 * ls >= (_SIMILAR - 0.1) * total - eps) & (2 * lcs >= _SIMILAR * total - eps)
    start = (ls >= 15) & (np.maximum(lt, lr) > ls) & (2 * lcs >= 0.9 * (ls + ls) - eps)
    return (whole | start) & (lt > 0) & (lr > 0)


def _collapse_spaced(text: str) -> str:
    """Undo letter spacing: "C H A P T E R II" -> "CHAPTER II"."""
    return _SPACED_OUT.sub(lambda m: m.group(0).replace(" ", ""), text)


#: The ASCII bytes that are not letters (`str.isalpha`).
_ASCII_NON_LETTERS = bytes(code for code in range(128) if not chr(code).isalpha())


def _has_letters(text: str, n: int) -> bool:
    """Are at least `n` characters of `text` letters (`str.isalpha`)? Its ASCII letters are
    counted in C; the characters are tested one by one only when those are too few."""
    ascii_letters = len(text.encode("ascii", "ignore").translate(None, _ASCII_NON_LETTERS))
    if ascii_letters >= n or text.isascii():
        return ascii_letters >= n
    return sum(map(str.isalpha, text)) >= n


def _header_candidates(texts: list[str], han: bool = True) -> list[bool]:
    """For each of the stripped lines `texts`: may it be a running header? `han`: may the
    texts contain Han characters (False when their document has none)."""
    ok = [
        8 <= len(text) <= 100  # (under 8 characters: under 8 letters)
        and _has_letters(text, 8)
        and not (han and _HAN.search(text))
        and not _STARTS_ALONE.match(text)
        for text in texts
    ]
    # Letter spacing collapsed changes a text exactly where `_SPACED_OUT` finds a match:
    # searched once in the texts still in, joined by line breaks (no match spans one, and a
    # line break, like a text's edge, is no word character).
    kept = [k for k, good in enumerate(ok) if good]
    joined = "\n".join([texts[k] for k in kept])
    if _SPACED_OUT.search(joined) is None:
        return ok
    starts = list(itertools.accumulate((len(texts[k]) + 1 for k in kept), initial=0))
    for m in _SPACED_OUT.finditer(joined):
        k = kept[bisect.bisect_right(starts, m.start()) - 1]
        ok[k] = not starts_item(_collapse_spaced(texts[k]))
    return ok


def _cluster(keys: dict[int, str], verdicts: dict[tuple[str, str], bool]) -> list[list[int]]:
    """Lines grouped greedily: each joins the first cluster with a representative it is
    `_similar` to. Pairs that cannot be similar (`_pair_bounds` of all distinct keys, taken at
    once) are never compared, so whole clusters are passed over without a look."""
    distinct = list(dict.fromkeys(keys.values()))
    number = {key: k for k, key in enumerate(distinct)}
    possible = [set(np.flatnonzero(row).tolist()) for row in _pair_bounds(distinct, distinct)]
    clusters: list[tuple[list[str], list[int]]] = []
    holding: dict[int, list[int]] = {}  # distinct key -> the clusters it represents, in order
    for i, key in keys.items():
        near = possible[number[key]]
        for c in sorted({c for r in near for c in holding.get(r, ())}):
            reps, members = clusters[c]
            if any(_similar(key, rep, verdicts) for rep in reps if number[rep] in near):
                members.append(i)
                if key not in reps and len(reps) < 8:
                    reps.append(key)
                    holding.setdefault(number[key], []).append(c)
                break
        else:
            holding.setdefault(number[key], []).append(len(clusters))
            clusters.append(([key], [i]))
    return [members for _reps, members in clusters if len(members) >= 3]


def _candidate_keys(stripped: list[str], lines: list[int], han: bool) -> dict[int, str]:
    """The `_keys` of those of `lines` (indexes into `stripped`) that are header candidates."""
    texts = [stripped[i] for i in lines]
    kept = [(i, text) for i, text, ok in zip(lines, texts, _header_candidates(texts, han)) if ok]
    return dict(zip([i for i, _text in kept], _keys([text for _i, text in kept])))


def _running_lines(stripped: list[str], blank: list[bool], han: bool = True) -> set[int]:
    """Indexes of running headers/footers: isolated lines recurring with small variations,
    spread over the document. `stripped`: the lines stripped; `han`: may the lines contain
    Han characters."""
    n = len(stripped)
    has_blanks = sum(blank) >= 0.05 * n
    # Is the line before / after line i blank (or the document's edge)?
    before = [True, *blank[:-1]]
    after = [*blank[1:], True]

    alone = [i for i in range(n) if not blank[i] and (not has_blanks or (before[i] and after[i]))]
    keys = _candidate_keys(stripped, alone, han)
    verdicts: dict[tuple[str, str], bool] = {}
    found: set[int] = set()
    touching: dict[int, str] | None = None  # keys of the candidates with a blank line on
    # at least one side (those with blanks on both are the lines of `keys`)
    for members in _cluster(keys, verdicts):
        gaps = [b - a for a, b in itertools.pairwise(members)]
        spread = sum(g >= 5 for g in gaps) >= 0.75 * len(gaps)
        if not spread or statistics.median(gaps) < 8 or members[-1] - members[0] < 0.25 * n:
            continue
        if not has_blanks and (len(members) < 4 or min(gaps) < 10):
            continue
        found.update(members)
        if has_blanks:  # variants touching text on one side (no blank line after them)
            if touching is None:
                one_side = [i for i in range(n) if not blank[i] and before[i] != after[i]]
                touching = keys | _candidate_keys(stripped, one_side, han)
            # (a key repeated among the first 8 members would only repeat its verdicts)
            reps = list(dict.fromkeys(keys[i] for i in members[:8]))
            pending = [i for i in touching if i not in found]
            for i, maybe in zip(pending, _could_match([touching[i] for i in pending], reps)):
                if maybe and any(_similar(touching[i], rep, verdicts) for rep in reps):
                    found.add(i)
    return found


def _furniture_kinds(
    text: str, lines: list[str], stripped: list[str], blank: list[bool], han: bool
) -> dict[int, str]:
    """Page furniture by line index: `lines` of `text`, `stripped` each stripped, `blank`
    whether each is whitespace only, `han` whether the text has Han characters."""
    kinds: dict[int, str] = {}
    # (a drawing line has a rule character: the lines are matched only if the text has one)
    if any(ch in text for ch in _RULE_CHARS):
        for i, line in enumerate(lines):
            if not blank[i] and _DRAWING.match(line):
                kinds[i] = "drawing"
    for i in _running_lines(stripped, blank, han):
        kinds[i] = "running"
    # (a page number stands between blank lines or running headers: only such lines are matched)
    for i, line in enumerate(lines):
        if blank[i] or i in kinds:
            continue
        before = i == 0 or blank[i - 1] or kinds.get(i - 1) == "running"
        after = i == len(lines) - 1 or blank[i + 1] or kinds.get(i + 1) == "running"
        if before and after and _PAGE_NUMBER.match(line):
            kinds[i] = "page-number"
    return kinds


# The fields of `Line` that `clean` leaves at their defaults, with them, in field order.
_LINE_DEFAULTS = {
    f.name: f.default
    for f in dataclasses.fields(Line)
    if f.name not in ("text", "raw", "start", "end", "page", "block")
}


def _line(text: str, raw: str, start: int, end: int, page: int, block: int) -> Line:
    """`Line(text, raw, start, end, page, block)`, made fast (a clean makes one per logical
    line): as `models.make`, its fields set at once, in one update of its fresh `__dict__`
    (the fields given first, then those left at their defaults: field order, as `Line(...)`
    sets them)."""
    line = object.__new__(Line)
    line.__dict__.update(
        text=text, raw=raw, start=start, end=end, page=page, block=block, **_LINE_DEFAULTS
    )
    return line


# --- layout ---------------------------------------------------------------------------------


class _Phys(NamedTuple):
    number: int  # 1-based
    raw: str
    text: str  # stripped, drawing rules removed
    page: int
    block: int
    ends: bool  # ends_sentence(text)


# `_Phys` made from a tuple of its fields in C (a NamedTuple's own `__new__` is Python code).
_new_phys = partial(tuple.__new__, _Phys)


def _soft_break(line: _Phys, following: _Phys) -> bool:
    """A break inside a sentence: no terminal punctuation, next line starts lowercase."""
    return not line.ends and following.text[:1].islower()


def _wrapped(block: list[_Phys], doc_wrapped: bool, han: bool = True) -> bool:
    """Does this block show hard-wrapped layout (so its lines should be re-joined)?

    `han`: may the block contain Han characters (False when its document has none)."""
    if len(block) < 2:
        return False
    texts = [p.text for p in block]
    if han and _HAN.search("\n".join(texts)):  # (one search: a line break is no Han)
        return False
    widths = list(map(len, texts))
    width = max(widths)
    if len(texts) == 2:
        return (
            doc_wrapped
            and width <= 120
            and (_soft_break(block[0], block[1]) or not block[0].ends)
        )
    half = 0.5 * width
    even = len([w for w in widths[:-1] if w >= half]) / (len(widths) - 1)
    if even < 0.6 or width > 200:
        return False
    pairs = list(itertools.pairwise(block))
    soft = len([b for a, b in pairs if _soft_break(a, b)])
    if soft >= 0.3 * len(pairs):
        return True
    if not doc_wrapped:
        return False
    # (after a line that does not end a sentence, and is not empty as no line of a block is,
    # `starts_item` only asks whether the line is a heading or a label: one match)
    open_ends = sum(not a.ends and _HEADING_OR_LABEL.match(b.text) is None for a, b in pairs)
    return open_ends >= 0.5 * len(pairs)


def _join_texts(group: list[_Phys], vocab: _Vocabulary, han: bool = True) -> str:
    """`join_lines` of the texts of `group` in turn, made in one join: the texts are
    stripped and not empty, so each join only adds a space (none between Han characters)
    unless the text so far ends in a hyphen; then that text is made and `join_lines` asked.
    `han`: may the texts contain Han characters (False when their document has none).

    Without Han characters, the texts joined by single spaces are the answer when no text
    but the last ends in a hyphen."""
    texts = [p.text for p in group]
    if not han and _HYPHENS.isdisjoint([t[-1] for t in texts[:-1]]):
        return " ".join(texts)
    parts = [texts[0]]
    for tail in texts[1:]:
        last = parts[-1][-1]  # (the text so far ends as its last part does)
        if last in _HYPHENS:
            parts = [join_lines("".join(parts), tail, vocab)]
        elif _is_han(last) and _is_han(tail[0]):
            parts.append(tail)
        else:
            parts.append(" ")
            parts.append(tail)
    return "".join(parts)


def _logical(block: list[_Phys], wrapped: bool, vocab: _Vocabulary, han: bool = True
             ) -> list[Line]:
    if not wrapped:
        return [_line(p.text, p.raw, p.number, p.number, p.page, p.block) for p in block]
    width = max([len(p.text) for p in block])
    groups: list[list[_Phys]] = []
    prev_heading = False  # is_heading of the line before, asked once per line
    for p in block:
        # (`is_heading` and the first two tests of `starts_item` in one match)
        m = _HEADING_OR_LABEL.match(p.text)
        heading = m is not None and m.lastindex == 1
        if groups:
            prev = groups[-1][-1]
            new_item = (
                m is not None
                or prev_heading
                or ((prev.ends or not prev.text) and HEADING_START.match(p.text) is not None)
            )
            if new_item and _REFERENCE.match(p.text) and _ENDS_IN_LETTER.search(prev.text):
                new_item = prev_heading  # "... paragraph" + "(1) of this Article"
            short_end = prev.ends and len(prev.text) < 0.6 * width
            if not new_item and not short_end:
                groups[-1].append(p)
                prev_heading = heading
                continue
        groups.append([p])
        prev_heading = heading
    out = []
    for group in groups:
        text = group[0].text if len(group) == 1 else _join_texts(group, vocab, han)
        raw = "\n".join(p.raw for p in group)
        first, last = group[0], group[-1]
        out.append(_line(text, raw, first.number, last.number, first.page, first.block))
    return out


def clean(text: str) -> Cleaned:
    """Logical lines of `text` in source order, and the page furniture removed from it."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    stripped = [line.strip() for line in lines]
    han = _has_han(text)
    kinds = _furniture_kinds(text, lines, stripped, [not s for s in stripped], han)
    feeds = "\f" in text
    # Without form feeds and drawing rules in the text, a line's body is the line stripped.
    plain = not feeds and not _has_edge_rule(text)
    vocab = _Vocabulary(text)
    furniture: list[Line] = []
    blocks: list[list[_Phys]] = []
    page, block, in_block, seen_content, in_break = 0, -1, False, False, False
    for i, (raw, body) in enumerate(zip(lines, stripped)):
        kind = kinds.get(i)
        if feeds and seen_content and raw.startswith("\f"):
            page += 1
        if kind is not None:
            if kind in ("running", "page-number"):
                if seen_content and not in_break:
                    page += 1
                in_break = True
            furniture.append(_line(body, raw, i + 1, i + 1, page, max(block, 0)))
            in_block = False
            continue
        if not body:
            in_block = False
            continue
        in_break = False
        if not plain:
            body = strip_drawing(raw.replace("\f", "")) or body
        if not in_block:
            block += 1
            blocks.append([])
            in_block = True
        seen_content = True
        blocks[-1].append(_new_phys((i + 1, raw, body, page, block, ends_sentence(body))))
    # Blocks of 3+ lines vote on the document's layout by how they look on their own.
    alone = [_wrapped(b, False, han) if len(b) >= 3 else None for b in blocks]
    votes = [v for v in alone if v is not None]
    doc_wrapped = bool(votes) and sum(votes) >= 0.5 * len(votes)
    out: list[Line] = []
    for b, wrapped in zip(blocks, alone):
        # (a block wrapped on its own is wrapped in any document: only the rest is judged again)
        if wrapped is None or (doc_wrapped and not wrapped):
            wrapped = _wrapped(b, doc_wrapped, han)
        out.extend(_logical(b, wrapped, vocab, han))
    return Cleaned(lines=tuple(out), furniture=tuple(furniture))
