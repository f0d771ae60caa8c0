"""A query's term as the treaties render it in other languages (`search.concordance`), for
cross-language search: a quoted phrase or a few plain words that match few articles are
also searched, in each language they match too little in, as that language's renderings
(`"beneficial owner" --lang zh` finds and highlights 受益所有人, not the term table's
fragments 受益, 劳务, 十四条). The concordance is run with small bounds here: it is one
step of a search, taken only for a term of a few words (a single word reaches the other
languages through the index's term table, as before)."""

from __future__ import annotations

from collections.abc import Sequence

from indexer.errors import TreatyError
from indexer.index.chinese import has_han
from indexer.index.query_syntax import Node, Phrase
from search.results.trees import plain_words

#: A term is of this many words (one word is the term table's; more, a question).
MIN_WORDS, MAX_WORDS = 2, 4
#: Renderings searched per language (the best supported), and the places a rendering must
#: be found in to be searched (a search adds no rendering of a single place).
PER_LANG = 1
MIN_PLACES = 2


def query_term(tree: Node | None) -> str | None:
    """The term a query names: a quoted phrase alone, or MIN_WORDS to MAX_WORDS plain words,
    in Latin letters (a Chinese query answers from the Chinese texts first, and reaches the
    others through the term table)."""
    if isinstance(tree, Phrase):
        text = tree.text
    else:
        words = plain_words(tree)
        if not words or any(w.prefix or w.fuzzy is not None for w in words):
            return None
        text = " ".join(w.text for w in words)
    if has_han(text) or not MIN_WORDS <= len(text.split()) <= MAX_WORDS:
        return None
    return text


def renderings(session, term: str, langs: Sequence[str]) -> dict[str, list[str]]:
    """The renderings of `term` (its language read off its words) in each of `langs` but
    its own that some treaty uses, best first; {} when the corpus does not have the term."""
    from search.concordance import SEARCH, concordance

    if not langs:
        return {}
    try:
        result = concordance(session, term, None, list(langs), None, SEARCH)
    except TreatyError:  # (no text has the term; or it is in the one language asked for)
        return {}
    out: dict[str, list[str]] = {}
    for lang, part in result["targets"].items():
        if lang in langs:
            found = [r["text"] for r in part["renderings"]
                     if r["treaties"] and r["pairs"] >= MIN_PLACES][:PER_LANG]
            if found:
                out[lang] = found
    return out
