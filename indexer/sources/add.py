"""Adding source files to a corpus: `treaty add FILE...`.

Each file is read as an ingest reads it (its format found from the content) and processed
once, so that what the manifest would leave to guessing (treaty id, parties, date and place,
title, languages) can be shown before anything changes. Then, unless it is a dry run, the file
is copied into the corpus folder (a file already there with other content is refused, never
overwritten) and a `[[document]]` entry with what was given is appended to the manifest.
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


def _plan_one(source: Path, corpus_dir: Path, given: dict, known: set[str]) -> Planned:
    from indexer.pipeline.document import count_kind, process
    from indexer.sources.read import read_file

    name, copy = _name_in(corpus_dir, source)
    if name in known:
        raise ManifestError(f"{name}: already in the corpus manifest")
    decoded = read_file(source)
    meta = DocMeta(file=name, treaty=given.get("treaty", ""),
                   parties=tuple(sorted(given.get("parties", ()))), signed=given.get("signed"))
    doc, _removed = process(decoded, meta, topics=False)
    guessed = {k: getattr(doc.meta, k) for k in _SHOWN if k in doc.meta.guessed}
    return Planned(source, name, decoded.format, given, guessed,
                   {v.lang: count_kind(v.units, "article") for v in doc.versions}, copy)


def plan(files: list[Path], corpus_dir: Path, given: dict) -> list[Planned]:
    """What adding `files` to the corpus in `corpus_dir` would do (nothing is changed)."""
    corpus_dir = Path(corpus_dir)
    known = {e.file for e in manifest.load(corpus_dir) if e.declared}
    planned = []
    for source in files:
        item = _plan_one(Path(source), corpus_dir, given, known)
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
        if item.copy:
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


def add(files: list[Path], corpus_dir: Path, given: dict, dry_run: bool = False
        ) -> list[Planned]:
    """Plan adding `files` and, unless `dry_run`, do it."""
    planned = plan(files, corpus_dir, given)
    if not dry_run:
        apply(planned, corpus_dir)
    return planned


def describe(item: Planned) -> list[str]:
    """Lines saying what adding `item` gives and guesses."""
    def shown(value) -> str:
        return ",".join(value) if isinstance(value, (list, tuple)) else str(value)

    counts = ", ".join(f"{n} {lang}" for lang, n in item.articles.items()) or "none"
    where = "copied as" if item.copy else "already in the corpus as"
    out = [f"{item.source}: {item.format}, {where} {item.file}; articles: {counts}"]
    given = "; ".join(f"{k}={shown(v)}" for k, v in item.given.items()) or "nothing"
    out.append(f"  given: {given}")
    if item.guessed:
        out.append("  guessed: " + "; ".join(f"{k}={shown(v) or '?'}"
                                             for k, v in item.guessed.items()))
    return out
