"""Labels a scan misread, read as the family they belong to.

A print read by OCR misreads a heading here and there: its word ("ARFIGO 3" among "ARTIGO"
headings), the mark after its number ("3:" among "1.", "2."), or its number, lost or read as
a mark ("ARTIGO", "Article?"). Such a label is still a member of its family where nothing
else can be: a word within an OCR slip of the family's word (the same kind of number,
brackets and marks), a mark a scan reads for the family's, or the family's word alone on a
line, its number lost, where the family's run lacks exactly that one number there (between
"Article 1" and "Article 3", or before a run that starts at 2). The family's other labels
say which number it is; its own text never does.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import pairwise

from rapidfuzz.distance import Levenshtein

from indexer.segment.numbering.families import Family
from indexer.segment.numbering.tokens import Form, Token

#: The marks a scan leaves around a heading word (specks read as punctuation).
SPECKS = " \t.,:;'\"`‘’“”*+~^•·|!?»«-"
#: What a scan leaves before a heading's word: marks, and a lone small letter ("ä ARTIKEL").
_SPECKS_BEFORE = re.compile(r"^(?:[^\w\s]+|[^\W\d_A-Z](?=\s))(?:\s*(?:[^\w\s]+|[^\W\d_A-Z](?=\s)))*\s*")
#: The fewest letters of a word that may be misread into another family's (a shorter one is
#: too easily another word).
_LEAST = 4


def slips(word: str) -> int:
    """How many edits a word of this length may have from its family's and still be it:
    one in four letters, one at least."""
    return max(1, len(word) // 4)


def misread_word(seen: str, word: str) -> bool:
    """Is `seen` `word` with an OCR slip or two (lower case, as forms keep words)?"""
    if seen == word or len(word) < _LEAST or len(seen) < _LEAST:
        return False
    limit = slips(word)
    return Levenshtein.distance(seen, word, score_cutoff=limit) <= limit


def misread_form(form: Form, target: Form) -> bool:
    """Is `form` `target` with its word misread?"""
    return form._replace(word=target.word) == target and misread_word(form.word, target.word)


def _headings(fam: Family) -> bool:
    """Does `fam` head lines (most of its labels alone or before a title): a word misread is
    joined to a family of headings only (words that begin sentences are many, and alike)."""
    return 2 * len(fam.headings().members) > len(fam.members)


#: The marks after a number a scan reads one for another ("1:" for "1."), and the largest
#: share of a family's labels such a misread family may have to be joined to it.
_CONFUSED_MARKS = frozenset(".:;,")
_FEW_MARKS = 0.25


def misread_mark(form: Form, target: Form) -> bool:
    """Is `form` `target` with the mark after its number read as another ("1:" for "1.")?"""
    return (form._replace(close=target.close) == target and form.close != target.close
            and len(form.close) == len(target.close) == 1
            and {form.close, target.close} <= _CONFUSED_MARKS)


def merged(fams: dict[Form, Family]) -> dict[Form, Family]:
    """`fams` with each family of a misread word joined to the larger family of the word it
    misreads (same number kind, brackets, marks and case), and each small family of a mark
    misread after the number ("1:" among "1.") to the family of that mark."""
    order = sorted(fams.values(), key=lambda f: -len(f.members))
    into: dict[Form, Form] = {}
    for k, small in enumerate(order):
        form = small.form
        for big in order[:k]:
            target = big.form
            if target not in into and len(big.members) > len(small.members) and (
                    (misread_form(form, target) and _headings(small) and _headings(big)) or (
                        misread_mark(form, target)
                        and len(small.members) <= len(big.members) * _FEW_MARKS)):
                into[form] = target
                break
    if not into:
        return fams
    out: dict[Form, Family] = {}
    for form, fam in fams.items():
        target = into.get(form, form)
        members = [(line, tok._replace(form=target)) for line, tok in fam.members]
        if target in out:
            members = sorted(out[target].members + members, key=lambda m: m[0])
        out[target] = Family(target, members)
    return out


#: A line that is one word alone, with a mark or two or one letter after it at most: (its
#: line, the word, what follows it, the line's length); the lines a lost number may be on.
Alone = tuple[int, str, str, int]


def _alone(k: int, text: str) -> Alone | None:
    """Line `k` (`text`) as a word alone (specks before it read past), or None."""
    s = _SPECKS_BEFORE.sub("", text.strip())
    end = 0
    while end < len(s) and s[end].isalpha():
        end += 1
    word, rest = s[:end], s[end:].strip()
    if len(word) < _LEAST or len(rest) > 2 or any(c.isdigit() for c in rest) or (
            len(rest) == 2 and any(c.isalpha() for c in rest)):
        return None  # (a mark or two, or one letter, where the number was: "Article?",
        # "ARTIKEL A"; no digit: a number read is the family's own reading)
    return k, word, rest, len(text)


def _of_form(alone: Alone, form: Form, between: bool) -> bool:
    """Is the word alone `alone` the word of `form` (an OCR slip in it at most, specks
    around it, a mark or two or a letter where its number was): a heading of the family
    whose number the scan lost? Not `between` two labels of the family: only with such a
    mark, other than a stop."""
    _k, word, rest, _n = alone
    if not between and not rest.strip(".:"):
        return False
    if form.capitals != word.isupper() or not word[0].isupper():
        return False
    return word.lower() == form.word or misread_word(word.lower(), form.word)


def with_lost(fam: Family, alone: Sequence[Alone], lines: int) -> Family:
    """`fam` with the headings whose number the scan lost, where the family's runs lack
    exactly one number between two of its labels (or a run starts at 2, or goes on past
    its last) and exactly one line there is its word alone (`alone`: the document's words
    alone, in line order, of its `lines` lines)."""
    form = fam.form
    if not form.word or form.after or len(form.word) < _LEAST or not lines:
        return fam
    at = [a[0] for a in alone]
    found: list[tuple[int, Token]] = []
    runs = fam.runs()
    ends = [r[0][0] for r in runs[1:]] + [lines]
    last = -1  # (the last line of the run before: a run starting at 2 looks back to it)
    for run, end in zip(runs, ends):
        # each gap of one number: between two labels, before a run's 2, after its last
        gaps = [(last, 1, run[0][0], True)] if run[0][1].value == 2 else []
        gaps += [(a, prev.value + 1, b, True) for (a, prev), (b, tok) in pairwise(run)
                 if tok.value == prev.value + 2]
        gaps.append((run[-1][0], run[-1][1].value + 1, end, False))
        last = run[-1][0]
        for a, value, b, between in gaps:
            # (after a run's last label the place is less sure: a mark must stand where the
            # number was, not a stop a heading's word may have: "Article +", not "Article.")
            there = [x for x in alone[bisect_right(at, a):bisect_left(at, b)]
                     if _of_form(x, form, between)]
            if len(there) == 1:
                k, n = there[0][0], there[0][3]
                found.append((k, Token(form, value, str(value), "", "", n, upper=form.capitals)))
    if not found:
        return fam
    return Family(form, sorted(fam.members + found, key=lambda m: m[0]))


def read_noisy(fams: dict[Form, Family], texts: Sequence[str]) -> dict[Form, Family]:
    """The families of a document with its misread labels read as members (see the
    module)."""
    alone = [x for k, text in enumerate(texts) if (x := _alone(k, text)) is not None]
    # (a word's lost numbers first, so that its family is the larger where its misread
    # word's is as large, then again, with the members the misread words brought)
    fams = merged({form: with_lost(fam, alone, len(texts)) for form, fam in fams.items()})
    return {form: with_lost(fam, alone, len(texts)) for form, fam in fams.items()}
