"""The treaties of an ingest as amended: for each treaty and language, its instruments are
found in the files of the treaty (`recognise`), the operations of each later one read
(`clauses`) and applied in date order to the version that holds the base instrument
(`apply`). The documents come back with that version's units as amended, and with the rows
the store keeps of it in `Document.extra`:

- "instruments": each instrument (kind, title, dates, where its text is);
- "amendments": each operation and what became of it;
- "history": the top-level units as they read before an amendment changed them (with the
  dates between which they read so), so the original and the text at a date stay readable;
- "sources": the top-level units an amendment made or changed, with its instrument.

An understanding (free text) is kept among the amendments, shown beside its article, and
never applied; so is a clause that could not be read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from indexer.instruments.apply import Step, apply
from indexer.instruments.clauses import operations
from indexer.instruments.model import Instrument
from indexer.instruments.recognise import instruments
from indexer.models import Document, Unit, Version
from indexer.policy import policy

#: A processed document with its removed furniture rows (as the pipeline passes them).
Processed = tuple[Document, list[tuple]]
#: The kinds of operation that change text.
CHANGING = ("replace", "insert", "delete", "words")


def _articles(v: Version) -> int:
    return sum(1 for u in v.units if u.kind == "article")


def _base_kind(doc: Document) -> str:
    title = (doc.meta.title or "").lower()
    return "agreement" if any(w in title for w in ("agreement", "avtal", "acordo", "协定")) \
        else "convention"


def _unique(found: list[Instrument]) -> list[Instrument]:
    """Ids made unique and telling: "convention", "protocol", "protocol-2019-03-12"."""
    out: list[Instrument] = []
    seen: set[str] = set()
    for inst in found:
        base = inst.kind if inst.base else (f"{inst.kind}-{inst.signed}" if inst.signed
                                            else inst.kind)
        iid, n = base, 1
        while iid in seen:
            n += 1
            iid = f"{base}-{n}"
        seen.add(iid)
        out.append(replace(inst, id=iid))
    return out


def treaty_instruments(docs: Sequence[Document], lang: str) -> tuple[int | None,
                                                                     list[Instrument]]:
    """(index in `docs` of the document whose `lang` version holds the base instrument,
    the treaty's instruments in that language), in file order."""
    versions = [(k, v) for k, doc in enumerate(docs) for v in doc.versions if v.lang == lang]
    if not versions:
        return None, []
    # (a file the manifest says holds an instrument of its own never holds the base)
    primary = max(versions, key=lambda kv: (docs[kv[0]].meta.instrument is None,
                                            _articles(kv[1]), -kv[0]))[0]
    found: list[Instrument] = []
    for k, v in versions:
        doc = docs[k]
        of_file = instruments(v.units, lang, doc.meta.file, k == primary, _base_kind(doc),
                              doc.meta.instrument)
        found.extend(_declared(of_file, doc))
    return primary, _unique(found)


def _declared(found: list[Instrument], doc: Document) -> list[Instrument]:
    """The instruments of a file with what its manifest entry declares of the one it is
    about (the treaty's base, or the instrument a file of its own holds): when it entered
    into force, from when it has effect, and its signature where the text has none."""
    facts = dict(doc.meta.facts)
    if not found or not (facts or doc.meta.instrument):
        return found
    first = found[0]
    first = replace(first, in_force=facts.get("in_force") or first.in_force,
                    effective=facts.get("effective") or first.effective,
                    signed=first.signed or (doc.meta.signed if doc.meta.instrument else None))
    return [first, *found[1:]]


#: Words of a title that say the instrument amends the treaty.
_AMENDING = re.compile(r"amend|modif|alter|ändr|revis|additional|tilläggs|adicional",
                       re.IGNORECASE)


def later(inst: Instrument, base: Instrument) -> bool:
    """Whether `inst` is later than the treaty's base instrument, so that its clauses may
    amend it: signed after it, or titled as amending it, or in a file of its own. A
    protocol signed with the treaty is part of it as signed: its understandings are its
    items, shown beside their articles, and amend nothing."""
    if inst.signed and base.signed:
        return inst.signed > base.signed
    return bool(_AMENDING.search(inst.title)) or inst.file != base.file


def _order(inst: Instrument, k: int) -> tuple:
    return (inst.date or "9999-99-99", k)


def consolidate_treaty(docs: list[Document]) -> list[Document]:
    """The documents of one treaty with its amending instruments applied (module doc)."""
    docs = list(docs)
    langs = list(dict.fromkeys(v.lang for d in docs for v in d.versions
                               if policy(v.lang) is not None and v.lang in d.meta.languages))
    extra: dict[int, dict[str, list]] = {k: {"instruments": [], "amendments": [],
                                             "history": [], "sources": []}
                                         for k in range(len(docs))}
    for lang in langs:
        primary, found = treaty_instruments(docs, lang)
        if primary is None or not found or not found[0].base:
            continue
        base = found[0]
        steps = []
        for k, inst in sorted(enumerate(found[1:], 1), key=lambda kv: _order(kv[1], kv[0])):
            if later(inst, base):
                steps.extend((inst, op) for op in operations(inst.lines))
        doc = docs[primary]
        version = next(v for v in doc.versions if v.lang == lang)
        span = (base.start, base.end)
        units, done = apply(version.units, [(i.id, i.date, op) for i, op in steps], lang, span)
        by_id = {i.id: i for i in found}
        if any(s.status == "applied" for s in done):
            units = _noted(units, found, done)
            versions = tuple(replace(v, units=units) if v.lang == lang else v
                             for v in doc.versions)
            docs[primary] = replace(doc, versions=versions)
        _record(extra, docs, found, done, by_id, primary, lang, base)
    return [replace(d, extra={**d.extra, **extra[k]}) for k, d in enumerate(docs)]


def _noted(units: Sequence[Unit], found: list[Instrument], done: list[Step]) -> tuple[Unit, ...]:
    """The units holding a later instrument's text, noted as such ("protocol of
    2019-03-12"), so a reader of the treaty's other text sees what it is."""
    holding = {eid: inst for inst in found[1:] for eid in inst.eids
               if any(s.instrument == inst.id and s.status == "applied" for s in done)}
    out = []
    for u in units:
        inst = holding.get(u.eid)
        if inst is not None and u.kind == "other":
            when = f" of {inst.signed}" if inst.signed else ""
            u = replace(u, note=f"{inst.kind.replace('-', ' ')}{when} amending the treaty")
        out.append(u)
    return tuple(out)


def _record(extra: dict[int, dict[str, list]], docs: list[Document], found: list[Instrument],
            done: list[Step], by_id: dict[str, Instrument], primary: int, lang: str,
            base: Instrument) -> None:
    """The rows the store keeps of a version's consolidation, each with the file it belongs
    to (a unit's history with the file of the unit, an instrument's with its own)."""
    files = {d.meta.file: k for k, d in enumerate(docs)}
    treaty = docs[primary].meta.treaty
    for seq, inst in enumerate(found):
        extra[files[inst.file]]["instruments"].append((treaty, lang, inst, seq))
    valid: dict[str, str | None] = {}  # top eid -> from when its current text reads so
    seen: set[tuple[str, str]] = set()  # (top eid, instrument): its text before it is kept
    for seq, step in enumerate(done):
        inst = by_id[step.instrument]
        extra[files[inst.file]]["amendments"].append((treaty, lang, step, seq, inst.file))
        if step.status != "applied":
            continue
        top = (step.before or step.after).eid  # type: ignore[union-attr]
        if (top, step.instrument) in seen:
            continue  # a second change by the same instrument: one text before, one after
        seen.add((top, step.instrument))
        if step.before is not None:
            extra[primary]["history"].append(
                (treaty, lang, step.before, valid.get(top, base.date), step.date, step.instrument))
        extra[primary]["sources"].append((treaty, lang, top, step.instrument, step.date,
                                          step.op.action, step.op.target.level
                                          if step.op.target else "article"))
        valid[top] = step.date


def consolidate(docs: list[Processed]) -> list[Processed]:
    """`docs` (of an ingest, any treaties) with each treaty's amending instruments applied
    (module doc); the order and the removed rows kept."""
    by_treaty: dict[str, list[int]] = {}
    for k, (doc, _removed) in enumerate(docs):
        by_treaty.setdefault(doc.meta.treaty, []).append(k)
    out = list(docs)
    for ks in by_treaty.values():
        new = consolidate_treaty([docs[k][0] for k in ks])
        for k, doc in zip(ks, new):
            out[k] = (doc, docs[k][1])
    return out
