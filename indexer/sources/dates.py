"""Dates as closing formulas and titles write them, in en, sv, pt and zh, read to ISO.

"5th day of June 1986", "this thirteenth day of July 1993", "the 31<sup>st</sup> day of
May, 2013", "February 17th, 2006", "19 Dec. 1977", "fourteenth day of December one
thousand nine hundred and fifty-six", "den 7 maj 1981", "aos 25 dias do mês de abril de
1975", "aos vinte e cinco dias do mês de abril do ano de mil novecentos e setenta e cinco",
"一九九一年八月五日", "2013年5月31日". A date that is not in the calendar is no date.
"""

from __future__ import annotations

import datetime
import re
from functools import cache

from indexer.segment.numerals import CARDINAL_TENS, CARDINAL_UNITS, parse_chinese

_MONTHS = {
    # en
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    # sv
    "januari": 1, "februari": 2, "mars": 3, "maj": 5, "juni": 6, "juli": 7, "augusti": 8,
    "oktober": 10,
    # pt
    "janeiro": 1, "fevereiro": 2, "março": 3, "marco": 3, "abril": 4, "maio": 5, "junho": 6,
    "julho": 7, "agosto": 8, "setembro": 9, "outubro": 10, "novembro": 11, "dezembro": 12,
}
# Abbreviations, with a full stop or alone ("19 Dec. 1977", "3 sept 1994"); those that are
# also words ("10 out of 2000") only with their full stop.
_ABBREVIATIONS = {
    "jan": 1, "feb": 2, "febr": 2, "fev": 2, "apr": 4, "abr": 4, "jun": 6, "jul": 7,
    "aug": 8, "ago": 8, "sep": 9, "sept": 9, "oct": 10, "okt": 10, "nov": 11, "dec": 12,
    "dez": 12,
}
_DOTTED = {"mar": 3, "set": 9, "out": 10}
# Number words: (value, kind). Kind "x" multiplies (hundred, thousand).
_EN_NUMBERS = {
    **{w: n for w, n in CARDINAL_UNITS["en"].items() if n}, **CARDINAL_TENS["en"],
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}
_PT_NUMBERS = {
    **{w: n for w, n in CARDINAL_UNITS["pt"].items() if n}, **CARDINAL_TENS["pt"],
    "primeiro": 1, "cem": 100, "cento": 100, "duzentos": 200, "trezentos": 300,
    "quatrocentos": 400, "quinhentos": 500, "seiscentos": 600, "setecentos": 700,
    "oitocentos": 800, "novecentos": 900,
}
_SV_NUMBERS = {
    "första": 1, "andra": 2, "tredje": 3, "fjärde": 4, "femte": 5, "sjätte": 6, "sjunde": 7,
    "åttonde": 8, "nionde": 9, "tionde": 10, "elfte": 11, "tolfte": 12, "trettonde": 13,
    "fjortonde": 14, "femtonde": 15, "sextonde": 16, "sjuttonde": 17, "artonde": 18,
    "nittonde": 19, "tjugonde": 20, "trettionde": 30, "tjugo": 20, "trettio": 30,
}
_MULTIPLIERS = {"hundred": 100, "thousand": 1000, "mil": 1000}
_JOINERS = r"(?:[\s-]*|\s+(?:and|e)\s+)"


