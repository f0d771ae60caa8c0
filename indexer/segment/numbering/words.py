"""Numbers written in words as labels print them: "Five", "TWENTY-ONE", "twenty one",
"Primeiro", "vinte e um", "tjugoett", "First", "Tenth", "Första" (en, pt, sv; 1 to 99)."""

from __future__ import annotations

from functools import cache

from indexer.segment.numerals import CARDINAL_TENS, CARDINAL_UNITS, ORDINAL_WORDS

#: Ordinals past the tenth and the ordinal tens (en), and the Swedish ordinals.
_MORE_ORDINALS = {
    "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
    "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20,
    "thirtieth": 30, "fortieth": 40, "fiftieth": 50,
    "första": 1, "andra": 2, "tredje": 3, "fjärde": 4, "femte": 5, "sjätte": 6, "sjunde": 7,
    "åttonde": 8, "nionde": 9, "tionde": 10,
    "vigésimo": 20, "trigésimo": 30,
}  # fmt: skip
#: Words that join tens and units ("vinte e um", "twenty and one").
_JOINERS = frozenset({"e", "and", "och"})


@cache
def _tables() -> tuple[dict[str, int], dict[str, int]]:
    """(units and ordinals, tens) of every language, lower case."""
    units = {w: n for lang in CARDINAL_UNITS.values() for w, n in lang.items() if n}
    units.update(ORDINAL_WORDS)
    units.update(_MORE_ORDINALS)
    tens = {w: n for lang in CARDINAL_TENS.values() for w, n in lang.items()}
    return units, tens


def number_words_value(phrase: str) -> int | None:
    """The number `phrase` spells (1..99), or None: "Twenty-One" -> 21, "vinte e um" -> 21,
    "tjugoett" -> 21, "First" -> 1, "FIVE" -> 5."""
    units, tens = _tables()
    words = [w for w in phrase.lower().replace("-", " ").split() if w not in _JOINERS]
    if len(words) == 1:
        w = words[0]
        if w in units:
            return units[w]
        if w in tens:
            return tens[w]
        for ten, value in tens.items():  # Swedish writes them as one word: "tjugoett"
            if w.startswith(ten) and w[len(ten):] in units and units[w[len(ten):]] < 10:
                return value + units[w[len(ten):]]
        return None
    if len(words) == 2 and words[0] in tens and words[1] in units and units[words[1]] < 10:
        return tens[words[0]] + units[words[1]]
    return None


@cache
def _tens_prefixes() -> tuple[str, ...]:
    return tuple(_tables()[1])


def may_start_number(word: str) -> bool:
    """Can a number in words begin with `word` (its first word, or a Swedish compound's
    tens): the test a line's second word must pass before its words are read as one."""
    units, _tens = _tables()
    w = word.lower().split("-", 1)[0]
    return w in units or w.startswith(_tens_prefixes())

