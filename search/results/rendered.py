"""A query's term as the treaties render it in other languages (`search.concordance`), for
cross-language search: a quoted phrase or a few plain words that match few articles are
also searched, in each language they match too little in, as that language's renderings
(`"beneficial owner" --lang zh` finds and highlights 受益所有人, not the term table's
fragments 受益, 劳务, 十四条). The concordance is run with small bounds here: it is one
step of a search."""

from __future__ import annotations

from collections.abc import Sequence

from indexer.errors import TreatyError
from indexer.index.query_syntax import Node, Phrase
from search.results.trees import plain_words

#: A term of more words than this is no term (a question, a sentence).
MAX_WORDS = 4
#: Renderings searched per language (the best supported).
PER_LANG = 2


def query_term(tree: Node | None) -> str | None:
    """The term a query names: a quoted phrase alone, or up to MAX_WORDS plain words."""
    if isinstance(tree, Phrase):
        return tree.text if 1 <= len(tree.text.split()) <= MAX_WORDS * 2 else None
    words = plain_words(tree)
    if words and len(words) <= MAX_WORDS and all(not w.prefix and w.fuzzy is None
                                                 for w in words):
        return " ".join(w.text for w in words)
    return None


def renderings(session, term: str, langs: Sequence[str]) -> dict[str, list[str]]:
    """The renderings of `term` (its language read off its words) in each of `langs` but
    its own that some treaty uses, best first; {} when the corpus does not have the term."""
    from search.concordance import SEARCH, concordance

    try:
        result = concordance(session, term, None, None, None, SEARCH)
    except TreatyError:
        return {}
    out: dict[str, list[str]] = {}
    for lang, part in result["targets"].items():
        if lang in langs:
            found = [r["text"] for r in part["renderings"] if r["treaties"]][:PER_LANG]
            if found:
                out[lang] = found
    return out
