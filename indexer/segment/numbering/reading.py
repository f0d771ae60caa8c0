"""Which label families are the document's levels: chapters (parts), articles, paragraphs.

A reading is chosen for the whole document, not line by line:

- **articles**: the family of headings whose numbers run furthest in sequence through the
  document (a word or none before the number; a title or nothing after it). The words a
  treaty usually heads its articles with are a prior that breaks ties, not a requirement;
  a word that usually heads chapters counts against a family.
- **chapters**: a family of headings that runs in sequence too, each right above an
  article heading (its title between them at most): a level above the articles.
- **paragraphs**: the family whose numbers start again at 1 in each article and run 1, 2, 3
  … inside it, once (a list that starts again inside one article is a level below); a
  paragraph label carrying its article's number ("10.1") must carry the right one.

`read_numbering(texts)` gives the lines of each level with their labels.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from indexer.segment.numbering.families import Family, families, outer_chain
from indexer.segment.numbering.noisy import read_noisy
from indexer.segment.numbering.tokens import Form, Token, line_labels

#: Words that usually head an article (en, pt, sv and the neighbours of their publishers),
#: lower case: a prior for the article level.
ARTICLE_WORDS = frozenset({
    "article", "art.", "artigo", "artikel", "artículo", "articulo", "articolo", "artikkel",
    "artikla", "artiklan", "artikeln",
})
#: Words that usually head a chapter or part: a prior for the chapter level.
CHAPTER_WORDS = frozenset({
    "chapter", "kapitel", "capítulo", "capitulo", "chapitre", "hoofdstuk", "part", "parte",
    "del", "title", "título", "titulo", "avdelning", "section", "secção", "seção", "avsnitt",
    "book", "livro",
})
#: How much a prior weighs against numbers in sequence (one label in a run counts 1).
_PRIOR = 2.5
#: The fewest labels in sequence that make a level of a family no prior speaks for.
MIN_RUN = 3
#: What is not a letter (the texts of a numbered sheet mark are compared by their letters).
_NOT_LETTERS = re.compile(r"[\W\d_]+")
#: Page numbers: the share of the gaps between them within `_EVEN` of a multiple of their
#: median gap (a page's length), of `_PAGE_GAPS` gaps at least.
_PAGES = 0.8
_EVEN = 0.1
_PAGE_GAPS = 4
#: How alike (rapidfuzz ratio) the texts of a numbered sheet mark are from page to page.
_ALIKE = 80
#: The share of a heading family's labels in runs that its longest run holds at least.
_THROUGH = 0.3
#: Spans are no articles when the paragraph numbering starts again this many times each.
_RESTARTS = 0.5
#: What each paragraph past the second adds to an article's count for a paragraph family,
#: and what a list started again inside an article takes from it.
_LONGER = 0.1
_RESTART = 0.5
#: The most lines from a chapter heading to the article heading below it (its title, a
#: heading of a level below and its title).
_CHAPTER_GAP = 6


@dataclass(frozen=True)
class Reading:
    """The levels of a document's numbering: line -> label, for each level found."""

    articles: dict[int, Token]
    chapters: dict[int, Token]
    paragraphs: dict[int, Token]
    article_form: Form | None = None
    paragraph_form: Form | None = None
    points: dict[int, Token] = field(default_factory=dict)  # lists inside the paragraphs


def labels_of(texts: Sequence[str]) -> list[list[Token]]:
    """Every reading of the label each line opens with."""
    return [line_labels(t) for t in texts]


def read_numbering(texts: Sequence[str], labels: Sequence[Sequence[Token]] | None = None,
                   known_heads: Sequence[int] = ()) -> Reading:
    """The reading of `texts`' numbering (`labels`: `labels_of(texts)`, when made already;
    `known_heads`: lines the known heading forms read as article headings, a prior)."""
    if labels is None:
        labels = labels_of(texts)
    fams = list(read_noisy(families(labels), texts).values())
    for art in article_families(fams, frozenset(known_heads)):
        reading = reading_with(fams, art)
        if reading is not None:
            return reading
    return Reading({}, {}, {})


def reading_with(fams: list[Family], art: Family) -> Reading | None:
    """The reading with `art` as the article level, or None when its spans are not articles:
    in most of them a paragraph numbering starts again (chapters, each of several articles
    whose headings are lost)."""
    articles = _chained(art)
    chapters = _chapter_level(fams, art, articles)
    bounds = sorted(set(articles) | set(chapters))
    paragraphs: dict[int, Token] = {}
    pform = None
    for run in _article_runs(articles):  # each instrument (or copy) numbers its own way
        found, form, _lists = _paragraph_level(fams, bounds, run)
        paragraphs.update(found)
        pform = pform or form
    if not _article_word(art.form) and _lists_restart(fams, bounds, articles):
        return None
    points = _point_level(fams, sorted(set(bounds) | set(paragraphs)), art.form, pform)
    return Reading(articles, chapters, paragraphs, art.form, pform, points)


