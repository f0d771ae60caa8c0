"""What the rates stage reads (`VersionUnit`, a stored unit) and finds (`Found`, a rate one
language version states; `Rate`, a rate of a treaty, cross-checked across its versions)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from indexer.rates.conditions import Conditions

#: The kinds of rate row: a limit on the source state's tax (an exemption there is a limit
#: of 0), a branch-profits tax, a most-favoured-nation clause that may lower a rate.
KINDS = ("limit", "branch-profits", "mfn")


@dataclass(frozen=True)
class VersionUnit:
    """A unit of one language version as the store holds it."""

    eid: str
    kind: str
    text: str
    top: str
    parent: str | None = None
    number: int | None = None
    topic: str | None = None
    refers_to: int | None = None
    changed: bool = False  # OCR repairs were made in it

    @classmethod
    def of_row(cls, row) -> VersionUnit:
        return cls(eid=row["eid"], kind=row["kind"], text=row["text"], top=row["top"],
                   parent=row["parent"], number=row["number"], topic=row["topic"],
                   refers_to=row["refers_to"], changed=bool(row["changes"]))


@dataclass(frozen=True)
class Found:
    """A rate stated in one unit of one language version. `rate` is None for a limit by
    reference that names no single rate."""

    eid: str
    rate: float | None
    sentence: str = ""
    exempt: bool = False
    by_reference: bool = False
    target: str | None = None  # the eid a limit by reference names
    share: float | None = None  # a limit that is this share of the rate it names ("50 per cent of")
    condition: str = ""  # the words of the condition, in this version's language
    base: str | None = None
    words: bool = False  # the number was written in words
    in_list: bool = False  # stated in a point of a list whose intro is the limit
    topic: str = ""
    changed: bool = False  # the unit's text was repaired (OCR)
    kind: str = "limit"  # one of KINDS
    conditions: Conditions = field(default_factory=Conditions)

    def with_topic(self, topic: str, unit: VersionUnit) -> Found:
        return replace(self, topic=topic, changed=unit.changed)

    def resolved(self, rate: float | None, base: str | None) -> Found:
        return replace(self, rate=rate, base=self.base or base)


@dataclass(frozen=True)
class Rate:
    """A rate of a treaty: what its versions state at one provision."""

    treaty: str
    topic: str
    eid: str
    lang: str  # the version whose unit is cited
    rate: float | None
    exempt: bool
    by_reference: bool
    condition: str
    base: str | None
    quote: str
    langs: tuple[str, ...]
    confidence: float
    disagree: tuple[str, ...] = field(default=())  # versions with the provision but not the rate
    target: str | None = None
    kind: str = "limit"
    conditions: Conditions = field(default_factory=Conditions)
    clauses: tuple[tuple[str, str], ...] = ()  # (lang, the condition's words) per version
    quotes: tuple[tuple[str, str], ...] = ()  # (lang, the sentence) per version

    @property
    def unit(self) -> str:
        return f"{self.treaty}/{self.lang}/{self.eid}"
