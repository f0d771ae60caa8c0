"""What one line of a treaty is: an article or chapter heading, a title-like line, the first
line of a numbered paragraph, or one of the formulas that delimit the treaty's parts
(instrument title, "agreed as follows", closing, signatures, protocol)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from indexer.hanzi import either_script
from indexer.segment.numerals import (
    article_heading_re,
    article_heading_zh_re,
    chapter_heading_re,
    paragraph_label,
    parse_label,
    point_labels,
)

Label = tuple[str, int, int]  # a `paragraph_label`: style, value, end

# ---------------------------------------------------------------------------------------------
# The formulas around the articles
# ---------------------------------------------------------------------------------------------

# (The Chinese alternatives are written in Simplified characters: `either_script` adds the
# Traditional forms, 议定书 議定書, 协定 協定, 签订 簽訂 …)
PROTOCOL_RE = re.compile(either_script(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?(?:additional\s+|protocolo\s+adicional|tilläggs)?"
    r"(?:PROTOCOL|Protocol|PROTOCOLO|Protocolo|PROTOKOLL|Protokoll|P\sR\sO\sT\sO\sC\sO\sL|议定书)"
    # alone, or as the title of the protocol: "Protocol to the Convention between …"
    r"(?:\s*+(?:\w{0,3})?\s*+|\s++(?:to|till|ao|à|do|da|of|on|between|mellan|entre)\s[^.;:]{0,300})\s*+(?:\*\*)?\s*+$"),
    re.IGNORECASE,
)
CLOSING_RE = re.compile(either_script(
    r"^\s*(?:in\s+witness\s+whereof|in\s+faith\s+whereof|em\s+testemunho|em\s+fé\s+do\s+que"
    r"|till\s+bekräftelse|till\s+bevis|done\s+(?:at|in|in\s+duplicate)\b|feito\s+(?:em|na|no)\b"
    r"|som\s+skedde|本(?:协定|议定书|公约)于.{0,40}(?:签订|签署)|下列签字人|以昭信守)"),
    re.IGNORECASE,
)
# A note's own closing after its last article: the line that addresses the recipient ("2.
# Rogo a Vossa Excelência …", "I have the honour to propose … Your Excellency's reply").
ADDRESS_RE = re.compile(either_script(
    r"^.{0,160}\b(?:your\s+excellency|vossa\s+excel[êe]ncia|vossa\s+senhoria|ers\s+excellens)"
    r"|^.{0,80}阁下"),
    re.IGNORECASE,
)
# An annex after the treaty ("Annex", "ANNEX II", "Bilaga 2", "Anexo I", "附件一"): its own
# unit, never the last article's text.
ANNEX_RE = re.compile(either_script(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?(?:annex|appendix|schedule|bilaga|anexo|apêndice)"
    r"(?:\s+(?:[IVXLC]{1,5}|\d{1,2}|[A-Z]))?\s*[.:]?\s*(?:\*\*)?\s*$"
    r"|^\s*附件[一二三四五六七八九十0-9]*\s*$"),
    re.IGNORECASE,
)
SIGNATURE_RE = re.compile(either_script(
    r"\||_{3,}|签字|签名|代\s*表|\(s\.\)|\(sgd|\bfor\s+the\b|\bpel[oa]\b|\bpor\s+el\b|^\s*för\b"),
    re.IGNORECASE,
)
INSTRUMENT_RE = re.compile(either_script(
    r"^\s*(?:#{1,6}\s*)?(?:the\s+)?(?:convention|agreement|avtal|konvention|convenção|acordo"
    r"|conven[cç][aã]o|acuerdo|convenio|överenskommelse)\b"
    r"|^[^，。：；]{0,60}(?:协定|公约)[^，。：；]{0,20}$"),
    re.IGNORECASE,
)
AGREED_RE = re.compile(either_script(
    r"(?:agreed\s+as\s+follows|have\s+agreed|acordaram|convieram|överenskommit|har\s+kommit\s+överens"
    r"|达成协议如下|协议如下|议定如下)"),
    re.IGNORECASE,
)


def ends_colon(text: str) -> bool:
    return text.rstrip().endswith((":", "："))


# ---------------------------------------------------------------------------------------------
# Article and chapter headings
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    label: str
    number: int | None
    title: str  # printed on the heading line ("" when none)
    inline_text: bool  # the rest of the line is the article's first sentence, not a title


def article_heading(text: str) -> Heading | None:
    """An article heading line, or None. The rest of the line is a title when heading-like,
    else (Chinese regulations: "第一条 为加强…") the article's first sentence."""
    m = article_heading_re().match(text) or article_heading_zh_re().match(text)
    if not m:
        return _garbled_heading(text)
    label, rest = m.group("label"), m.group("title") or ""
    if rest and not heading_like(rest, 120):
        if article_heading_zh_re().match(text):
            return Heading(label, parse_label(label), "", True)
        return None  # "Article 5 of the Convention shall…": a sentence, not a heading
    return Heading(label, parse_label(label), rest, False)


_HEADING_WORDS = ("article", "artigo", "artikel", "articulo")
_GARBLED_RE = re.compile(r"(?P<word>.*?[^\W\d_].*?)\s*(?P<label>[IVXLC]{1,6}|\d{1,3})\s*\.?")
_NOT_WORD_LETTER_RE = re.compile(r"[^a-zåäöéíç]")
_ROMAN_LABEL_CHARS = "IVXLC"


