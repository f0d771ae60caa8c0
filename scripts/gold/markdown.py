"""Draft segmentation gold for laws-markdown treaty pages (English text only).

An independent parse, written for the gold of issue 15: it shares no code with the
project's `indexer/` or `search/`. It reads one Markdown page as the project reads it
(UTF-8, CR/CRLF -> LF, split on LF), finds the English main treaty, its articles,
their titles, ends and numbered paragraphs, and the numbered items of the protocol.
Its output is a DRAFT: the gold files are checked by reading and fixed by hand, and
every hand fix is recorded in the file's "notes".

Usage:
    python scripts/gold/markdown.py ../shared/corpus-wild/en/cs-nl-1974.txt > draft.json
    python scripts/gold/markdown.py --fixes scripts/gold/markdown-fixes.json \
        --out-dir tests/cases/segments ../shared/corpus-wild/en/cs-nl-1974.txt
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from markdown_fixes import apply_fixes, load_fixes  # the sibling module (script's folder)

HASHES = re.compile(r"^\s*#{1,6}\s*")
ARTICLE = re.compile(
    r"^\s*#{0,6}\s*(?:Article|ARTICLE)\s+"
    r"(?P<label>\d{1,3}(?:\s*-\s*[A-Z]\b|[A-Za-z]\b|\s+(?:bis|ter|quater)\b)?"
    r"|[IVXLC]{1,7}\b)"
    r"\s*[.:]?\s*(?P<rest>.*?)\s*$"
)
CHAPTER = re.compile(r"^\s*#{0,6}\s*(?:CHAPTER|Chapter|C H A P T E R|PART|SECTION)\b")
STATUS = re.compile(r"^\s*Treedt\s+in\s+werking\b")
CLOSING = re.compile(r"^\s*(?:IN\s+WITNESS|DONE\s+(?:at|in)\b|Done\s+(?:at|in)\b)", re.IGNORECASE)
PROTOCOL = re.compile(r"^\s*#{0,6}\s*(?:PROTOCOL|Protocol)\b")
ANNEX = re.compile(r"^\s*#{0,6}\s*(?:ANNEX|Annex|Nr\.\s+[IVX]+)\b")
DUTCH = re.compile(r"^\s*#{1,6}\s*(?:Overeenkomst|Verdrag|Artikel|HOOFDSTUK|Protocol\s+bij)\b")
ROMAN_LINE = re.compile(r"^\s*#{0,6}\s*(?P<label>[IVXL]{1,6})\s*\.?\s*$")
ROMAN_LEAD = re.compile(r"^\s*(?P<label>[IVXL]{1,6})\.\s+\S")
NUM_LEAD = re.compile(r"^\s*(?P<label>\d{1,2})\.\s+\S")
AD_ARTICLE = re.compile(r"\b(?:Ad|With\s+reference\s+to)\b.{0,60}?\bArticles?\s+\d+", re.IGNORECASE)
PARA_MARKS = (
    re.compile(r"^\s*(?P<n>\d{1,2})\s*\.(?!\d)\s*(?P<text>.*)$"),
    re.compile(r"^\s*(?P<n>\d{1,2})\s*\)\s*(?P<text>\S.*)$"),
    re.compile(r"^\s*\((?P<n>\d{1,2})\)\s*(?P<text>\S.*)$"),
    re.compile(r"^\s*§\s*(?P<n>\d{1,2})\b\s*(?P<text>.*)$"),
    re.compile(r"^\s*(?P<n>\d{1,2})\s+[-–]\s+(?P<text>\S.*)$"),
)
POINT = re.compile(r"^\s*(?:\(?[a-z]{1,2}\)|\((?:[ivx]{1,5})\)|[ivx]{1,5}\))")
SECTION = re.compile(r"^\s*(?P<letter>[A-H])\.\s*[A-Z]")
GLUED = re.compile(r"(?<=[.;:])\s*(?P<n>\d{1,2})\s*\.\s+(?=[A-Z“\"(])")


def read_lines(path: Path) -> list[str]:
    """The file's lines as the project reads them (index 0 is line 1)."""
    text = path.read_bytes().decode("utf-8")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def plain(line: str) -> str:
    """A heading's text without its Markdown marks."""
    return HASHES.sub("", line).strip()


def english_title(lines: list[str]) -> int:
    """Index of the English title: the first heading after the Dutch page title."""
    seen_page_title = False
    for i, line in enumerate(lines):
        if not HASHES.match(line):
            continue
        if seen_page_title and re.match(r"(Convention|Agreement|Treaty)\b", plain(line)):
            return i
        seen_page_title = True
    raise ValueError("no English title heading")


