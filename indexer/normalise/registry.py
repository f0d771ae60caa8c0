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
- Speed: a word step's decision about a token depends on the token, the language and at most
  two facts about where it stands (does it start a sentence; is it a hyphenated piece), so it
  is memoised per token (per language and lexicon; never whole lines), and only the context a
  decision actually needs is looked at. The tokens a step leaves alone wherever they stand are
  kept in a set, and those every word step leaves alone in another, so a line made of them
  only costs one set operation for all the word steps (see :func:`_calm`); the pieces between
  blanks of such lines that ocr-digits cannot act on either are kept too, so a line made of
  them skips ocr-digits and the word steps after one ``str.split`` (see :func:`_still`). The
  steps of one call share one split of the text into runs of word characters, and positions
  are only looked up for a token a step may change. Candidate generation lives in
  :mod:`indexer.normalise.candidates`.
- Chinese: the policy normal form is NFKC, but the Halfwidth and Fullwidth Forms block is kept
  (``１．`` and ``（一）`` are printed paragraph labels that ``segment`` reads); search-side
  folding of those belongs to ``analysis``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..lexicon import Lexicon, load_lexicon
from ..models import Change, Line, copy_with
from .candidates import (
    BUDGET,
    CHARSET_MARKS,
    KNOWN,
    RARE_CEILING,
    best,
    channel,
    fold,
    is_compound,
    is_foreign,
    recase,
    sv_inflected,
    variants,
    zipf_1945,
)
from ..policy import policy

_LETTER = r"[^\W\d_]"
_TOKEN = re.compile(r"[^\W_]+(?:[\^£§\]\}\|][^\W_]+)*[\]\}]?|[\^£][^\W_]+")
_ROMAN = re.compile(r"^[IVXLCDM][IVXLCDMl1]*$|^[ivxlcdm]{1,4}$")
#: What is protected, each with the text it needs in a line to match at all.
_PROTECT_PARTS = (
    ("http", r"https?://\S+"),  # URLs
    ("www.", r"www\.\S+"),
    ("@", r"[\w.+-]+@[\w-]+\.[\w.]+"),  # e-mail
    ("", r"“[^”\n]{1,60}”|«[^»\n]{1,60}»|»[^»«\n]{1,60}»|\"[^\"\n]{1,60}\""),  # short quoted terms
)
_QUOTES = re.compile("[“«»\"]")
_QUOTE_MARKS = frozenset("“«»\"")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;(•\-–]\s*|\d[.)]\s*|\b[a-z]\)\s*)$")
_AFTER_INITIAL = re.compile(r"(?:^|[\s(])[A-Z]\.\s*$")

#: A word step's verdict on a token (see Verdict): no change, or a (replacement, reason).
Fix = tuple[str, str] | None
#: Memoised verdicts kept per step and language before the memo starts afresh.
MEMO_LIMIT = 200_000


@dataclass(frozen=True)
class Step:
    """A named normalisation step: ``func(text, ctx) -> (text, changes)``."""

    name: str
    func: Callable[[str, _Ctx], tuple[str, list[Change]]]
    langs: frozenset[str] | None  # None = every language
    doc: str
    word: bool = False  # a word step: acts only on tokens it has not left alone wherever they stand


STEPS: dict[str, Step] = {}
#: lang -> the functions of the steps that apply to it, in order, the index of the first of
#: the word steps that end that order, and their names (filled on first use)
_BY_LANG: dict[str, tuple[tuple[Callable[[str, _Ctx], tuple[str, list[Change]]], ...], int,
                          tuple[str, ...]]] = {}


def step(name: str, langs: tuple[str, ...] | None = None, word: bool = False) -> Callable:
    """Register a step under `name` (in definition order) for `langs` (None = all); `word`
    marks a word step (see Step)."""

    def deco(func: Callable[[str, _Ctx], tuple[str, list[Change]]]) -> Callable:
        STEPS[name] = Step(name, func, frozenset(langs) if langs else None, func.__doc__ or "",
                           word)
        _BY_LANG.clear()
        return func

    return deco


def _steps_of(lang: str) -> tuple[tuple[Callable[[str, _Ctx], tuple[str, list[Change]]], ...],
                                  int, tuple[str, ...]]:
    steps = [st for st in STEPS.values() if st.langs is None or lang in st.langs]
    first = len(steps)
    while first and steps[first - 1].word:
        first -= 1
    got = _BY_LANG[lang] = (tuple(st.func for st in steps), first,
                            tuple(st.name for st in steps[first:]))
    return got


