"""``parse_citation``: a citation as people write it -> `Citation`.

The components of `grammar.COMPONENTS` are read in order, each match masked before the next
component is looked for; then country names, then a year. Each handler records what its match
names in a `_Found` (the scratch state of one parse) and votes for the language of the words
it read; a handler may refuse a match (a roman-looking word that is no number), which then
stays unmasked for the next components.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from indexer.errors import QueryError
from indexer.segment.numerals import parse_chinese, parse_roman
from indexer.sources.countries import find_countries, fold, is_alpha2
from search.citations.grammar import (
    CJK,
    COMPONENTS,
    CONTEXT_WORDS,
    KEYWORD_LANG,
    year_regex,
)
from search.citations.model import Citation, show

T = TypeVar("T", int, str)


@dataclass
class _Found:
    """Components collected while scanning (mutable scratch state of one parse)."""

    text: str
    ids: set[str] = field(default_factory=set)
    parties: set[str] = field(default_factory=set)
    years: list[int] = field(default_factory=list)
    articles: set[int] = field(default_factory=set)
    suffixes: set[str] = field(default_factory=set)  # of an inserted article: "A", "bis"
    paragraphs: set[int] = field(default_factory=set)
    points: set[str] = field(default_factory=set)
    protocol: bool = False
    votes: dict[str, float] = field(default_factory=dict)
    weak: bool = False

    def vote(self, keyword: str | None, weight: float = 2.0) -> None:
        if keyword is None:
            return
        lang = KEYWORD_LANG.get(re.sub(r"[\s.]", "", keyword))  # "n.º" -> "nº"
        if lang is None:
            self.weak = True
        else:
            self.add_vote(lang, weight)

    def add_vote(self, lang: str, weight: float) -> None:
        self.votes[lang] = self.votes.get(lang, 0.0) + weight


# --------------------------------------------------------------------------------------------
# Numbers and point labels


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


# --------------------------------------------------------------------------------------------
# Handlers: one per component; False refuses the match (it is then not masked)


def _on_eid(m: re.Match[str], f: _Found) -> bool:
    f.articles.add(int(m.group("num")))
    f.protocol = f.protocol or bool(m.group("prot"))
    if m.group("tpara"):
        f.paragraphs.add(int(m.group("tpara")))
    if m.group("tpoint"):
        f.points.add(m.group("tpoint"))
    if m.group("lang"):  # the version named in a full id outweighs any word
        f.add_vote(m.group("lang"), 100.0)
    return True


def _on_id(m: re.Match[str], f: _Found) -> bool:
    codes = re.split(r"[-–—/]", m.group("codes"))
    for code in codes:
        if not is_alpha2(code):
            raise QueryError(
                f"'{code}' in {show(f.text)} is not an ISO 3166-1 alpha-2 country code"
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


def _on_number(m: re.Match[str], f: _Found, into: set[int], chinese: bool) -> bool:
    """An article or paragraph number: added to `into`, its keyword's language voted for."""
    n = _number(m.group("num"), chinese)
    if n is None:
        return False
    into.add(n)
    if not chinese:
        f.vote(m.group("kw"))
    _on_tail(m, f)
    return True


def _on_article(m: re.Match[str], f: _Found, chinese: bool = False) -> bool:
    if not _on_number(m, f, f.articles, chinese):
        return False
    _on_suffix(m, f)
    return True


def _on_suffix(m: re.Match[str], f: _Found) -> None:
    suffix = m.groupdict().get("suffix")
    if suffix:
        f.suffixes.add(suffix.upper() if len(suffix) == 1 else suffix)


def _on_bare_article(m: re.Match[str], f: _Found) -> bool:
    """A bare number with a paragraph ("7(2)"): an article only when nothing else is one."""
    if f.articles:
        return False
    f.articles.add(int(m.group("num")))
    _on_suffix(m, f)
    _on_tail(m, f)
    return True


def _on_paragraph(m: re.Match[str], f: _Found, chinese: bool = False) -> bool:
    return _on_number(m, f, f.paragraphs, chinese)


def _on_point(m: re.Match[str], f: _Found, chinese: bool = False) -> bool:
    value = _point(m.group("num") or m.group("num2"), chinese)
    if value is None:
        return False
    f.points.add(value)
    if not chinese:
        f.vote(m.group("kw"))
    return True


_Handler = Callable[[re.Match[str], _Found], bool]
_HANDLERS: dict[str, _Handler] = {
    "eid": _on_eid,
    "treaty-id": _on_id,
    "multilateral-id": _on_multilateral,
    "zh-protocol": lambda m, f: _on_protocol(m, f, True),
    "protocol-reversed": _on_protocol,
    "protocol": _on_protocol,
    "article": _on_article,
    "zh-article": lambda m, f: _on_article(m, f, True),
    "point": _on_point,
    "paragraph": _on_paragraph,
    "zh-paragraph": lambda m, f: _on_paragraph(m, f, True),
    "zh-point": lambda m, f: _on_point(m, f, True),
    "bare-article": _on_bare_article,
}
# The grammar compiled: (name, pattern, handler), applied in the order of COMPONENTS.
_BUILDERS: tuple[tuple[str, re.Pattern[str], _Handler], ...] = tuple(
    (name, re.compile(regex), _HANDLERS[name]) for name, regex in COMPONENTS
)
_YEAR = re.compile(year_regex())


