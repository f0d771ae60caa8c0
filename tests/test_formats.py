"""Source formats found by content: whole HTML pages, PDFs with a text layer (two columns,
running headers, page numbers) and Word files with automatic numbering give the same articles
as the plain text they were made from; a PDF without text says to run OCR; `treaty add`."""

from __future__ import annotations

import io
import re
import shutil
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.errors import SourceError
from indexer.models import DocMeta
from indexer.pipeline.document import process
from indexer.sources.formats import page_of
from indexer.sources.formats.html import main_text
from indexer.sources.formats.pdf import NO_TEXT
from indexer.sources.read import decode
from search.cli import main

sys.path.insert(0, str(Path(__file__).parent))
import render_formats as render

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
WILD = ROOT.parent / "shared" / "corpus-wild"
#: The whole pages of corpus-wild/html and the text file extracted from each (SOURCES.md).
PAGES = {"3661": "ch-se-1965", "3853": "kr-se-1981", "3251": "gm-se-1993",
         "2388": "cl-se-2004", "1245": "ge-se-2013"}
#: Bundled texts rendered as PDF and Word files (Latin script: the PDF's standard font).
RENDERED = {"brazil-peru-2006.en.txt": ("en",), "brazil-colombia-2022.pt.txt": ("pt",)}


def articles(decoded, langs=()):
    """(language, eId, title, text with white space collapsed) of each article."""
    doc, _removed = process(decoded, DocMeta(file=decoded.path, treaty="xx-yy-2000",
                                             languages=tuple(langs)), topics=False)
    return [(v.lang, u.eid, u.title, " ".join(u.text.split()))
            for v in doc.versions for u in v.units if u.kind == "article"]


def _wild(path: Path) -> bytes:
    if not path.exists():
        pytest.skip("shared/corpus-wild is not beside the project")
    return path.read_bytes()


# --- HTML ------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", sorted(PAGES))
def test_whole_html_page_gives_the_articles_of_its_text(number):
    page = decode(_wild(WILD / "html" / f"sfs-cache-{number}.html"), "page.html")
    text = decode(_wild(WILD / "sv" / f"{PAGES[number]}.txt"), "page.txt")
    assert page.format == "html" and text.format == "text"
    assert "&#" not in page.text and "<div" not in page.text
    got, want = articles(page, ("sv",)), articles(text, ("sv",))
    assert len(want) > 10 and got == want


PAGE = """<!DOCTYPE html><html><head><title>Site</title><script>var x = "Article 9";</script>
<style>p {color: red}</style></head><body>
<header><a href="/">Home</a> Statute database of somewhere, a long banner text here</header>
<nav><ul><li><a href="/a">Article 1</a></li><li><a href="/b">Article 2</a></li></ul></nav>
<div class="x"><div class="y">Issued: 2001</div>
<article><h2>Article&nbsp;1</h2><p>Tax on <b>income</b>
 of residents&#8217; companies,<br>with a line break.<sup><a href="#n1">1</a></sup></p>
<p>Done on the 8<sup>th</sup> day.</p>
<ol type="a"><li>first point;</li><li>second point.</li></ol>
<table><tr><td>Dividends</td><td>15%</td></tr></table>
<p>A long paragraph that carries most of the text of this page, so that the article is the
block holding most of the text and is chosen over the rest of the page around it.</p>
</article></div>
<footer>Contact us at the ministry, every weekday from nine to five.</footer></body></html>"""


def test_html_main_block_and_its_lines():
    text = main_text(PAGE)
    assert text.splitlines() == [
        "Article\xa01", "",
        "Tax on income of residents\u2019 companies,", "with a line break.", "",
        "Done on the 8th day.", "",
        "a. first point;", "b. second point.", "",
        "Dividends\t15%", "",
        ("A long paragraph that carries most of the text of this page, so that the article is "
         "the block holding most of the text and is chosen over the rest of the page around "
         "it."),
    ]


def test_xhtml_found_by_content_and_markdown_with_a_tag_is_text():
    xhtml = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html xmlns='
             '"http://www.w3.org/1999/xhtml"><body><p>Article 1</p><p>Scope of the text.</p>'
             '</body></html>')
    decoded = decode(xhtml.encode("utf-8"), "named.txt")
    assert decoded.format == "html"
    assert decoded.text == "Article 1\n\nScope of the text.\n"
    markdown = decode(b'<meta http-equiv="x">\n### Article 1\nText 8<sup>th</sup>.\n', "a.txt")
    assert markdown.format == "text" and "<sup>" in markdown.text


def test_html_declared_charset_is_taken():
    page = '<html><head><meta charset="windows-1251"></head><body><p>Статья 1</p></body></html>'
    assert decode(page.encode("cp1251"), "p.html").text == "Статья 1\n"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                        min_size=1, max_size=30), min_size=1, max_size=5))
