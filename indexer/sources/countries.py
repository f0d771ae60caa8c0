"""Country names in en, pt, sv and zh, resolved to ISO 3166-1 alpha-2 codes.

Names come from pycountry and the gettext catalogs it ships (domain ``iso3166-1``), never
from a hand table. The index is built lazily, once, on first use.

For every country we index, in each locale (en, pt, pt_BR, sv, zh_CN, zh_TW):

- ``name``, ``official_name`` and ``common_name`` as translated by the catalog;
- *derived* short forms: the official name with a standard state-form prefix or suffix
  removed ("Republic of Peru" -> "Peru", "Reino da Suécia" -> "Suécia",
  "Konungariket Sverige" -> "Sverige", "秘鲁共和国" -> "秘鲁").

Catalog names win over derived forms; a derived form that would name two different
countries is dropped rather than guessed.

Matching is case- and accent-insensitive (Swedish å/ä/ö fold too: a citation typed
without them still resolves) and uses a folding that keeps string offsets, so a match
can be masked in the original text.
"""

from __future__ import annotations

import gettext
import re
import unicodedata
from dataclasses import dataclass
from functools import cache

import pycountry

# (gettext locale, ISO 639-1 language it votes for). "en" is the untranslated catalog.
LOCALES: tuple[tuple[str, str], ...] = (
    ("en", "en"),
    ("pt", "pt"),
    ("pt_BR", "pt"),
    ("sv", "sv"),
    ("zh_CN", "zh"),
    ("zh_TW", "zh"),
)

# State-form words stripped from official names to derive the short forms people write.
# Edge case: "Taiwan, Province of China" style names have a comma; those are skipped.
_PREFIXES = re.compile(
    r"^(?:(?:the\s+)?(?:(?:federal|federative|united|plurinational|bolivarian|oriental|"
    r"cooperative|co-operative)\s+)*"
    r"(?:republic|kingdom|commonwealth|state|principality|grand\s+duchy|sultanate|emirate|"
    r"confederation|federation)\s+of\s+(?:the\s+)?"
    r"|(?:república|reino|estado|principado|grão-ducado|sultanato|confederação|federação|"
    r"commonwealth)(?:\s+(?:federativa|oriental|unida|plurinacional|bolivariana|federal|"
    r"cooperativa))*"
    r"\s+(?:da|de|do|das|dos)\s+"
    r"|(?:(?:federala|förenade|östra|bolivarianska|mångnationella)\s+)*"
    r"(?:republiken|konungariket|kungariket|furstendömet|storhertigdömet|sultanatet|"
    r"emiratet|förbundsrepubliken|staten|samväldet)\s+)",
    re.IGNORECASE,
)
_SUFFIXES = re.compile(
    r"(?:联邦共和国|聯邦共和國|共和国|共和國|联合王国|聯合王國|王国|王國|大公国|大公國|公国|公國|苏丹国|蘇丹國|"
    r"酋长国|酋長國|合众国|合眾國|联邦|聯邦)$"
)

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class CountryMatch:
    """A country name found in a text: its code, span and the languages it is written in."""

    code: str  # ISO 3166-1 alpha-2, upper case
    start: int
    end: int
    langs: frozenset[str]  # languages whose catalog has this spelling (for language hints)


class _Folding(dict):
    """Character code -> folded character, filled in as characters are met (for
    `str.translate`); it starts afresh past `_FOLDING_LIMIT` characters."""

    def __missing__(self, code: int) -> str:
        if len(self) > _FOLDING_LIMIT:
            self.clear()
        ch = chr(code)
        base = unicodedata.normalize("NFD", ch)[0].lower()
        folded = self[code] = base if len(base) == 1 else ch
        return folded


_FOLDING_LIMIT = 100_000
_FOLDING = _Folding()


def fold(text: str) -> str:
    """Lower-case and strip accents, one character for one character (offsets are kept).

    >>> fold("Suécia–Colômbia")
    'suecia–colombia'
    """
    return text.translate(_FOLDING)


@cache
def _translators() -> dict[str, gettext.NullTranslations]:
    out: dict[str, gettext.NullTranslations] = {}
    for locale, _lang in LOCALES:
        if locale == "en":
            out[locale] = gettext.NullTranslations()
        else:
            out[locale] = gettext.translation(
                "iso3166-1", pycountry.LOCALES_DIR, languages=[locale], fallback=True
            )
    return out


def _derived(name: str) -> list[str]:
    """Short forms of an official name: state-form prefix/suffix removed."""
    if "," in name:
        return []
    out = []
    stripped = _PREFIXES.sub("", name).strip()
    if stripped and stripped != name:
        out.append(stripped)
    short = _SUFFIXES.sub("", name)
    if short and short != name and len(short) >= 2:
        out.append(short)
    return out


@dataclass(frozen=True)
class _Entry:
    code: str
    spellings: tuple[tuple[str, str], ...]  # (lang, lower-cased spelling with accents)

    def langs(self, written: str) -> frozenset[str]:
        """Languages that spell the name exactly as written (accents count); all if none do.

        Edge case: "Colombia" is en/sv, "Colômbia" pt; typed without accents it fits all.
        """
        low = written.lower()
        exact = frozenset(lang for lang, sp in self.spellings if sp == low)
        return exact or frozenset(lang for lang, _sp in self.spellings)


