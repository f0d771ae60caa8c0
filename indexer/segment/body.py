"""Paragraphs and points of one article (or protocol item): `parse_body` splits the lines
after an article's heading and title into numbered paragraphs and their points, reading OCR
slips (look-alike labels, labels stranded at a line end) by context."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from indexer.segment.lines import Label, ends_colon
from indexer.segment.numerals import (
    garbled_paragraph_label,
    paragraph_label,
    point_labels,
    point_value,
)

# ---------------------------------------------------------------------------------------------
# Paragraphs and points
# ---------------------------------------------------------------------------------------------


@dataclass
class Para:
    num: str | None
    value: int | None
    lines: list[int] = field(default_factory=list)
    points: list[tuple[str, list[int]]] = field(default_factory=list)  # (num, lines)
    top: tuple[str, int] | None = None  # style and value of the last top-level point


def _family(style: str) -> str:
    """Point styles that one list may mix: "i)" reads as letter or roman numeral."""
    return {"roman": "alpha", "proman": "palpha"}.get(style, style)


def parse_body(texts: Sequence[str], labels: Sequence[Label | None]) -> tuple[list[int], list[Para]]:
    """Split an article's lines (after heading and title) into paragraphs and points.

    Returns (lines before the first paragraph, paragraphs). Nested lists deeper than points
    (sub-points "(i)" under "a)") stay in their point. Unnumbered lines attach to the point
    they continue (after a colon, a parenthetical "(hereinafter…)", a lower-case
    continuation) or else to the paragraph. `labels`: `paragraph_label` of every line (as
    given).
    """
    body = _Body(frozenset(pl[0] for pl in labels if pl is not None and pl[1] == 2))
    for i, raw in enumerate(texts):
        text = raw.strip()
        colon = ends_colon(body.prev)
        # (a label of the line as given is the stripped line's when nothing was stripped)
        label = labels[i] if len(text) == len(raw) else paragraph_label(text)
        pl = body.paragraph_reading(text, label)
        body.stranded = _stranded_label(text, body.para_style)
        if pl is not None and body.opens_paragraph(pl, colon, text):
            body.open_paragraph(i, text, pl)
        elif (reading := _point_reading(text, body.stack, colon, label)) is not None:
            body.add_point(i, reading)
        else:
            body.add_unlabelled(i, text, colon)
        body.prev = text
    return body.lead, body.paras


class _Body:
    """The paragraphs of an article's lines read so far, and the reading's context."""

    def __init__(self, second: frozenset[str]) -> None:
        self.second = second  # the label styles some line of the article numbers 2
        self.lead: list[int] = []  # unlabelled lines before the first paragraph
        self.paras: list[Para] = []
        self.para_style: str | None = None  # the style of the paragraph labels
        self.para_value = 0  # the number of the last paragraph
        self.stack: list[tuple[str, int]] = []  # open point levels: (style, value)
        self.prev = ""  # the line before (stripped)
        self.stranded: int | None = None  # a paragraph label left at the end of the line before

    def paragraph_reading(self, text: str, label: Label | None) -> Label | None:
        """The paragraph label of a line: its `label`, else an OCR-garbled label of the next
        paragraph (of the first, when a later line numbers a paragraph 2 in its style), else
        the next paragraph's label stranded at the end of the line before."""
        if label is not None:
            return label
        if self.para_style and self.paras:
            end = garbled_paragraph_label(text, self.para_style, self.para_value + 1)
            if end is not None:
                return self.para_style, self.para_value + 1, end
        if self.para_style is None and not self.paras:
            for style in sorted(self.second):  # "l. I denna konvention" before a "2. …"
                end = garbled_paragraph_label(text, style, 1)
                if end is not None:
                    return style, 1, end
        if self.para_style is not None and self.stranded == self.para_value + 1 and text[:1].isupper():
            # the label was printed at the end of the line before ("… suecos”) (2)")
            return self.para_style, self.stranded, 0
        return None

    def opens_paragraph(self, pl: Label, colon: bool, text: str = "") -> bool:
        """Does line `text` with paragraph label `pl` open a paragraph (`colon`: after a colon)?"""
        style, value, _ = pl
        if self._inside_sentence_or_list(pl, text):
            return False
        if self.para_style is None and not (style in ("rparen", "fw") and value != 1):
            return not (colon and self.paras) or (value == 1 and style in self.second and self._lead_only())
        return style == self.para_style and self.para_value < value <= self.para_value + 3 and not (
            colon and value == 1)

    def _inside_sentence_or_list(self, pl: Label, text: str) -> bool:
        """Is the label of line `text` a reference inside a sentence ("… äger enligt" / "§ 2
        av artikel 6, må …"), the next item of a list inside a point ("b) i Sverige," "1. …,"
        "2. …,"), or a point of an unnumbered paragraph ("1)" under "a)", or after "… shall
        cease to have effect")?"""
        style, value, end = pl
        if self.paras and self.prev[-1:].isalpha() and text[end:end + 1].islower():
            return True
        if any(st == style and v + 1 == value for st, v in self.stack) and _item_continues(self.prev):
            return True
        return self.para_style is None and style in ("rparen", "fw") and bool(
            self.stack or (self.paras and _runs_on(self.prev)))

    def _lead_only(self) -> bool:
        """Are the lines read so far one unnumbered paragraph without points (a lead-in: "Double
        taxation shall be eliminated as follows:" before "1. In Slovenia:" … "2. In Sweden:")?"""
        return len(self.paras) == 1 and self.paras[0].num is None and not self.paras[0].points

    def open_paragraph(self, i: int, text: str, pl: Label) -> None:
        """Line i opens a paragraph (label `pl`), maybe with its first point on the line."""
        if self.para_style is None and self._lead_only():
            self.lead.extend(self.paras.pop().lines)  # the lead-in goes with paragraph 1
        self.para_style, self.para_value = pl[0], pl[1]
        para = Para(str(pl[1]), pl[1], [i])
        self.paras.append(para)
        self.stack = []
        pts = point_labels(text[pl[2]:])
        if pts:
            st, val = pts[0][0], pts[0][1]
            self.stack = [(st, point_value(st, val))]
            para.top = self.stack[0]
            para.points.append((_point_num(st, val), [i]))

    def add_point(self, i: int, reading: tuple[int, str, str]) -> None:
        """Line i opens a point: `reading` (depth, style, label) of `_point_reading`."""
        depth, style, raw_num = reading
        if not self.paras:
            self.paras.append(Para(None, None, []))
        para = self.paras[-1]
        value = point_value(style, raw_num)
        top = para.top
        if depth == 0 and top and para.points and _family(style) != _family(top[0]):
            # a list of another style inside a point ("A) … B) …" under "e)"), even
            # after an unlabelled line closed the nesting: never a sibling of "e)"
            depth = 1
            self.stack = [top]
        self.stack = self.stack[:depth] + [(style, value)]
        if depth == 0:
            para.top = (style, value)
            para.points.append((_point_num(style, raw_num), [i]))
        elif para.points:
            para.points[-1][1].append(i)
        para.lines.append(i)

    def add_unlabelled(self, i: int, text: str, colon: bool) -> None:
        """Line i has no label: it continues the point it follows, or else the paragraph."""
        if not self.paras:
            if self.lead or not text:
                self.lead.append(i)
            else:
                self.paras.append(Para(None, None, [i]))
            return
        para = self.paras[-1]
        para.lines.append(i)
        if not (self.stack and para.points):
            return
        # (after an item that ends in "," the line is the paragraph's: "…, or" / "b) …," / "and in
        # either case …" concludes the list, as in the model's Article 9)
        lower = bool(text) and text[0].islower() and not self.prev.rstrip().endswith((".", ";", ","))
        if colon or text.startswith(("(", "（", "-", "–", "•")) or lower or len(self.stack) > 1:
            para.points[-1][1].append(i)
            if not colon and not lower:
                self.stack = self.stack[:1]
        else:
            self.stack = []


