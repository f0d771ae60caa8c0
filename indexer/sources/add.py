"""Adding source files to a corpus: `treaty add FILE...`.

Each file is read as an ingest reads it (its format found from the content) and processed
once, so that what the manifest would leave to guessing (treaty id, parties, date and place,
title, languages) can be shown before anything changes. Then, unless it is a dry run, the file
is copied into the corpus folder (a file already there with other content is refused, never
overwritten) and a `[[document]]` entry with what was given is appended to the manifest.

With `ocr` (languages), a PDF without a text layer is read by OCR (`formats.ocr`) once, here:
its text goes into the corpus folder as `<name>.ocr.txt` (pages separated by form feeds), with
a manifest note naming the PDF, and the PDF itself stays out of the folder.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from indexer.errors import ManifestError, SourceError
from indexer.models import DocMeta
from indexer.sources import manifest

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
    """The decoded file, and its OCR text when it is a PDF without text and `ocr` is given."""
    from indexer.sources.formats.pdf import NO_TEXT
    from indexer.sources.read import decode, read_file

    try:
        return read_file(source), None
    except SourceError as exc:
        if not ocr or not str(exc).endswith(NO_TEXT):
            raise
    from indexer.sources.formats.ocr import ocr_pdf

    text = ocr_pdf(source.read_bytes(), str(source), ocr)
    return decode(text.encode("utf-8"), str(source)), text


def _plan_one(source: Path, corpus_dir: Path, given: dict, known: set[str],
              ocr: list[str] | None = None, force: bool = False) -> Planned:
    from indexer.pipeline.document import count_kind, process, structure_missing

    decoded, text = _read(source, ocr)
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
                   copy, text, doc.warnings)


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


def apply(planned: list[Planned], corpus_dir: Path) -> None:
    """Copy the planned files into the corpus folder and append their manifest entries."""
    corpus_dir = Path(corpus_dir)
    for item in planned:
        if item.text is not None:
            (corpus_dir / item.file).write_text(item.text, encoding="utf-8")
        elif item.copy:
            shutil.copyfile(item.source, corpus_dir / item.file)
    path = corpus_dir / manifest.MANIFEST_NAME
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if text and not text.endswith("\n"):
        text += "\n"
    text += "".join(entry_text(item) for item in planned)
    scratch = path.with_name(path.name + ".new")
    scratch.write_text(text, encoding="utf-8")
    os.replace(scratch, path)
    manifest.load(corpus_dir)  # (the new manifest reads back)


def add(files: list[Path], corpus_dir: Path, given: dict, dry_run: bool = False,
        ocr: list[str] | None = None, force: bool = False) -> list[Planned]:
    """Plan adding `files` and, unless `dry_run`, do it (`force`: see `plan`)."""
    planned = plan(files, corpus_dir, given, ocr, force)
    if not dry_run:
        apply(planned, corpus_dir)
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
