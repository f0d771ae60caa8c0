"""What a statement of a rate is: a limit on the source state's tax (an exemption there is a
limit of 0), a branch-profits tax, a most-favoured-nation clause, or no rate row at all — a
residence state's exemption of the income it receives.

- `is_branch(text)`: a limit on a tax on a permanent establishment's profits ("an
  additional tax on the profits remitted by that permanent establishment", "ytterligare skatt
  … fast driftställe", "imposto … estabelecimento permanente", "常设机构 … 利润").
- `is_mfn(text)`: a clause that gives a lower rate (or an exemption) agreed with a third
  state ("If … Brazil agrees with a member state of the OECD to a lower rate …, that rate
  shall apply").
- `exempting_role(sentence, context)`: whose exemption an exemption is — "source" (the state
  where the income arises may not tax it: "taxable only in the other State", "exempt from tax
  in the first-mentioned State", "shall not levy a tax"), "residence" (the state of the
  recipient exempts what it receives: "dividends paid by a company resident in Brazil to a
  company resident in Sweden shall be exempt from Swedish tax").
- `incomes(text)`: the rate topics whose income a text names.
"""

from __future__ import annotations

import re
from functools import cache

from indexer.hanzi import either_script

#: A permanent establishment or a branch.
PE = (r"permanent\s+establishment|branch\s+profits|branch\s+tax|estabelecimento\s+permanente"
      r"|fast(?:a)?\s+driftst[äa]lle|常设机构|filial")
#: The tax of a branch: on its profits, on what it remits, an additional tax.
_BRANCH_TAX = (r"profits?|income|remit|repatriat|additional\s+tax|further\s+tax|lucros?|renda"
               r"|rendimento|inkomst|vinst|överföring|ytterligare\s+skatt|tilläggsskatt|利润|汇出")
#: A third state (or the OECD's members) in a clause that passes on its lower rate.
_THIRD = (r"third\s+(?:State|country|countries|party)|any\s+other\s+(?:State|country)"
          r"|member\s+(?:State\s+)?of\s+the\s+(?:OECD|Organi[sz]ation)|\bOECD\b"
          r"|tredje\s+stat|annan\s+stat\s+än|(?:någon|något|ett)\s+annan?t?\s+(?:stat|land)"
          r"|medlem\s+i\s+(?:OECD|Organisationen\s+för\s+ekonomiskt)"
          r"|terceiro\s+(?:Estado|país)|qualquer\s+outro\s+(?:Estado|país)|\bOCDE\b|第三国|经济合作与发展组织")
_LOWER = (r"lower|reduced?\s+rate|more\s+favourable|exempt|limit\s+its\s+taxation|lägre|sänk"
          r"|undanta|begränsa|inferior|reduzid|isen|较低|低于|免")
#: Exemptions whose state is named: "taxable only in X" (the source may not tax), as against
#: "exempt from tax in X" (X may not tax: the source or, for a participation exemption, the
#: recipient's state).
_ONLY = (r"(?:taxable|taxed)\s+only\s+in|only\s+in\s+the\s+(?:Contracting\s+)?State\s+of\s+which"
         r"|beskattas\s+endast|beskattas\b[^.;:]{0,200}?\bendast\s+i\b|endast\s+(?:i\s+)?hemviststaten|äger\s+endast|endast\s+i\s+den"
         r"|tribut[áa]ve(?:is|l)\s+(?:somente|apenas|exclusivamente)|(?:só|somente|apenas)\s+"
         r"(?:podem|poderão|pode|poderá)\s+ser\s+tributad|仅在|只应在|应仅在")
