"""Re-typeset real treaties in other house styles (issue 26): the layout generator.

A treaty whose structure a reader checked (the gold in tests/cases/segments/: each article's
first and last line and its number of paragraphs) is read into a small model of its own --
articles with their heading, title and paragraphs, each paragraph with its label, points and
text, chapter headings between them, and everything else kept verbatim -- and printed again
in a `Style`: one value for each of the independent dimensions of `DIMENSIONS`, as far apart
as real publishers go (heading word and number, title placement, paragraph and point labels,
wrapping, indentation, blank lines, chapter headings, alignment, markup). `render` returns the
new text and, for each gold article, where it now starts and ends and how many paragraphs it
has: what the segmenter must find on the new text as it found on the original.

This module is independent of the project: it imports nothing from `indexer/` or `search/`
(standard library only), so the layouts it makes are not the segmenter's idea of a layout.
Used by tests/test_layouts.py (Hypothesis draws the styles) and scripts/measure_layouts.py
(figures per dimension value).
"""

from __future__ import annotations

import random
import re
import sys
import textwrap
from dataclasses import dataclass, fields
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from layout_model import Article, Chapter, Treaty, read_treaty, roman

__all__ = ["DIMENSIONS", "Style", "Treaty", "plausible", "random_style", "read_treaty", "render"]

# ---------------------------------------------------------------------------------------------
# The dimensions of a house style
# ---------------------------------------------------------------------------------------------

#: Each dimension and its values. The first value of each is the plainest.
DIMENSIONS: dict[str, tuple[str, ...]] = {
    # the word before an article's number, in the version's language (`WORDS`): its usual
    # word, upper case, abbreviated, another word ("Clause"), "§", none (the number alone), or
    # after the number ("10 artikel")
    "heading_word": ("native", "upper", "abbrev", "ABBREV", "other", "OTHER", "§", "none",
                     "number-first"),
    # how the article's number is printed
    "number": ("arabic", "roman", "roman-lower", "words", "ordinal-mark", "padded"),
    # what follows the number on the heading line
    "heading_punct": ("", ".", ":", " -", " —", ".-"),
    # where the article's title is: on the next line, after the number on the heading line,
    # there in brackets, upper case on the next line, or nowhere (a print without titles)
    "title": ("next-line", "same-line", "bracketed", "upper-next-line", "none"),
    # the label of a numbered paragraph
    "para_label": ("1.", "(1)", "1)", "1 -", "1:", "1", "[1]", "1.-", "§ 1", "1°", "10.1",
                   "1 –", "1º"),
    # the label of a lettered point
    "point_label": ("a)", "(a)", "a.", "(A)", "a -", "A."),
    # hard wrapping of running text: none (a paragraph a line), at a width, with hyphens
    "wrap": ("none", "72", "60", "90", "66-hyphen"),
    # indentation of paragraph text and points
    "indent": ("none", "first-line", "hanging", "block", "tab"),
    # blank lines between blocks: everywhere, around headings only, nowhere, two everywhere
    "blank_lines": ("all", "headings", "none", "double"),
    # chapter (part) headings between articles
    # chapter (part) headings between articles, words in the version's language (`WORDS`)
    "chapter": ("as-source", "part", "chapter-arabic", "title", "section", "same-line-title",
                "none"),
    # headings centred (leading spaces) or not
    "align": ("left", "center"),
    # heading markup: plain text, Markdown hashes, bold
    "markup": ("plain", "markdown", "bold"),
}

#: Values never looked at while the segmenter was tuned: the held-out house styles.
HELD_OUT: dict[str, frozenset[str]] = {
    "heading_word": frozenset({"OTHER", "number-first"}),
    "number": frozenset({"padded"}),
    "heading_punct": frozenset({".-"}),
    "title": frozenset({"upper-next-line"}),
    "para_label": frozenset({"[1]", "1 –", "1º"}),
    "point_label": frozenset({"A."}),
    "wrap": frozenset({"90"}),
    "indent": frozenset({"tab"}),
    "blank_lines": frozenset({"double"}),
    "chapter": frozenset({"section"}),
    "align": frozenset(),
    "markup": frozenset(),
}