@dataclass(eq=False)
class _Ctx:
    """A language with its lexicon (loaded on first use) and the per-step token memos."""

    lang: str
    cache_dir: Path | None
    _lex: Lexicon | None = None
    memo: dict[str, dict[str, Verdict]] = field(default_factory=dict)
    #: per step, the tokens whose memoised verdict is None (a line made of them only is left
    #: as it is after one set operation); emptied with the step's memo
    quiet: dict[str, set[str]] = field(default_factory=dict)
    #: the last text tokenised by a word step: (text, matches or None, tokens, the distinct
    #: tokens not in `calm` when it was tokenised)
    tokens: tuple[str, list[re.Match[str]] | None, list[str], set[str]] | None = None
    #: the distinct tokens the last text looked at may have that were not in `calm` then (see
    #: _loose): (text, tokens)
    loose: tuple[str, set[str]] | None = None
    #: the runs of word characters of the last text split so: (text, runs)
    runs: tuple[str, list[str]] | None = None
    #: the protected spans of the last text looked at: (text, spans)
    blocked: tuple[str, list[tuple[int, int]]] | None = None
    #: the characters of _MARKS in the last text scanned for them: (text, characters)
    marks: tuple[str, set[str]] | None = None
    #: runs of word characters known not to be joinable rare words (Zipf >= _JOIN_RARE, not
    #: letters only, or no piece of a frequent word), and joinable rare words, for
    #: join-split-words
    common: set[str] = field(default_factory=set)
    rare: set[str] = field(default_factory=set)
    #: tokens every word step of the language leaves alone wherever they stand (in the quiet
    #: set of each, and in `common`); emptied whenever one of those starts afresh
    calm: set[str] = field(default_factory=set)
    #: pieces of text between blanks that ocr-digits and every word step leave alone wherever
    #: they stand (see _learn_still); emptied with `calm`
    still: set[str] = field(default_factory=set)
    #: whether the last text looked at is made of `still` pieces only: (text, answer, its
    #: pieces between blanks)
    stilled: tuple[str, bool, list[str]] | None = None

    @property
    def lex(self) -> Lexicon:
        if self._lex is None:
            pol = policy(self.lang)
            self._lex = load_lexicon(pol.lexicon if pol else self.lang, self.cache_dir)
        return self._lex

    def restart_calm(self) -> None:
        """Empty `calm` (and what is learned from it), as a set it is drawn from starts
        afresh."""
        self.calm.clear()
        self.still.clear()
        self.tokens = self.loose = None

    def verdicts(self, name: str) -> tuple[dict[str, Verdict], set[str]]:
        """The memo of step `name` and its set of quiet tokens (both started afresh when the
        memo grows past MEMO_LIMIT)."""
        memo = self.memo.get(name)
        if memo is None or len(memo) > MEMO_LIMIT:
            memo = self.memo[name] = {}
            self.quiet[name] = set()
            self.restart_calm()
        return memo, self.quiet[name]


_CONTEXTS: dict[tuple[str, str | Path | None], _Ctx] = {}


def _context(lang: str, cache_dir: str | Path | None) -> _Ctx:
    ctx = _CONTEXTS.get((lang, cache_dir))
    if ctx is None:
        ctx = _CONTEXTS[(lang, cache_dir)] = _Ctx(
            lang, Path(cache_dir) if cache_dir is not None else None)
    return ctx


#: Characters whose presence a step checks before it looks closer: Latin ligatures, blanks
#: other than the space, the quote marks of protected terms, the junk _TOKEN takes in a word.
_MARKS = re.compile("[\ufb00-\ufb06\t\u00a0\u2000-\u200a\u202f“«»\"^£§\\]}|_]")


def _marks(text: str, ctx: _Ctx) -> set[str]:
    """The characters of _MARKS in `text` (one scan shared by the steps while the text is
    unchanged)."""
    last = ctx.marks
    if last is not None and last[0] is text:
        return last[1]
    found = set(_MARKS.findall(text))
    ctx.marks = (text, found)
    return found


# ---------------------------------------------------------------------------------------------
# Public API


def normalise(
    text: str, lang: str, cache_dir: str | Path | None = None
) -> tuple[str, tuple[Change, ...]]:
    """Repair `text` of language `lang`; return the new text and the changes made, in order.

    The steps run again over a text they changed until it stops changing (a repair can make
    a word that a step before it would repair in turn, e.g. ``wu]`` -> ``wiil`` -> ``will``),
    so normalising a normalised text changes nothing.

    A step is a function of the text alone (its memos only save work), so the steps after
    the last one that acted in a pass (changed the text or reported a change) were given
    that pass's final text and left it as it was: the next pass stops when it reaches them
    with that text still unchanged, as they would leave it unchanged again. So too a pass
    ends after a word step that made a text of still pieces (see _still), which the word
    steps after it would leave as it is, and no pass starts over a text no step would change
    (see _untouched)."""
    ctx = _context(lang, cache_dir)
    funcs, words, word_names = _BY_LANG.get(lang) or _steps_of(lang)
    # tokenisation and protected spans are shared by the steps of one call while the text is
    # unchanged (a pass after the first starts with the text the last one left), and so is
    # the split of _untouched with ocr-digits and _calm
    ctx.tokens = ctx.loose = ctx.runs = ctx.blocked = ctx.marks = ctx.stilled = None
    if ctx.still and _untouched(text, ctx):
        return text, ()
    changes: list[Change] = []
    settled = len(funcs)  # the steps from this one on left the current text as it is
    for n in range(MAX_PASSES):
        if n and ctx.still and _untouched(text, ctx):
            break  # every step would leave the text the last pass made as it is
        made_any = False
        acted = -1  # the last step of this pass that changed the text or reported a change
        judged = None  # the runs of the text the word steps were given, when they ran
        for i, func in enumerate(funcs):
            if i == settled and acted < 0:
                break  # the text is the one these steps left as it was in the pass before
            if i == words:
                if _calm(text, ctx):
                    break  # the word steps (the last ones) would all leave the text as it is
                judged = _runs(text, ctx)
            new, made = func(text, ctx)
            if made or (new is not text and new != text):
                acted = i
            text = new
            if made:
                changes.extend(made)
                made_any = True
            if acted == i >= words and _still(text, ctx):
                break  # the word steps after this one would leave the new text as it is
        if judged is not None:
            _learn_calm(judged, ctx, word_names)
        if not made_any:
            break
        settled = acted + 1
    return text, tuple(changes)


#: Passes of the steps over one text at most (a text settles after one or two).
MAX_PASSES = 4


