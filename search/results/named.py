"""Countries named in a query: "dividends Peru" asks for the dividends article of the treaty
with Peru, not for paragraphs that happen to print "Peru". The country names of a query of
plain words (in any of the four languages, `indexer.sources.countries`) become party filters
for a search of its other words."""

from __future__ import annotations

from indexer.index.query_syntax import parse
from indexer.sources.countries import find_countries
from search.results.trees import plain_words


def named_parties(query: str) -> tuple[tuple[str, ...], str] | None:
    """(party codes, the query without their names) when a plain-words query names countries
    and has other words; else None."""
    tree, _plain = parse(query)
    if not plain_words(tree):
        return None
    found = find_countries(query)
    if not found:
        return None
    rest, last = [], 0
    for m in found:
        rest.append(query[last:m.start])
        last = m.end
    rest.append(query[last:])
    words = " ".join(" ".join(rest).split())
    rest_tree, _ = parse(words)
    if not words or not plain_words(rest_tree):
        return None
    return tuple(sorted({m.code for m in found})), words
