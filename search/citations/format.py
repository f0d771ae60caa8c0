"""``format_citation``: a `Citation` written back in a style (en, pt, sv, zh), so that
``parse_citation(format_citation(c, s)) == c`` when ``c.lang_hint == s``; ``to_eid``: the eId
of the unit it names; ``eid_citation``: the citation of a stored unit by its eId."""

from __future__ import annotations

import re
from collections.abc import Callable

from indexer.errors import QueryError
from indexer.segment.numerals import to_chinese
from indexer.sources.countries import country_name
from search.citations.model import STYLES, Citation


def _head(c: Citation, style: str) -> str:
    """The treaty part: its id, else the party (by name when one) and the year."""
    if c.treaty_id:
        return c.treaty_id
    if len(c.parties) == 1:
        head = country_name(c.parties[0], style)
    else:
        head = "-".join(c.parties)
    return f"{head} {c.year}" if c.year and head else head or (str(c.year) if c.year else "")


def _zh_body(c: Citation) -> str:
    """``第十条第二款第（一）项``, ``议定书第四条``, ``协定`` (a whole treaty)."""
    n, p, pt = c.article, c.paragraph, c.point
    body = "议定书" if c.protocol else "协定" if n is None else ""
    body += f"第{to_chinese(n)}条{c.suffix or ''}" if n is not None else ""
    body += f"第{to_chinese(p)}款" if p is not None else ""
    if pt is not None:
        letter = len(pt) == 1 and "a" <= pt <= "z"
        body += f"第（{to_chinese(ord(pt) - 96) if letter else pt}）项"
    return body


def _en_body(c: Citation) -> str:
    """``Art. 10(2)(a)``, ``Protocol 4``."""
    n, p, pt = c.article, c.paragraph, c.point
    body = "Protocol" if c.protocol else "Art." if n is not None else ""
    body += f" {n}{c.suffix or ''}" if n is not None else ""
    body += f"({p})" if p is not None else ""
    body += f"({pt})" if pt is not None else ""
    return body


def _pt_body(c: Citation) -> str:
    """``Artigo 10, parágrafo 2, alínea a)``, ``Protocolo, item 4``, ``Convenção``."""
    n, p, pt = c.article, c.paragraph, c.point
    body = "Protocolo" if c.protocol else "Artigo" if n is not None else "Convenção"
    body += (", item " if c.protocol else " ") + str(n) + (c.suffix or "") \
        if n is not None else ""
    body += f", parágrafo {p}" if p is not None else ""
    body += f", alínea {pt})" if pt is not None else ""
    return body


def _sv_body(c: Citation) -> str:
    """``artikel 10 punkt 2 a)``, ``artikel 10 led a``, ``protokollet punkt 4 stycket 2``."""
    n, p, pt = c.article, c.paragraph, c.point
    body = "protokollet" if c.protocol else "artikel" if n is not None else "avtalet"
    body += (" punkt " if c.protocol else " ") + str(n) + (c.suffix or "") \
        if n is not None else ""
    body += (" stycket " if c.protocol else " punkt ") + str(p) if p is not None else ""
    body += (f" {pt})" if p is not None else f" led {pt}") if pt is not None else ""
    return body


_BODIES: dict[str, Callable[[Citation], str]] = {
    "en": _en_body, "pt": _pt_body, "sv": _sv_body, "zh": _zh_body,
}


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
    return f"{_head(c, style)} {_BODIES[style](c)}".strip()


def to_eid(c: Citation) -> str:
    """The eId the citation names: ``art_10__para_2__point_a``, ``prot_4``.

    A whole protocol is ``prot`` (the prefix of its items); a whole treaty is ``""``.
    """
    if c.protocol:
        eid = f"prot_{c.article}" if c.article is not None else "prot"
    elif c.article is not None:
        eid = f"art_{c.article}{c.suffix or ''}"
    else:
        return ""
    if c.paragraph is not None:
        eid += f"__para_{c.paragraph}"
    if c.point is not None:
        eid += f"__point_{c.point}"
    return eid


_EID = re.compile(r"(?P<kind>art|prot)_(?P<n>\d+)(?P<ins>[A-Za-z]*)(?:__para_(?P<p>\d+))?"
                  r"(?:__point_(?P<pt>\w+))?$")


def eid_citation(treaty: str, eid: str, style: str = "en") -> str:
    """The citation of a stored unit: "br-pe-2006 Art. 10(2)(a)" for art_10__para_2__point_a
    of br-pe-2006 (in `style`); "br-pe-2006 preamble" for a unit no article holds."""
    m = _EID.match(eid)
    if not m:
        return f"{treaty} {eid.replace('_', ' ')}"
    if m["ins"]:  # an inserted article (26A): the citation grammar has no such number
        tail = "".join(f"({x})" for x in (m["p"], m["pt"]) if x)
        return f"{treaty} Art. {m['n']}{m['ins']}{tail}"
    c = Citation(treaty_id=treaty, article=int(m["n"]), protocol=m["kind"] == "prot",
                 paragraph=int(m["p"]) if m["p"] else None, point=m["pt"])
    return format_citation(c, style)
