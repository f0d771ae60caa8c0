"""How many articles of real treaties the segmenter gets right, against the hand-checked gold
in tests/cases/segments/ (built by an independent parse, see scripts/gold/).

    python scripts/measure_segments.py                    # tune and measure splits, per corpus
    python scripts/measure_segments.py --split tune -v    # and every wrong article, with why
    python scripts/measure_segments.py --file sv/kz-se-1997.txt -v

An article is right when the project has an article of the same label in the same language
version of the same file that starts on the gold's start line, ends on its end line and has
the gold's number of paragraphs; a protocol item, when the project has one starting on the
gold's start line, ending on its end line and referring to the same article. The gold files are copied into a temporary corpus (one per
gold corpus) and ingested there, so the figures are those of a real `treaty ingest`.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sqlite3
import sys
import tempfile
from collections import Counter
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GOLD = ROOT / "tests" / "cases" / "segments"
SHARED = ROOT.parent / "shared"
CORPORA = {"wild": SHARED / "corpus-wild", "extra": SHARED / "corpus-extra"}


@dataclass(frozen=True)
class Verdict:
    corpus: str
    file: str
    lang: str
    label: str
    split: str
    why: str  # "" when right, else what differs
    kind: str = "article"  # or "protocol" (a protocol item)
    classes: tuple[str, ...] = ()  # the failure classes of issue 15 the article is exposed to

    @property
    def right(self) -> bool:
        return not self.why


def load_gold(root: Path = GOLD, *, split: str | None = None, file: str | None = None) -> list[dict]:
    """The gold files under `root` (optionally one split or one source file)."""
    out = []
    for path in sorted(root.rglob("*.json")):
        g = json.loads(path.read_text(encoding="utf-8"))
        if (split is None or g["split"] == split) and (file is None or g["file"] == file):
            out.append(g)
    return out


def ingest_gold(gold: list[dict], tmp: Path) -> dict[str, Path]:
    """Ingest the source files of `gold` (one temporary corpus per gold corpus); the store of
    each corpus by name."""
    from indexer import pipeline
    from indexer.store import store_path

    stores = {}
    for corpus in sorted({g["corpus"] for g in gold}):
        src, dst = CORPORA[corpus], tmp / corpus / "corpus"
        for g in gold:
            if g["corpus"] == corpus:
                (dst / g["file"]).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src / g["file"], dst / g["file"])
        pipeline.ingest(dst, tmp / corpus / "data", workers=1)
        stores[corpus] = store_path(tmp / corpus / "data")
    return stores


def label_key(label: str | None) -> str:
    """"26-A", "26 A", "26a" -> "26A"; "XV" -> "15"; "5 bis" -> "5BIS": labels compared as
    printed, whatever the spacing, dash or case."""
    from indexer.segment.numerals import parse_label

    s = re.sub(r"[\s\-–.]", "", (label or "").upper())
    m = re.fullmatch(r"(\d+)([A-Z]*)", s)
    if m:
        return str(int(m.group(1))) + m.group(2)
    n = parse_label(s)
    return str(n) if n is not None else s


def score(gold: list[dict], stores: dict[str, Path]) -> list[Verdict]:
    """One verdict per gold article."""
    out = []
    for g in gold:
        with closing(sqlite3.connect(stores[g["corpus"]])) as db:
            for v in g["versions"]:
                found = _articles(db, g["file"], v["lang"])
                source = _source_lines(g)
                for k, a in enumerate(v["articles"]):
                    why = _why(a, found.get(label_key(a["label"])))
                    out.append(Verdict(g["corpus"], g["file"], v["lang"], a["label"], g["split"], why,
                                       classes=_classes(v["articles"], k, source)))
                items = _items(db, g["file"], v["lang"])
                for a in v.get("protocol_items") or []:
                    why = _item_why(a, items.get(a["start"]))
                    out.append(Verdict(g["corpus"], g["file"], v["lang"], a["label"], g["split"], why,
                                       "protocol"))
    return out


# Chapter and section headings, for telling which articles border one (the measurement's own
# pattern, not the project's).
_CHAPTER_RE = re.compile(r"(?i)^\s*#*\s*(?:c\s?h\s?a\s?p\s?t\s?e\s?r|kapitel|avsnitt|cap[ií]tulo|section)\b")


def _source_lines(g: dict) -> list[str]:
    text = (CORPORA[g["corpus"]] / g["file"]).read_text(encoding="utf-8")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _classes(articles: list[dict], k: int, source: list[str]) -> tuple[str, ...]:
    """The classes of issue 15 article `k` is exposed to, read off the gold and the source:
    an inserted article (suffix), a chapter heading right before or after it, a title on a
    line of its own, a Markdown page, the last article of its version."""
    a = articles[k]
    out = []
    if re.search(r"[A-Za-z]", label_key(a["label"])):
        out.append("1 suffix label")
    before = source[(articles[k - 1]["end"] if k else max(0, a["start"] - 6)):a["start"] - 1]
    after = source[a["end"]:(articles[k + 1]["start"] - 1 if k + 1 < len(articles) else a["end"] + 6)]
    if any(_CHAPTER_RE.match(t) for t in before + after):
        out.append("4 next to a chapter heading")
    heading = source[a["start"] - 1]
    if a.get("title") and a["title"].lower() not in heading.lower():
        out.append("3 title on its own line")
    if heading.lstrip().startswith("#"):
        out.append("2 Markdown heading")
    if k + 1 == len(articles):
        out.append("5 last article")
    return tuple(out)


def _items(db: sqlite3.Connection, file: str, lang: str) -> dict[int, tuple[int, int | None]]:
    """(end, refers_to) of the project's protocol items of one version, by start line."""
    rows = db.execute("SELECT start_line, end_line, refers_to FROM units WHERE file = ? AND lang = ?"
                      " AND kind = 'protocol' AND depth = 0 AND number IS NOT NULL", (file, lang))
    return {start: (end, refers) for start, end, refers in rows}