#: Values written after the segmenter was tuned, measured once (`measure_layouts.py
#: --fresh`), never in the tests: the nearest this project has to a publisher it does not
#: have. Each is a form no rule lists and none of the values above prints.
FRESH: dict[str, tuple[str, ...]] = {
    "heading_word": ("No.", "Art"),  # "Article No. 5", "Art 5"
    "number": ("bracketed",),  # "Article (5)"
    "title": ("dash-upper",),  # "ARTICLE 5 — DIVIDENDS" style: the title in capitals after a dash
    "para_label": ("1 .", "(1.)", "1/", "1 )"),
    "point_label": ("a/", "(a.)", "a:"),
    "wrap": ("50",),
    "indent": ("deep",),
    "chapter": ("division", "book"),
    "markup": ("underscores",),
}


#: A second set written after the first held-out measurement (`FRESH`) had been made and
#: acted on, measured once by `measure_layouts.py --fresh2`: forms none of the above prints.
FRESH2: dict[str, tuple[str, ...]] = {
    "heading_word": ("[Article]", "split"),  # "[Article 5]"; "Article" / "5" on two lines
    "title": ("slash",),  # "Article 5 / Dividends"
    "para_label": ("¶ 1", "(1.1)"),
    "point_label": ("(aa)", "(i)"),  # doubled letters; roman numerals in brackets
    "chapter": ("part-words",),  # "PART TWO"
    "wrap": ("justified",),  # wrapped at 72 and justified with extra blanks
}


#: A third set, written after the second had been measured and acted on, measured once by
#: `measure_layouts.py --fresh3`.
FRESH3: dict[str, tuple[str, ...]] = {
    "heading_word": ("Art.º",),  # "Art.º 5", as Portuguese statutes abbreviate
    "number": ("ordinal-words",),  # "Article Fifth", "Article Twenty-First"
    "title": ("dot-leader",),  # "Article 5 ........ Dividends"
    "para_label": ("I.", "1°)"),  # roman paragraph numbers; an ordinal mark and a bracket
    "point_label": ("i.",),  # roman point numbers with a stop
    "blank_lines": ("paged",),  # pages of 50 lines, each with a running header and a number
}


#: A fourth set, written after the third had been measured and acted on, in a later session,
#: measured once by `measure_layouts.py --fresh4` before any change made for it.
FRESH4: dict[str, tuple[str, ...]] = {
    "heading_word": ("lower",),  # "article 5", a web page's heading in lower case
    "heading_punct": (" :",),  # "Article 5 :", as French typography spaces a colon
    "title": ("quoted",),  # 'Article 5 "Dividends"'
    "para_label": ("1.)", "(1)."),
    "point_label": ("a]", "A)"),
    "wrap": ("40",),  # a narrow column
    "chapter": ("roman-title",),  # "II. TAXATION OF INCOME": a number and a title, no word
    "markup": ("italic",),  # "*Article 5*"
}

#: Every set written after tuning, in the order written.
FRESH_SETS = (FRESH, FRESH2, FRESH3, FRESH4)


@dataclass(frozen=True)
class Style:
    heading_word: str = "native"
    number: str = "arabic"
    heading_punct: str = ""
    title: str = "next-line"
    para_label: str = "1."
    point_label: str = "a)"
    wrap: str = "none"
    indent: str = "none"
    blank_lines: str = "all"
    chapter: str = "as-source"
    align: str = "left"
    markup: str = "plain"

    def held_out(self) -> bool:
        """Has this style a value of a held-out house style?"""
        return any(getattr(self, d) in HELD_OUT[d] for d in DIMENSIONS)

    def name(self) -> str:
        return ",".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                        if getattr(self, f.name) != f.default)


#: Numbers a heading without a word before it is printed with ("10", "X."; not "Five"), and
#: one with the word after it ("10 artikel").
_NUMBERS_ALONE = {"none": ("arabic", "roman", "padded"), "§": ("arabic", "padded"),
                  "number-first": ("arabic", "padded", "ordinal-mark"),
                  "No.": ("arabic", "roman", "padded"), "Art": ("arabic", "roman", "padded"),
                  "Art.º": ("arabic", "roman", "padded")}


def plausible(style: Style) -> bool:
    """Does a publisher print that way: no number in words or roman after a "§", none
    before "artikel" …?"""
    allowed = _NUMBERS_ALONE.get(style.heading_word)
    return allowed is None or style.number in allowed