def dutch_start(lines: list[str], after: int) -> int:
    """Index of the first line of the Dutch text (or len(lines) when there is none)."""
    for i in range(after + 1, len(lines)):
        if DUTCH.match(lines[i]):
            return i
    return len(lines)


def article_heads(lines: list[str], lo: int, hi: int) -> list[tuple[int, str, str]]:
    """(index, label, text after the label) of every article heading in [lo, hi)."""
    heads = []
    for i in range(lo, hi):
        m = ARTICLE.match(lines[i])
        if not m or len(lines[i]) > 160:
            continue
        rest = m.group("rest")
        if rest and not re.match(r"[A-Z(\-–—]", rest):
            continue  # a sentence that starts with "Article 5 of ..." is no heading
        heads.append((i, re.sub(r"\s+", " ", m.group("label")), rest.lstrip("-–— ")))
    return heads


def treaty_end(lines: list[str], last_head: int, hi: int) -> int:
    """Index of the first line after the last article that ends the main treaty."""
    for i in range(last_head + 1, hi):
        if CLOSING.match(lines[i]) or PROTOCOL.match(lines[i]) or ANNEX.match(lines[i]):
            return i
    return hi


def is_title_line(line: str) -> bool:
    """A lone title line: short, capitalised, no sentence punctuation, no marker."""
    s = line.strip()
    if not s or len(s) > 100 or s[-1] in ".;:,":
        return False
    if any(p.match(s) for p in PARA_MARKS) or POINT.match(s):
        return False
    return s[0].isupper()


def find_title(lines: list[str], head: int, rest: str, hi: int) -> tuple[str | None, int]:
    """The article's title and the index of the first body line after it."""
    if rest:
        return rest, head + 1
    i = head + 1
    while i < hi and (not lines[i].strip() or STATUS.match(lines[i])):
        i += 1
    if i < hi and HASHES.match(lines[i]) and not ARTICLE.match(lines[i]):
        return plain(lines[i]) or None, i + 1
    if i < hi and is_title_line(lines[i]):
        j = i + 1
        if j >= hi or not lines[j].strip():
            return lines[i].strip(), i + 1
    return None, head + 1


def article_end(lines: list[str], head: int, limit: int) -> tuple[int, list[str]]:
    """Index of the article's last line, and notes on what was left out after it."""
    notes = []
    stop = limit
    for i in range(head + 1, limit):
        if CHAPTER.match(lines[i]):
            stop = i
            break
    end = stop - 1
    while end > head and (not lines[end].strip() or STATUS.match(lines[end])):
        if STATUS.match(lines[end]):
            notes.append(f"status line {end + 1} after the article text left out")
        end -= 1
    return end, notes


def paragraph_marks(lines: list[str], lo: int, hi: int) -> list[tuple[int, int | str, str, bool]]:
    """(line index, number, text, glued?) of every numbered marker in the body.

    A lettered section line ("A.In the case of the Netherlands:") is given as a
    marker whose number is the letter; the paragraphs under it are numbered anew.
    """
    marks: list[tuple[int, int | str, str, bool]] = []
    for i in range(lo, hi):
        line = lines[i]
        if STATUS.match(line) or HASHES.match(line):
            continue
        sec = SECTION.match(line)
        if sec:
            marks.append((i, sec.group("letter"), line, False))
            continue
        for pat in PARA_MARKS:
            m = pat.match(line)
            if m:
                marks.append((i, int(m.group("n")), m.group("text"), False))
                break
        for g in GLUED.finditer(line):
            if g.start() > 0:
                marks.append((i, int(g.group("n")), line[g.end():], True))
    return marks


def count_paragraphs(marks: list[tuple[int, int | str, str, bool]]) -> tuple[int, list[str]]:
    """Top-level numbered paragraphs; a "1." under a paragraph opens a sub-list.

    Under lettered sections (A., B., ...) the numbered paragraphs of all
    sections are added up: "A. 1. 2. 3. B. 1. 2." is five paragraphs.
    """
    banked, count, sub_next, flags = 0, 0, None, []
    for i, n, text, glued in marks:
        if isinstance(n, str):
            flags.append(f"line {i + 1}: section {n}; its paragraphs are numbered anew")
            banked, count, sub_next = banked + count, 0, None
            continue
        top_fits = n == count + 1
        sub_fits = sub_next is not None and n == sub_next
        if top_fits and sub_fits:
            top_fits = not text.strip() or text.strip()[:1].isupper()
            flags.append(f"line {i + 1}: '{n}.' could be paragraph or sub-item; "
                         f"took {'paragraph' if top_fits else 'sub-item'}")
        if top_fits:
            count, sub_next = n, None
            if glued:
                flags.append(f"line {i + 1}: paragraph {n} glued onto the line")
        elif n == 1 and count >= 1:
            sub_next = 2
        elif sub_fits:
            sub_next += 1
        elif not glued:
            flags.append(f"line {i + 1}: number {n} out of sequence (after {count})")
    return max(banked + count, 1), flags


