"""The structure measure of the scan benchmark (scripts/bench_scans.py): whether the articles
read from a scan are the articles of the text it prints, apart from how well their words were
read (the character error rate is reported beside it).

The gold is the structure the pipeline finds in the typed text the pages print (the excerpt
with its blank lines, cut where the last page ends), not in the print's text layer: a print
has lost the blank lines between paragraphs, so its own segmentation is not a gold. An article
read from the scan is right when the gold has an article of the same number, with the same
number of paragraphs, and the scan's article starts and ends on the lines the gold's does:
the scan's text is aligned to the gold's character by character (a Levenshtein alignment,
which an OCR error shifts by no more than its own length), and the first and last line of the
scan's article, carried over, must fall on the gold article's first and last line."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """An article: its number, how many paragraphs, and the character offsets of its first
    and last source line in the text it was read from."""

    number: int
    parts: int
    first: tuple[int, int]
    last: tuple[int, int]


def line_offsets(text: str) -> list[tuple[int, int]]:
    """The (start, end) character offsets of each line of `text` (1-based lines: index 0 is
    line 1)."""
    out, at = [], 0
    for line in text.split("\n"):
        out.append((at, at + len(line)))
        at += len(line) + 1
    return out


def spans(text: str, units: list) -> list[Span]:
    """The articles of `units` (the top units of a version read from `text`) as Spans."""
    lines = line_offsets(text)
    return [Span(u.number, len(u.children), lines[u.start - 1], lines[u.end - 1])
            for u in units if u.kind == "article" and u.number is not None]


def carry(source: str, target: str) -> list[int | None]:
    """For each character of `source`, the offset of the character of `target` it is aligned
    with (kept or misread), None for one the target has not (a running head, a speck)."""
    from rapidfuzz.distance import Levenshtein

    out: list[int | None] = [None] * len(source)
    for tag, a0, a1, b0, b1 in Levenshtein.opcodes(source, target):
        if tag in ("equal", "replace"):
            for i in range(a0, min(a1, a0 + b1 - b0)):
                out[i] = b0 + i - a0
    return out


def _line_of(offsets: list[tuple[int, int]], at: int) -> int:
    """The index of the line of `offsets` that holds offset `at`."""
    from bisect import bisect_right

    return bisect_right([a for a, _b in offsets], at) - 1


def covered(span: Span, where: list[int | None], gold: list[tuple[int, int]]) -> tuple[int, int]:
    """The first and last gold line that the characters of `span` are aligned with (-1, -1
    when none is)."""
    found = [x for x in where[span.first[0]:span.last[1]] if x is not None]
    if not found:
        return -1, -1
    return _line_of(gold, min(found)), _line_of(gold, max(found))


def compare(gold_text: str, gold_units: list, got_text: str, got_units: list) -> dict:
    """The scan's articles against the gold's: `right` (see the module), `gold` (the gold's
    articles), `found` (the scan's), `numbers` (gold numbers the scan has an article of)."""
    gold = {s.number: s for s in spans(gold_text, gold_units)}
    got = spans(got_text, got_units)
    where = carry(got_text, gold_text)
    lines = line_offsets(gold_text)
    right = 0
    for mine in {s.number: s for s in got}.values():
        want = gold.get(mine.number)
        if want is None or want.parts != mine.parts:
            continue
        first, last = covered(mine, where, lines)
        if (first, last) == (_line_of(lines, want.first[0]), _line_of(lines, want.last[0])):
            right += 1
    return {"right": right, "gold": len(gold), "found": len(got),
            "numbers": len(gold.keys() & {s.number for s in got})}


def printed_part(excerpt: str, body: str, tail: int = 6) -> str:
    """The part of `excerpt` (the typed text the pages were printed from) that `body` (the
    printed pages' text without running heads and page numbers) holds: its lines up to where
    the body's last `tail` words stand in it (the place nearest the body's count of words,
    when they stand in several)."""
    words = [(n, i) for n, line in enumerate(excerpt.split("\n")) for i in range(len(line.split()))]
    flat = excerpt.split()
    last = body.split()[-tail:]
    count = len(body.split())
    ends = [k + len(last) for k in range(len(flat) - len(last) + 1) if flat[k:k + len(last)] == last]
    end = min(ends, key=lambda k: abs(k - count)) if ends else min(count, len(flat))
    line, at = words[end - 1]
    lines = excerpt.split("\n")[:line + 1]
    lines[-1] = " ".join(lines[-1].split()[:at + 1])
    return "\n".join(lines) + "\n"


def pages_for(typed: str, bodies: list[str], least: int, segment) -> int:
    """The fewest pages, at least `least`, whose typed text is a meaningful gold: `segment`
    (a text's top units) finds in it the articles it finds in the whole of `typed` that start
    there. (Two pages of a treaty whose articles hold many "§ 1." paragraphs may hold more of
    them than of "Artikel" headings, and be read as if they were the articles.)"""
    whole = [(u.number, u.start) for u in segment(typed) if u.kind == "article"]
    for pages in range(least, len(bodies) + 1):
        part = printed_part(typed, "\n".join(bodies[:pages]))
        lines = part.count("\n")
        want = [n for n, start in whole if start <= lines]
        if [u.number for u in segment(part) if u.kind == "article"] == want:
            return pages
    return least
