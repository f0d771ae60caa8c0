"""Frozen data models shared by every pipeline stage.

Data flows one way: bytes -> Decoded -> Line (cleaned, with source line span) -> Line with a
language -> Line with normalised text -> Unit tree -> Document -> store.

Every stage is a set of pure functions from these dataclasses to these dataclasses; only
``store`` and ``index`` touch the disk.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Kinds of top-level units (what `treaty export` emits one JSON object for).
TOP_KINDS = ("title", "preamble", "chapter", "article", "protocol", "closing", "annex", "other")
# Kinds of nested units.
SUB_KINDS = ("paragraph", "point")


@dataclass(frozen=True)
class Decoded:
    """A source file decoded to text (line ends normalised to \\n)."""

    path: str
    text: str
    encoding: str  # e.g. "utf-8", "utf-8-sig", "utf-16", "cp1252"
    sha256: str  # of the raw bytes
    warnings: tuple[str, ...] = ()  # e.g. invalid UTF-8 bytes replaced, on which lines
    format: str = "text"  # "text", "html", "pdf" or "docx" (found from the content)
    pages: tuple[int, ...] = ()  # paged formats: the first source line of each page


@dataclass(frozen=True)
class Change:
    """One explainable edit made by a normalisation step."""

    step: str  # name of the registered step, e.g. "charset-pt"
    before: str
    after: str
    why: str = ""


@dataclass(frozen=True)
class Line:
    """A logical line: one paragraph of running text after cleaning.

    ``raw`` is the text exactly as in the source (physical lines joined with "\\n"),
    ``text`` the cleaned (de-hyphenated, re-joined) and later normalised text.
    ``start``/``end`` are 1-based inclusive source line numbers.
    """

    text: str
    raw: str
    start: int
    end: int
    page: int = 0  # 0-based page index where the text layout has pages, else 0
    block: int = 0  # index of the blank-line separated block it came from
    lang: str = ""  # ISO 639-1, set by `languages`; "" = unknown
    changes: tuple[Change, ...] = ()  # set by `normalise`


@dataclass(frozen=True)
class Unit:
    """A structural unit of one language version (article, paragraph, point, ...).

    ``eid`` is the Akoma Ntoso style id inside the version: ``art_10``,
    ``art_10__para_2``, ``art_10__para_2__point_a``, ``prot_4``, ``preamble``, ``closing``,
    ``title``, ``other_1``.
    """

    eid: str
    kind: str  # one of TOP_KINDS or SUB_KINDS
    text: str
    raw: str
    start: int  # first source line (1-based)
    end: int  # last source line (inclusive)
    number: int | None = None  # article / protocol item number
    label: str | None = None  # as printed: "10", "X", "十", "Xl" (garbled) ...
    num: str | None = None  # paragraph / point number as a string: "1", "a", "ii"
    title: str | None = None
    topic: str | None = None  # model-convention topic key (articles)
    number_inferred: bool = False  # article number recovered, not printed
    refers_to: int | None = None  # protocol item -> article number it refers to
    chapter: str | None = None  # chapter label the article sits in, if any
    note: str | None = None  # e.g. why a unit is `other`
    children: tuple[Unit, ...] = ()
    changes: tuple[Change, ...] = ()  # OCR repairs inside this unit


@dataclass(frozen=True)
class Version:
    """One language version of a treaty."""

    lang: str
    units: tuple[Unit, ...]  # top-level units in reading order


@dataclass(frozen=True)
class DocMeta:
    """What is known about a document, from the manifest or guessed."""

    file: str  # path relative to the corpus folder
    treaty: str  # treaty id, e.g. "br-pe-2006"
    parties: tuple[str, ...] = ()  # ISO 3166-1 alpha-2, upper case
    signed: str | None = None  # ISO date
    place: str | None = None
    languages: tuple[str, ...] = ()  # declared (manifest) or detected
    article: int | None = None  # number of a headingless single-article excerpt
    title: str | None = None
    guessed: tuple[str, ...] = ()  # names of fields that were guessed, not declared
    instrument: str | None = None  # the kind of instrument the file holds, when not the
    # treaty itself (a protocol in a file of its own); its `signed`, `place` are the instrument's
    facts: tuple[tuple[str, str], ...] = ()  # treaty facts the manifest declares (name, value)


@dataclass(frozen=True)
class Document:
    """A fully processed source file."""

    meta: DocMeta
    sha256: str
    encoding: str
    versions: tuple[Version, ...]
    warnings: tuple[str, ...] = ()  # what a person must look at (the text may be misread)
    source_lines: int = 0
    format: str = "text"  # of the source file (see Decoded)
    pages: tuple[int, ...] = ()  # the first source line of each page (paged formats)
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    #: what was guessed, inferred or kept aside, as expected of a text without a manifest
    #: entry ("parties guessed: BR,PE"); summarised by the ingest, listed with --verbose
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Cleaned:
    """Output of `clean`: logical lines in source order, and what was removed as furniture."""

    lines: tuple[Line, ...]
    furniture: tuple[Line, ...] = ()  # running headers/footers, sheet marks (kept for audit)
    reasons: tuple[str, ...] = ()  # why each furniture line was removed (`clean.REASONS`)


@dataclass(frozen=True)
class IndexDoc:
    """One searchable paragraph (or an article/other unit without paragraphs), with its
    article context. Built from the store by `index`; the same for every engine."""

    id: str  # full unit id: "br-pe-2006/en/art_10__para_2"
    treaty: str
    parties: tuple[str, ...]
    lang: str
    kind: str  # kind of the top-level unit: article, protocol, preamble, other, ...
    eid: str  # eId of the paragraph (or of the top-level unit)
    article_eid: str  # eId of the top-level unit it belongs to: "art_10"
    number: int | None  # article / protocol item number
    label: str | None
    title: str  # article title ("" when none)
    topic: str  # topic key ("" when none)
    topic_names: str  # the topic's display names in en, pt, sv and zh, space separated
    text: str  # normalised text (what is indexed)
    raw: str  # source text (what may be displayed)
    #: the words as printed where the OCR repair changed them: searchable (a reader who copies
    #: a word from the print finds its paragraph), never shown
    printed: str = ""
