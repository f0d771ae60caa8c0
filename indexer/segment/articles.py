"""The articles of a treaty's body: where each begins (printed headings, and those the print
lost, recovered by `recover`), and each article's unit: chapter, number, title, topic and
its paragraphs."""

from __future__ import annotations

import re
from collections.abc import Sequence

from indexer.models import Unit
from indexer.segment.lines import (
    Heading,
    article_heading,
    chapter_label,
    heading_like,
    is_chapter,
    top_para,
)
from indexer.segment.numerals import point_labels
from indexer.segment.recover import Anchor, Span, find_references, recover
from indexer.segment.stream import Stream
from indexer.segment.units import paragraph_units, unique_eid, unit
from indexer.topics import treaty_register


def article_units(doc: Stream, run: list[int], lo: int, hi: int, *, has_front: bool, closed: bool
                  ) -> tuple[list[Unit], int | None]:
    """Article units for body [lo, hi) (`run`: its article headings; `has_front`: a title or
    preamble precedes it; `closed`: a closing or protocol follows it); also where non-treaty
    trailing text starts, if any."""
    if hi <= lo:
        return [], None
    body = list(doc.texts[lo:hi])
    # trailing lines that do not continue the treaty (an editor's note after an excerpt)
    tail = None if closed else _tail_other(body, doc.lang)
    if tail is not None:
        body = body[:tail]
    units = []
    chapter: str | None = None
    seen: set[str] = set()
    for sp in _spans(doc, run, lo, body, has_front):
        chapter, article = _article_unit(doc, range(lo + sp.start, lo + sp.end), sp, chapter, seen)
        units.append(article)
    return units, (lo + tail if tail is not None else None)


def _tail_other(body: Sequence[str], lang: str) -> int | None:
    """Index of the first trailing line that is not treaty text: unnumbered lines after the
    last numbered paragraph that score low on treaty register (first person, editorial)."""
    last_num = max((i for i, t in enumerate(body) if top_para(t) or point_labels(t) or article_heading(t)), default=None)
    if last_num is None:
        return None
    for i in range(last_num + 1, len(body)):
        if treaty_register(body[i], lang) <= 0:
            return i
    return None


def _spans(doc: Stream, run: list[int], lo: int, body: list[str], has_front: bool) -> list[Span]:
    """The articles of body lines `body` (from line `lo`): printed and recovered."""
    anchors = _anchors(doc, run, lo, body)
    forced = [i for i, t in enumerate(body) if is_chapter(t) and not any(a.index == i for a in anchors)]
    first = doc.article if doc.article is not None else (1 if has_front else None)
    raw = doc.scores.line_raws(lo, lo + len(body))  # each line's `raw_scores`
    return recover(body, anchors, forced, first_number=first, refs=find_references(doc.texts), raw=raw,
                   labels=doc.labels[lo:lo + len(body)])


def _anchors(doc: Stream, run: list[int], lo: int, body: list[str]) -> list[Anchor]:
    """The printed headings among body lines `body` (from line `lo`), at the chapter heading
    (and its title) directly above, which opens the article."""
    anchors = []
    for i in run:
        if not lo <= i < lo + len(body):
            continue
        k = i - lo
        if k >= 1 and is_chapter(body[k - 1]):
            k -= 1
        elif k >= 2 and is_chapter(body[k - 2]) and heading_like(body[k - 1]):
            k -= 2
        anchors.append(Anchor(k, doc.heads[i].number, doc.heads[i].label))
    return anchors


def _article_unit(doc: Stream, idx: range, sp: Span, chapter: str | None, seen: set[str]
                  ) -> tuple[str | None, Unit]:
    """The chapter the article is in (`chapter`: the one before it) and the unit of article
    `sp`, lines `idx` (`seen`: the eids of the articles before it)."""
    texts = doc.texts
    chapter, k = _chapter(texts, idx, chapter)
    head = doc.heads.get(idx[k]) if k < len(idx) else None
    title, k = _title(texts, idx, k, head)
    body_idx = list(idx[k:])
    if head is not None and head.inline_text:
        body_idx = [idx[k - 1]] + body_idx  # "第一条 为加强…": the heading line is text too
    topic = doc.scores.classify(title, idx.start + k, idx.stop)[0] if doc.topics else None
    eid = _article_eid(sp, seen)
    children = paragraph_units(eid, doc.lines, body_idx, doc.labels, implicit=True)
    return chapter, unit(eid, "article", [doc.lines[i] for i in idx], number=sp.number, label=sp.label,
                         title=title, topic=topic or sp.topic_hint, number_inferred=sp.inferred,
                         chapter=chapter, children=children)


def _chapter(texts: Sequence[str], idx: range, chapter: str | None) -> tuple[str | None, int]:
    """The chapter heading (and its title line) at the top of article lines `idx`: the
    chapter from there on (else `chapter`), and how many lines it takes."""
    k = 0
    while k < len(idx) and is_chapter(texts[idx[k]]):
        chapter = chapter_label(texts[idx[k]])
        k += 1
        if k < len(idx) and heading_like(texts[idx[k]]) and not article_heading(texts[idx[k]]):
            chapter += " – " + texts[idx[k]].strip()
            k += 1
    return chapter, k


def _title(texts: Sequence[str], idx: range, k: int, head: Heading | None) -> tuple[str | None, int]:
    """The article's title (printed on its heading `head` at line `idx[k]`, or on the line
    after it) and where its text begins; (None, k) without a heading."""
    if head is None:
        return None, k
    title = head.title or None
    k += 1
    nxt = texts[idx[k + 1]] if k + 1 < len(idx) else ""
    if (not title and not head.inline_text and k < len(idx) and heading_like(texts[idx[k]])
            and not point_labels(nxt)):
        title = texts[idx[k]].strip()
        k += 1
    return title, k


def _article_eid(sp: Span, seen: set[str]) -> str:
    """"art_5", "art_5a" for a lettered insertion "5A", with "_" appended when taken."""
    eid = f"art_{sp.number}"
    if sp.label and re.search(r"[A-Za-z]$", sp.label) and re.match(r"\d", sp.label):
        eid += sp.label[-1].lower()
    return unique_eid(eid, seen)
