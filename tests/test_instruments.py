"""A treaty is a stack of instruments (issue 29): amending clauses read into operations
(Hypothesis draws them in en, pt and sv as real protocols word them), and the protocols
written for this issue (tests/cases/instruments/) applied to the bundled treaties, in the
same file as the treaty and in a file of their own: each amended article's consolidated
text (start, end, paragraphs) with its instrument, the original still readable, the
understandings kept aside, and the rates after the amendment and before it."""

from __future__ import annotations

import json
import sys
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.instruments import Target, operations, read_clause
from indexer.instruments.recognise import title_kind

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from instrument_corpus import build
from measure_instruments import GOLD, check_treaty, heldout_corpus

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII", 9: "IX",
         10: "X", 11: "XI", 12: "XII", 19: "XIX", 26: "XXVI"}


# --- the clause parser (Hypothesis) ----------------------------------------------------------

def _where(lang: str, t: Target, roman: bool) -> str:
    """A target as a protocol in `lang` names it, written independently of the parser."""
    art = ROMAN.get(int(t.article), t.article) if roman else t.article
    if lang == "en":
        parts = []
        if t.point:
            parts.append(f"subparagraph ({t.point}) of")
        if t.paragraph:
            parts.append(f"paragraph {t.paragraph} of")
        text = " ".join([*parts, f"Article {art}"])
        return text[0].upper() + text[1:]
    if lang == "pt":
        parts = []
        if t.point:
            parts.append(f"a alínea {t.point}) do")
        if t.paragraph:
            parts.append(f"parágrafo {t.paragraph} do")
        return " ".join([*parts, f"Artigo {art}"])
    parts = [f"punkt {t.paragraph}" + (f" {t.point})" if t.point else "") + " i"] if t.paragraph \
        else []
    return " ".join([*parts, f"artikel {art}"])


CLAUSES = {
    "en": {"replace": "{w} of the Convention shall be deleted and replaced by the following:",
           "delete": "{w} of the Convention shall be deleted.",
           "words": "In {w} of the Convention, the words \"{old}\" shall be replaced by the "
                    "words \"{new}\"."},
    "pt": {"replace": "{W} da Convenção passa a vigorar com a seguinte redação:",
           "delete": "{W} da Convenção é suprimido.",
           "words": "No {w} da Convenção, a expressão \"{old}\" é substituída pela expressão "
                    "\"{new}\"."},
    "sv": {"replace": "{W} i avtalet ska upphöra att gälla och ersättas av följande:",
           "delete": "{W} i avtalet ska utgå.",
           "words": "I {w} i avtalet ska orden ”{old}” ersättas med ”{new}”."},
}
targets = st.builds(
    Target, st.integers(1, 30).map(str),
    st.one_of(st.none(), st.integers(1, 9).map(str)),
    st.sampled_from([None, "a", "b", "c"]),
).filter(lambda t: t.point is None or t.paragraph is not None)
words = st.text(alphabet="abcdefghij klmnop0123456789%", min_size=1, max_size=20).map(
    str.strip).filter(bool)


@settings(deadline=None)  # (a shared machine: no timing in a test)
@given(st.sampled_from(["en", "pt", "sv"]), st.sampled_from(["replace", "delete", "words"]),
       targets, st.booleans(), words, words)
def test_clauses_read_into_operations(lang, action, target, roman, old, new):
    where = _where(lang, target, roman and int(target.article) in ROMAN)
    if lang == "pt" and action != "words":
        where = "O " + where if not target.paragraph else where
        where = where[0].upper() + where[1:]
    text = CLAUSES[lang][action].format(w=where, W=where[0].upper() + where[1:], old=old,
                                        new=new)
    op = read_clause(text)
    assert op is not None, text
    assert op.action == action and op.target == target, (text, op)
    if action == "words":
        assert (op.old_words, op.new_words) == (old, new)


def test_insertions_name_the_new_unit_and_where_it_goes():
    for text, eid, after in (
            (("The following new Article 26A shall be inserted after Article 26 of the "
             "Convention:"), "art_26A", "art_26"),
            ("É acrescentado à Convenção, após o Artigo 29, o seguinte Artigo 29-A:",
             "art_29A", "art_29"),
            ("En ny artikel 26 A ska införas i avtalet med följande lydelse:", "art_26A", None),
            ("A new paragraph 7 is added to Article 11 of the Convention:", "art_11__para_7",
             None)):
        op = read_clause(text)
        assert op.action == "insert" and op.target.eid == eid, text
        assert (op.after.eid if op.after else None) == after, text


