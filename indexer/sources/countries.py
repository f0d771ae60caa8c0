"""Country names in en, pt, sv and zh, resolved to ISO 3166 alpha-2 codes.

Names come from pycountry and the gettext catalogs it ships (domains ``iso3166-1`` for the
countries and territories of today, ``iso3166-3`` for former ones: Czechoslovakia ``CS``,
Yugoslavia ``YU``, Netherlands Antilles ``AN``, ...), never from a hand table. The index is
built lazily, once, on first use.

For every country we index, in each locale (en, pt, pt_BR, sv, zh_CN, zh_TW):

- ``name``, ``official_name`` and ``common_name`` as translated by the catalog, with the
  catalog's inverted names turned round ("Korea, Republic of" -> "Republic of Korea",
  "Jugoslavien, socialistiska federativa republiken" -> "socialistiska federativa
  republiken Jugoslavien") and optional words in parentheses both kept and dropped;
- the *base* of each name, its state form removed (`stateforms`: "Republic of Peru" ->
  "Peru", "Konungariket Sverige" -> "Sverige", "秘鲁共和国" -> "秘鲁").

Catalog names win over bases, and today's countries over former ones (a former state's
name that is today's up to a hyphen, "Viet-Nam", is today's). A base that names two
countries ("Korea") is resolved by the state form written before it in the text
("Republiken Korea" is KR, "Democratic People's Republic of Korea" KP), else dropped.
A Swedish or English genitive ("Sveriges", "Kazakstans", "Sweden's") is the name.

Matching is case- and accent-insensitive (Swedish å/ä/ö fold too: a citation typed
without them still resolves) and uses a folding that keeps string offsets, so a match
can be masked in the original text.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ahocorasick_rs import AhoCorasick

from indexer.sources import stateforms

if TYPE_CHECKING:  # (pycountry's catalogs are read once per machine: `_tables`)
    import gettext

# (gettext locale, ISO 639-1 language it votes for). "en" is the untranslated catalog.
LOCALES: tuple[tuple[str, str], ...] = (
    ("en", "en"),
    ("pt", "pt"),
    ("pt_BR", "pt"),
    ("sv", "sv"),
    ("zh_CN", "zh"),
    ("zh_TW", "zh"),
)

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class CountryMatch:
    """A country name found in a text: its code, span and the languages it is written in."""

    code: str  # ISO 3166-1 alpha-2 (or the ISO 3166-3 one of a former state), upper case
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
def _translators(domain: str = "iso3166-1") -> dict[str, gettext.NullTranslations]:
    import gettext

    import pycountry

    out: dict[str, gettext.NullTranslations] = {}
    for locale, _lang in LOCALES:
        if locale == "en":
            out[locale] = gettext.NullTranslations()
        else:
            out[locale] = gettext.translation(
                domain, pycountry.LOCALES_DIR, languages=[locale], fallback=True
            )
    return out


def _without_parentheses(name: str) -> list[str]:
    """A name with its words in parentheses kept and dropped: "Yugoslavia, (Socialist)
    Federal Republic of" gives both forms; a trailing "(Malvinas)" is a name of its own
    when capitalised, else a note ("(French part)")."""
    m = re.search(r"\s*\(([^()]*)\)\s*", name)
    if not m:
        return [name]
    inner, before, after = m.group(1).strip(), name[: m.start()], name[m.end():]
    if after.strip():
        return [f"{before} {inner} {after}".strip(), f"{before} {after}".strip()]
    extra = [inner] if inner[:1].isupper() else []
    return [before.strip(), *extra]


def _variants(name: str) -> tuple[list[str], list[str]]:
    """(full names, short heads) of one catalog name. "Korea, Republic of" is the full name
    "Republic of Korea" and the head "Korea"; "Czechoslovakia, Czechoslovak Socialist
    Republic" two full names; "Taiwan, Province of China" the head "Taiwan"."""
    full: list[str] = []
    heads: list[str] = []
    for n in _without_parentheses(name):
        head, sep, rest = n.partition(", ")
        if not sep:
            full.append(n)
            continue
        heads.append(head)
        last = rest.rsplit(", ", 1)[-1]
        if stateforms.goes_before(fold(last)):
            full.append(f"{last} {head}")
        elif stateforms.has_head(fold(rest)):
            full.append(rest)
    strip = re.compile(r"^(?:the|den|det)\s+", re.IGNORECASE)
    return [strip.sub("", x) for x in full], heads


