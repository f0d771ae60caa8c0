"""`clean` over one document: its lines split, the furniture found and set aside, the rest
grouped into blocks of physical lines on pages, and each block made logical lines.
"""

from __future__ import annotations

from indexer.clean.drawing import has_edge_rule, strip_drawing
from indexer.clean.furniture import furniture_kinds
from indexer.clean.han import HanLayout, han_layout, han_lines
from indexer.clean.hyphens import Vocabulary
from indexer.clean.lines import HAN, ends_sentence, has_han
from indexer.clean.wrapping import Numbered, Physical, logical_lines, wrapped_blocks
from indexer.models import Cleaned, Line
from indexer.segment.numbering import structure_lines

#: A line shorter than this share of the text's width does not run on into the next; one
#: as long as `_FILLED` of it is filled by a wrapped paragraph (no heading is that long).
_SHORT = 0.7
_FILLED = 0.85
#: The furniture that stands between two pages.
_PAGE_BREAKS = ("running", "page-number")


def clean(text: str) -> Cleaned:
    """Logical lines of `text` in source order, and the page furniture removed from it."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    stripped = [line.strip() for line in lines]
    han = has_han(text)
    layout = _han_layout(stripped) if han else None
    structure = structure_lines(stripped, *_runs_on(stripped))
    kinds = furniture_kinds(text, lines, stripped, [not s for s in stripped], han, layout,
                            structure.heads | structure.starts | {k + 1 for k in structure.joins})
    furniture, blocks = _furniture_and_blocks(text, lines, stripped, kinds)
    vocab = Vocabulary(text)
    judged = list(zip(blocks, wrapped_blocks(blocks, han)))
    if layout is not None:  # a paragraph of a wrapped Chinese text goes on over a page break
        judged = _across_pages(judged, kinds)
    # (the numbering's lines by source line number, as `Physical` counts them)
    numbered = Numbered(frozenset(i + 1 for i in structure.heads),
                        frozenset(i + 1 for i in structure.starts),
                        frozenset(i + 1 for i in structure.joins))
    out: list[Line] = []
    for block, wrapped in judged:
        if layout is not None and _has_han(block):
            out.extend(han_lines(block, layout, vocab))
        else:
            out.extend(logical_lines(block, wrapped, vocab, han, numbered))
    reasons = tuple(REASONS[kinds[f.start - 1]] for f in furniture)
    return Cleaned(lines=tuple(out), furniture=tuple(furniture), reasons=reasons)


#: Why a line is removed as page furniture, by its kind (`furniture.furniture_kinds`): what
#: `treaty check` and the repair view tell a reader.
REASONS = {
    "running": "running header or footer (recurs on the pages)",
    "page-number": "page number",
    "drawing": "drawing line (a rule of underscores or bars)",
}


def _runs_on(stripped: list[str]) -> tuple[list[bool], list[bool]]:
    """For each line: does a wrapped text run on from it into the next line -- it is as long
    as `_SHORT` of the text's width (nine lines in ten are no longer) at least, ends no
    sentence, clause or list item ("…;", "…:", "…,"), and a line with text follows? And does
    it run on from a line it filled (as long as `_FILLED` of the width)?"""
    widths = sorted(len(s) for s in stripped if s)
    width = widths[int(0.9 * (len(widths) - 1))] if widths else 0
    runs, filled = [], []
    for k, s in enumerate(stripped):
        on = (bool(s) and k + 1 < len(stripped) and bool(stripped[k + 1])
              and len(s) >= _SHORT * width and not ends_sentence(s) and not s.endswith(","))
        runs.append(on)
        filled.append(on and len(s) >= _FILLED * width)
    return runs, filled


def _han_layout(stripped: list[str]) -> HanLayout | None:
    """`han_layout` of the document's lines (`stripped`, each stripped)."""
    texts = [s for s in stripped if s]
    return han_layout(texts, [ends_sentence(s) for s in texts])


def _has_han(block: list[Physical]) -> bool:
    return any(HAN.search(p.text) for p in block)


def _across_pages(judged: list[tuple[list[Physical], bool]], kinds: dict[int, str]
                  ) -> list[tuple[list[Physical], bool]]:
    """The blocks (each with its `wrapped_blocks` verdict) with every two blocks of Han text
    that only page furniture (`kinds`, by line index: a running header, a page number)
    separates made one, so that a paragraph is joined over the page break."""
    out: list[tuple[list[Physical], bool]] = []
    for block, wrapped in judged:
        if out and _page_break_between(out[-1][0][-1].number, block[0].number, kinds) and (
                _has_han(block) and _has_han(out[-1][0])):
            out[-1] = (out[-1][0] + block, out[-1][1])
        else:
            out.append((block, wrapped))
    return out


def _page_break_between(before: int, after: int, kinds: dict[int, str]) -> bool:
    """Are the source lines between line numbers `before` and `after` (1-based) page
    furniture, one at least, and blank lines?"""
    between = range(before, after - 1)  # (their indexes)
    furniture = [i for i in between if i in kinds]
    return bool(furniture) and all(kinds[i] in _PAGE_BREAKS for i in furniture)


def _furniture_and_blocks(
    text: str, lines: list[str], stripped: list[str], kinds: dict[int, str]
) -> tuple[list[Line], list[list[Physical]]]:
    """The furniture lines (`kinds`: their kind by line index) and the blocks of the other
    lines of `text` (runs of lines with content, between blank lines and furniture), each line
    on its page: a form feed opens a page, and so do running headers and page numbers after
    text. `lines`: the lines of `text`; `stripped`: each stripped."""
    feeds = "\f" in text
    # Without form feeds and drawing rules in the text, a line's body is the line stripped.
    plain = not feeds and not has_edge_rule(text)
    furniture: list[Line] = []
    blocks: list[list[Physical]] = []
    page, in_block, seen_content, in_break = 0, False, False, False
    for i, (raw, body) in enumerate(zip(lines, stripped)):
        kind = kinds.get(i)
        if feeds and seen_content and raw.startswith("\f"):
            page += 1
        if kind is not None:
            if kind in _PAGE_BREAKS:
                if seen_content and not in_break:
                    page += 1
                in_break = True
            furniture.append(Line(body, raw, i + 1, i + 1, page, max(len(blocks) - 1, 0)))
            in_block = False
        elif not body:
            in_block = False
        else:
            in_break, seen_content = False, True
            if not plain:
                body = strip_drawing(raw.replace("\f", "")) or body
            if not in_block:
                blocks.append([])
                in_block = True
            physical = (i + 1, raw, body, page, len(blocks) - 1, ends_sentence(body))
            blocks[-1].append(Physical._make(physical))
    return furniture, blocks
