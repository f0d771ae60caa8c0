"""The citation grammar: named regex builders (eyecite ``regexes.py`` style) and the words that
tell a citation's language, in en, pt, sv and zh.

Each builder finds one component. ``COMPONENTS`` lists them in the order `parse_citation`
applies them; the matches of each are *masked* (blanked) in a working copy of the text before
the next runs, so a word is never read twice ("protokollet punkt 4" is a protocol item, and
its "punkt" is not read again as a paragraph). That order is part of the grammar. Every
pattern runs on folded text (lower case, no accents: ``countries.fold``).
"""

from __future__ import annotations

import re

from indexer.segment.numerals import CN_NUMERAL_CHARS

ARABIC = r"\d{1,3}"
ROMAN = r"[ivxlcdm]{1,8}"  # validated by indexer.segment.numerals.parse_roman
CHINESE = rf"[{CN_NUMERAL_CHARS}]{{1,8}}|\d{{1,3}}"
# Point labels: a, aa, ii. Digits are accepted after an explicit point word ("item 3").
LETTERS = r"[a-z]{1,4}"
# Ordinal marks after a number: "10.º", "2º" (pt).
ORDINAL = r"(?:\s*\.?\s*[º°ª])?"
# The end of a number: no letter or digit follows, except an ordinal mark ("º" is a letter).
NUM_END = r"(?!(?![º°ª])\w)"
# Treaty ids and codes are ASCII; a CJK character right after them is a boundary
# ("br-pe-2006第十条"), so these use ASCII look-arounds, not \b.
_NOT_ASCII_WORD_BEFORE = r"(?<![a-z0-9-])"
_NOT_ASCII_WORD_AFTER = r"(?![a-z0-9-])"


def words(*alternatives: str) -> str:
    """Whole-word alternation: ``words("art", "artigo")`` does not match inside "parte"."""
    return r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)"


def paren_tail(para: str = "tpara", point: str = "tpoint") -> str:
    """``(2)(a)`` / ``(2)`` / ``(a)`` right after a number, spaces allowed: "10 (2) (a)"."""
    return rf"(?:\s*\((?P<{para}>{ARABIC})\))?(?:\s*\((?P<{point}>{LETTERS})\))?"


def treaty_id_regex() -> str:
    """``br-pe-2006``, ``BR-PE``, ``pe-br-2006`` (normalised), ``BR/PE``, ``br–pe``."""
    return (
        rf"{_NOT_ASCII_WORD_BEFORE}(?P<codes>[a-z]{{2}}(?:[-–—/][a-z]{{2}})+)"
        rf"(?:-(?P<year>(?:18|19|20)\d\d))?{_NOT_ASCII_WORD_AFTER}"
    )


def multilateral_id_regex() -> str:
    """``nordic-1996``: a short name of three letters or more, a hyphen, the year."""
    return (
        rf"{_NOT_ASCII_WORD_BEFORE}(?P<name>[a-z][a-z0-9]{{2,19}})-(?P<year>(?:18|19|20)\d\d)"
        rf"{_NOT_ASCII_WORD_AFTER}"
    )


PROTOCOL_WORDS = words("protocol", "protocolo", "protokollet", "protokoll")
ITEM_WORDS = r"item|punkt|point|paragraph|paragrafo|para|art(?:icle|igo|ikel)?|n\.?\s*º|no"


def protocol_regex() -> str:
    """``Protocol 4``, ``Protocolo, item 4``, ``protokollet punkt 4``, ``Protocol 4(2)(a)``.

    Edge case: a number must follow directly or after an item word; "Protocol of 2006" is
    the whole protocol (and 2006 is then read as the year).
    """
    return (
        rf"(?P<kw>{PROTOCOL_WORDS})"
        rf"(?:[\s,]*(?:(?P<sub>{ITEM_WORDS})\.?)?\s*(?P<num>{ARABIC}|{ROMAN}){NUM_END}{ORDINAL}"
        rf"{paren_tail()})?"
    )


def protocol_reversed_regex() -> str:
    """``item 4 do Protocolo``, ``punkt 4 i protokollet``, ``paragraph 4 of the Protocol``."""
    return (
        rf"(?<!\w)(?P<sub>{ITEM_WORDS})\.?\s*(?P<num>{ARABIC}){NUM_END}{ORDINAL}[\s,]*"
        rf"(?:of\s+the|of|do|da|i|till|in\s+the|in)\s+(?P<kw>{PROTOCOL_WORDS})"
    )


def zh_protocol_regex() -> str:
    """``议定书第二条`` (item 2), ``議定書第四款``, ``议定书`` (the whole protocol)."""
    return rf"(?P<kw>议定书|議定書)(?:第(?P<num>{CHINESE})(?:条|條|款|项|項|点|點))?"


#: The suffix of an inserted article: "21A", "26-A", "5bis" (after digits only).
INSERTED = r"(?:(?<=\d)-?(?P<suffix>bis|ter|quater|[a-z])(?![a-z]))?"


def article_regex() -> str:
    """``Art. 10``, ``Article 10(2)(a)``, ``artigo 10.º``, ``artikel VII``, ``art 10 (2)``,
    an inserted article ``Art. 21A(2)``, ``artikel 26-A``."""
    return (
        rf"(?P<kw>{words('article', 'artigo', 'artikel', 'art')})\.?\s*"
        rf"(?P<num>{ARABIC}|{ROMAN}){INSERTED}{NUM_END}{ORDINAL}{paren_tail()}"
    )


def bare_article_regex() -> str:
    """A bare article number with its paragraph, as after a treaty id: ``7(2)``, ``10(2)(a)``
    (read last, so that any number a keyword names is taken first)."""
    return rf"(?<![\w.(-])(?P<num>{ARABIC}){INSERTED}(?=\s*\(\d){paren_tail()}"