_STRANDED_RE = re.compile(r"[.;:)”»\"]\s+(\S{2,5})$")


def _stranded_label(text: str, style: str | None) -> int | None:
    """A paragraph label of the article's style left at the end of a line after a finished
    sentence (OCR layout): "… “impostos suecos”) (2)" -> 2."""
    if style is None:
        return None
    m = _STRANDED_RE.search(text)
    if not m:
        return None
    pl = paragraph_label(m.group(1) + " ")
    if pl is None or pl[0] != style or pl[2] < len(m.group(1)):
        return None
    return pl[1]


def _runs_on(prev: str) -> bool:
    """Does the sentence of line `prev` run on into the next line (no closing punctuation)?"""
    s = prev.rstrip().rstrip("'\"”’»)")
    return bool(s) and s[-1] not in ".!?;:。；：！？…"


#: Words that end a list item followed by another ("…, och", "… and").
_LIST_CONJUNCTIONS = frozenset({"and", "or", "och", "eller", "samt", "e", "ou", "和", "或"})


def _item_continues(prev: str) -> bool:
    """Does line `prev` end a list item that another item follows (a comma, a semicolon, a
    conjunction), rather than a sentence?"""
    s = prev.rstrip()
    if s.endswith((",", ";", "，", "；", "、")):
        return True
    words = s.split()
    return bool(words) and words[-1].lower() in _LIST_CONJUNCTIONS


