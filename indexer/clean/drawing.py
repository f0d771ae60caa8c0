"""Drawing rules: signature-block lines made of ``|`` and ``_`` (furniture when a line is only
that), and the rules at the edges of a line of text.
"""

from __future__ import annotations

import re

DRAWING = re.compile(r"^[\s|_¦│┃─━┼┤├+=]*[|_¦│┃─━][\s|_¦│┃─━┼┤├+=]*$")
RULE_CHARS = "|_¦│┃─━"  # one of which every `DRAWING` line has
_EDGE_DRAWING = re.compile(r"^(?:[\s|¦│]|_{2,})+|(?:[\s|¦│]|_{2,})+$")


def has_edge_rule(text: str) -> bool:
    """Has `text` a character `_EDGE_DRAWING` strips besides whitespace?"""
    return "|" in text or "_" in text or "¦" in text or "│" in text


def strip_drawing(line: str) -> str:
    """`line` without the signature-block rules (``|``, ``___``) at its edges."""
    if not has_edge_rule(line):
        return line.strip()  # only whitespace to remove (the regex tries every position)
    return _EDGE_DRAWING.sub("", line).strip()