def random_style(rng: random.Random, *, held_out: bool | None = None, **fixed: str) -> Style:
    """A plausible style with every dimension drawn at random but `fixed`; `held_out`: False
    draws only tuning values (but for `fixed`), True at least one held-out value, None any."""
    while True:
        kw = {d: fixed.get(d) or rng.choice([v for v in values if held_out is not False
                                             or v not in HELD_OUT[d]])
              for d, values in DIMENSIONS.items()}
        style = Style(**kw)
        if not plausible(style):
            continue
        if held_out is None or held_out is False or style.held_out():
            return style


#: The words of headings in each language a gold version is in.
WORDS: dict[str, dict[str, str]] = {
    "native": {"en": "Article", "sv": "Artikel", "pt": "Artigo"},
    "abbrev": {"en": "Art.", "sv": "Art.", "pt": "Art."},
    "other": {"en": "Clause", "sv": "Klausul", "pt": "Cláusula"},
    "chapter": {"en": "Chapter", "sv": "Kapitel", "pt": "Capítulo"},
    "part": {"en": "Part", "sv": "Del", "pt": "Parte"},
    "title": {"en": "Title", "sv": "Avdelning", "pt": "Título"},
    "section": {"en": "Section", "sv": "Avsnitt", "pt": "Secção"},
    "division": {"en": "Division", "sv": "Huvudavdelning", "pt": "Divisão"},
    "book": {"en": "Book", "sv": "Bok", "pt": "Livro"},
}


# ---------------------------------------------------------------------------------------------
# Printing a treaty in a style
# ---------------------------------------------------------------------------------------------

_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def number_words(n: int) -> str:
    if n < 20:
        return _WORDS[n]
    tens, unit = divmod(n, 10)
    return _TENS[tens - 2] + ("-" + _WORDS[unit] if unit else "")


def _suffix(label: str) -> str:
    m = re.fullmatch(r"\s*\d+\s*-?\s*([A-Za-z]+)\s*", label)
    return m.group(1).upper() if m else ""


_ORDINALS = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth"]
_ORDINAL_TENS = {20: "twentieth", 30: "thirtieth", 40: "fortieth"}


def _ordinal_words(n: int) -> str:
    """5 -> "Fifth", 21 -> "Twenty-First", 30 -> "Thirtieth"."""
    if n < 20:
        return _ORDINALS[n].title()
    tens, unit = divmod(n, 10)
    if not unit:
        return _ORDINAL_TENS.get(n, number_words(n)).title()
    return (_TENS[tens - 2] + "-" + _ORDINALS[unit]).title()


def _number(style: Style, n: int, label: str) -> str:
    suffix = _suffix(label)
    if suffix and style.number in ("roman", "roman-lower"):  # "XXVI-A"
        return (roman(n) if style.number == "roman" else roman(n).lower()) + "-" + suffix
    if suffix and style.number == "ordinal-mark":  # "26º-A", as Portuguese prints "26.º-A"
        return f"{n}º-{suffix}"
    if suffix:  # an inserted article keeps its arabic number and letter: "21A", "26 A"
        return f"{n}{suffix}"
    return {
        "arabic": str(n), "roman": roman(n), "roman-lower": roman(n).lower(),
        "words": number_words(n).upper() if style.heading_word in ("upper", "ABBREV", "OTHER")
        else number_words(n).title(),
        "ordinal-mark": f"{n}º", "padded": f"{n:02d}", "bracketed": f"({n})",
        "ordinal-words": _ordinal_words(n),
    }[style.number]


#: Each `heading_word` with a word: its `WORDS` table and its case.
_HEADING_FORMS = {"native": ("native", None), "upper": ("native", "upper"),
                  "abbrev": ("abbrev", None), "ABBREV": ("abbrev", "upper"),
                  "other": ("other", None), "OTHER": ("other", "upper"),
                  "number-first": ("native", "lower"), "lower": ("native", "lower")}


