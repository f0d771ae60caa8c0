"""One source text in, one Document out: clean -> languages -> normalise -> segment, with
metadata read or guessed. Pure apart from what the stages load (lexicons, models)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace

from indexer import clean as clean_stage
from indexer import languages as lang_stage
from indexer.models import Change, Decoded, DocMeta, Document, Line, Unit, Version
from indexer.policy import policy
from indexer.sources import metadata


@dataclass
class Said:
    """What a document's processing says about it: `warnings`, what a person must look at
    (the text may be misread: no article found, bad bytes, given metadata the text
    contradicts), and `notes`, what was guessed, inferred or kept aside, as expected of a
    text without a manifest entry."""

    warnings: list[str]
    notes: list[str]


def _other_units(lines: Sequence[Line], note: str) -> tuple[Unit, ...]:
    """Text kept as `other`, one unit per run of consecutive blocks."""
    units: list[Unit] = []
    run: list[Line] = []

    def flush() -> None:
        if run:
            units.append(Unit(
                eid=f"other_{len(units) + 1}", kind="other",
                text="\n".join(x.text for x in run), raw="\n".join(x.raw for x in run),
                start=min(x.start for x in run), end=max(x.end for x in run), note=note,
            ))
            run.clear()

    for line in lines:
        if run and line.block - run[-1].block > 1:
            flush()
        run.append(line)
    flush()
    return tuple(units)


class _ChangedLines:
    """The OCR repairs of one version's lines by source line, looked up by line span: the
    starts sorted once, so a unit finds its lines by bisection instead of scanning them all."""

    def __init__(self, changes_by_line: dict[int, tuple[Change, ...]]) -> None:
        self.items = list(changes_by_line.items())  # in the dict's (reading) order
        order = sorted(range(len(self.items)), key=lambda k: self.items[k][0])
        self.starts = [self.items[k][0] for k in order]
        self.order = order

    def within(self, first: int, last: int) -> list[tuple[int, tuple[Change, ...]]]:
        """The (start, changes) items with first <= start <= last, in the dict's order."""
        lo = bisect_left(self.starts, first)
        hi = bisect_right(self.starts, last, lo)
        return [self.items[k] for k in sorted(self.order[lo:hi])]


def _with_changes(unit: Unit, changed: _ChangedLines) -> Unit:
    """Attach the OCR repairs of the unit's source lines where `segment` did not."""
    children = tuple(_with_changes(c, changed) for c in unit.children)
    same = all(a is b for a, b in zip(children, unit.children))
    if unit.changes or not changed.items:
        return unit if same else replace(unit, children=children)
    found: list[Change] = []
    for _start, changes in changed.within(unit.start, unit.end):
        found.extend(ch for ch in changes if ch.before in unit.raw or ch.after in unit.text)
    if not found and same:
        return unit
    return replace(unit, children=children, changes=tuple(found))


def _title_and_closings(versions: Sequence[Version]) -> tuple[str | None, list[str]]:
    """The segmented title that comes first in the source and every closing formula in
    source order: metadata is read from these before any other line (a bill may quote other
    treaties' dates first; a consolidated text closes its protocols after the treaty)."""
    units = sorted((u.start, u.kind, u.text) for v in versions for u in v.units
                   if u.kind in ("title", "closing"))
    titles = [text for _start, kind, text in units if kind == "title"]
    return (titles[0] if titles else None,
            [text for _start, kind, text in units if kind == "closing"])


def count_kind(units: Sequence[Unit], kind: str) -> int:
    return sum(1 for u in units if u.kind == kind)


def _kept_aside(lang: str, lines: Sequence[Line], notes: list[str]) -> Version:
    """Text in a language that is not a version of this treaty, kept as `other`."""
    if lang != "und":
        notes.append(f"{sum(len(x.raw) for x in lines)} characters of text in '{lang}' "
                     "kept as other")
    return Version(lang=lang, units=_other_units(
        lines, f"text in {lang}, not a version of this treaty"))


