"""HTML and XHTML pages -> the text of their main block.

The main block is found generically, as a readability-style choice: the deepest element that
holds most (`MAIN_SHARE`) of the page's visible text, link text not counted; never a site's
class name or id. Scripts, styles, forms, navigation, the page's own header and footer
(`<header>`/`<footer>` outside any article or section, as HTML's accessibility mapping makes
them the page banner and content info), ARIA landmarks of the same kinds and hidden elements
are dropped before the text is weighed.

The block is then written out as lines: block elements (paragraphs, headings, divisions, list
items, table rows) open lines, `<p>` and headings are set off by blank lines, `<br>` breaks the
line, an ordered list's numbers (which the browser generates) become text, table cells are
separated by tabs, entities are decoded (by the parser), a footnote reference (`<sup>` holding
a link) is dropped while other superscripts ("10<sup>th</sup>") stay inline. White space
collapses as a browser collapses it, except in `<pre>` and in a text run that holds a blank
line: that is plain text laid out by its own line breaks (a statute database that shows a
text file inside a `<div>` styled `white-space: pre-line`), kept line by line.
"""

from __future__ import annotations

import re

import lxml.html
from lxml import etree

from indexer.segment.numerals import to_roman

#: The main block holds at least this share of the page's weighed text (its deepest such
#: element is taken). On the statute pages of the tests the text body holds over 95% and the
#: metadata, title and navigation around it the rest; a page whose text is spread over
#: sibling blocks keeps their common parent.
MAIN_SHARE = 0.8

_DROPPED = frozenset({
    "script", "style", "noscript", "template", "head", "title", "nav", "form", "button",
    "select", "option", "textarea", "input", "iframe", "object", "embed", "svg", "canvas",
    "menu", "dialog", "aside", "map", "audio", "video",
})
_DROPPED_ROLES = frozenset({
    "navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar",
    "toolbar", "dialog", "alert",
})
#: Elements under which `<header>`/`<footer>` belong to a part of the page, not to the page.
_SECTIONING = frozenset({"article", "section", "main", "aside", "nav"})
_BLOCKS = frozenset({
    "address", "article", "blockquote", "center", "dd", "details", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "hr", "li", "main",
    "ol", "section", "summary", "table", "tbody", "thead", "tfoot", "tr", "ul", "caption",
    "body", "html",
})
#: Elements that hold the blocks of a page (the main block is one of them).
_CONTAINERS = frozenset({"div", "section", "article", "main", "body", "center", "td", "th",
                         "blockquote", "font", "span", "form"})
#: Blocks set off by a blank line.
_PARAGRAPHS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote",
                         "table", "ol", "ul", "dl", "hr"})
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_SPACES = re.compile(r"[ \t\n\r\f\v]+")
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)


def _tag(el) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def _page_furniture(el) -> bool:
    """A `<header>`/`<footer>` of the page itself (not inside a sectioning element)."""
    if _tag(el) not in ("header", "footer"):
        return False
    return not any(_tag(a) in _SECTIONING for a in el.iterancestors())


def _dropped(el) -> bool:
    tag = _tag(el)
    if not tag or tag in _DROPPED or _page_furniture(el):
        return True
    role = (el.get("role") or "").strip().lower()
    if role in _DROPPED_ROLES or el.get("hidden") is not None:
        return True
    return (el.get("aria-hidden") or "").lower() == "true" or bool(
        _HIDDEN_STYLE.search(el.get("style") or ""))


def _weights(el, weights: dict, in_link: bool = False) -> int:
    """Characters of visible text in `el` outside links (its tail not counted), recorded in
    `weights` for every element kept."""
    if _dropped(el):
        return 0
    in_link = in_link or _tag(el) == "a"
    total = 0 if in_link else len((el.text or "").strip())
    for child in el:
        total += _weights(child, weights, in_link)
        if not in_link:
            total += len((child.tail or "").strip())
    weights[el] = total
    return total


def main_block(root):
    """The deepest container element (`_CONTAINERS`: a paragraph, heading or list is the
    content of a block, not one) holding `MAIN_SHARE` of the text of `root`."""
    weights: dict = {}
    whole = _weights(root, weights)
    node = root
    while True:
        kept = [c for c in node if c in weights and _tag(c) in _CONTAINERS]
        best = max(kept, key=weights.__getitem__, default=None)
        if best is None or weights[best] < MAIN_SHARE * whole or whole == 0:
            return node
        node = best