#: The recipient's state, as the text refers to it.
_RECIPIENT_STATE = (
    r"(?:the|that)\s+other\s+(?:Contracting\s+)?(?:State|Party)|(?:State|Party)\s+of\s+which\s+"
    r"the\s+(?:recipient|beneficial\s+owner|company\s+(?:receiving|which\s+receives))"
    r"|denna\s+andra\s+(?:avtalsslutande\s+)?stat|den\s+andra\s+(?:avtalsslutande\s+)?staten"
    r"|(?:nesse|no|naquele)\s+outro\s+Estado|hemviststat|mottagarens|另一方"
)
#: The source state, as the text refers to it.
_SOURCE_STATE = (
    r"first[\s-]*mentioned|\bthat\s+(?:Contracting\s+)?State\b|(?:State|Party)\s+in\s+which\s+"
    r"(?:it|they|the\s+\w+)\s+arises?|(?:State|Party)\s+of\s+(?:source|which\s+the\s+company"
    r"\s+(?:paying|which\s+pays|making))|förstnämnda|denna\s+(?:avtalsslutande\s+)?stat\b"
    r"|(?:den|i\s+den)\s+(?:avtalsslutande\s+)?stat\s+(?:där|i\s+vilken)\s+(?:det\s+)?bolag"
    r"|stat\s+från\s+vilken|källstat|primeiro\s+Estado|nesse\s+Estado\b|Estado\s+de\s+que\s+é"
    r"\s+residente\s+a\s+sociedade|该缔约国一方|来源国|所得发生国"
)
#: Words that make the country named after them the source (the payer's state, where the
#: income arises) or the recipient's.
_SOURCE_WORDS = (r"arising\s+in|derived\s+from|(?:paid|distributed)\s+by\s+(?:a|the)\s+company[^.;]{0,40}?"
                 r"resident\s+(?:of|in)|company\s+(?:which\s+is\s+a\s+)?resident\s+(?:of|in)"
                 r"|härrör\s+från|(?:från|av)\s+(?:ett\s+)?bolag(?:\s*\([^)]{0,40}\))?\s+med\s+hemvist"
                 r"\s+i|provenientes?\s+d[eoa]|pag[oa]s?\s+por\s+(?:uma\s+)?(?:sociedade|companhia|"
                 r"empresa)[^.;]{0,40}?residente\s+(?:de|do|da|em|no|na)|发生于")
_RECIPIENT_WORDS = (r"to\s+(?:a|another)\s+(?:company|person|resident)[^.;]{0,40}?resident\s+(?:of|in)"
                    r"|to\s+a\s+resident\s+of|by\s+a\s+resident\s+of|till\s+(?:ett\s+|en\s+)?"
                    r"(?:bolag|person)(?:\s*\([^)]{0,40}\))?\s+med\s+hemvist\s+i|\ba\s+(?:uma|outra)\s+"
                    r"(?:sociedade|companhia|empresa|pessoa)[^.;]{0,40}?residente\s+(?:de|do|da|em|no|na)"
                    r"|a\s+um\s+residente\s+(?:de|do|da|em|no|na)")
#: Income words of each rate topic, any language.
INCOME_WORDS = (
    ("technical-services", (r"(?:fees?|payments?|remunerat\w*)\s+for\s+technical|technical\s+"
                           r"(?:services?|fees?)|tekniska\s+tjänster|servi[çc]os\s+t[ée]cnicos"
                           r"|技术服务")),
    ("dividends", r"dividend|utdelning|dividendos?|股息"),
    ("interest", r"\binterest\b|\bjuros\b|ränta|räntan|räntans|利息"),
    ("royalties", r"royalt|特许权使用费"),
)


@cache
def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(either_script(pattern), re.IGNORECASE)


def is_branch(sentence: str, context: str = "") -> bool:
    """Whether the limit `sentence` states is on a tax on a permanent establishment's
    profits: the sentence (or its unit's text, `context`) names a permanent establishment,
    and the sentence a tax on its profits, its remittances or an additional tax."""
    if not (_re(PE).search(sentence) or _re(PE).search(context)):
        return False
    if _re(r"shall\s+not\s+apply|tillämpas\s+inte|não\s+se\s+aplica|paid\s+to\s+a\s+permanent"
           ).search(sentence):
        return False  # "the limitation shall not apply to interest paid to a PE in a third State"
    return bool(_re(_BRANCH_TAX).search(sentence))


#: An agreement (with the third state) that an MFN clause speaks of.
_AGREEMENT = (r"agree|agreement|convention|treaty|protocol|avtal|överenskomm|acordo|convenção"
              r"|conven[cç][aã]o|protocolo|协定|协议")


def is_mfn(text: str) -> bool:
    """Whether `text` passes on to this treaty a lower rate or an exemption agreed with a
    third state."""
    return bool(_re(_THIRD).search(text) and _re(_LOWER).search(text)
                and _re(_AGREEMENT).search(text))


def names_branch(text: str) -> bool:
    """Whether `text` names a permanent establishment (a branch)."""
    return bool(_re(PE).search(text))


def incomes(text: str) -> list[str]:
    """The rate topics whose income `text` names, in the order of `INCOME_WORDS` (technical
    fees first: "fees for technical services" are no "royalties")."""
    found = []
    rest = text
    for topic, pattern in INCOME_WORDS:
        if _re(pattern).search(rest):
            found.append(topic)
            rest = _re(pattern).sub(" ", rest)
    return found


def _countries(text: str) -> list[tuple[str, int]]:
    from indexer.sources.countries import find_countries

    return [(m.code, m.start) for m in find_countries(text)]


