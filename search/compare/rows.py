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
from dataclasses import dataclass, field

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
#: Cells of each language a row is compared through.
REPRESENTATIVES = 3


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
    from indexer.index.analysis import index_terms  # (analyse's terms, without its tokens)

    return {t for t in index_terms(text, lang).terms if not _NOT_TERM.fullmatch(t)}


@dataclass
class _Bag:
    """One paragraph in one language, as compared."""

    lang: str
    terms: set[str]  # analysed content terms
    numbers: set[str]
    total: float = 0.0  # the weight of its terms and numbers (set by _Similarity)
    #: per other language: its terms that are in this bag or translate into one of its terms
    reach: dict[str, set[str]] = field(default_factory=dict)


def _bags(columns: Sequence[Sequence[Para]]) -> list[list[dict[str, _Bag]]]:
    out = []
    for col in columns:
        paras = []
        for para in col:
            texts = {lang: _LABEL.sub("", t, 1) for lang, t in para.items() if t}
            paras.append({lang: _Bag(lang, _terms(t, lang), _numbers(t))
                          for lang, t in texts.items()})
        out.append(paras)
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
        self._into: dict[tuple[str, str], dict[str, set[str]]] = {}
        top = max((w for ws in self.idf.values() for w in ws.values()), default=1.0)
        self.number_weight = weights.number * top
        for col in bags:
            for para in col:
                for bag in para.values():
                    idf = self.idf.get(bag.lang, {})
                    bag.total = sum(idf.get(t, 0.0) for t in bag.terms) \
                        + len(bag.numbers) * self.number_weight

    def _translating_into(self, la: str, lb: str) -> dict[str, set[str]]:
        """Term y of `lb` -> the terms of `la` the table translates into y."""
        key = (la, lb)
        if key not in self._into:
            into: dict[str, set[str]] = {}
            for x, ys in self.table.get(la, {}).get(lb, {}).items():
                for y in ys:
                    into.setdefault(y, set()).add(x)
            self._into[key] = into
        return self._into[key]

    def _reach(self, b: _Bag, la: str) -> set[str]:
        """The terms of `la` that count as found in `b`."""
        if la == b.lang:
            return b.terms
        if la not in b.reach:
            into = self._translating_into(la, b.lang)
            reach = set(b.terms)
            for y in b.terms:
                reach |= into.get(y, set())
            b.reach[la] = reach
        return b.reach[la]

    def _found(self, a: _Bag, b: _Bag) -> float:
        """The weight of a's terms and numbers found in b."""
        idf = self.idf.get(a.lang, {})
        found = sum(idf.get(t, 0.0) for t in a.terms & self._reach(b, a.lang))
        return found + len(a.numbers & b.numbers) * self.number_weight

    def bags(self, a: _Bag, b: _Bag) -> float:
        total = a.total + b.total
        return (self._found(a, b) + self._found(b, a)) / total if total else 0.0

    def paras(self, p: dict[str, _Bag], q: dict[str, _Bag]) -> float:
        same = [lg for lg in p if lg in q]
        pairs = [(lg, lg) for lg in same] or [(la, lb) for la in p for lb in q]
        return max((self.bags(p[la], q[lb]) for la, lb in pairs), default=0.0)


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


def _representatives(row: RowIdx, bags: list[list[dict[str, _Bag]]]) -> list[dict[str, _Bag]]:
    """The cells a row is compared through: its first REPRESENTATIVES of each language (so
    a page of many treaties costs in proportion to their number, not its square)."""
    out: list[dict[str, _Bag]] = []
    seen: Counter = Counter()
    for k, x in enumerate(row):
        if x is None or not bags[k][x]:
            continue
        lang = next(iter(bags[k][x]))
        if seen[lang] < REPRESENTATIVES:
            seen[lang] += 1
            out.append(bags[k][x])
    return out


def _add_column(rows: list[RowIdx], c: int, bags: list[list[dict[str, _Bag]]],
                sim: _Similarity, weights: Weights) -> list[RowIdx]:
    """`rows` with column `c`'s paragraphs placed: in the row they match, else in new rows."""
    m = len(bags[c])
    raw = []
    for row in rows:
        cells = _representatives(row, bags)
        raw.append([max((sim.paras(cell, bags[c][j]) for cell in cells), default=0.0)
                    for j in range(m)])
    col_best = [max((line[j] for line in raw), default=0.0) for j in range(m)]
    score = []
    for i, line in enumerate(raw):
        row_best = max(line, default=0.0)
        out_line = []
        for j, s in enumerate(line):
            rival = max(row_best, col_best[j])
            s = (1 - weights.relative) * s + weights.relative * (s / rival if rival else 0.0)
            prior = 1 - abs((i + 0.5) / len(rows) - (j + 0.5) / m)
            out_line.append(s + weights.position * prior - weights.threshold)
        score.append(out_line)
    out: list[RowIdx] = []
    for i, j in _dp(score):
        row: RowIdx = [None] * len(bags) if i is None else rows[i]
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
