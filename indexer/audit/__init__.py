"""The self-audit: what looks wrong in the project's own result, per language version of a
treaty. An ingest stage after `align`: pure functions from the processed documents of a
treaty (their versions and units), its alignment links and each document's source lines (with
the lines `clean` removed) to an `Audit`, the versions audited and their findings, which the
store keeps with the units it audits (`treaty check` lists them).

Modules:

- ``model``: Source, Finding, Audit, the kinds of finding (KINDS), `unit_place`;
- ``source``: the source line of each raw line of a unit, and the lines no unit holds;
- ``articles``: one version on its own (numbering, inferred numbers, headings inside an
  article's text, paragraph numbers);
- ``parallel``: the versions against each other (counts), and the weak alignment links;
- ``treaty``: a treaty and a corpus (`audit_treaty`, `audit_documents`).
"""

from indexer.audit.model import KINDS, Audit, Finding, Source, place, unit_place
from indexer.audit.treaty import audit_documents, audit_treaty

__all__ = ["KINDS", "Audit", "Finding", "Source", "audit_documents", "audit_treaty",
           "place", "unit_place"]
