"""Text of units as safe HTML: cross-references linked, OCR repairs shown, points as blocks.

Everything from the store is escaped here (markupsafe); only the tags this module writes are
markup. Pure functions of a unit tree (dicts from `Corpus.tree`) and a link builder.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from indexer.segment.numerals import article_reference_re, paragraph_reference_re, parse_label
from search.web.selfrefs import self_references, target

#: Views of a unit's text: normalised, the source as printed, normalised with repairs shown.
VIEWS = ("text", "raw", "diff")

#: Builds the URL of an article (and optionally a paragraph anchor) of the current treaty.
LinkFn = Callable[[int, "int | None"], str]


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    open: str  # HTML (already safe)
    close: str
    replace: str | None = None  # HTML replacing the span's text (already safe)


def changes_of(node: dict) -> list[dict]:
    """The OCR repairs recorded on a unit row: [{step, before, after, why}]."""
    raw = node.get("changes")
    if not raw:
        return []
    try:
        items = json.loads(raw) if isinstance(raw, str) else list(raw)
    except ValueError:
        return []
    return [c for c in items if isinstance(c, dict) and c.get("after") is not None]


def _word_re(s: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(s)}(?!\w)")


def _attr(s: str) -> str:
    return str(escape(s))


def change_spans(text: str, changes: Iterable[dict], side: str) -> list[Span]:
    """Where each change shows in `text`: its `after` (side="after", normalised text) or its
    `before` (side="before", raw text)."""
    spans: list[Span] = []
    seen: set[tuple[str, str]] = set()
    for ch in changes:
        before, after = str(ch.get("before", "")), str(ch.get("after", ""))
        needle = after if side == "after" else before
        if not needle.strip() or (before, after) in seen:
            continue
        seen.add((before, after))
        why = f"{ch.get('step', '')}: {before} → {after}"
        if ch.get("why"):
            why += f" ({ch['why']})"
        for m in _word_re(needle).finditer(text):
            if side == "after":
                html = (f'<del class="ocr">{_attr(before)}</del>'
                        f'<ins class="ocr">{_attr(after)}</ins>')
                spans.append(Span(m.start(), m.end(), f'<span class="change" title="{_attr(why)}">',
                                  "</span>", html))
            else:
                spans.append(Span(m.start(), m.end(),
                                  f'<mark class="ocr" title="{_attr(why)}">', "</mark>"))
    return spans


def reference_spans(text: str, link: LinkFn, articles: set[int],
                    current: int | None = None) -> list[Span]:
    """Links for "Article 7", "paragraph 2 of Article 11", "artikel XVII", "第十二条第三款"
    to articles of the same treaty that exist; a bare self-reference is not linked."""
    spans: list[Span] = []
    for m in paragraph_reference_re().finditer(text):
        art = parse_label(m.group("art") or m.group("zart") or "")
        para = parse_label(m.group("para") or m.group("zpara") or "")
        if art in articles:
            spans.append(Span(m.start(), m.end(), f'<a class="xref" href="{_attr(link(art, para))}">',
                              "</a>"))
    for m in article_reference_re().finditer(text):
        label = m.group("label") or m.group("zlabel") or ""
        art = parse_label(label)
        if art is None or art not in articles or art == current:
            continue
        end = m.end("label") if m.group("label") else m.end()
        spans.append(Span(m.start(), end, f'<a class="xref" href="{_attr(link(art, None))}">',
                          "</a>"))
    return spans


def self_reference_spans(text: str, article: str, here: str | None,
                         units: frozenset[str]) -> list[Span]:
    """In-page links for references to the article's own paragraphs and points ("paragraph
    3", "subparagraph (a) of paragraph 2", "第二款第（一）项", `selfrefs`) that this version of
    `article` has (`units`: its eIds); `here` is the eId of the unit the text is in."""
    spans: list[Span] = []
    for ref in self_references(text):
        eid = target(ref, article, here, units)
        if eid is not None:
            spans.append(Span(ref.start, ref.end, f'<a class="xref self" href="#{_attr(eid)}">',
                              "</a>"))
    return spans


def annotate(text: str, spans: Sequence[Span]) -> Markup:
    """`text` escaped, with the non-overlapping `spans` (earliest, then longest, first) wrapped."""
    chosen: list[Span] = []
    for s in sorted(spans, key=lambda s: (s.start, -(s.end - s.start))):
        if chosen and s.start < chosen[-1].end:
            continue
        chosen.append(s)
    out: list[str] = []
    cur = 0
    for s in chosen:
        out.append(str(escape(text[cur:s.start])))
        inner = s.replace if s.replace is not None else str(escape(text[s.start:s.end]))
        out.append(f"{s.open}{inner}{s.close}")
        cur = s.end
    out.append(str(escape(text[cur:])))
    return Markup("".join(out))


@dataclass(frozen=True)
class Context:
    """What rendering one cell needs to know."""

    view: str  # one of VIEWS
    link: LinkFn
    articles: set[int]
    current: int | None = None  # number of the article shown (not linked to itself)
    anchors: bool = False  # give nested units (points) their eId as HTML id
    top: str | None = None  # eId of the article shown, whose own paragraphs are linked
    units: frozenset[str] = frozenset()  # the eIds of its paragraphs and points here


def _piece(text: str, changes: list[dict], ctx: Context, here: str | None = None) -> Markup:
    spans: list[Span] = []
    if ctx.view == "raw":
        spans += change_spans(text, changes, "before")
    else:
        spans += reference_spans(text, ctx.link, ctx.articles, ctx.current)
        if ctx.top is not None:
            spans += self_reference_spans(text, ctx.top, here, ctx.units)
        if ctx.view == "diff":
            spans += change_spans(text, changes, "after")
    return annotate(text, spans)


def _pieces(node: dict, field: str) -> list[str | dict] | None:
    """A unit's text cut at its children: its own text (str) and each child (its tree) in
    order; None when a child's text is not found in it (shown then as one piece)."""
    text: str = node.get(field) or ""
    parts: list[str | dict] = []
    cur = 0
    for child in [c for c in node.get("children", ()) if c.get(field)]:
        at = text.find(child[field], cur)
        if at < 0:
            return None
        if text[cur:at].strip():
            parts.append(text[cur:at].strip("\n"))
        parts.append(child)
        cur = at + len(child[field])
    if text[cur:].strip():
        parts.append(text[cur:].strip("\n"))
    return parts


