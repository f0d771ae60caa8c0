"""Drawing rules: signature-block lines made of ``|`` and ``_`` (furniture when a line is only
that), and the rules at the edges of a line of text.
"""

from __future__ import annotations

import re

_DRAWING = re.compile(r"^[\s|_¦│┃─━┼┤├+=]*[|_¦│┃─━][\s|_¦│┃─━┼┤├+=]*$")
_RULE_CHARS = "|_¦│┃─━"  # one of which every `_DRAWING` line has
_EDGE_DRAWING = re.compile(r"^(?:[\s|¦│]|_{2,})+|(?:[\s|¦│]|_{2,})+$")


def has_edge_rule(text: str) -> bool:
    """Has `text` a character `_EDGE_DRAWING` strips besides whitespace?"""
    return "|" in text or "_" in text or "¦" in text or "│" in text


def strip_drawing(line: str) -> str:
    """`line` without the signature-block rules (``|``, ``___``) at its edges."""
    if not has_edge_rule(line):
        return line.strip()  # only whitespace to remove (the regex tries every position)
    return _EDGE_DRAWING.sub("", line).strip()


def drawing_lines(text: str, lines: list[str], blank: list[bool]) -> list[int]:
    """Indexes of those of the `lines` of `text` that are only drawing (`_DRAWING`); `blank`:
    whether each line is whitespace only."""
    # (a drawing line has a rule character: the lines are matched only if the text has one)
    if not any(ch in text for ch in _RULE_CHARS):
        return []
    return [i for i, line in enumerate(lines) if not blank[i] and _DRAWING.match(line)]