def normalise_line(line: Line, cache_dir: str | Path | None = None) -> Line:
    """`line` with its ``text`` normalised for ``line.lang`` and ``changes`` set (`line`
    itself when nothing changed: a Line is frozen)."""
    text, changes = normalise(line.text, line.lang, cache_dir)
    if not changes and text == line.text:
        return line
    return copy_with(line, text=text, changes=line.changes + changes)


# ---------------------------------------------------------------------------------------------
# Unicode and whitespace

_LIGATURES = {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}
_LIGATURE = re.compile("[ﬀ-ﬆ]")
#: The runs of blanks the whitespace step may change (a maximal run, with the line end after
#: it): two blanks or more, one that is not a space, a space at the start, at the end or
#: before a line end. A single space between words is left out: it stays as it is.
_BLANKS = re.compile(r"([ \t\u00a0\u2000-\u200a\u202f]{2,}|[\t\u00a0\u2000-\u200a\u202f]"
                     r"|^ | $| (?=\n))(\n)?")
#: Blanks other than the space (the whitespace step changes them all).
_ODD_BLANKS = frozenset("\t\u00a0\u202f" + "".join(map(chr, range(0x2000, 0x200B))))
_LIGATURE_MARKS = frozenset(map(chr, range(0xFB00, 0xFB07)))  # what _LIGATURE matches


def _blank_trouble(text: str, ctx: _Ctx) -> bool:
    """Anything the whitespace step could change: other blanks than a single inner space (of
    _ODD_BLANKS, only the tab is ASCII: an ASCII text is not scanned for the others)."""
    return ("  " in text or " \n" in text or text[:1] == " " or text[-1:] == " "
            or ("\t" in text if text.isascii()
                else not _ODD_BLANKS.isdisjoint(_marks(text, ctx))))


class _NfkcKeepFullwidth(dict):
    """``str.translate`` table: each character to its own NFKC form, except the Halfwidth and
    Fullwidth Forms block and the ideographic space (filled in on first sight)."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        out = ch if 0xFF00 <= code <= 0xFFEF or ch == "\u3000" else unicodedata.normalize("NFKC", ch)
        self[code] = out
        return out


_NFKC_TABLE = _NfkcKeepFullwidth()


#: What _NFKC_TABLE keeps as it is whatever its NFKC form.
_KEPT_WIDTH = re.compile("[\uff00-\uffef\u3000]")


def _nfkc_keep_fullwidth(text: str) -> str:
    text = unicodedata.normalize("NFC", text)
    # A character that NFKD leaves as it is is its own NFKC form, and the kept ones map to
    # themselves: a text whose other characters are in NFKD already (one quick check, in C)
    # is left as it is by the table.
    if unicodedata.is_normalized("NFKD", _KEPT_WIDTH.sub("", text)):
        return text
    return text.translate(_NFKC_TABLE)


@step("unicode-nfc")
def _unicode(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """The policy's Unicode normal form (NFC; NFKC for Chinese but keeping fullwidth forms);
    Latin ligatures (ﬁ) spelled out."""
    pol = policy(ctx.lang)
    if pol is not None and pol.normal_form == "NFKC":
        new = _nfkc_keep_fullwidth(text)
    else:
        new = text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)
        # (a ligature is no ASCII character)
        if ((pol is None or pol.script == "Latn") and not (new is text and text.isascii())
                and not _LIGATURE_MARKS.isdisjoint(_marks(text, ctx) if new is text else new)):
            new = _LIGATURE.sub(lambda m: _LIGATURES.get(m.group(), m.group()), new)
    if new == text:
        return text, []
    return new, [Change("unicode-nfc", text, new, "Unicode normal form")]


@step("whitespace")
def _whitespace(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Runs of spaces, tabs and no-break spaces become one space; line ends lose trailing
    blanks."""
    if not _blank_trouble(text, ctx):  # single spaces between words only: nothing to do
        return text, []
    changes: list[Change] = []

    def sub(m: re.Match[str]) -> str:
        rep = "" if m.group(2) is not None or m.end() == len(text) else " "
        if m.start() == 0 and rep == " ":
            rep = ""
        if m.group(1) != rep:
            changes.append(Change("whitespace", m.group(1), rep, "spacing"))
        return rep + (m.group(2) or "")

    # the ideographic space is part of Chinese layout (after a label): left alone
    new = _BLANKS.sub(sub, text)
    return new, changes


# ---------------------------------------------------------------------------------------------
# Numbers

_DIGITISH = re.compile(r"(?<![\w.,])[0-9lIO]*[0-9][0-9lIO]*(?![\w])")
_LABEL_WORDS = (
    r"paragraphs?|sub-?paragraphs?|items?|parágrafos?|parágrafo|incisos?|itens|item|"
    r"punkt(?:en|erna)?|stycke[tn]?|§"
)
_LABEL_L = re.compile(rf"(?i:\b(?:{_LABEL_WORDS}))\s+(l)(?=[\s,.;:)]|$)")
#: a digit with l, I or O just after or before it (the scan stops at digits only)
_MIXED_DIGITS = re.compile(r"[0-9](?:(?=[lIO])|(?<=[lIO].))")
_SPACE_L = re.compile(r"\sl(?=[\s,.;:)]|$)")
_TO_DIGIT = str.maketrans({"l": "1", "I": "1", "O": "0"})


