"""What a rate row means (issue 29): a limit on the source state's tax, a branch-profits
tax with its base, an MFN clause pointing at the rate it may lower — and no row for a
residence state's own exemption; each with its condition read into fields and said in the
reader's language, never cut inside a word. The texts are written here in the styles of real
treaties (en, pt, sv, zh)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from indexer.rates.conditions import clip, cut_in_word, phrase, read_conditions
from indexer.rates.extract import version_rates
from indexer.rates.model import VersionUnit


def _article(paras: dict[str, str], topic: str = "dividends", number: int = 10,
             points: dict[str, dict[str, str]] | None = None) -> list[VersionUnit]:
    top = f"art_{number}"
    # (an article's text holds its paragraphs' and points', as the store's does)
    whole = "\n".join(x for n, t in paras.items()
                      for x in [t, *(points or {}).get(n, {}).values()])
    units = [VersionUnit(top, "article", whole, top, number=number, topic=topic)]
    for num, text in paras.items():
        eid = f"{top}__para_{num}"
        kids = (points or {}).get(num, {})
        units.append(VersionUnit(eid, "paragraph", "\n".join([text, *kids.values()]), top,
                                 parent=top))
        units += [VersionUnit(f"{eid}__point_{p}", "point", t, top, parent=eid)
                  for p, t in kids.items()]
    return units


def _rows(units, lang="en"):
    return sorted((f.eid.split("__", 1)[1] if "__" in f.eid else f.eid, f.topic, f.kind,
                   f.rate) for f in version_rates(units, lang))


# --- a residence state's exemption is no rate ------------------------------------------------

RESIDENCE = [
    ("en", ("4. Notwithstanding the provisions of paragraph 1, dividends paid by a company which "
           "is a resident of Kenya to a company which is a resident of Sweden shall be exempt "
           "from tax in Sweden to the extent that the dividends would have been exempt under "
           "Swedish law if both companies had been Swedish companies.")),
    ("en", ("5. Dividends paid by a company which is a resident of one of the States to a company "
           "which is a resident of the other State shall be exempt from tax in that other State "
           "to the extent that they would have been exempt had both companies been resident "
           "there.")),
    ("sv", ("4. Utan hinder av bestämmelserna i punkt 1 skall utdelning från bolag med hemvist i "
           "Kenya till bolag med hemvist i Sverige vara undantagen från svensk skatt i den mån "
           "utdelningen skulle ha varit undantagen om båda bolagen hade varit svenska.")),
    ("sv", ("6. Utdelning, som utbetalas av ett bolag (aktiebolag) med hemvist i en av staterna "
           "till ett bolag med hemvist i den andra staten, skall vara undantagen från "
           "beskattning i denna andra stat.")),
    ("pt", ("3. Os dividendos pagos por uma companhia, que seja residente do Brasil, a outra "
           "companhia, que seja residente da Suécia, ficarão isentos do imposto na Suécia desde "
           "que, de acordo com as leis fiscais suecas, tais dividendos estivessem isentos.")),
]

SOURCE = [
    ("en", ("3. Notwithstanding the provisions of paragraph 2, the Contracting State of which the "
           "company paying the dividends is a resident shall not levy a tax on dividends paid "
           "by that company if the beneficial owner of the dividends is a pension fund.")),
    ("en", ("3. Notwithstanding the provisions of paragraph 2, dividends paid by a company which "
           "is a resident of Kenya to a company which is a resident of Sweden shall be exempt "
           "from Kenyan tax if the Swedish company holds at least 25 per cent of the capital.")),
    ("sv", ("3. Utan hinder av bestämmelserna i punkt 2 skall utdelning beskattas endast i den "
           "avtalsslutande stat där mottagaren har hemvist om den som har rätt till "
           "utdelningen är ett bolag som innehar minst 10 procent av kapitalet.")),
    ("pt", ("3. Não obstante o disposto no parágrafo 2, os dividendos pagos por uma sociedade "
           "residente de um Estado Contratante a um fundo de pensão do outro Estado Contratante "
           "só poderão ser tributados nesse outro Estado.")),
]


def test_a_residence_states_exemption_is_no_rate():
    for lang, text in RESIDENCE:
        assert version_rates(_article({"4": text}), lang) == [], (lang, text[:60])


def test_the_source_states_exemption_is_a_limit_of_zero():
    for lang, text in SOURCE:
        found = version_rates(_article({"3": text}), lang)
        assert [(f.rate, f.exempt, f.kind) for f in found] == [(0.0, True, "limit")], text[:60]


def test_a_government_exempt_in_the_other_state_is_the_sources_exemption():
    """"The Government of a Contracting State shall be exempt from tax in the other
    Contracting State": here the other state is where the interest arises."""
    text = ("3. Notwithstanding the provisions of paragraph 2, the Government of a Contracting "
            "State shall be exempt from tax in the other Contracting State with respect to "
            "interest arising in that other State.")
    assert _rows(_article({"3": text}, "interest", 11)) == [("para_3", "interest", "limit", 0.0)]


