"""The articles of a treaty's body: where each begins (printed headings, and those the print
lost, recovered by `recover`), and each article's unit: chapter, number, title, topic and
its paragraphs."""

from __future__ import annotations

from collections.abc import Sequence

from indexer.models import Unit
from indexer.segment.lines import (
    Heading,
    article_heading,
    chapter_parts,
    heading_like,
    is_chapter,
    top_para,
    unmarked,
)
from indexer.segment.numerals import label_suffix, parse_label, point_labels
from indexer.segment.recover import Anchor, Span, find_references, recover
from indexer.segment.stream import Stream
from indexer.segment.units import paragraph_units, unique_eid, unit
from indexer.topics import treaty_register


def article_units(doc: Stream, run: list[int], lo: int, hi: int, *, has_front: bool, closed: bool
                  ) -> tuple[list[Unit], int | None]:
    """Article units for body [lo, hi) (`run`: its article headings; `has_front`: a title or
    preamble precedes it; `closed`: a closing or protocol follows it), each after the
    chapter unit its span opens with, if any; also where non-treaty trailing text starts."""
    if hi <= lo:
        return [], None
    body = list(doc.texts[lo:hi])
    # trailing lines that do not continue the treaty (an editor's note after an excerpt)
    tail = None if closed else _tail_other(body, doc.lang)
    if tail is not None:
        body = body[:tail]
    units: list[Unit] = []
    chapter: str | None = None
    seen: set[str] = set()
    for sp in _spans(doc, run, lo, body, has_front):
        idx = range(lo + sp.start, lo + sp.end)
        k = _chapter_lines(doc.texts, idx)
        if k:
            units.append(_chapter_unit(doc, idx[:k], seen))
            chapter = units[-1].eid
        if k < len(idx):
            units.append(_article_unit(doc, idx[k:], sp, chapter, seen))
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
    (and its title) above, which opens the article."""
    anchors = []
    for i in run:
        if lo <= i < lo + len(body):
            anchors.append(Anchor(_chapter_above(body, i - lo), doc.heads[i].number, doc.heads[i].label))
    return anchors


#: At most this many title lines between a chapter heading and the heading below it, each
#: at most this long (a long title is wrapped into one logical line).
_CHAPTER_TITLE_LINES = 3
_CHAPTER_TITLE_LEN = 200


def _chapter_above(body: Sequence[str], k: int) -> int:
    """Where the article whose heading is body line `k` starts: at the chapter headings above
    it ("Kapitel 2", its title, "Avsnitt 1", its title), else at `k`."""
    start = k
    while (j := _chapter_over_titles(body, start)) is not None:
        start = j
    return start


def _chapter_over_titles(body: Sequence[str], k: int) -> int | None:
    """The chapter heading line right above line `k`, over at most `_CHAPTER_TITLE_LINES`
    title lines, or None."""
    j = k - 1
    while j >= 0 and k - 1 - j < _CHAPTER_TITLE_LINES and _chapter_title(body[j]):
        j -= 1
    return j if j >= 0 and is_chapter(body[j]) else None


def _chapter_title(text: str) -> bool:
    """Can line `text` be (part of) a chapter's title: heading-like, and no chapter or
    article heading itself?"""
    return heading_like(text, _CHAPTER_TITLE_LEN) and not is_chapter(text) and not article_heading(text)


def _article_unit(doc: Stream, idx: range, sp: Span, chapter: str | None, seen: set[str]) -> Unit:
    """The unit of article `sp`, lines `idx` (from its heading; `chapter`: the eid of the
    chapter it is in; `seen`: the eids of the units before it)."""
    texts = doc.texts
    head = doc.heads.get(idx[0])
    title, k = _title(texts, idx, 0, head)
    body_idx = list(idx[k:])
    if head is not None and head.inline_text:
        body_idx = [idx[k - 1]] + body_idx  # "第一条 为加强…": the heading line is text too
    topic = doc.scores.classify(title, idx.start + k, idx.stop)[0] if doc.topics else None
    eid = _article_eid(sp, seen)
    children = paragraph_units(eid, doc.lines, doc.texts, body_idx, doc.labels, implicit=True)
    return unit(eid, "article", [doc.lines[i] for i in idx], number=sp.number, label=sp.label,
                title=title, topic=topic or sp.topic_hint, number_inferred=sp.inferred,
                chapter=chapter, children=children)


def _chapter_lines(texts: Sequence[str], idx: range) -> int:
    """How many of the lines `idx` (an article's span) are the chapter headings (and their
    titles) it opens with."""
    k = 0
    while k < len(idx) and is_chapter(texts[idx[k]]):
        k += 1
        while k + 1 < len(idx) and _chapter_title(texts[idx[k]]):
            k += 1  # the chapter's title, on one or more lines
    return k


def _chapter_unit(doc: Stream, idx: range, seen: set[str]) -> Unit:
    """The unit of the chapter heading lines `idx`: "chp_4" for "CHAPTER IV", its label and
    title (the last chapter heading when several follow each other)."""
    texts = doc.texts
    first = max(j for j in idx if is_chapter(texts[j]))
    label, title = chapter_parts(texts[first])
    rest = [unmarked(texts[j]) for j in idx if j > first]
    title = " ".join([t for t in [title, *rest] if t]) or None
    number = parse_label(label) if label else None
    eid = unique_eid(f"chp_{number if number is not None else len(seen) + 1}", seen)
    return unit(eid, "chapter", [doc.lines[i] for i in idx], number=number, label=label or None,
                title=title)


def _title(texts: Sequence[str], idx: range, k: int, head: Heading | None) -> tuple[str | None, int]:
    """The article's title (printed on its heading `head` at line `idx[k]`, or on the line
    after it, continued on a line of its own) and where its text begins; (None, k) without a
    heading."""
    if head is None:
        return None, k
    title = unmarked(head.title) or None
    k += 1
    nxt = texts[idx[k + 1]] if k + 1 < len(idx) else ""
    if not title and not head.inline_text and k < len(idx) and _title_line(texts[idx[k]], nxt):
        title = unmarked(texts[idx[k]])
        k += 1
    if title and k + 1 < len(idx) and _continues_title(title, texts[idx[k]]):
        title += " " + unmarked(texts[idx[k]])  # "Undanröjande av" / "dubbelbeskattning"
        k += 1
    return title, k


def _title_line(text: str, nxt: str) -> bool:
    """Is `text`, the line after an article heading (`nxt` the one after it), the article's
    title: heading-like, or short and ending in an abbreviation's full stop ("Pension m.m.")
    right before the article's first numbered paragraph?"""
    if point_labels(nxt):
        return False
    if heading_like(text):
        return True
    s = unmarked(text)
    first = top_para(nxt)
    return (len(s) <= 60 and s.endswith(".") and heading_like(s[:-1]) and first is not None
            and first[1] == 1)


def _continues_title(title: str, text: str) -> bool:
    """Is `text` the rest of a title broken over two lines: a short lower-case line without
    sentence punctuation or a label, after a title that does not end a phrase?"""
    s = unmarked(text)
    return (bool(s) and s[0].islower() and len(s) <= 60 and not title.endswith((".", ":", ";"))
            and not s.endswith((".", ";", ":", ",")) and not top_para(s) and not point_labels(s))


def _article_eid(sp: Span, seen: set[str]) -> str:
    """"art_5", "art_21A" for an inserted article "21A" ("26-A", "10 a": "art_26A",
    "art_10A"; "5 bis": "art_5bis"), with "_" appended when taken."""
    return unique_eid(f"art_{sp.number}{label_suffix(sp.label)}", seen)
