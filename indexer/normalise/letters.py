"""The word steps that repair letters inside a word, each confirmed by the lexicon: Portuguese
printed through a foreign character set (``charset-pt``), letters misread by OCR
(``ocr-letters``) and typing slips (``spelling``).

A word is only ever replaced by a word the language's lexicon confirms, reached from the
printed token through known OCR confusions (:mod:`indexer.normalise.candidates`). Protected,
never changed: words another lexicon knows (``residente`` in English), capitalised words that
look like names (changed only by a cheap confusion to a frequent word) and Swedish compounds
whose parts are words.

Portuguese printed before the 1971 reform keeps its differential circumflex: a repaired
``impösto``/``Govérno``/``déste`` becomes ``impôsto``/``Govêrno``/``dêste`` when the word without
the circumflex is a lexicon word and the circumflexed vowel carries the stress (see
:func:`indexer.lexicon.pt_uncircumflex`); otherwise the lexicon form (``sömente`` ->
``somente``) wins.
"""

from __future__ import annotations

from ..models import Change
from .candidates import (
    BUDGET,
    CHARSET_MARKS,
    KNOWN,
    RARE_CEILING,
    channel,
    fold,
    recase,
    variants,
)
from .context import Normaliser
from .orthography import older_form
from .rewrite import ByPlace, Fix, Verdict, by_name, foreign, freq, known, rewrite
from .scan import Scan

_CHARSET_FORCED = frozenset("äöå^£§ëüèÄÖÅË")
_OCR_FORCED = frozenset("]}|^£")


# ---------------------------------------------------------------------------------------------
# charset-pt


def _charset_verdict(tok: str, nz: Normaliser) -> Verdict:
    z0 = freq(tok, nz)
    if any(c in CHARSET_MARKS for c in tok.lower()):
        if z0 >= 2.5 or foreign(tok, nz):
            return None
        return nz.chooser.best(tok, True, _CHARSET_FORCED, 0.0)
    if z0 >= 2.5 and "é" not in tok.lower() or z0 >= RARE_CEILING or len(tok) < 4:
        return None
    if z0 < KNOWN and foreign(tok, nz):
        return None
    got = nz.chooser.best(tok, True, frozenset(), 0.0 if z0 < KNOWN else z0)
    if got is None and z0 >= KNOWN and len(tok) >= 5:
        return _commoner_accent(tok, z0, nz)
    return got


def _commoner_accent(tok: str, z0: float, nz: Normaliser) -> Fix:
    """A lost diacritic on a word (of Zipf `z0`) the web also misspells: a much commoner
    spelling of it with an accent."""
    for cand, cost in variants(tok, channel("pt", True), frozenset()).items():
        if cost <= 0.7 and fold(cand) == fold(tok) and nz.lex.freq(cand) >= z0 + 1.4:
            return cand, f"'{tok}' lost a diacritic; '{cand}' is the lexicon form"
    return None


def charset_pt(scan: Scan, nz: Normaliser) -> tuple[str, list[Change]]:
    """Portuguese letters printed through a Swedish/foreign character set (``säo``,
    ``aplica^äo``, ``impösto``, ``Govérno``) or with a lost cedilla/accent (``legislacao``,
    ``periodo``): the lexicon picks the reading."""
    return rewrite(scan, nz, "charset-pt", _charset_verdict)


# ---------------------------------------------------------------------------------------------
# ocr-letters


def _ocr_verdict(tok: str, nz: Normaliser) -> Verdict:
    if len(tok) < 3:
        return None
    junk = not tok.isalpha()
    z0 = 0.0 if junk else freq(tok, nz)
    if not junk and (z0 >= RARE_CEILING or (z0 < KNOWN and known(tok, nz))):
        return None
    if tok.isupper() and len(tok) <= 5:  # acronyms: CSLL, IRPJ
        return None
    if not junk and z0 < KNOWN and foreign(tok, nz):
        return None

    def settle(name: bool) -> Fix:
        got = nz.chooser.best(tok, False, _OCR_FORCED, z0, 0.8 if name else BUDGET)
        if got and name and (nz.lex.freq(got[0]) < 4.0 or z0 >= KNOWN):
            return None
        return got

    return by_name(tok, settle)


def ocr_letters(scan: Scan, nz: Normaliser) -> tuple[str, list[Change]]:
    """Letters misread by OCR (``respecl``, ``Ivingdom``, ``capita]``, ``urna``/``uma``,
    ``ineluding``): candidates through the confusion table, confirmed by the lexicon."""
    return rewrite(scan, nz, "ocr-letters", _ocr_verdict)


# ---------------------------------------------------------------------------------------------
# spelling


def _spelling_verdict(tok: str, nz: Normaliser) -> Verdict:
    if len(tok) < 6 or not tok.isalpha() or known(tok, nz) or foreign(tok, nz):
        return None
    if any(c in CHARSET_MARKS for c in tok.lower()):
        return None
    # the lookup (and the index) only when needed
    return ByPlace(tok, lambda name: _closest_word(tok, name, nz), hyphen=True)


def _closest_word(tok: str, name: bool, nz: Normaliser) -> Fix:
    """The one frequent word close to `tok` by edit distance (1 where it looks like a name,
    or is short; else 2) with its first letter and, for one as long, its letters."""
    from symspellpy import Verbosity

    dist = 2 if len(tok) >= 10 and not name else 1
    low = tok.lower()
    items = nz.lex.symspell.lookup(low, Verbosity.CLOSEST, dist)
    items = [s for s in items if s.term[0] == low[0] and s.term.isalpha()
             and (len(s.term) != len(low) or sorted(s.term) == sorted(low))]
    if not items or (name and nz.lex.freq(items[0].term) < 4.0):
        return None
    top = max(items, key=lambda s: s.count)
    if any(s is not top and s.count * 10 > top.count for s in items):
        return None  # a rival about as common
    if older_form(tok, top.term, nz.lang):
        return None  # the word as an older orthography spelled it
    if tok.isupper() and len(top.term) < len(low) and low.startswith(top.term):
        return None  # a heading's word glued to its number: "CHAPTERI", not "CHAPTER"
    z = nz.lex.freq(top.term)
    if z < 3.5:
        return None
    cand = recase(top.term, tok)
    return cand, f"'{tok}' not a {nz.lang} word; '{cand}' (zipf {z:.1f}), {top.distance} edit(s)"


def spelling(scan: Scan, nz: Normaliser) -> tuple[str, list[Change]]:
    """Typing slips (a letter doubled, dropped or swapped: ``taation``, ``solelyu``) on long
    unknown words: the one frequent word within edit distance 1 (2 for long words) with the
    same first letter."""
    return rewrite(scan, nz, "spelling", _spelling_verdict)
