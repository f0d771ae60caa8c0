"""Exports on the bundled corpus: one article (`treaty export --article`) as text, JSON lines,
TMX and a side-by-side table; a comparison and a topic page as CSV and DOCX, every cell with
its citation and source line; a translation memory in the languages asked for, refused with
a message where there is no pair; the same from the web app's download links."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner
from docx import Document

from search.cli import main
from search.web import create_app

runner = CliRunner()
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def run(data, *args: str):
    return runner.invoke(main, [*args, "--data", str(data)])


@pytest.fixture(scope="module")
def client(ingested):
    app = create_app(ingested)
    app.testing = True
    return app.test_client()


# --- one article -----------------------------------------------------------------------------


def test_one_article_as_text_with_citation_and_source_line(ingested):
    out = run(ingested, "export", "--treaty", "br-pe-2006", "--article", "10", "--format", "txt")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[:4] == ["br-pe-2006 Art. 10 [en] — Brazil–Peru (2006)",
                         "Source: brazil-peru-2006.en.txt, lines 106–117", "", "ARTICLE 10"]
    assert "beneficial owner of the dividends" in out.output
    assert "ARTICLE 11" not in out.output  # the next article is not in it


def test_one_article_as_json_lines_one_record_per_version(ingested):
    out = run(ingested, "export", "--treaty", "br-se-1965", "--article", "VII")
    records = [json.loads(x) for x in out.output.splitlines()]
    assert [r["id"] for r in records] == ["br-se-1965/sv/art_7", "br-se-1965/en/art_7",
                                          "br-se-1965/pt/art_7"]
    assert [len(r["paragraphs"]) for r in records] == [3, 3, 3]


def test_an_article_the_treaty_lacks_says_what_it_has(ingested):
    out = run(ingested, "export", "--treaty", "br-se-1965", "--article", "99", "--format", "txt")
    assert out.exit_code == 1
    assert out.output.startswith("Error: br-se-1965 has no unit 'art_99' (it has: other_1, "
                                 "title, preamble, art_1, art_2")


# --- translation memories ------------------------------------------------------------------


def _tuvs(tmx: str) -> list[list[str]]:
    root = ET.fromstring(tmx.split("\n", 2)[2])
    return [[tuv.get(XML_LANG) for tuv in tu.findall("tuv")] for tu in root.iter("tu")]


def test_tmx_follows_the_languages_asked_for(ingested):
    out = run(ingested, "export", "--format", "tmx", "--treaty", "br-se-1965",
              "--langs", "english,sueco", "--article", "7")
    assert out.exit_code == 0, out.output
    assert 'srclang="en"' in out.output
    tuvs = _tuvs(out.output)
    assert len(tuvs) == 3 and all(t == ["en", "sv"] for t in tuvs)  # article 7's 3 paragraphs


@pytest.mark.parametrize("args,line", [
    (["--treaty", "br-pe-2006"], ("Error: br-pe-2006 has one language version (en): a "
                                 "translation memory pairs two; export it as jsonl, txt, "
                                 "docx or csv instead")),
    (["--treaty", "br-se-1965", "--langs", "pt"], ("Error: a translation memory pairs two "
                                                  "languages or more; br-se-1965 has sv, "
                                                  "en, pt (e.g. --langs sv,en)")),
])
def test_no_pair_no_translation_memory(ingested, args, line):
    for fmt in ("tmx", "tsv"):
        out = run(ingested, "export", "--format", fmt, *args)
        assert out.exit_code == 1 and out.output == line + "\n"


# --- a comparison and a topic as CSV and DOCX ---------------------------------------------


def test_comparison_as_csv_every_cell_with_citation_and_source(ingested):
    out = run(ingested, "compare", "br-se-1965", "7", "--langs", "sv,en", "--format", "csv")
    rows = list(csv.reader(io.StringIO(out.output)))
    assert rows[0] == ["br-se-1965 Art. 7 — Brazil–Sweden (1965)"]
    assert rows[1][0].startswith("Source: br-se-1965: Agreement between Sweden and Brazil")
    assert rows[1][0].endswith("(sweden-brazil-1965.sv-en-pt.txt)")
    assert rows[2][1::3] == ["sv · Svenska: citation", "en · English: citation"]
    body = rows[3:]
    assert len(body) == 3
    assert [r[1] for r in body] == [r[4] for r in body] == [
        "br-se-1965 Art. 7(1)", "br-se-1965 Art. 7(2)", "br-se-1965 Art. 7(3)"]
    assert body[1][0].startswith("§ 2. Med uttrycket »royalty»")
    assert body[1][3].startswith("(2) In this Article, the term “royalty” means")
    assert body[1][2] == "sweden-brazil-1965.sv-en-pt.txt, lines 728–739"
    assert body[1][5] == "sweden-brazil-1965.sv-en-pt.txt, lines 783–793"


def test_comparison_as_docx(ingested, tmp_path):
    target = tmp_path / "art7.docx"
    out = run(ingested, "compare", "br-se-1965", "7", "--format", "docx", "--out", str(target))
    assert out.exit_code == 0, out.output
    doc = Document(str(target))
    assert doc.paragraphs[0].text == "br-se-1965 Art. 7 — Brazil–Sweden (1965)"
    assert doc.paragraphs[1].text.startswith("Source: br-se-1965: Agreement between Sweden")
    table = doc.tables[0]
    assert [c.text for c in table.rows[0].cells] == [
        "sv · Svenska", "en · English", "pt · Português"]
    assert len(table.rows) == 4  # the heads and article 7's three paragraphs
    cell = table.rows[2].cells[1]
    assert cell.paragraphs[0].text.startswith("(2) In this Article, the term “royalty”")
    assert cell.paragraphs[1].text == ("br-se-1965 Art. 7(2) · sweden-brazil-1965.sv-en-pt.txt, "
                                       "lines 783–793")
    assert doc.sections[0].page_width > doc.sections[0].page_height  # three columns: landscape


def test_topic_as_csv_and_docx(ingested, tmp_path):
    out = run(ingested, "compare", "--topic", "dividends", "--format", "csv")
    rows = list(csv.reader(io.StringIO(out.output)))
    assert rows[0] == ["Dividends: the provision in 5 treaties"]
    assert rows[2][1::3] == [f"{h}: citation" for h in (
        "br-cn-1991 Art. 10 (zh)", "br-co-2022 Art. 10 (pt)", "br-pe-2006 Art. 10 (en)",
        "br-se-1965 Art. 3 (sv)", "es-pt-1993 Art. 10 (en)")]
    cites = {c for r in rows[3:] for c in r[1::3] if c}
    assert {"br-pe-2006 Art. 10(2)", "br-cn-1991 Art. 10(2)", "br-co-2022 Art. 10(2)"} <= cites
    target = tmp_path / "dividends.docx"
    run(ingested, "compare", "--topic", "dividends", "--lang", "en", "--format", "docx",
        "--out", str(target))
    doc = Document(str(target))
    assert [c.text for c in doc.tables[0].rows[0].cells][2:4] == [
        "br-pe-2006 Art. 10 (en)", "br-se-1965 Art. 3 (en)"]


# --- the web app's downloads ---------------------------------------------------------------


def test_web_tmx_follows_the_languages_chosen(client):
    resp = client.get("/download/br-se-1965.tmx?article=art_7&lang=pt&lang=en")
    assert resp.status_code == 200
    assert resp.headers["Content-Disposition"] == (
        'attachment; filename="br-se-1965-art_7-pt-en.tmx"')
    tuvs = _tuvs(resp.get_data(as_text=True))
    assert len(tuvs) == 3 and all(t == ["pt", "en"] for t in tuvs)
    page = client.get("/t/br-se-1965/art_7?lang=sv&lang=en").get_data(as_text=True)
    assert 'href="/download/br-se-1965.tmx?article=art_7&amp;lang=sv&amp;lang=en"' in page


def test_web_no_pair_no_tmx(client):
    resp = client.get("/download/br-pe-2006.tmx")
    assert resp.status_code == 400
    assert "br-pe-2006 has one language version (en)" in resp.get_data(as_text=True)
    page = client.get("/t/br-pe-2006").get_data(as_text=True)
    assert "/download/br-pe-2006.tmx" not in page and "/download/br-pe-2006.jsonl" in page


def test_web_article_and_topic_as_docx_and_csv(client):
    one = client.get("/download/br-se-1965.csv?article=art_7&lang=english")
    rows = list(csv.reader(io.StringIO(one.get_data(as_text=True))))
    assert rows[2] == ["en · English", "en · English: citation", "en · English: source"]
    assert len(rows) == 6
    word = client.get("/download/br-se-1965.docx?article=art_7")
    assert word.mimetype.endswith("wordprocessingml.document")
    assert len(Document(io.BytesIO(word.data)).tables[0].rows) == 4
    topic = client.get("/download/topic/dividends.docx")
    assert Document(io.BytesIO(topic.data)).paragraphs[0].text == (
        "Dividends: the provision in 5 treaties")
    page = client.get("/topic/dividends").get_data(as_text=True)
    assert 'href="/download/topic/dividends.docx"' in page
    assert client.get("/download/topic/dividends.tmx").status_code == 400
