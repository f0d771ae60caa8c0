"""The words of a state's form ("Kingdom of", "Republiken", "República Federativa do",
"Socialist Republic", "共和国"), in en, sv, pt and zh, each mapped to one language-neutral key.

A country's name is a form and a base: "Republic of Korea" is ({republic}, "Korea"),
"Republiken Korea" the same in Swedish, "Democratic People's Republic of Korea"
({democratic, people, republic}, "Korea"). Names are indexed by their base, and a base two
countries share is told apart by the form written before it. The vocabulary is the closed
class of state-form words of each language; it names no country.

Everything here works on folded text (`countries.fold`: lower case, no accents), so
"Förenade" is "forenade" and "República" "republica".
"""

from __future__ import annotations

import re
from functools import cache

# word -> keys. English and Portuguese forms take a preposition before the base ("Kingdom of
# Sweden", "Reino da Suécia"); Swedish ones do not ("Konungariket Sverige").
_EN = {
    "republic": "republic", "republics": "republic", "kingdom": "kingdom", "state": "state",
    "states": "state", "federal": "federal", "federative": "federal", "federated": "federal",
    "socialist": "socialist", "democratic": "democratic", "people's": "people",
    "people’s": "people", "peoples": "people", "popular": "people", "islamic": "islamic",
    "united": "united", "arab": "arab", "principality": "principality",
    "grand duchy": "grandduchy", "duchy": "duchy", "sultanate": "sultanate",
    "emirate": "emirate", "emirates": "emirate", "confederation": "confederation",
    "federation": "federation", "commonwealth": "commonwealth", "union": "union",
    "plurinational": "plurinational", "bolivarian": "bolivarian", "oriental": "oriental",
    "cooperative": "cooperative", "co-operative": "cooperative", "hashemite": "hashemite",
    "independent": "independent", "soviet": "soviet",
}
_SV = {
    "republiken": "republic", "republikerna": "republic", "konungariket": "kingdom",
    "kungariket": "kingdom", "staten": "state", "staterna": "state", "federala": "federal",
    "federativa": "federal", "socialistiska": "socialist", "demokratiska": "democratic",
    "islamiska": "islamic", "forenade": "united", "furstendomet": "principality",
    "storhertigdomet": "grandduchy", "sultanatet": "sultanate", "emiratet": "emirate",
    "emiraten": "emirate", "edsforbundet": "confederation", "konfederationen": "confederation",
    "federationen": "federation", "samvaldet": "commonwealth", "unionen": "union",
    "mangnationella": "plurinational", "bolivarianska": "bolivarian", "boliviska": "bolivarian",
    "ostra": "oriental", "arabiska": "arab", "sovjetiska": "soviet",
    # compounds: one word, two keys
    "forbundsrepubliken": "federal republic", "folkrepubliken": "people republic",
    "socialistrepubliken": "socialist republic", "arabrepubliken": "arab republic",
}
_PT = {
    "republica": "republic", "republicas": "republic", "reino": "kingdom", "estado": "state",
    "estados": "state", "federativa": "federal", "federal": "federal", "socialista": "socialist",
    "socialistas": "socialist", "democratica": "democratic", "popular": "people",
    "islamica": "islamic", "unida": "united", "unido": "united", "unidos": "united",
    "arabe": "arab", "principado": "principality", "grao-ducado": "grandduchy",
    "sultanato": "sultanate", "emirado": "emirate", "emirados": "emirate",
    "confederacao": "confederation", "federacao": "federation", "comunidade": "commonwealth",
    "uniao": "union", "plurinacional": "plurinational", "bolivariana": "bolivarian",
    "cooperativa": "cooperative", "hachemita": "hashemite", "sovieticas": "soviet",
}
# Chinese forms end the name: 秘鲁共和国 is ({republic}, 秘鲁).
_ZH_SUFFIXES = {
    "联邦共和国": "federal republic", "聯邦共和國": "federal republic", "共和国": "republic",
    "共和國": "republic", "联合王国": "united kingdom", "聯合王國": "united kingdom",
    "王国": "kingdom", "王國": "kingdom", "大公国": "grandduchy", "大公國": "grandduchy",
    "公国": "principality", "公國": "principality", "苏丹国": "sultanate", "蘇丹國": "sultanate",
    "酋长国": "emirate", "酋長國": "emirate", "合众国": "united state", "合眾國": "united state",
    "联邦": "federation", "聯邦": "federation",
}
#: Keys of the nouns a state's name can end in ("Hungarian People's Republic").
HEAD_KEYS = frozenset({
    "republic", "kingdom", "state", "principality", "grandduchy", "duchy", "sultanate",
    "emirate", "confederation", "federation", "commonwealth", "union",
})
_EN_LINK = r"(?:of\s+(?:the\s+)?)"
_PT_LINK = r"(?:d[aoe]s?\s+)"