def test_html_paragraph_text_comes_back_collapsed(paragraphs):
    from html import escape

    page = "<html><body>" + "".join(f"<p>{escape(p)}</p>" for p in paragraphs) + "</body></html>"
    # (HTML collapses ASCII white space only: a no-break space is text)
    want = [" ".join(words) for p in paragraphs if (words := re.split(r"[ \t\n\r\f]+", p))
            and (words := [w for w in words if w])]
    got = [line for line in main_text(page).split("\n") if line]
    assert got == want


# --- PDF and Word ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RENDERED))
def test_two_column_pdf_gives_the_articles_of_its_text(name):
    source = decode((CORPUS / name).read_bytes(), name)
    header = "Convention for the avoidance of double taxation"
    pdf = decode(render.pdf_two_columns(source.text, header), "treaty.pdf")
    assert pdf.format == "pdf" and "\f" in pdf.text and len(pdf.pages) > 3
    got, want = articles(pdf, RENDERED[name]), articles(source, RENDERED[name])
    assert len(want) > 20 and got == want
    assert not any(header in a[3] or "- 2 -" in a[3] for a in got)


@pytest.mark.skipif(not Path(render.HAN_FONT).exists(), reason="fonts-wqy-microhei missing")
def test_chinese_pdf_gives_the_articles_of_its_text():
    """Han text justified in its column comes as runs spaced apart, its punctuation's glyphs
    small and low, and its lines wrapped at the column's edge with no space to wrap at."""
    name = "china-brazil-1991.zh.txt"
    source = decode((CORPUS / name).read_bytes(), name)
    pdf = decode(render.pdf_two_columns(source.text, "中华人民共和国政府和巴西联邦共和国政府协定",
                                        columns=1), "zh.pdf")
    got, want = articles(pdf, ("zh",)), articles(source, ("zh",))
    assert len(want) > 20 and got == want


def test_pdf_pages_of_units():
    source = decode((CORPUS / "brazil-peru-2006.en.txt").read_bytes(), "t.txt")
    pdf = decode(render.pdf_two_columns(source.text, "Running title"), "t.pdf")
    doc, _ = process(pdf, DocMeta(file="t.pdf", treaty="br-pe-2006", languages=("en",)),
                     topics=False)
    assert doc.format == "pdf" and doc.pages == pdf.pages
    pages = [page_of(doc.pages, u.start) for u in doc.versions[0].units if u.kind == "article"]
    # (the last page holds the signatures only)
    assert pages[0] == 1 and pages == sorted(pages) and pages[-1] == len(pdf.pages) - 1
    lines = pdf.text.split("\n")
    assert all(lines[p - 1].startswith("\f") for p in pdf.pages[1:])


@pytest.mark.parametrize("name", sorted(RENDERED))
def test_word_file_with_automatic_numbering_gives_the_articles_of_its_text(name):
    import docx

    source = decode((CORPUS / name).read_bytes(), name)
    data = render.docx_numbered(source.text)
    plain = [p.text for p in docx.Document(io.BytesIO(data)).paragraphs]
    assert "" in plain and not any(t.upper().startswith(("ARTICLE 5", "ARTIGO 5")) for t in plain)
    word = decode(data, "treaty.docx")
    assert word.format == "docx"
    got, want = articles(word, RENDERED[name]), articles(source, RENDERED[name])
    assert len(want) > 20 and got == want


def test_pdf_without_text_layer_is_one_line():
    with pytest.raises(SourceError) as err:
        decode(render.pdf_image_only(), "scan.pdf")
    assert str(err.value) == f"scan.pdf: {NO_TEXT}"


def test_other_containers_are_refused_in_one_line():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("a.txt", "x")
    for data, word in ((buf.getvalue(), "ZIP archive"),
                       (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, ".doc")):
        with pytest.raises(SourceError) as err:
            decode(data, "f.bin")
        assert word in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(SourceError, match="not a readable PDF"):
        decode(b"%PDF-1.4\nbroken", "b.pdf")


# --- treaty add ------------------------------------------------------------------------------


