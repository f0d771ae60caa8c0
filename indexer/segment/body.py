"""Paragraphs and points of one article (or protocol item): `parse_body` splits the lines
after an article's heading and title into numbered paragraphs and their points, reading OCR
slips (look-alike labels, labels stranded at a line end) by context."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from indexer.segment.numerals import garbled_paragraph_label, paragraph_label, point_labels, point_value


def ends_colon(text: str) -> bool:
    return text.rstrip().endswith((":", "："))


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


def parse_body(texts: Sequence[str],
               labels: Sequence[tuple[str, int, int] | None] | None = None) -> tuple[list[int], list[Para]]:
    """Split an article's lines (after heading and title) into paragraphs and points.

    Returns (lines before the first paragraph, paragraphs). Nested lists deeper than points
    (sub-points "(i)" under "a)") stay in their point. Unnumbered lines attach to the point
    they continue (after a colon, a parenthetical "(hereinafter…)", a lower-case
    continuation) or else to the paragraph. `labels`: `paragraph_label` of every line (as
    given), when known.
    """
    lead: list[int] = []
    paras: list[Para] = []
    para_style: str | None = None
    para_value = 0
    stack: list[tuple[str, int]] = []  # open point levels: (style, value)
    prev = ""
    stranded: int | None = None
    for i, raw in enumerate(texts):
        text = raw.strip()
        colon = ends_colon(prev)
        # (a label of the line as given is the stripped line's when nothing was stripped)
        label = pl = labels[i] if labels is not None and len(text) == len(raw) else paragraph_label(text)
        if pl is None and para_style and paras:
            end = garbled_paragraph_label(text, para_style, para_value + 1)
            if end is not None:
                pl = (para_style, para_value + 1, end)
        if pl is None and stranded == para_value + 1 and text[:1].isupper():
            # the label was printed at the end of the line before ("… suecos”) (2)")
            pl = (para_style, stranded, 0)
        stranded = _stranded_label(text, para_style)
        is_para = False
        if pl:
            style, value, _ = pl
            if para_style is None and not (style in ("rparen", "fw") and value != 1):
                is_para = not (colon and paras)
            elif style == para_style and para_value < value <= para_value + 3 and not (colon and value == 1):
                is_para = True
        if is_para and pl:
            para_style, para_value = pl[0], pl[1]
            paras.append(Para(str(pl[1]), pl[1], [i]))
            stack = []
            rest = text[pl[2]:]
            pts = point_labels(rest)
            if pts:
                st, val = pts[0][0], pts[0][1]
                stack = [(st, point_value(st, val))]
                paras[-1].top = stack[0]
                paras[-1].points.append((_point_num(st, val), [i]))
            prev = text
            continue
        reading = _point_reading(text, stack, colon, label)
        if reading is not None:
            depth, style, raw_num = reading
            if not paras:
                paras.append(Para(None, None, []))
            value = point_value(style, raw_num)
            top = paras[-1].top
            if depth == 0 and top and paras[-1].points and _family(style) != _family(top[0]):
                # a list of another style inside a point ("A) … B) …" under "e)"), even
                # after an unlabelled line closed the nesting: never a sibling of "e)"
                depth = 1
                stack = [top]
            stack = stack[:depth] + [(style, value)]
            if depth == 0:
                paras[-1].top = (style, value)
            if depth == 0:
                paras[-1].points.append((_point_num(style, raw_num), [i]))
            elif paras[-1].points:
                paras[-1].points[-1][1].append(i)
            paras[-1].lines.append(i)
            prev = text
            continue
        # unlabeled line
        if not paras:
            if lead or not text:
                lead.append(i)
            else:
                paras.append(Para(None, None, [i]))
            prev = text
            continue
        para = paras[-1]
        para.lines.append(i)
        if stack and para.points:
            lower = bool(text) and text[0].islower() and not prev.rstrip().endswith((".", ";"))
            keep = colon or text.startswith(("(", "（", "-", "–", "•")) or lower or len(stack) > 1
            if keep:
                para.points[-1][1].append(i)
                if not colon and not lower:
                    stack = stack[:1]
            else:
                stack = []
        prev = text
    return lead, paras


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


def _point_num(style: str, raw: str) -> str:
    if style in ("cnparen", "fw", "rparen"):
        return str(point_value(style, raw))
    return raw.lower()


#: Lower-case letters OCR confuses with each other, as point labels.
_LOOKALIKES = {"h": "b", "b": "h", "e": "c", "c": "e", "l": "i", "i": "l", "o": "c"}


def _point_reading(text: str, stack: list[tuple[str, int]], colon: bool,
                   pl: tuple[str, int, int] | None) -> tuple[int, str, str] | None:
    """(depth, style, raw) for a point label at the start of `text`, chosen by context;
    `pl`: its `paragraph_label`."""
    readings = point_labels(text)
    if pl and pl[0] in ("rparen", "fw") and not any(r[0] == pl[0] for r in readings):
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
        return None

    if colon:
        r = push() or cont()
    else:
        r = cont() or (push() if True else None)
    if r is None and not stack:
        style, raw, _ = readings[0]
        if style not in ("rparen", "fw"):
            return 0, style, raw
    return r
