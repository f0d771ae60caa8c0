"""Stage `clean`: page furniture, hyphenation and column-wrapped lines.

`clean(text)` turns decoded text into logical `Line`s in source order. Running page headers
and footers (recognised as fuzzy-recurring isolated lines, so OCR variants are caught), page
numbers and pure drawing lines (signature-block rules made of ``|`` and ``_``) go to
`Cleaned.furniture`. Blocks whose layout shows hard wrapping (lines of similar width, breaks
inside sentences) are joined into paragraphs, Chinese without spaces and over page breaks;
texts already written one paragraph per line are left as they are.

    document   `clean`: one document's lines, furniture set aside, blocks on pages
    furniture  running headers/footers, page numbers, drawing lines (what goes to furniture)
    drawing    signature-block rules: whole drawing lines and the rules at a line's edges
    wrapping   hard-wrapped blocks re-joined into logical lines
    han        hard-wrapped Chinese: its wrap width, its lines re-joined without spaces
    hyphens    words hyphenated across a line end; the text's own word counts
    lines      headings, item labels, sentence ends, Han text, `join_lines`
"""

from indexer.clean.document import REASONS, clean
from indexer.clean.drawing import strip_drawing
from indexer.clean.hyphens import join_hyphenated
from indexer.clean.lines import (
    CJK_HEADING,
    HEADING_LINE,
    HEADING_START,
    TERMINAL,
    ends_sentence,
    is_heading,
    join_lines,
    starts_item,
)

__all__ = [
    "CJK_HEADING",
    "HEADING_LINE",
    "HEADING_START",
    "REASONS",
    "TERMINAL",
    "clean",
    "ends_sentence",
    "is_heading",
    "join_hyphenated",
    "join_lines",
    "starts_item",
    "strip_drawing",
]