def _lists_restart(fams: list[Family], bounds: list[int], articles: dict[int, Token]) -> bool:
    """Does the document's most used numbering (the bare family with most labels before
    running text) start again inside most of the spans of `articles`, as the paragraphs of
    several articles do inside a chapter?"""
    numbering = [f for f in fams if f.form.bare() and f.form.kind == "arabic"]
    if not numbering:
        return False
    main = max(numbering, key=lambda f: len(f.members) - len(f.headings().members))
    restarts = sum(_nested(main, bounds, run)[2] for run in _article_runs(articles))
    return restarts > _RESTARTS * len(articles)


def _point_level(fams: list[Family], bounds: list[int], *levels: Form | None) -> dict[int, Token]:
    """The labels of the lists inside the paragraphs (or inside articles without numbered
    paragraphs): of every family but the levels above, those that number 1, 2 … (a, b …)
    from the start of a list inside one paragraph, two at least."""
    out: dict[int, Token] = {}
    for fam in fams:
        if fam.form in levels or fam.form.after or fam.form.word:
            continue
        by_span: dict[int, list[tuple[int, Token]]] = {}
        for line, tok in fam.members:
            k = bisect_right(bounds, line) - 1
            if k >= 0 and bounds[k] != line:
                by_span.setdefault(bounds[k], []).append((line, tok))
        for members in by_span.values():
            outer, _lists = outer_chain(members)
            if len(outer) >= 2:
                out.update(outer)
    return out


def _article_runs(articles: dict[int, Token]) -> list[dict[int, Token]]:
    """The article headings in runs: a heading numbered 1 starts a new one (a protocol's,
    another language's, a second copy's articles)."""
    runs: list[dict[int, Token]] = []
    for line, tok in sorted(articles.items()):
        if not runs or tok.value == 1:
            runs.append({})
        runs[-1][line] = tok
    return runs


def _chained(fam: Family) -> dict[int, Token]:
    """The members of `fam` in its runs of two or more (or its only label)."""
    runs = fam.runs()
    kept = [r for r in runs if len(r) >= 2] or runs[:1]
    return {line: tok for run in kept for line, tok in run}


def _candidates(fams: list[Family]) -> list[Family]:
    """The families that may be a level of headings: of a bare label, those of its members
    that head a line of their own (before running text it numbers paragraphs); not one whose
    labels carry the same text each time (a numbered sheet mark: "1 Bihang till riksdagens
    protokoll", "2 Bihang till riksdagens protokoll"), nor numbers alone on their lines
    that head nothing (page numbers)."""
    out = []
    for fam in fams:
        if fam.form.kind in ("alpha", "ALPHA", "decimal"):
            continue
        heads = fam.headings()
        # (a word's labels may also head their article's first sentence: "Article 5 The …";
        # a word after the number is a heading's only alone or before a title)
        alone = fam.form.bare() or fam.form.after or len(heads.members) == len(fam.members)
        for cand in [heads] if alone else [heads, fam]:
            if cand.members and not _same_text(cand) and not _page_numbers(cand):
                out.append(cand)
    return out


