"""Hard-wrapped layout: blocks whose lines are of similar width and break inside sentences are
re-joined into paragraphs (logical lines with their source ranges); texts written one paragraph
per line are left as they are.
"""

from __future__ import annotations

import itertools
import re
from typing import NamedTuple

from indexer.clean.hyphens import HYPHENS, Vocabulary
from indexer.clean.lines import (
    ENDS_IN_LETTER,
    HAN,
    HEADING_OR_LABEL,
    HEADING_START,
    LABEL_THEN_WORD,
    NUMBER_ONLY,
    REFERENCE,
    REFERENCE_END,
    is_han,
    join_lines,
)
from indexer.models import Line


class Physical(NamedTuple):
    """A line of the source with content, not furniture (made by `Physical._make`, namedtuple's
    constructor from a tuple, where a call of the class costs twice as much)."""

    number: int  # 1-based
    raw: str
    text: str  # stripped, drawing rules removed
    page: int
    block: int
    ends: bool  # ends_sentence(text)


class Numbered(NamedTuple):
    """The source lines (numbered as `Physical.number`) the document's own numbering places
    (`indexer.segment.numbering.structure_lines`): headings, and the first lines of numbered
    paragraphs and points. Each opens a logical line; a heading is one of its own (with the
    line of its number, when its word stands alone on the line before: "ARTICLE" / "5")."""

    heads: frozenset[int] = frozenset()
    starts: frozenset[int] = frozenset()
    joins: frozenset[int] = frozenset()  # a heading's word, whose number the next line holds

    def opens(self, number: int) -> bool:
        return number in self.heads or number in self.starts


#: No numbering known: every line judged by its own form.
UNNUMBERED = Numbered()


def _soft_break(line: Physical, following: Physical) -> bool:
    """A break inside a sentence: no terminal punctuation, next line starts lowercase."""
    return not line.ends and following.text[:1].islower()


def _wrapped(block: list[Physical], doc_wrapped: bool, han: bool = True) -> bool:
    """Does this block show hard-wrapped layout (so its lines should be re-joined)?

    `han`: may the block contain Han characters (False when its document has none)."""
    if len(block) < 2:
        return False
    texts = [p.text for p in block]
    if han and HAN.search("\n".join(texts)):  # (one search: a line break is no Han)
        return False
    widths = list(map(len, texts))
    width = max(widths)
    if len(texts) == 2:
        return (
            doc_wrapped
            and width <= 120
            and (_soft_break(block[0], block[1]) or not block[0].ends)
        )
    width = _typical_width(block)  # (a long line left unwrapped does not set it)
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
    open_ends = sum(not a.ends and HEADING_OR_LABEL.match(b.text) is None for a, b in pairs)
    return open_ends >= 0.5 * len(pairs)


def _join_texts(group: list[Physical], vocab: Vocabulary, han: bool = True) -> str:
    """`join_lines` of the texts of `group` in turn, made in one join: the texts are
    stripped and not empty, so each join only adds a space (none between Han characters)
    unless the text so far ends in a hyphen; then that text is made and `join_lines` asked.
    `han`: may the texts contain Han characters (False when their document has none).

    Without Han characters, the texts joined by single spaces are the answer when no text
    but the last ends in a hyphen."""
    texts = [p.text for p in group]
    if not han and HYPHENS.isdisjoint([t[-1] for t in texts[:-1]]):
        return " ".join(texts)
    parts = [texts[0]]
    for tail in texts[1:]:
        last = parts[-1][-1]  # (the text so far ends as its last part does)
        if last in HYPHENS:
            parts = [join_lines("".join(parts), tail, vocab)]
        elif is_han(last) and is_han(tail[0]):
            parts.append(tail)
        else:
            parts.append(" ")
            parts.append(tail)
    return "".join(parts)


def logical_lines(
    block: list[Physical], wrapped: bool, vocab: Vocabulary, han: bool = True,
    numbered: Numbered = UNNUMBERED,
) -> list[Line]:
    """The logical lines of a block: one per physical line, or, when the block is `wrapped`,
    one per paragraph, its texts joined (by `join_lines`, judged by the text's words `vocab`).
    `han`: may the block contain Han characters (False when its document has none);
    `numbered`: the lines the document's numbering places, each of which opens a paragraph."""
    groups = _paragraphs(block, numbered) if wrapped else _soft_wrapped(block, numbered)
    out = []
    for group in groups:
        text = group[0].text if len(group) == 1 else _join_texts(group, vocab, han)
        raw = "\n".join(p.raw for p in group)
        first, last = group[0], group[-1]
        out.append(Line(text, raw, first.number, last.number, first.page, first.block))
    return out


