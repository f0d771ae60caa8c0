"""Dump what ingest makes, to check that a change (a speed-up, a refactoring) changes nothing.

    python scripts/dump_store.py /tmp/before          # on the old code
    python scripts/dump_store.py /tmp/after           # on the new code
    diff -r /tmp/before /tmp/after                     # no output: same result

Ingests the bundled corpus, ../shared/corpus-extra and ../shared/corpus-wild (when present) in one process, each
into a temporary store, and writes every store table (rows sorted, JSON lines) and the
analysed tokens of every index document (term, position, start, end) to OUT. The index
build itself is skipped; its input (the analysed tokens) is what is compared.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TABLES = ("documents", "treaties", "units", "removed", "links", "rates")


def dump(corpus: Path, name: str, out: Path) -> None:
    from indexer import index as index_stage
    from indexer import pipeline, store
    from indexer.index import index_docs
    from indexer.index.analysis import analyse

    build, index_stage.build_index = index_stage.build_index, lambda *a, **k: None
    try:
        with tempfile.TemporaryDirectory() as d:
            rep = pipeline.ingest(corpus, d, workers=1, force=True)
            with (out / f"{name}-reports.txt").open("w", encoding="utf-8") as f:
                for r in rep.documents:
                    print(r.file, r.treaty, r.languages, sorted(r.articles.items()),
                          r.warnings, r.error, file=f)
            with closing(store.connect(Path(d))) as db:
                for table in TABLES:
                    cols = [c[1] for c in db.execute(f"PRAGMA table_info({table})")]
                    rows = db.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall()
                    lines = sorted(json.dumps([r[c] for c in cols], ensure_ascii=False)
                                   for r in rows)
                    (out / f"{name}-{table}.txt").write_text("\n".join(lines) + "\n", "utf-8")
            with (out / f"{name}-analysis.txt").open("w", encoding="utf-8") as f:
                for doc in index_docs(Path(d)):
                    toks = [(t.term, t.pos, t.start, t.end) for t in analyse(doc.text, doc.lang)]
                    print(doc.id, json.dumps(toks, ensure_ascii=False), file=f)
    finally:
        index_stage.build_index = build


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", type=Path, help="Folder for the dump (created).")
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    shared = ROOT.parent / "shared"
    corpora = [("bundled", ROOT / "corpus"), ("extra", shared / "corpus-extra"),
               ("wild", shared / "corpus-wild")]
    for name, corpus in corpora:
        if corpus.is_dir():
            dump(corpus, name, args.out)
            print(f"{name}: {corpus} -> {args.out}")


if __name__ == "__main__":
    main()
