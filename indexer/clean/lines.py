"""The line-level tests of cleaning, shared by the stages after it: headings, item labels,
sentence ends, Han text, and `join_lines` (two texts of one paragraph made one).
"""

from __future__ import annotations

import re

import numpy as np

from indexer.clean.hyphens import Vocabulary, join_hyphenated
from indexer.hanzi import either_script

# --- named patterns -------------------------------------------------------------------------

_HEADING_WORDS = (
    r"article|artikel|artigo|artículo|articolo|art\.|chapter|kapitel|cap[ií]tulo|chapitre|"
    r"hoofdstuk|protocol|protokoll|protocolo|protocole|section|avdelning|se[cç][cç][aã]o|"
    r"annex|bilaga|anexo"
)
# What a heading word starts with (tested first: a line that cannot open one fails at once,
# without trying every word).
_HEADING_FIRST = "[" + "".join(sorted({word[0] for word in _HEADING_WORDS.split("|")})) + "]"
# A whole line that is a heading: keyword and a short (possibly OCR-garbled) label.
HEADING_LINE = re.compile(
    rf"^\s*(?:#+\s*)?(?={_HEADING_FIRST})(?:{_HEADING_WORDS})"
    rf"(?:\s+[\w.\-–]{{1,10}}){{0,2}}\s*\.?\s*$",
    re.IGNORECASE,
)
# A line opening with a heading keyword and a label (may carry a title after it).
HEADING_START = re.compile(
    rf"^\s*(?:#+\s*)?(?={_HEADING_FIRST})(?:{_HEADING_WORDS})"
    rf"\s+(?:\d+[\w\-]*|[IVXLC]+\b|[ivxlc]+\b)",
    re.IGNORECASE,
)
# Chinese article / chapter headings, in either script and numbering: 第二十三条, 第三章,
# 第二十三條, 第 23 条, 第２３条.
CJK_HEADING = re.compile(either_script(
    r"^\s*第\s*(?:[一二三四五六七八九十百零〇两]+|\d+)\s*[条章节款]"))
# Paragraph and point labels that open a new item.
_LABEL = re.compile(
    r"""^\s*(?:
        \#+\s*\S                                   # markdown heading
      | §\s*\d+[a-z]?\.?(?:\s|$)                   # § 1.
      | \d{1,3}(?:\.\d{1,3})*\.(?:\s|$|(?=[^\W\d_]))  # 1.   2.1.   1.glued
      | \d{1,3}\)\s                                # 1)
      | \(\d{1,3}[a-z]?\)                          # (1)
      | \d{1,3}\s?[-–—]\s                          # 1 -   (Portuguese style)
      | [a-zA-Z]\)(?:\s|(?=[^\W\d_]))                # a)  A)  a)glued
      | \([a-zA-Z]\)\s                             # (a)
      | [ivxlc]{1,6}\)\s                           # iv)
      | \([ivxlcIVXLC]{1,6}\)                      # (iv)
      | [IVXLC]{1,6}\.\s                           # IV.
      | [-–—•·▪◦*]\s?(?=\S)                        # bullet
      | (?:[一二三四五六七八九十]+|\d{1,2})、       # 一、  1、
      | （[一二三四五六七八九十]+）                 # （一）
      | \d{1,2}．                                  # １．  1．
      | \([一二三四五六七八九十]+\)                 # (一)
    )""",
    re.VERBOSE,
)
# A parenthesised label followed by a lowercase word: a cross-reference when it follows a
# line ending in a word ("subparagraph\n(iv) below applies"), not a new point.
REFERENCE = re.compile(r"^\s*\(\w{1,5}\)\s+(?:[^\W\d_A-Z]|\()")
# A number alone on a line after a line ending in a word that takes a number: the end of a
# cross-reference wrapped onto its own line ("… bestämmelserna i artikel" + "7."), not a label.
# The same after a word and its number ("… i punkt 1" + "b) 5) och 6)."), and for a label and
# a lower-case word ("… of subparagraph" + "c) of paragraph 2 of Article 17").
REFERENCE_END = re.compile(
    r"(?i)\b(?:articles?|artikel(?:n|arna)?|artigos?|paragraphs?|subparagraphs?|clauses?|points?"
    r"|punkt(?:en|erna)?|parágrafos?|alíneas?|stycket?|§)(?:\s+\d{1,3}[a-z]?)?\s*$")