def _catalog() -> list[tuple[str, str, str, str]]:
    """(code, lang, name, kind) for every name of every country, today's first; kind is
    "short" (a catalog's name or common name), "official" or "head" (of an inverted name)."""
    import pycountry

    out = []
    for domain, records in (("iso3166-1", pycountry.countries),
                            ("iso3166-3", pycountry.historic_countries)):
        translators = _translators(domain)
        for record in records:
            for locale, lang in LOCALES:
                for attr in ("name", "official_name", "common_name"):
                    src = getattr(record, attr, None)
                    if not src:
                        continue
                    full, heads = _variants(translators[locale].gettext(src).strip())
                    kind = "official" if attr == "official_name" else "short"
                    out.extend((record.alpha_2, lang, n, kind) for n in full)
                    out.extend((record.alpha_2, lang, n, "head") for n in heads)
        if domain == "iso3166-1":
            out.append(("", "", "", ""))  # the end of today's names
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


@dataclass(frozen=True)
class _Shared:
    """A base two or more countries share: the state forms each is written with."""

    forms: dict[str, frozenset[frozenset[str]]]  # code -> its forms' keys
    spellings: tuple[tuple[str, str], ...]

    def resolve(self, keys: frozenset[str]) -> str | None:
        codes = [code for code, forms in self.forms.items() if keys and keys in forms]
        return codes[0] if len(codes) == 1 else None


@dataclass
class _Build:
    # folded name -> code -> spellings, in the order the countries claimed it
    primary: dict[str, dict[str, set[tuple[str, str]]]]
    bases: dict[str, tuple[dict[str, set[frozenset[str]]], set[tuple[str, str]]]]
    shorts: dict[str, set[str]]  # code -> its folded short names

    def add(self, code: str, lang: str, name: str, kind: str, today: set[str]) -> None:
        """Index one name (and its base) unless `today`'s names have it, up to hyphens."""
        key = fold(name)
        if _plain(key) in today:
            return
        full = kind != "head"
        if full:
            self.primary.setdefault(key, {}).setdefault(code, set()).add((lang, name.lower()))
        if kind == "short":
            self.shorts.setdefault(code, set()).add(key)
        parts = stateforms.split(key) if full else (frozenset(), key)
        if parts and len(parts[1]) >= 2 and _plain(parts[1]) not in today:
            keys, base = parts
            forms, spellings = self.bases.setdefault(base, ({}, set()))
            forms.setdefault(code, set()).add(keys)
            at = len(key) - len(base) if key.endswith(base) else 0
            spellings.add((lang, name[at : at + len(base)].lower()))


def _plain(key: str) -> str:
    return re.sub(r"[-\s]+", " ", key)


def _owner(key: str, claims: dict[str, set], shorts: dict[str, set[str]]) -> str:
    """The country a name two catalogs give to different countries belongs to: the one whose
    short name is the name's base (a translation slip gave Afghanistan's official name as
    "República Islâmica do Paquistão"), else the first to claim it."""
    parts = stateforms.split(key)
    owners = [code for code in claims if parts and parts[1] in shorts.get(code, ())]
    return owners[0] if len(owners) == 1 else next(iter(claims))


#: Version of the country tables as `_build_tables` makes them: bump when it changes, so
#: that the machine cache's copy is made again.
TABLES_VERSION = 1


def _build_tables() -> tuple[dict[str, _Entry], dict[str, _Shared]]:
    """(folded name -> entry, folded shared base -> its countries), from pycountry."""
    build = _Build({}, {}, {})
    today: set[str] = set()
    for code, lang, name, kind in _catalog():
        if not code:  # today's names are in: a former state's may not shadow them
            today = {_plain(k) for k in (*build.primary, *build.bases)}
        else:
            build.add(code, lang, name, kind, today)
    index = {}
    for key, claims in build.primary.items():
        code = _owner(key, claims, build.shorts)
        index[key] = _Entry(code, tuple(sorted(claims[code])))
    shared: dict[str, _Shared] = {}
    for key, (forms, spellings) in build.bases.items():
        if key in index:
            continue
        if len(forms) == 1:
            index[key] = _Entry(next(iter(forms)), tuple(sorted(spellings)))
        else:
            shared[key] = _Shared({c: frozenset(f) for c, f in forms.items()},
                                  tuple(sorted(spellings)))
    return index, shared


@cache
def _tables() -> tuple[dict[str, _Entry], dict[str, _Shared]]:
    """(folded name -> entry, folded shared base -> its countries). Built once per machine:
    reading pycountry's catalogs in six locales costs a process about 0.15 s (a third of a
    cold `treaty search`), so the tables are kept in a sidecar of the machine cache, made
    again when pycountry's database changes (`cache.read_sidecar`)."""
    import hashlib
    from importlib.util import find_spec

    from indexer.cache import building, machine_cache, read_sidecar, write_sidecar

    spec = find_spec("pycountry")
    if spec is None or spec.origin is None:  # (pycountry is a dependency: not expected)
        return _build_tables()
    source = Path(spec.origin).parent / "databases" / "iso3166-1.json"
    where = hashlib.sha256(str(source.resolve()).encode()).hexdigest()[:12]
    side = machine_cache() / "countries" / f"tables-v{TABLES_VERSION}.{where}.pickle"
    tables = read_sidecar(side, source)
    if _whole(tables):
        return tables
    with building(side):  # one process builds them, the others wait and read its sidecar
        tables = read_sidecar(side, source)
        if not _whole(tables):
            tables = _build_tables()
            write_sidecar(side, source, tables)  # (a read-only cache: no sidecar)
    return tables


