"""The condition of a rate, read into fields and said back in a short phrase in any of the
four languages.

`read_conditions(clause, lang)` reads, from the words of a condition in one language
version ("if the beneficial owner is a company which holds directly at least 25 per cent of
the capital of the company paying the dividends"), what a lawyer checks: the minimum (and
maximum) holding, of what (capital, votes), whether directly or also indirectly, for how
long, the kind of recipient (company, pension fund, bank, government …), whether the
recipient must be the beneficial owner, what the payment is for (trade marks, equipment …),
who pays it (a company resident in Kenya) and whether the rate is the one "in all other
cases". `phrase(conditions, lang)` says those fields in en, pt, sv or zh ("company holding
directly at least 25% of the capital", "bolag som direkt innehar minst 25 % av kapitalet");
"" when they say nothing. `clip(text, n)` shortens a text at a word's end, never inside one.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from functools import cache

from indexer.rates.numbers import percentages, words_value

#: Words before a holding threshold (the percentage after them is a minimum).
_AT_LEAST = (r"at\s+least|not\s+less\s+than|a\s+minimum\s+of|minimum\s+of|more\s+than|over"
             r"|minst|mer\s+än|över|pelo\s+menos|no\s+m[íi]nimo|mais\s+de|superior\s+a"
             r"|不少于|不低于|至少|超过")
_LESS_THAN = r"less\s+than|below|under|mindre\s+än|understiger|menos\s+de|inferior\s+a|少于|低于"
#: What a holding is of: the words after its percentage.
_OF = (("votes", r"vot|röst|voto|表决|投票"),
       ("capital", r"capital|kapital|aktiekapital|资本|股本|shares|aktier|andelar|ações|股份"))
_INDIRECT = (r"directly\s+or\s+indirectly|direkt\s+eller\s+indirekt|direta\s+ou\s+indiretamente"
             r"|directa\s+ou\s+indirectamente|直接或间接")
_DIRECT = r"\bdirectly\b|\bdirekt\b|\bdiretamente\b|\bdirectamente\b|直接"
#: (a number word is read from the start of its run of letters only: the search is linear in
#: the text, not quadratic in a run of letters that no unit follows)
_PERIOD = re.compile(
    r"(?P<n>\d{1,3}|(?<![a-zåäöéêçãõ])[a-zåäöéêçãõ]+)[\s-]*(?P<unit>days?|months?|years?|dagar|dagars|månader|"
    r"månaders|år|dias|meses|anos|天|日|个月|年)", re.IGNORECASE)
_PERIOD_CUE = re.compile(r"period|throughout|during|for\s+(?:a|the|at\s+least)|held|owned|"
                         r"under\s+(?:en|minst)|innehavet|haft|durante|período|期间|持有|连续",
                         re.IGNORECASE)
#: Kinds of recipient, each with its words in en, pt, sv and zh (looked for in this order:
#: the first word that matches a stretch of the text claims it).
_RECIPIENTS = (
    ("pension fund", (r"pension\s+(?:fund|scheme|plan)|pensionsfond|pensionsorganisation"
                     r"|pensionsplan|fundos?\s+de\s+pens[ãa]o|养老金|退休金|养老基金")),
    ("central bank", r"central\s+bank|centralbank|riksbank|banco\s+central|中央银行"),
    ("government", (r"\bgovernment|\bregering|\bstaten\b|\bgoverno|political\s+sub-?division"
                   r"|local\s+authorit|politisk\s+underavdelning|lokala?\s+myndighet|政府")),
    ("insurance company", r"insurance\s+compan|försäkringsbolag|seguradora|保险公司"),
    ("financial institution", (r"financial\s+institution|finansinstitut|kreditinstitut"
                              r"|instituição\s+financeira|金融机构")),
    ("bank", r"\bbanks?\b|\bbanco\b|\bbank(?:en)?\b|银行"),
    ("individual", r"\bindividual\b|fysisk\s+person|pessoa\s+física|个人"),
    ("company", r"\bcompan(?:y|ies)\b|\bbolag(?:et)?\b|\bsociedade\b|公司"),
)
#: The recipient is named after these words ("if the beneficial owner is a company").
_WHO = re.compile(r"(?:beneficial\s+owner|recipient|beneficially\s+owned\s+by|paid\s+to|"
                  r"derived\s+(?:and\s+beneficially\s+owned\s+)?by|received\s+by|owned\s+by|"
                  r"har\s+rätt\s+till\s+\w+\s+är|mottagaren\s+(?:är|av)|betalas\s+till|uppbärs\s+av|"
                  r"tillfaller|beneficiário\s+efe(?:c)?tivo|pagos?\s+a|recebidos?\s+por|"
                  r"受益所有人|取得)", re.IGNORECASE)
#: A Chinese verb whose agent (who derives the income) stands before it.
_DERIVED_BY = re.compile(r"取得|获得")
#: The company that pays: no recipient ("the company paying the dividends", "det utdelande
#: bolaget", "a sociedade pagadora").
_PAYING = re.compile(r"(?:the\s+)?compan(?:y|ies)\s+(?:paying|which\s+pays|making\s+the)|"
                     r"(?:det\s+)?(?:utdelande|utbetalande)\s+bolaget?s?|bolag(?:et)?\s+som\s+betalar|"
                     r"sociedade\s+(?:pagadora|que\s+paga)|支付股息的公司|支付股息公司", re.IGNORECASE)
_BENEFICIAL = re.compile(r"beneficial(?:ly)?\s+own|har\s+rätt\s+till|verklige\s+innehavare|"
                         r"beneficiário\s+efe(?:c)?tivo|受益所有人", re.IGNORECASE)
_OTHERWISE = re.compile(r"(?:in\s+)?all\s+other\s+(?:cases|royalties|interest)|in\s+other\s+cases"
                        r"|i\s+(?:alla\s+)?(?:övriga|andra)\s+fall|em\s+todos\s+os\s+demais\s+casos"
                        r"|nos\s+(?:restantes|demais)\s+casos|其[它他]情况", re.IGNORECASE)
#: What a payment is for, each with its words (a royalty's or an interest's own kind).
_SUBJECTS = (
    ("trade marks", r"trade\s*marks?|varumärke|marcas?\s+de\s+(?:indústria|comércio)|商标"),
    ("equipment", r"equipment|utrustning|equipamentos?|设备"),
    ("copyright", r"copyright|upphovsrätt|direitos?\s+de\s+autor|版权"),
    ("patents", r"\bpatent|\bpatentes?\b|专利"),
    ("news", r"\bnews\b|\bnyheter\b|notícias"),
    ("technical services", (r"technical\s+(?:services|assistance)|tekniska\s+tjänster|tekniskt"
                           r"\s+bistånd|serviços\s+técnicos|技术服务")),
    ("credit sales", (r"sale\s+on\s+credit|credit\s+sale|kreditförsäljning|försäljning\s+på\s+kredit"
                     r"|venda\s+a\s+crédito|赊销")),
    ("loans", r"\bloans?\b|\blån\b|empréstimos?|贷款"),
)
_PAYER = re.compile(r"(?:paid\s+by\s+a\s+company\s+which\s+is\s+a\s+resident\s+of|company\s+paying"
                    r"\s+the\s+dividends\s+is\s+a\s+resident\s+of|paid\s+by\s+a\s+company\s+resident"
                    r"\s+in|betalas\s+av\s+ett\s+bolag\s+med\s+hemvist\s+i|från\s+bolag\s+med\s+"
                    r"hemvist\s+i|pagos\s+por\s+uma\s+sociedade\s+residente\s+(?:de|em|no|na))\s+"
                    r"(?:the\s+)?(?P<state>[A-ZÅÄÖ][\w-]+(?:\s+[A-Z][\w-]+)?)", re.IGNORECASE)


@dataclass(frozen=True)
class Conditions:
    """The fields of a rate's condition (None / () / False: the text says nothing of it)."""

    holding_min: float | None = None  # percent
    holding_max: float | None = None  # percent, "but less than 50 per cent"
    holding_of: str | None = None  # "capital", "votes" or "capital or votes"
    holding_direct: str | None = None  # "direct" or "direct or indirect"
    period: str | None = None  # "365 days", "6 months", "2 years"
    recipient: tuple[str, ...] = ()  # "company", "pension fund", "bank", "government" …
    beneficial_owner: bool = False
    subject: tuple[str, ...] = ()  # what is paid for: "trade marks", "equipment" …
    payer: str | None = None  # ISO code of the state where the paying company is resident
    otherwise: bool = False  # the rate "in all other cases"

    def as_json(self) -> dict:
        out = asdict(self)
        out["recipient"] = list(self.recipient)
        out["subject"] = list(self.subject)
        return out

    @classmethod
    def of_json(cls, data: dict | None) -> Conditions:
        if not data:
            return cls()
        data = dict(data)
        data["recipient"] = tuple(data.get("recipient") or ())
        data["subject"] = tuple(data.get("subject") or ())
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})

    @property
    def said(self) -> bool:
        """Whether a phrase can be made of it (a holding, a recipient, what is paid for, the
        payer, or "all other cases")."""
        return bool(self.holding_min is not None or self.recipient or self.subject
                    or self.payer or self.otherwise)