NUMBER_ONLY = re.compile(r"^\s*\d{1,3}[a-z]?\s*[.,;:]?\s*$")
LABEL_THEN_WORD = re.compile(r"^\s*(?:[a-z]{1,4}\)|\d{1,3}\))\s*(?:[^\W\d_A-Z]|\d{1,3}\))")
TERMINAL = re.compile(r"[.!?;:。；：！？…]['\"”’»)]*\s*$")
#: The Han ranges cleaning knows (CJK Extension A and Unified Ideographs; Compatibility
#: Ideographs), first and last code point of each.
_HAN_RANGES = ((0x3400, 0x9FFF), (0xF900, 0xFAFF))
HAN = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in _HAN_RANGES) + "]")
# Either heading pattern, in one match: HEADING_LINE (case-insensitive) or CJK_HEADING.
_ANY_HEADING = re.compile(f"(?i:{HEADING_LINE.pattern})|{CJK_HEADING.pattern}")


def is_han(ch: str) -> bool:
    """Is the character `ch` one `HAN` matches?"""
    return HAN.match(ch) is not None


def has_han(text: str) -> bool:
    """Has `text` a character `HAN` matches? Tested on all code points at once (in numpy;
    the regex search tries every position in turn)."""
    if text.isascii():
        return False
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    # (unsigned: a code point below a range's start wraps round to a large difference)
    return any(bool((codes - a <= b - a).any()) for a, b in _HAN_RANGES)


ENDS_IN_LETTER = re.compile(r"[^\W\d_]$")


# `starts_item(line)` with no previous line, in one match: a heading, a label or a heading
# keyword with a label (the alternatives of one pattern match where any of them would).
STARTS_ALONE = re.compile(
    f"{_ANY_HEADING.pattern}|(?x:{_LABEL.pattern})|(?i:{HEADING_START.pattern})"
)


# A heading or a label, in one match telling which opened the line: group 1 a heading
# (`is_heading`), 2 a label (tried in that order, so a heading always matches as one).
HEADING_OR_LABEL = re.compile(f"({_ANY_HEADING.pattern})|((?x:{_LABEL.pattern}))")


def is_heading(line: str) -> bool:
    """A line that is only a heading ("Artikel I", "ARTICLE 5", "第三条 ...")."""
    return _ANY_HEADING.match(line) is not None


def starts_item(line: str, previous: str = "") -> bool:
    """Does `line` open a new structural item (heading, paragraph or point label)?"""
    if is_heading(line) or _LABEL.match(line):
        return True
    return bool(HEADING_START.match(line)) and (not previous or ends_sentence(previous))


_TERMINALS = frozenset(".!?;:。；：！？…")
_CLOSERS = "'\"”’»)"


def ends_sentence(line: str) -> bool:
    """Does `line` end a sentence (`TERMINAL`)? Tested from the end: trailing whitespace,
    then closing quotes and brackets, then a terminal mark (the regex search would try every
    position of the line)."""
    s = line.rstrip().rstrip(_CLOSERS)
    return bool(s) and s[-1] in _TERMINALS


def join_lines(head: str, tail: str, vocabulary: Vocabulary | None = None) -> str:
    """Join two cleaned texts that belong to one paragraph (de-hyphenating if needed, by the
    words of their text: `vocabulary`)."""
    head, tail = head.rstrip(), tail.lstrip()
    if not head:
        return tail
    if not tail:
        return head
    hyphenated = join_hyphenated(head, tail, vocabulary)
    if hyphenated is not None:
        return hyphenated
    if is_han(head[-1]) and is_han(tail[0]):
        return head + tail
    return f"{head} {tail}"

