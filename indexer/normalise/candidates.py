"""Candidate generation for OCR repair: the noisy channel of known OCR confusions and the
lexicon-scored choice of a replacement word (used by the steps of :mod:`indexer.normalise`).

A printed token is rewritten through a weighted table of confusions (``rn``/``m``, ``cl``/``d``,
``l``/``i``/``1``/``]``, Swedish-charset letters for Portuguese ones ...); the candidate's
lexicon frequency is the prior, the confusion costs the channel. Nothing is loaded at import
time.

The memos of a language (the replacement chosen for a token, which spellings can still grow into a
word of its lexicon) are held by a :class:`Chooser`, which the language's
:class:`~indexer.normalise.context.Normaliser` makes and keeps.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import cache
from pathlib import Path

from ..lexicon import Lexicon, load_lexicon, pt_uncircumflex

# ---------------------------------------------------------------------------------------------
# Thresholds (Zipf frequency: 7 = very common, 3 = once per million words, 0 = unknown)

#: A token with at least this frequency counts as a word of the language.
KNOWN = 1.0
#: A replacement must be at least this frequent.
CAND_FLOOR = 3.0
#: A known-but-rare token may still be an OCR error when a cheap confusion turns it into a word
#: at least ``RARE_MARGIN`` (+ channel cost) more frequent; tokens above RARE_CEILING never are.
RARE_CEILING = 3.6
RARE_MARGIN = 3.0
#: Weight of the channel cost against the frequency prior.
COST_WEIGHT = 2.0
#: Largest channel cost explored.
BUDGET = 2.0

# ---------------------------------------------------------------------------------------------
# The noisy channel: (printed, meant, cost)

OCR_PAIRS: tuple[tuple[str, str, float], ...] = (
    ("rn", "m", 0.4), ("m", "rn", 0.7), ("cl", "d", 0.5), ("d", "cl", 0.8), ("li", "h", 0.7),
    ("h", "li", 0.9), ("ii", "u", 0.7), ("u", "ii", 0.9), ("I", "l", 0.3), ("l", "I", 0.7),
    ("l", "i", 0.5), ("i", "l", 0.5), ("1", "l", 0.4), ("1", "i", 0.6), ("]", "l", 0.3),
    ("}", "l", 0.4), ("|", "l", 0.3), ("e", "c", 0.6), ("c", "e", 0.6), ("c", "o", 0.8),
    ("o", "c", 0.8), ("n", "u", 0.7), ("u", "n", 0.7), ("t", "l", 0.7), ("l", "t", 0.7),
    ("f", "t", 0.7), ("t", "f", 0.7), ("l", "f", 0.8), ("b", "h", 0.7), ("h", "b", 0.7),
    ("v", "y", 0.7), ("y", "v", 0.7), ("Iv", "K", 0.5), ("lv", "K", 0.6), ("vv", "w", 0.6),
    ("0", "o", 0.4), ("I", "t", 0.8), ("s", "e", 0.9), ("a", "e", 0.9), ("e", "a", 0.9),
    ("D", "B", 0.8), ("x", "r", 0.8), ("i", "t", 0.8), ("in", "m", 0.6),
    ("lll", "ll", 0.4), ("j", "y", 0.6),
)
# Portuguese letters printed with a Swedish/foreign character set, and lost diacritics.
CHARSET_PT: tuple[tuple[str, str, float], ...] = (
    ("ä", "ã", 0.1), ("ä", "â", 0.4), ("ä", "á", 0.5), ("ä", "a", 1.0), ("ö", "õ", 0.2),
    ("ö", "ó", 0.2), ("ö", "ô", 0.2), ("ö", "o", 1.0), ("å", "á", 0.1), ("å", "à", 0.1),
    ("å", "a", 1.0), ("å", "â", 0.3), ("^", "ç", 0.1), ("£", "ç", 0.1), ("§", "ç", 0.1),
    ("ë", "ê", 0.2), ("ü", "ú", 0.3),
    ("é", "ê", 0.3), ("é", "e", 0.9), ("è", "ê", 0.3), ("c", "ç", 0.5), ("g", "ç", 0.8),
    ("o", "õ", 0.6), ("a", "ã", 0.6), ("a", "á", 0.6), ("e", "é", 0.6), ("i", "í", 0.5),
    ("o", "ó", 0.6), ("u", "ú", 0.6), ("e", "ê", 0.7), ("o", "ô", 0.7), ("a", "â", 0.7),
    ("s", "õ", 0.9),
)
# A cedilla read as a j-like glyph, with or without the c under it (diretjäo, notificacjäo):
# only tried on tokens that also show charset marks, as j is an ordinary letter elsewhere.
CEDILLA_J: tuple[tuple[str, str, float], ...] = (
    ("tj", "ç", 0.3), ("cj", "ç", 0.3), ("sj", "ç", 0.4), ("j", "ç", 0.4), ("f", "ç", 0.6),
    ("mj", "nç", 0.5), ("nj", "iç", 0.6),
)
CHARSET_MARKS = frozenset("äöå^£§ëüè")

Table = dict[str, list[tuple[str, str, float]]]


def _with_upper(pairs: tuple[tuple[str, str, float], ...]) -> Table:
    """Index `pairs` by first printed character, adding capitalised variants of lower-case
    pairs (``rn``/``m`` also as ``RN``/``M``, ``ä``/``ã`` as ``Ä``/``Ã``)."""
    table: Table = {}
    for src, dst, cost in pairs:
        variants = [(src, dst)]
        if src.islower() and dst.islower():
            variants.append((src.upper(), dst.upper()))
        for s, d in variants:
            table.setdefault(s[0], []).append((s, d, cost))
    return table


@cache
def channel(lang: str, charset_only: bool) -> Table:
    """The confusion table for `lang` (only the charset/diacritic part with `charset_only`)."""
    pairs: tuple[tuple[str, str, float], ...] = ()
    if lang == "pt":
        pairs = CHARSET_PT + (CEDILLA_J if charset_only else ())
    if not charset_only:
        pairs = pairs + OCR_PAIRS
    return _with_upper(pairs)


_UNCIRC = str.maketrans("êô", "eo")


def variants(
    tok: str, table: Table, forced: frozenset[str], grows: Callable[[str], bool] | None = None
) -> dict[str, float]:
    """Every spelling reachable from `tok` through `table` within BUDGET, with its cost.
    Characters in `forced` cannot stay as printed (they are not letters of the language);
    with `grows` (see Chooser.grows), only spellings that can still grow into a lexicon word
    are explored."""
    out: dict[str, float] = {}
    n = len(tok)
    # the confusions that apply at each position: (length printed, meant, cost)
    moves = [[(len(s), d, c) for s, d, c in table.get(ch, ()) if tok.startswith(s, i)]
             for i, ch in enumerate(tok)]
    keep = [ch not in forced for ch in tok]

    # depth first, keeping the printed letter before trying its confusions (the order of
    # `out` is the order spellings are first reached); a branch is cut when over budget or
    # when no lexicon word starts with it
    def walk(i: int, built: str, cost: float) -> None:
        if i == n:
            if built != tok and cost < out.get(built, 99.0):
                out[built] = cost
            return
        if keep[i]:
            nxt = built + tok[i]
            if grows is None or grows(nxt):
                walk(i + 1, nxt, cost)
        for k, dst, c in moves[i]:
            total = cost + c
            if total > BUDGET:
                continue
            nxt = built + dst
            if grows is None or not nxt or grows(nxt):
                walk(i + k, nxt, total)

    walk(0, "", 0.0)
    return out


_GRAVE = str.maketrans("èìòù", "eiou")


def zipf_1945(cand: str, lex: Lexicon) -> tuple[float, str]:
    """Frequency of `cand`, with the 1945-orthography rules for a differential circumflex and
    for the grave accent on a secondary stress (``sòmente``, ``pràticamente``: the word
    without it)."""
    z = lex.freq(cand)
    if lex.lang != "pt" or z >= CAND_FLOOR:
        return z, ""
    plain = cand.lower().translate(_GRAVE)
    if plain != cand.lower() or "à" in cand[1:].lower():
        plain = plain[:1] + plain[1:].replace("à", "a")
        zg = lex.freq(plain)
        if zg >= CAND_FLOOR:
            return zg - 0.3, f"1945 orthography: grave accent on a secondary stress of '{plain}'"
    folded = pt_uncircumflex(cand)
    zf = lex.freq(folded) if folded else 0.0
    if folded and zf >= CAND_FLOOR:
        return zf - 0.3, f"1945 orthography: differential circumflex on '{folded}'"
    return z, ""


def fold(word: str) -> str:
    """`word` lower-cased without diacritics (ASCII letters only)."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if c.isascii())


