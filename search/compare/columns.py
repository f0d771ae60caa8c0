"""A compare result as terminal text: language versions in columns side by side, wrapped to
display columns (a CJK character takes two)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

#: What a cell shows when a version has no counterpart.
GAP = "—"


def char_width(c: str) -> int:
    if unicodedata.combining(c):
        return 0
    return 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1


def display_width(s: str) -> int:
    return sum(char_width(c) for c in s)


def wrap(text: str, width: int) -> list[str]:
    """Wrap to `width` display columns: at spaces, anywhere inside a run of wide (CJK)
    characters, and inside a word longer than the line."""
    lines: list[str] = []
    for para in text.split("\n"):
        line, w = "", 0
        for word in re.findall(r"\S+|\s+", para):
            if word.isspace():
                if line:
                    line, w = line + " ", w + 1
                continue
            ww = display_width(word)
            if w + ww <= width:
                line, w = line + word, w + ww
                continue
            if line.strip() and ww <= width and not any(char_width(c) == 2 for c in word):
                lines.append(line.rstrip())
                line, w = word, ww
                continue
            line, w = _break_word(word, width, line, w, lines)
        lines.append(line.rstrip())
    return lines or [""]


def _break_word(word: str, width: int, line: str, w: int, lines: list[str]
                ) -> tuple[str, int]:
    """Put `word` on the current line (`line`, `w` columns wide) and the next ones, broken
    anywhere (CJK runs break anywhere); the full lines go to `lines`."""
    for c in word:
        cw = char_width(c)
        if w + cw > width:
            lines.append(line.rstrip())
            line, w = "", 0
        line, w = line + c, w + cw
    return line, w


def pad(s: str, width: int, right: bool = False) -> str:
    """`s` padded with spaces to `width` terminal columns (CJK characters take two)."""
    fill = " " * max(0, width - display_width(s))
    return fill + s if right else s + fill


def _columns(cells: Sequence[str], width: int, sep: str = " │ ") -> list[str]:
    k = len(cells)
    col = max(8, (width - len(sep) * (k - 1)) // k)
    wrapped = [wrap(c, col) for c in cells]
    height = max(len(w) for w in wrapped)
    out = []
    for i in range(height):
        parts = [pad(w[i] if i < len(w) else "", col) for w in wrapped]
        out.append(sep.join(parts).rstrip())
    return out


def _cell_text(cell: dict | None) -> str:
    if cell is None:
        return GAP
    text = cell["text"] or ""
    return text if text.strip() else GAP


def _rule(text: str, width: int) -> str:
    """`text` as the start of a horizontal rule `width` columns wide."""
    return text + "─" * max(0, width - display_width(text))


def render_columns(result: dict, width: int = 80) -> str:
    """A compare result as text: columns side by side, wrapped to `width`, rows separated by
    a rule with the row's eId, link method and score; a missing counterpart shows "—"."""
    if "articles" in result:
        return _render_topic(result, width)
    langs = result["langs"]
    heads = []
    for lg in langs:
        label = result["labels"].get(lg) or result["article"] or ""
        title = result["titles"].get(lg) or ""
        heads.append(f"[{lg}] {label}" + (f" {title}" if title else ""))
    from search.names import treaty_name

    lines = [f"{treaty_name(result['treaty'])} ({result['treaty']}) {result['eid']}"[:width]]
    lines.extend(_columns(heads, width))
    for row in result["rows"]:
        score = f" {row['score']:.2f}" if row["score"] is not None else ""
        rule = f"── {row['eid']}{' (cont.)' if row['level'].endswith('tail') else ''}  " \
               f"{row['method']}{score} "
        lines.append(_rule(rule[:width], width))
        lines.extend(_columns([_cell_text(row["cells"][lg]) for lg in langs], width))
    return "\n".join(lines)


def _render_topic(result: dict, width: int) -> str:
    from search.names import treaty_name

    lines = [f"topic: {result['topic']}  ({len(result['articles'])} articles)"]
    for a in result["articles"]:
        head = (f"── {treaty_name(a['treaty'])} [{a['lang']}] Article "
                f"{a['label'] or a['number'] or '?'}")
        if a["title"]:
            head += f" {a['title']}"
        lines.append(_rule(head[:width - 1] + " ", width))
        lines.extend(wrap(a["text"], width))
    return "\n".join(lines)
