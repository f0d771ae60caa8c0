"""Adding source files to a corpus: `treaty add FILE...`.

Each file is read as an ingest reads it (its format found from the content) and processed
once, so that what the manifest would leave to guessing (treaty id, parties, date and place,
title, languages) can be shown before anything changes. Then, unless it is a dry run, the file
is copied into the corpus folder (a file already there with other content is refused, never
overwritten) and a `[[document]]` entry with what was given is appended to the manifest.

With `ocr` (languages), a PDF without a text layer is read by OCR (`formats.ocr`) once, here:
its text goes into the corpus folder as `<name>.ocr.txt` (pages separated by form feeds), with
tesseract's words, boxes and confidences beside it as `<name>.ocr.tsv` (no text suffix: no
ingest reads it as a source), a manifest note naming the PDF, and the PDF itself stays out of
the folder.

Nothing is ever left half written: one add at a time writes into a corpus folder (its lock,
`datadir.locked`; the manifest is read again under it, so a concurrent add's entries are
kept), every file and the manifest are written under a temporary name of their own
(``.treaty-add.*.tmp``, which no ingest reads), synced and renamed into place when whole, and
when the manifest cannot be written the files just placed are removed again. A killed add
leaves at most a temporary file, which the next add removes; a full disk or a read-only
folder is one line, and the corpus folder stays as it was.
"""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from indexer.datadir import sync_folder
from indexer.errors import ManifestError, SourceError, TreatyError
from indexer.models import DocMeta
from indexer.sources import manifest
from indexer.sources.read import words_file

_SHOWN = ("treaty", "parties", "signed", "place", "title", "languages")


@dataclass
class Planned:
    """One file to add: where it goes, what was given and what would be guessed."""

    source: Path
    file: str  # its name in the corpus folder
    format: str
    given: dict = field(default_factory=dict)
    guessed: dict = field(default_factory=dict)
    articles: dict = field(default_factory=dict)  # per language
    copy: bool = True  # False: already in the corpus folder
    text: str | None = None  # the OCR text written as `file` (instead of a copy)
    words: str | None = None  # tesseract's words and confidences (TSV), written beside `file`
    warnings: tuple[str, ...] = ()  # what a person must look at (`Document.warnings`)


def given_fields(treaty: str | None, parties: str | None, signed: str | None) -> dict:
    """The manifest fields given on the command line, checked as the manifest checks them."""
    table: dict = {"file": "-"}
    if treaty:
        table["treaty"] = treaty.strip()
    if parties:
        table["parties"] = [p.strip().upper() for p in parties.split(",") if p.strip()]
    if signed:
        table["signed"] = signed.strip()
    manifest.parse_entry(table, "the options")
    del table["file"]
    return table


def _name_in(corpus_dir: Path, source: Path) -> tuple[str, bool]:
    """The file's name relative to the corpus folder, and whether it must be copied there."""
    real, root = source.resolve(), corpus_dir.resolve()
    if real.is_relative_to(root):
        return real.relative_to(root).as_posix(), False
    target = corpus_dir / source.name
    if target.exists() and target.read_bytes() != source.read_bytes():
        raise SourceError(f"{target}: another file of that name is in the corpus folder; "
                          "rename the file you add")
    return source.name, not target.exists()


def _read(source: Path, ocr: list[str] | None):
    """The decoded file, and its OCR reading when it is a PDF without text and `ocr` is given."""
    from indexer.sources.formats.pdf import NO_TEXT
    from indexer.sources.read import decode, read_file

    try:
        return read_file(source), None
    except SourceError as exc:
        if not ocr or not str(exc).endswith(NO_TEXT):
            raise
    from indexer.sources.formats.ocr import read_pdf

    reading = read_pdf(source.read_bytes(), str(source), ocr)
    return decode(reading.text.encode("utf-8"), str(source)), reading


