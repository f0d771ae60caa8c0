"""The words that make a percentage a rate, in en, pt, sv and zh: the limit a source state's
tax may not exceed, the exemptions, the limits stated by reference, the holding thresholds
that are not rates, and the words of the base and of the income.

Every pattern is matched case-insensitively on a unit's normalised text.
"""

from __future__ import annotations

import re
from functools import cache

#: The topics whose articles set withholding rates.
RATE_TOPICS = ("dividends", "interest", "royalties", "technical-services")

#: "the tax so charged shall not exceed", "não excederá", "får inte överstiga", "不应超过";
#: "höjas till högst" (may be raised to at most).
LIMIT = (
    r"(?:shall|should|may|will|does|do|must)\s+not\s+exceed|not\s+to\s+exceed|not\s+exceeding"
    r"|shall\s+not\s+be\s+more\s+than|(?:shall|may)\s+not\s+be\s+higher\s+than"
    r"|não\s+(?:poderá|deverá|pode|deve|podem|poderão|deverão)\s+exceder|não\s+exceder[áa]o?"
    r"|não\s+exceda[m]?|não\s+ultrapassar[áa]|não\s+poderá\s+ultrapassar"
    r"|(?:inte|icke|ej)\s+(?:må\s+|får\s+|skall\s+|ska\s+)?överstiga|högst"
    r"|不应超过|不得超过|不能超过|不超过|不应高于"
    r"|(?:be|is|are)\s+(?:reduced|lowered)\s+to|(?:sänkas|nedsättas)\s+till"
    r"|(?:reduzid|fixad)[oa]s?\s+(?:para|em)"
)
#: A limit cue that needs no tax word before it: "the percentage provided for in paragraph 2
#: shall be reduced to 7 per cent", "skall sänkas till".
REDUCED = (r"(?:be|is|are)\s+(?:reduced|lowered)\s+to|(?:sänkas|nedsättas)\s+till"
           r"|(?:reduzid|fixad)[oa]s?\s+(?:para|em)")
#: Every match of LIMIT holds (lower-cased) one of these: a sentence without any is not tried.
LIMIT_WORDS = ("exceed", "more than", "higher than", "exced", "ultrapass", "överstiga",
               "högst", "超过", "高于", "reduced to", "lowered to", "sänkas", "nedsättas", "reduzid",
               "fixad")
#: A limit stated by reference: "the limit provided for in subparagraph (a) of paragraph 2",
#: "o limite previsto na alínea a)", "den skattesats som anges i punkt 2 a)", "第二款规定的税率".
REFERENCE = (
    r"(?:the\s+)?(?:limit|rate|percentage|maximum\s+rate)s?\s+(?:provided\s+for|laid\s+down|"
    r"specified|set\s+(?:out|forth)|mentioned|referred\s+to|prescribed|stated)\s+in"
    r"|(?:o|a)\s+(?:limite|taxa|alíquota|percentagem)\s+(?:previst[oa]|estabelecid[oa]|"
    r"referid[oa]|fixad[oa])s?\s+(?:n[oa]|em)"
    r"|(?:den\s+)?(?:gräns|skattesats|procentsats)(?:en)?\s+som\s+(?:anges|avses|föreskrivs)\s+i"
    r"|规定的(?:限额|税率)"
)
#: Exemptions of the income ("taxable only in the other State", "shall be exempt from tax",
#: "shall not be taxed", "tributáveis somente", "beskattas endast i", "undantagen från
#: beskattning", "免税", "仅在…征税").
EXEMPT = (
    r"(?:shall|should|will)\s+be\s+taxable\s+only\s+in|taxable\s+only\s+in"
    r"|(?:shall|should|will|may)\s+be\s+taxed\s+only\s+in"
    r"|(?:äger|får)\s+endast\s+(?:hemviststaten|den\s+stat)"
    r"|(?:shall|should|will)\s+be\s+exempt(?:ed)?\s+from\s+(?:\w+\s+)?tax"
    r"|\bbe\s+exempt(?:ed)?\s+from\s+(?:\w+\s+)?tax"
    r"|(?:shall|should|will)\s+not\s+be\s+(?:taxed|taxable|subject\s+to\s+tax)\s+in"
    r"|(?:shall|should|may)\s+not\s+levy\s+(?:a|any)\s+tax\s+on"
    r"|(?:serão|são|será|é)\s+tribut[áa]ve(?:is|l)\s+(?:somente|apenas|exclusivamente)"
    r"|(?:só|somente|apenas)\s+(?:podem|poderão|pode|poderá)\s+ser\s+tributad[oa]s?"
    r"|(?:ficarão|ficará|ficam|fica|serão|será|são|estarão|estará)\s+isent[oa]s?"
    r"|não\s+serão\s+tributad[oa]s"
    r"|beskattas\s+endast\s+i|(?:skall|ska)\s+beskattas\s+endast"
    r"|(?:undantagen|undantagna|undantas)\s+(?:\w+\s+){0,2}?från\s+(?:\w+\s+)?(?:beskattning|skatt)"
    r"|befriad\s+från\s+(?:\w+\s+)?skatt|beskattas\b[^.;:]{0,200}?\bendast\s+i\b"
    r"|(?:inte|icke|ej)\s+beskattas\b"
    r"|免税|免征|仅在\S{0,20}征税|只应在\S{0,20}征税|应仅在\S{0,20}征税"
)
#: Every match of EXEMPT holds (lower-cased) one of these.
EXEMPT_WORDS = ("only", "exempt", "not be", "levy", "tribut", "isent", "beskattas", "undanta",
                "befriad", "免", "征税", "endast")