# ---------------------------------------------------------------------------------------------
# Words the lexicon vouches for otherwise

#: Languages whose common words are left alone in a text of another language (``residente``
#: in English, ``belasting`` in a Dutch passage labelled English, ``ordre`` ...).
FOREIGN = ("en", "pt", "sv", "es", "fr", "nl", "de", "it")
FOREIGN_ZIPF = 3.5
#: ... and for capitalised words of five letters or more (names, headings), a lower bar.
FOREIGN_ZIPF_NAME = 2.5


def foreign_lexicons(lang: str, cache_dir: Path | None) -> tuple[Lexicon, ...]:
    """The common words of each language of FOREIGN but `lang` (down to FOREIGN_ZIPF_NAME)."""
    return tuple(load_lexicon(x, cache_dir, FOREIGN_ZIPF_NAME) for x in FOREIGN if x != lang)


def is_foreign(tok: str, foreign: tuple[Lexicon, ...]) -> bool:
    """Is `tok` a common word of a language of `foreign` (see foreign_lexicons; a lower bar
    for names)?"""
    bar = FOREIGN_ZIPF_NAME if tok[:1].isupper() and len(tok) >= 5 else FOREIGN_ZIPF
    return any(lx.freq(tok) >= bar for lx in foreign)


_SV_ENDINGS = ("arna", "erna", "orna", "ande", "ende", "ade", "ades", "as", "es", "ar", "er",
               "or", "na", "en", "et", "an", "ad", "at", "s", "a", "e")