def _whole(tables: object) -> bool:
    return (isinstance(tables, tuple) and len(tables) == 2
            and all(isinstance(t, dict) for t in tables) and bool(tables[0]))


def country_index() -> dict[str, _Entry]:
    """Folded name -> entry (alpha-2 code and spellings per language). Built once, lazily."""
    return _tables()[0]


class _Names:
    r"""Every name and shared base (their plain keys: words one space apart) found in a folded
    text as one regex alternation of them all would find them, longest first::

        (?<![\w'])(?P<n>NAME, its spaces [\s-]+)(?:s|'s|’s|')?(?![\w'])  |  (?P<c>CJK NAME)

    CJK names have no word boundaries ("中国巴西协定"), the others do, and may end in a
    genitive ("Sveriges", "Sweden's"). One Aho-Corasick automaton (ahocorasick_rs) finds every
    name at every place of the text with its runs of whitespace and hyphens made one space;
    at each place, left to right, the longest that its boundaries allow wins (a non-CJK name
    before a CJK one), and the search goes on after it, as `re.finditer` does. Compiling that
    regex cost every process that looked a country up 0.16 s."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.cjk = [bool(_CJK.search(n)) for n in names]
        self.automaton = AhoCorasick(names)

    def find(self, folded: str) -> Iterator[tuple[int, int, int, str]]:
        """(start, end of the name, end with its genitive, the name) of each name in
        `folded` (a folded text), left to right; offsets are `folded`'s."""
        text, where = _collapsed(folded)
        starts: dict[int, list[tuple[bool, int, int]]] = {}
        for k, start, end in self.automaton.find_matches_as_indexes(text, overlapping=True):
            starts.setdefault(start, []).append((self.cjk[k], start - end, k))
        after = 0
        for start in sorted(starts):
            if start < after:
                continue
            for cjk, _longest, k in sorted(starts[start]):
                end = start + len(self.names[k])
                if cjk:
                    found = end
                elif start and _word_or_quote(text[start - 1]):
                    continue
                else:
                    found = _genitive_end(text, end)
                    if found is None:
                        continue
                after = found
                yield (where(start), where(end - 1) + 1, where(found - 1) + 1, self.names[k])
                break


def _word_or_quote(ch: str) -> bool:
    r"""`ch` is one of the regex class [\w'] (\w: a letter, digit or underscore)."""
    return ch.isalnum() or ch in "_'"


#: A name's genitive endings, in the order the regex tries them (the longest first, none last).
_GENITIVES = ("s", "'s", "’s", "'", "")


def _genitive_end(text: str, end: int) -> int | None:
    """Where a non-CJK name ending at `end` ends with its genitive, if any, when no letter,
    digit, underscore or apostrophe follows; None when every ending is followed by one."""
    for ending in _GENITIVES:
        if text.startswith(ending, end):
            stop = end + len(ending)
            if stop == len(text) or not _word_or_quote(text[stop]):
                return stop
    return None


_SPACES = re.compile(r"[-\s]+")


def _collapsed(folded: str) -> tuple[str, Callable[[int], int]]:
    """`folded` with each run of whitespace and hyphens made one space, and the function from
    a character's offset there to its offset in `folded`."""
    runs = [m.span() for m in _SPACES.finditer(folded)]
    if not runs:
        return folded, int
    marks: list[int] = []  # per run: its offset in the collapsed text
    extra: list[int] = []  # per run: the characters the runs up to it dropped
    dropped = 0
    for start, end in runs:
        marks.append(start - dropped)
        dropped += end - start - 1
        extra.append(dropped)

    def where(k: int) -> int:
        i = bisect_left(marks, k)  # the runs before offset k (a run at k is its space)
        return k + (extra[i - 1] if i else 0)

    return _SPACES.sub(" ", folded), where


@cache
def _names() -> _Names:
    return _Names(sorted(_plain_keys()))


@cache
def _plain_keys() -> dict[str, str]:
    """Every name and shared base with a hyphen or a run of spaces made one space ("viet nam"
    for "Viet-Nam", a name broken over two lines) -> its key (the longest key when two
    differ only so)."""
    index, shared = _tables()
    out: dict[str, str] = {}
    for key in sorted((*index, *shared), key=len):
        out[_plain(key)] = key
    return out


