"""`clean` over one document: its lines split, the furniture found and set aside, the rest
grouped into blocks of physical lines on pages, and each block made logical lines.
"""

from __future__ import annotations

from indexer.clean.drawing import has_edge_rule, strip_drawing
from indexer.clean.furniture import furniture_kinds
from indexer.clean.hyphens import Vocabulary
from indexer.clean.lines import ends_sentence, has_han
from indexer.clean.wrapping import Physical, is_wrapped, logical_lines
from indexer.models import Cleaned, Line


def clean(text: str) -> Cleaned:
    """Logical lines of `text` in source order, and the page furniture removed from it."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    stripped = [line.strip() for line in lines]
    han = has_han(text)
    kinds = furniture_kinds(text, lines, stripped, [not s for s in stripped], han)
    feeds = "\f" in text
    # Without form feeds and drawing rules in the text, a line's body is the line stripped.
    plain = not feeds and not has_edge_rule(text)
    vocab = Vocabulary(text)
    furniture: list[Line] = []
    blocks: list[list[Physical]] = []
    page, block, in_block, seen_content, in_break = 0, -1, False, False, False
    for i, (raw, body) in enumerate(zip(lines, stripped)):
        kind = kinds.get(i)
        if feeds and seen_content and raw.startswith("\f"):
            page += 1
        if kind is not None:
            if kind in ("running", "page-number"):
                if seen_content and not in_break:
                    page += 1
                in_break = True
            furniture.append(Line(body, raw, i + 1, i + 1, page, max(block, 0)))
            in_block = False
            continue
        if not body:
            in_block = False
            continue
        in_break = False
        if not plain:
            body = strip_drawing(raw.replace("\f", "")) or body
        if not in_block:
            block += 1
            blocks.append([])
            in_block = True
        seen_content = True
        blocks[-1].append(Physical(i + 1, raw, body, page, block, ends_sentence(body)))
    # Blocks of 3+ lines vote on the document's layout by how they look on their own.
    alone = [is_wrapped(b, False, han) if len(b) >= 3 else None for b in blocks]
    votes = [v for v in alone if v is not None]
    doc_wrapped = bool(votes) and sum(votes) >= 0.5 * len(votes)
    out: list[Line] = []
    for b, wrapped in zip(blocks, alone):
        # (a block wrapped on its own is wrapped in any document: only the rest is judged again)
        if wrapped is None or (doc_wrapped and not wrapped):
            wrapped = is_wrapped(b, doc_wrapped, han)
        out.extend(logical_lines(b, wrapped, vocab, han))
    return Cleaned(lines=tuple(out), furniture=tuple(furniture))
