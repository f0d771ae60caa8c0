"""OCR repair as a registry of named, ordered steps, each of which explains its changes.

In the manner of ftfy's ``fix_and_explain``: :func:`normalise` runs every registered step that
applies to the language, in order, and returns the repaired text with a tuple of
:class:`~indexer.models.Change` (step, before, after, why).

Principles
- A word is only ever replaced by a word the language's lexicon (wordfreq, see
  :mod:`indexer.lexicon`) confirms, reached from the printed token through known OCR confusions
  (a weighted noisy channel: ``rn``/``m``, ``cl``/``d``, ``l``/``i``/``1``/``]``, ``e``/``c``,
  Swedish-charset letters for Portuguese ones ...). The candidate's frequency is the prior, the
  confusion costs the channel; the best-scoring candidate wins only when it is frequent, and the
  printed token is unknown (or much rarer, for cheap confusions).
- Protected, never changed: numbers and dates, roman-numeral labels (``XVII``, ``Xl``), URLs and
  e-mail addresses, short quoted terms, words another lexicon knows (``residente`` in English),
  capitalised words that look like names (changed only by a cheap confusion to a frequent word),
  Swedish compounds whose parts are words, and Chinese (only the Unicode step applies).
- Portuguese printed before the 1971 reform keeps its differential circumflex: a repaired
  ``impösto``/``Govérno``/``déste`` becomes ``impôsto``/``Govêrno``/``dêste`` when the word without
  the circumflex is a lexicon word and the circumflexed vowel carries the stress (see
  :func:`_stressed_nucleus`); otherwise the lexicon form (``sömente`` -> ``somente``) wins.
- Chinese: the policy normal form is NFKC, but the Halfwidth and Fullwidth Forms block is kept
  (``１．`` and ``（一）`` are printed paragraph labels that ``segment`` reads); search-side
  folding of those belongs to ``analysis``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from .lexicon import Lexicon, load_lexicon, pt_uncircumflex
from .models import Change, Line
from .policy import policy

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

_LETTER = r"[^\W\d_]"
_TOKEN = re.compile(r"[^\W_]+(?:[\^£§\]\}\|][^\W_]+)*[\]\}]?|[\^£][^\W_]+")
_ROMAN = re.compile(r"^[IVXLCDM][IVXLCDMl1]*$|^[ivxlcdm]{1,4}$")
_PROTECT = re.compile(
    r"https?://\S+|www\.\S+|[\w.+-]+@[\w-]+\.[\w.]+"  # URLs, e-mail
    r"|“[^”\n]{1,60}”|«[^»\n]{1,60}»|»[^»«\n]{1,60}»|\"[^\"\n]{1,60}\""  # short quoted terms
)
_SENTENCE_START = re.compile(r"(?:^|[.!?:;(•\-–]\s*|\d[.)]\s*|\b[a-z]\)\s*)$")


@dataclass(frozen=True)
class Step:
    """A named normalisation step: ``func(text, ctx) -> (text, changes)``."""

    name: str
    func: Callable[[str, _Ctx], tuple[str, list[Change]]]
    langs: frozenset[str] | None  # None = every language
    doc: str


STEPS: dict[str, Step] = {}


def step(name: str, langs: tuple[str, ...] | None = None) -> Callable:
    """Register a step under `name` (in definition order) for `langs` (None = all)."""

    def deco(func: Callable[[str, _Ctx], tuple[str, list[Change]]]) -> Callable:
        STEPS[name] = Step(name, func, frozenset(langs) if langs else None, func.__doc__ or "")
        return func

    return deco


@dataclass
class _Ctx:
    lang: str
    cache_dir: Path | None
    _lex: Lexicon | None = None

    @property
    def lex(self) -> Lexicon:
        if self._lex is None:
            pol = policy(self.lang)
            self._lex = load_lexicon(pol.lexicon if pol else self.lang, self.cache_dir)
        return self._lex


# ---------------------------------------------------------------------------------------------
# Public API


def normalise(
    text: str, lang: str, cache_dir: str | Path | None = None
) -> tuple[str, tuple[Change, ...]]:
    """Repair `text` of language `lang`; return the new text and the changes made, in order."""
    ctx = _Ctx(lang, Path(cache_dir) if cache_dir is not None else None)
    changes: list[Change] = []
    for st in STEPS.values():
        if st.langs is not None and lang not in st.langs:
            continue
        text, made = st.func(text, ctx)
        changes.extend(made)
    return text, tuple(changes)


def normalise_line(line: Line, cache_dir: str | Path | None = None) -> Line:
    """`line` with its ``text`` normalised for ``line.lang`` and ``changes`` set."""
    text, changes = normalise(line.text, line.lang, cache_dir)
    return replace(line, text=text, changes=line.changes + changes)


# ---------------------------------------------------------------------------------------------
# Unicode and whitespace

_LIGATURES = {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}


def _nfkc_keep_fullwidth(text: str) -> str:
    return "".join(
        ch if 0xFF00 <= ord(ch) <= 0xFFEF or ch == "\u3000" else unicodedata.normalize("NFKC", ch)
        for ch in unicodedata.normalize("NFC", text)
    )


@step("unicode-nfc")
def _unicode(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """The policy's Unicode normal form (NFC; NFKC for Chinese but keeping fullwidth forms);
    Latin ligatures (ﬁ) spelled out."""
    pol = policy(ctx.lang)
    if pol is not None and pol.normal_form == "NFKC":
        new = _nfkc_keep_fullwidth(text)
    else:
        new = unicodedata.normalize("NFC", text)
        if pol is None or pol.script == "Latn":
            new = re.sub("[ﬀ-ﬆ]", lambda m: _LIGATURES.get(m.group(), m.group()), new)
    if new == text:
        return text, []
    return new, [Change("unicode-nfc", text, new, "Unicode normal form")]


@step("whitespace")
def _whitespace(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Runs of spaces, tabs and no-break spaces become one space; line ends lose trailing
    blanks."""
    changes: list[Change] = []

    def sub(m: re.Match[str]) -> str:
        rep = "" if m.group(2) is not None or m.end() == len(text) else " "
        if m.start() == 0 and rep == " ":
            rep = ""
        if m.group(1) != rep:
            changes.append(Change("whitespace", m.group(1), rep, "spacing"))
        return rep + (m.group(2) or "")

    # the ideographic space is part of Chinese layout (after a label): left alone
    new = re.sub(r"([ \t\u00a0\u2000-\u200a\u202f]+)(\n)?", sub, text)
    return new, changes


