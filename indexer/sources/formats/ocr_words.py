"""Tesseract's words with their confidences (its TSV output), and the page text made of them.

Tesseract writes one row a word (level 5) with its page, block, paragraph and line numbers,
its box and its confidence (0-100). The text is made as tesseract's own text output makes it:
the words of a line joined by spaces, the lines of a paragraph by line ends, paragraphs and
blocks by a blank line. A stray mark the scan left between words (a word tesseract was unsure
of that has no letter and no digit, e.g. a speck read as `.` or `'`, or whose box is a
speck's, a few pixels either way, whatever it was read as) is left out."""

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


def stray(word: Word, speck: float = 0.0) -> bool:
    """Whether `word` is a mark the scan left rather than print, tesseract being unsure of
    it: no letter or digit, or a box no larger than `speck` pixels either way (a speck read
    as a letter: "a", "r", "Z" three pixels high among words fifteen high)."""
    if word.conf >= STRAY_CONFIDENCE:
        return False
    return not any(c.isalnum() for c in word.text) or (
        word.height <= speck and word.width <= speck)


#: A box of at most this share of the page's typical word height, either way, is a speck's.
SPECK_SHARE = 0.3


def speck_size(words: list[Word]) -> float:
    """The largest box (pixels, either way) of a speck on the page of `words`: SPECK_SHARE of
    the median height of its words of four characters or more."""
    heights = sorted(w.height for w in words if len(w.text) >= 4)
    return SPECK_SHARE * heights[len(heights) // 2] if heights else 0.0


def page_text(words: list[Word]) -> str:
    """The text of one page's `words` (strays left out): lines by line ends, paragraphs by a
    blank line."""
    paragraphs: list[list[str]] = []
    lines: dict[tuple[int, int, int], list[str]] = {}
    last = None
    speck = speck_size(words)
    for word in words:
        if stray(word, speck):
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


def read_tsv(tsv: str) -> list[Word]:
    """The words of a table `to_tsv` wrote (rows it cannot read left out)."""
    out = []
    for row in tsv.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) != 10 or not cells[9]:
            continue
        try:
            numbers = [int(x) for x in cells[:8]]
            conf = float(cells[8])
        except ValueError:
            continue
        out.append(Word(*numbers, conf, cells[9]))
    return out


def to_tsv(words: list[Word]) -> str:
    """`words` as a TSV table (a header row, then one row a word), to keep beside the text."""
    rows = ["page\tblock\tpar\tline\tleft\ttop\twidth\theight\tconf\ttext"]
    rows += [f"{w.page}\t{w.block}\t{w.par}\t{w.line}\t{w.left}\t{w.top}\t{w.width}\t"
             f"{w.height}\t{w.conf:g}\t{w.text}" for w in words]
    return "\n".join(rows) + "\n"
