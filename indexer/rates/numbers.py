"""Percentages however a treaty prints them: "15 %", "15 per cent", "12 1/2 %", "12,5 %",
"12½ per cent", "fifteen per cent", "quinze por cento", "femton procent", "百分之十五".

`percentages(text)` finds each with its value and span; `parse_percent(s)` reads one whole
string. Number words cover 0..100 in en, pt and sv (cardinals, with "and a half" / "e meio" /
"och en halv"); Chinese numerals go through `indexer.segment.numerals.parse_chinese`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from indexer.segment.numerals import (
    CARDINAL_TENS,
    CARDINAL_UNITS,
    CN_NUMERAL_CHARS,
    parse_chinese,
)

_HUNDRED = {"hundred": 100, "one hundred": 100, "a hundred": 100, "cem": 100, "hundra": 100,
            "etthundra": 100}
UNITS = {w: n for lang in ("en", "pt", "sv") for w, n in CARDINAL_UNITS[lang].items()}
TENS = {w: n for lang in ("en", "pt", "sv") for w, n in CARDINAL_TENS[lang].items()}

#: The words for "per cent" after a number (en, pt, sv; "%" and the fullwidth "％" too).
PERCENT_WORDS = r"(?:%|％|per\s?cent(?:um)?\b|percent\b|pct\b|por\s?cento\b|procent\b)"
_HALF_WORDS = r"(?:\s+(?:and\s+(?:a\s+|one\s+)?half|e\s+meio|och\s+en\s+halv))"


@dataclass(frozen=True)
class Percent:
    """A percentage found in a text: its value and where it stands."""

    value: float
    start: int
    end: int
    words: bool = False  # written in words, not digits (or Chinese numerals)


def _alt(words) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


@cache
def _word_number_re() -> str:
    """A number from 0 to 100 in words: "fifteen", "twenty-five", "vinte e cinco",
    "tjugofem", "one hundred"."""
    units, tens = _alt(UNITS), _alt(TENS)
    return (rf"(?:{_alt(_HUNDRED)}|(?:{tens})(?:[\s-]*(?:e\s+|and\s+)?(?:{units}))?"
            rf"|(?:{units}))")


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    digits = (r"(?P<num>\d{1,3}(?:[.,]\d{1,3})?)"
              r"(?:(?:\s+|-)(?P<frac>\d)\s*/\s*(?P<den>\d{1,2})|\s*(?P<vulgar>[½¼¾]))?")
    digit_re = re.compile(rf"(?<![\w.,/]){digits}\s*{PERCENT_WORDS}", re.IGNORECASE)
    words = rf"(?<![\w-])(?P<words>{_word_number_re()})(?P<half>{_HALF_WORDS})?"
    word_re = re.compile(rf"{words}\s+{PERCENT_WORDS}", re.IGNORECASE)
    zh_re = re.compile(rf"百分之(?P<zh>[{CN_NUMERAL_CHARS}0-9０-９]+)(?P<zhpoint>点[{CN_NUMERAL_CHARS}]+)?")
    return digit_re, word_re, zh_re


_VULGAR = {"½": 0.5, "¼": 0.25, "¾": 0.75}


def words_value(words: str) -> int | None:
    """"fifteen" -> 15, "twenty-five" -> 25, "vinte e cinco" -> 25, "tjugofem" -> 25."""
    s = " ".join(words.lower().replace("-", " ").split())
    if s in _HUNDRED:
        return 100
    if s in UNITS:
        return UNITS[s]
    for ten, tv in sorted(TENS.items(), key=lambda kv: -len(kv[0])):
        if s.startswith(ten):
            rest = s[len(ten):].strip()
            rest = re.sub(r"^(?:e|and)\s+", "", rest)
            if not rest:
                return tv
            if rest in UNITS and 0 < UNITS[rest] < 10:
                return tv + UNITS[rest]
    return None


def _digit_value(m: re.Match[str]) -> float | None:
    value = float(m["num"].replace(",", "."))
    if m["frac"]:
        den = int(m["den"])
        if den == 0 or int(m["frac"]) >= den:
            return None
        value += int(m["frac"]) / den
    elif m["vulgar"]:
        value += _VULGAR[m["vulgar"]]
    return value


def _zh_value(m: re.Match[str]) -> float | None:
    whole = parse_chinese(m["zh"])
    if whole is None:
        return None
    if m["zhpoint"]:
        tail = "".join(str(parse_chinese(c) or 0) for c in m["zhpoint"][1:])
        return float(f"{whole}.{tail}")
    return float(whole)


def percentages(text: str) -> list[Percent]:
    """Every percentage in `text`, in order; one printed as digits and then in words in
    brackets ("15 % (fifteen per cent)") counts once, as the digits."""
    digit_re, word_re, zh_re = _patterns()
    found: list[Percent] = []
    for m in digit_re.finditer(text):
        value = _digit_value(m)
        if value is not None and value <= 100:
            found.append(Percent(value, m.start(), m.end()))
    for m in word_re.finditer(text):
        value = words_value(m["words"])
        if value is not None:
            found.append(Percent(float(value) + (0.5 if m["half"] else 0), m.start(), m.end(),
                                 True))
    for m in zh_re.finditer(text):
        value = _zh_value(m)
        if value is not None and value <= 100:
            found.append(Percent(value, m.start(), m.end()))  # (how Chinese prints numbers)
    found.sort(key=lambda p: p.start)
    return _drop_glosses(text, found)


def _drop_glosses(text: str, found: list[Percent]) -> list[Percent]:
    """A percentage in words in brackets right after one ("15 % (fifteen percent)", "15 So
    (femton procent)", where OCR broke the %) is its gloss: the pair is one percentage, the
    value of the words when the digits are unreadable."""
    out: list[Percent] = []
    for p in found:
        if p.words and out:
            between = text[out[-1].end:p.start]
            if re.fullmatch(r"\s*\(\s*", between):
                continue
        out.append(p)
    return out


def parse_percent(s: str) -> float | None:
    """The value of `s` when the whole of it is one percentage ("12 1/2 %", "quinze por
    cento", "百分之十五"), else None."""
    s = s.strip()
    found = percentages(s)
    if len(found) == 1 and found[0].start == 0 and found[0].end == len(s):
        return found[0].value
    return None
