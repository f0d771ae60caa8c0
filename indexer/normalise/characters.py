"""The steps that need no lexicon: the Unicode normal form (``unicode-nfc``), blanks
(``whitespace``) and letters read for digits (``ocr-digits``).

Chinese: the policy normal form is NFKC, but the Halfwidth and Fullwidth Forms block is kept
(``１．`` and ``（一）`` are printed paragraph labels that ``segment`` reads); search-side folding
of those belongs to ``analysis``.
"""

from __future__ import annotations

import re
import unicodedata

from ..models import Change
from ..policy import policy
from .calm import still
from .context import Normaliser
from .scan import LIGATURE_MARKS, MIXED_DIGITS, RUN, Scan

# ---------------------------------------------------------------------------------------------
# Unicode

_LIGATURES = {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}
_LIGATURE = re.compile("[ﬀ-ﬆ]")


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


def _nfc_spelled_out(scan: Scan, latin: bool) -> str:
    """The text in NFC, with its Latin ligatures spelled out when `latin` (the language is
    written in Latin script, or has no policy)."""
    text = scan.text
    new = text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)
    # (a ligature is no ASCII character)
    if (latin and not (new is text and text.isascii())
            and not LIGATURE_MARKS.isdisjoint(scan.marks if new is text else new)):
        new = _LIGATURE.sub(lambda m: _LIGATURES.get(m.group(), m.group()), new)
    return new


def unicode_nfc(scan: Scan, nz: Normaliser) -> tuple[str, list[Change]]:
    """The policy's Unicode normal form (NFC; NFKC for Chinese but keeping fullwidth forms);
    Latin ligatures (ﬁ) spelled out."""
    text = scan.text
    pol = policy(nz.lang)
    if pol is not None and pol.normal_form == "NFKC":
        new = _nfkc_keep_fullwidth(text)
    else:
        new = _nfc_spelled_out(scan, pol is None or pol.script == "Latn")
    if new == text:
        return text, []
    return new, [Change("unicode-nfc", text, new, "Unicode normal form")]


# ---------------------------------------------------------------------------------------------
# Whitespace

#: The runs of blanks the whitespace step may change (a maximal run, with the line end after
#: it): two blanks or more, one that is not a space, a space at the start, at the end or
#: before a line end. A single space between words is left out: it stays as it is.
_BLANKS = re.compile(r"([ \t\u00a0\u2000-\u200a\u202f]{2,}|[\t\u00a0\u2000-\u200a\u202f]"
                     r"|^ | $| (?=\n))(\n)?")
#: Blanks other than the space (the whitespace step changes them all).
_ODD_BLANKS = frozenset("\t\u00a0\u202f" + "".join(map(chr, range(0x2000, 0x200B))))


def _blank_trouble(scan: Scan) -> bool:
    """Anything the whitespace step could change: other blanks than a single inner space (of
    _ODD_BLANKS, only the tab is ASCII: an ASCII text is not scanned for the others)."""
    text = scan.text
    return ("  " in text or " \n" in text or text[:1] == " " or text[-1:] == " "
            or ("\t" in text if text.isascii() else not _ODD_BLANKS.isdisjoint(scan.marks)))


def whitespace(scan: Scan, nz: Normaliser) -> tuple[str, list[Change]]:
    """Runs of spaces, tabs and no-break spaces become one space; line ends lose trailing
    blanks."""
    text = scan.text
    if not _blank_trouble(scan):  # single spaces between words only: nothing to do
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
_SPACE_L = re.compile(r"\sl(?=[\s,.;:)]|$)")
_TO_DIGIT = str.maketrans({"l": "1", "I": "1", "O": "0"})


def ocr_digits(scan: Scan, nz: Normaliser) -> tuple[str, list[Change]]:
    """Letters read for digits inside numbers (``l965``, ``19O5``: at least two real digits)
    and a lowercase ``l`` numbering a paragraph (``paragraph l``; roman ``I`` stays)."""
    text = scan.text
    if nz.lang == "zh" or still(scan, nz):
        return text, []
    changes: list[Change] = []

    def num(m: re.Match[str]) -> str:
        tok = m.group()
        if sum(c.isdigit() for c in tok) < 2 or tok.isdigit():
            return tok
        new = tok.translate(_TO_DIGIT)
        changes.append(Change("ocr-digits", tok, new, "letter among digits read as a digit"))
        return new

    if MIXED_DIGITS.search(text):  # a number to repair has a letter beside a digit
        text = _DIGITISH.sub(num, text)

    def label(m: re.Match[str]) -> str:
        changes.append(Change("ocr-digits", m.group(), m.group()[:-1] + "1",
                              "paragraph number printed as the letter l"))
        return m.group()[:-1] + "1"

    # a label's l is a whole run of word characters (the runs are the word steps' own)
    runs = scan.runs if text is scan.text else RUN.findall(text)
    if "l" in runs and _SPACE_L.search(text):
        text = _LABEL_L.sub(label, text)
    return text, changes