def _line_steps(streams: dict[str, list[Line]], langs: Sequence[str]
                ) -> dict[str, list[Line]]:
    """The lines of each stream of `langs` (the document's versions) through the line steps
    of the normalise registry."""
    from indexer.normalise import normalise_line, shared

    out = {}
    for lang in langs:
        normaliser = shared(lang)  # the process's, for every document: see normalise.context
        out[lang] = [normalise_line(x, normaliser) for x in streams[lang]]
    return out


def _version(lang: str, lines: Sequence[Line], meta: DocMeta, topics: bool,
             said: Said, others: Sequence[str] = (), noisy: bool = False,
             doubted: frozenset[str] = frozenset()) -> Version:
    """One language version from its lines through the line steps: the steps over the whole
    version (with the document's other languages `others` as evidence; `noisy`: the
    document is a print read by OCR), then segmented, with the OCR repairs of each unit's
    lines; a warning when no article is found, a note when article numbers are inferred.
    `doubted`: the words the OCR engine doubted (`normalise.evidence`)."""
    from indexer.normalise import repair_version, shared
    from indexer.segment import segment

    normalised = repair_version(lines, shared(lang), [shared(x) for x in others], noisy,
                                doubted)
    units = segment(normalised, lang, article=meta.article, topics=topics)
    changed = _ChangedLines({x.start: x.changes for x in normalised if x.changes})
    units = tuple(_with_changes(u, changed) for u in units)
    articles = count_kind(units, "article")
    inferred = sum(1 for u in units if u.kind == "article" and u.number_inferred)
    if articles == 0:
        said.warnings.append(f"{lang}: no articles found")
    elif inferred:
        said.notes.append(f"{lang}: {inferred} of {articles} article numbers inferred "
                          "(heading missing or unreadable)")
    said.warnings.extend(f"{lang}: {w}" for w in _oversized(units))
    return Version(lang=lang, units=units)


def _oversized(units: Sequence[Unit]) -> list[str]:
    """A warning for each searchable unit (a top-level one or a paragraph) too long for one
    index document (see `indexer.index.documents.parts`)."""
    from indexer.index.documents import oversized

    return oversized({u.eid: u.text for top in units for u in (top.children or (top,))})


def _guessed(meta: DocMeta, lines: Sequence[Line], versions: Sequence[Version],
             said: Said) -> DocMeta:
    """`meta` completed from the text where the manifest left something out, each guess
    named in a note; what the manifest gives that the text contradicts, in a warning."""
    texts = [x.text for x in lines]
    title_closings = _title_and_closings(versions)
    said.warnings.extend(contradictions(meta, texts, *title_closings))
    if not (meta.treaty and meta.parties and meta.signed):
        meta = metadata.guess(meta, texts, *title_closings)
    for name in meta.guessed:
        value = getattr(meta, name)
        shown = ",".join(value) if isinstance(value, tuple) else value
        said.notes.append(f"{name} guessed: {shown or 'unknown'}")
    return meta


def contradictions(meta: DocMeta, lines: Sequence[str], title: str | None = None,
                   closings: Sequence[str] = ()) -> list[str]:
    """What the manifest (or `treaty add`'s options) gives that the text itself says
    otherwise: the parties its title or preamble joins, the year of its closing formula.
    Only what the text does say is compared; a field the text is silent on is no
    contradiction."""
    given = [k for k in ("parties", "signed") if getattr(meta, k) and k not in meta.guessed]
    if not given:
        return []
    read = metadata.guess(DocMeta(file=meta.file, treaty="x"), lines, title, closings)
    out = []
    if "parties" in given and read.parties and set(read.parties) != set(meta.parties):
        out.append(f"parties given as {','.join(meta.parties)}, but the text names "
                   f"{','.join(read.parties)}")
    if "signed" in given and read.signed and read.signed[:4] != str(meta.signed)[:4]:
        out.append(f"signed given as {meta.signed}, but the text's closing formula says "
                   f"{read.signed}")
    return out


#: Treaty-register patterns (`indexer.topics.treaty_register`: "Contracting State",
#: "shall", "resident of", "competent authority" …, less twice each first-person or
#: commercial word) a version without a printed article heading needs to count as a treaty:
#: the headingless excerpt scores 6, licences and policy pages 1 at most.
REGISTER_MIN = 3
#: Characters of a version read for its register (the register counts each first-person or
#: commercial word: over a whole long text a few would outweigh its treaty language).
REGISTER_SAMPLE = 20_000


