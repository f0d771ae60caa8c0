"""The readers of source formats compared on speed and on article agreement.

    python scripts/measure_formats.py            # bundled Latin-script texts + corpus-wild
    python scripts/measure_formats.py --quick    # the two bundled texts only
    python scripts/measure_formats.py --ocr 3    # OCR (tesseract) of the first 3 pages

PDF: each text is rendered by reportlab (tests/render_formats.py) in two columns with a running
header and page numbers, and in one column; each library's text (pages separated by form
feeds) goes through the pipeline, and its articles are compared with the articles of the
text itself: the share of articles equal (number, title and text, white space collapsed).
Libraries: pypdfium2 as `indexer.sources.formats.pdf` uses it (text runs put into lines and
columns), pypdfium2's plain page text (`get_text_range`), pdfminer.six's `extract_text`
(its default layout analysis) and pdfplumber's `extract_text`. HTML: the whole pages of
corpus-wild/html against their text files, with lxml (the reader) and, for the parse alone,
the standard library's html.parser. DOCX: python-docx on the Word files of
`render_formats.docx_numbered`. Seconds are wall time in this process (best of 3), per page
for PDFs. OCR: the first pages of each PDF rasterised at 300 dpi into an image-only PDF
(`render_formats.pdf_scanned`) and read by `formats.ocr`; compared with the text layer of the
same pages: characters (rapidfuzz's normalised Indel similarity, white space collapsed), the
articles equal (the last one, cut by the page end, included) and the articles whose number and
title are equal.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for where in (ROOT, ROOT / "tests"):
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))

import render_formats as render

from indexer.models import Decoded, DocMeta
from indexer.pipeline.document import process
from indexer.sources.read import decode

WILD = ROOT.parent / "shared" / "corpus-wild"
BUNDLED = {"brazil-peru-2006.en.txt": "en", "brazil-colombia-2022.pt.txt": "pt",
           "china-brazil-1991.zh.txt": "zh"}
#: corpus-wild texts (Latin script, in the PDF's standard font) measured besides.
WILD_TEXTS = {"sv/kr-se-1981.txt": "sv", "sv/bo-se-1994.txt": "sv", "en/gb-nl-2013.txt": "en",
              "en/im-nl-2005.txt": "en"}
PAGES = {"3661": "ch-se-1965", "3853": "kr-se-1981", "3251": "gm-se-1993",
         "2388": "cl-se-2004", "1245": "ge-se-2013"}


def articles(text: str, lang: str) -> list[tuple]:
    decoded = Decoded(path="x", text=text, encoding="utf-8", sha256="")
    doc, _ = process(decoded, DocMeta(file="x", treaty="xx-yy-2000", languages=(lang,)),
                     topics=False)
    return [(u.eid, u.title, " ".join(u.text.split()))
            for v in doc.versions for u in v.units if u.kind == "article"]


def agreement(got: list[tuple], want: list[tuple]) -> float:
    same = len(set(got) & set(want))
    return same / max(len(want), 1)


def best_of(fn: Callable[[], str], n: int = 3) -> tuple[str, float]:
    out, best = "", float("inf")
    for _ in range(n):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return out, best


def _pdfium_ours(data: bytes) -> str:
    return decode(data, "x.pdf").text


def _pdfium_plain(data: bytes) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(data)
    pages = [page.get_textpage().get_text_range().replace("\r\n", "\n") for page in doc]
    return "\n\n\f".join(pages)


def _pdfminer(data: bytes) -> str:
    from pdfminer.high_level import extract_text

    return extract_text(io.BytesIO(data)).replace("\f", "\n\f")


def _pdfplumber(data: bytes) -> str:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return "\n\n\f".join(page.extract_text() or "" for page in pdf.pages)


READERS = {"pypdfium2 (reader)": _pdfium_ours, "pypdfium2 plain": _pdfium_plain,
           "pdfminer.six": _pdfminer, "pdfplumber": _pdfplumber}


def _page_count(data: bytes) -> int:
    import pypdfium2 as pdfium

    return len(pdfium.PdfDocument(data))


def measure_pdf(texts: dict[Path, str], columns: int) -> None:
    totals = {name: [0.0, 0, 0.0] for name in READERS}  # seconds, pages, agreement sum
    for path, lang in texts.items():
        source = decode(path.read_bytes(), path.name).text
        want = articles(source, lang)
        data = render.pdf_two_columns(source, "Convention for the avoidance of double "
                                      "taxation", columns=columns)
        pages = _page_count(data)
        for name, reader in READERS.items():
            text, seconds = best_of(lambda r=reader, d=data: r(d))
            share = agreement(articles(text, lang), want)
            totals[name][0] += seconds
            totals[name][1] += pages
            totals[name][2] += share
            print(f"  {path.name:32} {columns} col {name:20} {seconds / pages * 1000:7.1f} "
                  f"ms/page  {share:6.1%} of {len(want)} articles")
    print(f"PDF, {columns} column(s), {len(texts)} texts:")
    for name, (seconds, pages, share) in totals.items():
        print(f"  {name:20} {seconds / pages * 1000:7.1f} ms/page   articles equal "
              f"{share / len(texts):6.1%}")


def measure_html() -> None:
    from html.parser import HTMLParser

    import lxml.html

    from indexer.sources.formats.html import main_text

    rows = []
    for number, name in PAGES.items():
        page_path = WILD / "html" / f"sfs-cache-{number}.html"
        if not page_path.exists():
            print("HTML: corpus-wild/html not found")
            return
        raw = page_path.read_bytes()
        text = raw.decode("utf-8")
        want = articles(decode((WILD / "sv" / f"{name}.txt").read_bytes(), "t").text, "sv")
        as_text = articles(text, "sv")  # what reading the page as text gave
        got, seconds = best_of(lambda t=text: main_text(t))
        _, lxml_parse = best_of(lambda r=raw: lxml.html.document_fromstring(r))
        _, std_parse = best_of(lambda t=text: HTMLParser().feed(t))
        rows.append((name, seconds, lxml_parse, std_parse, agreement(articles(got, "sv"), want),
                     agreement(as_text, want), len(want)))
    print("HTML, corpus-wild/html pages:")
    for name, seconds, lx, std, share, before, n in rows:
        print(f"  {name:14} reader {seconds * 1000:6.1f} ms (lxml parse {lx * 1000:5.1f} ms, "
              f"html.parser {std * 1000:5.1f} ms)  articles equal {share:6.1%} of {n} "
              f"(read as text: {before:6.1%})")


def measure_docx(texts: dict[Path, str]) -> None:
    print("DOCX (python-docx), automatic numbering:")
    for path, lang in texts.items():
        source = decode(path.read_bytes(), path.name).text
        data = render.docx_numbered(source)
        text, seconds = best_of(lambda d=data: decode(d, "x.docx").text)
        share = agreement(articles(text, lang), articles(source, lang))
        print(f"  {path.name:32} {seconds * 1000:7.1f} ms  articles equal {share:6.1%}")


def _first_pages(data: bytes, n: int) -> bytes:
    import pypdfium2 as pdfium

    source = pdfium.PdfDocument(data)
    out = pdfium.PdfDocument.new()
    out.import_pages(source, list(range(min(n, len(source)))))
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()


def measure_ocr(texts: dict[Path, str], pages: int) -> None:
    from rapidfuzz.distance import Indel

    from indexer.sources.formats.ocr import ocr_pdf

    print(f"OCR (tesseract, 300 dpi), first {pages} pages:")
    for columns in (1, 2):
        for path, lang in texts.items():
            source = decode(path.read_bytes(), path.name).text
            layer = _first_pages(render.pdf_two_columns(source, "Convention for the "
                                                        "avoidance of double taxation",
                                                        columns=columns), pages)
            want_text = decode(layer, "x.pdf").text
            scan = render.pdf_scanned(layer, dpi=300)
            t0 = time.perf_counter()
            got_text = ocr_pdf(scan, "scan.pdf", [lang])
            seconds = time.perf_counter() - t0
            similar = Indel.normalized_similarity(" ".join(want_text.split()),
                                                  " ".join(got_text.split()))
            got, want = articles(got_text, lang), articles(want_text, lang)
            heads = agreement([a[:2] for a in got], [a[:2] for a in want])
            print(f"  {path.name:32} {columns} col {seconds / pages:6.1f} s/page  characters "
                  f"{similar:6.1%}  articles equal {agreement(got, want):6.1%}  numbers and "
                  f"titles equal {heads:6.1%} of {len(want)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="the bundled texts only")
    parser.add_argument("--ocr", type=int, default=0, metavar="PAGES",
                        help="only measure OCR, on the first PAGES pages of each text")
    args = parser.parse_args()
    texts = {ROOT / "corpus" / name: lang for name, lang in BUNDLED.items()}
    if not args.quick:
        texts.update({WILD / name: lang for name, lang in WILD_TEXTS.items()
                      if (WILD / name).exists()})
    if args.ocr:
        measure_ocr({p: lg for p, lg in texts.items() if p.name in (
            "brazil-peru-2006.en.txt", "brazil-colombia-2022.pt.txt", "kr-se-1981.txt")},
            args.ocr)
        return
    measure_html()
    measure_docx(texts)
    for columns in (2, 1):
        measure_pdf(texts, columns)


if __name__ == "__main__":
    main()