def _heading(style: Style, a: Article) -> list[str]:
    """The article's heading lines (with its title where the style prints it there)."""
    num = _number(style, a.number, a.label)
    form = style.heading_word
    if form == "none":
        head = num
    elif form == "§":
        head = f"§ {num}"
    elif form == "Art.º":
        head = f"Art.º {num}"
    elif form == "[Article]":
        head = f"[{WORDS['native'].get(a.lang, 'Article')} {num}]"
    elif form == "split":  # the word and the number on lines of their own
        head = f"{WORDS['native'].get(a.lang, 'Article')}\n{num}"
    elif form in ("No.", "Art"):
        head = (f"{WORDS['native'].get(a.lang, 'Article')} No. {num}" if form == "No."
                else f"Art {num}")
    else:
        table, case = _HEADING_FORMS[form]
        word = WORDS[table].get(a.lang, WORDS[table]["en"])
        word = word.upper() if case == "upper" else word.lower() if case == "lower" else word
        head = f"{num} {word}" if form == "number-first" else f"{word} {num}"
    head += style.heading_punct
    title = a.title
    if title and style.title == "dot-leader":
        head += " " + "." * max(3, 40 - len(head)) + " " + title
    elif title and style.title == "quoted":
        head += f' "{title}"'
    elif title and style.title == "slash":
        head += f" / {title}"
    elif title and style.title == "dash-upper":
        head += f" — {title.upper()}"
    elif title and style.title == "same-line":
        head += (" " if style.heading_punct else " – ") + title
    elif title and style.title == "bracketed":
        head += f" ({title})"
    out = ["\n".join(_marked(style, h, 3) for h in head.split("\n"))]  # (one block)
    if title and style.title in ("next-line", "upper-next-line"):
        out.append(_marked(style, title.upper() if style.title == "upper-next-line" else title, 4))
    return out


