"""Page furniture: running headers and footers (isolated lines recurring with small variations,
OCR variants included, spread over the document), page numbers and drawing lines.
"""

from __future__ import annotations

import bisect
import itertools
import re
import statistics
from difflib import SequenceMatcher

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import LCSseq

from indexer.clean.drawing import drawing_lines
from indexer.clean.han import HanLayout
from indexer.clean.lines import HAN, HEADING_LINE, STARTS_ALONE, ends_sentence, starts_item
from indexer.hanzi import either_script

_PAGE_NUMBER = re.compile(either_script(
    r"^[\s\-–—]*(?:(?:(?:page|sida|página|pagina|p\.)\s*)?\d{1,4}"
    r"(?:\s*(?:/|of|av|de|van)\s*\d{1,4})?"
    r"|(?:共\s*\d{1,4}\s*页\s*[,，]?\s*)?第\s*\d{1,4}\s*页(?:\s*[,，]?\s*共\s*\d{1,4}\s*页)?)"
    r"[\s\-–—]*$"),
    re.IGNORECASE,
)
#: Page numbers not set off by blank lines count when they run in sequence: at least this
#: many, each one or two more than the one before, this many lines apart at least.
_RUN = 3
_PAGE_LINES = 8
#: The longest (stripped) line `_PAGE_NUMBER` is tried on.
_PAGE_MARK = 40
# Similarity above which two isolated lines count as variants of one running header.
_SIMILAR = 0.75
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
    # A header with a tail (an OCR'd running header runs on into noise). Not in Chinese: there
    # a header's variants differ in their page numbers, which the keys hide, and a line that
    # only begins as a header does is text (the parties' names under the title).
    if (ls >= 15 and len(long_) > ls and 2.0 * lcs / (ls + ls) >= 0.9
            and HAN.search(short) is None):
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


#: The fewest Han characters a running header of Chinese text has (a Han character says as
#: much as a word: "中巴税收协定").
_HAN_HEADER = 4


def _may_be_han_header(text: str) -> bool:
    """May a line of Han text be a running header: a short title, not a sentence's end?"""
    return (_HAN_HEADER <= len(text) <= 60 and len(HAN.findall(text)) >= _HAN_HEADER
            and not ends_sentence(text))


