"""What the audit reads and what it finds: a document's source lines, one finding, the audit
of a treaty, and the citation-like place of a finding."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: The kinds of finding, with what each means (the `treaty check` help lists them).
KINDS: dict[str, str] = {
    "no-articles": "a language version in which no article was found",
    "numbering-gap": "article numbers skip (or start later than 1, or go back)",
    "numbering-duplicate": "an article number occurs twice",
    "heading-in-body": "a line of an article's text reads as an article or chapter heading",
    "heading-outside": "text kept apart from the articles holds a heading that continues them",
    "paragraph-skip": "an article's numbered paragraphs skip or repeat a number",
    "paragraph-before-1": "an unnumbered paragraph before an article's paragraph 1",
    "versions-disagree": "language versions differ in their article or paragraph counts",
    "inferred-number": "an article number was recovered, not printed",
    "low-confidence-link": "an alignment link below even odds, or a unit with no counterpart",
    "unaccounted-lines": "source lines with text that no unit and no removed furniture holds",
}


@dataclass(frozen=True)
class Source:
    """One document's source as the audit reads it: its physical lines (line n is
    ``lines[n - 1]``, as the clean stage numbers them) and the line ranges the clean stage
    removed as furniture."""

    lines: tuple[str, ...]
    removed: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, text: str, removed: Iterable[tuple] = ()) -> Source:
        """The source of decoded `text`; `removed`: the store's removed rows of the document
        ((start, end, ...) each)."""
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return cls(tuple(lines), tuple((r[0], r[1]) for r in removed))


@dataclass(frozen=True)
class Finding:
    """One thing that looks wrong in a language version of a treaty."""

    treaty: str
    file: str
    lang: str
    eid: str | None  # the unit concerned (None: the version as a whole, or source lines)
    kind: str  # a key of KINDS
    message: str  # one line a user understands
    start: int | None = None  # source lines concerned (1-based, inclusive)
    end: int | None = None

    @property
    def place(self) -> str:
        return place(self.treaty, self.lang, self.eid)


@dataclass(frozen=True)
class Audit:
    """The audit of one or more treaties: the language versions audited, (treaty, lang,
    file) each, and what was found in them."""

    versions: tuple[tuple[str, str, str], ...] = ()
    findings: tuple[Finding, ...] = ()

    def __add__(self, other: Audit) -> Audit:
        return Audit(self.versions + other.versions, self.findings + other.findings)


def short(text: str, width: int = 60) -> str:
    """`text` on one line, cut to `width` characters with "…"."""
    s = " ".join(text.split())
    return s if len(s) <= width else s[:width - 1] + "…"


_TOP_PLACES = {"art": "Art. ", "prot": "Protocol ", "chp": "Chapter ", "annex": "Annex "}
_PART_RE = re.compile(r"(?P<kind>[a-z]+)_(?P<label>.+)")


def place(treaty: str, lang: str, eid: str | None) -> str:
    """Where, as a citation would say it: "br-pe-2006 en Art. 10(2)"."""
    return " ".join(x for x in (treaty, lang, unit_place(eid)) if x)


def unit_place(eid: str | None) -> str:
    """An eId as a citation would say it: art_10__para_2__point_a -> "Art. 10(2)(a)",
    art_21A -> "Art. 21A", prot_3 -> "Protocol 3"; any other eId as it is."""
    if not eid:
        return ""
    top, *parts = eid.split("__")
    m = _PART_RE.fullmatch(top)
    if m is None or m["kind"] not in _TOP_PLACES:
        return eid
    out = _TOP_PLACES[m["kind"]] + m["label"].rstrip("_")
    for part in parts:
        pm = _PART_RE.fullmatch(part)
        out += f"({pm['label'].rstrip('_')})" if pm else f" {part}"
    return out