@cache
def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _holding(clause: str) -> dict:
    """min/max/of/direct of the holding threshold a clause states, if any."""
    out: dict = {}
    for p in percentages(clause):
        before = clause[max(0, p.start - 60):p.start]
        after = clause[p.end:p.end + 90]
        if _re(rf"(?:{_LESS_THAN})\s*$").search(before):
            if out.get("holding_min") is not None:
                out["holding_max"] = p.value
            continue
        if not _re(rf"(?:{_AT_LEAST})\s*$").search(before) and not _re(
                r"(?:holds?|owns?|innehar|äger|behärskar|kontrollerar|detenha|possua)\s*$"
                ).search(before):
            continue
        if out.get("holding_min") is not None:
            continue
        out["holding_min"] = p.value
        kinds = [name for name, pattern in _OF if _re(pattern).search(after)]
        out["holding_of"] = " or ".join(sorted(kinds)) if kinds else None
        lead = clause[max(0, p.start - 120):p.start]
        if _re(_INDIRECT).search(lead):
            out["holding_direct"] = "direct or indirect"
        elif _re(_DIRECT).search(lead) or _re(_DIRECT).search(after[:40]):
            out["holding_direct"] = "direct"
    return out


def _period(clause: str) -> str | None:
    """"365 days", "6 months", "2 years": a holding period the clause states."""
    for m in _PERIOD.finditer(clause):
        around = clause[max(0, m.start() - 60):m.end() + 20]
        if not _PERIOD_CUE.search(around):
            continue
        n = m["n"]
        value = int(n) if n.isdigit() else words_value(n)
        if value is None or value == 0:
            continue
        unit = m["unit"].lower()
        unit = ("days" if unit[0] in "d天日" or unit.startswith(("dag", "dia"))
                else "months" if unit[0] in "m个" or unit.startswith(("mån", "mes"))
                else "years")
        if unit == "years" and value > 20:  # a date, not a period
            continue
        return f"{value} {unit}"
    return None


