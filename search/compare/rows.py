"""Paragraphs of several treaties' articles on one topic lined up by what they say.

Each column is one treaty's article: a list of paragraphs, each given as its text in one or
more languages (its own, and the linked paragraph of the treaty's other versions). Rows are
built progressively: the longest column is the reference, and each other column is aligned to
the rows so far by an order-preserving dynamic program (a paragraph matched to a row, or left
out of every row) that maximises the summed similarity above `Weights.threshold`; a paragraph
that matches no row gets a row of its own, so none is dropped.

The similarity of two paragraphs is the best over the languages both are given in:

- same language: weighted Dice of their content terms (analysed as the index analyses them,
  `indexer.index.analysis`), each term weighted by its inverse document frequency among the
  paragraphs being aligned, so "Contracting State" weighs little and "pension fund" much;
- two languages: the same, a term counting as shared when one of its translations in the
  bilingual term table the index learns (`indexer.index.terms`) is in the other paragraph;
- in both, the numbers they mention (percentages however printed, the articles and
  paragraphs they refer to, numbers in digits) are terms of every language;
- plus a small prior for lying at the same relative place in their articles.

`number_rows` is the alignment by printed paragraph number, the baseline this replaces
(scripts/measure_topic_rows.py compares the two on a gold of the bundled texts).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: One paragraph: its text per language.
Para = Mapping[str, str]
#: A row: the index of its paragraph in each column, or None.
RowIdx = list["int | None"]
#: The term table of an index: source language -> target language -> term -> terms.
TermTable = Mapping[str, Mapping[str, Mapping[str, Sequence[str]]]]

_NOT_TERM = re.compile(r"[\d\W_]+")
_LABEL = re.compile(r"^\s*(?:§\s*)?(?:\d{1,3}|[a-z]|[一二三四五六七八九十]{1,3})\s*[.)、]\s*")
_DIGITS = re.compile(r"(?<![\w.])\d{1,4}(?:[.,]\d+)?(?![\w])")


@dataclass(frozen=True)
class Weights:
    """The alignment's parameters (tuned on the tune half of the gold)."""

    threshold: float = 0.4  # a match must score at least this much
    position: float = 0.3  # weight of the relative-position prior
    number: float = 2.0  # weight of a shared number, as a multiple of the largest idf
    #: share of the score that is the similarity relative to the best rival of either
    #: paragraph (1: they are each other's best), which puts language pairs whose absolute
    #: similarities differ in scale (a sparse term table) on one scale
    relative: float = 0.5


WEIGHTS = Weights()


def _numbers(text: str) -> set[str]:
    """The numbers a paragraph mentions, as language-free terms ("%15", "art19", "§2", "#183")."""
    from indexer.rates.numbers import percentages
    from indexer.segment.numerals import (
        article_reference_re,
        paragraph_reference_re,
        parse_label,
    )

    out = {f"%{p.value:g}" for p in percentages(text)}
    for m in paragraph_reference_re().finditer(text):
        art = parse_label(m.group("art") or m.group("zart") or "")
        para = parse_label(m.group("para") or m.group("zpara") or "")
        out |= {f"art{art}", f"art{art}§{para}"}
    for m in article_reference_re().finditer(text):
        art = parse_label(m.group("label") or m.group("zlabel") or "")
        if art is not None:
            out.add(f"art{art}")
    out |= {f"#{m.group()}" for m in _DIGITS.finditer(text)}
    return out


def _terms(text: str, lang: str) -> set[str]:
    from indexer.index.analysis import analyse

    return {t.term for t in analyse(text, lang) if not _NOT_TERM.fullmatch(t.term)}


@dataclass
class _Bag:
    terms: set[str]  # analysed content terms
    numbers: set[str]


def _bags(columns: Sequence[Sequence[Para]]) -> list[list[dict[str, _Bag]]]:
    out = []
    for col in columns:
        out.append([{lang: _Bag(_terms(_LABEL.sub("", t, 1), lang), _numbers(_LABEL.sub("", t, 1)))
                     for lang, t in para.items() if t} for para in col])
    return out


def _idf(bags: list[list[dict[str, _Bag]]]) -> dict[str, dict[str, float]]:
    """Per language: each term's inverse document frequency among the paragraphs."""
    df: dict[str, Counter] = {}
    n: Counter = Counter()
    for col in bags:
        for para in col:
            for lang, bag in para.items():
                df.setdefault(lang, Counter()).update(bag.terms)
                n[lang] += 1
    return {lang: {t: math.log(1 + n[lang] / c) for t, c in counts.items()}
            for lang, counts in df.items()}


