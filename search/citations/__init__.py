"""Citations to treaty units, written the way people write them, in en, pt, sv and zh.

``parse_citation`` turns ``"Brazil–Peru Art. 10(2)(a)"``, ``"br-pe-2006 art 10 para 2 (a)"``,
``"Artigo 10, parágrafo 2, alínea a) da Convenção Brasil–Colômbia"``,
``"artikel VII § 2 avtalet Sverige–Brasilien"`` or ``"中国巴西协定第十条第二款"`` into a
``Citation``; ``format_citation`` writes one back (``parse(format(c)) == c``); ``resolve``
matches it against the treaties of a corpus; ``to_eid`` names the unit; ``cite`` looks the
unit up in the store.

    grammar   the regex builders and the words of each language, in the order they are read
    parse     parse_citation
    format    format_citation, to_eid, eid_citation
    targets   TreatyRef, RefIndex, resolve
    messages  the one-line messages for ambiguous and missing citations
    lookup    cite (CiteResult): the only part that reads the store

Matching runs on a case- and accent-folded copy that keeps offsets (``countries.fold``).

>>> c = parse_citation("Brazil–Peru Art. 10(2)(a)")
>>> (c.parties, c.article, c.paragraph, c.point, c.lang_hint)
(('BR', 'PE'), 10, 2, 'a', 'en')
>>> format_citation(parse_citation("br-pe-2006 Artigo 10, parágrafo 2"), "en")
'br-pe-2006 Art. 10(2)'
>>> to_eid(parse_citation("中国巴西协定第十条第二款第（一）项"))
'art_10__para_2__point_a'
"""

from __future__ import annotations

from search.citations.format import eid_citation, format_citation, to_eid
from search.citations.lookup import CiteResult, cite
from search.citations.messages import ambiguous_message, missing_message, number_ranges
from search.citations.model import STYLES, Citation
from search.citations.parse import parse_citation
from search.citations.targets import RefIndex, TreatyRef, resolve

__all__ = [
    "STYLES",
    "Citation",
    "CiteResult",
    "RefIndex",
    "TreatyRef",
    "ambiguous_message",
    "cite",
    "eid_citation",
    "format_citation",
    "missing_message",
    "number_ranges",
    "parse_citation",
    "resolve",
    "to_eid",
]
