"""Making units from line spans: one unit of any kind, and the paragraph units (with their
point children) of an article's or protocol item's body."""

from __future__ import annotations

from collections.abc import Sequence

from indexer.models import Line, Unit
from indexer.segment.body import Para, parse_body
from indexer.segment.lines import Label


def unit(eid: str, kind: str, lines: Sequence[Line], **kw: object) -> Unit:
    return Unit(
        eid=eid,
        kind=kind,
        text="\n".join([ln.text for ln in lines]),
        raw="\n".join([ln.raw for ln in lines]),
        start=min([ln.start for ln in lines]),
        end=max([ln.end for ln in lines]),
        **kw,
    )


def unique_eid(eid: str, seen: set[str]) -> str:
    """`eid`, with "_" appended until it is not in `seen`; added to `seen`."""
    while eid in seen:
        eid += "_"
    seen.add(eid)
    return eid


def paragraph_units(prefix: str, lines: Sequence[Line], texts: Sequence[str], body: Sequence[int],
                    labels: Sequence[Label | None], *, implicit: bool) -> tuple[Unit, ...]:
    """Paragraph units (with point children) for the body lines `body` (indices into lines;
    `texts`: the lines as the segmenter reads them, `labels`: `paragraph_label` of each)."""
    if not body:
        return ()
    lead, paras = parse_body([texts[i] for i in body], [labels[i] for i in body])
    if not paras:
        paras = [Para(None, None, list(range(len(body))))]
        lead = []
    elif lead:
        paras[0].lines[:0] = lead
    if not implicit and len(paras) == 1 and paras[0].num is None and not paras[0].points:
        return ()
    units = []
    seen: set[str] = set()
    for k, p in enumerate(paras, 1):
        n = p.value if p.value is not None and p.num is not None else k
        eid = unique_eid(f"{prefix}__para_{n}", seen)
        children = []
        seen_pts: set[str] = set()
        for num, idx in p.points:
            peid = unique_eid(f"{eid}__point_{num}", seen_pts)
            children.append(unit(peid, "point", [lines[body[j]] for j in sorted(set(idx))], num=num))
        units.append(
            unit(eid, "paragraph", [lines[body[j]] for j in sorted(set(p.lines))], num=p.num,
                 children=tuple(children))
        )
    return tuple(units)