def _alternation(words) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len,
                                                                         reverse=True))


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    en, sv, pt = (_alternation(v) for v in (_EN, _SV, _PT))
    words = rf"(?:(?:{en})\s+)+{_EN_LINK}|(?:(?:{sv})\s+)+|(?:(?:{pt})\s+)+{_PT_LINK}"
    heads = [w for table in (_EN, _SV) for w, k in table.items() if set(k.split()) & HEAD_KEYS]
    return {
        # the whole of a form before a base (at the start of a name, or before a match)
        "prefix": re.compile(rf"^(?:the\s+|den\s+|det\s+)?(?:{words})"),
        "before": re.compile(rf"(?<![\w'’])(?:{words})$"),
        # a form word anywhere, and a state's head noun (for "A, B" catalog names)
        "any": re.compile(rf"(?<![\w'’])(?:{en}|{sv}|{pt})(?![\w'’])"),
        "head": re.compile(rf"(?<![\w'’])(?:{_alternation(heads)}|republica|reino)s?(?![\w'’])"),
    }


def _keys(words: str) -> frozenset[str]:
    """The keys of the form words in `words` (folded)."""
    keys: set[str] = set()
    for m in _patterns()["any"].finditer(words):
        w = re.sub(r"\s+", " ", m.group(0))
        keys.update((_EN.get(w) or _SV.get(w) or _PT.get(w) or "").split())
    return frozenset(keys)


def split(name: str) -> tuple[frozenset[str], str] | None:
    """(form keys, base) of a folded name that begins with a form ("republic of korea") or,
    in Chinese, ends in one; None when it has no form or nothing is left after it.

    >>> split("konungariket sverige")
    (frozenset({'kingdom'}), 'sverige')
    >>> sorted(split("democratic people's republic of korea")[0])
    ['democratic', 'people', 'republic']
    >>> split("hellenic republic") is None
    True
    """
    m = _patterns()["prefix"].match(name)
    if m:
        base = name[m.end():].strip()
        return (_keys(m.group(0)), base) if base and not is_form(base) else None
    for suffix, keys in _ZH_SUFFIXES.items():
        if name.endswith(suffix) and len(name) - len(suffix) >= 2:
            return frozenset(keys.split()), name[: -len(suffix)]
    return None


def form_before(folded: str, end: int) -> tuple[int, frozenset[str]]:
    """The form written just before `end` in folded text: (its start, its keys); (end, ∅)
    when there is none."""
    m = _patterns()["before"].search(folded, max(0, end - 120), end)
    if not m:
        return end, frozenset()
    return m.start(), _keys(m.group(0))


_LINKS = frozenset({"the", "den", "det", "of", "da", "do", "de", "das", "dos"})


def is_form(phrase: str) -> bool:
    """True if a folded phrase is made of form words only ("republic of", "republiken").

    >>> is_form("socialistiska federativa republiken"), is_form("provins i kina")
    (True, False)
    """
    forms = _patterns()["any"]
    return bool(forms.search(phrase)) and set(forms.sub(" ", phrase).split()) <= _LINKS


def goes_before(phrase: str) -> bool:
    """True if a folded phrase is a whole form written before a base ("republic of",
    "socialistiska federativa republiken"), as in the catalogs' inverted names.

    >>> goes_before("republic of"), goes_before("union of soviet socialist republics")
    (True, False)
    """
    return bool(_patterns()["prefix"].fullmatch(phrase.strip() + " "))


def has_head(phrase: str) -> bool:
    """True if a folded phrase holds a state's head noun ("czechoslovak socialist republic")."""
    return bool(_patterns()["head"].search(phrase))


def form_pattern() -> str:
    """A regex (folded text) of a form that a base follows: en/pt with their preposition."""
    return _patterns()["before"].pattern.removeprefix(r"(?<![\w'’])").removesuffix("$")


def word_pattern() -> str:
    """A regex (folded text) of one state-form word of any language."""
    return "|".join(_alternation(v) for v in (_EN, _SV, _PT))


def head_pattern() -> str:
    """A regex (folded text) of a state's head noun, for adjectival names ("Hungarian
    People's Republic", "Schweiziska edsförbundet")."""
    return _patterns()["head"].pattern
