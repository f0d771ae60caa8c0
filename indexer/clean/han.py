"""Chinese text hard-wrapped inside its paragraphs (as a PDF extraction leaves it): lines cut at
one width, anywhere in a sentence, to be joined again without a space.

A document's Han lines show such a layout when hardly any is longer than the text's wrap
width (the commonest length of the lines that do not end a sentence, counted in characters
and in display columns: a layout wraps by one or the other) and some reach it. In such a
text a line continues the one before when that one is full (within a small tolerance of the
width) and does not end a sentence (。；：！？), unless the line is a heading on its own
("第五条 常设机构") or opens the next item of a list the paragraph has begun (the 二、 after
一、, the （三） after （二））: a heading or a label met by chance at a line's start (a
wrapped "第七条或第十四条的规定" or "（一）项") continues the sentence it is in. A line short of
the width ends its paragraph: a heading, a title, a paragraph's last line. Texts written one
paragraph per line have no such layout and are left as they are.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections.abc import Sequence
from typing import NamedTuple

from indexer.clean.hyphens import Vocabulary
from indexer.clean.lines import CJK_HEADING, HAN, join_lines
from indexer.clean.wrapping import Physical
from indexer.models import Line
from indexer.segment.numerals import paragraph_label, point_labels, point_value

#: Lines shorter than this many characters never set the width (headings, titles, labels).
_MIN_WIDTH = 12
#: The share of a document's Han lines at most that may be longer than the width in a wrapped
#: layout (a title or a header left as it was), and the fewest full lines it has.
_OVER_SHARE = 0.05
_FULL_LINES = 3
#: A line shorter than the width by at most this share of it (one character, two columns at
#: least) is full.
_TOLERANCE = 0.1
#: A wrapped line is at most this many characters or columns longer than the width (a closing
#: mark hung at its end).
_HANGING = 2

# A heading on its own: 第X条 (章, 节, 款) and nothing after it but a short title set off by a
# blank or a colon, without sentence punctuation.
_HEADING_ALONE = re.compile(CJK_HEADING.pattern + r"(?:\s*$|[\s:：]+[^，。；：、,.;:]{1,30}$)")


def _columns(text: str) -> int:
    """The display width of `text`: wide and fullwidth characters take two columns."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


class HanLayout(NamedTuple):
    """The wrap width of a hard-wrapped Chinese text, in characters and in columns."""

    chars: int
    columns: int

    def full(self, text: str) -> bool:
        """Does line `text` reach the wrap width (by either measure, within the tolerance)?"""
        n = len(text)
        if n >= self.chars - max(1, round(_TOLERANCE * self.chars)):
            return True
        return _columns(text) >= self.columns - max(2, round(_TOLERANCE * self.columns))

    def wrapped(self, text: str) -> bool:
        """Is line `text` one of the text's wrapped lines: full, and not longer than one?"""
        return self.full(text) and not self.over(text)

    def over(self, text: str) -> bool:
        """Is line `text` longer than a line wrapped at the width can be (by both measures)?"""
        return len(text) > self.chars + _HANGING and _columns(text) > self.columns + 2 * _HANGING


def _width(values: Sequence[int]) -> int:
    """The commonest of `values` (the largest on a tie)."""
    return max(statistics.multimode(values))


def han_layout(texts: Sequence[str], ends: Sequence[bool]) -> HanLayout | None:
    """The wrap width of a document whose Han lines (`texts`, stripped; `ends`: whether each
    ends a sentence) are hard-wrapped, else None."""
    han = [(t, e) for t, e in zip(texts, ends) if HAN.search(t)]
    open_lines = [t for t, e in han if not e and len(t) >= _MIN_WIDTH]
    if len(open_lines) < _FULL_LINES:
        return None
    layout = HanLayout(_width([len(t) for t in open_lines]),
                       _width([_columns(t) for t in open_lines]))
    full = sum(1 for t in open_lines if layout.full(t))
    over = sum(1 for t, _e in han if layout.over(t))
    return layout if full >= _FULL_LINES and over <= _OVER_SHARE * len(han) else None


Label = tuple[str, int]  # style, value


def _label(text: str) -> Label | None:
    """The paragraph or point label opening `text` (style, value), if any."""
    para = paragraph_label(text)
    if para is not None:
        return para[0], para[1]
    points = point_labels(text)
    if points:
        style, raw, _end = points[0]
        return style, point_value(style, raw)
    return None


def _next_item(stack: list[Label], label: Label) -> bool:
    """Does `label` number the next item of a list open in `stack` (its levels, outermost
    first)?"""
    return any(style == label[0] and label[1] == value + 1 for style, value in stack)


def _opened(stack: list[Label], label: Label) -> list[Label]:
    """The open lists once an item labelled `label` opens: its level's value set, the levels
    inside it closed (a level of a new style nests inside the last)."""
    for k, (style, _value) in enumerate(stack):
        if style == label[0]:
            return [*stack[:k], label]
    return [*stack, label]


def han_paragraphs(texts: Sequence[str], ends: Sequence[bool], layout: HanLayout) -> list[int]:
    """For each of a block's lines (`texts`, stripped; `ends`: whether each ends a sentence):
    the index of the paragraph it belongs to, counted from 0, by the rules of the module."""
    groups: list[int] = []
    stack: list[Label] = []
    alone_before = False  # is the line before a heading on its own?
    for k, text in enumerate(texts):
        alone = _HEADING_ALONE.match(text) is not None
        label = None if alone else _label(text)
        joins = (
            k > 0 and not ends[k - 1] and not alone_before and not alone
            and layout.full(texts[k - 1]) and not (label and _next_item(stack, label))
        )
        if joins:
            groups.append(groups[-1])
        else:
            groups.append(groups[-1] + 1 if groups else 0)
            if alone:
                stack = []
            elif label is not None:
                stack = _opened(stack, label)
        alone_before = alone
    return groups


def join_han(texts: Sequence[str], vocab: Vocabulary) -> str:
    """The lines of one wrapped Chinese paragraph made one: no space between them, but after a
    Latin letter or a hyphen before a Latin letter (a word wrapped at its blank or hyphenated:
    `join_lines`)."""
    out = texts[0]
    for tail in texts[1:]:
        edge = out[-1:]
        if tail[:1].isascii() and tail[:1].isalpha() and edge.isascii() and (
                edge.isalpha() or edge == "-"):
            out = join_lines(out, tail, vocab)
        else:
            out += tail
    return out


def han_lines(block: Sequence[Physical], layout: HanLayout, vocab: Vocabulary) -> list[Line]:
    """The logical lines of a block of a hard-wrapped Chinese text: one per paragraph
    (`han_paragraphs`), its lines joined by `join_han`."""
    texts = [p.text for p in block]
    groups: list[list[Physical]] = []
    for p, g in zip(block, han_paragraphs(texts, [p.ends for p in block], layout)):
        if g == len(groups):
            groups.append([])
        groups[-1].append(p)
    out = []
    for group in groups:
        first, last = group[0], group[-1]
        text = join_han([p.text for p in group], vocab)
        raw = "\n".join(p.raw for p in group)
        out.append(Line(text, raw, first.number, last.number, first.page, first.block))
    return out
