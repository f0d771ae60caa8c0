"""Older spellings: a token that differs from a word only as the language's earlier
orthographies spelled it is that word in an older text, not a misreading to repair.

The correspondences are the ones the spelling reforms removed, per language (Swedish 1906:
``hv``/``v``, ``fv`` and a final ``f``/``v``, ``dt``/``tt``, ``qv``/``kv``; Portuguese 1911–1943:
the etymological ``ph``, ``th``, ``ch``, ``xh``, ``y``, the double consonants, ``sc``/``c``,
``ct``/``t``; English: British and American forms). They are facts about the languages, not
about any text: every text of the time spells so.
"""

from __future__ import annotations

from functools import cache

#: (older, current) spellings, per language.
HISTORIC: dict[str, tuple[tuple[str, str], ...]] = {
    "sv": (("hv", "v"), ("fv", "v"), ("f", "v"), ("dt", "tt"), ("dt", "t"), ("qv", "kv")),
    "pt": (("ph", "f"), ("th", "t"), ("ch", "c"), ("xh", "x"), ("y", "i"), ("mm", "m"),
           ("nn", "n"), ("ll", "l"), ("tt", "t"), ("cc", "c"), ("ff", "f"), ("pp", "p"),
           ("sc", "c"), ("ct", "t"), ("pt", "t"), ("mn", "n"), ("z", "s"), ("s", "z"),
           ("gu", "g"), ("h", "")),
    "en": (("ise", "ize"), ("isa", "iza"), ("our", "or"), ("tre", "ter"), ("ll", "l"),
           ("ae", "e"), ("oe", "e"), ("-", "")),
}


@cache
def _pairs(lang: str) -> tuple[tuple[str, str], ...]:
    return HISTORIC.get(lang, ())


def older_form(printed: str, word: str, lang: str) -> bool:
    """Does `printed` spell `word` as an older orthography of `lang` did (differing from it
    only by HISTORIC correspondences)?"""
    p, w = printed.lower(), word.lower()
    pairs = _pairs(lang)
    if p == w or not pairs:
        return False
    seen: set[tuple[int, int]] = set()
    todo = [(0, 0)]
    while todo:
        i, j = todo.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if i == len(p) and j == len(w):
            return True
        if i < len(p) and j < len(w) and p[i] == w[j]:
            todo.append((i + 1, j + 1))
        for old, new in pairs:
            if p.startswith(old, i) and w.startswith(new, j):
                todo.append((i + len(old), j + len(new)))
    return False
