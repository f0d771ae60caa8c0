"""Chinese texts in the legacy code pages (GB18030 and its subsets GBK and GB2312; Big5 as
Windows' cp950 or with the Hong Kong extensions), and a one-line refusal of Japanese and
Korean legacy code pages, for bytes that are not UTF-8. Without this a GB18030 file was read
as cp1252 (every byte a Latin letter: language "pt", no article found, exit 0).

The evidence is the text each code page gives: Chinese in the right one is mostly Han
characters and CJK punctuation, and nearly all of its characters (Traditional ones taken
to their Simplified forms) are among the 3,755 of GB2312's first level, which cover about
99 % of running Chinese text. Bytes read in the wrong Chinese code page decode to rare
characters (or fail to decode); a Latin text in cp1252 has too few non-ASCII characters, and
its accented letters pair up into rare ones; Korean in EUC-KR (whose bytes are those of
GB2312's common characters) has spaces between its words, which Chinese does not.
"""

from __future__ import annotations

import unicodedata

#: Chinese code pages tried, in order (each a Python codec).
CHINESE = ("gb18030", "cp950", "big5hkscs")
#: Japanese and Korean code pages recognised only to refuse them in one line.
OTHERS = {"shift_jis": "Japanese", "euc_jp": "Japanese", "euc_kr": "Korean"}
#: Fewer CJK characters than this are no evidence (two bytes of a Western text can read as
#: one Han character).
MIN_CJK = 20
#: The text must be at least this share of CJK characters (of its non-space characters)...
MIN_CJK_SHARE = 0.2
#: ...its non-ASCII characters this share of CJK ones...
MIN_CJK_OF_NON_ASCII = 0.9
#: ...and its Han characters (Simplified) this share of GB2312's first level...
MIN_COMMON_SHARE = 0.8
#: ...and few of them separated by a space (Chinese is written without spaces between
#: words; Korean in EUC-KR, whose bytes are GB2312's, reads as Han words between spaces).
MAX_SPACED_SHARE = 0.1


def _cjk(ch: str) -> bool:
    """A Han character, kana, hangul, or CJK or full-width punctuation."""
    o = ord(ch)
    return (0x3000 <= o <= 0x30FF or 0x3400 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF
            or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF or 0x20000 <= o <= 0x2FFFF)


def _han(ch: str) -> bool:
    o = ord(ch)
    return 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x2FFFF


def _common(ch: str) -> bool:
    """Is the Simplified character `ch` one of GB2312's first level (lead byte B0-D7)?"""
    try:
        code = ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return len(code) == 2 and 0xB0 <= code[0] <= 0xD7


def _looks_cjk(text: str) -> bool:
    """Is `text` mostly CJK, as a text in a CJK code page read in the right one is?"""
    visible = [c for c in text if not c.isspace()]
    non_ascii = [c for c in visible if ord(c) > 0x7F]
    cjk = sum(1 for c in non_ascii if _cjk(c))
    return (cjk >= MIN_CJK and cjk >= MIN_CJK_SHARE * len(visible)
            and cjk >= MIN_CJK_OF_NON_ASCII * len(non_ascii))


def _spaced_share(text: str) -> float:
    """The share of the Han characters of `text` followed by a space and another Han one."""
    han = spaced = 0
    for a, b, c in zip(text, text[1:], text[2:]):
        if _han(a):
            han += 1
            spaced += b == " " and _han(c)
    return spaced / han if han else 0.0


def common_share(text: str) -> float:
    """The share of the Han characters of `text`, taken to Simplified, that are common."""
    from indexer.hanzi import simplified

    han = [c for c in unicodedata.normalize("NFC", simplified(text)) if _han(c)]
    return sum(1 for c in han if _common(c)) / len(han) if han else 0.0


def chinese(data: bytes) -> tuple[str, str] | None:
    """(text, code page) when `data` is Chinese in one of the `CHINESE` code pages (the one
    whose reading has the most common characters); None otherwise."""
    best: tuple[float, str, str] | None = None
    for encoding in CHINESE:
        text = _decoded(data, encoding)
        if text is None:
            continue
        if not _looks_cjk(text) or _spaced_share(text) > MAX_SPACED_SHARE:
            continue
        share = common_share(text)
        if share >= MIN_COMMON_SHARE and (best is None or share > best[0]):
            best = (share, text, encoding)
    return (best[1], best[2]) if best else None


#: A text in a code page may hold a few bytes that are not of it (a damaged copy): read with
#: each such byte sequence replaced by U+FFFD while they are at most this share of its CJK
#: characters (more: not this code page).
MAX_BAD_SHARE = 0.01


def _decoded(data: bytes, encoding: str) -> str | None:
    """`data` in `encoding`, a few undecodable bytes replaced; None when it is not."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        pass
    text = data.decode(encoding, errors="replace")
    bad = text.count("\ufffd") - data.count("\ufffd".encode(encoding, errors="ignore") or b"-")
    cjk = sum(1 for c in text if _cjk(c))
    return text if bad <= MAX_BAD_SHARE * cjk else None


def other_cjk(data: bytes) -> str | None:
    """'Japanese (shift_jis)' or the like when `data` reads as Japanese or Korean in one of
    their legacy code pages (kana or hangul in it); None otherwise."""
    for encoding, language in OTHERS.items():
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if not _looks_cjk(text):
            continue
        kana = sum(1 for c in text if 0x3040 <= ord(c) <= 0x30FF)
        hangul = sum(1 for c in text if 0xAC00 <= ord(c) <= 0xD7AF)
        if (kana if language == "Japanese" else hangul) >= 0.05 * len(text.strip()):
            return f"{language} ({encoding})"
    return None
