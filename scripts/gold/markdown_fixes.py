"""Hand fixes and reading notes for the Markdown gold (scripts/gold/markdown-fixes.json).

The file maps "<corpus>/<subdir>/<name>.txt" to
    {"notes": ["what was read and decided", ...],
     "fixes": [{"article" | "protocol_item": LABEL, "was": {...}, "set": {...}, "note": "..."},
               {"insert_protocol_item": {...}, "after": LABEL, "note": "..."}]}
A fix names the values it expects in the draft ("was"); if the draft no longer has them
the fix is refused, so a changed parse never receives a stale correction silently.
Every fix's note goes into the gold file's "notes" as "HAND FIX: ..."; the draft's own
"script flag:" notes are kept, marked as checked (the entry exists because the file was read).
"""
from __future__ import annotations

import json
from pathlib import Path


def load_fixes(path: Path) -> dict:
    """The fixes file as a dict (file key -> {"notes", "fixes"})."""
    return json.loads(path.read_text(encoding="utf-8"))


def apply_fixes(data: dict, entry: dict | None) -> dict:
    """The draft with the entry's reading notes added and its hand fixes applied."""
    if not entry:
        return data
    version = data["versions"][0]
    notes = list(entry.get("notes", []))
    for fix in entry.get("fixes", []):
        if "insert_protocol_item" in fix:
            insert_item(version, fix)
        else:
            set_fields(version, fix, data["file"])
        notes.append("HAND FIX: " + fix["note"])
    flags = [n.replace("script flag:", "script flag (checked by reading):", 1)
             for n in data["notes"][1:]]
    data["notes"] = data["notes"][:1] + notes + flags
    return data


def find(rows: list[dict], label: str, what: str, file: str) -> dict:
    """The one row with this label."""
    hits = [r for r in rows if r["label"] == label]
    if len(hits) != 1:
        raise ValueError(f"{file}: {what} {label!r} found {len(hits)} times")
    return hits[0]


def set_fields(version: dict, fix: dict, file: str) -> None:
    """Set fields of one article or protocol item after checking the expected values."""
    if "article" in fix:
        row = find(version["articles"], fix["article"], "article", file)
    else:
        row = find(version.get("protocol_items", []), fix["protocol_item"], "protocol item", file)
    for key, value in fix.get("was", {}).items():
        if row.get(key) != value:
            raise ValueError(f"{file}: fix expects {key}={value!r}, draft has {row.get(key)!r}")
    row.update(fix["set"])


def insert_item(version: dict, fix: dict) -> None:
    """Insert a protocol item after the item labelled fix["after"]."""
    items = version.setdefault("protocol_items", [])
    at = next(k for k, r in enumerate(items) if r["label"] == fix["after"]) + 1
    items.insert(at, dict(fix["insert_protocol_item"]))
