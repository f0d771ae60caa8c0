"""Source formats other than plain text, recognised by content (`detect`): HTML and XHTML
pages (their main block, `html`), PDFs (their text layer, `pdf`) and Word files (`docx`).
Each turns into plain text for the clean stage; a PDF's pages are separated by form feeds,
as in a printed text, and the first line of each page is kept for page numbers."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Extracted:
    """The text of a binary source file, its format and (paged formats) the first source
    line of each page."""

    text: str
    format: str
    pages: tuple[int, ...] = ()


def page_starts(text: str) -> tuple[int, ...]:
    """The 1-based lines of `text` that open a page: the first, and each that starts with a
    form feed."""
    lines = text.split("\n")
    return (1, *(i + 1 for i, line in enumerate(lines) if i and line.startswith("\f")))


def page_of(pages: tuple[int, ...] | list[int], line: int | None) -> int | None:
    """The page (1-based) that source line `line` is on; None without pages."""
    import bisect

    if not pages or line is None:
        return None
    return max(1, bisect.bisect_right(list(pages), line))
