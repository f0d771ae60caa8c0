"""OCR of a PDF without a text layer, opt-in (`treaty add --ocr en,sv`): each page rendered by
pypdfium2 and read by the tesseract command (Debian's tesseract-ocr with its language data),
the pages joined by form feeds as a printed text's are. Measured on pages rendered from the
bundled texts by scripts/measure_formats.py --ocr."""

from __future__ import annotations

import shutil
import subprocess

from indexer.errors import SourceError

#: Tesseract's language data by ISO 639-1 code (Debian: tesseract-ocr-eng, -por, -swe, -chi-sim).
LANGUAGES = {"en": "eng", "pt": "por", "sv": "swe", "zh": "chi_sim", "es": "spa",
             "fr": "fra", "de": "deu", "nl": "nld"}
#: Rendering resolution (tesseract reads print best at 300 dpi).
DPI = 300
#: Seconds one page may take.
PAGE_SECONDS = 120


def tesseract_languages(codes: list[str]) -> str:
    """Tesseract's `-l` argument for ISO 639-1 `codes` (an unknown code refused)."""
    unknown = [c for c in codes if c not in LANGUAGES]
    if unknown or not codes:
        raise SourceError(f"--ocr: give languages among {', '.join(sorted(LANGUAGES))} "
                          f"(not {', '.join(unknown) or 'none'})")
    return "+".join(LANGUAGES[c] for c in codes)


def _page_image(page) -> bytes:
    """The page rendered in grey at `DPI`, as a binary PGM image."""
    bitmap = page.render(scale=DPI / 72, grayscale=True)
    pixels = bitmap.to_numpy()
    if pixels.ndim == 3:  # (a renderer that keeps channels: take the first)
        pixels = pixels[:, :, 0]
    height, width = pixels.shape
    return f"P5\n{width} {height}\n255\n".encode("ascii") + pixels.tobytes()


def _read_page(tesseract: str, image: bytes, languages: str, path: str, number: int) -> str:
    try:
        done = subprocess.run([tesseract, "stdin", "stdout", "-l", languages], input=image,
                              capture_output=True, timeout=PAGE_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        raise SourceError(f"{path}: OCR of page {number} took over {PAGE_SECONDS} s") from None
    if done.returncode != 0:
        reason = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"])[0]
        raise SourceError(f"{path}: tesseract failed on page {number} ({reason}); check "
                          "that its language data is installed (tesseract --list-langs)")
    return done.stdout.decode("utf-8", "replace").replace("\f", "").strip("\n")


def ocr_pdf(data: bytes, path: str, codes: list[str]) -> str:
    """The text of the PDF `data` read by OCR in the languages `codes`."""
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
        pages = [_read_page(tesseract, _page_image(page), languages, path, number)
                 for number, page in enumerate(document, 1)]
    finally:
        document.close()
    if not any(p.strip() for p in pages):
        raise SourceError(f"{path}: OCR found no text")
    return "\n\n\f".join(pages) + "\n"
