"""Languages and parties as users type them: a language by its code or its name in English,
Portuguese, Swedish or Chinese ("en", "english", "Inglês", "engelska", "英文"); a party by its
ISO 3166 code or its name in those languages ("BR", "Brazil", "Brasil", "Suécia", "巴西"); a
treaty as people name it, wherever a person reads (the CLI, the web pages, the rates matrix,
CSV): "Brazil–Peru (2006)", "Brazil–Peru (2006) Art. 10(2)(a)" (the id stays in JSON and URLs).

The names come from the ISO catalogues pycountry ships with their gettext translations (ISO
639 for languages, ISO 3166 through `indexer.sources.countries` for countries), so no name is
listed here. `language_code` and `party_code` read a name (None when it names nothing);
`known_language` and `known_party` also check it against what the corpus has and say, in a
one-line QueryError, what it has instead.

    treaty_name("br-pe-2006")             -> "Brazil–Peru (2006)"
    treaty_name(treaty, "pt")             -> "Brasil–Peru (2006)"   (a search.corpus.Treaty)
    cited_as("br-pe-2006 Art. 10(2)(a)")  -> "Brazil–Peru (2006) Art. 10(2)(a)"

A treaty's parties are named in the order of its id ("se-br-1975-2019" is Sweden–Brazil), a
multilateral treaty by the words of its id ("nordic-1996" -> "Nordic (1996)"); a name is the
id itself when the id says nothing else.
"""

from __future__ import annotations

import gettext
import re
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache

from indexer.errors import QueryError

#: The locales whose language names are read (the interface's four languages).
NAME_LOCALES = ("en", "pt_BR", "pt", "sv", "zh_CN")


def _fold(text: str) -> str:
    """Lower case, accents off, blanks single: "Inglês " -> "ingles"."""
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    return " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).split())


@cache
def _language_names() -> dict[str, str]:
    """Folded language name or code -> ISO 639-1 code, for every language with one."""
    import pycountry

    translators = {}
    for loc in NAME_LOCALES[1:]:
        try:
            translators[loc] = gettext.translation("iso639-3", pycountry.LOCALES_DIR,
                                                   languages=[loc])
        except OSError:  # a catalogue not installed: that locale's names are not read
            continue
    out: dict[str, str] = {}
    for lang in pycountry.languages:
        code = getattr(lang, "alpha_2", None)
        if not code:
            continue
        names = {lang.name, *(t.gettext(lang.name) for t in translators.values())}
        for name in names:
            for part in name.split(";"):  # "中文; 汉语; 华语"
                out.setdefault(_fold(part), code)
                if part.strip().endswith("语"):  # 英语: the written language is 英文
                    out.setdefault(_fold(part.strip()[:-1] + "文"), code)
        for key in (code, lang.alpha_3, getattr(lang, "bibliographic", None)):
            if key:
                out[key.lower()] = code
    return out


def language_code(text: str) -> str | None:
    """The ISO 639-1 code of a language code or name ("english", "Português", "sueco",
    "kinesiska", "中文"); None when `text` names no language."""
    key = _fold(text)
    if not key:
        return None
    return _language_names().get(key)


def own_name(code: str) -> str:
    """A language's name in itself where the catalogues have it ("Português"), else in
    English."""
    import pycountry

    lang = pycountry.languages.get(alpha_2=code)
    if lang is None:
        return code
    try:
        locale = {"pt": "pt_BR", "zh": "zh_CN"}.get(code, code)
        own = gettext.translation("iso639-3", pycountry.LOCALES_DIR, languages=[locale])
        return own.gettext(lang.name).split(";")[0].strip()
    except OSError:
        return lang.name


def known_language(text: str, have: Iterable[str], what: str = "the corpus") -> str:
    """The code of the language `text` names, when `have` holds it; QueryError naming the
    languages there are otherwise."""
    have = list(have)
    code = language_code(text)
    if code is not None and code in have:
        return code
    choices = ", ".join(f"{lg} ({own_name(lg)})" for lg in have) or "none"
    if code is None:
        raise QueryError(f"unknown language '{text.strip()[:20]}': {what} has {choices}")
    raise QueryError(f"{what} has no {own_name(code)} ('{code}') text: it has {choices}")


def party_code(text: str) -> str | None:
    """The ISO 3166 alpha-2 code of a party given by its code or its name in any of the four
    languages ("br", "Brazil", "Brasil", "Suécia", "巴西"); None when `text` names none."""
    from indexer.sources.countries import closest, is_alpha2, lookup

    value = text.strip()
    if not value:
        return None
    if len(value) == 2 and value.isascii() and value.isalpha():
        return value.upper() if is_alpha2(value) else None
    return lookup(value) or closest(value)


def known_party(text: str, have: Iterable[str]) -> str:
    """The code of the party `text` names, when some treaty of the corpus (`have`: the
    parties there are) has it; QueryError listing the parties with their names otherwise."""
    from indexer.sources.countries import country_name

    have = sorted(set(have))
    code = party_code(text)
    if code is not None and code in have:
        return code
    choices = ", ".join(f"{p} ({country_name(p)})" for p in have) or "none"
    said = f"'{text.strip()[:30]}'" + (f" ({code})" if code and code != text.strip() else "")
    if code is None:
        raise QueryError(f"unknown party {said}: give a code or a country name; "
                         f"parties in the corpus: {choices}")
    raise QueryError(f"no treaty with party {said} (parties in the corpus: {choices})")


_PAIR_ID = re.compile(r"(?P<codes>[a-z]{2}(?:-[a-z]{2})+)-(?P<year>\d{4})(?:-\d{4})*")
_NAMED_ID = re.compile(r"(?P<name>[a-z][a-z0-9-]*?)-(?P<year>\d{4})(?:-\d{4})*")
#: Short words of a multilateral treaty's id that are words, not initials ("coe", "oecd" and
#: "eu" are initials: COE, OECD, EU).
_LOWER_WORDS = frozenset({"of", "and", "the", "for", "on", "in", "to", "road", "tax", "with",
                          "from", "air", "sea", "land", "new", "act"})


def treaty_name(treaty: object, lang: str = "en") -> str:
    """The name of `treaty` (an id, or an object with an `id`) in `lang` (en, pt, sv, zh):
    "Brazil–Peru (2006)" (module doc)."""
    treaty_id = treaty if isinstance(treaty, str) else getattr(treaty, "id", str(treaty))
    return _name(treaty_id, lang)


@lru_cache(maxsize=4096)
def _name(treaty_id: str, lang: str) -> str:
    from indexer.sources.countries import country_name, is_alpha2

    m = _PAIR_ID.fullmatch(treaty_id)
    if m:
        codes = [c.upper() for c in m.group("codes").split("-")]
        if all(is_alpha2(c) for c in codes):
            return f"{'–'.join(country_name(c, lang) for c in codes)} ({m.group('year')})"
    m = _NAMED_ID.fullmatch(treaty_id)
    if m:
        words = m.group("name").split("-")
        shown = [w.upper() if 2 <= len(w) <= 4 and w not in _LOWER_WORDS else w for w in words]
        text = " ".join(shown)
        return f"{text[:1].upper()}{text[1:]} ({m.group('year')})"
    return treaty_id


def cited_as(citation: str, lang: str = "en") -> str:
    """A citation that begins with a treaty id ("br-pe-2006 Art. 10(2)(a)") with the
    treaty's name instead; any other text unchanged."""
    head, _, rest = citation.partition(" ")
    name = treaty_name(head, lang)
    if name == head:
        return citation
    return f"{name} {rest}".rstrip()
