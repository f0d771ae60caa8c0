"""One-line messages about citations that match several treaties or a unit that does not
exist."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from search.citations.model import Citation, show


def number_ranges(numbers: Iterable[int]) -> str:
    """Compact ranges for messages: ``[1, 2, 3, 5, 7, 8]`` -> ``"1–3, 5, 7–8"``."""
    out: list[str] = []
    run: list[int] = []
    for n in sorted(set(numbers)) + [-1]:
        if run and n != run[-1] + 1:
            out.append(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}")
            run = []
        run.append(n)
    return ", ".join(out)


def ambiguous_message(text: str, candidates: Sequence[str]) -> str:
    """One line for a citation that matches several treaties (for ``AmbiguousError``)."""
    return (
        f"{show(text)} matches {len(candidates)} treaties: {', '.join(candidates)}; "
        "cite one by its id or add the year"
    )


def missing_message(c: Citation, treaty_id: str, existing: Iterable[int]) -> str:
    """One line saying what exists when a cited article or protocol item does not
    (for ``NotFoundError``): "br-pe-2006 has no article 40; it has articles 1–29"."""
    what = "protocol item" if c.protocol else "article"
    have = number_ranges(existing)
    if not have:
        return f"{treaty_id} has no {what}s"
    return f"{treaty_id} has no {what} {c.article}; it has {what}s {have}"