def number_of(label: str) -> int | None:
    """The integer part of a label ("21A" -> 21, "XV" -> 15)."""
    m = re.match(r"\d+", label)
    if m:
        return int(m.group())
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
    total = 0
    for a, b in zip(label, label[1:] + " "):
        v = values[a]
        total += -v if values.get(b, 0) > v else v
    return total


def articles(lines: list[str], lo: int, hi: int) -> tuple[list[dict], list[str], int]:
    """The main treaty's articles in [lo, hi), draft notes, and the treaty's end."""
    heads = article_heads(lines, lo, hi)
    if not heads:
        return [], ["no article headings found"], hi
    end_all = treaty_end(lines, heads[-1][0], hi)
    out, notes = [], []
    for k, (head, label, rest) in enumerate(heads):
        limit = heads[k + 1][0] if k + 1 < len(heads) else end_all
        title, body = find_title(lines, head, rest, limit)
        end, end_notes = article_end(lines, head, limit)
        count, flags = count_paragraphs(paragraph_marks(lines, body, end + 1))
        notes += [f"Article {label}: {x}" for x in end_notes + flags]
        out.append({
            "label": label, "number": number_of(label), "title": title,
            "start": head + 1, "end": end + 1, "paragraphs": count,
            "first": lines[head].strip(), "last": lines[end].strip()[-60:].strip(),
        })
    return out, notes, end_all


def protocol_start(lines: list[str], lo: int, hi: int) -> int | None:
    """Index of the protocol heading after the main treaty, if any."""
    for i in range(lo, hi):
        if PROTOCOL.match(lines[i]) and len(plain(lines[i])) < 200:
            return i
    return None


def protocol_items(lines: list[str], lo: int, hi: int) -> list[dict]:
    """Numbered protocol items between the protocol heading and its closing formula.

    An item starts at a lone roman-numeral heading ("###IV"), at an "Ad Article"
    heading that is followed by a line led by a roman numeral ("IV.  ..."), or at a
    line led by "N." (top level, in sequence). It ends before the next item or the
    protocol's closing formula.
    """
    stop = next((i for i in range(lo + 1, hi) if CLOSING.match(lines[i])), hi)
    starts = roman_items(lines, lo + 1, stop) or numbered_items(lines, lo + 1, stop)
    items = []
    for k, (i, label, ref) in enumerate(starts):
        limit = starts[k + 1][0] if k + 1 < len(starts) else stop
        end = limit - 1
        while end > i and not lines[end].strip():
            end -= 1
        items.append({"label": label, "refers_to": ref, "start": i + 1, "end": end + 1})
    return items


def roman_items(lines: list[str], lo: int, hi: int) -> list[tuple[int, str, int | None]]:
    """(index, label, refers_to) of items numbered with roman numerals.

    Three layouts: a lone numeral heading ("###IV") followed by its title; an
    "Ad Article" heading followed by a line led by the numeral ("IV.  ..."); a
    line led by the next numeral in sequence ("IV. *Ad Article 4* A company ...").
    """
    starts: list[tuple[int, str, int | None]] = []
    i = lo
    while i < hi:
        line = lines[i]
        nxt = next_text(lines, i + 1, hi)
        expected = len(starts) + 1
        if ROMAN_LINE.match(line):
            title = lines[nxt] if nxt is not None else ""
            starts.append((i, ROMAN_LINE.match(line).group("label"), refers(plain(title))))
        elif HASHES.match(line) and AD_ARTICLE.search(line) and nxt is not None \
                and ROMAN_LEAD.match(lines[nxt]):
            starts.append((i, ROMAN_LEAD.match(lines[nxt]).group("label"), refers(plain(line))))
            i = nxt
        elif ROMAN_LEAD.match(line) and number_of(ROMAN_LEAD.match(line).group("label")) == expected:
            starts.append((i, ROMAN_LEAD.match(line).group("label"), refers(line)))
        i += 1
    return starts