def _claimed(text: str, table) -> tuple[str, ...]:
    """The names of `table` whose words occur in `text`, a stretch claimed by one name only
    (a "central bank" is no "bank")."""
    taken: list[tuple[int, int]] = []
    out = []
    for name, pattern in table:
        for m in _re(pattern).finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            if name not in out:
                out.append(name)
    return tuple(out)


def _recipient(clause: str) -> tuple[str, ...]:
    """The kinds of recipient the clause names after its "beneficial owner is", "paid to" …
    (or anywhere in a clause that names no such words); Chinese names the one who derives
    an income before the verb ("为缔约国另一方政府…取得的利息")."""
    m = _WHO.search(clause)
    found = _claimed(_PAYING.sub(" ", clause[m.end():] if m else clause), _RECIPIENTS)
    before = _DERIVED_BY.search(clause)
    if not found and before is not None:
        found = _claimed(_PAYING.sub(" ", clause[:before.start()]), _RECIPIENTS)
    return found


def read_conditions(clause: str, lang: str = "en") -> Conditions:
    """The fields of the condition `clause` states (module doc)."""
    from indexer.sources.countries import lookup

    if not clause.strip():
        return Conditions()
    held = _holding(clause)
    payer = None
    m = _PAYER.search(clause)
    if m:
        payer = lookup(m["state"]) or lookup(m["state"].split()[0])
    recipient = _recipient(clause)
    if held.get("holding_min") is not None and not recipient:
        recipient = ("company",)
    return Conditions(
        holding_min=held.get("holding_min"), holding_max=held.get("holding_max"),
        holding_of=held.get("holding_of"), holding_direct=held.get("holding_direct"),
        period=_period(clause) if held else None, recipient=recipient,
        beneficial_owner=bool(_BENEFICIAL.search(clause)),
        subject=_claimed(clause, _SUBJECTS), payer=payer,
        otherwise=bool(_OTHERWISE.search(clause)))


