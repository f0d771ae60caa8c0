"""`treaty cite`: citations written the way people write them land on the stored unit."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from indexer.errors import AmbiguousError
from indexer.pipeline import ingest
from search.citations import cite
from search.cli import main
from search.corpus import Corpus


@pytest.fixture(scope="module")
def corpus(ingested: Path):
    with Corpus(ingested) as c:
        yield c


@pytest.mark.parametrize(
    ("text", "treaty", "eid", "langs", "starts"),
    [
        ("Brazil–Peru Art. 10(2)(a)", "br-pe-2006", "art_10__para_2__point_a", ["en"],
         "a) 10"),
        ("br-pe-2006 art 10 para 2 (a)", "br-pe-2006", "art_10__para_2__point_a", ["en"],
         "a) 10"),
        ("Art. 10(2)(a) BR-PE", "br-pe-2006", "art_10__para_2__point_a", ["en"], "a) 10"),
        ("Artigo 10, parágrafo 2, alínea a) da Convenção Brasil–Colômbia", "br-co-2022",
         "art_10__para_2__point_a", ["pt"], "a) 10 por cento"),
        ("artikel VII § 2 avtalet Sverige–Brasilien", "br-se-1965", "art_7__para_2",
         ["sv", "en", "pt"], None),
        ("中国巴西协定第十条第二款", "br-cn-1991", "art_10__para_2", ["zh"], "二、"),
        ("br-pe-2006 Protocol 4", "br-pe-2006", "prot_4", ["en"], "4. With reference to"),
        ("议定书第二条 中国巴西", "br-cn-1991", "prot_2", ["zh"], "二、"),
        ("Portugal–Spain Article 10(2)(b)", "es-pt-1993", "art_10__para_2__point_b",
         ["en", "pt"], "b) 15%"),
    ],
)
def test_citation_forms_resolve(corpus: Corpus, text, treaty, eid, langs, starts) -> None:
    result = cite(corpus, text)
    assert result.treaty == treaty and result.eid == eid
    assert [u["lang"] for u in result.units] == langs
    for unit in result.units:
        assert unit["id"] == f"{treaty}/{unit['lang']}/{eid}"
        if starts:
            assert unit["text"].startswith(starts), unit["text"][:40]


def test_1965_versions_cite_the_same_provision(corpus: Corpus) -> None:
    units = cite(corpus, "br-se-1965 Art. III(1)").units
    assert [u["lang"] for u in units] == ["sv", "en", "pt"]
    assert "Utdelning" in units[0]["text"] and "Dividends" in units[1]["text"]
    assert "dividendos" in units[2]["text"].lower()


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_cli_json_contract(ingested: Path) -> None:
    result = run("cite", "Brazil–Peru Art. 10(2)(a)", "--json", "--data", str(ingested))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["treaty"], data["article"], data["paragraph"], data["point"]) == (
        "br-pe-2006", 10, 2, "a")
    assert {"id", "lang", "text", "raw"} <= set(data["units"][0])


def test_missing_article_says_what_exists(ingested: Path) -> None:
    result = run("cite", "br-pe-2006 Art. 40", "--data", str(ingested))
    assert result.exit_code == 1
    assert result.output == (
        "Error: br-pe-2006 has no article 40; it has articles 1–29\n")


def test_missing_paragraph_says_what_exists(ingested: Path) -> None:
    result = run("cite", "br-pe-2006 Art. 10(9)", "--data", str(ingested))
    assert result.exit_code == 1
    assert result.output.startswith("Error: br-pe-2006 art 10 has no paragraph 9; it has")
    assert result.output.count("\n") == 1


def test_unparseable_citation_is_one_line(ingested: Path) -> None:
    result = run("cite", "hello world", "--data", str(ingested))
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert "Traceback" not in result.output


def test_ambiguous_citation_lists_candidates(tmp_path: Path, corpus_dir: Path) -> None:
    src = corpus_dir / "portugal-spain-1993-art10.en-pt.txt"
    corp = tmp_path / "corpus"
    corp.mkdir()
    shutil.copy(src, corp / "a.txt")
    shutil.copy(src, corp / "b.txt")
    (corp / "manifest.toml").write_text(
        "".join(f'[[document]]\nfile = "{f}"\ntreaty = "{t}"\nparties = ["ES", "PT"]\n'
                f'languages = ["en", "pt"]\narticle = 10\n'
                for f, t in (("a.txt", "es-pt-1993"), ("b.txt", "es-pt-2020"))),
        encoding="utf-8")
    ingest(corp, tmp_path / "data")
    result = run("cite", "Portugal–Spain Art. 10(1)", "--data", str(tmp_path / "data"))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        ("Error: 'Portugal–Spain Art. 10(1)' matches 2 treaties: es-pt-1993, es-pt-2020; cite "
        "one by its id or add the year"),
        "  es-pt-1993 Art. 10(1)  Spain–Portugal (1993)  [en,pt]",
        "  es-pt-2020 Art. 10(1)  Spain–Portugal (2020)  [en,pt]"]
    ok = run("cite", "Portugal–Spain 2020 Art. 10(1)", "--data", str(tmp_path / "data"))
    assert ok.exit_code == 0 and "es-pt-2020/en/art_10__para_1" in ok.output


@pytest.mark.parametrize("text,treaty,eid", [
    ("中华人民共和国和巴西联邦共和国税收协定第五条第三款第（一）项", "br-cn-1991",
     "art_5__para_3__point_1"),
    ("Artigo III, parágrafo (1), Acordo Suécia Brasil", "br-se-1965", "art_3__para_1"),
    ("br-se-1965 7(2)", "br-se-1965", "art_7__para_2"),
    ("br-pe-2006 Protocol V", "br-pe-2006", "prot_5"),
])
def test_issue_18_citations_find_their_unit(ingested, text, treaty, eid):
    from search.citations import cite
    from search.corpus import Corpus

    with Corpus(ingested) as corpus:
        got = cite(corpus, text)
    assert (got.treaty, got.units[0]["eid"]) == (treaty, eid)


def test_ordinal_twin():
    from search.citations.lookup import ordinal_twin

    assert ordinal_twin("art_5__para_3__point_a") == "art_5__para_3__point_1"
    assert ordinal_twin("art_5__para_3__point_6") == "art_5__para_3__point_f"
    assert ordinal_twin("art_5__para_3") is None and ordinal_twin("art_5__point_ii") is None


def test_the_citation_language_picks_the_version_and_narrows_the_treaties(corpus: Corpus) -> None:
    """A citation written in Portuguese shows the Portuguese text first; one written in
    Chinese cites the one treaty with a Chinese version; a Portuguese one that four treaties
    could mean stays ambiguous."""
    units = cite(corpus, "Artigo III, parágrafo (1), Acordo Suécia Brasil").units
    assert units[0]["lang"] == "pt" and units[0]["text"].startswith("(1) Os dividendos")
    result = cite(corpus, "第十条第二款")
    assert (result.treaty, result.eid, result.units[0]["lang"]) == (
        "br-cn-1991", "art_10__para_2", "zh")
    with pytest.raises(AmbiguousError):
        cite(corpus, "Artigo 10, parágrafo 2")