# --- branch-profits taxes and MFN clauses ------------------------------------------------------

def test_branch_profits_tax_is_its_own_kind_with_its_base():
    paras = {
        "2": "2. However, the tax so charged shall not exceed 15 per cent of the gross amount "
             "of the dividends.",
        "6": "6. Where a company which is a resident of a Contracting State has a permanent "
             "establishment in the other Contracting State, the profits remitted by that "
             "permanent establishment may be subject to an additional tax, but the additional "
             "tax so charged shall not exceed 5 per cent of the amount of the remitted profits.",
    }
    found = {f.eid: f for f in version_rates(_article(paras))}
    assert found["art_10__para_2"].kind == "limit"
    assert found["art_10__para_6"].kind == "branch-profits"
    assert found["art_10__para_6"].rate == 5 and found["art_10__para_6"].base == "profits remitted"
    sv = ("6. Bestämmelserna i detta avtal hindrar inte en avtalsslutande stat att påföra skatt "
          "på inkomst hänförlig till fast driftställe i denna stat utöver den skatt som skulle "
          "utgå på inkomst som förvärvas av ett bolag med hemvist i denna stat. Denna ytterligare "
          "skatt får dock inte överstiga 5 procent av sådan inkomst.")
    assert _rows(_article({"6": sv}), "sv") == [("para_6", "dividends", "branch-profits", 5.0)]


def test_a_branch_tax_outside_the_dividends_article_is_found():
    """A non-discrimination article that lets the state of the branch levy a further tax."""
    text = ("2. The taxation on a permanent establishment shall not be less favourably levied "
            "than the taxation of enterprises of that State, provided that this paragraph "
            "shall not prevent that State from imposing on the profits of a permanent "
            "establishment a further tax not exceeding 10 per cent on such profits as far as "
            "they are remitted to the head office.")
    assert _rows(_article({"2": text}, "non-discrimination", 24)) == [
        ("para_2", "dividends", "branch-profits", 10.0)]


def test_an_mfn_clause_points_at_the_rate_it_may_lower_and_states_no_limit():
    paras = {
        "2": "2. However, the tax so charged shall not exceed 10 per cent of the gross amount "
             "of the royalties.",
        "8": "8. If after the signature of this Convention Argentina agrees in a convention with "
             "a third State which is a member of the OECD to a rate lower than 10 per cent on "
             "royalties, that lower rate shall apply automatically as if it had been specified "
             "in paragraph 2 of this Article.",
    }
    found = {f.eid: f for f in version_rates(_article(paras, "royalties", 12))}
    mfn = found["art_12__para_8"]
    assert mfn.kind == "mfn" and mfn.rate is None and mfn.target == "art_12__para_2"
    assert sorted((f.eid, f.kind) for f in found.values()) == [
        ("art_12__para_2", "limit"), ("art_12__para_8", "mfn")]


def test_royalties_and_technical_fees_stated_together_are_two_rows():
    text = ("2. However, such royalties or technical service fees may also be taxed in the "
            "Contracting State in which they arise, but the tax so charged shall not exceed 8 "
            "per cent of the gross amount of the royalties or technical service fees.")
    assert _rows(_article({"2": text}, "royalties", 12)) == [
        ("para_2", "royalties", "limit", 8.0), ("para_2", "technical-services", "limit", 8.0)]


def test_a_limit_the_print_lost_its_per_cent_and_a_list_in_a_point():
    text = ("2. However, the tax so charged shall not exceed 10 of the gross amount of the "
            "royalties.")
    assert _rows(_article({"2": text}, "royalties", 12)) == [("para_2", "royalties", "limit", 10.0)]
    points = {"2": {"a": "a) with respect to dividends paid by a company which is a resident of "
                         "Ruritania: (i) 5 per cent of the gross amount of the dividends if the "
                         "beneficial owner holds directly at least 25 per cent of the capital; "
                         "(ii) 15 per cent of the gross amount of the dividends in all other "
                         "cases;",
                    "b": "b) 35 per cent of the gross amount of the dividends in all other cases."}}
    found = _rows(_article({"2": "2. However, the tax so charged shall not exceed:"},
                           points=points))
    assert found == [("para_2__point_a", "dividends", "limit", 5.0),
                     ("para_2__point_a", "dividends", "limit", 15.0),
                     ("para_2__point_b", "dividends", "limit", 35.0)]