def _plan_one(source: Path, corpus_dir: Path, given: dict, known: set[str],
              ocr: list[str] | None = None, force: bool = False) -> Planned:
    from indexer.pipeline.document import count_kind, process, structure_missing

    decoded, reading = _read(source, ocr)
    text = None if reading is None else reading.text
    if text is None:
        name, copy = _name_in(corpus_dir, source)
    else:
        name, copy = source.with_suffix(".ocr.txt").name, False
        if (corpus_dir / name).exists():
            raise SourceError(f"{corpus_dir / name}: already in the corpus folder; remove it "
                              "to read the PDF again")
    if name in known:
        raise ManifestError(f"{name}: already in the corpus manifest")
    meta = DocMeta(file=name, treaty=given.get("treaty", ""),
                   parties=tuple(sorted(given.get("parties", ()))), signed=given.get("signed"))
    doc, _removed = process(decoded, meta, topics=False)
    fields = dict(given)
    missing = structure_missing(doc)
    if missing and not force:
        raise SourceError(f"{source}: {missing}; not added (--force adds it all the same)")
    if missing:
        fields["keep"] = True
    guessed = {k: getattr(doc.meta, k) for k in _SHOWN if k in doc.meta.guessed}
    if text is not None:
        fields["note"] = f"OCR by tesseract ({'+'.join(ocr)}) of {source.name}"
    return Planned(source, name, "pdf, OCR" if text is not None else decoded.format, fields,
                   guessed, {v.lang: count_kind(v.units, "article") for v in doc.versions},
                   copy, text, None if reading is None else reading.tsv(), doc.warnings)


def plan(files: list[Path], corpus_dir: Path, given: dict, ocr: list[str] | None = None,
         force: bool = False) -> list[Planned]:
    """What adding `files` to the corpus in `corpus_dir` would do (nothing is changed);
    `ocr`: the languages to read a PDF without a text layer in. A file without treaty
    structure is refused (SourceError) unless `force`, which marks its entry `keep`."""
    corpus_dir = Path(corpus_dir)
    known = {e.file for e in manifest.load(corpus_dir) if e.declared}
    planned = []
    for source in files:
        item = _plan_one(Path(source), corpus_dir, given, known, ocr, force)
        known.add(item.file)
        planned.append(item)
    return planned


def _toml(value) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)  # (a JSON string is a TOML basic string)


def entry_text(item: Planned) -> str:
    """The manifest entry of `item`: its file and the given fields."""
    lines = ["", "[[document]]", f"file = {_toml(item.file)}"]
    lines += [f"{k} = {_toml(v)}" for k, v in item.given.items()]
    return "\n".join(lines) + "\n"


#: The prefix of the temporary files an add writes in the corpus folder.
TMP_PREFIX = ".treaty-add."


class WriteError(TreatyError):
    """The corpus folder cannot be written (full disk, read-only): nothing was changed."""


def _write_error(path: Path, exc: OSError) -> WriteError:
    reason = exc.strerror or str(exc)
    return WriteError(f"{path}: cannot write ({reason}); free space or make the corpus folder "
                      "writable, then add again; the corpus folder is unchanged")


def _write_whole(target: Path, write: Callable[[int], None]) -> None:
    """Write `target` through a temporary file of its own beside it (`write(fd)` fills it),
    synced and renamed into place only when whole; WriteError (nothing left) otherwise."""
    try:
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=TMP_PREFIX, suffix=".tmp")
    except OSError as exc:
        raise _write_error(target, exc) from None
    try:
        try:
            write(fd)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(name, target)
    except OSError as exc:
        raise _write_error(target, exc) from None
    finally:
        Path(name).unlink(missing_ok=True)


def _bytes_writer(data: bytes) -> Callable[[int], None]:
    def write(fd: int) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]

    return write


def _copy_writer(source: Path) -> Callable[[int], None]:
    def write(fd: int) -> None:
        with source.open("rb") as src:
            while chunk := src.read(1 << 20):
                _bytes_writer(chunk)(fd)

    return write


def _stale_temporaries(corpus_dir: Path) -> None:
    """Remove what a killed add left (under the lock: no add is running)."""
    for path in corpus_dir.glob(f"{TMP_PREFIX}*.tmp"):
        path.unlink(missing_ok=True)


