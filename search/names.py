"""Treaties as people name them, wherever a person reads (the CLI, the web pages, the rates
matrix, CSV): "Brazil–Peru (2006)", "Brazil–Peru (2006) Art. 10(2)(a)". The treaty id stays
in JSON and in URLs.

    treaty_name("br-pe-2006")             -> "Brazil–Peru (2006)"
    treaty_name(treaty, "pt")             -> "Brasil–Peru (2006)"   (a search.corpus.Treaty)
    cited_as("br-pe-2006 Art. 10(2)(a)")  -> "Brazil–Peru (2006) Art. 10(2)(a)"

The parties are named in the order of the id ("se-br-1975-2019" is Sweden–Brazil), a
multilateral treaty by the words of its id ("nordic-1996" -> "Nordic (1996)"); a name is
the id itself when the id says nothing else.
"""

from __future__ import annotations

import re
from functools import lru_cache

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