# --- conditions: fields and phrases ---------------------------------------------------------

CONDITIONS = [
    ("en", ("if the beneficial owner is a company which holds directly at least 25 per cent of "
           "the capital of the company paying the dividends"),
     {"holding_min": 25, "holding_of": "capital", "holding_direct": "direct",
      "recipient": ["company"], "beneficial_owner": True},
     {"en": "company holding directly at least 25% of the capital",
      "pt": "sociedade que detenha diretamente pelo menos 25% do capital",
      "sv": "bolag som direkt innehar minst 25 % av kapitalet", "zh": "直接持有至少25%资本的公司"}),
    ("sv", ("om den som har rätt till utdelningen är ett bolag som direkt eller indirekt "
           "kontrollerar minst 10 procent av röstetalet under en period om 365 dagar"),
     {"holding_min": 10, "holding_of": "votes", "holding_direct": "direct or indirect",
      "period": "365 days", "beneficial_owner": True},
     {"en": "company holding directly or indirectly at least 10% of the voting power for 365 "
            "days"}),
    ("pt", "se o beneficiário efetivo for um fundo de pensão reconhecido",
     {"recipient": ["pension fund"], "beneficial_owner": True},
     {"sv": "pensionsfond", "zh": "养老基金"}),
    ("en", "in all other cases", {"otherwise": True},
     {"pt": "todos os demais casos", "sv": "övriga fall"}),
    ("en", "if the interest is paid to a bank or a financial institution",
     {"recipient": ["financial institution", "bank"]},
     {"en": "financial institution or bank"}),
    ("sv", "om royaltyn avser betalning för nyttjandet av industriell utrustning",
     {"subject": ["equipment"]}, {"en": "for equipment", "sv": "för utrustning"}),
]


def test_conditions_read_into_fields_and_said_in_each_language():
    for lang, clause, fields, phrases in CONDITIONS:
        c = read_conditions(clause, lang)
        got = c.as_json()
        for k, v in fields.items():
            assert got[k] == v, (clause[:40], k, got[k])
        for to, expected in phrases.items():
            assert phrase(c, to) == expected, (clause[:40], to)


def test_an_unconditional_rate_beside_conditional_ones_is_the_general_one():
    paras = {"2": "2. However, the tax so charged shall not exceed 15 per cent of the gross amount "
                  "of the dividends.",
             "3": "3. Notwithstanding paragraph 2, dividends shall be taxable only in the other "
                  "Contracting State if the beneficial owner is a company which holds directly "
                  "at least 10 per cent of the capital of the company paying the dividends."}
    from indexer.rates.stage import combine

    per = {"en": version_rates(_article(paras))}
    rates = {r.eid: r for r in combine("x", per, {"en": set()}, ["en"])}
    assert rates["art_10__para_2"].conditions.otherwise
    assert phrase(rates["art_10__para_2"].conditions, "sv") == "övriga fall"
    assert rates["art_10__para_3"].conditions.holding_min == 10


@given(st.lists(st.sampled_from(["the", "law", "of", "Contracting", "State", "beneficial",
                                 "owner", "25", "per", "cent", "(a)", "företag", "ações"]),
                min_size=1, max_size=60), st.integers(8, 200))
def test_clip_never_cuts_inside_a_word(words, n):
    text = " ".join(words)
    out = clip(text, n)
    assert len(out) <= max(n, len(words[0]) + 1)
    assert not cut_in_word(out, text)
    assert out.rstrip("…").rstrip() in text


def test_chinese_conditions_as_the_bundled_text_words_them():
    """br-cn-1991 Art. 11: a condition after "但是，" (however) and the one who derives the
    income named before the verb ("为…政府…取得的利息")."""
    from indexer.rates.conditions import read_conditions
    from indexer.rates.extract import _leading_condition

    said = _leading_condition("但是，如果收款人是利息受益所有人，则所征税款不应超过")
    assert said == "如果收款人是利息受益所有人"
    assert read_conditions(said, "zh").beneficial_owner
    exempt = ("三、虽有第一款和第二款的规定，发生于缔约国一方而为缔约国另一方政府、其行政区、地方当局"
              "及其中央银行或者完全为其政府所有的金融机构取得的利息，应在该缔约国一方免税。")
    assert set(read_conditions(exempt, "zh").recipient) == {"government", "central bank",
                                                            "financial institution"}
