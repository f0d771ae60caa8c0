"""Guess what a manifest does not say: parties, date and place of signature, treaty id.

Parties come from country names in the title (the first lines) and the closing formula, in
en/pt/sv/zh; the date and place from the closing formula ("Done at Lima, on February 17th,
2006", "FEITO … em Brasília, em 5 de agosto de 2022", "i Rio de Janeiro den 17 september 1965",
"一九九一年八月五日在北京签订"). Each guessed field is named so the caller can warn about it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace
from itertools import accumulate

from indexer.models import DocMeta
from indexer.segment.numerals import parse_chinese

_MONTHS = {
    # en
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    # pt
    "janeiro": 1, "fevereiro": 2, "março": 3, "marco": 3, "abril": 4, "maio": 5, "junho": 6,
    "julho": 7, "agosto": 8, "setembro": 9, "outubro": 10, "novembro": 11, "dezembro": 12,
    # sv
    "januari": 1, "februari": 2, "mars": 3, "juni": 6, "juli": 7, "augusti": 8,
    "oktober": 10,
}
_MONTH = "(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + ")"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th|º|°)?"
_YEAR = r"(?P<year>1[89]\d\d|20\d\d)"

# Date patterns, most specific first.
_DATE_PATTERNS = [
    # "February 17th, 2006"
    re.compile(_MONTH + r"\s+" + _DAY + r",?\s+" + _YEAR, re.IGNORECASE),
    # "17 February 2006", "5 de agosto de 2022", "17 september 1965", "17th day of June, 1986"
    re.compile(
        _DAY + r"\s+(?:day\s+of\s+|de\s+|dias\s+do\s+m[eê]s\s+de\s+)?" + _MONTH
        + r",?\s+(?:de\s+|of\s+)?" + _YEAR,
        re.IGNORECASE,
    ),
]
_ZH_DATE = re.compile(
    r"(?P<year>[一二三四五六七八九〇零○0-9]{4})年(?P<month>[一二三四五六七八九十0-9]{1,3})月"
    r"(?P<day>[一二三四五六七八九十0-9]{1,3})日"
)
_ZH_DIGITS = str.maketrans("〇零○一二三四五六七八九", "00012345678" + "9")

# Place of signature: "at Lima", "in the city of Lima", "em Brasília", "i Stockholm", "在北京".
_PLACE_PATTERNS = [
    # the place name itself must be capitalised, so only the cue words ignore case
    re.compile(
        r"\b(?i:done|signed|feito|assinad[oa]|som skedde|undertecknat|upprättat)\b[^.]{0,80}?"
        r"\b(?i:at|in|em|i)\s+(?i:the\s+city\s+of\s+|a\s+cidade\s+de\s+)?"
        r"(?P<place>[A-ZÀ-Ý][\wÀ-ÿ'’-]+(?:\s+(?:de\s+|da\s+|do\s+)?[A-ZÀ-Ý][\wÀ-ÿ'’-]+)*)"
    ),
    re.compile(r"在(?P<place>[\u4e00-\u9fff]{2,4}?)签[订署]"),
]
_CLOSING_CUES = re.compile(
    r"in witness whereof|done (?:at|in)|em testemunho|feito em|till bekräftelse|"
    r"som skedde|undertecknat|签订|签署|作准",
    re.IGNORECASE,
)


def _zh_number(s: str) -> int | None:
    if s.isdigit():
        return int(s)
    if len(s) == 4 and all(ch in "〇零○一二三四五六七八九" for ch in s):
        return int(s.translate(_ZH_DIGITS))
    return parse_chinese(s)


def find_date(text: str) -> str | None:
    """The first full date in `text` as ISO yyyy-mm-dd, or None."""
    for pat in _DATE_PATTERNS:
        m = pat.search(text)
        if m:
            month = _MONTHS[m.group("month").lower()]
            return f"{int(m.group('year')):04d}-{month:02d}-{int(m.group('day')):02d}"
    m = _ZH_DATE.search(text)
    if m:
        y, mo, d = (_zh_number(m.group(k)) for k in ("year", "month", "day"))
        if y and mo and d and 1 <= mo <= 12 and 1 <= d <= 31:
            return f"{y:04d}-{mo:02d}-{d:02d}"
    return None


def find_place(text: str) -> str | None:
    for pat in _PLACE_PATTERNS:
        m = pat.search(text)
        if m:
            return m.group("place").strip()
    return None


def closing_text(lines: Sequence[str]) -> str:
    """The closing formula: the first lines with a closing cue and a full date, or ""."""
    # One search over all lines: no cue spans a line break, so the cues found in the joined
    # text are those of the lines they fall in.
    starts = list(accumulate((len(line) + 1 for line in lines), initial=0))
    tried = -1
    for cue in _CLOSING_CUES.finditer("\n".join(lines)):
        i = bisect_right(starts, cue.start()) - 1
        if i == tried:
            continue
        tried = i
        text = " ".join(lines[i : i + 3])
        if find_date(text):
            return text
    return ""


def treaty_id(parties: Sequence[str], year: int | str | None, fallback: str) -> str:
    """`br-pe-2006` from parties and year; a slug of `fallback` where they are unknown."""
    y = str(year)[:4] if year else None
    if len(parties) >= 2 and y:
        return "-".join(sorted(p.lower() for p in parties)) + f"-{y}"
    slug = re.sub(r"[^a-z0-9]+", "-", fallback.lower()).strip("-") or "treaty"
    if y and not re.search(r"-\d{4}$", slug):
        slug += f"-{y}"
    elif not re.search(r"-\d{4}$", slug):
        slug += "-0000"
    return slug


def _codes(matches) -> list[str]:
    """Distinct country codes in order of first mention."""
    return list(dict.fromkeys(m.code for m in matches))


def guess(meta: DocMeta, lines: Sequence[str], title: str | None = None,
          closing: str | None = None) -> DocMeta:
    """Fill the fields of `meta` that are empty from the text's title and closing formula
    (the segmented ones when given and they hold a date, else found in `lines`)."""
    from indexer.sources.countries import find_countries  # lazy: builds name tables on first use

    guessed = list(meta.guessed)
    head = " ".join(filter(None, [title, *lines[:8]]))
    if not (closing and find_date(closing)):
        closing = closing_text(lines)
    parties = meta.parties
    if not parties:
        found = _codes(find_countries(head)) or _codes(find_countries(closing))
        if len(found) >= 2:
            parties = tuple(sorted(found))
            guessed.append("parties")
    signed = meta.signed
    if not signed:
        signed = find_date(closing) if closing else None
        if signed:
            guessed.append("signed")
    place = meta.place
    if not place and closing:
        place = find_place(closing)
        if place:
            guessed.append("place")
    title = meta.title or (title or (lines[0] if lines else "")).strip()[:300] or None
    treaty = meta.treaty
    if not treaty:
        treaty = treaty_id(parties, signed, re.sub(r"\.[^/]*$", "", meta.file.split("/")[-1]))
        guessed.append("treaty")
    return replace(
        meta, parties=parties, signed=signed, place=place, title=title, treaty=treaty,
        guessed=tuple(guessed),
    )
