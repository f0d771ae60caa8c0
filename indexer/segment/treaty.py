"""The treaty's region of a stream, cut into its parts: text before the title, title,
preamble, the articles (`articles`), text after them that is not treaty text, closing
formula and signatures, protocol with its items, and text after a closing."""

from __future__ import annotations

import re
from collections.abc import Sequence

from indexer.models import Unit
from indexer.segment.articles import article_units
from indexer.segment.lines import (
    ADDRESS_RE,
    AGREED_RE,
    ANNEX_RE,
    CLOSING_RE,
    INSTRUMENT_RE,
    PROTOCOL_RE,
    SIGNATURE_RE,
    article_heading,
    ends_colon,
    heading_like,
    is_chapter,
    top_of,
    unmarked,
)
from indexer.segment.protocol import item_label, item_starts, item_title, refers_to
from indexer.segment.stream import Stream
from indexer.segment.units import paragraph_units, unit


def treaty_units(doc: Stream, run: list[int], lo: int, hi: int) -> list[Unit]:
    """Units of the treaty region [lo, hi) of `doc` whose article headings are the lines
    `run` (other runs already removed)."""
    body_end = _body_end(doc.texts, run, lo, hi)
    body_start = _body_start(doc, run, lo, body_end)
    units = _front_units(doc, lo, body_start)
    # (after the articles, a closing or a protocol: no trailing text of another kind to look for)
    closed = body_end < hi and not ANNEX_RE.match(doc.texts[body_end])
    articles, tail = article_units(doc, run, body_start, body_end, has_front=body_start > lo,
                                   closed=closed)
    units.extend(articles)
    if tail is not None and tail < body_end:
        units.append(unit("other", "other", doc.lines[tail:body_end], note="not treaty text"))
    units.extend(_back_units(doc, body_end, hi))
    return units


def _body_end(texts: Sequence[str], run: list[int], lo: int, hi: int) -> int:
    """End of the articles: the closing formula (or a note's address to its recipient),
    protocol heading or annex heading after the last article heading (or anywhere when
    none), else `hi`."""
    last_head = run[-1] if run else lo
    return next((j for j in range(last_head, hi) if _ends_body(texts[j])), hi)


def _ends_body(text: str) -> bool:
    return bool(CLOSING_RE.match(text) or PROTOCOL_RE.match(text) or ANNEX_RE.match(text)
                or ADDRESS_RE.match(text))


def _body_start(doc: Stream, run: list[int], lo: int, body_end: int) -> int:
    """First line of the articles: the first heading (or a chapter heading and its title
    above it); without headings, the line after "agreed as follows:" or else the first
    numbered paragraph or chapter heading."""
    texts = doc.texts
    if run:
        body_start = run[0]
        while body_start - 1 >= lo and is_chapter(texts[body_start - 1]) or (
            body_start - 2 >= lo and is_chapter(texts[body_start - 2]) and heading_like(texts[body_start - 1])):
            body_start -= 1 if is_chapter(texts[body_start - 1]) else 2
        return body_start
    agreed = next((j for j in range(lo, body_end) if AGREED_RE.search(texts[j]) and ends_colon(texts[j])), None)
    if agreed is not None:
        return agreed + 1
    return next((j for j in range(lo, body_end) if top_of(doc.labels[j]) or is_chapter(texts[j])), body_end)


def _front_units(doc: Stream, lo: int, body_start: int) -> list[Unit]:
    """Text before the title, the title (and the lines that continue it), the preamble."""
    texts, lines = doc.texts, doc.lines
    title_idx = next((j for j in range(lo, body_start) if INSTRUMENT_RE.search(texts[j])), None)
    if title_idx is None:
        return [unit("preamble", "preamble", lines[lo:body_start])] if body_start > lo else []
    units = []
    if title_idx > lo:
        units.append(unit("other", "other", lines[lo:title_idx], note="text before the treaty title"))
    t_end = title_idx + 1
    while t_end < body_start and _title_continues(texts[t_end]):
        t_end += 1
    units.append(unit("title", "title", lines[title_idx:t_end]))
    if t_end < body_start:
        units.append(unit("preamble", "preamble", lines[t_end:body_start]))
    return units


def _title_continues(text: str) -> bool:
    s = text.strip()
    if not s or len(s) > 160 or AGREED_RE.search(s):
        return False
    letters = [c for c in s if c.isalpha()]
    upper = letters and sum(c.isupper() for c in letters) / len(letters) > 0.8
    cjk = any("\u4e00" <= c <= "\u9fff" for c in s) and not re.search(r"[，。：；]", s)
    return bool(upper or s[0].islower() or cjk or INSTRUMENT_RE.search(s))


def _back_units(doc: Stream, j: int, hi: int) -> list[Unit]:
    """Closings, protocols, annexes and the text between them in [j, hi), after the
    articles."""
    texts, lines = doc.texts, doc.lines
    units: list[Unit] = []
    annexes = 0
    while j < hi:
        protocol = PROTOCOL_RE.match(texts[j]) or (  # "Bilaga 2" over "Protokoll": the protocol
            ANNEX_RE.match(texts[j]) and j + 1 < hi and PROTOCOL_RE.match(texts[j + 1]))
        if ANNEX_RE.match(texts[j]) and not protocol:
            end = next((k for k in range(j + 1, hi) if ANNEX_RE.match(texts[k])), hi)
            annexes += 1
            units.append(unit(f"annex_{annexes}", "annex", lines[j:end], title=unmarked(texts[j])))
        elif protocol:
            end = next((k for k in range(j + 2, hi) if CLOSING_RE.match(texts[k]) or ANNEX_RE.match(texts[k])), hi)
            units.extend(_protocol(doc, j, end))
        elif CLOSING_RE.match(texts[j]) or ADDRESS_RE.match(texts[j]):
            end = _closing_end(texts, j, hi)
            units.append(unit("closing", "closing", lines[j:end]))
        else:
            end = next((k for k in range(j + 1, hi) if _ends_body(texts[k])), hi)
            units.append(unit("other", "other", lines[j:end], note="text after the closing"))
        j = end
    return units


def _closing_end(texts: Sequence[str], j: int, hi: int) -> int:
    """End of a closing formula and its signature block."""
    last = j
    k = j + 1
    while k < hi:
        t = texts[k].strip()
        if PROTOCOL_RE.match(t) or ANNEX_RE.match(t) or article_heading(t):
            break
        if CLOSING_RE.match(t) or SIGNATURE_RE.search(t) or len(t) <= 80:
            last = k
        elif len(t) > 160 and k - last > 0:
            break
        else:
            last = k
        k += 1
    return last + 1


def _protocol(doc: Stream, j: int, end: int) -> list[Unit]:
    """Protocol heading and intro (eid "protocol") and its items prot_1, prot_2 …"""
    texts, lines, labels = doc.texts, doc.lines, doc.labels
    items = item_starts(texts, labels, j + 1, end)
    out = [unit("protocol", "protocol", lines[j:items[0] if items else end])]
    for n, k in enumerate(items, 1):
        stop = items[n] if n < len(items) else end
        head = [unmarked(t) for t in texts[k:min(k + 2, stop)]]
        children = paragraph_units(f"prot_{n}", lines, texts, list(range(k + 1, stop)), labels,
                                   implicit=False)
        out.append(unit(f"prot_{n}", "protocol", lines[k:stop], number=n, label=item_label(texts[k], labels[k]),
                        title=item_title(head), refers_to=refers_to(head), children=children))
    return out
