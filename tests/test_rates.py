"""The rates stage (`indexer.rates`) on the real texts against the gold of
tests/cases/rates.json, the number parser (Hypothesis), the extraction rules on small texts,
the cross-check of versions, and `treaty rates` / `treaty check` through the CLI."""

from __future__ import annotations

import csv
import io
import json
import sys
from contextlib import closing
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from indexer.rates import parse_percent, percentages
from indexer.rates.extract import version_rates
from indexer.rates.model import Found, VersionUnit
from indexer.rates.stage import alignment, combine
from indexer.segment.numerals import to_chinese
from search.cli import main

ROOT = Path(__file__).resolve().parent.parent
GOLD = json.loads((ROOT / "tests" / "cases" / "rates.json").read_text("utf-8"))
sys.path.insert(0, str(ROOT / "scripts"))
from measure_rates import measure, stated_keys

runner = CliRunner()


# --- the number parser ---------------------------------------------------------------------

def _words(n: int, lang: str) -> str:
    """`n` (0..99) in words, written out here independently of the parser's tables."""
    names = {"en": "zero one two three four five six seven eight nine ten eleven twelve "
                   "thirteen fourteen fifteen sixteen seventeen eighteen nineteen",
             "pt": "zero um dois três quatro cinco seis sete oito nove dez onze doze treze "
                   "catorze quinze dezesseis dezessete dezoito dezenove",
             "sv": "noll en två tre fyra fem sex sju åtta nio tio elva tolv tretton fjorton "
                   "femton sexton sjutton arton nitton"}[lang].split()
    tens = {"en": "twenty thirty forty fifty sixty seventy eighty ninety",
            "pt": "vinte trinta quarenta cinquenta sessenta setenta oitenta noventa",
            "sv": "tjugo trettio fyrtio femtio sextio sjuttio åttio nittio"}[lang].split()
    if n < 20:
        return names[n]
    ten, unit = tens[n // 10 - 2], n % 10
    if not unit:
        return ten
    return {"en": f"{ten}-{names[unit]}", "pt": f"{ten} e {names[unit]}",
            "sv": f"{ten}{names[unit]}"}[lang]


PER_CENT = {"en": "per cent", "pt": "por cento", "sv": "procent"}


@given(st.integers(0, 99), st.sampled_from(["en", "pt", "sv"]))
def test_words(n, lang):
    assert parse_percent(f"{_words(n, lang)} {PER_CENT[lang]}") == n


@given(st.integers(1, 99))
def test_chinese(n):
    assert parse_percent(f"百分之{to_chinese(n)}") == n


@given(st.integers(0, 99), st.sampled_from(["", ".5", ",5", " 1/2", "½", ".25"]),
       st.sampled_from(["%", " %", " per cent", " percent", " por cento", " procent"]))
def test_digits(n, frac, mark):
    value = n + {"": 0, ".5": .5, ",5": .5, " 1/2": .5, "½": .5, ".25": .25}[frac]
    assert parse_percent(f"{n}{frac}{mark}") == value


@given(st.text(alphabet="abc 12,.()%-", max_size=30))
def test_never_raises(s):
    for p in percentages(s):
        assert 0 <= p.value <= 100 and 0 <= p.start < p.end <= len(s)


def test_forms():
    assert parse_percent("12 1/2 %") == 12.5
    assert parse_percent("twelve and a half per cent") == 12.5
    assert parse_percent("quinze por cento") == 15
    assert parse_percent("femton procent") == 15
    assert parse_percent("百分之十五") == 15
    assert parse_percent("15 per cent of") is None
    # digits glossed in words count once; OCR that broke the % still leaves the words
    assert [p.value for p in percentages("15 % (fifteen percent)")] == [15]
    assert [p.value for p in percentages("15 So (femton procent)")] == [15]


# --- extraction rules on small texts -------------------------------------------------------

def _version(paras: dict[str, str], topic: str = "dividends", kind: str = "article",
             points: dict[str, dict[str, str]] | None = None) -> list[VersionUnit]:
    units = [VersionUnit("art_10", kind, "", "art_10", number=10, topic=topic)]
    for num, text in paras.items():
        eid = f"art_10__para_{num}"
        kids = (points or {}).get(num, {})
        full = "\n".join([text, *kids.values()])
        units.append(VersionUnit(eid, "paragraph", full, "art_10", parent="art_10"))
        units += [VersionUnit(f"{eid}__point_{p}", "point", t, "art_10", parent=eid)
                  for p, t in kids.items()]
    return units


def _keys(found):
    return sorted((f.eid.split("art_10__")[1], f.rate, f.exempt, f.by_reference) for f in found)


def test_list_rates_thresholds_and_reference():
    found = version_rates(_version(
        {"2": "2. However, the tax so charged shall not exceed:",
         "6": "6. However, this tax shall not exceed the limit provided for in subparagraph (a)"
              " of paragraph 2 of this Article."},
        points={"2": {"a": "a) 5 per cent of the gross amount of the dividends if the beneficial"
                           " owner holds directly at least 25 per cent of the capital;",
                      "b": "b) 15 per cent of the gross amount of the dividends in all other "
                           "cases."}}))
    assert _keys(found) == [("para_2__point_a", 5.0, False, False),
                            ("para_2__point_b", 15.0, False, False),
                            ("para_6", 5.0, False, True)]
    a = next(f for f in found if f.eid.endswith("point_a"))
    assert a.base == "gross amount" and a.condition.startswith("if the beneficial owner")
    assert a.conditions.holding_min == 25 and a.conditions.holding_direct == "direct"


def test_exemptions_need_the_income_and_the_article():
    paras = {"1": "1. Interest arising in a Contracting State shall be taxable only in the "
                  "other State.",
             "3": "3. Where a company derives profits from the other State, that other State "
                  "may not impose any tax on the dividends paid by the company.",
             "8": "8. An organization shall be exempt from tax in the United States."}
    assert _keys(version_rates(_version(paras, "interest"))) == [("para_1", 0.0, True, False)]
    # outside a rate topic's article nothing counts; a protocol item counts only its limits
    assert version_rates(_version(paras, "pensions")) == []
    assert version_rates(_version(paras, None, kind="protocol")) == []


def test_holding_thresholds_and_definitions_are_not_rates():
    paras = {"4": "4. The term means a company that holds at least 10 per cent of the capital.",
             "5": "5. For this purpose 'the adjusted amount' means 60 per cent of the gross "
                  "amount."}
    assert version_rates(_version(paras)) == []


def test_words_portuguese_swedish_chinese():
    assert [f.rate for f in version_rates(_version(
        {"2": "2. O imposto assim estabelecido não excederá quinze por cento do montante "
              "bruto dos dividendos."}))] == [15]
    assert [f.rate for f in version_rates(_version(
        {"2": "2. Skatten får inte överstiga tolv och en halv procent av bruttobeloppet."}))] == [12.5]
    assert [f.rate for f in version_rates(_version(
        {"2": "二、但是，所征税款不应超过股息总额的百分之十。"}))] == [10]


def test_versions_disagree():
    def f(rate):
        return Found("art_10__para_2", rate, topic="dividends")

    rates = combine("x", {"en": [f(15.0)], "pt": [f(10.0)], "sv": [f(15.0)]},
                    {lg: {"art_10__para_2"} for lg in ("en", "pt", "sv")}, ["en", "pt", "sv"])
    by_rate = {r.rate: r for r in rates}
    assert by_rate[15.0].langs == ("en", "sv") and by_rate[15.0].disagree == ("pt",)
    assert by_rate[10.0].disagree == ("en", "sv")
    assert all(r.confidence < 0.8 for r in rates)
    agreed = combine("x", {"en": [f(15.0)], "sv": [f(15.0)]},
                     {lg: {"art_10__para_2"} for lg in ("en", "sv")}, ["en", "sv"])
    assert agreed[0].disagree == () and agreed[0].confidence > 0.95


# --- the real texts against the gold ---------------------------------------------------------

def _check(data: Path, corpus: str) -> None:
    gold = {**GOLD, "treaties": {t: g for t, g in GOLD["treaties"].items()
                                 if g["corpus"] == corpus}}
    gold["split"] = {h: [t for t in ts if t in gold["treaties"]] for h, ts in GOLD["split"].items()}
    result = measure(gold, stated_keys(data))
    for treaty, s in result["treaties"].items():
        assert s["recall"] >= 0.95 and s["precision"] >= 0.95, (treaty, s["missed"], s["extra"])


def test_bundled_against_gold(ingested):
    _check(ingested, "bundled")


def test_extra_against_gold(extra_dir, tmp_path_factory):
    from indexer.pipeline import ingest

    data = tmp_path_factory.mktemp("rates-extra")
    ingest(extra_dir, data, workers=1)
    _check(data, "extra")


def test_gold_split_covers_every_treaty():
    halves = GOLD["split"]
    assert set(halves["tune"]).isdisjoint(halves["measure"])
    assert set(halves["tune"]) | set(halves["measure"]) == set(GOLD["treaties"])


# --- the CLI -----------------------------------------------------------------------------------

def _run(data, *args):
    return runner.invoke(main, ["rates", "--data", str(data), *args])


def test_cli_json_contract(ingested):
    out = _run(ingested, "--treaty", "br-pe-2006", "--json")
    assert out.exit_code == 0, out.output
    rates = json.loads(out.output)["rates"]
    first = rates[0]
    assert list(first) == ["treaty", "name", "topic", "kind", "rate", "exempt", "by_reference",
                           "target", "condition", "condition_lang", "conditions", "base",
                           "unit", "citation", "cited_as", "quote", "quote_lang", "langs",
                           "confidence", "in_force"]
    assert first["unit"] == "br-pe-2006/en/art_10__para_2__point_a"
    assert first["citation"] == "br-pe-2006 Art. 10(2)(a)"
    assert first["cited_as"] == "Brazil–Peru (2006) Art. 10(2)(a)"
    assert first["rate"] == 10.0 and first["base"] == "gross amount" and first["langs"] == ["en"]
    assert first["conditions"]["holding_min"] == 20 and first["conditions"]["holding_of"] == "votes"
    assert first["condition"] == ("company holding directly or indirectly at least 20% of the "
                                  "voting power")
    branch = next(r for r in rates if r["by_reference"])
    assert branch["kind"] == "branch-profits" and branch["rate"] == 10.0
    assert branch["unit"].endswith("art_10__para_6") and branch["base"] == "profits"
    # the reader's language: the same condition said in Portuguese
    pt = json.loads(_run(ingested, "--treaty", "br-pe-2006", "--json", "--lang", "pt").output)
    assert pt["rates"][0]["condition"].startswith("sociedade que detenha")
    assert pt["rates"][0]["condition_lang"] == "pt"


def test_cli_csv_filters(ingested):
    out = _run(ingested, "--topic", "royalties", "--party", "se", "--csv")
    assert out.exit_code == 0, out.output
    rows = list(csv.DictReader(io.StringIO(out.output)))
    assert rows and {r["treaty"] for r in rows} == {"Brazil–Sweden (1965)"}
    assert rows[0]["rate"] == "15" and rows[0]["langs"] == "sv,en,pt"
    assert rows[0]["citation"].startswith("Brazil–Sweden (1965) Art. 7")


def test_cli_text_and_errors(ingested):
    out = _run(ingested)
    assert out.exit_code == 0 and "Brazil–China (1991) Art. 12(2)(1)" in out.output
    for args, message in ((["--topic", "capital"], "no rates for topic"),
                          (["--party", "B1"], "ISO 3166"),
                          (["--lang", "fr"], "conditions are said in"),
                          (["--as-of", "2010-13-01"], "a date is written like"),
                          (["--treaty", "xx-1999"], "no treaty"),
                          (["--json", "--csv"], "choose one")):
        out = _run(ingested, *args)
        assert out.exit_code != 0 and message in out.output and "Traceback" not in out.output


def test_check_lists_doubtful_rates(ingested):
    out = runner.invoke(main, ["check", "--data", str(ingested), "--json"])
    assert out.exit_code == 0
    result = json.loads(out.output)
    assert all(r["confidence"] < 0.8 or r["disagree"] for r in result["rates"])


def test_check_text_shows_rates():
    from search.check import check_text

    row = {"citation": "x Art. 10(2)", "topic": "dividends", "rate": 15.0, "exempt": False,
           "by_reference": False, "condition": "", "confidence": 0.4, "disagree": ["pt"]}
    text = check_text({"findings": [], "versions": 1, "clean_versions": 1, "rates": [row]})
    assert "rates to check" in text and "versions disagree: pt" in text


def test_share_of_a_rate_by_reference_and_condition_ends_with_its_sentence():
    found = version_rates(_version(
        {"2": "2. However, the tax so charged shall not exceed:",
         "5": "5. Profits taxed under Article 7 may be taxed on the remaining amount and the "
              "taxes so charged shall not exceed 50 per cent of the percentage provided for in "
              "sub-paragraph a) of paragraph 2 of this Article."},
        points={"2": {"a": "a) 15 per cent of the gross amount if the company holds at least "
                           "25 per cent;",
                      "b": "b) 20 per cent of the gross amount in all other cases.This "
                           "paragraph shall not affect the taxation of the company."}}))
    by_eid = {f.eid.split("__", 1)[1]: f for f in found}
    assert by_eid["para_5"].rate == 7.5 and by_eid["para_5"].by_reference
    assert by_eid["para_2__point_b"].condition == "in all other cases"


def test_versions_cross_checked_through_alignment_links():
    en = [Found("art_10__para_2", 15.0, topic="dividends")]
    sv = [Found("art_10__para_3", 15.0, topic="dividends")]  # the print numbered it apart
    eids = {"en": {"art_10__para_2"}, "sv": {"art_10__para_3"}}
    links = alignment([("art_10__para_2", "en", "sv", "art_10__para_3")])
    rates = combine("x", {"en": en, "sv": sv}, eids, ["en", "sv"], links)
    assert len(rates) == 1 and rates[0].langs == ("en", "sv") and rates[0].disagree == ()
    apart = combine("x", {"en": en, "sv": sv}, eids, ["en", "sv"])
    assert len(apart) == 2  # without the links they are two provisions


def test_exemption_wordings_and_conditions_of_an_exemption():
    paras = {"4": "4. Utan hinder av bestämmelserna i punkt 2",
             "8": "8. Utdelning som betalas till en pensionsorganisation skall vara undantagen "
                  "från beskattning i den förstnämnda staten under förutsättning att:"}
    points = {"4": {"a": "a) beskattas ränta, som härrör från Sverige och betalas till person "
                         "med hemvist i Canada, endast i Canada, om räntan betalas på grund av lån;",
                    "b": "b) ränta som härrör från Sverige skall undantas från svensk skatt om "
                         "mottagaren är staten;"},
              "8": {"a": "a) organisationen är ägaren av de aktier för vilka utdelningen betalas "
                         "och är generellt undantagen från beskattning i den andra staten;"}}
    found = version_rates(_version(paras, "interest", points=points))
    assert _keys(found) == [("para_4__point_a", 0.0, True, False),
                            ("para_4__point_b", 0.0, True, False),
                            ("para_8", 0.0, True, False)]


def test_prefilter_words_hold_every_match(ingested):
    """A sentence is tried for a limit or an exemption only when it holds one of the words
    every match holds: checked on every match in the real texts."""
    from indexer import store
    from indexer.rates.cues import EXEMPT_WORDS, LIMIT_WORDS, compiled

    with closing(store.connect(ingested)) as db:
        texts = [r["text"] for r in db.execute("SELECT text FROM units WHERE depth > 0")]
    seen = 0
    for text in texts:
        for name, words in (("LIMIT", LIMIT_WORDS), ("EXEMPT", EXEMPT_WORDS)):
            for m in compiled(name).finditer(text):
                seen += 1
                assert any(w in m.group(0).lower() for w in words), (name, m.group(0))
    assert seen > 50


def test_csv_header_is_the_contract(ingested):
    out = _run(ingested, "--csv")
    header = out.output.splitlines()[0].split(",")
    assert header == ["treaty", "citation", "topic", "kind", "rate", "exempt", "by_reference",
                      "condition", "condition_lang", "holding_min", "holding_max", "holding_of",
                      "holding_direct", "holding_period", "recipient", "beneficial_owner",
                      "subject", "payer", "otherwise", "base", "unit", "quote", "langs",
                      "confidence", "in_force_from", "in_force_to"]


def test_text_flags_disagreement():
    from search.rates import rates_text

    row = {"citation": "x Art. 10(2)", "topic": "dividends", "rate": 15.0, "exempt": False,
           "by_reference": False, "condition": "", "confidence": 0.47, "disagree": ["pt"]}
    assert "[versions disagree: pt]" in rates_text({"rates": [row]})


def test_notes_and_other_text_are_not_rates():
    units = [VersionUnit("other_1", "other",
                         "Rates 10% and 15%: the tax shall not exceed 15 per cent of the "
                         "gross amount; interest is exempt from tax.", "other_1")]
    assert version_rates(units) == []


def test_a_store_without_rates_says_how_to_mend_it(ingested, tmp_path):
    """A store made before the rates stage (no rates table): a one-line error naming the
    fix, for `treaty rates`; `treaty check` still lists its findings."""
    import shutil
    import sqlite3

    from indexer import store

    data = tmp_path / "old"
    shutil.copytree(ingested, data, ignore=shutil.ignore_patterns(".lock"))
    with closing(sqlite3.connect(store.store_path(data))) as db:
        db.execute("DROP TABLE rates")
        db.commit()
    out = _run(data)
    assert out.exit_code == 1 and "run `treaty ingest --force` once" in out.output
    out = runner.invoke(main, ["check", "--data", str(data), "--json"])
    assert out.exit_code == 0 and json.loads(out.output)["rates"] == []