def sv_inflected(tok: str, lex: Lexicon) -> bool:
    """Swedish: an unknown token with an inflection ending whose stem some known word
    continues (``befraktas`` beside ``befraktning``) is a word form, not an OCR error."""
    w = tok.lower()
    for end in _SV_ENDINGS:
        if w.endswith(end) and len(w) - len(end) >= 5 and lex.continues(w[: -len(end)], 6):
            return True
    return False


def is_compound(tok: str, lex: Lexicon, depth: int = 0) -> bool:
    """Swedish: is `tok` a compound of words (at most four parts, a linking s allowed)?"""
    w = tok.lower()
    if depth and lex.freq(w) >= 2.5:
        return True
    if depth > 2 or len(w) < 6:
        return False
    for i in range(3, len(w) - 2):
        head = w[:i]
        head_ok = lex.freq(head) >= 2.5 or (head.endswith("s") and lex.freq(head[:-1]) >= 2.5)
        if head_ok and is_compound(w[i:], lex, depth + 1):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Choosing a replacement

#: Choices a Chooser remembers, and spellings it remembers the growth of, before it forgets
#: them (see Chooser.bound).
BEST_LIMIT = 100_000
GROWS_LIMIT = 500_000


class Chooser:
    """The choice of a replacement word in the lexicon `lex` of language `lang`, remembered
    per token (a text repeats its OCR errors), and whether a spelling can still grow into one
    of its words, remembered per spelling (the spellings explored share their prefixes)."""

    def __init__(self, lang: str, lex: Lexicon) -> None:
        self.lang = lang
        self.lex = lex
        self._chosen: dict[tuple, tuple[str, str] | None] = {}
        self._grown: dict[str, bool] = {}
        self.grows = _growth_test(lex.has_prefix, self._grown)

    def bound(self) -> None:
        """Forget what is remembered past BEST_LIMIT choices or GROWS_LIMIT spellings (the
        answers stay the same; only the work done again to give them grows)."""
        if len(self._chosen) > BEST_LIMIT:
            self._chosen.clear()
        if len(self._grown) > GROWS_LIMIT:
            self._grown.clear()

    def best(self, tok: str, charset_only: bool, forced: frozenset[str], z0: float,
             budget: float = BUDGET) -> tuple[str, str] | None:
        """The best lexicon word reachable from `tok` (of Zipf frequency `z0`) through the
        channel of the language (only its charset part with `charset_only`) within
        `budget`, with the reason, or None."""
        key = (tok, charset_only, forced, z0, budget)
        got = self._chosen.get(key, key)
        if got is key:
            got = self._chosen[key] = self._choose(tok, charset_only, forced, z0, budget)
        return got  # type: ignore[return-value]

    def _choose(self, tok: str, charset_only: bool, forced: frozenset[str], z0: float,
                budget: float) -> tuple[str, str] | None:
        lex = self.lex
        # a letter the language does not have must have been something else: a lower floor
        floor = KNOWN if any(c in forced for c in tok) else CAND_FLOOR
        scored = []
        table = channel(self.lang, charset_only)
        for cand, cost in variants(tok, table, forced, self.grows).items():
            if cost > budget or not cand.replace("'", "").isalpha():
                continue
            z, note = zipf_1945(cand, lex)
            if _plausible(z, floor, cand, z0, cost):
                scored.append((z - COST_WEIGHT * cost, cand, cost, z, note))
        if not scored:
            return None
        scored.sort(reverse=True)
        score, cand, cost, z, note = scored[0]
        if len(scored) > 1 and scored[1][0] > score - 0.5 and fold(scored[1][1]) != fold(cand):
            return None  # two readings about as likely: leave the print alone
        why = f"'{tok}' not a {self.lang} word; '{cand}' (zipf {z:.1f}) via OCR confusion"
        return cand, why + (f"; {note}" if note else "")


def _plausible(z: float, floor: float, cand: str, z0: float, cost: float) -> bool:
    """Can `cand` (Zipf `z`, reached at channel cost `cost`) replace a printed token of Zipf
    `z0`, with `floor` the least frequency of a replacement?"""
    if z < floor or (len(cand) <= 3 and z < 4.0):
        return False
    return not (z0 >= KNOWN and (z0 >= RARE_CEILING or z - z0 < RARE_MARGIN + cost))


def _growth_test(prefixes: Callable[[str], bool], memo: dict[str, bool]
                 ) -> Callable[[str], bool]:
    """`prefixes` of a spelling, lower-cased, or of it without a differential circumflex,
    remembered in `memo`."""

    def grows(built: str) -> bool:
        ok = memo.get(built)
        if ok is None:
            low = built.lower()
            ok = prefixes(low)
            if not ok and ("ê" in low or "ô" in low):
                ok = prefixes(low.translate(_UNCIRC))
            memo[built] = ok
        return ok

    return grows


def recase(word: str, like: str) -> str:
    """`word` in the case of `like` (all capitals, capitalised, or as is)."""
    if like.isupper() and len(like) > 1:
        return word.upper()
    if like[:1].isupper():
        return word[:1].upper() + word[1:]
    return word