def _roles(context: str) -> tuple[set[str], set[str]]:
    """(source states, recipient states) the context names: each country after words that
    make it the payer's (or where the income arises) or the recipient's."""
    sources: set[str] = set()
    recipients: set[str] = set()
    for code, at in _countries(context):
        before = context[max(0, at - 70):at]
        if _re(rf"(?:{_RECIPIENT_WORDS})\s*(?:the\s+)?$").search(before):
            recipients.add(code)  # (first: "to a company which is a resident of" is no payer)
        elif _re(rf"(?:{_SOURCE_WORDS})\s*(?:the\s+)?$").search(before):
            sources.add(code)
    return sources, recipients


#: Where a state is named by an adjective or a name: "from Swedish tax", "svensk skatt",
#: "in Sweden", "i Sverige", "na Suécia".
#: (a word is read from its start only: linear in the window, not quadratic in a long word)
_STATE_WORD = re.compile(r"(?<![^\W\d_])(?P<a>[^\W\d_]{3,})\s+(?:tax|taxation|skatt|beskattning|"
                         r"imposto|tributo)"
                         r"|\b(?:in|i|em|no|na)\s+(?P<b>[^\W\d_]{3,})", re.IGNORECASE)


def _named_state(window: str, candidates: set[str]) -> str | None:
    """The state a window names ("exempt from Swedish tax", "undantagen från svensk skatt",
    "in Sweden"): a country's name, else an adjective of one: the one of `candidates` whose
    name it begins like, longer than any other's."""
    from indexer.sources.countries import country_name, from_adjective

    found = _countries(window)
    if found:
        return found[0][0]
    for m in _STATE_WORD.finditer(window):
        word = (m["a"] or m["b"]).lower()
        code = from_adjective(word)
        if code:
            return code
        scores = {c: max(len(_common(country_name(c, lang).lower(), word))
                         for lang in ("en", "sv", "pt")) for c in candidates}
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        if ranked and ranked[0][1] >= 2 and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            return ranked[0][0]
    return None


def _common(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


#: The first state a sentence introduces ("a Contracting State", "one of the States").
_FIRST_STATE = (r"(?:a|one\s+of\s+the)\s+(?:Contracting\s+)?(?:States?|Party)\b|en\s+(?:av\s+de\s+)?"
                r"avtalsslutande\s+stat|en\s+av\s+(?:de\s+)?(?:avtalsslutande\s+)?staterna"
                r"|um\s+(?:dos\s+)?Estados?\s+Contratantes?|缔约国一方")
_GENERIC_SOURCE = (r"(?:arising|derived)\s+in|(?:paid|distributed)\s+by\s+a\s+company\s+(?:which\s+"
                   r"is\s+)?(?:a\s+)?resident\s+(?:of|in)|company\s+(?:which\s+is\s+)?(?:a\s+)?"
                   r"resident\s+(?:of|in)|härrör\s+från|bolag(?:\s*\([^)]{0,40}\))?\s+med\s+"
                   r"hemvist\s+i|provenientes?\s+d[eoa]|sociedade\s+residente\s+d[eoa]|发生于")


def _other_is_recipient(sentence: str) -> bool:
    """Whether "the other State" of `sentence` is the recipient's: the state it introduces
    first is where the income arises or the payer's ("interest arising in a Contracting State
    and paid to a resident of the other"), not the recipient's ("the Government of a
    Contracting State shall be exempt from tax in the other")."""
    if _re(r"arising\s+in\s+that\s+other|from\s+that\s+other|härrör\s+från\s+denna\s+andra|"
           r"provenientes?\s+desse\s+outro").search(sentence):
        return False
    first = _re(_FIRST_STATE).search(sentence)
    if first is None:
        return True
    before = sentence[max(0, first.start() - 70):first.start()]
    return bool(_re(rf"(?:{_GENERIC_SOURCE})\s*(?:the\s+)?$").search(before))


def exempting_role(sentence: str, start: int, end: int, context: str = "") -> str:
    """"source" or "residence": whose exemption the exemption in `sentence` is (its words
    from `start` to `end`; `context`: the unit's own text, where the payer and the recipient
    may be named in another sentence). "source" when nothing says otherwise."""
    if _re(_ONLY).search(sentence[start:end]):
        return "source"  # taxable only in the recipient's state: the source may not tax
    tail = re.split(r"(?<=[.;。；])\s|(?=\b(?:if|provided|om|se|desde)\b)",
                    sentence[end:end + 120], maxsplit=1)[0]
    window = sentence[start:end] + tail
    if _re(_RECIPIENT_STATE).search(window):
        return "residence" if _other_is_recipient(sentence) else "source"
    if _re(_SOURCE_STATE).search(window):
        return "source"
    sources, recipients = _roles(context or sentence)
    named = _named_state(window, sources | recipients)
    if named is not None and named in recipients and named not in sources:
        return "residence"
    return "source"