def test_what_is_no_clause():
    for text in ("Article 10 shall apply to dividends paid by a company.",
                 "The provisions of paragraph 5 of Article 24 shall apply mutatis mutandis; "
                 + "x" * 200 + " as amended, the words may be replaced with others.",
                 ("5. För det fall avtalets bestämmelser tillämpas så att förmåner utgår som "
                 "inte avsetts, skall de behöriga myndigheterna enligt artikel 25 överlägga.")):
        op = read_clause(text)
        assert op is None or op.action == "understanding", text
    # a clause that depends on a request is read, never applied
    op = read_clause("Bestämmelserna i artikel 25 punkt 5 kan på begäran av Norge ändras och "
                     "ersättas av följande text:")
    assert op.action == "unparsed"


def test_new_text_ends_with_its_quote_or_the_next_article():
    lines = ["Have agreed as follows:", "ARTICLE I",
             "Paragraph 2 of Article 11 of the Convention shall be replaced by the following:",
             "\"2. However, the tax so charged shall not exceed:",
             "a) 10 per cent of the gross amount of the interest paid to a bank;",
             "b) 12 per cent of the gross amount of the interest in all other cases.\"",
             "ARTICLE II", "Article 26 of the Convention shall be deleted and replaced by:",
             "Article 26", "Exchange of Information",
             "1. The competent authorities shall exchange such information.",
             "ARTICLE III", "This Protocol shall enter into force on signature."]
    ops = operations(lines)
    assert [(op.action, op.target.eid, len(op.new)) for op in ops] == [
        ("replace", "art_11__para_2", 3), ("replace", "art_26", 3)]
    assert ops[0].new[0].startswith("2. However") and ops[0].new[-1].endswith("cases.")


VARIANTS = [
    # an article's amendments listed after it, each naming a paragraph only
    (["Article 10 of the Convention is amended as follows:",
      ("(a) In paragraph 2, the words \"15 per cent\" shall be replaced by the words \"10 per "
      "cent\"."), "(b) Paragraph 3 shall be deleted."],
     [("words", "art_10__para_2"), ("delete", "art_10__para_3")]),
    # a paragraph added, its number given by its text
    (["In Article 12 the following paragraph shall be added:",
      "\"7. The provisions of this Article shall not apply to payments for software.\""],
     [("insert", "art_12__para_7")]),
    (["Acrescente-se ao Artigo 12 da Convenção o seguinte parágrafo 7:",
      "\"7. As disposições deste Artigo não se aplicam.\""], [("insert", "art_12__para_7")]),
    # United Kingdom drafting
    (["In paragraph 2 of Article 11, for \"15 per cent\" substitute \"10 per cent\"."],
     [("words", "art_11__para_2")]),
    ([("The Convention shall be amended by adding the following new Article 26A after "
      "Article 26:"), "\"Article 26A", "Limitation of benefits",
      "1. No benefit shall be granted.\""], [("insert", "art_26A")]),
    # Portugal: n.º, artigo 10.º, redacção
    (["O n.º 2 do artigo 10.º da Convenção passa a ter a seguinte redacção:",
      "\"2. Esses dividendos podem ser tributados; o imposto não poderá exceder 10%.\""],
     [("replace", "art_10__para_2")]),
    # Swedish: the article first, then its paragraph
    (["I artikel 11 ska punkt 3 ersättas av följande:", "”3. Ränta som härrör …”"],
     [("replace", "art_11__para_3")]),
    (["I artikel 12 punkt 2 ska ”15 procent” ersättas med ”10 procent”."],
     [("words", "art_12__para_2")]),
]


def test_clause_variants():
    for lines, expected in VARIANTS:
        got = [(op.action, op.target.eid if op.target else None) for op in operations(lines)]
        assert got == expected, lines[0]


def test_titles_open_instruments():
    assert title_kind("PROTOCOL AMENDING THE CONVENTION BETWEEN X AND Y") == "protocol"
    assert title_kind("P R O T O C O L") == "protocol"
    assert title_kind("Protokoll om ändring av avtalet mellan Sverige och Brasilien") == \
        "protocol"
    assert title_kind("PROTOCOLO DE ALTERAÇÃO DA CONVENÇÃO") == "protocol"
    assert title_kind("Exchange of Notes") == "exchange-of-notes"
    assert title_kind("Excellency,") == "exchange-of-notes"
    assert title_kind("Protocol shall form an integral part of the Convention.") is None
    assert title_kind("AGREEMENT BETWEEN SWEDEN AND RURITANIA AMENDING THE CONVENTION FOR THE "
                      "AVOIDANCE OF DOUBLE TAXATION") == "agreement"


