"""The checks of one language version on its own: article numbering (gaps, duplicates,
inferred numbers), heading lines inside an article's text, and paragraph numbers that skip."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from indexer.audit.model import Finding, short
from indexer.models import Unit
from indexer.segment.lines import article_heading, is_chapter, is_heading_line

#: The eId of an inserted article: a number with a letter suffix ("art_21A", "art_5a"), which
#: follows its base article without being a gap or a duplicate.
_INSERTED_RE = re.compile(r"art_(?P<number>\d+)(?P<suffix>[A-Za-z]\w*?)_*")

#: Where a line lies in the source: (file, lang, eid) -> the source line of each physical
#: line of the unit's raw text (None where not found); see `source.LineClaims.claim`.
Where = dict[tuple[str, str, str], list[int | None]]


@dataclass(frozen=True)
class VersionView:
    """One language version of a treaty as the audit reads it: its top-level units with the
    file each comes from, in reading order."""

    treaty: str
    lang: str
    file: str  # the file that holds most of its articles
    units: tuple[tuple[str, Unit], ...]
    declared: int | None = None  # the number of a headingless single-article excerpt, as the
    # manifest declares it (its numbering need not start at 1, nor is its number inferred)

    def articles(self) -> list[tuple[str, Unit]]:
        return [(f, u) for f, u in self.units if u.kind == "article"]

    def finding(self, file: str, unit: Unit | None, kind: str, message: str,
                lines: tuple[int | None, int | None] | None = None) -> Finding:
        """A finding on `unit` (None: on the version), at `lines` (default: the unit's)."""
        if lines is None:
            lines = (unit.start, unit.end) if unit is not None else (None, None)
        return Finding(self.treaty, file, self.lang, unit.eid if unit is not None else None,
                       kind, message, *lines)


def inserted(unit: Unit) -> str | None:
    """The key of an inserted article ("21a" for art_21A), None for any other unit."""
    m = _INSERTED_RE.fullmatch(unit.eid)
    return f"{m['number']}{m['suffix'].lower()}" if m else None


def _name(unit: Unit) -> str:
    return f"Art. {unit.label if inserted(unit) and unit.label else unit.number}"


def numbering(view: VersionView) -> Iterator[Finding]:
    """Article numbers that skip, start past 1, go back or repeat; inserted articles (21A
    after 21) are neither gaps nor duplicates, unless one repeats; and no article at all."""
    articles = [(f, u) for f, u in view.articles() if u.number is not None]
    if not view.articles():
        yield view.finding(view.file, None, "no-articles", "no article found in this version")
        return
    seen: dict[str, Unit] = {}
    top = 0  # the highest base number so far
    for file, u in articles:
        key = inserted(u) or str(u.number)
        if key in seen:
            first = seen[key]
            yield view.finding(file, u, "numbering-duplicate",
                               f"a second {_name(u)} (the first is at lines "
                               f"{first.start}-{first.end})")
            continue
        seen[key] = u
        if inserted(u):
            continue
        n = u.number
        if top == 0 and n != 1 and view.declared is None:
            yield view.finding(file, u, "numbering-gap", f"the articles start at Art. {n}")
        elif top and n > top + 1:
            missing = f"Art. {top + 1}" if n == top + 2 else f"Art. {top + 1}-{n - 1}"
            yield view.finding(file, u, "numbering-gap",
                               f"Art. {n} follows Art. {top}: no {missing}")
        elif top and n < top:
            yield view.finding(file, u, "numbering-gap",
                               f"Art. {n} comes after Art. {top} (out of order)")
        top = max(top, n)


def inferred_numbers(view: VersionView) -> Iterator[Finding]:
    """Articles whose number was recovered, not read (an excerpt's declared one aside)."""
    for file, u in view.articles():
        if u.number_inferred and u.number != view.declared:
            yield view.finding(file, u, "inferred-number",
                               "number inferred: no heading printed (or readable) in the "
                               "source")


def paragraph_skips(view: VersionView) -> Iterator[Finding]:
    """Numbered paragraphs of an article that skip (1, 2, 4), repeat or start past 1; and an
    unnumbered paragraph before paragraph 1 (a title line, or points, read as a paragraph)."""
    for file, u in view.articles():
        prev = None
        lead = None  # the first unnumbered paragraph before any numbered one
        for c in u.children:
            if c.kind != "paragraph":
                continue
            if not (c.num or "").isdigit():
                lead = c if lead is None and prev is None else lead
                continue
            n = int(c.num)
            if prev is None and n == 1 and lead is not None:
                yield view.finding(file, lead, "paragraph-before-1", "an unnumbered paragraph "
                                   f"before paragraph 1: “{short(lead.text)}”")
            message = _skip(prev, n)
            if message:
                yield view.finding(file, c, "paragraph-skip", message)
            prev = n


def _skip(prev: int | None, n: int) -> str:
    """What is wrong with paragraph `n` after paragraph `prev` (None: the first), or ""."""
    if prev is None:
        return f"the numbered paragraphs start at {n}" if n != 1 else ""
    if n == prev:
        return f"paragraph {n} again"
    return f"paragraph {n} follows paragraph {prev}" if n != prev + 1 else ""


def reads_as_heading(text: str) -> bool:
    """A line that the segmenter would take for an article or chapter heading."""
    s = text.strip()
    return is_heading_line(s) and (article_heading(s) is not None or is_chapter(s))


def _own_heading(lines: Sequence[str], unit: Unit) -> int:
    """The index of the article's own heading among its text lines (0 when none is found)."""
    for i, t in enumerate(lines):
        h = article_heading(t) if reads_as_heading(t) else None
        if h is not None and (h.number == unit.number or h.label == unit.label):
            return i
    return 0


def headings_in_body(view: VersionView, where: Where) -> Iterator[Finding]:
    """Lines of an article's text, other than its own heading (or first line), that read as
    an article or chapter heading: a heading the segmenter did not split at."""
    for file, u in view.articles():
        lines = u.text.split("\n")
        own = _own_heading(lines, u)
        hits = [t for i, t in enumerate(lines) if i != own and reads_as_heading(t)]
        for t, at in _located(u, hits, where.get((file, view.lang, u.eid)), lines[own]):
            yield view.finding(file, u, "heading-in-body",
                               f"a heading inside the article's text: “{short(t)}”", at)


def headings_outside(view: VersionView, where: Where) -> Iterator[Finding]:
    """Article headings in text kept apart as `other` after the last article (before the
    first) that continue the articles' numbering (lead up to it): articles the segmenter set
    aside with that text."""
    at = [k for k, (_f, u) in enumerate(view.units) if u.kind == "article" and u.number]
    if not at:
        return
    numbers = [view.units[k][1].number for k in at]
    for k, (file, u) in enumerate(view.units):
        if u.kind != "other" or at[0] < k < at[-1]:
            continue
        near = (max(numbers), max(numbers) + 1) if k > at[-1] else (min(numbers) - 1,
                                                                     min(numbers))
        hits = [t for t in u.text.split("\n") if _heading_number(t) in near]
        for t, lines in _located(u, hits, where.get((file, view.lang, u.eid))):
            yield view.finding(file, u, "heading-outside",
                               f"an article heading in text kept apart from the articles: "
                               f"“{short(t)}”", lines)


def _heading_number(text: str) -> int | None:
    h = article_heading(text) if reads_as_heading(text) else None
    return h.number if h is not None else None


def _located(unit: Unit, hits: Sequence[str], found: list[int | None] | None,
             own: str | None = None) -> Iterator[tuple[str, tuple[int, int]]]:
    """Each line of `hits` (text lines of `unit`, in order) with its source line (`found`:
    the source line of each raw line of the unit), else the unit's lines; `own`: the unit's
    own heading, which none of them is."""
    raw = unit.raw.split("\n")
    skip = {_raw_index(raw, own, -1, set())} if own is not None else set()
    after = -1
    for t in hits:
        r = _raw_index(raw, t, after, skip)
        if found is not None and r is not None and found[r] is not None:
            after = r
            yield t, (found[r], found[r])
        else:
            yield t, (unit.start, unit.end)


def _raw_index(raw: Sequence[str], text: str, after: int, skip: set[int | None]
               ) -> int | None:
    """The raw line after index `after` (and not in `skip`) that `text`, a heading line of the
    unit's text, came from: the same words, else the next raw line that reads as a heading."""
    words = text.split()
    rest = [r for r in range(after + 1, len(raw)) if r not in skip]
    same = next((r for r in rest if raw[r].split() == words), None)
    return same if same is not None else next((r for r in rest if reads_as_heading(raw[r])),
                                              None)