@step("ocr-digits")
def _ocr_digits(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Letters read for digits inside numbers (``l965``, ``19O5``: at least two real digits)
    and a lowercase ``l`` numbering a paragraph (``paragraph l``; roman ``I`` stays)."""
    if ctx.lang == "zh" or _still(text, ctx):
        return text, []
    changes: list[Change] = []

    def num(m: re.Match[str]) -> str:
        tok = m.group()
        if sum(c.isdigit() for c in tok) < 2 or tok.isdigit():
            return tok
        new = tok.translate(_TO_DIGIT)
        changes.append(Change("ocr-digits", tok, new, "letter among digits read as a digit"))
        return new

    if _MIXED_DIGITS.search(text):  # a number to repair has a letter beside a digit
        text = _DIGITISH.sub(num, text)

    def label(m: re.Match[str]) -> str:
        changes.append(Change("ocr-digits", m.group(), m.group()[:-1] + "1",
                              "paragraph number printed as the letter l"))
        return m.group()[:-1] + "1"

    # a label's l is a whole run of word characters (the runs are the word steps' own)
    if "l" in _runs(text, ctx) and _SPACE_L.search(text):
        text = _LABEL_L.sub(label, text)
    return text, changes


def _is_foreign(tok: str, ctx: _Ctx) -> bool:
    return is_foreign(tok, ctx.lang, ctx.cache_dir)


def _hyphen_piece(text: str, start: int, tok: str) -> bool:
    """Is `tok` one piece of a hyphenated word (or of a word broken at a line end)?"""
    end = start + len(tok)
    return text[start - 1 : start] == "-" or text[end : end + 1] == "-"


def _may_be_name(tok: str) -> bool:
    """Capitalised but not all capitals: a name, unless it starts a sentence."""
    return tok[:1].isupper() and not tok.isupper()


def _name_like(text: str, start: int, tok: str) -> bool:
    """A capitalised token that does not start a sentence or a numbered item (a period after
    an initial, ``A. F. Azaredo``, does not end a sentence)."""
    if not _may_be_name(tok):
        return False
    # Both patterns end in \s*$, and any match of theirs starts at most three characters
    # before the last non-blank of text[:start] (or at 0): search only from there.
    k = start
    while k and text[k - 1].isspace():
        k -= 1
    pos = max(0, k - 3)
    if not _SENTENCE_START.search(text, pos, start):
        return True
    return _AFTER_INITIAL.search(text, pos, start) is not None


class _ByPlace:
    """A verdict that depends on where the token stands, called with (text, start): None for
    a hyphenated piece when `hyphen` is set, else `settle(name)` -- asked once for each answer
    to "does the token look like a name here?" (:func:`_name_like`). With `eager` set, a
    token met again where `settle` gave None is settled for the other answer too: when that
    is None as well, the verdict is moot and the token left alone wherever it stands (one
    more `settle` for a recurring token, no place looked up for it any more)."""

    __slots__ = ("answers", "done", "eager", "hyphen", "settle", "tok")

    def __init__(self, tok: str, settle: Callable[[bool], Fix], hyphen: bool = False,
                 eager: bool = False) -> None:
        self.tok = tok
        self.settle = settle
        self.hyphen = hyphen
        self.eager = eager
        self.done: dict[bool, Fix] = {}
        self.answers = 2 if _may_be_name(tok) else 1  # a token never capitalised: never a name

    def __call__(self, text: str, start: int) -> Fix:
        if self.hyphen and _hyphen_piece(text, start, self.tok):
            return None
        name = _name_like(text, start, self.tok)
        done = self.done
        if name not in done:  # settle (a lookup, maybe an index to load) only when needed
            done[name] = self.settle(name)
        elif self.eager and done[name] is None and len(done) < self.answers:
            done[not name] = self.settle(not name)
        return done[name]

    @property
    def moot(self) -> bool:
        """Has `settle` given None for every answer it can be asked? Then the place no longer
        matters: the verdict is None wherever the token stands."""
        return len(self.done) == self.answers and not any(self.done.values())


#: A word step's verdict on a token: a Fix, or -- when the verdict depends on where the token
#: stands -- a _ByPlace, a function of (text, start) giving a Fix.
Verdict = Fix | _ByPlace


def _by_name(tok: str, settle: Callable[[bool], Fix]) -> Verdict:
    """`settle(name)` for a token that cannot look like a name, else a function of its place
    that asks `settle` (once for each answer, eagerly: see _ByPlace) whether it does."""
    if not _may_be_name(tok):
        return settle(False)
    return _ByPlace(tok, settle, eager=True)


# ---------------------------------------------------------------------------------------------
# Token iteration that respects protected spans


def _inert(tok: str) -> bool:
    """Tokens no word step touches: empty, with a digit, roman numerals."""
    if not tok:
        return True
    if not tok.isalpha() and any(c.isdigit() for c in tok):  # letters only: no digit
        return True
    return _ROMAN.match(tok) is not None


def _protected(text: str, ctx: _Ctx | None = None) -> list[tuple[int, int]]:
    """Spans of URLs, e-mail addresses and short quoted terms (none without their marks);
    with `ctx`, found once while the text is unchanged."""
    if ctx is not None:
        last = ctx.blocked
        if last is not None and last[0] is text:
            return last[1]
    spans: list[tuple[int, int]] = []
    present = ("http" in text, "www." in text, "@" in text)  # the needs of _PROTECT_PARTS[:3]
    if any(present) or (not _QUOTE_MARKS.isdisjoint(_marks(text, ctx)) if ctx is not None
                         else _QUOTES.search(text)):
        spans = [m.span() for m in _protect_pattern(present).finditer(text)]
    if ctx is not None:
        ctx.blocked = (text, spans)
    return spans


@lru_cache(maxsize=8)
def _protect_pattern(present: tuple[bool, ...]) -> re.Pattern[str]:
    """The pattern of protected spans without the alternatives whose text `present` says is
    missing from the line (they could not match: the spans found are the same, without the
    cost of trying an e-mail address at every word)."""
    return re.compile("|".join(rx for (_, rx), here in zip(_PROTECT_PARTS, (*present, True))
                               if here))


def _unprotected(matches: list[re.Match[str]], blocked: list[tuple[int, int]]
                 ) -> list[re.Match[str]]:
    """The `matches` that do not start inside a span of `blocked` (both in text order, the
    spans apart from each other)."""
    kept = []
    spans = iter(blocked)
    a, b = next(spans, (-1, -1))
    for m in matches:
        start = m.start()
        while b <= start and a >= 0:  # spans ending before this match no longer matter
            a, b = next(spans, (-1, -1))
        if not a <= start < b:
            kept.append(m)
    return kept


_RUN = re.compile(r"\w+")
#: What makes _TOKEN's tokens differ from _RUN's runs: the OCR junk it takes inside or after a
#: word, and the underscore (a word character, but no token's).
_TOKEN_JUNK = frozenset("^£§]}|_")


def _runs(text: str, ctx: _Ctx) -> list[str]:
    """The runs of word characters of `text` (shared by the steps while the text is
    unchanged)."""
    last = ctx.runs
    if last is not None and last[0] is text:
        return last[1]
    runs = _RUN.findall(text)
    ctx.runs = (text, runs)
    return runs


def _calm(text: str, ctx: _Ctx) -> bool:
    """Would every word step leave `text` as it is, whatever its memos hold? So when each run
    of word characters is calm (join-split-words finds no rare piece), each token it may have
    is calm (a _rewrite step finds them all quiet: see _loose) and no hyphen break gives
    join-split-words a pair without a rare piece. (So too when every piece between blanks is
    still: see _still.)"""
    if _still(text, ctx):
        return True
    if (not _loose(text, ctx) and _HYPHEN_BREAK.search(text) is None
            and (_TOKEN_JUNK.isdisjoint(_marks(text, ctx))  # the tokens are then the runs
                 or ctx.calm.issuperset(_runs(text, ctx)))):
        _learn_still(text, ctx)
        return True
    return False


def _loose(text: str, ctx: _Ctx) -> set[str]:
    """The distinct tokens `text` may have (what :func:`_word_tokens` can find) that are not
    calm: its runs of word characters when no OCR junk makes a token differ from a run, else
    every match of _TOKEN, with and without a ``]`` or ``}`` at its end (whether one closes a
    bracket depends on the text before it). Protected spans only leave tokens out, so these
    are never fewer than the tokens: when a step's quiet set holds them all, the step leaves
    `text` as it is without finding where tokens stand or what is protected. Shared by the
    steps while the text is unchanged (the calm set only grows until it starts afresh, which
    forgets this)."""
    last = ctx.loose
    if last is not None and last[0] is text:
        return last[1]
    if _TOKEN_JUNK.isdisjoint(_marks(text, ctx)):
        found = set(_runs(text, ctx))
    else:
        found = set(_TOKEN.findall(text))
        found.update([tok[:-1] for tok in found if tok[-1] in "]}"])
    found.difference_update(ctx.calm)
    ctx.loose = (text, found)
    return found


def _still(text: str, ctx: _Ctx) -> bool:
    """Is every piece of `text` between blanks (``str.split()``) one of the still pieces
    (:func:`_learn_still`)? Then ocr-digits and every word step leave `text` as it is: one
    split and one set operation (shared while the text is unchanged) instead of the scans
    for runs of word characters, numbers and hyphen breaks."""
    return _stilled(text, ctx)[1]


def _stilled(text: str, ctx: _Ctx) -> tuple[str, bool, list[str]]:
    """`text`, whether it is made of still pieces, and its pieces (shared while the text is
    unchanged)."""
    last = ctx.stilled
    if last is not None and last[0] is text:
        return last
    pieces = text.split()
    got = ctx.stilled = (text, ctx.still.issuperset(pieces), pieces)
    return got


def _untouched(text: str, ctx: _Ctx) -> bool:
    """Would every step leave `text` as it is? So for a text of still pieces (see _still: no
    step from ocr-digits on changes it, and no still piece holds a Latin ligature) joined by
    single spaces (nothing for the whitespace step) in NFC: one split, one set operation and
    one join instead of a pass over the steps. (Only a language whose still pieces are
    learned, one with word steps after unicode-nfc, whitespace and ocr-digits, has any.) The
    split and the answer of _still are shared with the steps."""
    _, still, pieces = _stilled(text, ctx)
    return (still and " ".join(pieces) == text
            and (text.isascii() or unicodedata.is_normalized("NFC", text)))


def _learn_still(text: str, ctx: _Ctx) -> None:
    """Add to the still pieces those between the blanks of calm `text` (:func:`_calm`: its runs
    of word characters calm, and every token it may have, see _loose) that ocr-digits cannot
    act on and that cannot end a hyphen break. What those look at never reaches over a blank:
    a number to repair (a digit beside ``l``, ``I`` or ``O``) lies inside one piece, a
    paragraph's ``l`` is a run of word characters (so of one piece), and a hyphen break's
    hyphen ends a piece. Runs of word characters and matches of _TOKEN never cross a blank
    either (a piece has the same ones wherever it stands, but for whether a ``]`` at a token's
    end closes a bracket: _loose counts both), so a text made of still pieces has calm runs
    and tokens only, no hyphen break and nothing for ocr-digits: whatever its memos hold, no
    step from ocr-digits on changes it. (A piece with a Latin ligature is not kept, so that a
    text of still pieces in NFC is one the Unicode step leaves as it is: see _untouched.)"""
    still = ctx.still
    if len(still) > WORDS_LIMIT:
        still.clear()
    for piece in set(_stilled(text, ctx)[2]).difference(still):
        if (piece[-1] != "-" and _MIXED_DIGITS.search(piece) is None
                and "l" not in _RUN.findall(piece) and _LIGATURE_MARKS.isdisjoint(piece)):
            still.add(piece)


def _learn_calm(runs: list[str], ctx: _Ctx, names: tuple[str, ...]) -> None:
    """Add to the calm tokens those of `runs` that every word step `names` now leaves alone
    wherever they stand (join-split-words: the runs of `common`; the others: their quiet
    tokens)."""
    new = set(runs).difference(ctx.calm)
    for name in names:
        left = ctx.common if name == "join-split-words" else ctx.quiet.get(name)
        if left is None:  # a step that has not run yet
            return
        new.intersection_update(left)
    ctx.calm.update(new)


def _word_tokens(text: str, ctx: _Ctx
                 ) -> tuple[list[re.Match[str]] | None, list[str], set[str]]:
    """The unprotected tokens of `text` (matches, the tokens, without a ``]`` closing a
    bracket opened before, and the distinct tokens not calm); reused by the next steps while
    the text is unchanged. The matches are None when nothing is protected or bracketed: every
    token is then a run of word characters, and :func:`_rewrite` finds where one stands from
    the tokens before it."""
    last = ctx.tokens
    if last is not None and last[0] is text:
        return last[1], last[2], last[3]
    blocked = _protected(text, ctx)
    if not blocked and _TOKEN_JUNK.isdisjoint(_marks(text, ctx)):
        # every token a run of word characters (and no bracket to close): no match objects
        toks = _runs(text, ctx)
        unsettled = _loose(text, ctx)  # the runs not calm
        ctx.tokens = (text, None, toks, unsettled)
        return None, toks, unsettled
    matches = list(_TOKEN.finditer(text))
    if blocked:
        matches = _unprotected(matches, blocked)
    toks = [m.group() for m in matches]
    brackets = [i for i in (text.find("["), text.find("{")) if i >= 0]
    if brackets:
        bracket = min(brackets)
        for i, m in enumerate(matches):
            if bracket < m.start() and toks[i][-1] in "]}":  # "]" closing a bracket
                toks[i] = toks[i][:-1]
    unsettled = set(toks).difference(ctx.calm)
    ctx.tokens = (text, matches, toks, unsettled)
    return matches, toks, unsettled


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # what \w matches


def _run_at(text: str, run: str, after: int) -> int:
    """Where the run of word characters `run` first stands whole in `text` at or after
    `after` (not inside a longer run)."""
    start = text.find(run, after)
    end = start + len(run)
    while (start and _is_word_char(text[start - 1])) or (
            end < len(text) and _is_word_char(text[end])):
        start = text.find(run, start + 1)
        end = start + len(run)
    return start


def _rewrite(
    text: str, ctx: _Ctx, name: str, decide: Callable[[str, _Ctx], Verdict]
) -> tuple[str, list[Change]]:
    """Apply step `name` to every unprotected token of `text`; `decide(tok, ctx)` gives the
    step's verdict on a token (memoised per token; a text whose tokens all have the verdict
    None is passed over after one set operation, before its tokens and protected spans are
    found: see _loose). The calm tokens are quiet for every word step (see _learn_calm), so
    only the tokens that were not calm when the text was tokenised are looked up in the
    step's quiet set (the calm set only grows until it starts afresh, and then the tokens are
    found again)."""
    memo, quiet = ctx.verdicts(name)
    if quiet.issuperset(_loose(text, ctx)):
        return text, []  # no token it may have is one the step does not leave alone
    matches, toks, unsettled = _word_tokens(text, ctx)
    todo = unsettled.difference(quiet)
    if not todo:
        return text, []
    out: list[str] = []
    changes: list[Change] = []
    pos = after = 0  # text copied up to pos; tokens looked at end before `after`
    for i in _places(toks, todo):
        tok = toks[i]
        got = memo.get(tok, memo)
        if got is memo:
            got = memo[tok] = None if _inert(tok) else decide(tok, ctx)
            if got is None:
                quiet.add(tok)
        if got is None:
            continue
        start = matches[i].start() if matches is not None else _run_at(text, tok, after)
        after = start + len(tok)
        if type(got) is not tuple:
            placed = got
            got = placed(text, start)  # type: ignore[operator]
            if got is None:
                if placed.moot:  # type: ignore[union-attr]
                    memo[tok] = None
                    quiet.add(tok)
                continue
        new, why = got  # type: ignore[misc]
        out.append(text[pos:start] + new)
        pos = start + len(tok)
        changes.append(Change(name, tok, new, why))
    if not changes:
        return text, changes
    out.append(text[pos:])
    return "".join(out), changes


def _freq(tok: str, ctx: _Ctx) -> float:
    """Zipf frequency of a printed token, counting 1945 Portuguese spellings as their word."""
    return max(ctx.lex.freq(tok), zipf_1945(tok, ctx.lex)[0])


def _known(tok: str, ctx: _Ctx) -> bool:
    if _freq(tok, ctx) >= KNOWN:
        return True
    return ctx.lang == "sv" and (is_compound(tok, ctx.lex) or sv_inflected(tok, ctx.lex))


# ---------------------------------------------------------------------------------------------
# Word steps

_LATIN = ("en", "pt", "sv")
_CHARSET_FORCED = frozenset("äöå^£§ëüèÄÖÅË")
_OCR_FORCED = frozenset("]}|^£")


def _charset_verdict(tok: str, ctx: _Ctx) -> Verdict:
    marked = any(c in CHARSET_MARKS for c in tok.lower())
    z0 = _freq(tok, ctx)
    if marked:
        if z0 >= 2.5 or _is_foreign(tok, ctx):
            return None
        return best(tok, ctx.lang, ctx.lex, True, _CHARSET_FORCED, 0.0)
    if z0 >= 2.5 and "é" not in tok.lower() or z0 >= RARE_CEILING or len(tok) < 4:
        return None
    if z0 < KNOWN and _is_foreign(tok, ctx):
        return None
    got = best(tok, ctx.lang, ctx.lex, True, frozenset(), 0.0 if z0 < KNOWN else z0)
    if got is None and z0 >= KNOWN and len(tok) >= 5:
        # lost diacritic on a word the web also misspells: accept a much commoner accent
        for cand, cost in variants(tok, channel("pt", True), frozenset()).items():
            if cost <= 0.7 and fold(cand) == fold(tok) and ctx.lex.freq(cand) >= z0 + 1.4:
                return cand, f"'{tok}' lost a diacritic; '{cand}' is the lexicon form"
    return got


@step("charset-pt", ("pt",), word=True)
def _charset_pt(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Portuguese letters printed through a Swedish/foreign character set (``säo``,
    ``aplica^äo``, ``impösto``, ``Govérno``) or with a lost cedilla/accent (``legislacao``,
    ``periodo``): the lexicon picks the reading."""
    return _rewrite(text, ctx, "charset-pt", _charset_verdict)


