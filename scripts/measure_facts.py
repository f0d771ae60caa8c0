"""How the treaty facts (issue 29) hold up on real texts: for each corpus (bundled,
../shared/corpus-extra, corpus-wild), how many treaties have each fact, and whether each
fact read from a text points at the source line that says it (the cited line of the file,
or the two after it when the sentence wraps, holds the first words of the fact's quote).

    python scripts/measure_facts.py                        # ingests the three corpora
    python scripts/measure_facts.py --data wild=/tmp/w     # a store already made for one
    python scripts/measure_facts.py --only wild --list     # every fact, to read by hand

A fact from the manifest has no line; it is counted as such. The lines are those of the
text the ingest decodes (an HTML page's text); a fact of a PDF or a Word file is counted as
not checked. What a fact says (is the
"effective" sentence about when the treaty takes effect?) is not checked here: `--list`
prints every fact with its words for a reader to judge.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared"
CORPORA = {"bundled": ROOT / "corpus", "extra": SHARED / "corpus-extra",
           "wild": SHARED / "corpus-wild"}


def _words(text: str) -> str:
    """Letters and digits only, lower case: a line and a quote compared across the
    repairs normalisation makes (hyphens, quotes, blanks)."""
    return re.sub(r"\W+", "", text.lower())


def line_holds(lines: list[str], line: int, quote: str) -> bool:
    """Whether source line `line` (1-based), with the two after it, holds the start of
    `quote` (its first words after a paragraph number)."""
    head = _words(re.sub(r"^\W*\d{1,2}\s*[.)]\s*", "", quote))[:24]
    if not head or not 1 <= line <= len(lines):
        return False
    return head in _words(" ".join(lines[line - 1:line + 2]))


def measure_store(data: Path, corpus: Path, listing: bool = False) -> dict:
    """The counts (module doc) for the store `data` made from the folder `corpus`."""
    from indexer.pipeline.run import source_lines
    from search.corpus import Corpus, facts

    out = {"treaties": 0, "with_facts": 0, "facts": 0, "manifest": 0, "text": 0,
           "line_right": 0, "not_checked": 0, "line_wrong": [], "per_fact": {}}
    files: dict[str, list[str] | None] = {}
    with Corpus(data) as c:
        for t in c.treaties():
            found = facts(c, t.id)
            out["treaties"] += 1
            out["with_facts"] += bool(found)
            for f in found:
                out["facts"] += 1
                out["per_fact"][f["name"]] = out["per_fact"].get(f["name"], 0) + 1
                if listing:
                    where = f"{f.get('file')}:{f.get('line')}" if f["source"] == "text" \
                        else "manifest"
                    print(f"{t.id:<20} {f['name']:<16} {where:<28} {f['value'][:90]}")
                if f["source"] != "text":
                    out["manifest"] += 1
                    continue
                out["text"] += 1
                if f["file"] not in files:
                    files[f["file"]] = source_lines(corpus, 2**31, f["file"])
                if files[f["file"]] is None:
                    out["not_checked"] += 1
                    continue
                if f.get("line") and line_holds(files[f["file"]], f["line"],
                                                f.get("quote") or f["value"]):
                    out["line_right"] += 1
                else:
                    out["line_wrong"].append(f"{t.id} {f['name']} {f['file']}:{f.get('line')}")
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", action="append", default=[], metavar="NAME=DIR",
                   help="use the store in DIR for corpus NAME instead of ingesting it")
    p.add_argument("--only", action="append", default=[], metavar="NAME")
    p.add_argument("--list", action="store_true", help="print every fact")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    given = dict(x.split("=", 1) for x in args.data)
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or list(CORPORA):
            corpus = CORPORA[name]
            if name in given:
                data = Path(given[name])
            elif corpus.is_dir():
                from indexer.pipeline import ingest

                data = Path(tmp) / name
                ingest(corpus, data, workers=2)
            else:
                continue
            result[name] = measure_store(data, corpus, args.list)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    for name, r in result.items():
        print(f"{name}: {r['with_facts']}/{r['treaties']} treaties with facts; {r['facts']} "
              f"facts, {r['manifest']} from the manifest, {r['text']} from the text of which "
              f"{r['line_right']} point at a line that says them, "
              f"{len(r['line_wrong'])} do not, {r['not_checked']} not checked (PDF, Word)")
        print("    " + ", ".join(f"{k} {v}" for k, v in sorted(r["per_fact"].items())))
        for w in r["line_wrong"]:
            print(f"    line wrong: {w}")


if __name__ == "__main__":
    sys.exit(main())
