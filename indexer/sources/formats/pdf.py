"""PDF -> text through its text layer (pypdfium2, PDFium's text API: chosen on speed and
agreement, see scripts/measure_formats.py).

Each page's text runs (PDFium's rectangles with their text) are put back into lines, and the
lines in reading order: a page whose lines leave a vertical gutter free (a few lines that cross
it, such as a running title or a centred page number, aside) is read column by column, the
crossing lines cutting the page into bands read in turn. A vertical gap wider than the usual
line pitch becomes a blank line (a new block), as in a plain text. Pages are joined with form
feeds, as the clean stage expects of a printed text: its running headers, footers and page
numbers are then removed as page furniture, and the first line of each page gives the page
of every unit.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from indexer.clean.lines import HAN
from indexer.errors import SourceError

NO_TEXT = "no text layer; run OCR first, e.g. ocrmypdf"
#: A gutter is looked for between these shares of the page width.
_GUTTER_BAND = (0.25, 0.75)
#: At most this share of a page's lines may cross the gutter (titles, page numbers, rules).
_CROSSING_SHARE = 0.2
#: Each column holds at least this many lines.
_COLUMN_LINES = 3
#: A vertical gap over this many times the line pitch opens a new block.
_BLOCK_GAP = 1.35
#: Two runs at one height are one line when the space between them is under this many
#: line heights.
_WORD_GAP = 1.5
#: A gap between two runs of a line wider than this many line heights is a space.
_SPACE = 0.15
#: A line of Han text ending this close to its column's right edge (in line heights) fills
#: the column: it continues on the next line.
_FULL_LINE = 1.5
#: A run is looked for a row among this many rows above it.
_RECENT_ROWS = 4


@dataclass
class _Line:
    left: float
    bottom: float
    right: float
    top: float
    text: str

    @property
    def height(self) -> float:
        return self.top - self.bottom


def _band(textpage, left: float, bottom: float, right: float, top: float
          ) -> tuple[float, float]:
    """The run's vertical band from the loose box of a character in it (the font's ascent
    and descent: the same for every glyph of a line, where a glyph's own box is not, as a
    full stop's or a comma's is small and low)."""
    index = textpage.get_index((left + right) / 2, (bottom + top) / 2, (right - left) / 2,
                               (top - bottom) / 2)
    if index is None or index < 0:
        return bottom, top
    _l, loose_bottom, _r, loose_top = textpage.get_charbox(index, loose=True)
    return (loose_bottom, loose_top) if loose_top > loose_bottom else (bottom, top)


def _runs(textpage) -> list[_Line]:
    out = []
    for i in range(textpage.count_rects()):
        left, bottom, right, top = textpage.get_rect(i)
        text = textpage.get_text_bounded(left, bottom, right, top)
        # (PDFium writes a hyphen that ends a line as U+0002)
        text = text.replace("\x02", "-").replace("\r", " ").replace("\n", " ")
        text = " ".join(text.split())
        if text:
            bottom, top = _band(textpage, left, bottom, right, top)
            out.append(_Line(left, bottom, right, top, text))
    return out


def _cjk(char: str) -> bool:
    """A Han character or full-width punctuation (text that is written without spaces)."""
    return bool(HAN.match(char)) or "\u3000" <= char <= "\u303f" or "\uff00" <= char <= "\uffef"


#: Punctuation that Han text shares with Latin text: no space beside Han either.
_SHARED_PUNCTUATION = frozenset("‘’“”—…·")


def _cjk_pair(before: str, after: str) -> bool:
    """Do `before` and `after` meet inside Han text (no space between them)?"""
    if not before or not after:
        return False
    b, a = before[-1], after[0]
    return (_cjk(b) or _cjk(a)) and all(_cjk(c) or c in _SHARED_PUNCTUATION for c in (b, a))


def _rows(runs: list[_Line]) -> list[list[_Line]]:
    """The runs grouped into rows: a run joins a recent row it overlaps vertically by half
    its height (the glyph boxes of one line differ in height: punctuation, Han, accents)."""
    rows: list[list[_Line]] = []
    for run in sorted(runs, key=lambda r: -(r.top + r.bottom) / 2):
        height = max(run.height, 1.0)
        for row in reversed(rows[-_RECENT_ROWS:]):
            first = row[0]
            overlap = min(first.top, run.top) - max(first.bottom, run.bottom)
            if overlap >= 0.5 * min(height, max(first.height, 1.0)):
                row.append(run)
                break
        else:
            rows.append([run])
    return rows


def _lines(runs: list[_Line], textpage=None) -> list[_Line]:
    """Each row's runs, left to right, merged into lines where they are close (a wider gap
    separates columns); a space between two runs where the gap between them is one: in Han
    text (spaced out by justification) only where `textpage` has a space in the gap."""
    lines: list[_Line] = []
    for row in _rows(runs):
        line: _Line | None = None
        for run in sorted(row, key=lambda r: r.left):
            height = max(run.height, 1.0)
            gap = run.left - line.right if line is not None else None
            if line is not None and gap < _WORD_GAP * height:
                spaced = gap > _SPACE * height
                if spaced and textpage is not None and _cjk_pair(line.text, run.text):
                    spaced = " " in textpage.get_text_bounded(
                        line.right, min(line.bottom, run.bottom), run.left,
                        max(line.top, run.top))
                line.text += (" " if spaced else "") + run.text
                line.right = max(line.right, run.right)
                line.top, line.bottom = max(line.top, run.top), min(line.bottom, run.bottom)
            else:
                line = _Line(run.left, run.bottom, run.right, run.top, run.text)
                lines.append(line)
    return lines


def _gutter(lines: list[_Line], width: float) -> float | None:
    """The x of a free vertical gutter between two columns, or None (one column)."""
    best, best_crossing = None, len(lines) + 1
    start, end = (int(width * s) for s in _GUTTER_BAND)
    for x in range(start, end, 2):
        crossing = sum(1 for ln in lines if ln.left < x < ln.right)
        if crossing < best_crossing:
            left = sum(1 for ln in lines if ln.right <= x)
            right = sum(1 for ln in lines if ln.left >= x)
            if left >= _COLUMN_LINES and right >= _COLUMN_LINES:
                best, best_crossing = x, crossing
    if best is None or best_crossing > _CROSSING_SHARE * len(lines):
        return None
    return best


def _reading_order(lines: list[_Line], width: float) -> list[list[_Line]]:
    """The page's lines as a list of runs read top to bottom (columns one after the other
    between the lines that cross the gutter)."""
    lines = sorted(lines, key=lambda ln: (-ln.top, ln.left))
    x = _gutter(lines, width)
    if x is None:
        return [lines]
    bands: list[list[_Line]] = []
    band: list[_Line] = []
    for ln in lines:
        if ln.left < x < ln.right:
            if band:
                bands.extend(_columns(band, x))
            bands.append([ln])
            band = []
        else:
            band.append(ln)
    if band:
        bands.extend(_columns(band, x))
    return bands


def _columns(band: list[_Line], x: float) -> list[list[_Line]]:
    left = [ln for ln in band if ln.right <= x]
    right = [ln for ln in band if ln.left >= x]
    return [col for col in (left, right) if col]


def _text_of(runs: list[list[_Line]]) -> str:
    """The lines, a blank line between runs and where the gap between lines is wide."""
    pitches = [a.top - b.top for run in runs for a, b in itertools.pairwise(run) if a.top > b.top]
    # the line pitch inside a paragraph: the lower quartile of the pitches (where most
    # paragraphs are short, most pitches include the space between paragraphs)
    pitch = sorted(pitches)[len(pitches) // 4] if pitches else 0.0
    out: list[str] = []
    for run in (r for r in runs if r):
        if out:
            out.append("")
        edge = max(ln.right for ln in run)
        for prev, ln in zip([None, *run], run):
            if prev is not None and pitch and prev.top - ln.top > _BLOCK_GAP * pitch:
                out.append("")
            elif (prev is not None and _cjk_pair(prev.text, ln.text)
                  and edge - prev.right < _FULL_LINE * max(prev.height, 1.0)):
                out[-1] += ln.text  # (Han text wrapped at the column's edge)
                continue
            out.append(ln.text)
    return "\n".join(out)


#: Most pages a PDF may have (a treaty has tens, a gazette issue a few hundred).
MAX_PAGES = 5000


def page_texts(data: bytes, path: str, limit: int = 64 << 20) -> list[str]:
    """The text of each page of the PDF `data` (`path` for messages; `limit`: the most its
    compressed streams may inflate to, `bounds.check_pdf_streams`)."""
    import pypdfium2 as pdfium

    from indexer.sources.formats.bounds import check_pdf_streams

    check_pdf_streams(data, path, limit)
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise SourceError(f"{path}: not a readable PDF ({exc})") from None
    try:
        if len(document) > MAX_PAGES:
            raise SourceError(f"{path}: a PDF of {len(document):,} pages (at most "
                              f"{MAX_PAGES:,}); split it")
        pages = []
        for page in document:
            textpage = page.get_textpage()
            width = page.get_width()
            lines = _lines(_runs(textpage), textpage)
            pages.append(_text_of(_reading_order(lines, width)))
            textpage.close()
            page.close()
        return pages
    finally:
        document.close()


def pdf_text(data: bytes, path: str, limit: int = 64 << 20) -> str:
    """The PDF's text, pages separated by form feeds; refused (one line) without a text
    layer or past its bounds (`page_texts`)."""
    pages = page_texts(data, path, limit)
    if not any(p.strip() for p in pages):
        raise SourceError(f"{path}: {NO_TEXT}")
    return "\n\n\f".join(pages) + "\n"