_WORD_RUN = re.compile(rf"(?<!\w){_LETTER}+(?!\w)")
_SEP_OK = re.compile(r"^(?: |-(?:[ \t]+|[ \t]*\n[ \t]*)|[ \t]+-[ \t]*\n)$")
#: Where a separator _SEP_OK accepts other than one space can be: a hyphen before a blank.
_HYPHEN_BREAK = re.compile(r"-[ \t\n]")
#: Below this Zipf frequency a piece is rare enough to be joined across a plain space.
_JOIN_RARE = 2.5
#: A joined form must be at least this frequent.
_JOIN_FREQ = 3.5
#: Word runs kept in each of the common/rare sets of a language before they start afresh.
WORDS_LIMIT = 200_000


_NOT_LETTER = re.compile(r"[\d_]")


def _rare_words(runs: list[str], ctx: _Ctx) -> set[str]:
    """The words (_WORD_RUN: runs of letters only) among the runs of word characters `runs`
    whose frequency is below _JOIN_RARE and that can be a piece of a joined form (each run
    looked up once, then remembered).

    A joined form is a word of Zipf >= _JOIN_FREQ, and lower-casing a word lower-cases each
    piece alike (but for the context-dependent final sigma): a rare word that is neither a
    proper prefix nor a proper suffix of such a word (case-folded) joins nothing, whatever
    its neighbours, and is left out."""
    common, rare = ctx.common, ctx.rare
    if common.issuperset(runs):
        return set()
    if len(common) > WORDS_LIMIT or len(rare) > WORDS_LIMIT:
        common.clear()
        rare.clear()
        ctx.restart_calm()
    lex = ctx.lex
    freq = lex.freq
    found = set()
    for w in set(runs).difference(common):
        if w in rare:
            found.add(w)
        elif ((w.isalpha() or not _NOT_LETTER.search(w)) and freq(w) < _JOIN_RARE
              and ("Σ" in w or lex.is_piece(w.lower(), _JOIN_FREQ))):
            rare.add(w)
            found.add(w)
        else:
            common.add(w)
    return found