# --- the protocols applied -------------------------------------------------------------------

@pytest.fixture(scope="module")
def amended(tmp_path_factory):
    """The bundled treaties with the protocols of tests/cases/instruments, each in its
    treaty's file (the 1965 one in a file of its own)."""
    from indexer.pipeline import ingest

    tmp = tmp_path_factory.mktemp("amended")
    data = tmp / "data"
    ingest(build(tmp / "corpus"), data, workers=1)
    return data


@pytest.fixture(scope="module")
def amended_apart(tmp_path_factory):
    """Brazil–Peru with its 2019 protocol in a file of its own."""
    from indexer.pipeline import ingest

    tmp = tmp_path_factory.mktemp("apart")
    corpus = build(tmp / "all", separate=True)
    keep = tmp / "corpus"
    keep.mkdir()
    entries = [e for e in (corpus / "manifest.toml").read_text("utf-8").split("[[document]]")
               if "br-pe-2006" in e]
    for e in entries:
        name = e.split('file = "')[1].split('"')[0]
        (keep / name).write_text((corpus / name).read_text("utf-8"), "utf-8")
    (keep / "manifest.toml").write_text("".join("[[document]]" + e for e in entries), "utf-8")
    data = tmp / "data"
    ingest(keep, data, workers=1)
    return data


GOLD_CASES = json.loads(GOLD.read_text("utf-8"))["treaties"]


@pytest.mark.parametrize("treaty", sorted(GOLD_CASES))
def test_consolidated_articles_and_rates(amended, treaty):
    result = check_treaty(amended, treaty, GOLD_CASES[treaty])
    assert result["wrong"] == []
    assert result["articles_right"] == len(GOLD_CASES[treaty]["articles"])


def test_a_protocol_in_a_file_of_its_own(amended_apart):
    result = check_treaty(amended_apart, "br-pe-2006", GOLD_CASES["br-pe-2006"])
    assert result["wrong"] == []


@pytest.mark.parametrize("separate", [False, True])
def test_an_exchange_of_notes(tmp_path, separate):
    """The instruments held out of tuning (tests/cases/instruments/heldout/): notes whose
    clauses are numbered inside a letter, dated by their dateline and not by the treaty
    their title names, in the treaty's file or in a file the manifest declares; words
    replaced as an erratum says it ("onde se lê … leia-se …")."""
    from indexer.pipeline import ingest

    corpus, gold = heldout_corpus(tmp_path / "corpus", separate)
    ingest(corpus, tmp_path / "data", workers=1)
    for treaty, want in gold["treaties"].items():  # (Brazil–Peru in en, Brazil–Colombia in pt)
        result = check_treaty(tmp_path / "data", treaty, want)
        assert result["wrong"] == []
        assert result["articles_right"] == len(want["articles"])


def test_the_cli_reads_the_treaty_as_amended_and_at_a_date(amended):
    from search.cli import main

    runner = CliRunner()
    now = json.loads(runner.invoke(main, ["rates", "--data", str(amended), "--treaty",
                                          "br-pe-2006", "--json"]).output)["rates"]
    first = now[0]
    assert first["rate"] == 5.0 and first["in_force"] == {
        "from": "2021-01-01", "to": None, "instrument": "protocol-2019-03-12"}
    before = json.loads(runner.invoke(main, ["rates", "--data", str(amended), "--treaty",
                                             "br-pe-2006", "--json", "--as-of", "2010-01-01"]
                                      ).output)["rates"]
    assert before[0]["rate"] == 10.0 and before[0]["in_force"]["to"] == "2021-01-01"
    out = runner.invoke(main, ["rates", "--data", str(amended), "--as-of", "1990-01-01",
                               "--treaty", "br-pe-2006"])
    assert out.exit_code == 0 and out.output.strip() == "no rates"  # before it was signed


def test_real_texts_are_not_amended(ingested):
    """The bundled treaties alone: a protocol signed with a treaty amends nothing."""
    from indexer import store

    with closing(store.connect(ingested)) as db:
        assert db.execute("SELECT COUNT(*) FROM amendments WHERE status='applied'"
                          ).fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM unit_history").fetchone()[0] == 0
        kinds = {r[0] for r in db.execute("SELECT kind FROM instruments WHERE base=0")}
        assert kinds == {"protocol"}  # br-pe-2006's and br-cn-1991's signature protocols


# --- treaty facts --------------------------------------------------------------------------