def _point_num(style: str, raw: str) -> str:
    if style in ("cnparen", "fw", "rparen"):
        return str(point_value(style, raw))
    return raw.lower()


#: Letter labels with and without the opening bracket, as one list's siblings may be printed.
_LETTERS = {"palpha": "alpha", "alpha": "palpha"}
#: Lower-case letters OCR confuses with each other, as point labels.
_LOOKALIKES = {"h": "b", "b": "h", "e": "c", "c": "e", "l": "i", "i": "l", "o": "c"}


def _point_reading(text: str, stack: list[tuple[str, int]], colon: bool,
                   pl: Label | None) -> tuple[int, str, str] | None:
    """(depth, style, raw) for a point label at the start of `text`, chosen by context;
    `pl`: its `paragraph_label`."""
    readings = point_labels(text)
    if pl and (pl[0] in ("rparen", "fw") or (pl[0] == "dot" and stack)) and not any(r[0] == pl[0] for r in readings):
        readings.append((pl[0], text[: pl[2]].strip().rstrip(".．)"), pl[2]))
    if not readings:
        return None
    # OCR misreads a letter label as a look-alike ("h)" for "b)", "e)" for "c)"): read it as
    # the letter the open list expects next, and only then.
    for style, value in stack:
        if style in ("alpha", "palpha") and value < 26:
            expected = chr(ord("a") + value)
            for st, raw, end in list(readings):
                if st == style and expected in _LOOKALIKES.get(raw, ""):
                    readings.insert(0, (style, expected, end))

    def push() -> tuple[int, str, str] | None:
        for style, raw, _ in readings:
            if point_value(style, raw) == 1:
                return (len(stack) if stack else 0), style, raw
        return None

    def cont() -> tuple[int, str, str] | None:
        for depth in range(len(stack) - 1, -1, -1):
            st, val = stack[depth]
            for style, raw, _ in readings:
                if style == st and val < point_value(style, raw) <= val + 2:
                    return depth, style, raw
                if _LETTERS.get(style) == st and point_value(style, raw) == val + 1:
                    return depth, st, raw  # "a) …" then "(b) …": one list, printed unevenly
        return None

    if colon:
        r = push() or cont()
    else:
        r = cont() or push()
    if r is None and not stack:
        style, raw, _ = readings[0]
        if style not in ("rparen", "fw"):
            return 0, style, raw
    return r
