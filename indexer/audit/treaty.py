"""The audit of processed documents: their language versions per treaty, each checked on its
own and against the others, the alignment links, and the source lines no unit holds."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence

from indexer.audit.articles import (
    VersionView,
    Where,
    headings_in_body,
    headings_outside,
    inferred_numbers,
    numbering,
    paragraph_skips,
)
from indexer.audit.model import Audit, Finding, Source, short
from indexer.audit.parallel import disagreements, weak_links
from indexer.audit.source import LineClaims
from indexer.models import Document

#: A processed document and its source (None: the source is not at hand, so the checks that
#: read source lines are left out for it).
Audited = tuple[Document, Source | None]


def audit_documents(docs: Sequence[Audited], links: Iterable[tuple] = ()) -> Audit:
    """The audit of every treaty of `docs` (all the files of each treaty, after the
    treaty-level steps), with `links`: the store's link rows of these treaties."""
    by_treaty: dict[str, list[Audited]] = defaultdict(list)
    for item in docs:
        by_treaty[item[0].meta.treaty].append(item)
    links_of: dict[str, list[tuple]] = defaultdict(list)
    for row in links:
        if row[0] in by_treaty:
            links_of[row[0]].append(row)
    audit = Audit()
    for treaty, items in by_treaty.items():
        audit += audit_treaty(items, links_of[treaty])
    return audit


def audit_treaty(docs: Sequence[Audited], links: Iterable[tuple] = ()) -> Audit:
    """The audit of one treaty: `docs`, all its files, and `links`, its link rows."""
    claims: dict[str, LineClaims] = {}
    where: Where = {}
    for doc, source in docs:
        if source is None:
            continue
        c = claims[doc.meta.file] = LineClaims.of(source)
        tops = [(v.lang, u) for v in doc.versions for u in v.units]
        for (lang, u), found in zip(tops, c.claim_all(tops)):
            where[(doc.meta.file, lang, u.eid)] = found
    views = _views(docs)
    findings: list[Finding] = []
    for view in views:
        findings.extend(numbering(view))
        findings.extend(headings_in_body(view, where))
        findings.extend(headings_outside(view, where))
        findings.extend(paragraph_skips(view))
        findings.extend(inferred_numbers(view))
    findings.extend(disagreements(views))
    findings.extend(weak_links(views, links))
    langs = [v.lang for v in views]
    for doc, _source in docs:
        if doc.meta.file in claims:
            findings.extend(_unaccounted(doc, claims[doc.meta.file], langs))
    order = {lang: i for i, lang in enumerate(langs)}
    findings.sort(key=lambda f: (order.get(f.lang, len(order)), f.start or 0, f.eid or ""))
    return Audit(tuple((v.treaty, v.lang, v.file) for v in views), tuple(findings))


def _views(docs: Sequence[Audited]) -> list[VersionView]:
    """The language versions of the treaty (each language of a document's own versions, over
    every file that has it), in the order the documents give them."""
    units: dict[str, list] = {}
    best: dict[str, tuple[int, str]] = {}
    declared: dict[str, int | None] = {}
    for doc, _source in docs:
        for v in doc.versions:
            if v.lang not in doc.meta.languages:
                continue  # text kept aside, not a version of the treaty
            units.setdefault(v.lang, []).extend((doc.meta.file, u) for u in v.units)
            n = sum(1 for u in v.units if u.kind == "article")
            if v.lang not in best or n > best[v.lang][0]:
                best[v.lang] = (n, doc.meta.file)
            if declared.get(v.lang) is None:
                declared[v.lang] = doc.meta.article
    treaty = docs[0][0].meta.treaty if docs else ""
    return [VersionView(treaty, lang, best[lang][1], tuple(us), declared[lang])
            for lang, us in units.items()]


def _unaccounted(doc: Document, claims: LineClaims, langs: Sequence[str]) -> Iterator[Finding]:
    """A finding per run of source lines with text that no unit holds, on the version whose
    text is nearest."""
    own = [lang for lang in langs if lang in doc.meta.languages]
    for first, last, count in claims.unaccounted():
        lang = claims.lang_near(first, own) or (own[0] if own else "")
        text = claims.source.lines[first - 1].strip()
        lines = "a source line" if count == 1 else f"{count} source lines"
        yield Finding(doc.meta.treaty, doc.meta.file, lang, None, "unaccounted-lines",
                      f"{lines} with text in no unit, from “{short(text)}”", first, last)
