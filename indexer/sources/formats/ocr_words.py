"""Tesseract's words with their confidences (its TSV output), and the page text made of them.

Tesseract writes one row a word (level 5) with its page, block, paragraph and line numbers,
its box and its confidence (0-100). The text is made as tesseract's own text output makes it:
the words of a line joined by spaces, the lines of a paragraph by line ends, paragraphs and
blocks by a blank line. A stray mark the scan left between words (a word of no letter and no
digit that tesseract was unsure of, e.g. a speck read as `.` or `'`) is left out."""

from __future__ import annotations

from dataclasses import dataclass

#: Below this confidence a word of marks only (no letter, no digit) is taken for a speck.
#: Measured by scripts/bench_scans.py on the tune texts.
STRAY_CONFIDENCE = 60


@dataclass(frozen=True)
class Word:
    """A word as tesseract read it: where (page, block, paragraph, line), its box and its
    confidence (0-100)."""

    page: int
    block: int
    par: int
    line: int
    left: int
    top: int
    width: int
    height: int
    conf: float
    text: str


def parse_tsv(tsv: str, page: int) -> list[Word]:
    """The words (level-5 rows with text) of tesseract's TSV output for page `page`."""
    out = []
    for row in tsv.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5" or not cells[11].strip():
            continue
        block, par, line, left, top, width, height = (int(x) for x in cells[2:5] + cells[6:10])
        out.append(Word(page, block, par, line, left, top, width, height, float(cells[10]),
                        cells[11].strip()))
    return out


def stray(word: Word) -> bool:
    """Whether `word` is a mark the scan left rather than print: no letter or digit, and
    tesseract was unsure of it."""
    return word.conf < STRAY_CONFIDENCE and not any(c.isalnum() for c in word.text)


def page_text(words: list[Word]) -> str:
    """The text of one page's `words` (strays left out): lines by line ends, paragraphs by a
    blank line."""
    paragraphs: list[list[str]] = []
    lines: dict[tuple[int, int, int], list[str]] = {}
    last = None
    for word in words:
        if stray(word):
            continue
        key = (word.block, word.par, word.line)
        if key not in lines:
            lines[key] = []
            if last is None or key[:2] != last[:2]:
                paragraphs.append([])
            paragraphs[-1].append(key)
            last = key
        lines[key].append(word.text)
    return "\n\n".join("\n".join(" ".join(lines[k]) for k in keys) for keys in paragraphs)


def to_tsv(words: list[Word]) -> str:
    """`words` as a TSV table (a header row, then one row a word), to keep beside the text."""
    rows = ["page\tblock\tpar\tline\tleft\ttop\twidth\theight\tconf\ttext"]
    rows += [f"{w.page}\t{w.block}\t{w.par}\t{w.line}\t{w.left}\t{w.top}\t{w.width}\t"
             f"{w.height}\t{w.conf:g}\t{w.text}" for w in words]
    return "\n".join(rows) + "\n"