@cache
def country_index() -> dict[str, _Entry]:
    """Folded name -> entry (alpha-2 code and spellings per language). Built once, lazily."""
    primary: dict[str, tuple[str, set[tuple[str, str]]]] = {}
    derived: dict[str, tuple[set[str], set[tuple[str, str]]]] = {}
    translators = _translators()
    for country in pycountry.countries:
        code = country.alpha_2
        english = [
            getattr(country, attr, None) for attr in ("name", "official_name", "common_name")
        ]
        for locale, lang in LOCALES:
            tr = translators[locale]
            for src in english:
                if not src:
                    continue
                name = tr.gettext(src).strip()
                key = fold(name)
                entry = primary.setdefault(key, (code, set()))
                if entry[0] == code:  # first country to claim a spelling keeps it
                    entry[1].add((lang, name.lower()))
                for short in _derived(name):
                    codes, spellings = derived.setdefault(fold(short), (set(), set()))
                    codes.add(code)
                    spellings.add((lang, short.lower()))
    index = {k: _Entry(code, tuple(sorted(sp))) for k, (code, sp) in primary.items()}
    for key, (codes, spellings) in derived.items():
        # a derived form naming two countries ("Korea") is dropped, not guessed
        if key not in index and len(codes) == 1 and len(key) >= 2:
            index[key] = _Entry(next(iter(codes)), tuple(sorted(spellings)))
    return index


def _trie(names: list[str]) -> str:
    """A pattern matching exactly `names`, as a trie of alternations: at each character at
    most one branch can go on, so the regex engine follows one path, and it tries the
    longer names before ending at a shorter one (the longest match wins, as in a flat
    alternation sorted longest first)."""
    root: dict = {}
    for name in names:
        node = root
        for ch in name:
            node = node.setdefault(ch, {})
        node[""] = {}

    def pattern(node: dict) -> str:
        branches = [re.escape(ch) + pattern(child) for ch, child in sorted(node.items()) if ch]
        if "" in node:
            branches.append("")  # a name ends here: tried after every longer one
        if len(branches) == 1:
            return branches[0]
        return "(?:" + "|".join(branches) + ")"

    return pattern(root)


@cache
def _country_regex() -> re.Pattern[str]:
    """Every name, the longest at each place first (so 中国台湾省 beats 中国); CJK names have no
    word boundaries ("中国巴西协定"), the others do.

    The names are two tries, one per kind. When no two names of different kinds begin with
    the same character (so at any place only one kind can match), that is the same as one
    alternation of every name, longest first, which is used otherwise."""
    names = sorted(country_index(), key=lambda n: (-len(n), n))
    cjk = [name for name in names if _CJK.search(name)]
    other = [name for name in names if not _CJK.search(name)]
    if not {n[0] for n in cjk} & {n[0] for n in other}:
        tries = [rf"(?<![\w']){_trie(other)}(?![\w'])" if other else "",
                 _trie(cjk) if cjk else ""]
        return re.compile("|".join(filter(None, tries)))
    parts = []
    for name in names:
        escaped = re.escape(name)
        if _CJK.search(name):
            parts.append(escaped)  # CJK: no word boundaries ("中国巴西协定")
        else:
            parts.append(rf"(?<![\w']){escaped}(?![\w'])")
    return re.compile("|".join(parts))


def find_countries(text: str) -> list[CountryMatch]:
    """Every country name in ``text``, left to right, longest match first.

    >>> [m.code for m in find_countries("Convenção Brasil–Colômbia")]
    ['BR', 'CO']
    >>> [m.code for m in find_countries("中国巴西协定")]
    ['CN', 'BR']
    """
    index = country_index()
    out = []
    for m in _country_regex().finditer(fold(text)):
        entry = index[m.group(0)]
        langs = entry.langs(text[m.start() : m.end()])
        out.append(CountryMatch(entry.code, m.start(), m.end(), langs))
    return out


def lookup(name: str) -> str | None:
    """The alpha-2 code of one country name in any of the four languages, or None."""
    hit = country_index().get(fold(name.strip()))
    return hit.code if hit else None


def is_alpha2(code: str) -> bool:
    """True if ``code`` is an assigned ISO 3166-1 alpha-2 code (any case)."""
    return len(code) == 2 and pycountry.countries.get(alpha_2=code.upper()) is not None


def country_name(code: str, lang: str = "en") -> str:
    """The short name of a country in en, pt, sv or zh (e.g. ``("SE", "pt")`` -> "Suécia")."""
    country = pycountry.countries.get(alpha_2=code.upper())
    if country is None:
        return code.upper()
    name = getattr(country, "common_name", None) or country.name
    locale = {"en": "en", "pt": "pt_BR", "sv": "sv", "zh": "zh_CN"}.get(lang, "en")
    return _translators()[locale].gettext(name)
