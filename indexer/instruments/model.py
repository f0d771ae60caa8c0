"""What the instruments stage reads and makes: the instruments of a treaty (`Instrument`:
the convention, its protocols, exchanges of notes, amending protocols and agreements), the
operations an amending clause states (`Operation` on a `Target`), and what became of each
(`Amendment`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: Kinds of instrument. The first instrument of a treaty's text is its base ("convention",
#: "agreement"); a later one is a "protocol" (signed with it, or later), an
#: "exchange-of-notes", a "memorandum" or an "agreement" amending it.
KINDS = ("convention", "agreement", "protocol", "exchange-of-notes", "memorandum")
#: What an operation does to its target: replace it, insert it, delete it, replace/insert/
#: delete words in it; an "understanding" is free text about an article (shown beside it,
#: never applied); "unparsed" an amending clause that could not be read.
ACTIONS = ("replace", "insert", "delete", "words", "understanding", "unparsed")


@dataclass(frozen=True)
class Instrument:
    """One instrument of one language version of a treaty: where its text is and what it
    says of itself."""

    id: str  # "convention", "protocol", "protocol-2019-03-12", "exchange-of-notes-2017-05-12"
    kind: str  # one of KINDS
    lang: str
    file: str
    title: str = ""
    signed: str | None = None  # ISO date of its signature
    place: str | None = None
    in_force: str | None = None  # ISO date it entered into force, where stated as a date
    effective: str | None = None  # ISO date from which it has effect, where stated so
    base: bool = False  # the treaty's own first instrument
    lines: tuple[str, ...] = ()  # its text, logical lines
    eids: tuple[str, ...] = ()  # the top-level units holding it
    start: int = 0  # first source line (of the first unit holding it)
    end: int = 0
    signed_line: str = ""  # the line that says when and where it was signed

    @property
    def date(self) -> str | None:
        """The date its text takes effect: when it has effect, else enters into force, else
        was signed."""
        return self.effective or self.in_force or self.signed


_ART_NUM = re.compile(r"(?P<n>\d+)\s*-?\s*(?P<suffix>[A-Z]|bis|ter|quater)?$", re.IGNORECASE)


@dataclass(frozen=True)
class Target:
    """An article, paragraph or point a clause names: article "10" or "26A", paragraph "2",
    point "a"."""

    article: str
    paragraph: str | None = None
    point: str | None = None

    @property
    def number(self) -> int | None:
        m = _ART_NUM.match(self.article)
        return int(m["n"]) if m else None

    @property
    def suffix(self) -> str:
        m = _ART_NUM.match(self.article)
        return (m["suffix"] or "").upper() if m and m["suffix"] and len(m["suffix"]) == 1 \
            else (m["suffix"] or "").lower() if m else ""

    @property
    def article_eid(self) -> str:
        return f"art_{self.number}{self.suffix}" if self.number is not None else \
            f"art_{self.article}"

    @property
    def eid(self) -> str:
        out = self.article_eid
        if self.paragraph:
            out += f"__para_{self.paragraph}"
        if self.point:
            out += f"__point_{self.point}"
        return out

    @property
    def level(self) -> str:
        return "point" if self.point else "paragraph" if self.paragraph else "article"

    def cited(self) -> str:
        """"Art. 10(2)(a)"."""
        return f"Art. {self.number}{self.suffix}" + "".join(
            f"({x})" for x in (self.paragraph, self.point) if x)


@dataclass(frozen=True)
class Operation:
    """What one amending clause says to do."""

    action: str  # one of ACTIONS
    target: Target | None
    clause: str  # the clause as printed
    new: tuple[str, ...] = ()  # the new text (replace, insert), quotes taken off
    after: Target | None = None  # where an inserted unit goes ("after Article 26")
    old_words: str | None = None  # words: those replaced or deleted
    new_words: str | None = None  # words: those put in (None: deleted)
    line: int = 0  # its index in the instrument's lines


@dataclass(frozen=True)
class Amendment:
    """An operation of an instrument and what became of it: "applied", or why not."""

    instrument: str
    op: Operation
    status: str  # "applied", "understanding", or "not applied: …"
    date: str | None = None  # the instrument's date (when the change takes effect)
    notes: tuple[str, ...] = field(default=())

    @property
    def applied(self) -> bool:
        return self.status == "applied"
