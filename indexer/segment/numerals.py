"""Numbers as printed in treaty texts, and the regexes that find article, paragraph and point
labels.

Parsers return ``None`` for anything they cannot read; they never guess. Guessing an
OCR-garbled label needs context (the number the sequence expects next), which is what
:func:`plausible_label` and :func:`label_distance` are for.

Regex builders follow eyecite's ``regexes.py``: small named functions that each build one
grammar, with every edge case commented and tested in ``tests/test_numerals.py``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import cache, lru_cache

from indexer.hanzi import either_script

# ---------------------------------------------------------------------------------------------
# Roman numerals
# ---------------------------------------------------------------------------------------------

_ROMAN_VALUES = (
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)  # fmt: skip
# Canonical (subtractive) form only: "IIII" and "VX" are not numbers in treaty headings.
_ROMAN_RE = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")


def to_roman(n: int) -> str:
    """1 -> "I", 14 -> "XIV" (canonical upper-case form); n must be 1..3999."""
    if not 0 < n < 4000:
        raise ValueError(f"roman numerals cover 1..3999, not {n}")
    out = []
    for value, letters in _ROMAN_VALUES:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


def parse_roman(s: str) -> int | None:
    """"XIV" or "xiv" -> 14; None unless `s` is a canonical roman numeral."""
    s = s.strip().upper()
    if not s or not _ROMAN_RE.fullmatch(s):
        return None
    total, i = 0, 0
    for value, letters in _ROMAN_VALUES:
        while s.startswith(letters, i):
            total += value
            i += len(letters)
    return total or None


# ---------------------------------------------------------------------------------------------
# Chinese numerals
# ---------------------------------------------------------------------------------------------

_CN_DIGITS = {
    "〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5,
    "六": 6, "七": 7, "八": 8, "九": 9,
    # financial forms (大写), seen in some official texts, Simplified and Traditional
    "壹": 1, "贰": 2, "貳": 2, "叁": 3, "叄": 3, "參": 3, "肆": 4, "伍": 5, "陆": 6, "陸": 6,
    "柒": 7, "捌": 8, "玖": 9,
}  # fmt: skip
_CN_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
CN_NUMERAL_CHARS = "".join(_CN_DIGITS) + "".join(_CN_UNITS)
_CN_SMALL = "〇一二三四五六七八九"


def to_chinese(n: int) -> str:
    """1 -> "一", 10 -> "十", 23 -> "二十三", 101 -> "一百零一", 110 -> "一百一十" (n 1..9999)."""
    if not 0 < n < 10000:
        raise ValueError(f"Chinese numerals here cover 1..9999, not {n}")
    if n < 10:
        return _CN_SMALL[n]
    if n < 20:  # 十, 十一 … 十九: the leading 一 is omitted in headings
        return "十" + (_CN_SMALL[n - 10] if n > 10 else "")
    out = []
    zero_pending = False
    for value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit, n = divmod(n, value)
        if digit:
            if zero_pending:
                out.append("零")
                zero_pending = False
            out.append(_CN_SMALL[digit] + unit)
        elif out:
            zero_pending = True
    return "".join(out)


def _halfwidth_digits(s: str) -> str:
    """Fullwidth "１２" -> "12" (NFKC on digits only; leaves CJK untouched)."""
    if s.isascii():
        return s  # ASCII digits are their own NFKC form
    return "".join(unicodedata.normalize("NFKC", c) if c.isdigit() else c for c in s)


def parse_chinese(s: str) -> int | None:
    """"二十三" -> 23, "十" -> 10, "两" -> 2, "一百零一" -> 101, "１２" -> 12, "〇" -> 0.

    Also arabic digits (half or fullwidth), which Chinese texts mix in freely.
    """
    s = _halfwidth_digits(s.strip())
    if not s:
        return None
    if s.isdecimal():
        return int(s)
    if any(c not in _CN_DIGITS and c not in _CN_UNITS for c in s):
        return None
    if all(c in _CN_DIGITS for c in s):  # digit by digit, e.g. years: "一九九一"
        return int("".join(str(_CN_DIGITS[c]) for c in s))
    total, digit, last_unit = 0, None, 10**9
    for c in s:
        if c in _CN_DIGITS:
            if digit is not None and _CN_DIGITS[c] != 0 and digit != 0:
                return None  # two digits in a row without a unit: "二三十"
            digit = _CN_DIGITS[c]
        else:
            unit = _CN_UNITS[c]
            if unit >= last_unit:
                return None  # units must fall: "十百" is not a number
            # "十" alone at the start means 一十 (10)
            total += (1 if digit is None else digit) * unit
            if digit == 0:
                return None
            digit, last_unit = None, unit
    if digit:
        total += digit
    return total


# ---------------------------------------------------------------------------------------------
# Article labels as printed
# ---------------------------------------------------------------------------------------------

# OCR confusions seen in roman labels. Each garbled character maps to the roman letters it may
# stand for. "l", "1", "|", "!", "í", "J", "T" for I (a serif I read as T: "ÅT" = XV); "Å", "K",
# "H", "Y" for X; "U", "Y", "\\/" for V. Only used through `label_distance`, never by
# `parse_label` except for the unambiguous lower-case l and digit 1 next to other roman letters.
_CONFUSABLE: dict[str, str] = {
    "I": "I", "i": "I", "l": "I", "1": "I", "|": "I", "!": "I", "í": "I", "ì": "I",
    "j": "I", "J": "I", "T": "IV", "t": "I", "f": "I", "L": "IL", "]": "I", "[": "I",
    "X": "X", "x": "X", "Å": "X", "å": "X", "K": "X", "k": "X", "H": "X", "Ä": "X", "Y": "XV",
    "V": "V", "v": "V", "U": "V", "u": "V", "y": "V", "W": "VV",
    "C": "C", "c": "C", "D": "D", "M": "M",
}  # fmt: skip


_ARABIC_LABEL_RE = re.compile(r"(\d{1,3})\s*-?\s*(?:[A-Za-z]|bis|ter|quater)?")
#: The ordinal marks printed after an article number: "Artigo 4°", "Artigo 1º", "Artigo 1˚".
ORDINAL_MARKS = "º°˚"
#: Article numbers printed as words: Portuguese ordinals ("Artigo Primeiro", "ARTIGO
#: SEGUNDO", "Artigo Único" for a sole article) and English ones ("Article First").
ORDINAL_WORDS = {
    "primeiro": 1, "segundo": 2, "terceiro": 3, "quarto": 4, "quinto": 5, "sexto": 6,
    "sétimo": 7, "oitavo": 8, "nono": 9, "décimo": 10, "único": 1,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
#: Cardinal number words from zero to nineteen, and the tens, in English, Portuguese and
#: Swedish: numbers printed in words in dates ("the fifteenth", "vinte e cinco dias") and in
#: rates ("quinze por cento", "femton procent").
CARDINAL_UNITS: dict[str, dict[str, int]] = {
    "en": {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
           "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
           "eighteen": 18, "nineteen": 19},
    "pt": {"zero": 0, "um": 1, "uma": 1, "dois": 2, "duas": 2, "três": 3, "tres": 3,
           "quatro": 4, "cinco": 5, "seis": 6, "sete": 7, "oito": 8, "nove": 9, "dez": 10,
           "onze": 11, "doze": 12, "treze": 13, "catorze": 14, "quatorze": 14, "quinze": 15,
           "dezesseis": 16, "dezasseis": 16, "dezessete": 17, "dezassete": 17, "dezoito": 18,
           "dezenove": 19, "dezanove": 19},
    "sv": {"noll": 0, "en": 1, "ett": 1, "två": 2, "tre": 3, "fyra": 4, "fem": 5, "sex": 6,
           "sju": 7, "åtta": 8, "nio": 9, "tio": 10, "elva": 11, "tolv": 12, "tretton": 13,
           "fjorton": 14, "femton": 15, "sexton": 16, "sjutton": 17, "arton": 18,
           "nitton": 19},
}
CARDINAL_TENS: dict[str, dict[str, int]] = {
    "en": {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
           "eighty": 80, "ninety": 90},
    "pt": {"vinte": 20, "trinta": 30, "quarenta": 40, "cinquenta": 50, "sessenta": 60,
           "setenta": 70, "oitenta": 80, "noventa": 90},
    "sv": {"tjugo": 20, "trettio": 30, "fyrtio": 40, "femtio": 50, "sextio": 60,
           "sjuttio": 70, "åttio": 80, "nittio": 90},
}
_LABEL_SUFFIX_RE = re.compile(r"\d{1,3}\s*-?\s*([A-Za-z]|bis|ter|quater)", re.IGNORECASE)


def label_suffix(label: str | None) -> str:
    """The suffix of an inserted article's label: "21A", "26-A", "10 a" -> "A"; "5 bis" ->
    "bis"; "" for a plain label ("21", "XV", "二十一")."""
    m = _LABEL_SUFFIX_RE.fullmatch((label or "").strip().rstrip("." + ORDINAL_MARKS))
    if not m:
        return ""
    suffix = m.group(1)
    return suffix.upper() if len(suffix) == 1 else suffix.lower()
_GARBLED_ROMAN_RE = re.compile(r"[IVXLl1]+")
_ROMAN_LETTER_RE = re.compile(r"[IVX]")


@lru_cache(maxsize=4096)  # labels are short tokens, read again and again
def parse_label(s: str) -> int | None:
    """The number an article label stands for, without context.

    Arabic ("10", "１０", "10A", "26-A", "5 bis" -> 10, 10, 10, 26, 5), roman ("X", "xiv"), Chinese ("十", "二十三") and the
    safe OCR repairs of roman labels: lower-case "l" and digit "1" inside a roman label read
    as I ("Xl" -> 11, "XVll" -> 17, "X1" -> 11). Anything else (e.g. "ÅT") -> None: use
    `plausible_label` with the expected number instead.
    """
    s = _halfwidth_digits(s.strip().rstrip(".:" + ORDINAL_MARKS))
    if not s:
        return None
    m = _ARABIC_LABEL_RE.fullmatch(s)  # "26-A", "12A": the number is 26, 12
    if m:
        return int(m.group(1))
    if all(c in CN_NUMERAL_CHARS for c in s):
        return parse_chinese(s)
    if s.lower() in ORDINAL_WORDS:
        return ORDINAL_WORDS[s.lower()]
    # A lone "l" is 50 or a garbled I: ambiguous, left to context.
    if s == "l":
        return None
    # One case throughout: a true roman numeral ("XIV", "xiv", "xl" = 40).
    if s.isupper() or s.islower():
        n = parse_roman(s)
        if n is not None:
            return n
    # "Xl", "XVll", "X1": l/1 among upper-case roman letters read as I. Require at least one
    # real upper-case roman letter so a bare "1" stays arabic.
    if _GARBLED_ROMAN_RE.fullmatch(s) and _ROMAN_LETTER_RE.search(s):
        return parse_roman(s.replace("l", "I").replace("1", "I"))
    return None


def label_distance(s: str, n: int) -> float:
    """How far printed label `s` is from any way of printing `n` (arabic, roman): an edit
    distance where an OCR-confusable substitution costs 0.3 and anything else 1."""
    s = s.strip().rstrip(".:")
    if not s:
        return float("inf")
    targets = [str(n)]
    if 0 < n < 4000:
        targets.append(to_roman(n))
    return min(_weighted_edit(s, t) for t in targets)


def _weighted_edit(s: str, t: str) -> float:
    prev = [float(j) for j in range(len(t) + 1)]
    for i, a in enumerate(s, 1):
        cur = [float(i)] + [0.0] * len(t)
        for j, b in enumerate(t, 1):
            if a == b:
                sub = 0.0
            elif b in _CONFUSABLE.get(a, "") or a.upper() == b:
                sub = 0.3
            else:
                sub = 1.0
            cur[j] = min(prev[j - 1] + sub, prev[j] + 1.0, cur[j - 1] + 1.0)
        prev = cur
    return prev[-1]


def plausible_label(s: str, expected: int) -> bool:
    """Whether printed label `s` can be a reading of `expected`.

    An exact parse must equal `expected`. An unparseable label is plausible when it is
    closer to `expected` (arabic or roman) than to its neighbours and within a small
    OCR distance: "ÅT" is plausible for 15 (X~Å, V~T) when the sequence expects XV.
    """
    n = parse_label(s)
    if n is not None:
        return n == expected
    d = label_distance(s, expected)
    if d > 1.3:
        return False
    return all(d <= label_distance(s, k) for k in (expected - 1, expected + 1) if k > 0)


# ---------------------------------------------------------------------------------------------
# Regex builders
# ---------------------------------------------------------------------------------------------

# A label token as printed after "Article": arabic with optional letter suffix ("26-A"),
# roman, or a short OCR-garbled roman token made of confusable characters ("Xl", "ÅT").
# Suffixed insertions: "21A", "26-A", "5 bis", and a lone lower-case letter at the line's end
# ("Artikel 10 a", "Artikel 10 A"), which elsewhere would be a sentence ("Article 5 a) …" is not a heading).
_LABEL_TOKEN = (r"(?:(?i:" + "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True)) + r")\b"
                r"|\d{1,3}(?:\s?-\s?[A-Za-z]\b|[A-Za-z]\b|\s?-?\s?(?:bis|ter|quater)\b|\s[A-Za-z](?=\s*$))?\b"
                r"|[IVXLCivxlc1|!ÅåTJYKHU]{1,7}\b)")


def _spaced(word: str) -> str:
    """`word` normally or letter-spaced ("C H A P T E R"), case-insensitively."""
    return "(?:" + re.escape(word) + "|" + r"\s".join(re.escape(c) for c in word) + ")"


@cache
def article_heading_re() -> re.Pattern[str]:
    """A line that opens an article, in en/pt/sv (and markdown): named groups `word`,
    `label`, `title` (text printed after the label on the same line, may be empty).

    - "ARTICLE 10", "Article X", "ARTIGO 5", "Artigo I", "Artikel XVII", "Art. 3"
    - OCR: "Artiele II" (c read as e), "Artic1e", "Articie", "Artigö"
    - markdown "##Article 5" (no space after the hashes), "**Article 5**"
    - letter-spaced "A R T I C L E 5"
    - "Article 5 - Dividends", "Article 5. Dividends", "Art. 10 Dividends": title on the line
    - "Article 5A", "Artikel 26-A": lettered insertions keep the letter in `label`
    Not: "Article shall apply" (no label), "Article 5 of the Convention shall" (decided by
    `segment`, which checks that the title is heading-like).
    """
    word = (
        r"(?P<word>"
        r"ART[I1l][CÇ][L1I][EÉ]|Art[i1l][cCe][l1i][eé]|Articie"
        r"|ART[I1l]GO|Art[i1l]g[oö]"
        r"|ARTIKEL|Artikel|Art[i1l]kel"
        r"|ARTICULO|ARTÍCULO|Art[ií]culo"
        r"|" + _spaced("ARTICLE") + "|" + _spaced("ARTIGO") + "|" + _spaced("ARTIKEL") + "|"
        r"Art\.(?:º|o)?"
        r")"
    )
    return re.compile(
        r"^\s*+(?:#{1,6}\s*+)?(?:\*\*)?\s*+" + word + r"\s*(?P<label>" + _LABEL_TOKEN + r")"
        r"\s*[" + ORDINAL_MARKS + r"]?\s*(?:\*\*)?\s*(?:[-–—.:]\s*)?(?P<title>(?:.*\S)?)\s*$"
    )


#: A Chinese number as printed after 第: Chinese numerals, or Arabic digits (half or
#: fullwidth) with or without blanks around them ("第 12 条").
_ZH_NUMBER = r"\s*(?P<{name}>[" + CN_NUMERAL_CHARS + r"]{{1,6}}|[0-9０-９]{{1,4}})\s*"


@cache
def article_heading_zh_re() -> re.Pattern[str]:
    """A Chinese article heading, in Simplified or Traditional script: "第二十三条 标题",
    "第二十三條 標題", "第２３条", "第23条：标题", "第 1 条", "第 12 條".

    Groups `label` (as printed) and `title` (rest of the line; `segment` decides whether it
    is a title or the article's first sentence, as in regulations: "第一条 为加强…").
    """
    return re.compile(either_script(
        r"^\s*第" + _ZH_NUMBER.format(name="label") + r"条(?:之[一二三四五六七八九])?"
        r"[\s　:：、.．]*(?P<title>.*?)\s*$"
    ))


@cache
def chapter_heading_re() -> re.Pattern[str]:
    """Chapter headings: "CHAPTER I", "C H A P T E R III", "### CHAPTER  V", "Chapter 2",
    "CAPÍTULO IV", "Kapitel 3", "Avsnitt 1", "第一章 总则". Groups `label`, `title`."""
    latin = (
        "(?:" + "|".join(_spaced(w) for w in ("CHAPTER", "CAPÍTULO", "CAPITULO", "KAPITEL", "AVSNITT"))
        + r"|Chapter|Capítulo|Capitulo|Kapitel|Avsnitt)"
    )
    return re.compile(
        r"^\s*(?:#{1,6}\s*)?(?:" + latin + r"\s*(?P<label>[IVXLC]+(?:\s[IVXLC])*|\d{1,2})\b"
        r"|第" + _ZH_NUMBER.format(name="zlabel") + "章)"
        r"\s*[-–—.:]?\s*(?P<title>.*?)\s*$",
        re.IGNORECASE,
    )


# Paragraph label styles. Each returns (style, value) from `paragraph_label`.
# - "dot":    "1. text", "1.The text", "2.a) text" (glued before a word or a point); not
#             "1.5 million"
# - "paren":  "(1) text"
# - "sect":   "§ 1. text", "§1 text", "§ 1 text"
# - "dash":   "1 - text", "1 – text" (Portuguese statutes: "1 - Os dividendos")
# - "rparen": "1) text"  (a paragraph at top level; a point under "§ 1." — context decides)
# - "cn":     "一、text", "1、text"
# - "fw":     "１．text", "1．text"  (a paragraph at top level; a point when nested under "一、")
_PARA_PATTERNS: tuple[tuple[str, str], ...] = (
    ("sect", r"§\s*(?P<n>\d{1,2})\s*\.?(?:\s+|$)"),
    ("dot", r"(?P<n>\d{1,2})\s?\.(?:\s+(?!\d)|$|(?=[A-ZÀ-ÝÅÄÖ][a-zà-ýåäö]|[a-z]\)))"),
    ("paren", r"\((?P<n>\d{1,2})\)\s*"),
    ("dash", r"(?P<n>\d{1,2})\s+[-–—]\s+"),
    ("rparen", r"(?P<n>\d{1,2})\)\s*"),
    ("cn", r"(?P<n>[一二三四五六七八九十]{1,3}(?=\s*[、，,])|\d{1,2}(?=\s*、))\s*[、，,]"),
    ("fw", r"(?P<n>[０-９]{1,2}(?=\s*[．.])|\d{1,2}(?=\s*．))\s*[．.]"),
)


@cache
def paragraph_label_re() -> re.Pattern[str]:
    """Paragraph labels at the start of a line; exactly one named group `s_<style>` matches,
    the value is in `n_<style>`."""
    parts = [
        "(?P<s_" + style + ">" + pat.replace("(?P<n>", "(?P<n_" + style + ">") + ")"
        for style, pat in _PARA_PATTERNS
    ]
    return re.compile(r"^\s*(?:" + "|".join(parts) + ")")


# Point label styles:
# - "alpha":   "a) text", "a. text" is NOT taken (too many sentence starts "A. Smith")
# - "palpha":  "(a) text"
# - "roman":   "i) text", "iv) text"
# - "proman":  "(i) text", "(iv) text"
# - "ualpha":  "A) text" (1965 print)
# - "cnparen": "（一）text", "(一) text"
# - "rparen":  "1) text" when nested under "§ 1." / "1." (shared with paragraphs)
# - "fw":      "１．text", "1．text" when nested under "一、"
# - "dash":    "- text", "– text" (bullets) -- value None, continue the current point
_POINT_PATTERNS: tuple[tuple[str, str], ...] = (
    ("proman", r"\((?P<n>(?:i{1,3}|iv|v|vi{1,3}|ix|x|xi{1,3}))\)\s*"),
    ("palpha", r"\((?P<n>[a-z])\)\s*"),
    ("roman", r"(?P<n>(?:i{1,3}|iv|v|vi{1,3}|ix|x|xi{1,3}))\)\s*"),
    ("alpha", r"(?P<n>[a-z])\)\s*"),
    ("ualpha", r"(?P<n>[A-Z])\)\s*"),
    ("cnparen", r"[（(](?P<n>[一二三四五六七八九十]{1,3})[）)]\s*"),
    ("rparen", r"(?P<n>\d{1,2})\)\s*"),
    ("fw", r"(?P<n>[０-９]{1,2}(?=\s*[．.])|\d{1,2}(?=\s*．))\s*[．.]"),
)


@cache
def point_label_re() -> re.Pattern[str]:
    """Point labels at the start of a line; named groups `s_<style>` / `n_<style>`."""
    parts = [
        "(?P<s_" + style + ">" + pat.replace("(?P<n>", "(?P<n_" + style + ">") + ")"
        for style, pat in _POINT_PATTERNS
    ]
    return re.compile(r"^\s*(?:" + "|".join(parts) + ")")


def _style(m: re.Match[str]) -> str:
    """The style whose alternative matched: its group `s_<style>` encloses `n_<style>`, so
    it is the last group closed (one alternative of the label regexes matches, at most)."""
    return m.lastgroup[2:]  # type: ignore[index]


def paragraph_label(text: str) -> tuple[str, int, int] | None:
    """("dot", 3, end) for "3. The term…"; None when the line has no paragraph label."""
    m = paragraph_label_re().match(text)
    if not m:
        return None
    style = _style(m)
    raw = m.group("n_" + style)
    value = parse_chinese(raw) if style in ("cn", "fw") else int(raw)
    return (style, value, m.end()) if value else None


# OCR-garbled paragraph labels, accepted only where the expected next number fits:
# "(3t The competent…" (")" read as "t"), "(l) …" / "(I) …" / "t. …" (1 read as l, I, i or
# t), "§ l. …", "8 3. …" / "$ 3. …" (§ read as 8 or $), "2 As regards …" / "3, The …" / "3: The
# …" (the stop lost, or read as a comma or a colon, before a capital).
_GARBLED_PARA = {
    "paren": re.compile(r"^\s*\((?P<n>[\dlI]{1,2})[tl1\]}|)]?\s+"),
    "sect": re.compile(r"^\s*[§$8]\s*(?P<n>[\dlI]{1,2})\s*[.,]?\s+"),
    "dot": re.compile(r"^\s*(?P<n>[\dlIit]{1,2})\s?[.,:]?\s+(?=[A-ZÀ-Ý])"),
}


def garbled_paragraph_label(text: str, style: str | None, expected: int) -> int | None:
    """End offset of an OCR-garbled paragraph label of `style` reading as `expected`, else
    None. Only for the style the article already uses, and only the expected next number,
    so a garbled reading never invents a paragraph out of order."""
    pat = _GARBLED_PARA.get(style or "")
    if pat is None:
        return None
    m = pat.match(text)
    if not m:
        return None
    digits = m.group("n").translate(_ONE)
    return m.end() if digits.isdigit() and int(digits) == expected else None


#: The letters a scan reads for the digit 1.
_ONE = str.maketrans("lIit", "1111")


def point_labels(text: str) -> list[tuple[str, str, int]]:
    """Every reading of a point label at the start of `text`: "i)" is both letter i and roman
    one; the caller picks by context. Values: "a", "i", "1", "一" as printed (lower-cased)."""
    m = point_label_re().match(text)
    if not m:
        return []
    style = _style(m)
    out = [(style, m.group("n_" + style), m.end())]
    # "i)", "v)", "x)": roman one/five/ten, or the ninth/22nd/24th letter.
    if out and out[0][0] == "roman" and len(out[0][1]) == 1:
        out.append(("alpha", out[0][1], out[0][2]))
    if out and out[0][0] == "proman" and len(out[0][1]) == 1:
        out.append(("palpha", out[0][1], out[0][2]))
    return out


@lru_cache(maxsize=4096)  # (style, label token): a few hundred distinct pairs
def point_value(style: str, raw: str) -> int:
    """Ordinal of a point label within its style: a->1, iv->4, （三）->3, １->1."""
    if style in ("alpha", "palpha", "ualpha"):
        return ord(raw.lower()) - ord("a") + 1
    if style in ("roman", "proman"):
        return parse_roman(raw) or 0
    return parse_chinese(raw) or 0


@cache
def article_reference_re() -> re.Pattern[str]:
    """References to articles inside text: "Article 11", "Artigo 27 (Intercâmbio de
    Informações)", "artikel XVII", "Ad Article 4", "第十二条". Groups `label`, `paren` (a
    parenthesised title right after the number)."""
    return re.compile(
        r"(?:\b(?:Articles?|Artigos?|Artikl?e?ln?|Art\.)\s+(?P<label>\d{1,3}|[IVXL]{1,6})\b"
        r"(?:\s*\(\s*[\"“”']?(?P<paren>[^)\"“”']{3,80})[\"“”']?\s*\))?"
        r"|第(?P<zlabel>[" + CN_NUMERAL_CHARS + r"0-9]{1,5})条)"
    )


# Literals that every match of `article_reference_re` / `paragraph_reference_re` starts with
# (no two of a list can overlap in a text, so scanning for them finds every start).
_ARTICLE_REFERENCE_START_RE = re.compile(r"Art|第")
_PARAGRAPH_REFERENCE_START_RE = re.compile(r"paragraph|parágrafo|paragrafo|número|§|punkt|第")


def _finditer_at(pattern: re.Pattern[str], starts: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for a pattern whose every match begins where `starts` matches:
    the pattern is tried only there (a leading word boundary still sees the character before it)."""
    end = 0
    for c in starts.finditer(text):
        at = c.start()
        if at < end:
            continue
        m = pattern.match(text, at)
        if m is not None:
            end = m.end()
            yield m


