"""What the aligner finds: links between units of two language versions, units with no
counterpart, and the alignment of one treaty."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: Kinds of top-level units that are aligned (title, preamble, closing and other are not).
ALIGNED_KINDS = ("article", "protocol")

UNMATCHED = "unmatched"  # method of the store rows that report a unit with no counterpart

#: A link below even odds: the evidence against the pair outweighs the evidence for it (the
#: score is the logistic of their sum). `treaty check` reports these for a person to check.
LOW_CONFIDENCE = 0.5


@dataclass(frozen=True)
class Link:
    """Unit `eid_a` of version `lang_a` corresponds to `eid_b` of version `lang_b`."""

    eid_a: str
    lang_a: str
    eid_b: str
    lang_b: str
    level: str  # "article", "paragraph" or "point"
    score: float  # confidence 0..1
    method: str  # "number+numbers", "number+lexicon", "number+length", "number", "dp-1:1", ...
    # the pieces of evidence (name, log-odds) in the order they add up; `evidence` spells
    # them out (formatted only when read: the store keeps none of it)
    pieces: tuple[tuple[str, float], ...] = ()

    @property
    def evidence(self) -> str:
        """The pieces of evidence, for a person checking the link ("number+3.0 length+0.4")."""
        return _describe(self.pieces)


@dataclass(frozen=True)
class Unmatched:
    """A unit of version `lang` with no counterpart in version `other`."""

    eid: str
    lang: str
    other: str
    level: str
    reason: str = ""


@dataclass(frozen=True)
class Alignment:
    treaty: str
    langs: tuple[str, ...]
    links: tuple[Link, ...] = ()
    unmatched: tuple[Unmatched, ...] = ()


def _describe(pieces: Iterable[tuple[str, float]]) -> str:
    return " ".join(f"{k}{v:+.1f}" for k, v in pieces)