# --------------------------------------------------------------------------------------------
# Reading the text: components, country names, a year


def _mask(work: str, start: int, end: int) -> str:
    """`work` with [start, end) blanked, so that no later component reads it."""
    return work[:start] + " " * (end - start) + work[end:]


def _read_components(f: _Found, work: str) -> str:
    """Every component of the grammar, in order; the folded text with their matches masked."""
    for _name, pattern, handler in _BUILDERS:
        for m in list(pattern.finditer(work)):
            if handler(m, f):
                work = _mask(work, m.start(), m.end())
    return work


def _read_countries(f: _Found, work: str) -> tuple[set[str], str]:
    """The countries named outside the components read (each a vote for the languages of
    its name), and `work` with the names masked."""
    folded = fold(f.text)
    names: set[str] = set()
    for cm in find_countries(f.text):
        if work[cm.start : cm.end] != folded[cm.start : cm.end]:
            continue  # inside a component already read
        names.add(cm.code)
        for lang in cm.langs:
            f.add_vote(lang, 1.0 / len(cm.langs))
        work = _mask(work, cm.start, cm.end)
    return names, work


def _read_year(f: _Found, work: str) -> str:
    """A year of signature left in `work` when no id gave one."""
    if not f.years:
        ym = _YEAR.search(work)
        if ym:
            f.years.append(int(ym.group("year")))
            work = _mask(work, ym.start(), ym.end())
    return work


def _lang(f: _Found, work: str) -> str | None:
    """The language the citation is written in: the most votes (None on a tie); English
    when only words shared by several languages were read."""
    votes = f.votes
    if CJK.search(f.text):  # Chinese wins over any Latin keyword, but not over "pt/art_10"
        f.add_vote("zh", 50.0)
    for lang, pattern in CONTEXT_WORDS.items():
        hits = len(re.findall(pattern, work))
        if hits:
            f.add_vote(lang, hits)
    if votes:
        best = max(votes.values())
        winners = [lang for lang, v in votes.items() if v == best]
        return winners[0] if len(winners) == 1 else None
    return "en" if f.weak else None


# --------------------------------------------------------------------------------------------
# Checking what was read


def _one(values: set[T], what: str, text: str) -> T | None:
    if len(values) > 1:
        listed = ", ".join(str(v) for v in sorted(values, key=str))
        raise QueryError(f"{show(text)} cites more than one {what} ({listed}); cite one")
    return next(iter(values), None)


def _check_parties(text: str, treaty_id: str | None, id_parties: set[str],
                   names: set[str]) -> None:
    """A bilateral id names its parties; country names written beside it must agree."""
    if treaty_id and id_parties:
        extra = names - id_parties
        if extra:
            raise QueryError(
                f"{show(text)} names {', '.join(sorted(extra))}, which is not a party "
                f"to {treaty_id}"
            )


def _check_numbers(text: str, article: int | None, paragraph: int | None,
                   point: str | None, protocol: bool) -> None:
    for value, what in ((article, "article"), (paragraph, "paragraph")):
        if value is not None and not 1 <= value <= 999:
            raise QueryError(f"{show(text)}: {what} {value} does not exist; numbers start at 1")
    if article is None and not protocol and (paragraph is not None or point is not None):
        raise QueryError(f"{show(text)} names a paragraph or point but no article")


def _citation(f: _Found, names: set[str], work: str) -> Citation:
    """The citation of what was read, checked: one of each component, numbers that exist,
    something citable."""
    text = f.text
    treaty_id = _one(f.ids, "treaty", text)
    _check_parties(text, treaty_id, f.parties, names)
    parties = tuple(sorted(f.parties | names))
    article = _one(f.articles, "article" if not f.protocol else "protocol item", text)
    paragraph = _one(f.paragraphs, "paragraph", text)
    point = _one(f.points, "point", text)
    suffix = _one(f.suffixes, "article", text)
    _check_numbers(text, article, paragraph, point, f.protocol)
    if not (treaty_id or parties or article is not None or f.protocol):
        raise QueryError(
            f"no treaty or article found in {show(text)}; "
            "write e.g. 'br-pe-2006 Art. 10(2)(a)' or 'Brazil–Peru Article 10'"
        )
    return Citation(
        treaty_id=treaty_id,
        parties=parties,
        year=f.years[0] if f.years else None,
        article=article,
        paragraph=paragraph,
        point=point,
        protocol=f.protocol,
        lang_hint=(lang := _lang(f, work)),
        suffix=suffix,
        lang_read=lang is not None and bool(f.votes),
    )


def parse_citation(text: str) -> Citation:
    """Parse one citation; raise ``QueryError`` (one line) if nothing citable is in it.

    >>> c = parse_citation("artikel VII § 2 avtalet Sverige–Brasilien")
    >>> (c.parties, c.article, c.paragraph, c.lang_hint)
    (('BR', 'SE'), 7, 2, 'sv')
    """
    f = _Found(text)
    work = _read_components(f, fold(text))
    names, work = _read_countries(f, work)
    work = _read_year(f, work)
    return _citation(f, names, work)