class _Lines:
    """Text written out with collapsing white space and merged line breaks."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.breaks = 0  # line breaks asked for before the next text
        self.space = False  # a collapsed space is pending

    def brk(self, n: int) -> None:
        self.breaks = max(self.breaks, n)
        self.space = False

    def _emit(self, text: str) -> None:
        if self.breaks and self.parts:
            self.parts.append("\n" * self.breaks)
        elif self.space and self.parts:
            self.parts.append(" ")
        self.breaks, self.space = 0, False
        self.parts.append(text)

    def cell(self) -> None:
        """The separator before a table cell that is not the row's first."""
        self.space = False
        self._emit("\t")

    def text(self, text: str, pre: bool = False) -> None:
        if not text:
            return
        if pre or _BLANK_LINE.search(text):
            if text.strip():
                self._emit(text.strip("\n"))
            return
        words = _SPACES.split(text)
        if words[0] == "":
            self.space = True
            words = words[1:]
        trailing = bool(words) and words[-1] == ""
        if trailing:
            words = words[:-1]
        if words:
            self._emit(" ".join(words))
        self.space = self.space or trailing

    def result(self) -> str:
        return "".join(self.parts).strip("\n") + "\n"



def _marker(number: int, kind: str) -> str:
    """An ordered list's generated number of `kind` (the `type` attribute)."""
    if kind in ("a", "A") and 1 <= number <= 26:
        label = chr(ord("a") + number - 1)
        return (label.upper() if kind == "A" else label) + ". "
    if kind in ("i", "I") and 1 <= number < 4000:
        return (to_roman(number) if kind == "I" else to_roman(number).lower()) + ". "
    return f"{number}. "


def _int(value: str | None, default: int) -> int:
    try:
        return int((value or "").strip())
    except ValueError:
        return default


def _list_items(el, out: _Lines, pre: bool) -> None:
    """An `<ol>`'s items with their numbers, or a `<ul>`'s with a bullet."""
    number = _int(el.get("start"), 1)
    kind = el.get("type") or "1"
    for child in el:
        if _tag(child) == "li" and not _dropped(child):
            number = _int(child.get("value"), number)
            out.brk(1)
            out.text(_marker(number, kind) if _tag(el) == "ol" else "• ")
            _inside(child, out, pre)
            out.brk(1)
            number += 1
        else:
            _write(child, out, pre)
        out.text(child.tail or "", pre)


def _inside(el, out: _Lines, pre: bool) -> None:
    """The text and children of `el` (not its tail)."""
    out.text(el.text or "", pre)
    cells = 0
    for child in el:
        if _tag(child) in ("td", "th"):
            if cells:
                out.cell()
            cells += 1
        _write(child, out, pre)
        out.text(child.tail or "", pre)


def _write(el, out: _Lines, pre: bool = False) -> None:
    tag = _tag(el)
    if _dropped(el):
        return
    if tag == "br":
        out.brk(1)
        return
    if tag == "sup" and el.find(".//a") is not None:
        return  # a footnote reference
    pre = pre or tag == "pre"
    gap = 2 if tag in _PARAGRAPHS else 1 if tag in _BLOCKS else 0
    if gap:
        out.brk(gap)
    if tag in ("ol", "ul"):
        _list_items(el, out, pre)
    else:
        _inside(el, out, pre)
    if gap:
        out.brk(gap)


def parse(text: str):
    """The parsed page (`text` decoded; an XML declaration is dropped first)."""
    parser = lxml.html.HTMLParser(remove_comments=True, remove_pis=True, encoding="utf-8")
    source = _XML_DECLARATION.sub("", text, count=1)
    return lxml.html.document_fromstring(source.encode("utf-8"), parser=parser,
                                         base_url=None) if source.strip() else None


def main_text(text: str) -> str:
    """The text of the main block of the HTML page `text` (empty when it has none)."""
    try:
        root = parse(text)
    except (etree.ParserError, ValueError):
        return ""
    if root is None:
        return ""
    body = root.find("body")
    out = _Lines()
    _write(main_block(body if body is not None else root), out)
    return out.result() if out.parts else ""