def _soft_wrapped(block: list[Physical], numbered: Numbered) -> list[list[Physical]]:
    """The lines of a block that is not hard-wrapped as a whole, one paragraph each, but for
    the lines a paragraph was wrapped onto here and there ("… there shall be" / "allowed as
    deductions …"): a line that does not end a sentence, followed by one that starts in lower
    case and is no heading, label or cross-reference, goes on with it."""
    groups: list[list[Physical]] = []
    for p in block:
        prev = groups[-1][-1] if groups else None
        if prev is not None and prev.number in numbered.joins:
            groups[-1].append(p)  # a heading's number under its word
        elif (prev is not None and _soft_break(prev, p) and HEADING_OR_LABEL.match(p.text) is None
                and not numbered.opens(p.number) and prev.number not in numbered.heads
                and not (_POINT_ITEM.match(prev.text) and prev.text.endswith(","))):
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


# A point of a list ("b) …", "(iv) …", "2) …"): when it ends in a comma, the lower-case line
# after it concludes the list's paragraph ("…," / "e, em qualquer dos casos …"), no wrap.
_POINT_ITEM = re.compile(r"^\s*\(?(?:[a-z]{1,4}|\d{1,2})\)\s")


def _paragraphs(block: list[Physical], numbered: Numbered) -> list[list[Physical]]:
    """The lines of a wrapped block grouped into paragraphs: a line opens one when it is a
    heading or a label, follows a heading or a line that ends a sentence short of the block's
    width, or opens with a heading keyword and a label after a sentence's end."""
    width = max([len(p.text) for p in block])
    typical = _typical_width(block)
    groups: list[list[Physical]] = []
    prev_heading = False  # is_heading of the line before, asked once per line
    for p in block:
        # (`is_heading` and the first two tests of `starts_item` in one match)
        m = HEADING_OR_LABEL.match(p.text)
        heading = ((m is not None and m.lastindex == 1) or p.number in numbered.heads
                   or (prev_heading and _title_like(p, typical)))
        if groups and groups[-1][-1].number in numbered.joins:
            groups[-1].append(p)  # a heading's number under its word
            prev_heading = True
            continue
        if groups:
            prev = groups[-1][-1]
            new_item = (
                m is not None
                or numbered.opens(p.number)
                or prev_heading
                or ((prev.ends or not prev.text) and HEADING_START.match(p.text) is not None)
            )
            if numbered.opens(p.number):
                pass  # the document's numbering says so
            elif new_item and numbered.heads and _runs_on(prev, typical):
                # a heading or label form the document's own numbering does not place, after
                # a line the text filled without ending it: "… under the provisions of" +
                # "Article 5." is a reference wrapped onto a line of its own
                new_item = prev_heading
            elif new_item and REFERENCE.match(p.text) and ENDS_IN_LETTER.search(prev.text):
                new_item = prev_heading  # "... paragraph" + "(1) of this Article"
            elif (new_item and (NUMBER_ONLY.match(p.text) or LABEL_THEN_WORD.match(p.text))
                  and REFERENCE_END.search(prev.text)):
                new_item = prev_heading  # "… i artikel" + "7.", "… of subparagraph" + "c) of"
            short_end = prev.ends and len(prev.text) < 0.6 * width
            if not new_item and not short_end:
                groups[-1].append(p)
                prev_heading = heading
                continue
        groups.append([p])
        prev_heading = heading
    return groups


def _typical_width(block: list[Physical]) -> int:
    """The width a wrapped block fills its lines to: nine lines in ten are as short (a long
    line left unwrapped, a preamble, does not set it)."""
    widths = sorted(len(p.text) for p in block)
    return widths[int(0.9 * (len(widths) - 1))]


def _runs_on(prev: Physical, width: int) -> bool:
    """Does line `prev` run on into the next: the text filled it, and no sentence or clause
    ends on it?"""
    return len(prev.text) >= 0.7 * width and not prev.ends and not prev.text.endswith(",")


def _title_like(p: Physical, width: int) -> bool:
    """Is line `p`, right after a heading, its title: well short of the block's width, and
    no sentence or clause ends on it?"""
    return len(p.text) < 0.6 * width and not p.ends and not p.text.endswith(",")


def wrapped_blocks(blocks: list[list[Physical]], han: bool = True) -> list[bool]:
    """For each of the blocks of a document (in order): is it hard-wrapped (`_wrapped`)?

    Blocks of 3+ lines vote on the document's layout by how they look on their own, and
    the others are judged in the light of it. `han`: may the blocks contain Han characters."""
    alone = [_wrapped(b, False, han) if len(b) >= 3 else None for b in blocks]
    votes = [v for v in alone if v is not None]
    doc_wrapped = bool(votes) and sum(votes) >= 0.5 * len(votes)
    # (a block wrapped on its own is wrapped in any document: only the rest is judged again)
    return [
        _wrapped(b, doc_wrapped, han) if wrapped is None or (doc_wrapped and not wrapped)
        else wrapped
        for b, wrapped in zip(blocks, alone)
    ]