def _header_candidates(texts: list[str], han: bool = True) -> list[bool]:
    """For each of the stripped lines `texts`: may it be a running header (never a line that
    reads as prose)? `han`: may the texts contain Han characters (False when their document
    has none)."""
    ok = [
        (_may_be_han_header(text) if han and HAN.search(text) else
         8 <= len(text) <= 100  # (under 8 characters: under 8 letters)
         and _has_letters(text, 8))
        and not STARTS_ALONE.match(text) and not reads_as_prose(text)
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


def _running_lines(stripped: list[str], blank: list[bool], han: bool = True,
                   body: frozenset[int] = frozenset()) -> set[int]:
    """Indexes of running headers/footers: isolated lines recurring with small variations,
    spread over the document. `stripped`: the lines stripped; `blank`: whether each is empty;
    `han`: may the lines contain Han characters; `body`: lines that are none (the lines of a
    wrapped Chinese text's paragraphs, whose pieces recur as the text's phrases do; lines
    of the document's numbering; lines that read as prose)."""
    n = len(stripped)
    has_blanks = sum(blank) >= 0.05 * n
    # Is the line before / after line i blank (or the document's edge)?
    before = [True, *blank[:-1]]
    after = [*blank[1:], True]

    alone = [i for i in range(n) if not blank[i] and (not has_blanks or (before[i] and after[i]))
             and i not in body and (has_blanks or not _continues(stripped, i))]
    keys = _candidate_keys(stripped, alone, han)
    verdicts: dict[tuple[str, str], bool] = {}
    found: set[int] = set()
    touching: dict[int, str] | None = None  # keys of the candidates with a blank line on
    # at least one side (those with blanks on both are the lines of `keys`)
    for members in _cluster(keys, verdicts):
        if not _recurs_as_header(members, n, has_blanks):
            continue
        found.update(members)
        if has_blanks:  # variants touching text on one side (no blank line after them)
            if touching is None:
                one_side = [i for i in range(n) if not blank[i] and before[i] != after[i]
                            and i not in body]
                touching = keys | _candidate_keys(stripped, one_side, han)
            found.update(_variants(members, keys, touching, found, verdicts))
    return found


def _continues(stripped: list[str], i: int) -> bool:
    """Does line `i` go on with the sentence of the line before (it starts in lower case, and
    the line before ends no sentence)? In a text without blank lines, a phrase that recurs
    at the start of a wrapped line is no running header."""
    return i > 0 and stripped[i][:1].islower() and bool(stripped[i - 1]) and not ends_sentence(
        stripped[i - 1])


def _recurs_as_header(members: list[int], n: int, has_blanks: bool) -> bool:
    """Are the lines `members` (indexes, ascending) of a cluster of similar lines spread over
    the `n` lines of their document as a running header is? `has_blanks`: has the document
    blank lines between its paragraphs (else a header is held to recur more, and further apart)."""
    gaps = [b - a for a, b in itertools.pairwise(members)]
    spread = sum(g >= 5 for g in gaps) >= 0.75 * len(gaps)
    if not spread or statistics.median(gaps) < 8 or members[-1] - members[0] < 0.25 * n:
        return False
    # (the first and the last page may be short: a title page, the end of the text)
    return has_blanks or (len(members) >= 4 and min(gaps[1:-1] or gaps) >= 10)


def _variants(
    members: list[int],
    keys: dict[int, str],
    candidates: dict[int, str],
    found: set[int],
    verdicts: dict[tuple[str, str], bool],
) -> list[int]:
    """The lines of `candidates` (keys by line index) not yet `found` that are `_similar` to
    one of the first 8 lines of a running header (`members`; `keys` holds their keys)."""
    # (a key repeated among the first 8 members would only repeat its verdicts)
    reps = list(dict.fromkeys(keys[i] for i in members[:8]))
    pending = [i for i in candidates if i not in found]
    return [
        i
        for i, maybe in zip(pending, _could_match([candidates[i] for i in pending], reps))
        if maybe and any(_similar(candidates[i], rep, verdicts) for rep in reps)
    ]


def furniture_kinds(
    text: str, lines: list[str], stripped: list[str], blank: list[bool], han: bool,
    layout: HanLayout | None = None, structure: frozenset[int] = frozenset(),
) -> dict[int, str]:
    """Page furniture by line index: "drawing", "running" (a header or footer) or
    "page-number". `lines`: the lines of `text`, `stripped` each stripped, `blank` whether
    each is whitespace only, `han` whether the text has Han characters, `layout` the wrap
    width of its Han lines when they are hard-wrapped (a line of that width is no header),
    `structure` the lines the document's numbering places (headings, labelled items).

    Neither a line of the numbering nor a line that reads as prose (`reads_as_prose`) is
    ever furniture: a heading that recurs with its number changed ("Article Twenty-Two",
    "Article Twenty-Three") or a sentence that recurs ("For the purposes of this Convention,
    unless the context otherwise requires:") is text."""
    kinds = dict.fromkeys(drawing_lines(text, lines, blank), "drawing")
    body = frozenset(structure)  # (a line that reads as prose is no candidate either)
    if layout is not None:
        body |= frozenset(i for i, s in enumerate(stripped)
                          if s and layout.wrapped(s) and HAN.search(s))
    for i in _running_lines(stripped, blank, han, body):
        kinds[i] = "running"
    for i in _page_numbers(stripped, blank, kinds):
        if i not in structure:
            kinds[i] = "page-number"
    return kinds


#: What ends a clause of a sentence (a running header never ends so), and a sentence.
_CLAUSE_END = (":", ";", ",", "：", "；", "，")
_SENTENCE_END = (".", "!", "?", "。", "！", "？")
_CLOSERS = "'\"”’»)]"


def reads_as_prose(text: str) -> bool:
    """Does the stripped line `text` read as a sentence or a clause of one: four words at
    least, half of them in lower case, ending as a clause does (":", ";", ","), or six words
    at least ending as a sentence does? A running header is a title, a name or a reference
    ("Official Gazette No 25, page 1."), never that."""
    s = text.rstrip(_CLOSERS)
    words = s.split()
    if len(words) < 4 or 2 * sum(w[:1].islower() for w in words) < len(words):
        return False
    return s.endswith(_CLAUSE_END) or (len(words) >= 6 and s.endswith(_SENTENCE_END))


def _page_numbers(lines: list[str], blank: list[bool], kinds: dict[int, str]) -> list[int]:
    """Indexes of the `lines` (stripped) that are page numbers, not yet furniture (in
    `kinds`): standing between blank lines (`blank`), running headers or the edges of the
    document, or, without such room around them (a PDF's text), running in sequence through
    it (`_in_sequence`)."""
    numbers, loose = [], []
    for i, line in enumerate(lines):
        # (the pattern is matched only on short lines: a page number is one)
        if blank[i] or i in kinds or len(line) > _PAGE_MARK or _PAGE_NUMBER.match(line) is None:
            continue
        before = i == 0 or blank[i - 1] or kinds.get(i - 1) == "running"
        after = i == len(lines) - 1 or blank[i + 1] or kinds.get(i + 1) == "running"
        if before and after:
            numbers.append(i)
        elif not (i > 0 and _heading_word(lines[i - 1])):  # (not "Article" over "5")
            loose.append(i)
    if not loose:
        return numbers
    return sorted(set(numbers) | _in_sequence(sorted(numbers + loose), lines))


def _heading_word(line: str) -> bool:
    """Is `line` a heading keyword alone ("ARTICLE"), whose label a next line may hold?"""
    return len(line.split()) == 1 and HEADING_LINE.match(line) is not None


def _in_sequence(candidates: list[int], lines: list[str]) -> set[int]:
    """The page-number lines among `candidates` (indexes, ascending) that run in sequence:
    `_RUN` or more, each numbered one or two past the one before and `_PAGE_LINES` lines after
    it at least."""
    runs: list[list[tuple[int, int]]] = []  # (index, number) of each run's lines
    for i in candidates:
        number = int(_DIGITS.search(lines[i]).group())  # type: ignore[union-attr]
        run = next((r for r in reversed(runs) if 0 < number - r[-1][1] <= 2
                    and i - r[-1][0] >= _PAGE_LINES), None)
        if run is None:
            runs.append([(i, number)])
        else:
            run.append((i, number))
    return {i for run in runs if len(run) >= _RUN for i, _number in run}