#: A percentage right after these is a holding threshold or a share, not a rate.
THRESHOLD = (
    r"(?:at\s+least|not\s+less\s+than|more\s+than|less\s+than|no\s+more\s+than|over|under"
    r"|exceeds?|minimum\s+of|pelo\s+menos|no\s+mínimo|mais\s+de|menos\s+de|superior\s+a"
    r"|minst|mer\s+än|mindre\s+än|över|不少于|不低于|超过|以上|means|significa"
    r"|betyder|avser|是指|representing|representerar|owns|holds|äger|innehar|detenha|possuir)"
    r"\s*$"
)
#: A limit is on a tax: these words stand before the limit in its sentence.
TAX = r"\btax|imposto|tributo|skatt|税"
#: Words of the income of each topic (any language): an exemption must name the income.
INCOME = (
    r"dividend|interest|royalt|fees?\s+for\s+technical|technical\s+(?:services|fees)"
    r"|dividendos?|juros|remunera[çc][õo]es\s+por\s+servi[çc]os\s+t[ée]cnicos"
    r"|utdelning|ränta|räntan|royalty|ersättning\s+för\s+tekniska"
    r"|股息|利息|特许权使用费|技术服务费"
)
#: The base of a rate, as an English label.
BASES = (
    ("adjusted amount", r"adjusted\s+amount|montante\s+ajustado|justerade\s+beloppet|调整后"),
    ("gross amount", r"gross\s+amount|montante\s+bruto|valor\s+bruto|bruttobelopp|总额"),
    ("profits", r"profits|lucros|vinst|利润"),
)
#: Where a rate's condition begins ("if the beneficial owner is", "se", "om", "如果", "in all
#: other cases", "em todos os demais casos", "i övriga fall", "其它情况下").
CONDITION = (
    r"\b(?:if|where|provided\s+that|in\s+the\s+case\s+of|in\s+respect\s+of|arising\s+from"
    r"|derived\s+from|paid\s+(?:for|to|by)|provenientes?\s+d[oa]s?|pag[oa]s?\s+(?:a|por)"
    r"|som\s+härrör\s+från|in\s+all\s+other"
    r"\s+cases|se|quando|nos\s+restantes\s+casos|som\s+avses\s+i|referred\s+to\s+in|em\s+todos\s+os\s+demais\s+casos|om|i\s+fråga"
    r"\s+om|i\s+övriga\s+fall|då|för)\b|如果|由于|其它情况下|其他情况下"
)


@cache
def compiled(name: str) -> re.Pattern[str]:
    """The compiled pattern of the cue `name` (LIMIT, REFERENCE, EXEMPT, THRESHOLD, TAX,
    INCOME, CONDITION)."""
    return re.compile(globals()[name], re.IGNORECASE)


@cache
def base_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((label, re.compile(p, re.IGNORECASE)) for label, p in BASES)
