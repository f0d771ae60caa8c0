"""Repair driven by what the OCR engine said of each word: tesseract's confidence in it (the
``.ocr.tsv`` kept beside an OCR text).

The line and document steps repair a token only through the known OCR confusions and the
lexicon, cautiously, because most tokens they look at were read right. A word tesseract
itself doubted (confidence under `UNSURE`) that is no word of the language is another matter:
it was misread, and the one frequent word close to it by edit distance -- in the lexicon, or
in the document's own vocabulary (the words it prints again and again: names, terms) -- is
what it most likely was. A word tesseract was sure of is not looked at here; the other steps
treat it as they treat a typed text.

The search is wider than the spelling step's: any first letter, one edit in a short word, two
in a longer one (three in a long word of the document's vocabulary). It is still a choice of
one word: a rival about as frequent at the same distance leaves the token as printed, and so
does a word of another language, a capitalised word that may be a name the lexicon lacks, or
a word an older orthography spells so.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from ..models import Change, Line
from .candidates import KNOWN, recase
from .context import Normaliser
from .document import Fix, apply, tokens
from .orthography import older_form
from .rewrite import foreign, freq, known

#: Below this confidence (0-100) a word is one tesseract doubted.
UNSURE = 60.0
#: The least frequency (Zipf) of a lexicon word a doubted token may become, and how much less
#: frequent a rival at the same distance must be for the choice to stand.
FLOOR = 3.0
RIVAL = 1.0
#: The least frequency of a word a doubted capitalised token (maybe a name) may become, when
#: the document does not print it often.
NAME = 4.0
#: A doubted word at least this frequent (Zipf) is kept; a rarer one may be a misreading,
#: when a word more frequent by RARER at least is as close as a misreading is.
COMMON = 3.0
RARER = 2.0
#: A token this long with no word within the lexicon index's two edits is looked for three
#: edits away (FAR) among the frequent words.
LONG = 9
FAR = 3
#: How many times the document prints a word for it to be a word of its vocabulary.
VOCABULARY = 3
#: The shortest token looked at (a three-letter one is too often a label glued to a word,
#: "(iin" for "(ii) in", or one of many words an edit away).
_SHORTEST = 4
_PIECE = re.compile(r"[^\W\d_]+")
STEP = "unsure-word"


def doubted(words: Iterable) -> frozenset[str]:
    """The pieces of letters of `words` (anything with `text` and `conf`) that tesseract read
    at a confidence under UNSURE each time it read them."""
    worst: dict[str, float] = {}
    for w in words:
        for piece in _PIECE.findall(w.text):
            worst[piece] = max(worst.get(piece, 0.0), w.conf)
    return frozenset(p for p, conf in worst.items() if conf < UNSURE)


def _limit(tok: str) -> int:
    return 1 if len(tok) <= 4 else 2


def _vocabulary(lines: Sequence[Line], nz: Normaliser) -> dict[str, int]:
    """The document's vocabulary: the words it prints VOCABULARY times or more, lower case,
    with their counts."""
    counts = Counter(tok.lower() for _k, _a, _b, tok in tokens(lines) if len(tok) >= 4)
    return {w: n for w, n in counts.items() if n >= VOCABULARY}


def nearest(tok: str, nz: Normaliser, vocabulary: dict[str, int],
            pool: dict[int, list[str]] | None = None) -> tuple[str, str] | None:
    """The one word `tok` most likely was (see the module), with the reason, or None
    (`pool`: the frequent words by length, :func:`far_pool`, made once for a document)."""
    from rapidfuzz.distance import Levenshtein
    from symspellpy import Verbosity

    low = tok.lower()
    limit = _limit(tok)
    found: dict[str, tuple[int, float]] = {}
    for s in nz.lex.symspell.lookup(low, Verbosity.ALL, limit):
        if s.term.isalpha() and s.term != low:
            found[s.term] = (s.distance, nz.lex.freq(s.term))
    wide = limit + (len(tok) >= 8)
    for word, count in vocabulary.items():
        d = Levenshtein.distance(low, word, score_cutoff=wide)
        if d <= wide and word != low and (word not in found or found[word][0] > d):
            found[word] = (d, max(nz.lex.freq(word), FLOOR + 0.5 * count / VOCABULARY))
    if len(low) >= LONG and not any(d <= limit for d, _z in found.values()):
        found.update(_far(low, nz, far_pool(nz) if pool is None else pool))
    least = FLOOR
    if freq(tok, nz) >= KNOWN:  # a rare word: only one edit from a much commoner one
        least = max(FLOOR, freq(tok, nz) + RARER)
        found = {w: (d, z) for w, (d, z) in found.items() if d == 1}
    if tok[0].isupper() and not tok.isupper():  # (a name the lexicon lacks: only a
        least = max(least, NAME)                  # frequent word or one of the document)
        found = {w: (d, z) for w, (d, z) in found.items() if z >= NAME or w in vocabulary}
    ranked = sorted(((d, -z, w) for w, (d, z) in found.items() if z >= least or w in vocabulary))
    if not ranked:
        return None
    d, z, word = ranked[0]
    if any(d2 == d and -z2 > -z - RIVAL and not _variant(w2, word, nz.lang)
           for d2, z2, w2 in ranked[1:]):
        return None  # a rival about as likely at the same distance (not the same word in
        # today's other spelling: "authorised" beside "authorized")
    if older_form(low, word, nz.lang):
        return None
    return recase(word, tok), (f"'{tok}' doubted by the OCR and no {nz.lang} word; "
                               f"'{word}' (zipf {-z:.1f}), {d} edit(s)")


def far_pool(nz: Normaliser) -> dict[int, list[str]]:
    """The frequent words of the language (Zipf FLOOR or more, letters only) by length."""
    out: dict[int, list[str]] = {}
    for w in nz.lex.at_least(FLOOR):
        if len(w) >= LONG - FAR and w.isalpha():
            out.setdefault(len(w), []).append(w)
    return out


def _far(low: str, nz: Normaliser, pool: dict[int, list[str]]) -> dict[str, tuple[int, float]]:
    """The frequent words of `pool` three edits from a long token `low` (beyond the lexicon
    index's two)."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    words = [w for n in range(len(low) - FAR, len(low) + FAR + 1) for w in pool.get(n, ())]
    got = process.extract(low, words, scorer=Levenshtein.distance, score_cutoff=FAR,
                          limit=None)
    return {w: (int(d), nz.lex.freq(w)) for w, d, _i in got if d == FAR}


def _variant(a: str, b: str, lang: str) -> bool:
    """Are `a` and `b` one word in two spellings of today ("authorised", "authorized")?"""
    return older_form(a, b, lang) or older_form(b, a, lang)


def repair_doubted(lines: Sequence[Line], nz: Normaliser, unsure: frozenset[str]) -> list[Line]:
    """`lines` with each token of `unsure` that is no word of the language (nor of another)
    replaced by the word it most likely was (:func:`nearest`), each change recorded."""
    if not unsure:
        return list(lines)
    vocabulary = _vocabulary(lines, nz)
    pool: dict[int, list[str]] | None = None
    fixes: dict[int, list[Fix]] = {}
    memo: dict[str, tuple[str, str] | None] = {}
    for k, a, b, tok in tokens(lines):
        if tok not in unsure or len(tok) < _SHORTEST or not tok.isalpha():
            continue
        if tok not in memo:
            if pool is None and len(tok) >= LONG:
                pool = far_pool(nz)
            memo[tok] = None if _kept(tok, nz) else nearest(tok, nz, vocabulary, pool)
        got = memo[tok]
        if got is not None:
            fixes.setdefault(k, []).append(Fix(a, b, got[0], Change(STEP, tok, got[0], got[1])))
    return apply(lines, fixes) if fixes else list(lines)


def _kept(tok: str, nz: Normaliser) -> bool:
    """Is `tok` left as printed whatever tesseract thought: a word of the language (rare ones
    aside: a misreading is often a rare word, "amd", "tenn"), a word of another language, or
    an acronym?"""
    if freq(tok, nz) >= COMMON or foreign(tok, nz) or (tok.isupper() and len(tok) <= 5):
        return True
    return nz.lang == "sv" and known(tok, nz) and freq(tok, nz) < KNOWN  # (a compound)