def zh_article_regex() -> str:
    """``第十条``, ``第二十三條``, ``第10条``."""
    return rf"第(?P<num>{CHINESE})(?:条|條)"


def point_regex() -> str:
    """``subparagraph (a)``, ``alínea a)``, ``letra b``, ``item ii``, ``inciso iv``, ``led a``.

    Runs before the paragraph builder so that "sub-paragraph" is not read as "paragraph".
    """
    keyword = words(
        "subparagraph",
        "sub-paragraph",
        "subpara",
        "alinea",
        "letra",
        "letter",
        "item",
        "inciso",
        "point",
        "led",
    )
    return (
        rf"(?P<kw>{keyword})\.?\s*"
        rf"(?:\((?P<num>{LETTERS}|\d{{1,2}})\)|(?P<num2>{LETTERS}|\d{{1,2}})\)?(?!\w))"
    )


def paragraph_regex() -> str:
    """``para 2``, ``paragraph 2``, ``parágrafo 2``, ``parágrafo (1)``, ``§ 2``, ``punkt 2``,
    ``n.º 2``.

    A point may follow: ``para 2 (a)``, ``punkt 2 a)``, ``punkt 2 a``. Edge case: a bare
    letter with no bracket is a point only at the end or before punctuation, or when it is
    not a short word of the four languages ("e" and, "i" in, "o" the, "y"): so
    "punkt 2 i avtalet" has no point but "punkt 2 a avtalet" has point a.
    """
    names = words(
        "paragraph", "paragrafo", "paragraf", "para", "par", "punkt", "stycket", "stycke", "mom"
    )
    keyword = rf"{names}\.?|§|(?<!\w)n\.?\s*º"
    return (
        rf"(?P<kw>{keyword})\s*(?P<open>\()?(?P<num>{ARABIC})(?(open)\)){NUM_END}{ORDINAL}"
        rf"(?:\s*(?:\((?P<tpoint>{LETTERS})\)|(?P<tpoint2>{LETTERS})\)"
        rf"|(?P<tpoint3>[a-z])(?=\s*(?:$|[,;:.]))|(?P<tpoint4>[a-df-hj-np-xz])(?=\s)))?"
    )


def zh_paragraph_regex() -> str:
    """``第二款``."""
    return rf"第(?P<num>{CHINESE})款"


def zh_point_regex() -> str:
    """``第（一）项``, ``第一项``, ``（一）``; Chinese numbers map to letters (一 -> a)."""
    return (
        rf"第\s*[（(]?(?P<num>{CHINESE}|{LETTERS})[）)]?(?:项|項)"
        rf"|[（(](?P<num2>[零〇一二三四五六七八九十]{{1,3}})[）)](?:项|項)?"
    )


def eid_regex() -> str:
    """A pasted unit id: ``art_10__para_2__point_a``, ``prot_4``, ``pt/art_10`` (with the
    language of the version), as in the full id ``br-pe-2006/pt/art_10__para_2``."""
    return (
        rf"{_NOT_ASCII_WORD_BEFORE}(?:(?P<lang>en|pt|sv|zh)/)?"
        r"(?:(?P<prot>prot)|art)_(?P<num>\d{1,3})(?:__para_(?P<tpara>\d{1,3}))?"
        r"(?:__point_(?P<tpoint>[a-z0-9]{1,4}))?(?![\w-])"
    )


def year_regex() -> str:
    """A year of signature: ``2006``, ``2006年``; not part of a longer number."""
    return r"(?<!\d)(?P<year>(?:18|19|20)\d\d)(?!\d)"


#: The components in the order they are read (each masked before the next): ids first, then
#: protocol items (whose item words would otherwise be read as articles or paragraphs), then
#: articles, points (before paragraphs: "sub-paragraph"), paragraphs.
COMPONENTS: tuple[tuple[str, str], ...] = (
    ("eid", eid_regex()),
    ("treaty-id", treaty_id_regex()),
    ("multilateral-id", multilateral_id_regex()),
    ("zh-protocol", zh_protocol_regex()),
    ("protocol-reversed", protocol_reversed_regex()),
    ("protocol", protocol_regex()),
    ("article", article_regex()),
    ("zh-article", zh_article_regex()),
    ("point", point_regex()),
    ("paragraph", paragraph_regex()),
    ("zh-paragraph", zh_paragraph_regex()),
    ("zh-point", zh_point_regex()),
    ("bare-article", bare_article_regex()),
)

# Words that tell which language a citation is written in (folded). "art", "para", "§" and
# "(2)(a)" are shared by several languages: they count for English only if nothing else does.
KEYWORD_LANG = {
    "article": "en", "paragraph": "en", "subparagraph": "en", "sub-paragraph": "en",
    "subpara": "en", "letter": "en", "point": "en", "protocol": "en",
    "artigo": "pt", "paragrafo": "pt", "alinea": "pt", "letra": "pt", "item": "pt",
    "inciso": "pt", "protocolo": "pt", "nº": "pt",
    "artikel": "sv", "punkt": "sv", "stycket": "sv", "stycke": "sv", "led": "sv",
    "paragraf": "sv", "mom": "sv", "protokollet": "sv", "protokoll": "sv",
}  # fmt: skip
#: Small words around a citation, each a vote for its language.
CONTEXT_WORDS = {
    "en": words("of", "the", "between", "convention", "treaty", "agreement", "and"),
    "pt": words("da", "do", "entre", "convencao", "acordo", "tratado", "e"),
    "sv": words("avtalet", "avtal", "konventionen", "mellan", "och", "i"),
}
CJK = re.compile(r"[\u3400-\u9fff]")