def test_treaty_add_dry_run_then_add_and_ingest(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    source = decode((CORPUS / "brazil-peru-2006.en.txt").read_bytes(), "t.txt")
    pdf = tmp_path / "peru.pdf"
    pdf.write_bytes(render.pdf_two_columns(source.text, "Running title"))
    data = tmp_path / "data"
    dry = CliRunner().invoke(main, ["add", "--corpus", str(corpus), "--data", str(data),
                                    "--parties", "br,pe", "--dry-run", str(pdf)])
    assert dry.exit_code == 0, dry.output
    assert "pdf, copied as peru.pdf" in dry.output and "given: parties=BR,PE" in dry.output
    assert "guessed: treaty=br-pe-2006; signed=2006-02-17" in dry.output
    assert not list(corpus.iterdir()) and not data.exists()
    done = CliRunner().invoke(main, ["add", "--corpus", str(corpus), "--data", str(data),
                                     "--parties", "BR,PE", str(pdf)])
    assert done.exit_code == 0, done.output
    assert (corpus / "peru.pdf").read_bytes() == pdf.read_bytes()
    assert 'file = "peru.pdf"\nparties = ["BR", "PE"]' in (corpus / "manifest.toml").read_text()
    again = CliRunner().invoke(main, ["add", "--corpus", str(corpus), "--dry-run", str(pdf)])
    assert again.exit_code == 1 and again.output.strip() == (
        "Error: peru.pdf: already in the corpus manifest")
    from search.web import create_app

    client = create_app(data).test_client()
    html = client.get("/t/br-pe-2006").get_data(as_text=True)
    shown = {int(n) for n in re.findall(r"p\. (\d+)</span>", html)}
    assert "(PDF, " in html and shown == set(range(1, 11))  # (10 pages)


def test_treaty_add_refuses_bad_options_and_image_pdf(tmp_path):
    pdf = tmp_path / "scan.pdf"
    pdf.write_bytes(render.pdf_image_only())
    bad = CliRunner().invoke(main, ["add", "--corpus", str(tmp_path), "--signed", "May 2006",
                                    str(pdf)])
    assert bad.exit_code == 1 and "signed must be a date" in bad.output
    scan = CliRunner().invoke(main, ["add", "--corpus", str(tmp_path), "--dry-run", str(pdf)])
    assert scan.exit_code == 1
    assert scan.output.strip().endswith(f"scan.pdf: {NO_TEXT}")
    assert len(scan.output.strip().splitlines()) == 1


# --- OCR (opt-in) ----------------------------------------------------------------------------

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None,
                                     reason="tesseract-ocr is not installed")


@needs_tesseract
def test_ocr_of_a_scanned_page_gives_its_articles(tmp_path):
    from indexer.sources.formats.ocr import ocr_pdf

    source = decode((CORPUS / "brazil-peru-2006.en.txt").read_bytes(), "t.txt")
    layer = render.pdf_two_columns(source.text, "Running title", columns=1)
    scan = render.pdf_scanned(layer, [0], dpi=300)
    with pytest.raises(SourceError, match=NO_TEXT):
        decode(scan, "scan.pdf")
    text = ocr_pdf(scan, "scan.pdf", ["en"])
    first_page = decode(layer, "l.pdf").text.split("\f")[0]
    got = [a[:3] for a in articles(decode(text.encode(), "o.txt"), ("en",))]
    want = [a[:3] for a in articles(decode(first_page.encode(), "l.txt"), ("en",))]
    assert len(want) >= 3 and got == want  # (numbers and titles; the text may differ a little)
    pdf = tmp_path / "scan.pdf"
    pdf.write_bytes(scan)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    out = CliRunner().invoke(main, ["add", "--corpus", str(corpus), "--ocr", "en", str(pdf),
                                    "--data", str(tmp_path / "data")])
    assert out.exit_code == 0, out.output
    assert "pdf, OCR, written as scan.ocr.txt" in out.output
    assert (corpus / "scan.ocr.txt").read_text() == text
    words = (corpus / "scan.ocr.tsv").read_text().splitlines()  # (confidences kept beside it)
    assert words[0].endswith("\tconf\ttext") and len(words) > len(text.split()) / 2
    assert 'note = "OCR by tesseract (en) of scan.pdf"' in (corpus / "manifest.toml").read_text()
    assert not (corpus / "scan.pdf").exists()


def test_ocr_refused_in_one_line_without_tesseract_or_with_an_unknown_language(tmp_path,
                                                                              monkeypatch):
    pdf = tmp_path / "scan.pdf"
    pdf.write_bytes(render.pdf_image_only())
    unknown = CliRunner().invoke(main, ["add", "--corpus", str(tmp_path), "--ocr", "xx",
                                        "--dry-run", str(pdf)])
    assert unknown.exit_code == 1 and "--ocr: give languages among" in unknown.output
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    missing = CliRunner().invoke(main, ["add", "--corpus", str(tmp_path), "--ocr", "en",
                                        "--dry-run", str(pdf)])
    assert missing.exit_code == 1
    assert missing.output.strip().endswith("tesseract not found; install tesseract-ocr and "
                                           "its language data, or run OCR first, e.g. ocrmypdf")


def test_a_plain_text_with_form_feeds_has_pages():
    decoded = decode(b"Article 1\nText.\n\fArticle 2\nMore.\n\fArticle 3\n", "p.txt")
    assert decoded.format == "text" and decoded.pages == (1, 3, 5)
    assert [page_of(decoded.pages, n) for n in (1, 2, 3, 4, 5)] == [1, 1, 2, 2, 3]
    assert decode(b"no pages\n", "n.txt").pages == () and page_of((), 3) is None