def _words(words) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    number = _words([*_EN_NUMBERS, *_PT_NUMBERS, *_SV_NUMBERS, *_MULTIPLIERS])
    words = rf"(?:{number})(?:{_JOINERS}(?:{number}))*"
    month = (rf"(?P<month>(?:{_words(_MONTHS)})\.?|(?:{_words(_ABBREVIATIONS)})(?:\.|(?![\w]))"
             rf"|(?:{_words(_DOTTED)})\.)")
    day = (rf"(?P<day>\d{{1,2}}(?:\s?-?(?:st|nd|rd|th)\b|[º°ª˚]|:[ae]|\.(?!\d))?"
           rf"|(?<![\w-])(?:{words}))")
    year = rf"(?P<year>1[6-9]\d\d|20\d\d|(?:{words}))"
    # "5th day of the month of June", "25 (vinte e cinco) dias do mês de abril"
    after_day = (r"(?:\s*\([^()\d]{1,40}\))?(?:\s+(?:day|dias?)\b)?(?:\s*,)?\s+"
                 r"(?:(?:of|the|month|de|do|da|m[eê]s)\s+)*")
    before_year = r"(?:\s*,)?\s+(?:(?:of|the|in|year|de|do|ano|år)\s+)*"
    return (
        # "5th day of June 1986", "25 dias do mês de abril de 1975", "7 maj 1981"
        re.compile(rf"(?<![\w]){day}{after_day}{month}{before_year}{year}(?![\w])",
                   re.IGNORECASE),
        # "February 17th, 2006", "March 23, 1939", "June the 5th, 1986"
        re.compile(rf"(?<![\w]){month}\s+(?:the\s+)?{day}(?:\s*,)?\s+{year}(?![\w])",
                   re.IGNORECASE),
        # "this day of 16 July 1981" is the first form; Chinese last
        re.compile(
            r"(?P<year>[一二三四五六七八九〇零○0-9０-９]{4})\s*年\s*(?P<month>[一二三四五六七八九十0-9０-９]{1,3})"
            r"\s*月\s*(?P<day>[一二三四五六七八九十0-9０-９]{1,3})\s*日"
        ),
    )


def _number(text: str) -> int | None:
    """The value of digits, number words ("twenty-seventh", "mil novecentos e setenta e
    cinco", "nineteen hundred and fifty-six") or Chinese numerals; None if unreadable."""
    text = text.strip().lower()
    digits = re.match(r"\d+", text.translate(_FULLWIDTH))
    if digits:
        return int(digits.group(0))
    if re.fullmatch(r"[一二三四五六七八九〇零○]{4}", text):
        return int(text.translate(_ZH_DIGITS))
    if re.search(r"[一二三四五六七八九十]", text):
        return parse_chinese(text)
    table = {**_EN_NUMBERS, **_PT_NUMBERS, **_SV_NUMBERS}
    total = current = 0
    for token in re.findall(_words([*table, *_MULTIPLIERS]), text):
        if token in _MULTIPLIERS:
            if _MULTIPLIERS[token] == 1000:
                total += (current or 1) * 1000
                current = 0
            else:
                current = (current or 1) * 100
        else:
            current += table[token]
    return total + current or None


_FULLWIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
_ZH_DIGITS = str.maketrans("〇零○一二三四五六七八九", "00012345678" + "9")


def _month(text: str) -> int | None:
    key = text.lower().rstrip(".")
    return _MONTHS.get(key) or _ABBREVIATIONS.get(key) or _DOTTED.get(key) or _number(text)


def _iso(match: re.Match[str]) -> str | None:
    year, month, day = (_number(match.group("year")), _month(match.group("month")),
                        _number(match.group("day")))
    if not (year and 1600 <= year <= 2099):
        return None
    try:
        return datetime.date(year, month or 0, day or 0).isoformat()
    except ValueError:
        return None


def find_dates(text: str) -> list[tuple[int, int, str]]:
    """Every date in `text` as (start, end, ISO yyyy-mm-dd), left to right. Markup inside a
    date ("8<sup>th</sup>") is read through; offsets are those of `text`."""
    plain = re.sub(r"<[^<>\n]{0,40}>", lambda m: " " * len(m.group(0)), text)
    plain = re.sub(r"(\d) +(st|nd|rd|th)\b",
                   lambda m: (m.group(1) + m.group(2)).ljust(len(m.group(0))), plain)
    found = []
    for pattern in _patterns():
        for m in pattern.finditer(plain):
            iso = _iso(m)
            if iso:
                found.append((m.start(), m.end(), iso))
    found.sort()
    out: list[tuple[int, int, str]] = []
    for item in found:  # one reading per place: the first pattern's, which starts earliest
        if not out or item[0] >= out[-1][1]:
            out.append(item)
    return out


def find_date(text: str) -> str | None:
    """The first date in `text` as ISO yyyy-mm-dd, or None."""
    found = find_dates(text)
    return found[0][2] if found else None
