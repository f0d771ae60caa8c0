"""The word steps' machinery: a verdict on a token, remembered per token, applied to each
unprotected token of a text (:func:`rewrite`), and the lexicon facts the verdicts ask.

A word step's decision about a token depends on the token, the language and at most two facts
about where it stands (does it start a sentence; is it a hyphenated piece), so it is memoised
per token (in the Normaliser; never whole lines), and only the context a decision actually
needs is looked at (:class:`ByPlace`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..models import Change
from .candidates import KNOWN, is_compound, is_foreign, sv_inflected, zipf_1945
from .context import Normaliser
from .scan import Scan

#: Roman-numeral labels (``XVII``, ``Xl``): no word step touches them.
ROMAN = re.compile(r"^[IVXLCDM][IVXLCDMl1]*$|^[ivxlcdm]{1,4}$")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;(•\-–]\s*|\d[.)]\s*|\b[a-z]\)\s*)$")
_AFTER_INITIAL = re.compile(r"(?:^|[\s(])[A-Z]\.\s*$")

#: A word step's verdict on a token (see Verdict): no change, or a (replacement, reason).
Fix = tuple[str, str] | None


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


class ByPlace:
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
#: stands -- a ByPlace, a function of (text, start) giving a Fix.
Verdict = Fix | ByPlace


def by_name(tok: str, settle: Callable[[bool], Fix]) -> Verdict:
    """`settle(name)` for a token that cannot look like a name, else a function of its place
    that asks `settle` (once for each answer, eagerly: see ByPlace) whether it does."""
    if not _may_be_name(tok):
        return settle(False)
    return ByPlace(tok, settle, eager=True)


#: Longest token a word step looks at: longer than any word of the four languages (the
#: longest real tokens are compounds of about 40 letters), and a bound on the steps' work,
#: several of which try each split or each position of a token (quadratic in its length: a
#: hostile 80,000-letter "word" took 8 s).
MAX_WORD = 64


def _inert(tok: str) -> bool:
    """Tokens no word step touches: empty, too long to be a word, with a digit, roman
    numerals."""
    if not tok or len(tok) > MAX_WORD:
        return True
    if not tok.isalpha() and any(c.isdigit() for c in tok):  # letters only: no digit
        return True
    return ROMAN.match(tok) is not None


def places(items: list[str], wanted: set[str]) -> list[int]:
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


def rewrite(
    scan: Scan, nz: Normaliser, name: str, decide: Callable[[str, Normaliser], Verdict]
) -> tuple[str, list[Change]]:
    """Apply word step `name` to every unprotected token of the text; `decide(tok, nz)` gives
    the step's verdict on a token (memoised per token; a text whose tokens all have the
    verdict None is passed over after one set operation, before its tokens and protected
    spans are found: see Scan.loose). The calm tokens are quiet for every word step (see
    calm.learn_calm), so only the tokens that were not calm when the text was tokenised are
    looked up in the step's quiet set."""
    text = scan.text
    memo, quiet = nz.verdicts(name)
    if quiet.issuperset(scan.loose(nz.calm)):
        return text, []  # no token it may have is one the step does not leave alone
    matches, toks, unsettled = scan.tokens(nz.calm)
    todo = unsettled.difference(quiet)
    if not todo:
        return text, []
    out: list[str] = []
    changes: list[Change] = []
    pos = after = 0  # text copied up to pos; tokens looked at end before `after`
    for i in places(toks, todo):
        tok = toks[i]
        got = memo.get(tok, memo)
        if got is memo:
            got = memo[tok] = None if _inert(tok) else decide(tok, nz)
            if got is None:
                quiet.add(tok)
        if got is None:
            continue
        start = matches[i].start() if matches is not None else _run_at(text, tok, after)
        after = start + len(tok)
        if type(got) is not tuple:
            got = _placed(got, text, start, tok, memo, quiet)  # type: ignore[arg-type]
            if got is None:
                continue
        new, why = got  # type: ignore[misc]
        out.append(text[pos:start] + new)
        pos = start + len(tok)
        changes.append(Change(name, tok, new, why))
    if not changes:
        return text, changes
    out.append(text[pos:])
    return "".join(out), changes


def _placed(verdict: ByPlace, text: str, start: int, tok: str,
            memo: dict[str, Verdict], quiet: set[str]) -> Fix:
    """The Fix of a verdict that depends on where `tok` stands, at `start` in `text`; a moot
    verdict is remembered as None (the token is quiet from then on)."""
    got = verdict(text, start)
    if got is None and verdict.moot:
        memo[tok] = None
        quiet.add(tok)
    return got


def freq(tok: str, nz: Normaliser) -> float:
    """Zipf frequency of a printed token, counting 1945 Portuguese spellings as their word."""
    lex = nz.lex
    return max(lex.freq(tok), zipf_1945(tok, lex)[0])


def known(tok: str, nz: Normaliser) -> bool:
    """Is `tok` a word of the language (for Swedish, a compound or an inflected form too)?"""
    if freq(tok, nz) >= KNOWN:
        return True
    return nz.lang == "sv" and (is_compound(tok, nz.lex) or sv_inflected(tok, nz.lex))


def foreign(tok: str, nz: Normaliser) -> bool:
    """Is `tok` a common word of another language (see candidates.is_foreign)?"""
    return is_foreign(tok, nz.foreign)