def structure_missing(doc: Document) -> str | None:
    """Why `doc` holds no treaty at all, by the ingest's own reading (None when it does): no
    version has an article whose heading is printed in a treaty's words or a protocol item,
    nor reads as treaty language (`REGISTER_MIN`), and the manifest declares no single-article
    excerpt nor an amending instrument.
    (A licence or a web page's policy text is read as one article at most, its number
    inferred, and speaks as "we" or of "this License".)"""
    from indexer.segment.lines import is_heading_line
    from indexer.topics import treaty_register

    if doc.meta.article is not None or doc.meta.instrument is not None:
        return None  # (an excerpt, or an instrument the manifest declares: an exchange of
        # notes has no article of its own)
    for version in doc.versions:
        units = [u for u in version.units if u.kind != "other"]
        # (headings in a treaty's words; a page's numbered sections, "1. What are
        # cookies?", are headings of the document's own numbering, not of a treaty)
        if any(u.kind == "protocol" or (u.kind == "article" and not u.number_inferred
                                        and is_heading_line(u.raw.split("\n", 1)[0]))
               for u in units):
            return None
        text = "\n".join(u.text for u in units)[:REGISTER_SAMPLE]
        if treaty_register(text, version.lang) >= REGISTER_MIN:
            return None
    langs = ",".join(v.lang for v in doc.versions if v.lang in doc.meta.languages) or "-"
    return (f"no treaty structure: no article heading, protocol item or treaty language in "
            f"its text ({langs})")


def _versions(streams: dict[str, list[Line]], meta: DocMeta, topics: bool,
              said: Said, doubted: frozenset[str] = frozenset()) -> list[Version]:
    """The document's versions (its languages' streams through normalise and segment) and
    its other streams kept aside, in stream order."""
    from indexer.normalise import LEXICON_LANGS, noisy

    evidence = [k for k in streams if k in LEXICON_LANGS]  # the document's other languages
    normalised = _line_steps(streams, [k for k in streams
                                       if policy(k) is not None and k in meta.languages])
    # how noisy the source is, a property of its print: from all its versions
    is_noisy = noisy([x for lines in normalised.values() for x in lines])
    return [
        _version(lang, normalised[lang], meta, topics, said,
                 [k for k in evidence if k != lang], is_noisy, doubted)
        if lang in normalised else _kept_aside(lang, lines, said.notes)
        for lang, lines in streams.items()
    ]


def process(decoded: Decoded, meta: DocMeta, *, topics: bool = True,
            doubted: frozenset[str] = frozenset()) -> tuple[Document, list[tuple]]:
    """Turn one decoded source text into a Document (and its removed furniture rows).
    `topics=False`: articles get no topic of their own (the ingest gives each article the
    topic `treaty.harmonise_topics` decides over all versions of the treaty). `doubted`: the
    words the OCR engine doubted, for a text it read (`normalise.evidence`)."""
    cleaned = clean_stage.clean(decoded.text)
    said = Said(list(decoded.warnings), [])
    streams = lang_stage.split(cleaned.lines, list(meta.languages) or None)
    if not meta.languages:
        meta = replace(meta, languages=tuple(k for k in streams if policy(k)),
                       guessed=(*meta.guessed, "languages"))
    versions = _versions(streams, meta, topics, said, doubted)
    # metadata is read from the treaty's own languages (not a Dutch or French title before it)
    own = sorted((x for lang, ls in streams.items() if lang in meta.languages for x in ls),
                 key=lambda x: x.start)
    meta = _guessed(meta, own or cleaned.lines, versions, said)
    doc = Document(
        meta=meta, sha256=decoded.sha256, encoding=decoded.encoding,
        versions=tuple(versions), warnings=tuple(said.warnings), notes=tuple(said.notes),
        source_lines=decoded.text.count("\n") + 1, format=decoded.format, pages=decoded.pages,
    )
    removed = [(x.start, x.end, x.raw, why) for x, why in zip(cleaned.furniture, cleaned.reasons)]
    return doc, removed
