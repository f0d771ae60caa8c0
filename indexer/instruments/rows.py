"""The store's rows of a document's instruments and amendments (`Document.extra`, made by
`consolidate`): the tables `instruments`, `amendments`, `unit_history` and `unit_sources`
(their schema in `indexer.store`)."""

from __future__ import annotations

import json

from indexer.models import Document


def instrument_rows(doc: Document) -> dict[str, list[tuple]]:
    """Table name -> the rows of `doc`'s consolidation (empty when it had none)."""
    from indexer.store import flatten

    extra = doc.extra or {}
    file = doc.meta.file
    out: dict[str, list[tuple]] = {}
    out["instruments"] = [
        (treaty, lang, i.id, i.kind, i.title, i.signed, i.place, i.in_force, i.effective,
         int(i.base), i.file, i.start, i.end, json.dumps(list(i.eids)), i.signed_line, seq)
        for treaty, lang, i, seq in extra.get("instruments", ())]
    out["amendments"] = [
        (treaty, lang, s.instrument, seq, s.op.action, s.op.target.eid if s.op.target else None,
         s.op.after.eid if s.op.after else None, s.status, s.op.clause, s.op.old_words,
         s.op.new_words, s.date, inst_file, "\n".join(s.op.new))
        for treaty, lang, s, seq, inst_file in extra.get("amendments", ())]
    history = []
    for treaty, lang, unit, valid_from, valid_to, instrument in extra.get("history", ()):
        for row in flatten(unit, treaty, lang, file):
            history.append((*row, valid_from, valid_to, instrument))
    out["unit_history"] = history
    out["unit_sources"] = [(treaty, lang, eid, instrument, valid_from, action, level, file)
                           for treaty, lang, eid, instrument, valid_from, action, level
                           in extra.get("sources", ())]
    return {k: v for k, v in out.items() if v}