def render_unit(node: dict, ctx: Context, inherited: Sequence[dict] = ()) -> Markup:
    """A unit's text as HTML: its own text with each child (point) as a nested block."""
    field = "raw" if ctx.view == "raw" else "text"
    changes = changes_of(node) or list(inherited)
    pieces = _pieces(node, field)
    if pieces is None:  # a child not contained (should not happen): the text as one piece
        return _piece(node.get(field) or "", changes, ctx, node.get("eid"))
    parts: list[Markup] = []
    for piece in pieces:
        if isinstance(piece, str):
            parts.append(_span(_piece(piece, changes, ctx, node.get("eid"))))
            continue
        ident = Markup(' id="{}"').format(piece["eid"]) if ctx.anchors else Markup("")
        parts.append(Markup('<div class="point"{}>{}</div>').format(
            ident, render_unit(piece, ctx, changes)))
    return Markup("").join(parts)


def anchored_points(node: dict | None, field: str) -> set[str]:
    """The eIds of the points `render_unit` gives an HTML id (with `anchors`) in a unit's
    paragraphs: every point whose text it finds in its parent's."""
    out: set[str] = set()
    todo = list(node.get("children", ())) if node else []
    while todo:
        unit = todo.pop()
        kids = [p for p in _pieces(unit, field) or [] if isinstance(p, dict)]
        out.update(k["eid"] for k in kids)
        todo.extend(kids)
    return out


def _span(inner: Markup) -> Markup:
    return Markup('<span class="t">{}</span>').format(inner)


def lead_text(node: dict, field: str) -> str:
    """A top-level unit's text before its first paragraph (its heading, an intro)."""
    text: str = node.get(field) or ""
    kids = [c for c in node.get("children", ()) if c.get(field)]
    if not kids:
        return text
    at = text.find(kids[0][field])
    return text[:at].strip() if at >= 0 else ""


def tail_text(node: dict, field: str) -> str:
    """A top-level unit's text after its last paragraph."""
    text: str = node.get(field) or ""
    cur = 0
    for kid in node.get("children", ()):
        at = text.find(kid.get(field) or "\0", cur)
        if at >= 0:
            cur = at + len(kid[field])
    return text[cur:].strip() if node.get("children") else ""


def render_text(text: str, changes: Sequence[dict], ctx: Context) -> Markup:
    """Free text (a lead or a tail) of a unit with its changes."""
    return _span(_piece(text, list(changes), ctx))