def test_treaty_facts_each_with_where_it_came_from(amended):
    from search.corpus import Corpus, outline

    with Corpus(amended) as corpus:
        pe = {f["name"]: f for f in outline(corpus, "br-pe-2006")["facts"]}
        se = {f["name"]: f for f in outline(corpus, "br-se-1965")["facts"]}
    # declared in the manifest
    assert pe["in_force"]["value"] == "2008-07-01" and pe["in_force"]["source"] == "manifest"
    assert pe["authentic"]["value"] == "es,pt,en" and pe["signed"]["source"] == "manifest"
    # read from the text, with the line that says it
    text = (ROOT / "corpus" / "brazil-peru-2006.en.txt").read_text("utf-8").split("\n")
    term = pe["termination"]
    assert term["source"] == "text" and term["value"].startswith("This Convention shall "
                                                                  "remain in force")
    assert text[term["line"] - 1].startswith("1. This Convention shall remain in force")
    assert pe["amended_by"]["value"] == "protocol of 2019-03-12, in effect from 2021-01-01"
    assert se["authentic"]["value"] == "sv,pt,en" and se["authentic"]["source"] == "text"
    assert se["effective"]["source"] == "text" and se["effective"]["line"] > 1000


def test_pages_show_the_treaty_as_amended_its_original_and_its_facts(amended):
    from search.web import create_app

    client = create_app(amended).test_client()
    html = client.get("/t/br-pe-2006/art_10").get_data(as_text=True)
    assert "As amended by the protocol of 2019-03-12" in html and "?as=original" in html
    assert "Understandings of later instruments" in html
    original = client.get("/t/br-pe-2006/art_10?as=original").get_data(as_text=True)
    assert "The text as first signed" in original and "20 percent of the voting rights" in original
    assert client.get("/t/br-pe-2006/art_26A?as=original").status_code == 404
    assert client.get("/t/br-pe-2006/art_10?as=someday").status_code == 400
    page = client.get("/t/br-pe-2006").get_data(as_text=True)
    assert 'id="h-facts"' in page and "(manifest)" in page
    assert "<code>brazil-peru-2006.en.txt</code> line" in page and 'id="h-instruments"' in page
    out = CliRunner().invoke(__import__("search.cli", fromlist=["main"]).main,
                             ["show", "br-pe-2006", "--data", str(amended)])
    assert out.exit_code == 0 and "Brazil–Peru (2006)" in out.output
    assert "entry into force:" in out.output and "[manifest]" in out.output
    assert "[by protocol-2019-03-12]" in out.output


def test_the_effect_is_not_the_end_of_a_treaty():
    """Sentences of real final articles (corpus-wild): the earlier treaty's end and this
    one's termination say when a treaty stops having effect, not when it takes effect; an
    exception ranks after the rule."""
    from indexer.instruments.facts import _not_effect, _rank

    ends = [("The Convention between the Government of Sweden and the Government of Mauritius "
             "signed on 23 April 1992 shall terminate upon the entry into force of this "
             "Convention and shall cease to have effect for taxable years beginning on or "
             "after 1 January 2012."),
            ("Avtalet mellan den Socialistiska Federala Republiken Jugoslavien och Konungariket "
             "Sverige, undertecknat i Stockholm den 18 juni 1980, ska upphöra att tillämpas "
             "mellan Slovenien och Sverige."),
            "Detta avtal förbliver i kraft, så länge detsamma icke uppsäges av en av staterna."]
    assert all(_not_effect(s) for s in ends)
    rule = "The provisions of this Convention shall have effect: (a) in India, …"
    exception = ("Notwithstanding the provisions of paragraph 1, the provisions of Article 8 "
                 "shall have effect for taxable years beginning on or after 1 January 1985.")
    assert not _not_effect(rule) and not _not_effect(exception)
    assert _rank("effective", rule, rule) < _rank("effective", exception, exception)


def test_a_fact_cites_the_line_its_words_begin_on():
    """A unit's text has no blank lines, so the line counted in it falls short: the words
    are looked for in the file from there on (the bundled Brazil–Peru text)."""
    from indexer.instruments.facts import located

    lines = (ROOT / "corpus" / "brazil-peru-2006.en.txt").read_text("utf-8").split("\n")
    at = next(k for k, t in enumerate(lines, 1) if t.startswith("1. This Convention shall "
                                                               "remain in force"))
    quote = "1. This Convention shall remain in force until terminated by one of the States."
    assert located(at - 5, quote, lines) == at
    assert located(at, quote, lines) == at
    assert located(at, "words printed nowhere in it", lines) == at  # (unchanged)
