"""No dead ends on the bundled corpus: an ambiguous citation names each candidate (CLI) and
links it (web); the OCR repairs of an article are shown in the terminal too
(`treaty compare --repairs`), as the web app's repair view lists them."""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

import pytest
from click.testing import CliRunner

from search.cli import main
from search.web import create_app

runner = CliRunner()


def run(data, *args: str):
    return runner.invoke(main, [*args, "--data", str(data)])


@pytest.fixture(scope="module")
def client(ingested):
    app = create_app(ingested)
    app.testing = True
    return app.test_client()


def test_an_ambiguous_citation_lists_the_candidates_by_name(ingested):
    out = run(ingested, "cite", "Brazil Art. 10")
    assert out.exit_code == 1
    assert out.output.splitlines() == [
        ("Error: 'Brazil Art. 10' matches 4 treaties: br-cn-1991, br-co-2022, br-pe-2006, "
        "br-se-1965; cite one by its id or add the year"),
        "  br-cn-1991 Art. 10  Brazil–China (1991)  [zh]",
        "  br-co-2022 Art. 10  Brazil–Colombia (2022)  [pt]",
        "  br-pe-2006 Art. 10  Brazil–Peru (2006)  [en]",
        "  br-se-1965 Art. 10  Brazil–Sweden (1965)  [sv,en,pt]",
    ]
    # written in Portuguese, the candidates are offered in Portuguese
    pt = run(ingested, "cite", "Artigo 10, parágrafo 2 Brasil").output.splitlines()
    assert pt[3] == "  br-pe-2006 Artigo 10, parágrafo 2  Brasil–Peru (2006)  [en]"
    # and each line cites one unit
    for line in out.output.splitlines()[1:]:
        citation = line.strip().split("  ")[0]
        assert run(ingested, "cite", citation, "--json").exit_code == 0


def test_an_ambiguous_citation_links_each_candidate(client):
    resp = client.get("/cite?q=Brazil+Art.+10(2)")
    assert resp.status_code == 400
    html = resp.get_data(as_text=True)
    links = re.findall(r'<li><a href="(/cite\?q=[^"]+)">([^<]+)</a> ([^<]+) <span', html)
    assert [(text, name) for _href, text, name in links] == [
        ("br-cn-1991 Art. 10(2)", "Brazil–China (1991)"),
        ("br-co-2022 Art. 10(2)", "Brazil–Colombia (2022)"),
        ("br-pe-2006 Art. 10(2)", "Brazil–Peru (2006)"),
        ("br-se-1965 Art. 10(2)", "Brazil–Sweden (1965)")]
    for href, _text, _name in links[:3]:  # br-se-1965 Art. 10 has no paragraph 2
        target = client.get(href.replace("&amp;", "&"))
        assert target.status_code == 303
        tid = unquote(href).split("=")[1].split("+")[0]
        assert target.headers["Location"] == f"/t/{tid}/art_10#art_10__para_2"
    api = client.get("/api/cite?q=Brazil+Art.+10").get_json()
    assert [c["treaty"] for c in api["candidates"]] == [
        "br-cn-1991", "br-co-2022", "br-pe-2006", "br-se-1965"]


def test_repairs_in_the_terminal(ingested):
    out = run(ingested, "compare", "br-se-1965", "7", "--repairs", "--langs", "en")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[:4] == [
        "[en] br-se-1965 art_7: 2 OCR repairs",
        "  br-se-1965 Art. 7(1)  ocr-letters  tlius → thus",
        ("      …t during which period of time Brazil is [thus] entitled to apply the tax on "
        "royalties…"),
        "      'tlius' not a en word; 'thus' (zipf 4.9) via OCR confusion",
    ]
    whole = json.loads(run(ingested, "compare", "br-se-1965", "7", "--repairs", "--json").output)
    counts = {lg: len(items) for lg, items in whole["repairs"].items()}
    assert counts == {"sv": 0, "en": 2, "pt": 39}
    assert {(r["before"], r["after"]) for r in whole["repairs"]["pt"]} >= {
        ("roj’alties", "royalties"), ("disposbjöes", "disposições"), ("impösto", "impôsto")}


def test_repairs_match_the_web_repair_view(ingested, client):
    whole = json.loads(run(ingested, "compare", "br-se-1965", "7", "--repairs", "--json").output)
    html = client.get("/t/br-se-1965/art_7?view=diff").get_data(as_text=True)
    for lang, items in whole["repairs"].items():
        n = len(items)
        assert f"{'Svenska' if lang == 'sv' else {'en': 'English', 'pt': 'Português'}[lang]}: " \
               f"{n} repair{'' if n == 1 else 's'}" in html


def test_repairs_of_a_missing_article_is_one_line(ingested):
    out = run(ingested, "compare", "br-se-1965", "40", "--repairs")
    assert out.exit_code == 1 and out.output == "Error: br-se-1965 has no art 40 in sv, en, pt\n"
