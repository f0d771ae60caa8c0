"""Completing the scale benchmark's store without ingesting every copy: the rows of a copy
already ingested, cloned under the other copies' treaty ids (the pipeline is deterministic
and every copy of a file is the same text), and the check that a clone equals an ingest."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path


def clone_copies(store_file: Path, template: Sequence[dict], targets: Sequence[Sequence[dict]]
                 ) -> None:
    """Add the rows of each copy in `targets` to the store by cloning those of `template`
    (a copy already ingested: same files, other treaty ids)."""
    with closing(sqlite3.connect(store_file)) as db:
        for entries in targets:
            for src, dst in zip(template, entries):
                t0, t1, f0, f1 = src["treaty"], dst["treaty"], src["file"], dst["file"]
                parties = json.dumps(sorted(dst["parties"]))
                db.execute(
                    "INSERT INTO documents SELECT ?, ?, sha256, encoding, source_lines, "
                    "languages, warnings, json_set(meta, '$.parties', json(?)) "
                    "FROM documents WHERE file = ?", (f1, t1, parties, f0))
                db.execute(
                    "INSERT INTO treaties SELECT ?, ?, signed, place, title, languages, "
                    "json_array(?) FROM treaties WHERE id = ?", (t1, parties, f1, t0))
                db.execute(
                    "INSERT INTO units SELECT ? || substr(id, ?), ?, lang, eid, parent, top, "
                    "seq, depth, kind, number, label, num, title, topic, number_inferred, "
                    "refers_to, chapter, note, text, raw, ?, start_line, end_line, changes "
                    "FROM units WHERE treaty = ? AND file = ?",
                    (t1, len(t0) + 1, t1, f1, t0, f0))
                db.execute("INSERT INTO removed SELECT ?, start_line, end_line, raw, reason "
                           "FROM removed WHERE file = ?", (f1, f0))
                db.execute("INSERT INTO links SELECT ?, eid, lang_a, lang_b, eid_b, level, "
                           "score, method FROM links WHERE treaty = ?", (t1, t0))
        db.commit()


def store_rows(store_file: Path, treaty: str) -> dict[str, list]:
    """A treaty's rows, treaty id and file name blanked (to compare a clone with an ingest)."""
    with closing(sqlite3.connect(store_file)) as db:
        units = db.execute(
            "SELECT substr(id, length(treaty) + 1), lang, eid, parent, top, seq, depth, kind, "
            "number, label, num, title, topic, number_inferred, refers_to, chapter, note, "
            "text, raw, start_line, end_line, changes FROM units WHERE treaty = ? ORDER BY id",
            (treaty,)).fetchall()
        links = db.execute("SELECT eid, lang_a, lang_b, eid_b, level, score, method FROM links "
                           "WHERE treaty = ? ORDER BY 1, 2, 3, 4", (treaty,)).fetchall()
    return {"units": units, "links": links}


def check_clone(store_file: Path, per_copy: Sequence[Sequence[dict]], scratch: Path) -> str:
    """Clone copy 0 as copy 1 in a copy of the store and compare with copy 1's ingest."""
    shutil.copyfile(store_file, scratch)
    fake = [dict(e, treaty="check-" + e["treaty"], file="check-" + e["file"])
            for e in per_copy[1]]
    clone_copies(scratch, per_copy[0], [fake])
    same = all(store_rows(scratch, f["treaty"]) == store_rows(store_file, e["treaty"])
               for f, e in zip(fake, per_copy[1]))
    scratch.unlink()
    return "identical" if same else "DIFFERENT"


def indexed_paragraphs(store_file: Path) -> int:
    """Units the index holds: paragraphs, and articles without paragraphs."""
    with closing(sqlite3.connect(store_file)) as db:
        return db.execute(
            "SELECT COUNT(*) FROM units u WHERE depth = 1 OR (depth = 0 AND NOT EXISTS "
            "(SELECT 1 FROM units c WHERE c.treaty = u.treaty AND c.lang = u.lang "
            "AND c.top = u.eid AND c.depth = 1))").fetchone()[0]