def find_countries(text: str) -> list[CountryMatch]:
    """Every country name in ``text``, left to right, longest match first. A base that names
    two countries counts only with the state form before it, which the match then spans.

    >>> [m.code for m in find_countries("Convenção Brasil–Colômbia")]
    ['BR', 'CO']
    >>> [m.code for m in find_countries("中国巴西协定")]
    ['CN', 'BR']
    >>> [m.code for m in find_countries("mellan Republiken Korea och Konungariket Sveriges")]
    ['KR', 'SE']
    """
    index, shared = _tables()
    plain = _plain_keys()
    folded = fold(text)
    out = []
    for at, end, stop, name in _names().find(folded):
        key = plain[name]
        start, keys = stateforms.form_before(folded, at)
        if key in index:
            entry: _Entry | _Shared = index[key]
            code = index[key].code
        else:
            entry = shared[key]
            code = shared[key].resolve(keys)
            if code is None:
                continue
        langs = _Entry(code, entry.spellings).langs(text[at:end])
        out.append(CountryMatch(code, start, stop, langs))
    return out


def lookup(name: str) -> str | None:
    """The code of one country name in any of the four languages, or None: a catalog name, a
    base, or a name with its state form or genitive ("Republiken Koreas")."""
    name = name.strip()
    hit = country_index().get(fold(name))
    if hit:
        return hit.code
    found = find_countries(name)
    return found[0].code if len(found) == 1 and found[0].end - found[0].start == len(name) \
        else None


@cache
def _single_names() -> tuple[list[str], list[set[str]]]:
    """The folded non-CJK names and bases, each with the codes it names (for fuzzy lookups)."""
    index, shared = _tables()
    keys = [k for k in (*index, *shared) if not _CJK.search(k)]
    return keys, [{index[k].code} if k in index else set(shared[k].forms) for k in keys]


def closest(name: str) -> str | None:
    """The code of a state's name that no catalog spells so, written after a state form
    ("Republic of Turkey", "Republiken Makedonien"): the one country whose name ends in it
    as a word or a compound's last part, else whose name is nearest in spelling (a close
    match, one country only); None otherwise."""
    key = fold(name.strip())
    if len(key) < 4:
        return None
    keys, codes = _single_names()
    ending = set().union(*(c for k, c in zip(keys, codes)
                           if k.endswith(" " + key) or (len(key) >= 5 and k.endswith(key))))
    if len(ending) == 1:
        return next(iter(ending))
    from rapidfuzz import fuzz, process

    hits = process.extract(key, keys, scorer=fuzz.ratio, score_cutoff=75, limit=8)
    if not hits:
        return None
    best = hits[0][1]
    near = set().union(*(codes[i] for _k, score, i in hits if score >= best - 5))
    return next(iter(near)) if len(near) == 1 else None


def from_adjective(word: str) -> str | None:
    """The code of a country named by an adjective of its name before a state's head noun
    ("Hungarian People's Republic", "Schweiziska edsförbundet"): the one-word names that
    `word` begins with, all but their last two letters at least; the longest such wins when
    it names one country."""
    key = fold(word.strip())
    keys, codes = _single_names()
    found: dict[int, set[str]] = {}
    for k, c in zip(keys, codes):
        stem = k[: max(4, len(k) - 2)]
        if " " not in k and k != key and key.startswith(stem):
            found.setdefault(len(stem), set()).update(c)
    if not found:
        return None
    best = found[max(found)]
    return next(iter(best)) if len(best) == 1 else None


def is_alpha2(code: str) -> bool:
    """True if ``code`` is an assigned ISO 3166-1 alpha-2 code, or the alpha-2 code of a
    former country (ISO 3166-3: ``CS``, ``YU``, ``AN``, ...), in any case."""
    import pycountry

    return len(code) == 2 and (
        pycountry.countries.get(alpha_2=code.upper()) is not None
        or any(h.alpha_2 == code.upper() for h in pycountry.historic_countries))


def country_name(code: str, lang: str = "en") -> str:
    """The short name of a country in en, pt, sv or zh (e.g. ``("SE", "pt")`` -> "Suécia"),
    or of a former one (``("CS", "sv")`` -> "Tjeckoslovakien")."""
    import pycountry

    locale = {"en": "en", "pt": "pt_BR", "sv": "sv", "zh": "zh_CN"}.get(lang, "en")
    country = pycountry.countries.get(alpha_2=code.upper())
    if country is not None:
        name = getattr(country, "common_name", None) or country.name
        return _translators()[locale].gettext(name)
    former = [h for h in pycountry.historic_countries if h.alpha_2 == code.upper()]
    if not former:
        return code.upper()
    # the first withdrawn (Czechoslovakia before Serbia and Montenegro, both CS)
    first = min(former, key=lambda h: str(getattr(h, "withdrawal_date", "")))
    return _translators("iso3166-3")[locale].gettext(first.name).split(", ")[0]
