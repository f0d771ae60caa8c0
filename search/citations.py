"""Citations to treaty units, written the way people write them, in en, pt, sv and zh.

``parse_citation`` turns ``"Brazil–Peru Art. 10(2)(a)"``, ``"br-pe-2006 art 10 para 2 (a)"``,
``"Artigo 10, parágrafo 2, alínea a) da Convenção Brasil–Colômbia"``,
``"artikel VII § 2 avtalet Sverige–Brasilien"`` or ``"中国巴西协定第十条第二款"`` into a
``Citation``; ``format_citation`` writes one back (``parse(format(c)) == c``); ``resolve``
matches it against the treaties of a corpus; ``to_eid`` names the unit.

The grammar is a set of named regex builders (eyecite ``regexes.py`` style). Each builder
finds one component; its matches are *masked* (blanked) in a working copy of the text before
the next builder runs, so a word is never read twice ("protokollet punkt 4" is a protocol
item, and its "punkt" is not read again as a paragraph). The order of ``_BUILDERS`` matters
and is part of the grammar. Matching runs on a case- and accent-folded copy that keeps
offsets (``countries.fold``). Pure functions: no store access.

>>> c = parse_citation("Brazil–Peru Art. 10(2)(a)")
>>> (c.parties, c.article, c.paragraph, c.point, c.lang_hint)
(('BR', 'PE'), 10, 2, 'a', 'en')
>>> format_citation(parse_citation("br-pe-2006 Artigo 10, parágrafo 2"), "en")
'br-pe-2006 Art. 10(2)'
>>> to_eid(parse_citation("中国巴西协定第十条第二款第（一）项"))
'art_10__para_2__point_a'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, TypeVar

from indexer.sources.countries import country_name, find_countries, fold, is_alpha2
from indexer.errors import QueryError
from indexer.segment.numerals import CN_NUMERAL_CHARS, parse_chinese, parse_roman, to_chinese

__all__ = [
    "Citation",
    "TreatyRef",
    "ambiguous_message",
    "format_citation",
    "missing_message",
    "number_ranges",
    "parse_citation",
    "resolve",
    "to_eid",
]

STYLES = ("en", "pt", "sv", "zh")
T = TypeVar("T", int, str)


@dataclass(frozen=True)
class Citation:
    """A parsed citation. ``article`` holds the protocol item number when ``protocol``."""

    treaty_id: str | None = None  # "br-pe-2006", "nordic-1996" — only when written as an id
    parties: tuple[str, ...] = ()  # ISO alpha-2, upper case, sorted, unique
    year: int | None = None
    article: int | None = None
    paragraph: int | None = None
    point: str | None = None  # "a", "aa", "ii" (lower case)
    protocol: bool = False
    lang_hint: str | None = None  # "en" | "pt" | "sv" | "zh": the language it is written in


class TreatyRef(NamedTuple):
    """What ``resolve`` needs to know about a treaty of the corpus."""

    treaty_id: str
    parties: tuple[str, ...]
    year: int | None


# --------------------------------------------------------------------------------------------
# Named regex builders. Every pattern runs on folded text (lower case, no accents).

ARABIC = r"\d{1,3}"
ROMAN = r"[ivxlcdm]{1,8}"  # validated by indexer.numerals.parse_roman
CHINESE = rf"[{CN_NUMERAL_CHARS}]{{1,8}}|\d{{1,3}}"
# Point labels: a, aa, ii. Digits are accepted after an explicit point word ("item 3").
LETTERS = r"[a-z]{1,4}"
# Ordinal marks after a number: "10.º", "2º" (pt).
ORDINAL = r"(?:\s*\.?\s*[º°ª])?"
# The end of a number: no letter or digit follows, except an ordinal mark ("º" is a letter).
NUM_END = r"(?!(?![º°ª])\w)"
# Treaty ids and codes are ASCII; a CJK character right after them is a boundary
# ("br-pe-2006第十条"), so these use ASCII look-arounds, not \b.
_NOT_ASCII_WORD_BEFORE = r"(?<![a-z0-9-])"
_NOT_ASCII_WORD_AFTER = r"(?![a-z0-9-])"


def words(*alternatives: str) -> str:
    """Whole-word alternation: ``words("art", "artigo")`` does not match inside "parte"."""
    return r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)"


def paren_tail(para: str = "tpara", point: str = "tpoint") -> str:
    """``(2)(a)`` / ``(2)`` / ``(a)`` right after a number, spaces allowed: "10 (2) (a)"."""
    return rf"(?:\s*\((?P<{para}>{ARABIC})\))?(?:\s*\((?P<{point}>{LETTERS})\))?"


def treaty_id_regex() -> str:
    """``br-pe-2006``, ``BR-PE``, ``pe-br-2006`` (normalised), ``BR/PE``, ``br–pe``."""
    return (
        rf"{_NOT_ASCII_WORD_BEFORE}(?P<codes>[a-z]{{2}}(?:[-–—/][a-z]{{2}})+)"
        rf"(?:-(?P<year>(?:18|19|20)\d\d))?{_NOT_ASCII_WORD_AFTER}"
    )


def multilateral_id_regex() -> str:
    """``nordic-1996``: a short name of three letters or more, a hyphen, the year."""
    return (
        rf"{_NOT_ASCII_WORD_BEFORE}(?P<name>[a-z][a-z0-9]{{2,19}})-(?P<year>(?:18|19|20)\d\d)"
        rf"{_NOT_ASCII_WORD_AFTER}"
    )


PROTOCOL_WORDS = words("protocol", "protocolo", "protokollet", "protokoll")
ITEM_WORDS = r"item|punkt|point|paragraph|paragrafo|para|art(?:icle|igo|ikel)?|n\.?\s*º|no"


def protocol_regex() -> str:
    """``Protocol 4``, ``Protocolo, item 4``, ``protokollet punkt 4``, ``Protocol 4(2)(a)``.

    Edge case: a number must follow directly or after an item word; "Protocol of 2006" is
    the whole protocol (and 2006 is then read as the year).
    """
    return (
        rf"(?P<kw>{PROTOCOL_WORDS})"
        rf"(?:[\s,]*(?:(?P<sub>{ITEM_WORDS})\.?)?\s*(?P<num>{ARABIC}|{ROMAN}){NUM_END}{ORDINAL}"
        rf"{paren_tail()})?"
    )


def protocol_reversed_regex() -> str:
    """``item 4 do Protocolo``, ``punkt 4 i protokollet``, ``paragraph 4 of the Protocol``."""
    return (
        rf"(?<!\w)(?P<sub>{ITEM_WORDS})\.?\s*(?P<num>{ARABIC}){NUM_END}{ORDINAL}[\s,]*"
        rf"(?:of\s+the|of|do|da|i|till|in\s+the|in)\s+(?P<kw>{PROTOCOL_WORDS})"
    )


def zh_protocol_regex() -> str:
    """``议定书第二条`` (item 2), ``議定書第四款``, ``议定书`` (the whole protocol)."""
    return rf"(?P<kw>议定书|議定書)(?:第(?P<num>{CHINESE})(?:条|條|款|项|項|点|點))?"


def article_regex() -> str:
    """``Art. 10``, ``Article 10(2)(a)``, ``artigo 10.º``, ``artikel VII``, ``art 10 (2)``."""
    return (
        rf"(?P<kw>{words('article', 'artigo', 'artikel', 'art')})\.?\s*"
        rf"(?P<num>{ARABIC}|{ROMAN}){NUM_END}{ORDINAL}{paren_tail()}"
    )


def zh_article_regex() -> str:
    """``第十条``, ``第二十三條``, ``第10条``."""
    return rf"第(?P<num>{CHINESE})(?:条|條)"


def point_regex() -> str:
    """``subparagraph (a)``, ``alínea a)``, ``letra b``, ``item ii``, ``inciso iv``, ``led a``.

    Runs before the paragraph builder so that "sub-paragraph" is not read as "paragraph".
    """
    keyword = words(
        "subparagraph",
        "sub-paragraph",
        "subpara",
        "alinea",
        "letra",
        "letter",
        "item",
        "inciso",
        "point",
        "led",
    )
    return (
        rf"(?P<kw>{keyword})\.?\s*"
        rf"(?:\((?P<num>{LETTERS}|\d{{1,2}})\)|(?P<num2>{LETTERS}|\d{{1,2}})\)?(?!\w))"
    )


def paragraph_regex() -> str:
    """``para 2``, ``paragraph 2``, ``parágrafo 2``, ``§ 2``, ``punkt 2``, ``n.º 2``.

    A point may follow: ``para 2 (a)``, ``punkt 2 a)``, ``punkt 2 a``. Edge case: a bare
    letter with no bracket is a point only at the end or before punctuation, or when it is
    not a short word of the four languages ("e" and, "i" in, "o" the, "y"): so
    "punkt 2 i avtalet" has no point but "punkt 2 a avtalet" has point a.
    """
    names = words(
        "paragraph", "paragrafo", "paragraf", "para", "par", "punkt", "stycket", "stycke", "mom"
    )
    keyword = rf"{names}\.?|§|(?<!\w)n\.?\s*º"
    return (
        rf"(?P<kw>{keyword})\s*(?P<num>{ARABIC}){NUM_END}{ORDINAL}"
        rf"(?:\s*(?:\((?P<tpoint>{LETTERS})\)|(?P<tpoint2>{LETTERS})\)"
        rf"|(?P<tpoint3>[a-z])(?=\s*(?:$|[,;:.]))|(?P<tpoint4>[a-df-hj-np-xz])(?=\s)))?"
    )


def zh_paragraph_regex() -> str:
    """``第二款``."""
    return rf"第(?P<num>{CHINESE})款"


def zh_point_regex() -> str:
    """``第（一）项``, ``第一项``, ``（一）``; Chinese numbers map to letters (一 -> a)."""
    return (
        rf"第\s*[（(]?(?P<num>{CHINESE}|{LETTERS})[）)]?(?:项|項)"
        rf"|[（(](?P<num2>[零〇一二三四五六七八九十]{{1,3}})[）)](?:项|項)?"
    )


def eid_regex() -> str:
    """A pasted unit id: ``art_10__para_2__point_a``, ``prot_4``, ``pt/art_10`` (with the
    language of the version), as in the full id ``br-pe-2006/pt/art_10__para_2``."""
    return (
        rf"{_NOT_ASCII_WORD_BEFORE}(?:(?P<lang>en|pt|sv|zh)/)?"
        r"(?:(?P<prot>prot)|art)_(?P<num>\d{1,3})(?:__para_(?P<tpara>\d{1,3}))?"
        r"(?:__point_(?P<tpoint>[a-z0-9]{1,4}))?(?![\w-])"
    )


def year_regex() -> str:
    """A year of signature: ``2006``, ``2006年``; not part of a longer number."""
    return r"(?<!\d)(?P<year>(?:18|19|20)\d\d)(?!\d)"


# Words that tell which language a citation is written in (folded). "art", "para", "§" and
# "(2)(a)" are shared by several languages: they count for English only if nothing else does.
_KEYWORD_LANG = {
    "article": "en", "paragraph": "en", "subparagraph": "en", "sub-paragraph": "en",
    "subpara": "en", "letter": "en", "point": "en", "protocol": "en",
    "artigo": "pt", "paragrafo": "pt", "alinea": "pt", "letra": "pt", "item": "pt",
    "inciso": "pt", "protocolo": "pt", "nº": "pt",
    "artikel": "sv", "punkt": "sv", "stycket": "sv", "stycke": "sv", "led": "sv",
    "paragraf": "sv", "mom": "sv", "protokollet": "sv", "protokoll": "sv",
}  # fmt: skip
_CONTEXT = {
    "en": words("of", "the", "between", "convention", "treaty", "agreement", "and"),
    "pt": words("da", "do", "entre", "convencao", "acordo", "tratado", "e"),
    "sv": words("avtalet", "avtal", "konventionen", "mellan", "och", "i"),
}
_CJK = re.compile(r"[\u3400-\u9fff]")


# --------------------------------------------------------------------------------------------
# Parsing


@dataclass
class _Found:
    """Components collected while scanning (mutable scratch state of one parse)."""

    text: str
    ids: set[str]
    parties: set[str]
    years: list[int]
    articles: set[int]
    paragraphs: set[int]
    points: set[str]
    protocol: bool = False
    votes: dict[str, float] = field(default_factory=dict)
    weak: bool = False

    def vote(self, keyword: str | None, weight: float = 2.0) -> None:
        if keyword is None:
            return
        lang = _KEYWORD_LANG.get(re.sub(r"[\s.]", "", keyword))  # "n.º" -> "nº"
        if lang is None:
            self.weak = True
        else:
            self.votes[lang] = self.votes.get(lang, 0.0) + weight


def _show(text: str) -> str:
    """The input as one short line for an error message."""
    one = " ".join(text.split())
    return repr(one if len(one) <= 60 else one[:57] + "...")


def _point(value: str | None, chinese: bool = False) -> str | None:
    """Normalise a point label; Chinese item numbers become letters (（一） -> a)."""
    if value is None:
        return None
    if chinese and (value.isdigit() or not value.isascii()):
        n = parse_chinese(value)
        if n is None or not 1 <= n <= 26:
            return None
        return chr(ord("a") + n - 1)
    return value.lower()


def _number(value: str, chinese: bool = False) -> int | None:
    if chinese:
        return parse_chinese(value)
    if value.isdigit():
        return int(value)
    return parse_roman(value)


def _on_eid(m: re.Match[str], f: _Found) -> bool:
    f.articles.add(int(m.group("num")))
    f.protocol = f.protocol or bool(m.group("prot"))
    if m.group("tpara"):
        f.paragraphs.add(int(m.group("tpara")))
    if m.group("tpoint"):
        f.points.add(m.group("tpoint"))
    if m.group("lang"):  # the version named in a full id outweighs any word
        f.votes[m.group("lang")] = f.votes.get(m.group("lang"), 0.0) + 100.0
    return True


def _on_id(m: re.Match[str], f: _Found) -> bool:
    codes = re.split(r"[-–—/]", m.group("codes"))
    for code in codes:
        if not is_alpha2(code):
            raise QueryError(
                f"'{code}' in {_show(f.text)} is not an ISO 3166-1 alpha-2 country code"
            )
    f.parties.update(code.upper() for code in codes)
    if m.group("year"):
        f.ids.add("-".join(sorted(set(codes))) + "-" + m.group("year"))
        f.years.append(int(m.group("year")))
    return True


def _on_multilateral(m: re.Match[str], f: _Found) -> bool:
    f.ids.add(m.group(0))
    f.years.append(int(m.group("year")))
    return True


def _on_protocol(m: re.Match[str], f: _Found, chinese: bool = False) -> bool:
    f.protocol = True
    if not chinese:
        f.vote(m.group("kw"))
    groups = m.groupdict()
    if groups.get("num"):
        n = _number(groups["num"], chinese)
        if n is None:  # "Protocol civil...": a roman-looking word, not a number
            return False
        f.articles.add(n)
    _on_tail(m, f)
    return True


def _on_tail(m: re.Match[str], f: _Found) -> None:
    groups = m.groupdict()
    if groups.get("tpara"):
        f.paragraphs.add(int(groups["tpara"]))
        f.weak = True
    for name in ("tpoint", "tpoint2", "tpoint3", "tpoint4"):
        if groups.get(name):
            f.points.add(groups[name])


def _on_article(m: re.Match[str], f: _Found, chinese: bool = False) -> bool:
    n = _number(m.group("num"), chinese)
    if n is None:
        return False
    f.articles.add(n)
    if not chinese:
        f.vote(m.group("kw"))
    _on_tail(m, f)
    return True


def _on_paragraph(m: re.Match[str], f: _Found, chinese: bool = False) -> bool:
    n = _number(m.group("num"), chinese)
    if n is None:
        return False
    f.paragraphs.add(n)
    if not chinese:
        f.vote(m.group("kw"))
    _on_tail(m, f)
    return True


def _on_point(m: re.Match[str], f: _Found, chinese: bool = False) -> bool:
    value = _point(m.group("num") or m.group("num2"), chinese)
    if value is None:
        return False
    f.points.add(value)
    if not chinese:
        f.vote(m.group("kw"))
    return True


_Handler = Callable[[re.Match[str], _Found], bool]
# The grammar: (name, compiled builder, handler), applied in this order with masking.
_BUILDERS: tuple[tuple[str, re.Pattern[str], _Handler], ...] = (
    ("eid", re.compile(eid_regex()), _on_eid),
    ("treaty-id", re.compile(treaty_id_regex()), _on_id),
    ("multilateral-id", re.compile(multilateral_id_regex()), _on_multilateral),
    ("zh-protocol", re.compile(zh_protocol_regex()), lambda m, f: _on_protocol(m, f, True)),
    ("protocol-reversed", re.compile(protocol_reversed_regex()), _on_protocol),
    ("protocol", re.compile(protocol_regex()), _on_protocol),
    ("article", re.compile(article_regex()), _on_article),
    ("zh-article", re.compile(zh_article_regex()), lambda m, f: _on_article(m, f, True)),
    ("point", re.compile(point_regex()), _on_point),
    ("paragraph", re.compile(paragraph_regex()), _on_paragraph),
    ("zh-paragraph", re.compile(zh_paragraph_regex()), lambda m, f: _on_paragraph(m, f, True)),
    ("zh-point", re.compile(zh_point_regex()), lambda m, f: _on_point(m, f, True)),
)
_YEAR = re.compile(year_regex())


def _one(values: set[T], what: str, text: str) -> T | None:
    if len(values) > 1:
        listed = ", ".join(str(v) for v in sorted(values, key=str))
        raise QueryError(f"{_show(text)} cites more than one {what} ({listed}); cite one")
    return next(iter(values), None)


def _lang(f: _Found, work: str) -> str | None:
    votes = f.votes
    if _CJK.search(f.text):  # Chinese wins over any Latin keyword, but not over "pt/art_10"
        votes["zh"] = votes.get("zh", 0.0) + 50.0
    for lang, pattern in _CONTEXT.items():
        hits = len(re.findall(pattern, work))
        if hits:
            votes[lang] = votes.get(lang, 0.0) + hits
    if votes:
        best = max(votes.values())
        winners = [lang for lang, v in votes.items() if v == best]
        return winners[0] if len(winners) == 1 else None
    return "en" if f.weak else None


def parse_citation(text: str) -> Citation:
    """Parse one citation; raise ``QueryError`` (one line) if nothing citable is in it."""
    f = _Found(text, set(), set(), [], set(), set(), set())
    work = fold(text)
    for _name, pattern, handler in _BUILDERS:
        for m in list(pattern.finditer(work)):
            if handler(m, f):
                work = work[: m.start()] + " " * (m.end() - m.start()) + work[m.end() :]
    folded = fold(text)
    names: set[str] = set()
    for cm in find_countries(text):
        if work[cm.start : cm.end] != folded[cm.start : cm.end]:
            continue  # inside a component already read
        names.add(cm.code)
        for lang in cm.langs:
            f.votes[lang] = f.votes.get(lang, 0.0) + 1.0 / len(cm.langs)
        work = work[: cm.start] + " " * (cm.end - cm.start) + work[cm.end :]
    if not f.years:
        ym = _YEAR.search(work)
        if ym:
            f.years.append(int(ym.group("year")))
            work = work[: ym.start()] + " " * (ym.end() - ym.start()) + work[ym.end() :]

    treaty_id = _one(f.ids, "treaty", text)
    year = f.years[0] if f.years else None
    if treaty_id and f.parties:  # bilateral id: its parties; names must agree with them
        extra = names - f.parties
        if extra:
            raise QueryError(
                f"{_show(text)} names {', '.join(sorted(extra))}, which is not a party "
                f"to {treaty_id}"
            )
    parties = tuple(sorted(f.parties | names))
    article = _one(f.articles, "article" if not f.protocol else "protocol item", text)
    paragraph = _one(f.paragraphs, "paragraph", text)
    point = _one(f.points, "point", text)
    for value, what in ((article, "article"), (paragraph, "paragraph")):
        if value is not None and not 1 <= value <= 999:
            raise QueryError(f"{_show(text)}: {what} {value} does not exist; numbers start at 1")
    if article is None and not f.protocol and (paragraph is not None or point is not None):
        raise QueryError(f"{_show(text)} names a paragraph or point but no article")
    if not (treaty_id or parties or article is not None or f.protocol):
        raise QueryError(
            f"no treaty or article found in {_show(text)}; "
            "write e.g. 'br-pe-2006 Art. 10(2)(a)' or 'Brazil–Peru Article 10'"
        )
    return Citation(
        treaty_id=treaty_id,
        parties=parties,
        year=year,
        article=article,
        paragraph=paragraph,
        point=point,
        protocol=f.protocol,
        lang_hint=_lang(f, work),
    )


# --------------------------------------------------------------------------------------------
# Formatting, resolving, eIds


def _head(c: Citation, style: str) -> str:
    if c.treaty_id:
        return c.treaty_id
    if len(c.parties) == 1:
        head = country_name(c.parties[0], style)
    else:
        head = "-".join(c.parties)
    return f"{head} {c.year}" if c.year and head else head or (str(c.year) if c.year else "")


def format_citation(c: Citation, style: str | None = None) -> str:
    """Write a citation in ``style`` (en, pt, sv, zh; default: its ``lang_hint``, else en).

    >>> c = Citation("br-pe-2006", ("BR", "PE"), 2006, 10, 2, "a", lang_hint="en")
    >>> format_citation(c)
    'br-pe-2006 Art. 10(2)(a)'
    >>> format_citation(c, "pt")
    'br-pe-2006 Artigo 10, parágrafo 2, alínea a)'
    >>> format_citation(c, "sv")
    'br-pe-2006 artikel 10 punkt 2 a)'
    >>> format_citation(c, "zh")
    'br-pe-2006 第十条第二款第（一）项'

    ``parse_citation(format_citation(c, s)) == c`` when ``c.lang_hint == s`` (a bare
    treaty in English carries no language: its hint is None).
    """
    style = style or c.lang_hint or "en"
    if style not in STYLES:
        raise QueryError(f"unknown citation style {style!r}; use one of {', '.join(STYLES)}")
    head = _head(c, style)
    n, p, pt = c.article, c.paragraph, c.point
    if style == "zh":
        body = "议定书" if c.protocol else "协定" if n is None else ""
        body += f"第{to_chinese(n)}条" if n is not None else ""
        body += f"第{to_chinese(p)}款" if p is not None else ""
        if pt is not None:
            letter = len(pt) == 1 and "a" <= pt <= "z"
            body += f"第（{to_chinese(ord(pt) - 96) if letter else pt}）项"
    elif style == "en":
        body = "Protocol" if c.protocol else "Art." if n is not None else ""
        body += f" {n}" if n is not None else ""
        body += f"({p})" if p is not None else ""
        body += f"({pt})" if pt is not None else ""
    elif style == "pt":
        body = "Protocolo" if c.protocol else "Artigo" if n is not None else "Convenção"
        body += (", item " if c.protocol else " ") + str(n) if n is not None else ""
        body += f", parágrafo {p}" if p is not None else ""
        body += f", alínea {pt})" if pt is not None else ""
    else:  # sv
        body = "protokollet" if c.protocol else "artikel" if n is not None else "avtalet"
        body += (" punkt " if c.protocol else " ") + str(n) if n is not None else ""
        body += (" stycket " if c.protocol else " punkt ") + str(p) if p is not None else ""
        body += (f" {pt})" if p is not None else f" led {pt}") if pt is not None else ""
    return f"{head} {body}".strip()


class RefIndex(Sequence):
    """The treaties as citation targets (a sequence of TreatyRef), with the positions of the
    treaties of each party, so that `resolve` looks at the cited parties' treaties only
    instead of every treaty of the corpus."""

    def __init__(self, refs: Iterable[TreatyRef | tuple]) -> None:
        self._refs = list(refs)
        self._by_party: dict[str, list[int]] = {}
        for k, t in enumerate(self._refs):
            for p in {*t[1], *(p.upper() for p in t[1])}:
                self._by_party.setdefault(p, []).append(k)

    def __len__(self) -> int:
        return len(self._refs)

    def __getitem__(self, k):  # type: ignore[override]
        return self._refs[k]

    def having(self, parties: Iterable[str]) -> list[TreatyRef | tuple]:
        """The treaties (in order) whose parties, as given or upper-cased, include all of
        `parties` (a superset of those `resolve` keeps; it checks each)."""
        lists = [self._by_party.get(p, []) for p in set(parties)]
        if not lists:
            return self._refs
        common = set(min(lists, key=len)).intersection(*lists)
        return [self._refs[k] for k in sorted(common)]


def resolve(c: Citation, treaties: Sequence[TreatyRef | tuple]) -> list[str]:
    """Ids of the treaties a citation can mean: 0, 1 or several (the caller decides).

    By id when it has one; else by parties (a treaty between exactly the cited parties is
    preferred to a multilateral one that also includes them) and year; with neither, every
    treaty is a candidate. A `RefIndex` is searched by party, any other sequence in full.
    """
    if c.treaty_id:
        wanted_id = c.treaty_id.lower()
        return [t[0] for t in treaties if t[0].lower() == wanted_id]
    wanted = set(c.parties)
    hits: list[tuple[str, bool]] = []  # (id, parties exactly the cited ones)
    if isinstance(treaties, RefIndex):
        treaties = treaties.having(wanted)
    for t in treaties:
        treaty_id, parties, year = t[0], t[1], t[2]
        if c.year is not None and year != c.year:
            continue
        if not wanted <= set(parties):
            have = {p.upper() for p in parties}
            if not wanted <= have:
                continue
        else:
            have = set(parties)
        hits.append((treaty_id, bool(wanted) and have == wanted))
    exact = [tid for tid, is_exact in hits if is_exact]
    return exact or [tid for tid, _ in hits]


def number_ranges(numbers: Iterable[int]) -> str:
    """Compact ranges for messages: ``[1, 2, 3, 5, 7, 8]`` -> ``"1–3, 5, 7–8"``."""
    out: list[str] = []
    run: list[int] = []
    for n in sorted(set(numbers)) + [-1]:
        if run and n != run[-1] + 1:
            out.append(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}")
            run = []
        run.append(n)
    return ", ".join(out)


def ambiguous_message(text: str, candidates: Sequence[str]) -> str:
    """One line for a citation that matches several treaties (for ``AmbiguousError``)."""
    return (
        f"{_show(text)} matches {len(candidates)} treaties: {', '.join(candidates)}; "
        "cite one by its id or add the year"
    )


def missing_message(c: Citation, treaty_id: str, existing: Iterable[int]) -> str:
    """One line saying what exists when a cited article or protocol item does not
    (for ``NotFoundError``): "br-pe-2006 has no article 40; it has articles 1–29"."""
    what = "protocol item" if c.protocol else "article"
    have = number_ranges(existing)
    if not have:
        return f"{treaty_id} has no {what}s"
    return f"{treaty_id} has no {what} {c.article}; it has {what}s {have}"


def to_eid(c: Citation) -> str:
    """The eId the citation names: ``art_10__para_2__point_a``, ``prot_4``.

    A whole protocol is ``prot`` (the prefix of its items); a whole treaty is ``""``.
    """
    if c.protocol:
        eid = f"prot_{c.article}" if c.article is not None else "prot"
    elif c.article is not None:
        eid = f"art_{c.article}"
    else:
        return ""
    if c.paragraph is not None:
        eid += f"__para_{c.paragraph}"
    if c.point is not None:
        eid += f"__point_{c.point}"
    return eid
