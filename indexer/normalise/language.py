"""other-language: a token printed in the letters, or as a word, of another language of the
same document, where a word of its own stream's language fits.

A print set in one language's type turns another's letters into its own (the 1965 print's
Swedish type: English "at" printed "åt", the Portuguese names "Octávio Bulhões" printed
"Octåvio Bulhöes"; a Portuguese "religiosa" printed as the Swedish "religiösa"). Two cases:

- the token spells with letters its language does not have (see Lexicon.alphabet) that
  another language of the document has: read each such letter as one of the language's
  own with the same base letter (and through the language's charset confusions); the
  reading must be a common word of the language, or, for a capitalised token, a name the
  lexicon of a language of the document knows better than the printed form;
- in a print read by OCR, the token is a common word of another language of the document
  and no word of its own: the common word of its own language within one edit and a small
  OCR cost (``resultat`` -> ``resultar``).

A token whose neighbour is a word of the other language and not of its own stands in a
passage of that language (a quoted tax name, "skatt på förmögenhet") and is left alone.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import product

from ..models import Change, Line
from .candidates import CHARSET_PT, COST_WEIGHT, KNOWN, fold, recase, zipf_1945
from .context import Normaliser
from .distance import FOLD_COST, WORD, allowance, ocr_cost
from .document import Fix
from .orthography import older_form

#: A reading must be this common a word of the language (a name: this well known).
COMMON = 3.0
NAME = 2.0
#: A reading of a token that is no word of another language costs at most this (a charset
#: confusion such as ``ä``/``ã``, not a letter merely without its diacritic).
CHARSET_COST = 0.2
#: A word of another language, for the second case.
OTHER_COMMON = 3.0
#: A neighbour this much commoner in another language marks a passage of that language.
MARGIN = 1.0
#: A word this long unknown to the language's lexicon (a compound of another language).
UNKNOWN_LONG = 8
#: At most this many readings of one token are tried.
MAX_READINGS = 64


def _readings(tok: str, alphabet: frozenset[str]) -> list[tuple[str, float]]:
    """`tok` (lower case) with each letter outside `alphabet` read as a letter of it, with
    the cost of the reading: a charset confusion's weight (``ä``/``ã``), else FOLD_COST for a
    letter with the same base letter (``å``/``a``)."""
    options = []
    for ch in tok.lower():
        if ch in alphabet or not ch.isalpha():
            options.append([(ch, 0.0)])
            continue
        opts = {d: c for s, d, c in CHARSET_PT if s == ch and d in alphabet}
        for x in alphabet:
            if fold(x) == fold(ch) and x != ch:
                opts.setdefault(x, FOLD_COST)
        options.append(sorted(opts.items(), key=lambda kv: kv[1]) or [(ch, 0.0)])
    out = []
    for combo in product(*options):
        out.append(("".join(c for c, _ in combo), sum(w for _, w in combo)))
        if len(out) >= MAX_READINGS:
            break
    return out


def _foreign_passage(words: list[str], i: int, nz: Normaliser,
                     others: Sequence[Normaliser]) -> bool:
    """Is one of the two words on either side of word `i` a word of another language rather
    than of `nz`'s (commoner there by MARGIN), or a long word `nz`'s lexicon does not know?
    Names and words of one or two letters, which
    many languages share, are no evidence."""
    for j in (i - 2, i - 1, i + 1, i + 2):
        if 0 <= j < len(words) and len(words[j]) > 2 and words[j].islower():
            w = words[j]
            own = nz.lex.freq(w)
            if own < KNOWN and len(w) >= UNKNOWN_LONG:
                return True  # a long word the language does not know (a foreign compound)
            if any((z := o.lex.freq(w)) >= OTHER_COMMON and z >= own + MARGIN for o in others):
                return True
    return False


def _lettered(tok: str, nz: Normaliser, others: Sequence[Normaliser]) -> tuple[str, str] | None:
    """The first case (see the module's doc)."""
    low = tok.lower()
    foreign = {ch for ch in low if ch.isalpha() and ch not in nz.lex.alphabet}
    if not foreign or not any(foreign <= o.lex.alphabet for o in others):
        return None
    printed = max([nz.lex.freq(low)] + [o.lex.freq(low) for o in others])
    # a look-alike: the print is a word of the other language; else only a charset confusion
    # explains it
    look_alike = any(o.lex.freq(low) >= OTHER_COMMON for o in others)
    scored = []  # (score, reading, zipf, language)
    for cand, cost in _readings(tok, nz.lex.alphabet):
        z = zipf_1945(cand, nz.lex)[0]
        if z >= COMMON and (look_alike or cost <= CHARSET_COST):
            scored.append((z - COST_WEIGHT * cost, cand, z, nz.lang))
    if tok[:1].isupper():
        for o in others:
            for cand, cost in _readings(tok, o.lex.alphabet | nz.lex.alphabet):
                z = zipf_1945(cand, o.lex)[0]
                if z >= NAME and z > printed + 1.0:
                    scored.append((z - COST_WEIGHT * cost, cand, z, o.lang))
    if not scored:
        return None
    _, cand, z, lang = max(scored)
    return cand, (f"'{tok}' spells with letters {nz.lang} has not; '{cand}' is a "
                  f"{lang} word (zipf {z:.1f})")


def _other_word(tok: str, nz: Normaliser, others: Sequence[Normaliser]) -> tuple[str, str] | None:
    """The second case (see the module's doc)."""
    from symspellpy import Verbosity

    low = tok.lower()
    if len(low) < 5 or nz.lex.freq(low) >= KNOWN or not low.isalpha():
        return None
    owner = max(others, key=lambda o: o.lex.freq(low), default=None)
    if owner is None or owner.lex.freq(low) < OTHER_COMMON:
        return None
    items = [s for s in nz.lex.symspell.lookup(low, Verbosity.CLOSEST, 1) if s.term.isalpha()]
    if len(items) != 1:
        return None
    cand = items[0].term
    if nz.lex.freq(cand) < COMMON or ocr_cost(low, cand, nz.lang) > allowance(cand, True) \
            or older_form(low, cand, nz.lang):
        return None
    return cand, (f"'{tok}' is a {owner.lang} word, not a {nz.lang} one; '{cand}' "
                  f"(zipf {nz.lex.freq(cand):.1f}) one edit away")


def other_language(lines: Sequence[Line], nz: Normaliser, others: Sequence[Normaliser],
                   noisy: bool) -> dict[int, list[Fix]]:
    """The fixes of the step, by line index (see the module's doc)."""
    if not others:
        return {}
    fixes: dict[int, list[Fix]] = defaultdict(list)
    chosen: dict[str, tuple[str, str] | None] = {}
    for k, line in enumerate(lines):
        found = list(WORD.finditer(line.text))
        words = [m.group() for m in found]
        for i, m in enumerate(found):
            tok = m.group()
            if tok not in chosen:
                got = _lettered(tok, nz, others)
                if got is None and noisy:
                    got = _other_word(tok, nz, others)
                chosen[tok] = got
            got = chosen[tok]
            if got is None or _foreign_passage(words, i, nz, others):
                continue
            after = recase(got[0], tok)
            fixes[k].append(Fix(m.start(), m.end(), after,
                                Change("other-language", tok, after, got[1])))
    return fixes