def article_references(text: str) -> Iterator[re.Match[str]]:
    """`article_reference_re().finditer(text)`, trying the pattern only where a match can start."""
    return _finditer_at(article_reference_re(), _ARTICLE_REFERENCE_START_RE, text)


def paragraph_references(text: str) -> Iterator[re.Match[str]]:
    """`paragraph_reference_re().finditer(text)`, trying the pattern only where a match can
    start."""
    return _finditer_at(paragraph_reference_re(), _PARAGRAPH_REFERENCE_START_RE, text)


@cache
def paragraph_reference_re() -> re.Pattern[str]:
    """"paragraph 8 of Article 11", "parágrafo 2 do Artigo 20", "§ 2 av artikel XII",
    "第十一条第七款" (article first in Chinese). Groups `para`, `art` (or `zart`, `zpara`)."""
    return re.compile(
        r"(?:\b(?:paragraph|parágrafo|paragrafo|número|§|punkt)\s+(?P<para>\d{1,2})"
        r"\s+(?:of|do|da|de|av|i)\s+(?:the\s+)?(?:Article|Artigo|artigo|artikel|Artikel|Art\.)"
        r"\s+(?P<art>\d{1,3}|[IVXL]{1,6})\b"
        r"|第(?P<zart>[" + CN_NUMERAL_CHARS + r"0-9]{1,5})条第(?P<zpara>[" + CN_NUMERAL_CHARS
        + r"0-9]{1,3})款)"
    )