class _Similarity:
    """Paragraph similarity over the bags of one alignment."""

    def __init__(self, bags: list[list[dict[str, _Bag]]], table: TermTable, weights: Weights):
        self.idf = _idf(bags)
        self.table = table
        top = max((w for ws in self.idf.values() for w in ws.values()), default=1.0)
        self.number_weight = weights.number * top

    def _side(self, a: _Bag, la: str, b: _Bag, lb: str) -> tuple[float, float]:
        """(weight of a's terms found in b, total weight of a's terms)."""
        idf = self.idf.get(la, {})
        trans = self.table.get(la, {}).get(lb, {}) if la != lb else {}
        found = total = 0.0
        for t in a.terms:
            w = idf.get(t, 0.0)
            total += w
            if t in b.terms or any(y in b.terms for y in trans.get(t, ())):
                found += w
        shared = len(a.numbers & b.numbers)
        return found + shared * self.number_weight, total + len(a.numbers) * self.number_weight

    def bags(self, a: _Bag, la: str, b: _Bag, lb: str) -> float:
        fa, ta = self._side(a, la, b, lb)
        fb, tb = self._side(b, lb, a, la)
        return (fa + fb) / (ta + tb) if ta + tb else 0.0

    def paras(self, p: dict[str, _Bag], q: dict[str, _Bag]) -> float:
        same = [lg for lg in p if lg in q]
        pairs = [(lg, lg) for lg in same] or [(la, lb) for la in p for lb in q]
        return max((self.bags(p[la], la, q[lb], lb) for la, lb in pairs), default=0.0)


def _dp(score: list[list[float]]) -> list[tuple[int | None, int | None]]:
    """The order-preserving matching of rows (i) and paragraphs (j) maximising the summed
    scores of the matched pairs (only positive scores are worth matching), as a sequence of
    (i, j), (i, None) or (None, j) steps in order."""
    n, m = len(score), len(score[0]) if score else 0
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = max(best[i + 1][j], best[i][j + 1], score[i][j] + best[i + 1][j + 1])
    steps: list[tuple[int | None, int | None]] = []
    i = j = 0
    while i < n or j < m:
        if i < n and j < m and score[i][j] > 0 and best[i][j] == score[i][j] + best[i + 1][j + 1]:
            steps.append((i, j))
            i, j = i + 1, j + 1
        elif j < m and (i == n or best[i][j] == best[i][j + 1]):
            steps.append((None, j))
            j += 1
        else:
            steps.append((i, None))
            i += 1
    return steps


def align_rows(columns: Sequence[Sequence[Para]], table: TermTable | None = None,
               weights: Weights = WEIGHTS) -> list[RowIdx]:
    """Rows of paragraphs that say the same thing: per row, the index of its paragraph in
    each column (None where that column has none). Every paragraph is in exactly one row, and
    each column's paragraphs keep their order."""
    if not columns:
        return []
    bags = _bags(columns)
    sim = _Similarity(bags, table or {}, weights)
    ref = max(range(len(columns)), key=lambda c: (len(columns[c]), -c))
    rows: list[RowIdx] = [[None] * len(columns) for _ in columns[ref]]
    for i, row in enumerate(rows):
        row[ref] = i
    for c in [c for c in range(len(columns)) if c != ref]:
        rows = _add_column(rows, c, bags, sim, weights)
    return rows


def _add_column(rows: list[RowIdx], c: int, bags: list[list[dict[str, _Bag]]],
                sim: _Similarity, weights: Weights) -> list[RowIdx]:
    """`rows` with column `c`'s paragraphs placed: in the row they match, else in new rows."""
    m = len(bags[c])
    raw = [[max(sim.paras(bags[k][x], bags[c][j]) for k, x in enumerate(row) if x is not None)
            for j in range(m)] for row in rows]
    score = []
    for i, line in enumerate(raw):
        out_line = []
        for j, s in enumerate(line):
            rival = max(max(line), max(r[j] for r in raw))
            s = (1 - weights.relative) * s + weights.relative * (s / rival if rival else 0.0)
            prior = 1 - abs((i + 0.5) / len(rows) - (j + 0.5) / m)
            out_line.append(s + weights.position * prior - weights.threshold)
        score.append(out_line)
    out: list[RowIdx] = []
    for i, j in _dp(score):
        if i is None:
            row: RowIdx = [None] * len(bags)
        else:
            row = rows[i]
        row[c] = j
        out.append(row)
    return out


def number_rows(nums: Sequence[Sequence[str | None]]) -> list[RowIdx]:
    """The baseline: a row per printed paragraph number (numbers first, in order), a cell per
    column; a paragraph without a number is in no row."""
    keys: list[str] = []
    for col in nums:
        keys.extend(n for n in col if n and n not in keys)
    keys.sort(key=lambda n: (not n.isdigit(), int(n) if n.isdigit() else 0, n))
    return [[next((j for j, n in enumerate(col) if n == key), None) for col in nums]
            for key in keys]
