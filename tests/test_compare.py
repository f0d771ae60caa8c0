"""Side-by-side comparison, topic comparison, TMX/TSV exports and their CLI, on the bundled
corpus ingested once per session."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from search.cli import main
from search.compare import (
    article_eid,
    compare_article,
    compare_topic,
    display_width,
    render_columns,
    wrap,
)
from search.corpus import Corpus
from search.tmx import to_tmx, to_tsv

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


@pytest.fixture()
def corpus(ingested):
    with Corpus(ingested) as c:
        yield c


def run(ingested, *args):
    return CliRunner().invoke(main, [*args, "--data", str(ingested)])


@pytest.mark.parametrize("form", ["7", "VII", "vii", "art_7", "Article 7"])
def test_article_forms(form):
    assert article_eid(form) == "art_7"


def test_compare_json_contract(corpus):
    r = compare_article(corpus, "br-se-1965", "VII", ["sv", "en", "pt"])
    assert r["treaty"] == "br-se-1965" and r["article"] == 7
    assert r["langs"] == ["sv", "en", "pt"]
    row = r["rows"][0]
    assert row["eid"] == "art_7__para_1"
    assert set(row["cells"]) == {"sv", "en", "pt"}
    for lg, cell in row["cells"].items():
        assert cell["num"] == "1" and cell["text"], lg
    assert 0.9 <= row["score"] <= 1.0 and row["method"].startswith("number")
    assert "15 %" in row["cells"]["en"]["text"]
    assert [x["eid"] for x in r["rows"]][:3] == ["art_7__para_1", "art_7__para_2",
                                                 "art_7__para_3"]


def test_excerpt_rows_with_points(corpus):
    r = compare_article(corpus, "es-pt-1993", 10)
    eids = [(x["eid"], x["level"]) for x in r["rows"]]
    assert eids == [("art_10__para_1", "paragraph"), ("art_10__para_2", "paragraph"),
                    ("art_10__para_2__point_a", "point"), ("art_10__para_2__point_b", "point"),
                    ("art_10__para_2", "paragraph-tail"), ("art_10__para_3", "paragraph"),
                    ("art_10__para_4", "paragraph"), ("art_10__para_5", "paragraph")]
    assert all(x["cells"]["en"] and x["cells"]["pt"] for x in r["rows"])
    assert "15%" in r["rows"][3]["cells"]["pt"]["text"]


def test_gap_for_missing_counterpart(corpus):
    """A unit with no counterpart gets its own row with "—" in the other columns."""
    r = compare_article(corpus, "br-se-1965", 18)
    gaps = [x for x in r["rows"] if any(c is None for c in x["cells"].values())]
    text = render_columns(r, 120)
    if gaps:
        assert "—" in text


@pytest.mark.parametrize("width", [80, 160])
def test_columns_fit_and_align(corpus, width):
    r = compare_article(corpus, "br-se-1965", "III", ["sv", "en", "pt"])
    text = render_columns(r, width)
    lines = text.splitlines()
    assert all(display_width(x) <= width for x in lines)
    body = [x for x in lines[2:] if not x.startswith("──")]
    seps = {tuple(i for i, c in enumerate(x) if c == "│") for x in body if x.count("│") == 2}
    assert len(seps) == 1  # the column rules sit at the same place on every line
    assert "Utdelning" in text and "Dividends" in text and "dividendos" in text


def test_cjk_wrap_width():
    lines = wrap("中华人民共和国政府和巴西联邦共和国政府 dividends 协定", 10)
    assert all(display_width(x) <= 10 for x in lines)
    assert "".join(lines).replace(" ", "") == "中华人民共和国政府和巴西联邦共和国政府dividends协定"


def test_topic_dividends_every_treaty(corpus):
    r = compare_topic(corpus, "dividends")
    found = {(a["treaty"], a["lang"]): a["number"] for a in r["articles"]}
    assert found == {("br-pe-2006", "en"): 10, ("br-co-2022", "pt"): 10,
                     ("br-se-1965", "sv"): 3, ("br-se-1965", "en"): 3,
                     ("br-se-1965", "pt"): 3, ("br-cn-1991", "zh"): 10,
                     ("es-pt-1993", "en"): 10, ("es-pt-1993", "pt"): 10}
    en = compare_topic(corpus, "dividends", "en", ["br-pe-2006", "br-se-1965"])
    assert [(a["treaty"], a["number"]) for a in en["articles"]] == [("br-pe-2006", 10),
                                                                    ("br-se-1965", 3)]


def test_tmx_structure(corpus):
    root = ET.fromstring(to_tmx(corpus, "es-pt-1993", ["en", "pt"]).split("\n", 2)[2])
    assert root.tag == "tmx" and root.get("version") == "1.4"
    header = root.find("header")
    for attr in ("creationtool", "creationtoolversion", "segtype", "o-tmf", "adminlang",
                 "srclang", "datatype"):
        assert header.get(attr), attr
    assert header.get("srclang") == "en" and header.get("segtype") == "paragraph"
    tus = root.find("body").findall("tu")
    assert len(tus) == 8  # 5 paragraphs, 2 points, 1 paragraph text after its points
    eids = []
    for tu in tus:
        props = {p.get("type"): p.text for p in tu.findall("prop")}
        assert props["x-treaty"] == "es-pt-1993"
        eids.append(props["x-eid"])
        assert [t.get(XML_LANG) for t in tu.findall("tuv")] == ["en", "pt"]
        assert all(t.find("seg").text.strip() for t in tu.findall("tuv"))
    assert eids[:4] == ["art_10__para_1", "art_10__para_2", "art_10__para_2__point_a",
                        "art_10__para_2__point_b"]


def test_tmx_three_languages(corpus):
    root = ET.fromstring(to_tmx(corpus, "br-se-1965", ["sv", "en", "pt"]).split("\n", 2)[2])
    tus = root.find("body").findall("tu")
    full = [tu for tu in tus if len(tu.findall("tuv")) == 3]
    assert len(full) >= 50


def test_tsv(corpus):
    lines = to_tsv(corpus, "es-pt-1993", ["en", "pt"]).splitlines()
    assert lines[0] == "treaty\teid\tlevel\tscore\tmethod\ten\tpt"
    assert len(lines) == 9 and all(x.count("\t") == 6 for x in lines)


# -- CLI ---------------------------------------------------------------------------------------

def test_cli_compare_columns(ingested):
    res = run(ingested, "compare", "es-pt-1993", "10", "--width", "80")
    assert res.exit_code == 0, res.output
    assert all(len(x) <= 80 for x in res.output.splitlines())
    assert "art_10__para_2__point_a" in res.output


def test_cli_compare_json(ingested):
    import json

    res = run(ingested, "compare", "br-se-1965", "art_3", "--langs", "sv,pt", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["langs"] == ["sv", "pt"] and out["article"] == 3


def test_cli_compare_topic(ingested):
    res = run(ingested, "compare", "--topic", "dividends", "--lang", "en", "--width", "80")
    assert res.exit_code == 0, res.output
    assert "Brazil–Peru (2006) [en] Article 10" in res.output
    assert "Brazil–Sweden (1965) [en] Article III" in res.output


@pytest.mark.parametrize("args,message", [
    (["compare", "br-pe-2006", "40"], ("Error: br-pe-2006 has no article 40; "
                                      "br-pe-2006 has articles 1–29")),
    (["compare", "xx-yy-2000", "1"], "Error: no treaty 'xx-yy-2000'"),
    (["compare", "br-se-1965", "7", "--langs", "zh"], "Error: br-se-1965 has no 'zh' version"),
    (["compare", "--topic", "nonsense"], "Error: unknown topic 'nonsense'"),
    (["compare", "br-se-1965", "seven"], "Error: cannot read article 'seven'"),
])
def test_cli_errors_one_line(ingested, args, message):
    res = run(ingested, *args)
    assert res.exit_code == 1
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), res.output


def test_cli_align_report(ingested):
    res = run(ingested, "align-report", "br-se-1965", "--limit", "5")
    assert res.exit_code == 0, res.output
    scores = [float(x.split()[0]) for x in res.output.splitlines() if not x.startswith(" ")]
    assert len(scores) == 5 and scores == sorted(scores)


def test_cli_export_tmx(ingested, tmp_path):
    out = tmp_path / "es-pt.tmx"
    res = run(ingested, "export", "--format", "tmx", "--treaty", "es-pt-1993",
              "--langs", "en,pt", "--out", str(out))
    assert res.exit_code == 0, res.output
    assert ET.parse(out).getroot().find("header").get("srclang") == "en"
    res = run(ingested, "export", "--format", "tmx")
    assert res.exit_code == 2 and "--format tmx needs --treaty ID" in res.output
