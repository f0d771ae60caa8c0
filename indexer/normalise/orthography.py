"""Older spellings: a token that differs from a word only as the language's earlier
orthographies spelled it is that word in an older text, not a misreading to repair.

The correspondences are the ones the spelling reforms removed, per language (Swedish 1906:
``hv``/``v``, ``fv`` and a final ``f``/``v``, ``dt``/``tt``, ``qv``/``kv``; Portuguese 1911–1943:
the etymological ``ph``, ``th``, ``ch``, ``xh``, ``y``, the double consonants, ``sc``/``c``,
``ct``/``t``; English: British and American forms). They are facts about the languages, not
about any text: every text of the time spells so.

Which of its language's systems a document is written in is a fact about the document,
estimated from its own words (and its date when known): :func:`estimate`. The repair never
changes a word consistent with that system (:func:`consistent`): in a Portuguese text of
before 1943, "Suecia" printed without today's acute is the word of its time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
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


# ---------------------------------------------------------------------------------------------
# The spelling system of one document, estimated from its own words


@dataclass(frozen=True)
class System:
    """The spelling system a document is written in: `older` when it spells as an earlier
    orthography of its language did (Swedish before 1906, Portuguese before 1943 or the
    1943-1971 rules with their differential circumflex), with `name` for the record, and
    `evidence`, the words that say so."""

    lang: str
    name: str
    older: bool
    evidence: tuple[str, ...] = ()


#: How many distinct words of a document must spell the older way for it to be read as
#: written in the older system (a lone one is a quotation, a name, or a slip).
OLDER_WORDS = 3
#: Portuguese vowels with the differential circumflex of the 1943/1945 rules.
_CIRCUMFLEXED = str.maketrans("êô", "eo")
#: Years when a language's spelling was reformed: a dated document before the first is in
#: the older system unless its words say otherwise.
REFORMED = {"sv": 1906, "pt": 1943}


def estimate(words: Iterable[str], lang: str, freq: Callable[[str], float],
             accented: Callable[[str], float], year: int | None = None) -> System:
    """The spelling system of a document of language `lang` from its words (`freq`: a word's
    Zipf frequency today; `accented`: that of the commonest word of today spelled so but for
    its diacritics, which older Portuguese printed fewer of) and its year when known: older
    when OLDER_WORDS distinct words of it are rare today but spell a common word of today as
    an older orthography did (HISTORIC; for Portuguese also the differential circumflex), or,
    without such words, when it is dated before the language's reform."""
    if lang not in REFORMED:
        return System(lang, _variety(words, lang, freq), False)
    older: set[str] = set()
    for word in set(words):
        low = word.lower()
        if len(low) >= 3 and low.isalpha() and _older_of_common(low, lang, freq, accented):
            older.add(low)
    if len(older) >= OLDER_WORDS:
        return System(lang, f"{lang}-older", True, tuple(sorted(older)[:10]))
    if year is not None and lang in REFORMED and year < REFORMED[lang] and not older:
        return System(lang, f"{lang}-before-{REFORMED[lang]}", True)
    return System(lang, f"{lang}-current", False, tuple(sorted(older)))


#: British and American endings of one word (English has had no reform: both are today's).
_VARIETIES = (("our", "or"), ("ise", "ize"), ("ised", "ized"), ("ising", "izing"),
              ("isation", "ization"), ("tre", "ter"))


def _variety(words: Iterable[str], lang: str, freq: Callable[[str], float]) -> str:
    """For English, the variety whose endings the words have more of, counting a word only
    where the other variety's spelling of it is a common word ("colour"/"color", not
    "four"/"for"), else the language."""
    if lang != "en":
        return f"{lang}-current"
    seen = {w.lower() for w in words if w.isalpha()}
    british = american = 0
    for w in seen:
        for gb, us in _VARIETIES:
            if w.endswith(gb) and len(w) - len(gb) >= 3 and freq(w[:-len(gb)] + us) >= COMMON_TODAY:
                british += 1
            elif w.endswith(us) and len(w) - len(us) >= 3 and freq(w[:-len(us)] + gb) >= COMMON_TODAY:
                american += 1
    return "en-GB" if british > american else "en-US" if american > british else "en"


#: An older spelling is rare today (Zipf under RARE_TODAY) and the word it spells common
#: (COMMON_TODAY or more, and RARER more than it).
RARE_TODAY = 3.0
COMMON_TODAY = 3.0
RARER = 2.0


def _older_of_common(low: str, lang: str, freq: Callable[[str], float],
                     accented: Callable[[str], float]) -> bool:
    """Is `low` rare today and a common word of today as an older orthography spelled it?"""
    z = freq(low)
    if z >= RARE_TODAY:
        return False
    forms = _modern_forms(low, lang)
    if lang == "pt" and ("ê" in low or "ô" in low):
        forms.append(low.translate(_CIRCUMFLEXED))
    least = max(COMMON_TODAY, z + RARER)
    return any(m != low and max(freq(m), accented(m)) >= least for m in forms)


def _modern_forms(low: str, lang: str, limit: int = 8) -> list[str]:
    """Today's spellings `low` may be an older form of: each HISTORIC correspondence of
    `lang` undone at one place (one at a time: the older words differ from theirs by one
    or two), at most `limit`."""
    out = []
    for old, new in _pairs(lang):
        if not old:
            continue
        at = low.find(old)
        while at >= 0 and len(out) < limit:
            out.append(low[:at] + new + low[at + len(old):])
            at = low.find(old, at + 1)
    return out


def consistent(before: str, after: str, system: System) -> bool:
    """Is `before` a spelling of `after` in the document's older `system` (a change from one
    to the other would undo the document's orthography)?"""
    if not system.older:
        return False
    b, a = before.lower(), after.lower()
    if system.lang == "pt" and b.translate(_CIRCUMFLEXED) == a.translate(_CIRCUMFLEXED):
        return True  # (a differential circumflex, kept or dropped)
    if system.lang == "pt" and _unaccented(b) == _unaccented(a) and _unaccented(b) == b:
        return True  # (a word older Portuguese printed without the accent today's has)
    return older_form(b, a, system.lang)


def _unaccented(word: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFD", word) if c.isascii() or c.isalpha()
                   and unicodedata.category(c) != "Mn")