def _recheck(planned: list[Planned], corpus_dir: Path) -> None:
    """Under the lock: what another add did since the plan (an entry or a file of the same
    name) refuses this one, before anything is written."""
    known = {e.file for e in manifest.load(corpus_dir) if e.declared}
    for item in planned:
        if item.file in known:
            raise ManifestError(f"{item.file}: already in the corpus manifest")
        target = corpus_dir / item.file
        if item.text is not None and target.exists():
            raise SourceError(f"{target}: already in the corpus folder; remove it to read the "
                              "PDF again")
        if item.copy and target.exists() and target.read_bytes() != item.source.read_bytes():
            raise SourceError(f"{target}: another file of that name is in the corpus folder; "
                              "rename the file you add")


def _new_manifest(corpus_dir: Path, planned: list[Planned]) -> str:
    """The manifest text with the entries of `planned` appended, checked to read back."""
    path = corpus_dir / manifest.MANIFEST_NAME
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if text and not text.endswith("\n"):
        text += "\n"
    text += "".join(entry_text(item) for item in planned)
    for i, table in enumerate(tomllib.loads(text).get("document", []), 1):
        manifest.parse_entry(table, f"{manifest.MANIFEST_NAME} document {i}")
    return text


def apply(planned: list[Planned], corpus_dir: Path, *, wait: bool = True,
          notify: Callable[[str], None] | None = None) -> None:
    """Copy the planned files into the corpus folder and append their manifest entries:
    under the corpus folder's lock, each through a temporary file renamed into place."""
    from indexer.datadir import locked

    corpus_dir = Path(corpus_dir)
    try:
        with locked(corpus_dir, "another treaty add into", wait=wait, notify=notify):
            _apply_locked(planned, corpus_dir)
    except OSError as exc:  # (the lock file, the manifest read back: the folder itself)
        raise _write_error(Path(exc.filename or corpus_dir), exc) from None


def _apply_locked(planned: list[Planned], corpus_dir: Path) -> None:
    _stale_temporaries(corpus_dir)
    _recheck(planned, corpus_dir)
    text = _new_manifest(corpus_dir, planned)
    placed: list[Path] = []
    try:
        for item in planned:
            target = corpus_dir / item.file
            if item.words is not None:
                placed.append(words_file(target))
                _write_whole(placed[-1], _bytes_writer(item.words.encode("utf-8")))
            if item.text is not None:
                _write_whole(target, _bytes_writer(item.text.encode("utf-8")))
            elif item.copy and not target.exists():
                _write_whole(target, _copy_writer(item.source))
            else:
                continue
            placed.append(target)
        _write_whole(corpus_dir / manifest.MANIFEST_NAME, _bytes_writer(text.encode("utf-8")))
    except BaseException:
        for target in placed:  # (no file without its entry)
            target.unlink(missing_ok=True)
        raise
    sync_folder(corpus_dir)


def add(files: list[Path], corpus_dir: Path, given: dict, dry_run: bool = False,
        ocr: list[str] | None = None, notify: Callable[[str], None] | None = None,
        force: bool = False) -> list[Planned]:
    """Plan adding `files` and, unless `dry_run`, do it (`notify`: told when another add into
    the folder is running and this one waits for it; `force`: see `plan`)."""
    planned = plan(files, corpus_dir, given, ocr, force)
    if not dry_run:
        apply(planned, corpus_dir, notify=notify)
    return planned


def describe(item: Planned) -> list[str]:
    """Lines saying what adding `item` gives and guesses."""
    def shown(value) -> str:
        return ",".join(value) if isinstance(value, (list, tuple)) else str(value)

    counts = ", ".join(f"{n} {lang}" for lang, n in item.articles.items()) or "none"
    where = ("written as" if item.text is not None else "copied as" if item.copy
             else "already in the corpus as")
    out = [f"{item.source}: {item.format}, {where} {item.file}; articles: {counts}"]
    given = "; ".join(f"{k}={shown(v)}" for k, v in item.given.items()
                      if k not in ("note", "keep"))
    out.append(f"  given: {given or 'nothing'}")
    if "note" in item.given:
        out.append(f"  note: {item.given['note']}")
    if item.given.get("keep"):
        out.append("  kept without treaty structure (--force)")
    if item.guessed:
        out.append("  guessed: " + "; ".join(f"{k}={shown(v) or '?'}"
                                             for k, v in item.guessed.items()))
    out.extend(f"  warning: {w}" for w in item.warnings)
    return out
