"""Period prints and their scans, for the scan benchmark (scripts/bench_scans.py) and the
tests: a treaty text typeset as an old print (a serif face, justified, centred headings, a
running head and a page number on every page), each page rasterised, degraded as a scanner or
a photocopier would (resolution, skew, blur, noise, uneven ink, specks, JPEG) and laid into
an image-only PDF. Everything random is drawn from a seeded generator: the same seed, the
same scan.

The text each page prints (the truth OCR is measured against) is the PDF's own text layer,
read before the page is rasterised."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

#: A line that is an article heading (the excerpt starts at the first one).
HEADING = re.compile(r"^\W*(article|artikel|artigo|art\.)\s+(1|I|one)\b\W*$", re.IGNORECASE)
_MARKUP = re.compile(r"^#+\s*|\*\*|__")


@dataclass(frozen=True)
class Level:
    """How a page is scanned: `dpi`, `skew` (degrees, the sign drawn), `blur` (pixels at the
    scan's resolution), `noise` (grey levels of Gaussian noise), `specks` (dark specks per
    million pixels), `ink` (how much the ink's darkness varies over the page, 0..1), `jpeg`
    (quality; 0 = kept lossless) and `photocopy` (thresholded to black and white)."""

    name: str
    dpi: int
    skew: float
    blur: float
    noise: float
    specks: float
    ink: float
    jpeg: int
    photocopy: bool


FAIR = Level("fair", 200, 0.6, 0.5, 6.0, 20.0, 0.15, 0, False)
POOR = Level("poor", 150, 1.2, 0.8, 14.0, 250.0, 0.35, 60, True)


def excerpt(text: str, chars: int) -> str:
    """The lines of `text` from its first article heading, markup marks dropped, about `chars`
    characters long (whole lines)."""
    lines = [_MARKUP.sub("", x).strip() for x in text.replace("\r\n", "\n").split("\n")]
    start = next((i for i, x in enumerate(lines) if HEADING.match(x)), 0)
    out: list[str] = []
    size = 0
    for line in lines[start:]:
        if size >= chars:
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out).strip() + "\n"


def print_pdf(text: str, head: str) -> bytes:
    """`text` as an octavo print: each line a paragraph (a heading, a line matching an article
    or chapter word, centred), Times justified, the running head `head` and the page number."""
    from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph

    width, height = 396, 612  # 5.5 x 8.5 in
    margin = 44

    def furniture(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFont("Times-Roman", 8.5)
        canvas.drawCentredString(width / 2, height - 30, head.upper())
        canvas.drawCentredString(width / 2, 24, str(doc.page))
        canvas.restoreState()

    body = ParagraphStyle("body", fontName="Times-Roman", fontSize=10, leading=12.5,
                          alignment=TA_JUSTIFY, firstLineIndent=12, spaceAfter=3)
    heading = ParagraphStyle("heading", parent=body, alignment=TA_CENTER, firstLineIndent=0,
                             spaceBefore=6, spaceAfter=4)
    out = io.BytesIO()
    doc = BaseDocTemplate(out, pagesize=(width, height), title=head)
    frame = Frame(margin, margin, width - 2 * margin, height - 2 * margin - 6)
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=furniture)])
    flow = [Paragraph(escape(line), heading if _is_heading(line) else body)
            for line in text.split("\n") if line.strip()]
    doc.build(flow)
    return out.getvalue()


def _is_heading(line: str) -> bool:
    return bool(re.match(r"^\W*(article|artikel|artigo|chapter|kapitel|cap[ií]tulo)\s+\w+\W*$",
                         line, re.IGNORECASE))


def page_texts(pdf: bytes) -> list[str]:
    """The text layer of each page of `pdf`."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        out = []
        for page in document:
            textpage = page.get_textpage()
            out.append(textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n"))
        return out
    finally:
        document.close()


def scan_pages(pdf: bytes, level: Level, seed: int, pages: int | None = None) -> list:
    """The first `pages` pages of `pdf` (all when None) scanned at `level`: grey PIL images at
    the level's resolution (dpi set in their info)."""
    import numpy as np
    import pypdfium2 as pdfium

    rng = np.random.default_rng(seed)
    document = pdfium.PdfDocument(pdf)
    try:
        count = len(document) if pages is None else min(pages, len(document))
        return [_degrade(document[i].render(scale=2 * level.dpi / 72, grayscale=True).to_pil(),
                         level, rng) for i in range(count)]
    finally:
        document.close()


def _degrade(fine, level: Level, rng):
    """`fine` (rendered at twice the level's resolution) skewed, blurred, brought to the
    level's resolution, its ink made uneven, noised, specked, and thresholded or JPEG-coded."""
    import numpy as np
    from PIL import Image, ImageFilter

    fine = fine.convert("L")
    angle = level.skew * (1 if rng.random() < 0.5 else -1) * (0.6 + 0.4 * rng.random())
    fine = fine.rotate(angle, resample=Image.BICUBIC, expand=False, fillcolor=255)
    fine = fine.filter(ImageFilter.GaussianBlur(2 * level.blur))
    size = (fine.width // 2, fine.height // 2)
    pixels = np.asarray(fine.resize(size, Image.LANCZOS), dtype=np.float32)
    pixels = 255 - (255 - pixels) * _ink(pixels.shape, level.ink, rng)
    pixels += rng.normal(0, level.noise, pixels.shape)
    _speck(pixels, level.specks, rng)
    if level.photocopy:
        pixels = np.where(pixels < 150 + rng.normal(0, 10, pixels.shape), 0, 255)
    image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "L")
    if level.jpeg:
        coded = io.BytesIO()
        image.save(coded, "JPEG", quality=level.jpeg)
        image = Image.open(io.BytesIO(coded.getvalue())).convert("L")
    image.info["dpi"] = (level.dpi, level.dpi)
    return image


def _ink(shape: tuple[int, int], amount: float, rng):
    """A smooth field around 1 (ink darkness over the page), varying by about `amount`."""
    import numpy as np
    from PIL import Image

    coarse = rng.normal(0, 1, (6, 4)).astype(np.float32)
    field = np.asarray(Image.fromarray(coarse, "F").resize((shape[1], shape[0]), Image.BICUBIC))
    return np.clip(1 - amount * np.abs(field) / 2, 0.35, 1.0)


def _speck(pixels, per_million: float, rng) -> None:
    """Dark specks of one to three pixels, `per_million` per million pixels, in place."""
    height, width = pixels.shape
    count = int(per_million * height * width / 1e6)
    ys = rng.integers(0, height - 3, count)
    xs = rng.integers(0, width - 3, count)
    sizes = rng.integers(1, 4, count)
    for y, x, s in zip(ys, xs, sizes):
        pixels[y:y + s, x:x + s] = rng.integers(0, 90)


def image_pdf(images: list, level: Level) -> bytes:
    """`images` as an image-only PDF, one page each, at the level's resolution (the pixels
    embedded as they are)."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas as pdfcanvas

    out = io.BytesIO()
    c = None
    for image in images:
        size = (image.width * 72 / level.dpi, image.height * 72 / level.dpi)
        if c is None:
            c = pdfcanvas.Canvas(out, pagesize=size)
        c.setPageSize(size)
        c.drawImage(ImageReader(image), 0, 0, *size)
        c.showPage()
    c.save()
    return out.getvalue()
