"""The steps decided over all the files of a treaty once each is processed: one topic per
article across the language versions, unique eIds across files, and the alignment links."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.errors import SourceError
from indexer.models import Document, Unit, Version
from indexer.pipeline.document import count_kind
from indexer.policy import policy

if TYPE_CHECKING:
    from indexer.audit import Audit

#: A processed document with its removed furniture rows.
Processed = tuple[Document, list[tuple]]


def links_of(docs: Sequence[Processed]) -> list[tuple]:
    """Alignment links of the treaties of `docs` (no kept files involved)."""
    from indexer.align import align_corpus

    return align_corpus([(doc.meta.treaty, v) for doc, _ in docs for v in doc.versions
                         if v.lang in doc.meta.languages])


def links(fresh: Sequence[Processed], workers: int = 1) -> list[tuple]:
    """Alignment links of the treaties of the fresh documents (`fresh` holds every file of
    each: a treaty with a kept file has its links copied from the current store with it),
    in a process pool of `workers` when there are enough treaties."""
    from indexer.align import align_corpus

    return align_corpus([(doc.meta.treaty, v) for doc, _ in fresh for v in doc.versions
                         if v.lang in doc.meta.languages], workers=workers)


def repair_across(docs: list[Processed], link_rows: Sequence[tuple]) -> set[str]:
    """The cross-version repair of each document's versions from the aligned paragraphs of
    the other versions of its treaty (`link_rows`: the treaties' link rows), made in place in
    `docs`. Returns the treaties whose text changed: their links are to be made again."""
    from indexer.normalise import cross_version

    by_treaty: dict[str, list[tuple]] = {}
    for row in link_rows:
        by_treaty.setdefault(row[0], []).append(row)
    owners: dict[str, list[int]] = {}  # the indexes in `docs` of each treaty's documents
    for k, (doc, _) in enumerate(docs):
        owners.setdefault(doc.meta.treaty, []).append(k)
    changed: set[str] = set()
    for treaty, rows in by_treaty.items():
        own = [(k, v) for k in owners.get(treaty, ()) for v in docs[k][0].versions
               if v.lang in docs[k][0].meta.languages]
        if len({v.lang for _, v in own}) < 2:
            continue
        repaired = cross_version([v for _, v in own], rows)
        for (k, old), new in zip(own, repaired):
            if new is not old:
                doc, removed = docs[k]
                versions = tuple(new if v is old else v for v in doc.versions)
                docs[k] = (replace(doc, versions=versions), removed)
                changed.add(treaty)
    return changed


def realigned(docs: Sequence[Processed], link_rows: list[tuple], changed: set[str]
              ) -> list[tuple]:
    """`link_rows` with the links of the `changed` treaties made again from `docs` (their
    files are all among `docs`: a treaty with a fresh file has no kept one)."""
    if not changed:
        return link_rows
    kept = [r for r in link_rows if r[0] not in changed]
    return kept + links_of([d for d in docs if d[0].meta.treaty in changed])


def audit(corpus_dir: Path, docs: Sequence[Processed], links: Sequence[tuple],
          limit: int | None = None) -> Audit:
    """The audit of the treaties of `docs` (with `links`, every treaty's link rows). Each
    source is read again (`limit`: the size limit of one file); a file changed since it was
    processed is audited without it."""
    from indexer.audit import Source, audit_documents
    from indexer.sources.read import read_source

    items = []
    for doc, removed in docs:
        try:
            decoded = read_source(corpus_dir, doc.meta.file, limit)
        except SourceError:
            decoded = None
        same = decoded is not None and decoded.sha256 == doc.sha256
        items.append((doc, Source.of(decoded.text, removed) if same else None))
    return audit_documents(items, links)


def harmonise_topics(docs: list[Processed]) -> None:
    """Topics per treaty: the language versions of an article share one topic, from the
    evidence of all of them, and no two articles of a treaty get the same model topic."""
    from indexer.topics import assign, pooled_scores

    evidence: dict[str, dict[int, list[tuple[str | None, str, str]]]] = {}
    for doc, _removed in docs:
        for v in doc.versions:
            if policy(v.lang) is None:
                continue
            for u in v.units:
                if u.kind == "article" and u.number is not None:
                    evidence.setdefault(doc.meta.treaty, {}).setdefault(u.number, []).append(
                        (u.title, u.text, v.lang))
    chosen: dict[tuple[str, int], str | None] = {}
    for treaty, articles in evidence.items():
        picks = assign({n: pooled_scores(ev) for n, ev in articles.items()})
        chosen.update({(treaty, n): key for n, key in picks.items()})

    def retopic(v: Version, treaty: str) -> Version:
        """`v` with its articles' chosen topics (`v` itself when none changes)."""
        units = list(v.units)
        for k, u in enumerate(units):
            if u.kind == "article" and (treaty, u.number) in chosen:
                topic = chosen[(treaty, u.number)]
                if topic != u.topic:
                    units[k] = replace(u, topic=topic)
        if all(new is old for new, old in zip(units, v.units)):
            return v
        return replace(v, units=tuple(units))

    for i, (doc, removed) in enumerate(docs):
        versions = tuple(retopic(v, doc.meta.treaty) for v in doc.versions)
        if any(new is not old for new, old in zip(versions, doc.versions)):
            docs[i] = (replace(doc, versions=versions), removed)


def _as_other(unit: Unit, eid: str, note: str) -> Unit:
    return Unit(eid=eid, kind="other", text=unit.text, raw=unit.raw, start=unit.start,
                end=unit.end, note=note, changes=unit.changes)


def disambiguate(docs: list[Processed]) -> None:
    """Files of one treaty must not share eIds within a language. For each language the file
    with the most articles in it is the version; in any other file a unit with an eId the
    version already has (a second copy of the text, a slice that repeats a heading) is kept
    as `other` with a warning, never merged or lost; `other` units are numbered on."""
    primary: dict[tuple[str, str], tuple[int, int]] = {}
    for i, (doc, _removed) in enumerate(docs):
        for v in doc.versions:
            key, n = (doc.meta.treaty, v.lang), count_kind(v.units, "article")
            if key not in primary or n > primary[key][1]:
                primary[key] = (i, n)
    seen: dict[tuple[str, str], set[str]] = {}
    for key, (i, _n) in primary.items():
        version = next(v for v in docs[i][0].versions if v.lang == key[1])
        seen[key] = {u.eid for u in version.units}
    for i, (doc, removed) in enumerate(docs):
        versions = []
        warnings = list(doc.warnings)
        for v in doc.versions:
            key = (doc.meta.treaty, v.lang)
            if primary[key][0] == i:
                versions.append(v)
                continue
            eids = seen[key]
            others = sum(1 for e in eids if e.startswith("other_"))
            units = []
            dup = 0
            for u in v.units:
                if u.kind == "other" or u.eid in eids:
                    others += 1
                    if u.kind == "other":
                        u = replace(u, eid=f"other_{others}")
                    else:
                        dup += 1
                        u = _as_other(u, f"other_{others}", f"another copy of {u.eid}: "
                                      f"{doc.meta.treaty}/{v.lang} already has it")
                eids.add(u.eid)
                units.append(u)
            if dup:
                warnings.append(f"{v.lang}: {dup} units repeat ones another file of "
                                f"{doc.meta.treaty} already has; kept as other")
            versions.append(replace(v, units=tuple(units)))
        docs[i] = (replace(doc, versions=tuple(versions), warnings=tuple(warnings)), removed)