def _marked(style: Style, text: str, level: int) -> str:
    if style.markup == "markdown":
        text = "#" * level + " " + text
    elif style.markup == "bold":
        text = f"**{text}**"
    elif style.markup == "underscores":
        text = f"__{text}__"
    elif style.markup == "italic":
        text = f"*{text}*"
    if style.align == "center":
        text = " " * max(0, (72 - len(text)) // 2) + text
    return text


def _para_label(style: Style, article: int, n: int) -> str:
    form = style.para_label
    if form == "10.1":
        return f"{article}.{n} "
    if form == "(1.1)":
        return f"({article}.{n}) "
    if form == "I.":
        return f"{roman(n)}. "
    if form == "¶ 1":
        return f"¶ {n} "
    if form == "1":
        return f"{n} "
    if form == "§ 1":
        return f"§ {n} "
    return form.replace("1", str(n), 1) + " "


def _point_label(style: Style, value: int) -> str:
    letter = chr(96 + value) if 0 < value <= 26 else "z"
    form = style.point_label
    if form == "(aa)":
        return f"({letter}{letter}) "
    if form == "(i)":
        return f"({roman(value).lower()}) "
    if form == "i.":
        return f"{roman(value).lower()}. "
    if form in ("(A)", "A.", "A)"):
        letter = letter.upper()
    return form.replace("a", letter).replace("A", letter) + " "


def _wrapped(style: Style, label: str, text: str, point: bool) -> list[str]:
    """A block printed with its label: wrapped and indented as the style says."""
    first = {"none": "", "first-line": "    ", "hanging": "", "block": "  ", "tab": "\t",
             "deep": " " * 8}[style.indent]
    rest = {"none": "", "first-line": "", "hanging": " " * len(label), "block": "  ", "tab": "",
            "deep": " " * 8}[style.indent]
    if point and style.indent in ("hanging", "block"):
        first, rest = first + "  ", rest + "  "
    whole = label + text
    if style.wrap == "none":
        return [first + whole]
    if style.wrap == "justified":
        lines = textwrap.wrap(whole, width=72, initial_indent=first, subsequent_indent=rest,
                              break_long_words=False, break_on_hyphens=False) or [first + whole]
        return [_justified(line, 72) for line in lines[:-1]] + lines[-1:]
    width = int(style.wrap.split("-")[0])
    hyphens = style.wrap.endswith("hyphen")
    return textwrap.wrap(whole, width=width, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=hyphens) or [first + whole]


def _justified(line: str, width: int) -> str:
    """`line` spread to `width` by doubling blanks between its words, left to right."""
    lead = line[:len(line) - len(line.lstrip())]
    words = line.split()
    gaps = len(words) - 1
    if gaps < 1:
        return line
    extra = width - len(line)
    out = lead
    for k, word in enumerate(words):
        out += word
        if k < gaps:
            out += " " * (1 + extra // gaps + (1 if k < extra % gaps else 0))
    return out


class _Printer:
    """Lines printed so far, with the blank-line policy of a style."""

    def __init__(self, style: Style) -> None:
        self.style = style
        self.lines: list[str] = []

    def blank(self, heading: bool) -> None:
        policy = "all" if self.style.blank_lines == "paged" else self.style.blank_lines
        if policy == "none" or (policy == "headings" and not heading):
            return
        if self.lines and self.lines[-1].strip():
            self.lines.append("")
            if policy == "double":
                self.lines.append("")

    def add(self, lines: list[str]) -> int:
        """Add `lines`; the 1-based number of the first one."""
        start = len(self.lines) + 1
        self.lines.extend(lines)
        return start


def _chapter(style: Style, c: Chapter) -> list[str]:
    if not c.restyled:  # a second level of chapter headings, as the source prints it
        return [_marked(style, f"{c.word} {c.label}", 2)] + ([_marked(style, c.title, 2)] if c.title else [])
    form = style.chapter
    label = str(c.number) if form == "chapter-arabic" else c.label if form in (
        "as-source", "same-line-title") else roman(c.number)  # (division, book: roman)
    if form == "part-words":
        words = number_words(c.number).upper()
        return ([_marked(style, f"{WORDS['part'].get(c.lang, 'Part').upper()} {words}", 2)]
                + ([_marked(style, c.title.upper(), 2)] if c.title else []))
    if form == "roman-title":
        return [_marked(style, f"{roman(c.number)}." + (f" {c.title.upper()}" if c.title else ""), 2)]
    word = WORDS["chapter" if form in ("as-source", "chapter-arabic", "same-line-title") else form]
    word = word.get(c.lang, "Chapter").upper()
    if form == "chapter-arabic":
        word = word.title()
    if form == "same-line-title" and c.title:
        return [_marked(style, f"{word} {label} – {c.title.upper()}", 2)]
    out = [_marked(style, f"{word} {label}", 2)]
    if c.title:
        out.append(_marked(style, c.title.upper() if form != "as-source" else c.title, 2))
    return out


@dataclass(frozen=True)
class Expected:
    lang: str
    label: str
    number: int
    start: int
    end: int
    paragraphs: int


def _paged(lines: list[str], expected: list[Expected]) -> tuple[list[str], list[Expected]]:
    """`lines` in pages of 50 lines, each page with a running header on top and its number
    at the foot between blank lines, and the articles' lines moved with them."""
    out: list[str] = []
    where: list[int] = []  # new line number of each old line
    for k, line in enumerate(lines):
        if k % 50 == 0:
            if k:
                out += ["", str(k // 50), ""]
            out += ["CONVENTION FOR THE AVOIDANCE OF DOUBLE TAXATION", ""]
        out.append(line)
        where.append(len(out))
    moved = [Expected(e.lang, e.label, e.number, where[e.start - 1], where[e.end - 1], e.paragraphs)
             for e in expected]
    return out, moved


def render(treaty: Treaty, style: Style) -> tuple[str, list[Expected]]:
    """The treaty printed in `style`, and where each of its articles now is."""
    p = _Printer(style)
    expected = []
    for part in treaty.parts:
        if isinstance(part, Chapter):
            if style.chapter == "none":
                continue
            p.blank(True)
            for line in _chapter(style, part):
                p.add([line])
                p.blank(True)
        elif isinstance(part, Article):
            e = _render_article(p, style, part)
            if part.paragraphs:  # (a heading restyled outside the gold is not measured)
                expected.append(e)
        elif part:
            p.blank(True)
            p.add(list(part))
    lines = p.lines
    if style.blank_lines == "paged":
        lines, expected = _paged(lines, expected)
    return "\n".join(lines) + "\n", expected


def _render_article(p: _Printer, style: Style, a: Article) -> Expected:
    p.blank(True)
    head = _heading(style, a)  # blocks: the heading (a line, or two), its title's line
    start = p.add(head[0].split("\n"))
    end = start + head[0].count("\n")
    for line in head[1:]:
        p.blank(True)
        end = p.add([line])
    if a.verbatim is not None:
        lines = list(a.verbatim)
        while lines and not lines[-1].strip():
            lines.pop()
        first = p.add(lines)
        return Expected(a.lang, a.label, a.number, start, first + len(lines) - 1 if lines else end,
                        a.paragraphs)
    p.blank(True)
    for b in a.blocks:
        if b.kind == "para":
            label = _para_label(style, a.number, b.value or 1)
            lines = _wrapped(style, label, b.text, False)
        elif b.kind == "point":
            lines = _wrapped(style, _point_label(style, b.value or 1), b.text, True)
        else:
            lines = _wrapped(style, "", b.text, False)
        p.blank(False)
        first = p.add(lines)
        end = first + len(lines) - 1
    return Expected(a.lang, a.label, a.number, start, end, a.paragraphs)
