"""Consistency check of segmentation gold files against their source texts.

    python scripts/gold/check_gold.py [GOLD.json ...]   # default: all of tests/cases/segments

Checks, per file: the required keys, that the source exists, that articles are in order and do
not overlap, that start/end lines are non-blank, that 'first'/'last' match the source lines,
that labels carry their number, and that protocol items lie after the articles of their version.
Prints one line per problem and exits non-zero if there is any.  Imports nothing from the project.
"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CORPORA = {"wild": "corpus-wild", "extra": "corpus-extra"}


def source_lines(gold):
    shared = os.environ.get("TREATY_SHARED", os.path.join(os.path.dirname(REPO), "shared"))
    path = os.path.join(shared, CORPORA[gold["corpus"]], gold["file"])
    with open(path, "rb") as handle:
        text = handle.read().decode("utf-8")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def check_article(lines, art, previous_end):
    problems = []
    start, end = art["start"], art["end"]
    if not (previous_end < start <= end <= len(lines)):
        problems.append(f"lines {start}-{end} out of order or range (previous end {previous_end})")
        return problems
    if lines[start - 1].strip() != art["first"]:
        problems.append(f"'first' does not match line {start}")
    if not lines[end - 1].strip() or not lines[end - 1].strip().endswith(art["last"]):
        problems.append(f"'last' does not match line {end}")
    digits = re.match(r"\d+", art["label"])
    if digits and int(digits.group()) != art["number"]:
        problems.append(f"label {art['label']!r} and number {art['number']} differ")
    if art["paragraphs"] < 1:
        problems.append("paragraphs < 1")
    return problems


def check(gold_path):
    with open(gold_path, encoding="utf-8") as handle:
        gold = json.load(handle)
    problems = [k for k in ("file", "corpus", "split", "notes", "versions") if k not in gold]
    if problems:
        return [f"missing keys {problems}"]
    lines = source_lines(gold)
    for version in gold["versions"]:
        previous = 0
        for art in version["articles"]:
            problems += [f"{version['lang']} {art['label']}: {p}" for p in check_article(lines, art, previous)]
            previous = art["end"]
        for item in version.get("protocol_items", []):
            if not (previous < item["start"] <= item["end"]) or not lines[item["end"] - 1].strip():
                problems.append(f"{version['lang']} protocol item {item['label']}: bad lines")
            previous = item["end"]
    if gold["split"] not in ("tune", "measure"):
        problems.append(f"split {gold['split']!r}")
    return problems


def main(argv):
    paths = argv or sorted(glob.glob(os.path.join(REPO, "tests", "cases", "segments", "*", "*", "*.json")))
    bad = 0
    for path in paths:
        for problem in check(path):
            print(f"{os.path.relpath(path, REPO)}: {problem}")
            bad += 1
    print(f"{len(paths)} gold files checked, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
