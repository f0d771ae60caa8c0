"""What a citation names (`Citation`) and the styles it can be written in."""

from __future__ import annotations

from dataclasses import dataclass, field

#: The languages a citation is written in (and `format_citation` writes).
STYLES = ("en", "pt", "sv", "zh")


@dataclass(frozen=True)
class Citation:
    """A parsed citation. ``article`` holds the protocol item number when ``protocol``."""

    treaty_id: str | None = None  # "br-pe-2006", "nordic-1996" — only when written as an id
    parties: tuple[str, ...] = ()  # ISO alpha-2, upper case, sorted, unique
    year: int | None = None
    article: int | None = None
    paragraph: int | None = None
    point: str | None = None  # "a", "aa", "ii" (lower case)
    protocol: bool = False
    lang_hint: str | None = None  # "en" | "pt" | "sv" | "zh": the language it is written in
    suffix: str | None = None  # of an inserted article: "A" (Art. 21A), "bis"
    #: the language was read off words of that language (not the English default of a
    #: citation of shared words only, "br-se-1965 Art. III(1)")
    lang_read: bool = field(default=False, compare=False)


def show(text: str) -> str:
    """The input as one short line for an error message."""
    one = " ".join(text.split())
    return repr(one if len(one) <= 60 else one[:57] + "...")
