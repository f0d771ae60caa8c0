"""The body cut into gaps at the printed headings (anchors), each gap's article count and
first number from the anchors around it, and the numbered article spans of its cuts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from indexer.segment.lines import Label, top_of
from indexer.segment.numerals import label_suffix, parse_label, plausible_label
from indexer.segment.recover.dp import Cut, split_gap
from indexer.segment.recover.references import References
from indexer.segment.recover.scores import best_topic, topic_prefix
from indexer.topics import MODEL_NUMBER


@dataclass(frozen=True)
class Anchor:
    """A printed article heading inside the body: body index, number (None when garbled and
    unresolved), label as printed."""

    index: int
    number: int | None
    label: str


@dataclass(frozen=True)
class Span:
    """One recovered or printed article: body lines [start, end), its number, its label as
    printed (None when recovered), and whether the number is not the printed label's."""

    start: int
    end: int
    number: int
    label: str | None
    inferred: bool
    topic_hint: str | None = None


Gap = tuple[int, int, Anchor | None, Anchor | None]  # lines [start, end), anchors at both ends


def recover(texts: Sequence[str], anchors: Sequence[Anchor], forced: Sequence[int], *,
            first_number: int | None, refs: References, raw: Sequence[dict[str, float]],
            labels: Sequence[Label | None]) -> list[Span]:
    """Article spans covering body lines [0, len(texts)) in order.

    `anchors`: printed headings (sorted by index). `forced`: lines where an article must
    begin (chapter headings). `first_number`: number of the first article when the body
    starts without a heading (None = unknown: taken from the first article's topic).
    `raw`: `raw_scores` of every line; `labels`: `paragraph_label` of every line.
    """
    if not texts:
        return []
    tops = [top_of(pl) for pl in labels]
    prefix = topic_prefix(raw)
    spans: list[Span] = []
    for g0, g1, left, right in _gaps(_resolve_anchors(anchors), len(texts)):
        if g1 <= g0:
            continue
        count, n0 = _gap_numbering(left, right, first_number)
        cuts = split_gap(texts, prefix, g0, g1, count, n0, forced, refs, tops)
        if n0 is None:
            n0 = _number_by_topic(prefix, cuts, right)
        spans.extend(_numbered(cuts, n0, left))
    return spans


def _resolve_anchors(anchors: Sequence[Anchor]) -> list[Anchor]:
    """Give garbled anchors the number the sequence expects; drop anchors that break it.
    Anchors with None numbers that stay unresolved are kept: they still mark a boundary."""
    out: list[Anchor] = []
    for j, a in enumerate(anchors):
        prev = out[-1].number if out and out[-1].number else 0
        after = next((b for b in anchors[j + 1 :] if b.number), None)
        if _in_sequence(a, prev, after):
            out.append(a)
            continue
        n = _resolved_number(a, prev, after.number if after is not None else None)
        if n is not None or a.number is None:
            out.append(Anchor(a.index, n, a.label))
    return out


def _in_sequence(a: Anchor, prev: int, after: Anchor | None) -> bool:
    """Is anchor `a`'s printed number in order after number `prev`, before anchor `after`:
    higher than `prev` and lower than the next (or equal to it when the next is an inserted
    article: "8" before "8A"), or `prev` again for an inserted article ("21A" after "21")?"""
    n, nxt = a.number, (after.number if after is not None else None)
    if n is None:
        return False
    if n > prev:
        return nxt is None or n < nxt or (n == nxt and bool(label_suffix(after.label))
                                          and not label_suffix(a.label))
    return n == prev and bool(label_suffix(a.label)) and (nxt is None or n <= nxt)


def _resolved_number(a: Anchor, prev: int, nxt: int | None) -> int | None:
    """The number of an anchor out of sequence between `prev` and `nxt`: the first its label
    can be a reading of, else the only number that fits, whatever was printed ("Artikel 199"
    with a footnote mark between 18 and 20), else None."""
    upper = (nxt - 1) if nxt else prev + 3
    guess = next((k for k in range(prev + 1, upper + 1) if plausible_label(a.label, k)), None)
    if guess is not None:
        return guess
    return prev + 1 if nxt is not None and nxt - prev == 2 else None


def _gaps(anchors: list[Anchor], n_lines: int) -> list[Gap]:
    """The body's gaps: before the first anchor (when not at line 0), and from each anchor
    to the next (or the end)."""
    gaps: list[Gap] = []
    if not anchors or anchors[0].index > 0:
        gaps.append((0, anchors[0].index if anchors else n_lines, None, anchors[0] if anchors else None))
    for j, a in enumerate(anchors):
        nxt = anchors[j + 1] if j + 1 < len(anchors) else None
        gaps.append((a.index, nxt.index if nxt else n_lines, a, nxt))
    return gaps


def _gap_numbering(left: Anchor | None, right: Anchor | None, first_number: int | None
                   ) -> tuple[int | None, int | None]:
    """The number of articles in a gap between anchors `left` and `right` and the number of
    its first, as far as the anchors (or `first_number` at the body's start) tell."""
    if left is not None and right is not None and left.number and right.number:
        return max(right.number - left.number, 1), left.number
    if left is not None and left.number:
        return None, left.number
    if right is not None and right.number:
        n0 = first_number if first_number else None
        return (right.number - n0 if n0 and right.number > n0 else None), n0
    return None, first_number


def _number_by_topic(prefix: list[list[float]], cuts: list[Cut], right: Anchor | None) -> int:
    """The number of a gap's first article when nothing printed says it: its topic's number
    in the model convention, lowered to fit below the next anchor."""
    topic = best_topic(prefix, cuts[0][0], cuts[0][1])
    n0 = MODEL_NUMBER.get(topic, 1) if topic else 1
    if right is not None and right.number and n0 + len(cuts) > right.number:
        n0 = max(1, right.number - len(cuts))
    return n0


def _numbered(cuts: list[Cut], n0: int, left: Anchor | None) -> list[Span]:
    """The spans of a gap's cuts, numbered from `n0` (`left`: the heading printed at the
    first, if any)."""
    spans = []
    for k, (a, b, topic) in enumerate(cuts):
        head = left if k == 0 else None
        inferred = not (head is not None and head.number is not None and parse_label(head.label) == head.number)
        spans.append(Span(start=a, end=b, number=n0 + k, label=head.label if head is not None else None,
                          inferred=inferred, topic_hint=topic))
    return spans