def _page_numbers(fam: Family) -> bool:
    """Is `fam` numbers alone on their lines (no word, no bracket, no stop) spaced evenly
    through the document, as pages are (some pages' numbers may be missing: a gap of two or
    three pages), not as articles of any length are?"""
    form = fam.form
    if form.word or form.open or form.close or any(t.rest for _line, t in fam.members):
        return False
    lines = [line for line, _t in fam.members]
    gaps = sorted(b - a for a, b in itertools.pairwise(lines))
    if len(gaps) < _PAGE_GAPS:
        return False
    page = gaps[len(gaps) // 2]
    even = sum(abs(g - page * max(1, round(g / page))) <= _EVEN * g for g in gaps)
    return even >= _PAGES * len(gaps)


def _same_text(fam: Family) -> bool:
    """Do most of the family's labels carry one text (its digits and OCR slips aside)?"""
    if 2 * sum(1 for _line, t in fam.members if t.rest) <= len(fam.members):
        return False  # (most labels alone on their lines: no text to compare)
    rests = [_NOT_LETTERS.sub("", t.rest.lower()) for _line, t in fam.members]
    rests = [r for r in rests if r]
    if len(rests) < 2 or 2 * len(rests) <= len(fam.members):
        return False
    first = rests[0]
    alike = sum(fuzz.ratio(first, r) >= _ALIKE for r in rests[1:]) + 1
    return 2 * alike > len(fam.members)


def article_families(fams: list[Family], known: frozenset[int]) -> list[Family]:
    """The families that may be the article headings, best first: the longest run in
    sequence, with the priors."""
    scored = []
    for k, fam in enumerate(_candidates(fams)):
        longest = fam.longest()
        prior = _article_prior(fam, known)
        if (longest < MIN_RUN and prior <= 0) or not _through(fam):
            continue
        if longest + prior > 0:
            scored.append((-(longest + prior), k, fam))
    return [fam for _score, _k, fam in sorted(scored)]


def _through(fam: Family) -> bool:
    """Do the family's numbers run through the document, as headings' do (one run for each
    language version or instrument), rather than start again and again as a list's? Its
    longest run holds `_THROUGH` of its labels in runs at least."""
    runs = [r for r in fam.runs() if len(r) >= 2]
    chained = sum(len(r) for r in runs)
    return not runs or max(len(r) for r in runs) >= _THROUGH * chained


def _article_word(form: Form) -> bool:
    return form.word in ARTICLE_WORDS or form.word.rstrip(".º°ª") in ARTICLE_WORDS


def _chapter_word(form: Form) -> bool:
    return form.word.rstrip(".º°ª") in CHAPTER_WORDS


def _article_prior(fam: Family, known: frozenset[int]) -> float:
    if _article_word(fam.form) or any(line in known for line, _t in fam.members[:3]):
        return _PRIOR
    if _chapter_word(fam.form):
        return -_PRIOR
    return 0.0


def _chapter_level(fams: list[Family], art: Family, articles: dict[int, Token]) -> dict[int, Token]:
    """The chapter headings: every heading family other than the articles' (a part, a
    chapter, a section: there may be levels above levels) that runs in sequence, each of its
    headings right above an article heading (with the titles and headings of the levels
    between); the words that head articles count against a family, those of chapters for."""
    lines = sorted(articles)
    out: dict[int, Token] = {}
    for fam in _candidates(fams):
        form = fam.form
        if form == art.form or _article_word(form):
            continue
        kept = {line: tok for run in fam.runs() if len(run) >= 2 for line, tok in run}
        kept = {line: tok for line, tok in kept.items() if line not in articles}
        if len(kept) < 2 or not _above(sorted(kept), lines):
            continue
        if _chapter_word(form) or len(kept) >= MIN_RUN:
            out.update(kept)
    return out


def _above(heads: list[int], articles: list[int]) -> bool:
    """Does each chapter heading of `heads` stand right above an article heading: at most
    its title's lines (`_CHAPTER_GAP`) between them?"""
    for line in heads:
        j = bisect_right(articles, line)
        if j >= len(articles) or articles[j] - line > _CHAPTER_GAP:
            return False
    return True


def _paragraph_level(fams: list[Family], bounds: list[int], articles: dict[int, Token]
                     ) -> tuple[dict[int, Token], Form | None, int]:
    """The paragraph labels: the family that numbers 1, 2, 3 … once in each article (the
    lines of the headings above left out); its form, and how many times its numbering
    starts again inside an article."""
    best: dict[int, Token] = {}
    best_form, best_score, best_lists = None, 0.0, 0
    for fam in fams:
        if fam.form.kind in ("alpha", "ALPHA") or fam.form.after or _headings(fam):
            continue
        kept, score, lists = _nested(fam, bounds, articles)
        if score > best_score:
            best, best_form, best_score, best_lists = kept, fam.form, score, lists
    if best_score < 1:
        return {}, None, 0
    return best, best_form, best_lists


def _headings(fam: Family) -> bool:
    """Is `fam` a family of headings ("Artikel 5" of another version), not of paragraphs: a
    word before the number, and most of its labels alone on their line or with a title?"""
    return bool(fam.form.word) and 2 * len(fam.headings().members) > len(fam.members)


def _nested(fam: Family, bounds: list[int], articles: dict[int, Token]
            ) -> tuple[dict[int, Token], float, int]:
    """The labels of `fam` that number an article's paragraphs from 1, and the score of the
    family as the paragraph level: each label in sequence counts, each start again inside
    an article (a list below the paragraphs) counts against it."""
    by_span: dict[int, list[tuple[int, Token]]] = {}
    for line, tok in fam.members:
        k = bisect_right(bounds, line) - 1
        if k < 0 or bounds[k] == line:
            continue
        head = articles.get(bounds[k])
        if head is None:
            continue  # inside a chapter heading's span, before its first article
        if tok.parent is not None and tok.parent != head.value:
            continue  # "10.1" inside Article 11
        by_span.setdefault(bounds[k], []).append((line, tok))
    kept: dict[int, Token] = {}
    score = 0.0
    restarts = 0
    last = max(articles, default=None)
    for head, members in by_span.items():
        outer, lists = outer_chain(members)
        if head == last:
            lists = 0  # what follows the last article (a protocol, another version) is no list
        restarts += lists
        # an article numbered by the family counts one, more for more of its numbers; a list
        # started again inside it counts against (a level below the paragraphs)
        if len(outer) >= 2:
            score += 1.0 + _LONGER * (len(outer) - 2)
        score -= _RESTART * lists
        kept.update(outer)
    return kept, score, restarts