def _item_why(gold: dict, found: tuple[int, int | None] | None) -> str:
    if found is None:
        return "missing"
    why = []
    if found[0] != gold["end"]:
        why.append(f"end {found[0]} not {gold['end']}")
    if found[1] != gold["refers_to"]:
        why.append(f"refers_to {found[1]} not {gold['refers_to']}")
    return "; ".join(why)


def _articles(db: sqlite3.Connection, file: str, lang: str) -> dict[str, tuple[int, int, int]]:
    """(start, end, paragraphs) of the project's articles of one version, by label key (the
    first article of a label wins: a second copy of the treaty is not the one measured)."""
    rows = db.execute(
        "SELECT u.label, u.number, u.start_line, u.end_line,"
        " (SELECT count(*) FROM units p WHERE p.treaty = u.treaty AND p.lang = u.lang"
        "  AND p.parent = u.eid AND p.kind = 'paragraph')"
        " FROM units u WHERE u.file = ? AND u.lang = ? AND u.kind = 'article' AND u.depth = 0"
        " ORDER BY u.seq", (file, lang)).fetchall()
    out: dict[str, tuple[int, int, int]] = {}
    for label, number, start, end, paras in rows:
        out.setdefault(label_key(label) if label else str(number), (start, end, max(paras, 1)))
    return out


def _why(gold: dict, found: tuple[int, int, int] | None) -> str:
    if found is None:
        return "missing"
    start, end, paras = found
    why = []
    if start != gold["start"]:
        why.append(f"start {start} not {gold['start']}")
    if end != gold["end"]:
        why.append(f"end {end} not {gold['end']}")
    if paras != gold["paragraphs"]:
        why.append(f"paragraphs {paras} not {gold['paragraphs']}")
    return "; ".join(why)


def report(verdicts: list[Verdict], *, verbose: bool) -> str:
    lines = []
    for kind in ("article", "protocol"):
        of_kind = [v for v in verdicts if v.kind == kind]
        if not of_kind:
            continue
        lines.append(f"{kind}s right (start, end, paragraphs)" if kind == "article"
                     else "protocol items right (start, end, refers_to)")
        for (corpus, split), group in _groups(of_kind):
            right = sum(v.right for v in group)
            lines.append(f"  {corpus:6} {split:8} {right:5} / {len(group):<5} {100 * right / len(group):6.2f}%")
        kinds = Counter(re.sub(r"\s\d+.*", "", w) for v in of_kind for w in v.why.split("; ") if w)
        lines.append("  wrong by kind: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    lines.append("articles right by class (all corpora and splits)")
    for name in sorted({c for v in verdicts for c in v.classes}):
        group = [v for v in verdicts if name in v.classes]
        lines.append(f"  {name:28} {sum(v.right for v in group):5} / {len(group)}")
    if verbose:
        lines += [f"  {v.corpus}/{v.file} {v.lang} {'Art.' if v.kind == 'article' else 'Prot.'} {v.label}: {v.why}"
                  for v in verdicts if not v.right]
    return "\n".join(lines)


def _groups(verdicts: list[Verdict]) -> list[tuple[tuple[str, str], list[Verdict]]]:
    keys = sorted({(v.corpus, v.split) for v in verdicts}) + sorted({(v.corpus, "all") for v in verdicts})
    return [(k, [v for v in verdicts if v.corpus == k[0] and k[1] in (v.split, "all")]) for k in keys]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--split", choices=["tune", "measure"])
    p.add_argument("--file", help="one source file, as named in the gold (e.g. sv/kz-se-1997.txt)")
    p.add_argument("-v", "--verbose", action="store_true", help="list every wrong article")
    args = p.parse_args()
    gold = load_gold(split=args.split, file=args.file)
    if not gold:
        sys.exit("no gold files match")
    with tempfile.TemporaryDirectory() as d:
        verdicts = score(gold, ingest_gold(gold, Path(d)))
    print(report(verdicts, verbose=args.verbose))


if __name__ == "__main__":
    main()
