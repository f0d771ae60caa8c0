"""What the steps look for in a text, found once per text: a :class:`Scan`.

The steps of one repair share one Scan while the text is unchanged (a step that changes it
gives the next a new one): the marks a step checks before it looks closer, the runs of word
characters, the protected spans, the tokens of the word steps and its pieces between blanks.
"""

from __future__ import annotations

import re
from functools import cache

#: Characters whose presence a step checks before it looks closer: Latin ligatures, blanks
#: other than the space, the quote marks of protected terms, the junk TOKEN takes in a word.
_MARKS = re.compile("[\ufb00-\ufb06\t\u00a0\u2000-\u200a\u202f“«»\"^£§\\]}|_]")
#: A word step's token: a run of letters and digits, with the OCR junk taken inside or after it.
TOKEN = re.compile(r"[^\W_]+(?:[\^£§\]\}\|][^\W_]+)*[\]\}]?|[\^£][^\W_]+")
RUN = re.compile(r"\w+")
#: What makes TOKEN's tokens differ from RUN's runs: the OCR junk it takes inside or after a
#: word, and the underscore (a word character, but no token's).
TOKEN_JUNK = frozenset("^£§]}|_")
#: What is protected, each with the text it needs in a line to match at all.
_PROTECT_PARTS = (
    ("http", r"https?://\S+"),  # URLs
    ("www.", r"www\.\S+"),
    ("@", r"[\w.+-]+@[\w-]+\.[\w.]+"),  # e-mail
    ("", r"“[^”\n]{1,60}”|«[^»\n]{1,60}»|»[^»«\n]{1,60}»|\"[^\"\n]{1,60}\""),  # short quoted terms
)
_QUOTE_MARKS = frozenset("“«»\"")
#: The Latin ligatures (what the Unicode step spells out).
LIGATURE_MARKS = frozenset(map(chr, range(0xFB00, 0xFB07)))
#: A digit with l, I or O just after or before it: where ocr-digits may repair a number (the
#: scan stops at digits only).
MIXED_DIGITS = re.compile(r"[0-9](?:(?=[lIO])|(?<=[lIO].))")
#: Where a word broken at a hyphen can be joined across other than one space: a hyphen before
#: a blank.
HYPHEN_BREAK = re.compile(r"-[ \t\n]")

Spans = list[tuple[int, int]]
#: The unprotected tokens of a text: their matches (None when every token is a run of word
#: characters), the tokens, and the distinct tokens that were not calm when they were found.
Tokens = tuple[list[re.Match[str]] | None, list[str], set[str]]


class Scan:
    """`text` and what the steps found in it, each found on first use.

    Two of them depend on what the Normaliser has learned when they are found: `loose` and
    the tokens leave out the tokens then calm, and `stilled` tells whether the pieces were
    then all still. The calm and still sets only grow during a repair, so these stay true
    (what was loose may have become calm since: a step then looks at it, and finds it quiet)."""

    __slots__ = ("_blocked", "_loose", "_marks", "_runs", "_stilled", "_tokens", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._marks: set[str] | None = None
        self._runs: list[str] | None = None
        self._blocked: Spans | None = None
        self._loose: set[str] | None = None
        self._tokens: Tokens | None = None
        self._stilled: tuple[bool, list[str]] | None = None

    @property
    def marks(self) -> set[str]:
        """The characters of _MARKS in the text."""
        if self._marks is None:
            self._marks = set(_MARKS.findall(self.text))
        return self._marks

    @property
    def runs(self) -> list[str]:
        """The runs of word characters of the text."""
        if self._runs is None:
            self._runs = RUN.findall(self.text)
        return self._runs

    @property
    def protected(self) -> Spans:
        """Spans of URLs, e-mail addresses and short quoted terms (none without their marks)."""
        if self._blocked is None:
            text = self.text
            present = ("http" in text, "www." in text, "@" in text)  # _PROTECT_PARTS[:3] need
            spans: Spans = []
            if any(present) or not _QUOTE_MARKS.isdisjoint(self.marks):
                spans = [m.span() for m in _protect_pattern(present).finditer(text)]
            self._blocked = spans
        return self._blocked

    def loose(self, calm: set[str]) -> set[str]:
        """The distinct tokens the text may have (what :meth:`tokens` can find) that are not
        in `calm`: its runs of word characters when no OCR junk makes a token differ from a
        run, else every match of TOKEN, with and without a ``]`` or ``}`` at its end (whether
        one closes a bracket depends on the text before it). Protected spans only leave tokens
        out, so these are never fewer than the tokens: when a step's quiet set holds them all,
        the step leaves the text as it is without finding where tokens stand or what is
        protected."""
        if self._loose is None:
            if TOKEN_JUNK.isdisjoint(self.marks):
                found = set(self.runs)
            else:
                found = set(TOKEN.findall(self.text))
                found.update([tok[:-1] for tok in found if tok[-1] in "]}"])
            found.difference_update(calm)
            self._loose = found
        return self._loose

    def tokens(self, calm: set[str]) -> Tokens:
        """The unprotected tokens of the text (see Tokens; a token loses a ``]`` closing a
        bracket opened before it). The matches are None when nothing is protected or
        bracketed: every token is then a run of word characters, and
        :func:`~indexer.normalise.rewrite.rewrite` finds where one stands from the tokens
        before it."""
        if self._tokens is None:
            if not self.protected and TOKEN_JUNK.isdisjoint(self.marks):
                # every token a run of word characters (and no bracket to close)
                self._tokens = (None, self.runs, self.loose(calm))
            else:
                self._tokens = self._matched_tokens(calm)
        return self._tokens

    def _matched_tokens(self, calm: set[str]) -> Tokens:
        text = self.text
        matches = list(TOKEN.finditer(text))
        if self.protected:
            matches = unprotected(matches, self.protected)
        toks = [m.group() for m in matches]
        brackets = [i for i in (text.find("["), text.find("{")) if i >= 0]
        if brackets:
            bracket = min(brackets)
            for i, m in enumerate(matches):
                if bracket < m.start() and toks[i][-1] in "]}":  # "]" closing a bracket
                    toks[i] = toks[i][:-1]
        return matches, toks, set(toks).difference(calm)

    def stilled(self, still: set[str]) -> tuple[bool, list[str]]:
        """Whether every piece of the text between blanks (``str.split()``) is in `still`, and
        the pieces."""
        if self._stilled is None:
            pieces = self.text.split()
            self._stilled = (still.issuperset(pieces), pieces)
        return self._stilled


@cache
def _protect_pattern(present: tuple[bool, ...]) -> re.Pattern[str]:
    """The pattern of protected spans without the alternatives whose text `present` says is
    missing from the line (they could not match: the spans found are the same, without the
    cost of trying an e-mail address at every word)."""
    return re.compile("|".join(rx for (_, rx), here in zip(_PROTECT_PARTS, (*present, True))
                               if here))


def unprotected(matches: list[re.Match[str]], blocked: Spans) -> list[re.Match[str]]:
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
