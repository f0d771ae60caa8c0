"""OCR of a PDF without a text layer, opt-in (`treaty add --ocr en,sv`): each page read by the
tesseract command (Debian's tesseract-ocr with its language data) at the scan's own
resolution: a page that is one upright image is read from that image's own pixels, any other
page is rendered at the resolution of its finest image (`DPI` when it has none), so a 150 dpi
scan is not enlarged, with its specks, before tesseract reads it. Tesseract's words come with
their confidences (:mod:`.ocr_words`), kept beside the text; the pages are joined by form
feeds as a printed text's are. Measured by scripts/bench_scans.py."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass

from indexer.errors import SourceError

from .ocr_words import Word, page_text, parse_tsv, to_tsv

#: Tesseract's language data by ISO 639-1 code (Debian: tesseract-ocr-eng, -por, -swe, -chi-sim).
LANGUAGES = {"en": "eng", "pt": "por", "sv": "swe", "zh": "chi_sim", "es": "spa",
             "fr": "fra", "de": "deu", "nl": "nld"}
#: Rendering resolution of a page that holds no image (tesseract reads print best at 300 dpi).
DPI = 300
#: A scan of a lower resolution is enlarged to this one before tesseract reads it (0: never;
#: measured by scripts/bench_scans.py).
MIN_DPI = 0
#: A page is never rendered finer than this (an image drawn tiny would ask for a vast page).
MAX_DPI = 600
#: Tesseract's page segmentation mode (3, its default: fully automatic). Compared on the tune
#: scans by scripts/bench_scans.py --psm N: 6 (one block) read every fair page worse and the
#: poor pages better or worse page by page, and tesseract's confidence did not tell which.
PSM = 3
#: Seconds one page may take.
PAGE_SECONDS = 120


def tesseract_languages(codes: list[str]) -> str:
    """Tesseract's `-l` argument for ISO 639-1 `codes` (an unknown code refused)."""
    unknown = [c for c in codes if c not in LANGUAGES]
    if unknown or not codes:
        raise SourceError(f"--ocr: give languages among {', '.join(sorted(LANGUAGES))} "
                          f"(not {', '.join(unknown) or 'none'})")
    return "+".join(LANGUAGES[c] for c in codes)


@dataclass(frozen=True)
class Reading:
    """A PDF read by OCR: its text (pages joined by form feeds) and tesseract's words."""

    text: str
    words: tuple[Word, ...]

    def tsv(self) -> str:
        return to_tsv(list(self.words))


def _grey(pixels):
    """`pixels` (a pdfium bitmap's array: grey, or BGR(A)) in grey."""
    import numpy as np

    if pixels.ndim == 2:
        return pixels
    bgr = pixels[:, :, :3].astype(np.float32)
    return (bgr @ np.array([0.114, 0.587, 0.299], dtype=np.float32)).astype(np.uint8)


def _own_image(page):
    """(grey pixels, dpi) of the one image a page is made of, when it is upright; else None."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    objects = list(page.get_objects(max_depth=1))
    if len(objects) != 1 or objects[0].type != pdfium_c.FPDF_PAGEOBJ_IMAGE:
        return None
    a, b, c, d, _e, _f = objects[0].get_matrix().get()
    if b or c or a <= 0 or d <= 0:
        return None
    try:
        pixels = _grey(objects[0].get_bitmap(render=False).to_numpy())
    except pdfium.PdfiumError:  # (an image pdfium cannot decode alone: render the page)
        return None
    return pixels, round(pixels.shape[1] * 72 / a)


def _own_dpi(page) -> int:
    """The resolution of the page's finest image (`DPI` when it has none; at most `MAX_DPI`):
    its width in pixels over the length its first side is drawn at, however turned."""
    import math

    import pypdfium2.raw as pdfium_c

    found = []
    for image in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]):
        a, b, *_rest = image.get_matrix().get()
        drawn = math.hypot(a, b)
        if drawn >= 1:
            found.append(round(image.get_px_size()[0] * 72 / drawn))
    return min(max(found or [DPI]), MAX_DPI)


def _page_image(page) -> tuple[bytes, int]:
    """The page in grey as a binary PGM image, and its resolution (see the module)."""
    own = _own_image(page)
    if own is None or own[1] < MIN_DPI:
        dpi = max(_own_dpi(page), MIN_DPI)
        pixels = page.render(scale=dpi / 72, grayscale=True).to_numpy()
        own = _grey(pixels), dpi
    pixels, dpi = own
    height, width = pixels.shape
    return f"P5\n{width} {height}\n255\n".encode("ascii") + pixels.tobytes(), dpi


def _read_page(tesseract: str, image: tuple[bytes, int], languages: str, path: str,
               number: int) -> list[Word]:
    pixels, dpi = image
    try:
        done = subprocess.run([tesseract, "stdin", "stdout", "-l", languages, "--dpi", str(dpi),
                               "--psm", str(PSM), "tsv"], input=pixels,
                              capture_output=True, timeout=PAGE_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        raise SourceError(f"{path}: OCR of page {number} took over {PAGE_SECONDS} s") from None
    if done.returncode != 0:
        reason = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"])[0]
        raise SourceError(f"{path}: tesseract failed on page {number} ({reason}); check "
                          "that its language data is installed (tesseract --list-langs)")
    return parse_tsv(done.stdout.decode("utf-8", "replace"), number)


def ocr_pdf(data: bytes, path: str, codes: list[str]) -> str:
    """The text of the PDF `data` read by OCR in the languages `codes`."""
    return read_pdf(data, path, codes).text


def read_pdf(data: bytes, path: str, codes: list[str]) -> Reading:
    """The PDF `data` read by OCR in the languages `codes`: its text and words."""
    import pypdfium2 as pdfium

    languages = tesseract_languages(codes)
    tesseract = shutil.which("tesseract")
    if tesseract is None:
        raise SourceError(f"{path}: tesseract not found; install tesseract-ocr and its "
                          "language data, or run OCR first, e.g. ocrmypdf")
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise SourceError(f"{path}: not a readable PDF ({exc})") from None
    try:
        words = [_read_page(tesseract, _page_image(page), languages, path, number)
                 for number, page in enumerate(document, 1)]
    finally:
        document.close()
    pages = [page_text(x) for x in words]
    if not any(p.strip() for p in pages):
        raise SourceError(f"{path}: OCR found no text")
    return Reading("\n\n\f".join(pages) + "\n", tuple(w for x in words for w in x))