#: Marks a scan leaves around a heading (specks read as punctuation), stripped before a
#: garbled heading is looked for: ". ARTIGO 2", "Article 3 .", "Article?".
_SPECKS = " \t.,:;'\"`‘’“”*+~^•|!?»«-"


def _garbled_heading(text: str) -> Heading | None:
    """A short line that is an OCR-garbled article heading: ".4 rtigo IX", "År tig o XI",
    "Artic1e 5", ". ARTIGO 2" -- letters within two edits of an article word, then a label
    (specks around them aside). (Such a word alone, its number lost, is read from its place
    among the other headings: `numbering.noisy`.)"""
    s = text.strip()
    if len(s) > 24:
        return None
    s = s.strip(_SPECKS) or s
    # `_GARBLED_RE` needs a label at the end (before blanks and one "."): checked first,
    # as the lazy word group makes a failing match backtrack over the whole line
    end = s.removesuffix(".").rstrip()[-1:]
    if not end or not (end in _ROMAN_LABEL_CHARS or end.isdecimal()):
        return None
    m = _GARBLED_RE.fullmatch(s)
    if not m:
        return None
    if m.group("word").lstrip(" .,")[:1].islower():
        return None  # "…enligt\nartikel 2.": the tail of a sentence, not a heading
    tokens = [t.lower() for t in _NOT_WORD_LETTER_RE.sub(" ", unmarked(m.group("word")).lower()).split()]
    if len(tokens) > 1 and any(t in _HEADING_WORDS for t in tokens):
        return None  # "Ad Article 4", "Till artikel 23": a reference to an article, not a garbled heading
    word = _NOT_WORD_LETTER_RE.sub("", m.group("word").lower())
    if len(word) < 4 or all(Levenshtein.distance(word, w, score_cutoff=2) > 2 for w in _HEADING_WORDS):
        return None
    label = m.group("label")
    return Heading(label, parse_label(label), "", False)


def is_chapter(text: str) -> bool:
    """A chapter heading line: the word and label, then nothing or a title ("Kapitel 2 i
    lagen …" is a sentence)."""
    m = chapter_heading_re().match(text)
    if m is None or len(text.strip()) >= 120:
        return False
    title = m.group("title")
    return not title or m.group("zlabel") is not None or heading_like(title)


def chapter_parts(text: str) -> tuple[str, str]:
    """The label and title of a chapter heading line: "C H A P T E R III" -> ("III", "");
    "### CHAPTER  V Final provisions" -> ("V", "Final provisions"); "第一章 总则" -> ("一",
    "总则")."""
    m = chapter_heading_re().match(text)
    if m is None:
        return "", unmarked(text)
    label = m.group("zlabel") or m.group("label").replace(" ", "")
    return label, unmarked(m.group("title") or "")


def is_heading_line(text: str) -> bool:
    """A printed article or chapter heading (by the heading regexes alone)."""
    return bool(article_heading_re().match(text) or article_heading_zh_re().match(text)
                or chapter_heading_re().match(text))


_TITLE_START_RE = re.compile(r"[\w“\"'«(（\u4e00-\u9fff]")


def starts_sentence(text: str) -> bool:
    s = text.lstrip(" \t\"“'«»*")
    if not s:
        return False
    c = s[0]
    return c.isupper() or "\u4e00" <= c <= "\u9fff"


# (a trailing mark's white space is tried from the start of its run only: linear time)
_MARKS_RE = re.compile(r"^\s*(?:#{1,6}|\*{1,3}|_{1,3})\s*|(?:(?<!\s)|(?!\s))\s*(?:\*{1,3}|_{1,3})\s*$")


def unmarked(text: str) -> str:
    """A line without its Markdown heading or emphasis marks: "####Dividends" -> "Dividends",
    "**Taxes covered**" -> "Taxes covered" (stripped)."""
    return _MARKS_RE.sub("", _MARKS_RE.sub("", text)).strip()


def heading_like(text: str, max_len: int = 110) -> bool:
    """A short line without sentence punctuation at its end: an article or chapter title
    (Markdown heading marks aside)."""
    s = unmarked(text)
    if not s or len(s) > max_len or s.endswith((".", ";", ":", ",", "。", "；", "：", "，")):
        return False
    if paragraph_label(s) or point_labels(s):
        return False
    return bool(_TITLE_START_RE.match(s)) and starts_sentence(s)


# ---------------------------------------------------------------------------------------------
# Numbered paragraphs
# ---------------------------------------------------------------------------------------------

# Paragraph label styles that can number an article's paragraphs (not its points).
PARA_STYLES = ("dot", "paren", "sect", "dash", "rparen", "cn", "fw")


def top_para(text: str) -> tuple[str, int] | None:
    """(style, value) when the line opens a numbered paragraph, else None."""
    return top_of(paragraph_label(text))


def top_of(pl: Label | None) -> tuple[str, int] | None:
    """`top_para` of a line from its `paragraph_label` `pl`."""
    if pl and pl[0] in PARA_STYLES:
        return pl[0], pl[1]
    return None