def numbered_items(lines: list[str], lo: int, hi: int) -> list[tuple[int, str, int | None]]:
    """(index, label, refers_to) of items led by "1.", "2.", ... in sequence."""
    starts = []
    for i in range(lo, hi):
        m = NUM_LEAD.match(lines[i])
        if m and not HASHES.match(lines[i]) and int(m.group("label")) == len(starts) + 1:
            starts.append((i, m.group("label"), refers(lines[i][:200])))
    return starts


def next_text(lines: list[str], lo: int, hi: int) -> int | None:
    """Index of the next non-blank, non-status line in [lo, hi)."""
    for i in range(lo, hi):
        if lines[i].strip() and not STATUS.match(lines[i]):
            return i
    return None


def refers(text: str) -> int | None:
    """The first article an item's lead ("Ad Article 7", "With reference to
    paragraph 3 of Article 11 of the Convention") refers to, or None."""
    lead = re.match(r"\W*(?:[IVXL]+\.|\d+\.)?\W*(?:Ad|With\s+reference\s+to)\b(?P<rest>.*)",
                    text, re.IGNORECASE)
    if not lead:
        return None
    m = re.search(r"\bArticles?\s+(?P<num>\d+)", lead.group("rest")[:200], re.IGNORECASE)
    return int(m.group("num")) if m else None


def corpus_of(path: Path) -> str:
    """"wild" or "extra", from the corpus folder the file lies in (corpus-wild/en/x.txt)."""
    name = path.resolve().parent.parent.name
    if not name.startswith("corpus-"):
        raise ValueError(f"{path}: not in a corpus-<name>/<subdir>/ folder; give --corpus")
    return name[len("corpus-"):]


def split_of(path: Path) -> str:
    """GOLD-SPEC's split: alternate tune/measure in sorted file-name order in the subdir."""
    names = sorted(p.name for p in path.resolve().parent.glob("*.txt"))
    return "tune" if names.index(path.name) % 2 == 0 else "measure"


def draft(path: Path, corpus: str | None = None, split: str | None = None) -> dict:
    """The draft gold of one file."""
    lines = read_lines(path)
    title = english_title(lines)
    hi = dutch_start(lines, title)
    arts, notes, end_all = articles(lines, title + 1, hi)
    proto = protocol_start(lines, end_all, hi)
    items = protocol_items(lines, proto, hi) if proto is not None else []
    words = plain(lines[title]).split()
    version = {"lang": "en", "instrument": " ".join(words[:14]), "articles": arts}
    if items:
        version["protocol_items"] = items
    head = (f"draft by scripts/gold/markdown.py (independent parse, stdlib only): English text "
            f"lines {title + 1}-{hi}; the Dutch text after it is not gold")
    return {
        "file": f"{path.parent.name}/{path.name}",
        "corpus": corpus or corpus_of(path), "split": split or split_of(path),
        "notes": [head] + [f"script flag: {n}" for n in notes],
        "versions": [version],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("Usage:")[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", type=Path, nargs="+")
    ap.add_argument("--corpus", choices=["wild", "extra"], help="default: from the path")
    ap.add_argument("--split", choices=["tune", "measure"], help="default: GOLD-SPEC rule")
    ap.add_argument("--fixes", type=Path, help="hand fixes to apply (markdown-fixes.json)")
    out = ap.add_mutually_exclusive_group()
    out.add_argument("-o", "--output", type=Path, help="one output file")
    out.add_argument("--out-dir", type=Path,
                     help="write <out-dir>/<corpus>/<subdir>/<stem>.json per file")
    args = ap.parse_args(argv)
    if args.output and len(args.files) > 1:
        ap.error("-o takes one input file; use --out-dir")
    try:
        fixes = load_fixes(args.fixes) if args.fixes else {}
        for path in args.files:
            data = draft(path, args.corpus, args.split)
            data = apply_fixes(data, fixes.get(f"{data['corpus']}/{data['file']}"))
            write(data, args.output, args.out_dir)
    except (OSError, ValueError) as err:
        print(f"markdown.py: {err}", file=sys.stderr)
        return 1
    return 0


def write(data: dict, output: Path | None, out_dir: Path | None) -> None:
    """Write one gold file (indented UTF-8 JSON) to output, out_dir or stdout."""
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if out_dir:
        sub, name = data["file"].split("/")
        output = out_dir / data["corpus"] / sub / (Path(name).stem + ".json")
        output.parent.mkdir(parents=True, exist_ok=True)
    if output:
        output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    sys.exit(main())
