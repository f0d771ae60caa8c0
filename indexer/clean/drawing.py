"""Drawing rules: signature-block lines made of ``|`` and ``_`` (furniture when a line is only
that), and the rules at the edges of a line of text.
"""

from __future__ import annotations

import re

#: A drawing line is made of these only (possessive: one pass, never a backtrack)...
_DRAWING = re.compile(r"[\s|_¦│┃─━┼┤├+=]++")
_RULE_CHARS = "|_¦│┃─━"  # ...and has one of these
#: What `strip_drawing` removes at a line's edges: white space, vertical rules, and runs of
#: two or more underscores (a single one is text: "art_7").
_EDGE_CHARS = frozenset(" \t\n\r\f\v|¦│")


def has_edge_rule(text: str) -> bool:
    """Has `text` a character `_EDGE_DRAWING` strips besides whitespace?"""
    return "|" in text or "_" in text or "¦" in text or "│" in text


def _edge(line: str, step: int) -> int:
    """How many characters of `line`, from its start (`step` 1) or its end (-1), are edge
    drawing. A scan, not a regex: an alternation of rule runs under a repeat backtracks
    exponentially on a signature line of underscores between words."""
    n, i = len(line), 0
    while i < n:
        ch = line[i if step > 0 else n - 1 - i]
        if ch in _EDGE_CHARS or ch.isspace():
            i += 1
            continue
        if ch != "_":
            break
        j = i
        while j < n and line[j if step > 0 else n - 1 - j] == "_":
            j += 1
        if j - i < 2:
            break
        i = j
    return i


def strip_drawing(line: str) -> str:
    """`line` without the signature-block rules (``|``, ``___``) at its edges."""
    if not has_edge_rule(line):
        return line.strip()
    head = _edge(line, 1)
    if head == len(line):
        return ""
    return line[head:len(line) - _edge(line, -1)].strip()


def drawing_lines(text: str, lines: list[str], blank: list[bool]) -> list[int]:
    """Indexes of those of the `lines` of `text` that are only drawing (`_DRAWING`); `blank`:
    whether each line is whitespace only."""
    # (a drawing line has a rule character: the lines are matched only if the text has one)
    if not any(ch in text for ch in _RULE_CHARS):
        return []
    return [i for i, line in enumerate(lines) if not blank[i] and _DRAWING.fullmatch(line)
            and any(ch in line for ch in _RULE_CHARS)]
