"""Consistency check of gold files against their sources (stdlib only).

For every gold file given: each article's "first" is its start line, its "last" is the
end of its end line, the start line is an article heading with the article's label, the
end line is not blank, articles and protocol items are in order and do not overlap, and
"number" is the integer part of the label. It checks the bookkeeping of the gold, not
the reading: a wrong boundary that is consistently written passes.

Usage:
    python scripts/gold/check_markdown.py tests/cases/segments/wild/en/*.json
    python scripts/gold/check_markdown.py --shared ../shared tests/cases/segments/extra/en/*.json
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path


def read_lines(path: Path) -> list[str]:
    """The file's lines as the project reads them (GOLD-SPEC: CR/CRLF -> LF, split on LF)."""
    return path.read_bytes().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n").split("\n")


def article_problems(lines: list[str], art: dict, after: int) -> list[str]:
    """What is inconsistent in one article's entry."""
    label, start, end = art["label"], art["start"], art["end"]
    if not after < start <= end <= len(lines):
        return [f"Article {label}: lines {start}-{end} out of order or range"]
    out = []
    head = lines[start - 1].strip()
    if not re.match(r"^#*\s*(?:Article|ARTICLE)\s+" + re.escape(label) + r"\b", head):
        out.append(f"Article {label}: line {start} is not its heading: {head[:60]!r}")
    if head != art["first"]:
        out.append(f"Article {label}: 'first' differs from line {start}")
    tail = lines[end - 1].strip()
    if not tail or tail[-60:].strip() != art["last"]:
        out.append(f"Article {label}: 'last' differs from line {end} (or it is blank)")
    m = re.match(r"\d+", label)
    if m and int(m.group()) != art["number"]:
        out.append(f"Article {label}: number {art['number']} is not the label's")
    return out


def problems(gold: dict, shared: Path) -> list[str]:
    """Every inconsistency of one gold file."""
    lines = read_lines(shared / f"corpus-{gold['corpus']}" / gold["file"])
    out = []
    for version in gold["versions"]:
        last = 0
        for art in version["articles"]:
            out += article_problems(lines, art, last)
            last = max(last, art["end"])
        for item in version.get("protocol_items", []):
            if not last < item["start"] <= item["end"]:
                out.append(f"protocol item {item['label']}: lines out of order")
            last = item["end"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("Usage:")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gold", type=Path, nargs="+")
    ap.add_argument("--shared", type=Path, default=Path("/work/shared"),
                    help="folder holding corpus-wild/ and corpus-extra/ (default /work/shared)")
    args = ap.parse_args(argv)
    bad = 0
    for path in args.gold:
        try:
            found = problems(json.loads(path.read_text(encoding="utf-8")), args.shared)
        except (OSError, ValueError, KeyError) as err:
            found = [f"unreadable: {err}"]
        for line in found:
            print(f"{path}: {line}")
        bad += bool(found)
    print(f"{len(args.gold) - bad} of {len(args.gold)} gold files consistent")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