def _places(items: list[str], wanted: set[str]) -> list[int]:
    """The indexes of `items` holding a member of `wanted`, in order (when `wanted` is small,
    each member is searched for with `list.index`, in C; else one pass over `items`)."""
    if len(wanted) > 8:
        return [k for k, w in enumerate(items) if w in wanted]
    found = []
    for w in wanted:
        k = -1
        try:
            while True:
                k = items.index(w, k + 1)
                found.append(k)
        except ValueError:
            pass
    found.sort()
    return found


def _may_join(runs: list[str], rare: set[str], freq: Callable[[str], float]) -> bool:
    """Could a rare word of `rare` join a neighbour across a plain space? Only if, with the
    run of word characters before or after it in `runs`, it spells a frequent word (a joined
    form that is a lexicon word has letters only, so both runs are words). Each place of a
    rare word is looked at once (found by `list.index`, in C)."""
    last = len(runs) - 1
    for k in _places(runs, rare):
        w = runs[k]
        if k > 0 and freq(runs[k - 1] + w) >= _JOIN_FREQ and not w[:1].isupper():
            return True
        if (k < last and freq(w + runs[k + 1]) >= _JOIN_FREQ
                and not runs[k + 1][:1].isupper()):
            return True
    return False


@step("join-split-words", _LATIN, word=True)
def _join(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """A word broken by a stray space or a hyphen and space (``sej a``, ``con- forme``) when
    the joined form is a frequent word and a piece is not a word."""
    # Only a pair with a rare piece, or with a hyphen break between, can join: two words of
    # the language are never joined across a plain space (any other separator is refused).
    runs = _runs(text, ctx)
    if len(runs) < 2:
        return text, []
    rare_runs = _rare_words(runs, ctx)
    hyphens = _HYPHEN_BREAK.search(text) is not None
    if not rare_runs and not hyphens:
        return text, []
    lex = ctx.lex
    freq = lex.freq
    if not hyphens:
        # only a pair with a rare piece can join (a pair _may_join finds is also one the test
        # below would find: a frequent joined form of neighbouring runs)
        if not _may_join(runs, rare_runs, freq):
            return text, []
    # Whatever the separator, a joined form is frequent and the pieces are neighbouring runs
    # (a separator _SEP_OK accepts has no word character): no such pair, nothing to join.
    elif lex.at_least(_JOIN_FREQ).isdisjoint(map(str.lower, map(str.__add__, runs, runs[1:]))):
        return text, []
    changes: list[Change] = []

    def joinable(a: str, sep: str, b: str) -> float | None:
        zj = freq(a + b)
        if zj < _JOIN_FREQ or b[:1].isupper():
            return None
        if any(c.isdigit() for c in a + b) or _ROMAN.match(a) or _ROMAN.match(b):
            return None
        za, zb = freq(a), freq(b)
        if "-" in sep:
            return zj if zj >= max(za, zb) else None
        rare = min(za, zb)
        if rare >= _JOIN_RARE or zj < rare + _JOIN_RARE or len(a + b) < 4:
            return None
        return zj

    blocked = _protected(text, ctx)
    words = list(_WORD_RUN.finditer(text))
    if blocked:
        words = _unprotected(words, blocked)
        if len(words) < 2:
            return text, changes
    names = [m.group() for m in words]
    pairs_set = {j for i, w in enumerate(names) if w in rare_runs for j in (i - 1, i)}
    if hyphens:
        pairs_set.update(i for i in range(len(words) - 1)
                         if "-" in text[words[i].end() : words[i + 1].start()])
    out: list[str] = []
    pos = 0
    after = 0  # a word joined to the one before it does not start another pair
    for i in sorted(pairs_set):
        if i < after or not 0 <= i < len(words) - 1:
            continue
        m1, m2 = words[i], words[i + 1]
        sep = text[m1.end() : m2.start()]
        zj = joinable(names[i], sep, names[i + 1]) if _SEP_OK.match(sep) else None
        if zj is None:
            continue
        joined = names[i] + names[i + 1]
        before = text[m1.start() : m2.end()]
        changes.append(Change("join-split-words", before, joined,
                              f"'{joined}' (zipf {zj:.1f}) broken by a space"))
        out.append(text[pos : m1.start()] + joined)
        pos = m2.end()
        after = i + 2
    if not changes:
        return text, changes
    out.append(text[pos:])
    return "".join(out), changes


def _ocr_verdict(tok: str, ctx: _Ctx) -> Verdict:
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

    def settle(name: bool) -> Fix:
        got = best(tok, ctx.lang, ctx.lex, False, _OCR_FORCED, z0, 0.8 if name else BUDGET)
        if got and name and (ctx.lex.freq(got[0]) < 4.0 or z0 >= KNOWN):
            return None
        return got

    return _by_name(tok, settle)


@step("ocr-letters", _LATIN, word=True)
def _ocr_letters(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Letters misread by OCR (``respecl``, ``Ivingdom``, ``capita]``, ``urna``/``uma``,
    ``ineluding``): candidates through the confusion table, confirmed by the lexicon."""
    return _rewrite(text, ctx, "ocr-letters", _ocr_verdict)


def _split_verdict(tok: str, ctx: _Ctx) -> Verdict:
    if len(tok) < 6 or not tok.isalpha() or _known(tok, ctx) or _is_foreign(tok, ctx):
        return None
    lex = ctx.lex
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
    fix = (f"{a} {b}", f"'{tok}' not a word; '{a}' and '{b}' are")
    return _ByPlace(tok, lambda name: None if name else fix, hyphen=True)


@step("split-glued-words", ("en", "pt"), word=True)
def _split(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Two words printed without the space between them (not for Swedish, which compounds)."""
    return _rewrite(text, ctx, "split-glued-words", _split_verdict)


def _spelling_verdict(tok: str, ctx: _Ctx) -> Verdict:
    if len(tok) < 6 or not tok.isalpha() or _known(tok, ctx) or _is_foreign(tok, ctx):
        return None
    if any(c in CHARSET_MARKS for c in tok.lower()):
        return None

    def settle(name: bool) -> Fix:
        from symspellpy import Verbosity

        dist = 2 if len(tok) >= 10 and not name else 1
        items = ctx.lex.symspell.lookup(tok.lower(), Verbosity.CLOSEST, dist)
        low = tok.lower()
        items = [s for s in items if s.term[0] == low[0] and s.term.isalpha()
                 and (len(s.term) != len(low) or sorted(s.term) == sorted(low))]
        if not items or (name and ctx.lex.freq(items[0].term) < 4.0):
            return None
        top = max(items, key=lambda s: s.count)
        rivals = [s for s in items if s is not top and s.count * 10 > top.count]
        if rivals:
            return None
        z = ctx.lex.freq(top.term)
        if z < 3.5:
            return None
        cand = recase(top.term, tok)
        why = f"'{tok}' not a {ctx.lang} word; '{cand}' (zipf {z:.1f}), {top.distance} edit(s)"
        return cand, why

    return _ByPlace(tok, settle, hyphen=True)  # the lookup (and the index) only when needed


@step("spelling", ("en", "pt"), word=True)
def _spelling(text: str, ctx: _Ctx) -> tuple[str, list[Change]]:
    """Typing slips (a letter doubled, dropped or swapped: ``taation``, ``solelyu``) on long
    unknown words: the one frequent word within edit distance 1 (2 for long words) with the
    same first letter."""
    return _rewrite(text, ctx, "spelling", _spelling_verdict)