# ---------------------------------------------------------------------------------------------
# Numbers

_DIGITISH = re.compile(r"(?<![\w.,])[0-9lIO]*[0-9][0-9lIO]*(?![\w])")
_LABEL_WORDS = (
    r"paragraphs?|sub-?paragraphs?|items?|parágrafos?|parágrafo|incisos?|itens|item|"
    r"punkt(?:en|erna)?|stycke[tn]?|§"
)
_LABEL_L = re.compile(rf"(?i:\b(?:{_LABEL_WORDS}))\s+(l)(?=[\s,.;:)]|$)")
_TO_DIGIT = str.maketrans({"l": "1", "I": "1", "O": "0"})


@step("ocr-digits")
def _ocr_digits(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Letters read for digits inside numbers (``l965``, ``19O5``: at least two real digits)
    and a lowercase ``l`` numbering a paragraph (``paragraph l``; roman ``I`` stays)."""
    if ctx.lang == "zh":
        return text, []
    changes: list[Change] = []

    def num(m: re.Match[str]) -> str:
        tok = m.group()
        if sum(c.isdigit() for c in tok) < 2 or tok.isdigit():
            return tok
        new = tok.translate(_TO_DIGIT)
        changes.append(Change("ocr-digits", tok, new, "letter among digits read as a digit"))
        return new

    text = _DIGITISH.sub(num, text)

    def label(m: re.Match[str]) -> str:
        changes.append(Change("ocr-digits", m.group(), m.group()[:-1] + "1",
                              "paragraph number printed as the letter l"))
        return m.group()[:-1] + "1"

    text = _LABEL_L.sub(label, text)
    return text, changes


# ---------------------------------------------------------------------------------------------
# The noisy channel: (printed, meant, cost)

_OCR_PAIRS: tuple[tuple[str, str, float], ...] = (
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
_CHARSET_PT: tuple[tuple[str, str, float], ...] = (
    ("ä", "ã", 0.1), ("ä", "â", 0.4), ("ä", "á", 0.5), ("ä", "a", 1.0), ("ö", "õ", 0.2),
    ("ö", "ó", 0.2), ("ö", "ô", 0.2), ("ö", "o", 1.0), ("å", "á", 0.1), ("å", "à", 0.1),
    ("å", "a", 1.0), ("å", "â", 0.3), ("^", "ç", 0.1), ("£", "ç", 0.1), ("§", "ç", 0.1), ("ë", "ê", 0.2), ("ü", "ú", 0.3),
    ("é", "ê", 0.3), ("é", "e", 0.9), ("è", "ê", 0.3), ("c", "ç", 0.5), ("g", "ç", 0.8),
    ("o", "õ", 0.6), ("a", "ã", 0.6), ("a", "á", 0.6), ("e", "é", 0.6), ("i", "í", 0.5),
    ("o", "ó", 0.6), ("u", "ú", 0.6), ("e", "ê", 0.7), ("o", "ô", 0.7), ("a", "â", 0.7), ("s", "õ", 0.9),
)
# A cedilla read as a j-like glyph, with or without the c under it (diretjäo, notificacjäo):
# only tried on tokens that also show charset marks, as j is an ordinary letter elsewhere.
_CEDILLA_J: tuple[tuple[str, str, float], ...] = (
    ("tj", "ç", 0.3), ("cj", "ç", 0.3), ("sj", "ç", 0.4), ("j", "ç", 0.4), ("f", "ç", 0.6),
    ("mj", "nç", 0.5), ("nj", "iç", 0.6),
)
_CHARSET_MARKS = frozenset("äöå^£§ëüè")


def _with_upper(pairs: tuple[tuple[str, str, float], ...]) -> dict[str, list]:
    """Index `pairs` by first printed character, adding capitalised variants of lower-case
    pairs (``rn``/``m`` also as ``RN``/``M``, ``ä``/``ã`` as ``Ä``/``Ã``)."""
    table: dict[str, list] = {}
    for src, dst, cost in pairs:
        variants = [(src, dst)]
        if src.islower() and dst.islower():
            variants.append((src.upper(), dst.upper()))
        for s, d in variants:
            table.setdefault(s[0], []).append((s, d, cost))
    return table


@lru_cache(maxsize=8)
def _channel(lang: str, charset_only: bool) -> dict[str, list]:
    pairs: tuple[tuple[str, str, float], ...] = ()
    if lang == "pt":
        pairs = _CHARSET_PT + (_CEDILLA_J if charset_only else ())
    if not charset_only:
        pairs = pairs + _OCR_PAIRS
    return _with_upper(pairs)


def _variants(
    tok: str, table: dict, forced: frozenset[str], prefixes: Callable[[str], bool] | None = None
) -> dict[str, float]:
    """Every spelling reachable from `tok` through `table` within BUDGET, with its cost.
    Characters in `forced` cannot stay as printed (they are not letters of the language);
    with `prefixes`, only spellings that can still grow into a lexicon word are explored."""
    out: dict[str, float] = {}

    def walk(i: int, built: str, cost: float) -> None:
        if cost > BUDGET:
            return
        if prefixes is not None and built:
            low = built.lower()
            if not prefixes(low) and not prefixes(low.translate(_UNCIRC)):
                return
        if i == len(tok):
            if built != tok and cost < out.get(built, 99.0):
                out[built] = cost
            return
        ch = tok[i]
        if ch not in forced:
            walk(i + 1, built + ch, cost)
        for src, dst, c in table.get(ch, ()):
            if tok.startswith(src, i):
                walk(i + len(src), built + dst, cost + c)

    walk(0, "", 0.0)
    return out


_UNCIRC = str.maketrans("êô", "eo")


def _zipf(cand: str, lex: Lexicon) -> tuple[float, str]:
    """Frequency of `cand`, with the 1945-orthography rule for a differential circumflex."""
    z = lex.freq(cand)
    if lex.lang != "pt" or z >= CAND_FLOOR:
        return z, ""
    folded = pt_uncircumflex(cand)
    zf = lex.freq(folded) if folded else 0.0
    if folded and zf >= CAND_FLOOR:
        return zf - 0.3, f"1945 orthography: differential circumflex on '{folded}'"
    return z, ""


#: Languages whose common words are left alone in a text of another language (``residente``
#: in English, ``belasting`` in a Dutch passage labelled English, ``ordre`` ...).
FOREIGN = ("en", "pt", "sv", "es", "fr", "nl", "de", "it")
FOREIGN_ZIPF = 3.5
#: ... and for capitalised words of five letters or more (names, headings), a lower bar.
FOREIGN_ZIPF_NAME = 2.5


@lru_cache(maxsize=8)
def _foreign(lang: str, cache_dir: Path | None) -> tuple[Lexicon, ...]:
    return tuple(load_lexicon(x, cache_dir, FOREIGN_ZIPF_NAME) for x in FOREIGN if x != lang)


def _is_foreign(tok: str, ctx: _Ctx) -> bool:
    bar = FOREIGN_ZIPF_NAME if tok[:1].isupper() and len(tok) >= 5 else FOREIGN_ZIPF
    return any(lx.freq(tok) >= bar for lx in _foreign(ctx.lang, ctx.cache_dir))


_SV_ENDINGS = ("arna", "erna", "orna", "ande", "ende", "ade", "ades", "as", "es", "ar", "er",
               "or", "na", "en", "et", "an", "ad", "at", "s", "a", "e")


def _inflected(tok: str, lex: Lexicon) -> bool:
    """Swedish: an unknown token with an inflection ending whose stem some known word
    continues (``befraktas`` beside ``befraktning``) is a word form, not an OCR error."""
    w = tok.lower()
    for end in _SV_ENDINGS:
        if w.endswith(end) and len(w) - len(end) >= 5 and lex.continues(w[: -len(end)], 6):
            return True
    return False


def _is_compound(tok: str, lex: Lexicon, depth: int = 0) -> bool:
    w = tok.lower()
    if depth and lex.freq(w) >= 2.5:
        return True
    if depth > 2 or len(w) < 6:
        return False
    for i in range(3, len(w) - 2):
        head = w[:i]
        head_ok = lex.freq(head) >= 2.5 or (head.endswith("s") and lex.freq(head[:-1]) >= 2.5)
        if head_ok and _is_compound(w[i:], lex, depth + 1):
            return True
    return False


def _hyphen_piece(text: str, start: int, tok: str) -> bool:
    """Is `tok` one piece of a hyphenated word (or of a word broken at a line end)?"""
    end = start + len(tok)
    return text[start - 1 : start] == "-" or text[end : end + 1] == "-"


def _name_like(text: str, start: int, tok: str) -> bool:
    """A capitalised token that does not start a sentence or a numbered item (a period after
    an initial, ``A. F. Azaredo``, does not end a sentence)."""
    if not tok[:1].isupper() or tok.isupper():
        return False
    before = text[:start]
    if not _SENTENCE_START.search(before):
        return True
    return bool(re.search(r"(?:^|[\s(])[A-Z]\.\s*$", before))


_BEST_MEMO: dict[tuple, tuple[str, str] | None] = {}


def _best(tok: str, ctx: _Ctx, charset_only: bool, forced: frozenset[str],
          z0: float, budget: float = BUDGET) -> tuple[str, str] | None:
    """The best lexicon word reachable from `tok` through the channel, or None (memoised: a
    text repeats its OCR errors)."""
    key = (ctx.lang, id(ctx.lex), tok, charset_only, forced, z0, budget)
    if key not in _BEST_MEMO:
        if len(_BEST_MEMO) > 100_000:
            _BEST_MEMO.clear()
        _BEST_MEMO[key] = _best_uncached(tok, ctx, charset_only, forced, z0, budget)
    return _BEST_MEMO[key]


def _best_uncached(tok: str, ctx: _Ctx, charset_only: bool, forced: frozenset[str],
                   z0: float, budget: float) -> tuple[str, str] | None:
    lex = ctx.lex
    # a letter the language does not have must have been something else: a lower floor
    floor = KNOWN if any(c in forced for c in tok) else CAND_FLOOR
    scored = []
    table = _channel(ctx.lang, charset_only)
    for cand, cost in _variants(tok, table, forced, lex.has_prefix).items():
        if cost > budget:
            continue
        if not cand.replace("'", "").isalpha():
            continue
        z, note = _zipf(cand, lex)
        if z < floor or (len(cand) <= 3 and z < 4.0):
            continue
        if z0 >= KNOWN and (z0 >= RARE_CEILING or z - z0 < RARE_MARGIN + cost):
            continue
        scored.append((z - COST_WEIGHT * cost, cand, cost, z, note))
    if not scored:
        return None
    scored.sort(reverse=True)
    score, cand, cost, z, note = scored[0]
    if len(scored) > 1 and scored[1][0] > score - 0.5 and _fold(scored[1][1]) != _fold(cand):
        return None  # two readings about as likely: leave the print alone
    why = f"'{tok}' not a {ctx.lang} word; '{cand}' (zipf {z:.1f}) via OCR confusion"
    return cand, why + (f"; {note}" if note else "")


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if c.isascii())


# ---------------------------------------------------------------------------------------------
# Token iteration that respects protected spans


def _tokens(text: str) -> Iterator[re.Match[str]]:
    blocked = [m.span() for m in _PROTECT.finditer(text)]
    for m in _TOKEN.finditer(text):
        if any(a <= m.start() < b for a, b in blocked):
            continue
        yield m


def _rewrite(
    text: str, ctx: _Ctx, name: str, fix: Callable[[str, str, int], tuple[str, str] | None]
) -> tuple[str, list[Change]]:
    out: list[str] = []
    changes: list[Change] = []
    pos = 0
    for m in _tokens(text):
        tok = m.group()
        if tok.endswith(("]", "}")) and ("[" in text[: m.start()] or "{" in text[: m.start()]):
            tok = tok[:-1]
        if not tok or any(c.isdigit() for c in tok) or _ROMAN.match(tok):
            continue
        got = fix(tok, text, m.start())
        if got is None:
            continue
        new, why = got
        out.append(text[pos : m.start()] + new)
        pos = m.start() + len(tok)
        changes.append(Change(name, tok, new, why))
    out.append(text[pos:])
    return "".join(out), changes


def _freq(tok: str, ctx: _Ctx) -> float:
    """Zipf frequency of a printed token, counting 1945 Portuguese spellings as their word."""
    return max(ctx.lex.freq(tok), _zipf(tok, ctx.lex)[0])


def _known(tok: str, ctx: _Ctx) -> bool:
    if _freq(tok, ctx) >= KNOWN:
        return True
    return ctx.lang == "sv" and (_is_compound(tok, ctx.lex) or _inflected(tok, ctx.lex))


# ---------------------------------------------------------------------------------------------
# Word steps

_LATIN = ("en", "pt", "sv")


@step("charset-pt", ("pt",))
def _charset_pt(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Portuguese letters printed through a Swedish/foreign character set (``säo``,
    ``aplica^äo``, ``impösto``, ``Govérno``) or with a lost cedilla/accent (``legislacao``,
    ``periodo``): the lexicon picks the reading."""

    def fix(tok: str, text: str, start: int) -> tuple[str, str] | None:
        marked = any(c in _CHARSET_MARKS for c in tok.lower())
        z0 = _freq(tok, ctx)
        if marked:
            if z0 >= 2.5 or _is_foreign(tok, ctx):
                return None
            return _best(tok, ctx, True, frozenset("äöå^£§ëüèÄÖÅË"), 0.0)
        if z0 >= 2.5 and "é" not in tok.lower() or z0 >= RARE_CEILING or len(tok) < 4:
            return None
        if z0 < KNOWN and _is_foreign(tok, ctx):
            return None
        best = _best(tok, ctx, True, frozenset(), 0.0 if z0 < KNOWN else z0)
        if best is None and z0 >= KNOWN and len(tok) >= 5:
            # lost diacritic on a word the web also misspells: accept a much commoner accent
            for cand, cost in _variants(tok, _channel("pt", True), frozenset()).items():
                if cost <= 0.7 and _fold(cand) == _fold(tok) and ctx.lex.freq(cand) >= z0 + 1.4:
                    return cand, f"'{tok}' lost a diacritic; '{cand}' is the lexicon form"
        return best

    return _rewrite(text, ctx, "charset-pt", fix)


@step("join-split-words", _LATIN)
def _join(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """A word broken by a stray space or a hyphen and space (``sej a``, ``con- forme``) when
    the joined form is a frequent word and a piece is not a word."""
    lex = ctx.lex
    changes: list[Change] = []

    def joinable(a: str, sep: str, b: str) -> float | None:
        if any(c.isdigit() for c in a + b) or _ROMAN.match(a) or _ROMAN.match(b):
            return None
        zj = lex.freq(a + b)
        if zj < 3.5 or b[:1].isupper():
            return None
        za, zb = lex.freq(a), lex.freq(b)
        if "-" in sep:
            return zj if zj >= max(za, zb) else None
        rare = min(za, zb)
        if rare >= 2.5 or zj < rare + 2.5 or len(a + b) < 4:
            return None
        return zj

    blocked = [m.span() for m in _PROTECT.finditer(text)]
    words = [m for m in re.finditer(rf"(?<!\w){_LETTER}+(?!\w)", text)
             if not any(x <= m.start() < y for x, y in blocked)]
    sep_ok = re.compile(r"^(?: |-(?:[ \t]+|[ \t]*\n[ \t]*)|[ \t]+-[ \t]*\n)$")
    out: list[str] = []
    pos = 0
    i = 0
    while i < len(words) - 1:
        m1, m2 = words[i], words[i + 1]
        sep = text[m1.end() : m2.start()]
        zj = joinable(m1.group(), sep, m2.group()) if sep_ok.match(sep) else None
        if zj is None:
            i += 1
            continue
        joined = m1.group() + m2.group()
        before = text[m1.start() : m2.end()]
        changes.append(Change("join-split-words", before, joined,
                              f"'{joined}' (zipf {zj:.1f}) broken by a space"))
        out.append(text[pos : m1.start()] + joined)
        pos = m2.end()
        i += 2
    out.append(text[pos:])
    return "".join(out), changes


@step("ocr-letters", _LATIN)
def _ocr_letters(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Letters misread by OCR (``respecl``, ``Ivingdom``, ``capita]``, ``urna``/``uma``,
    ``ineluding``): candidates through the confusion table, confirmed by the lexicon."""

    def fix(tok: str, text: str, start: int) -> tuple[str, str] | None:
        if len(tok) < 3:
            return None
        junk = not tok.isalpha()
        z0 = 0.0 if junk else _freq(tok, ctx)
        if not junk and (z0 >= RARE_CEILING or (z0 < KNOWN and _known(tok, ctx))):
            return None
        if tok.isupper() and len(tok) <= 5:  # acronyms: CSLL, IRPJ
            return None
        if not junk and z0 < KNOWN and _is_foreign(tok, ctx):
            return None
        name = _name_like(text, start, tok)
        got = _best(tok, ctx, False, frozenset("]}|^£"), z0, 0.8 if name else BUDGET)
        if got and name and (ctx.lex.freq(got[0]) < 4.0 or z0 >= KNOWN):
            return None
        return got

    return _rewrite(text, ctx, "ocr-letters", fix)


@step("split-glued-words", ("en", "pt"))
def _split(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Two words printed without the space between them (not for Swedish, which compounds)."""
    lex = ctx.lex

    def fix(tok: str, text: str, start: int) -> tuple[str, str] | None:
        if len(tok) < 6 or _known(tok, ctx) or not tok.isalpha() or _is_foreign(tok, ctx):
            return None
        if _hyphen_piece(text, start, tok) or _name_like(text, start, tok):
            return None
        found = []
        for i in range(2, len(tok) - 1):
            a, b = tok[:i], tok[i:]
            za, zb = lex.freq(a), lex.freq(b)
            # one piece must be a very common (function) word: "ofthe", "finansoch"
            short_ok = min(len(a), len(b)) > 3 or min(za, zb) >= 5.5
            if min(za, zb) >= 3.5 and max(za, zb) >= 5.5 and short_ok:
                found.append((min(za, zb), a, b))
        if len(found) != 1:
            return None
        _, a, b = found[0]
        return f"{a} {b}", f"'{tok}' not a word; '{a}' and '{b}' are"

    return _rewrite(text, ctx, "split-glued-words", fix)


@step("spelling", ("en", "pt"))
def _spelling(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Typing slips (a letter doubled, dropped or swapped: ``taation``, ``solelyu``) on long
    unknown words: the one frequent word within edit distance 1 (2 for long words) with the
    same first letter."""
    from symspellpy import Verbosity

    def fix(tok: str, text: str, start: int) -> tuple[str, str] | None:
        if len(tok) < 6 or not tok.isalpha() or _known(tok, ctx) or _is_foreign(tok, ctx):
            return None
        if _hyphen_piece(text, start, tok) or any(c in _CHARSET_MARKS for c in tok.lower()):
            return None
        name = _name_like(text, start, tok)
        dist = 2 if len(tok) >= 10 and not name else 1
        items = ctx.lex.symspell.lookup(tok.lower(), Verbosity.CLOSEST, dist)
        low = tok.lower()
        items = [s for s in items if s.term[0] == low[0] and s.term.isalpha()
                 and (len(s.term) != len(low) or sorted(s.term) == sorted(low))]
        if not items or (name and ctx.lex.freq(items[0].term) < 4.0):
            return None
        best = max(items, key=lambda s: s.count)
        rivals = [s for s in items if s is not best and s.count * 10 > best.count]
        if rivals:
            return None
        z = ctx.lex.freq(best.term)
        if z < 3.5:
            return None
        cand = _recase(best.term, tok)
        why = f"'{tok}' not a {ctx.lang} word; '{cand}' (zipf {z:.1f}), {best.distance} edit(s)"
        return cand, why

    return _rewrite(text, ctx, "spelling", fix)


def _recase(word: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return word.upper()
    if like[:1].isupper():
        return word[:1].upper() + word[1:]
    return word