# --- the phrase ------------------------------------------------------------------------------

_RECIPIENT_NAMES = {
    "company": ("company", "sociedade", "bolag", "公司"),
    "pension fund": ("pension fund", "fundo de pensão", "pensionsfond", "养老基金"),
    "central bank": ("central bank", "banco central", "centralbank", "中央银行"),
    "government": ("government", "governo", "staten", "政府"),
    "insurance company": ("insurance company", "seguradora", "försäkringsbolag", "保险公司"),
    "financial institution": ("financial institution", "instituição financeira",
                              "finansinstitut", "金融机构"),
    "bank": ("bank", "banco", "bank", "银行"),
    "individual": ("individual", "pessoa física", "fysisk person", "个人"),
}
_SUBJECT_NAMES = {
    "trade marks": ("trade marks", "marcas", "varumärken", "商标"),
    "equipment": ("equipment", "equipamentos", "utrustning", "设备"),
    "copyright": ("copyright", "direitos de autor", "upphovsrätt", "版权"),
    "patents": ("patents", "patentes", "patent", "专利"),
    "news": ("news", "notícias", "nyheter", "新闻"),
    "technical services": ("technical services", "serviços técnicos", "tekniska tjänster",
                           "技术服务"),
    "credit sales": ("credit sales", "vendas a crédito", "kreditförsäljning", "赊销"),
    "loans": ("loans", "empréstimos", "lån", "贷款"),
}
_LANGS = ("en", "pt", "sv", "zh")
_OF_NAMES = {
    "capital": ("the capital", "do capital", "kapitalet", "资本"),
    "votes": ("the voting power", "dos direitos de voto", "röstetalet", "表决权"),
    "capital or votes": ("the capital or voting power", "do capital ou dos direitos de voto",
                         "kapitalet eller röstetalet", "资本或表决权"),
}
_UNITS = {"days": ("days", "dias", "dagar", "天"), "months": ("months", "meses", "månader", "个月"),
          "years": ("years", "anos", "år", "年")}
_OTHERWISE_NAMES = ("all other cases", "todos os demais casos", "övriga fall", "其他情况")
_BENEFICIAL_NAMES = ("beneficial owner", "beneficiário efetivo", "har rätt till inkomsten",
                     "受益所有人")


def _pct(value: float, lang: str) -> str:
    text = f"{value:g}"
    if lang in ("pt", "sv"):
        text = text.replace(".", ",")
    return f"{text} %" if lang == "sv" else f"{text}%"


def _join(words: list[str], lang: str) -> str:
    if len(words) <= 1:
        return "".join(words)
    last = {"en": " or ", "pt": " ou ", "sv": " eller ", "zh": "或"}[lang]
    return (", " if lang != "zh" else "、").join(words[:-1]) + last + words[-1]


