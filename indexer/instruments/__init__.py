"""Instruments: a treaty is a stack of instruments — the convention, the protocol signed
with it, later amending protocols, exchanges of notes, amending agreements — each with its
dates. `recognise` finds them in a treaty's segmented units (in the same file or in other
files of the treaty), `clauses` reads their amending clauses into operations (replace,
insert, delete an article, paragraph or point, or words within one), `apply` applies them
in date order to give the treaty as amended, each unit keeping the instrument it comes from
and the original readable; `consolidate` does it for the documents of an ingest; `facts`
reads the treaty's facts (signature, entry into force, effect, termination, authentic
languages) from its text and manifest, each with where it came from."""

from indexer.instruments.clauses import operations, parse_target, read_clause
from indexer.instruments.model import Amendment, Instrument, Operation, Target

__all__ = ["Amendment", "Instrument", "Operation", "Target", "operations", "parse_target",
           "read_clause"]
