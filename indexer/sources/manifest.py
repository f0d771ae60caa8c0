"""The corpus manifest: `corpus/manifest.toml`, one `[[document]]` table per source file.

A text in the corpus folder with no entry still ingests: its metadata is guessed later by
`indexer.metadata` and the guesses are reported as warnings.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from indexer.errors import ManifestError, SourceError
from indexer.sources import files

MANIFEST_NAME = "manifest.toml"
#: Suffixes of files that are taken as source texts when they have no manifest entry (their
#: format is then found from their content).
TEXT_SUFFIXES = (".txt", ".html", ".htm", ".xhtml", ".pdf", ".docx")

_TREATY_ID = re.compile(r"^(?:[a-z]{2}(?:-[a-z]{2})+|[a-z][a-z0-9]*(?:-[a-z0-9]+)*)-\d{4}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_KNOWN_KEYS = {
    "file", "treaty", "parties", "signed", "place", "languages", "article", "title", "note",
    *("instrument", "in_force", "effective", "terminated", "replaced_by", "amended_by",
      "authentic"),
    "keep",
}
#: The optional facts of a treaty (issue 29), each a date, an id or a list: `instrument`
#: is the kind of instrument a file holds when it is not the treaty itself (its `signed`
#: and `place` are then the instrument's).
INSTRUMENT_KINDS = ("convention", "agreement", "protocol", "exchange-of-notes", "memorandum")
_DATE_FACTS = ("in_force", "effective", "terminated")
#: The longest text each text field may hold (characters), and the most codes in a list.
_TEXT_FIELDS = {"file": 1024, "treaty": 100, "place": 200, "title": 2000, "note": 4000}
_MAX_CODES = 20
#: The largest article number an entry may name.
MAX_ARTICLE = 9999


@dataclass(frozen=True)
class Entry:
    """One manifest entry (declared fields only; None = not declared)."""

    file: str
    treaty: str | None = None
    parties: tuple[str, ...] | None = None
    signed: str | None = None
    place: str | None = None
    languages: tuple[str, ...] | None = None
    article: int | None = None
    title: str | None = None
    note: str | None = None
    declared: bool = True  # False for a file found in the folder without an entry
    instrument: str | None = None  # the kind of instrument the file holds, when not the treaty
    facts: tuple[tuple[str, str], ...] = ()  # (name, value) of in_force, effective,
    # terminated, replaced_by, amended_by (one pair each), authentic (codes joined by ",")
    keep: bool = False  # ingested even without treaty structure (`treaty add --force`)


def _codes(table: dict, key: str, pattern: str, where: str, like: str) -> list[str] | None:
    """The list of codes under `key` (each matching `pattern`), None when absent."""
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > _MAX_CODES or not all(
            isinstance(x, str) and re.fullmatch(pattern, x) for x in value):
        raise ManifestError(f"{where}: {key} must be {like}")
    return value


def _checked(table: dict, where: str) -> None:
    """Refuse unknown keys, a missing file and malformed single values."""
    unknown = set(table) - _KNOWN_KEYS
    if unknown:
        shown = ", ".join(sorted(k[:40].encode("unicode_escape").decode() for k in unknown)[:5])
        raise ManifestError(f"{where}: unknown field(s) {shown}")
    for key, most in _TEXT_FIELDS.items():
        value = table.get(key)
        if value is not None and not isinstance(value, str):
            raise ManifestError(f"{where}: {key} must be text in quotes, not "
                                f"{type(value).__name__}")
        if value is not None and (len(value) > most or not value.isprintable()):
            raise ManifestError(f"{where}: {key} must be one line of at most {most} "
                                "characters")
    file = table.get("file")
    if not isinstance(file, str) or not file.strip():
        raise ManifestError(f"{where}: every [[document]] needs a `file` (a path)")
    treaty = table.get("treaty")
    if treaty is not None and (not isinstance(treaty, str) or not _TREATY_ID.match(treaty)):
        raise ManifestError(
            f"{where}: treaty id {treaty!r} is not like 'br-pe-2006' or 'nordic-1996'"
        )
    if table.get("signed") is not None and not _is_date(table["signed"]):
        raise ManifestError(f"{where}: signed must be a date like 2006-02-17")
    article = table.get("article")
    if article is not None and (not isinstance(article, int) or isinstance(article, bool)
                                or not 1 <= article <= MAX_ARTICLE):
        raise ManifestError(f"{where}: article must be a positive whole number (at most "
                            f"{MAX_ARTICLE})")
    if not isinstance(table.get("keep", False), bool):
        raise ManifestError(f"{where}: keep must be true or false")
    _checked_facts(table, where)


def _checked_facts(table: dict, where: str) -> None:
    """Refuse a malformed treaty fact: a date that is no day, an instrument of no known
    kind, a treaty id not like one, a list that is no list of them."""
    for key in _DATE_FACTS:
        if table.get(key) is not None and not _is_date(table[key]):
            raise ManifestError(f"{where}: {key} must be a date like 2006-02-17")
    kind = table.get("instrument")
    if kind is not None and kind not in INSTRUMENT_KINDS:
        raise ManifestError(f"{where}: instrument must be one of {', '.join(INSTRUMENT_KINDS)}")
    replaced = table.get("replaced_by")
    if replaced is not None and (not isinstance(replaced, str) or not _TREATY_ID.match(replaced)):
        raise ManifestError(f"{where}: replaced_by must be a treaty id like 'br-pe-2006'")
    amended = table.get("amended_by")
    if amended is not None and (not isinstance(amended, list) or len(amended) > _MAX_CODES
                                or not all(_is_date(x) for x in amended)):
        raise ManifestError(f"{where}: amended_by must be a list of dates like "
                            "['2005-09-30']")


def _is_date(value: object) -> bool:
    """A calendar date: a TOML date, or text like 2006-02-17 that is a real day."""
    import datetime

    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        return True
    if not isinstance(value, str) or not _DATE.match(value):
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _entry(table: dict, where: str) -> Entry:
    _checked(table, where)
    parties = _codes(table, "parties", r"[A-Za-z]{2}", where,
                     "ISO 3166-1 alpha-2 codes like 'BR'")
    languages = _codes(table, "languages", r"[a-z]{2}", where, "ISO 639-1 codes like 'en'")
    authentic = _codes(table, "authentic", r"[a-z]{2}", where, "ISO 639-1 codes like 'en'")
    facts = [(k, str(table[k])) for k in (*_DATE_FACTS, "replaced_by") if table.get(k)]
    facts += [("amended_by", str(x)) for x in table.get("amended_by") or ()]
    if authentic:
        facts.append(("authentic", ",".join(authentic)))
    signed = table.get("signed")
    return Entry(
        file=table["file"],
        treaty=table.get("treaty"),
        parties=tuple(sorted(p.upper() for p in parties)) if parties is not None else None,
        signed=str(signed) if signed is not None else None,
        place=table.get("place"),
        languages=tuple(languages) if languages is not None else None,
        article=table.get("article"),
        title=table.get("title"),
        note=table.get("note"),
        instrument=table.get("instrument"),
        facts=tuple(facts),
        keep=table.get("keep", False),
    )


def parse_entry(table: dict, where: str) -> Entry:
    """The entry of one `[[document]]` table, checked (`where` names it in messages)."""
    return _entry(table, where)


def load(corpus_dir: Path) -> list[Entry]:
    """Entries of the manifest in `corpus_dir`, then undeclared text files in it (sorted).

    A missing manifest is not an error: every text file is then undeclared.
    """
    corpus_dir = Path(corpus_dir)
    if not corpus_dir.is_dir():
        raise ManifestError(f"{corpus_dir}: corpus folder not found (use --corpus DIR)")
    entries: list[Entry] = []
    path = corpus_dir / MANIFEST_NAME
    if path.exists():
        try:  # (a regular file of bounded size: a FIFO named manifest.toml must not block)
            raw = files.read_bytes(path, files.size_limit(files.DEFAULT_MAX_FILE_MB))
        except SourceError as exc:
            raise ManifestError(str(exc)) from None
        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ManifestError(f"{path}: not valid TOML ({exc})") from None
        tables = data.get("document", [])
        if not isinstance(tables, list):
            raise ManifestError(f"{path}: expected [[document]] tables")
        for i, table in enumerate(tables, 1):
            entries.append(_entry(table, f"{path.name} document {i}"))
    declared = {Path(e.file).as_posix() for e in entries}
    seen: set[str] = set()
    for e in entries:
        if e.file in seen:
            raise ManifestError(f"{path.name}: {e.file} is listed twice")
        seen.add(e.file)
    # Every name with a text suffix that is no directory: a FIFO, a device or a symlink
    # pointing outside the folder is listed too, so that reading it refuses it with a message.
    for f in sorted(corpus_dir.rglob("*")):
        rel = f.relative_to(corpus_dir).as_posix()
        if f.suffix in TEXT_SUFFIXES and not f.is_dir() and rel not in declared:
            entries.append(Entry(file=rel, declared=False))
    return entries