def _holding_text(c: Conditions, lang: str) -> str:
    k = _LANGS.index(lang)
    if c.holding_min is None:
        return ""
    of = _OF_NAMES.get(c.holding_of or "", ("", "", "", ""))[k]
    direct = {"direct": ("directly", "diretamente", "direkt", "直接"),
              "direct or indirect": ("directly or indirectly", "direta ou indiretamente",
                                     "direkt eller indirekt", "直接或间接")}.get(
        c.holding_direct or "", ("", "", "", ""))[k]
    least = _pct(c.holding_min, lang)
    most = _pct(c.holding_max, lang) if c.holding_max is not None else ""
    period = ""
    if c.period:
        n, unit = c.period.split()
        period = f"{n} {_UNITS[unit][k]}" if lang != "zh" else f"{n}{_UNITS[unit][k]}"
    if lang == "en":
        amount = f"at least {least}" + (f" but less than {most}" if most else "")
        return " ".join(x for x in ("holding", direct, amount, f"of {of}" if of else "",
                                    f"for {period}" if period else "") if x)
    if lang == "pt":
        amount = f"pelo menos {least}" + (f" mas menos de {most}" if most else "")
        return " ".join(x for x in ("que detenha", direct, amount, of,
                                    f"durante {period}" if period else "") if x)
    if lang == "sv":
        amount = f"minst {least}" + (f" men mindre än {most}" if most else "")
        return " ".join(x for x in ("som", direct, "innehar", amount, f"av {of}" if of else "",
                                    f"under {period}" if period else "") if x)
    amount = f"至少{least}" + (f"但少于{most}" if most else "")
    return f"{direct}持有{amount}{of}" + (f"达{period}" if period else "")


def phrase(c: Conditions, lang: str) -> str:
    """A short phrase of `c` in `lang` (en, pt, sv, zh; another language gets English); ""
    when `c` says nothing a phrase can say."""
    lang = lang if lang in _LANGS else "en"
    k = _LANGS.index(lang)
    if not c.said:
        return ""
    parts = []
    who = _join([_RECIPIENT_NAMES[r][k] for r in c.recipient if r in _RECIPIENT_NAMES], lang)
    holding = _holding_text(c, lang)
    if lang == "zh" and holding:
        parts.append(f"{holding}的{who or '公司'}")
    elif who or holding:
        parts.append(" ".join(x for x in (who or _RECIPIENT_NAMES["company"][k], holding) if x))
    if c.subject:
        what = _join([_SUBJECT_NAMES[s][k] for s in c.subject], lang)
        parts.append({"en": f"for {what}", "pt": f"por {what}", "sv": f"för {what}",
                      "zh": f"{what}"}[lang])
    if c.payer:
        from indexer.sources.countries import country_name

        name = country_name(c.payer, lang)
        parts.append({"en": f"paid by a company resident in {name}",
                      "pt": f"pagos por sociedade residente em {name}",
                      "sv": f"betald av bolag med hemvist i {name}",
                      "zh": f"由{name}居民公司支付"}[lang])
    if c.otherwise and not parts:
        parts.append(_OTHERWISE_NAMES[k])
    return ("；" if lang == "zh" else "; ").join(parts)


_WORD_END = re.compile(r"[\w\u00c0-\u024f]$")


def clip(text: str, n: int) -> str:
    """`text` on one line, at most `n` characters: cut at the end of a word (never inside
    one) and marked with "…" when shortened. A Chinese text (no spaces) is cut at a
    punctuation mark where there is one, else anywhere (each character is a word). A first
    word longer than `n` is kept whole."""
    text = " ".join(text.split())
    if len(text) <= n:
        return text
    head = text[: n - 1]
    if re.search(r"[\u3400-\u9fff]", head):
        cut = max(head.rfind("，"), head.rfind("、"), head.rfind("；"))
        return (head[:cut] if cut >= n // 3 else head).rstrip() + "…"
    if text[n - 1] == " ":
        return head.rstrip(" ,;:(–-") + "…"
    cut = head.rfind(" ")
    if cut <= 0:
        return text.split(" ")[0].rstrip(" ,;:(–-") + "…"
    return head[:cut].rstrip(" ,;:(–-") + "…"


def cut_in_word(phrase_text: str, source: str) -> bool:
    """Whether a phrase taken from `source` ends inside one of its words ("law of th…"): the
    text before its "…" is followed, in `source`, by a letter."""
    if not phrase_text.endswith("…"):
        return False
    body = phrase_text[:-1].rstrip()
    text = " ".join(source.split())
    at = text.find(body)
    if at < 0 or not body:
        return False
    nxt = text[at + len(body):at + len(body) + 1]
    return bool(nxt) and bool(_WORD_END.match(body[-1:]) and re.match(r"[\w\u00c0-\u024f]", nxt)
                             and not re.search(r"[\u3400-\u9fff]", nxt))
