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
import textwrap
from dataclasses import dataclass, field, fields

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
# The model of a treaty read from its source and gold
# ---------------------------------------------------------------------------------------------


@dataclass
class Block:
    """A run of text: a paragraph's first block (with its label), a point, or plain text."""

    kind: str  # "para", "point", "text"
    text: str  # without its label
    value: int | None = None  # the paragraph's number, the point's letter as 1, 2, …
    verbatim: list[str] | None = None  # lines printed as they were (a block not restyled)


@dataclass
class Article:
    lang: str
    number: int
    label: str
    title: str | None
    blocks: list[Block]
    paragraphs: int  # the gold's count
    verbatim: list[str] | None = None  # the lines after the heading, printed as they are


@dataclass
class Chapter:
    lang: str
    label: str  # "II", "2"
    number: int
    title: str | None
    word: str = ""  # as the source prints it
    restyled: bool = True  # the version's first chapter word (a level below keeps its own)


@dataclass
class Treaty:
    """A source as a sequence of verbatim line runs, chapters and articles."""

    parts: list[list[str] | Chapter | Article] = field(default_factory=list)


_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
          (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(n: int) -> str:
    out = []
    for value, letters in _ROMAN:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


def _roman_value(s: str) -> int | None:
    s = s.upper()
    total, i = 0, 0
    for value, letters in _ROMAN:
        while s.startswith(letters, i):
            total += value
            i += len(letters)
    return total if i == len(s) and total and roman(total) == s else None


# The source forms of numbered paragraphs, points and chapter headings (the generator's own
# reading of the gold sources, not the project's).
_PARA_FORMS = (
    re.compile(r"(\d{1,2})\.(\s+|$|(?=[A-ZÅÄÖ“\"]))"),
    re.compile(r"\((\d{1,2})\)\s*"),
    re.compile(r"§\s*(\d{1,2})\.?\s+"),
    re.compile(r"(\d{1,2})\s+[-–]\s+"),
    re.compile(r"(\d{1,2})\)\s+"),
)
_POINT_FORM = re.compile(r"\(?([a-z])\)\s*")
_CHAPTER_FORM = re.compile(
    r"^\s*(?:#+\s*)?(?:\*\*)?\s*(CHAPTER|Chapter|C H A P T E R|KAPITEL|Kapitel|AVSNITT|Avsnitt)"
    r"\s+([IVXLC]+|\d{1,2})\b\.?\s*(.*?)\s*(?:\*\*)?\s*$")
_MARKUP = re.compile(r"^\s*#+\s*|\*\*")


def _clean(line: str) -> str:
    return _MARKUP.sub("", line).strip()


def _blocks(lines: list[str]) -> list[list[str]]:
    """Runs of non-blank lines; a line opening with a paragraph or point label starts a run."""
    out: list[list[str]] = []
    prev_blank = True
    for line in lines:
        s = line.strip()
        if not s:
            prev_blank = True
            continue
        opens = any(f.match(s) for f in _PARA_FORMS) or _POINT_FORM.match(s)
        if prev_blank or opens or not out:
            out.append([s])
        else:
            out[-1].append(s)
        prev_blank = False
    return out


def _join(lines: list[str]) -> str:
    """A block's lines as one text: a word hyphenated at a line end is joined again."""
    text = lines[0]
    for line in lines[1:]:
        if re.search(r"[a-zåäöé]-$", text) and line[:1].islower():
            text = text[:-1] + line
        else:
            text += " " + line
    return text


def _shape(label: str) -> str:
    """A label's form: its digits and its blanks, whatever their count, read alike."""
    return re.sub(r"\s+", " ", re.sub(r"\d+", "#", label))


def _paragraph_starts(texts: list[str], n: int) -> dict[int, tuple[int, int]] | None:
    """Block index -> (paragraph number, label end) of the `n` numbered paragraphs of an
    article's blocks `texts`, their labels printed alike ("1.   " and "2.   ", not a nested
    list's "1.all"), or None when no form gives exactly `n`."""
    if n == 1 and not (texts and any(f.match(texts[0]) for f in _PARA_FORMS)):
        return {}  # one unnumbered paragraph
    for form in _PARA_FORMS:
        matches = [(k, m) for k, t in enumerate(texts) if (m := form.match(t))]
        for shape in sorted({_shape(m.group(0)) for _k, m in matches if m.group(1) == "1"}):
            found: dict[int, tuple[int, int]] = {}
            for k, m in matches:
                if int(m.group(1)) == len(found) + 1 and _shape(m.group(0)) == shape:
                    found[k] = (len(found) + 1, m.end())
            if len(found) == n:
                return found
    return None


def _article(lang: str, gold: dict, lines: list[str]) -> Article:
    """The model of gold article `gold` from the source `lines` (0-based; the gold's lines are
    1-based). When its title or paragraphs cannot be read back with certainty, its heading
    is still restyled, but its other lines are printed as they are (`Article.verbatim`)."""
    body = lines[gold["start"]:gold["end"]]  # after the heading line
    title = gold.get("title")
    heading = _clean(lines[gold["start"] - 1])
    verbatim = Article(lang, gold["number"], gold["label"], None, [], gold["paragraphs"],
                       verbatim=body)
    if title and title.lower() not in heading.lower():
        # the title's lines after the heading
        k, seen = 0, ""
        while k < len(body) and len(seen) < len(title):
            if body[k].strip():
                seen = (seen + " " + _clean(body[k])).strip()
            k += 1
        if seen.lower() != title.lower():
            return verbatim
        body = body[k:]
    raw = _blocks(body)
    texts = [_join(b) for b in raw]
    starts = _paragraph_starts(texts, gold["paragraphs"])
    if starts is None:
        return verbatim
    blocks = []
    for k, text in enumerate(texts):
        if k in starts:
            value, end = starts[k]
            blocks.append(Block("para", text[end:].strip(), value))
        elif (m := _POINT_FORM.match(text)) and blocks:
            blocks.append(Block("point", text[m.end():].strip(), ord(m.group(1)) - 96))
        else:
            blocks.append(Block("text", text))
    if gold["paragraphs"] == 1 and not starts:
        blocks = blocks or [Block("text", "")]
    return Article(lang, gold["number"], gold["label"], title, blocks, gold["paragraphs"])


def read_treaty(source: str, gold: dict) -> tuple[Treaty, int]:
    """The model of a gold file's source text, and how many gold articles could not be read
    into it (their headings are restyled, their other lines printed as they are)."""
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    arts = sorted(((a, v["lang"]) for v in gold["versions"] for a in v["articles"]),
                  key=lambda x: x[0]["start"])
    treaty = Treaty()
    other = _other_headings(gold)
    pos, skipped, prev_lang = 0, 0, None
    words: dict[str, list[str]] = {}
    for a, lang in arts:
        between = lines[pos:a["start"] - 1]
        if prev_lang == lang:
            treaty.parts.extend(_between(between, lang, words.setdefault(lang, [])))
        else:
            treaty.parts.extend(_verbatim(between, other))
        model = _article(lang, a, lines)
        skipped += model.verbatim is not None
        treaty.parts.append(model)
        pos, prev_lang = a["end"], lang
    treaty.parts.extend(_verbatim(lines[pos:], other))
    return treaty, skipped


def _other_headings(gold: dict) -> list[tuple[re.Pattern[str], str]]:
    """For each gold version, the pattern of its article headings (its heading word before a
    number) and its language: the same headings outside the gold (a second copy, another
    agreement in the annex) are restyled too, so that a document has one house style."""
    out = []
    for v in gold["versions"]:
        if v["articles"]:
            word = _clean(v["articles"][0]["first"]).split()[0]
            out.append((re.compile(r"^\s*(?:#+\s*)?(?:\*\*)?\s*" + re.escape(word)
                                   + r"\s+(\d{1,3}|[IVXLC]+)\s*(?:\*\*)?\s*$"), v["lang"]))
    return out


def _verbatim(lines: list[str], headings: list[tuple[re.Pattern[str], str]]) -> list:
    """Lines outside the gold's articles: printed as they are, but for article headings of a
    gold version's form, restyled (their bodies as they are; not measured)."""
    out: list = []
    run: list[str] = []
    for line in lines:
        m = next(((m, lang) for pat, lang in headings if (m := pat.match(line))), None)
        if m is None:
            run.append(line)
            continue
        label = m[0].group(1)
        number = int(label) if label.isdigit() else _roman_value(label)
        if number is None:
            run.append(line)
            continue
        out.append(run)
        out.append(Article(m[1], number, label, None, [], 0, verbatim=[]))
        run = []
    out.append(run)
    return out


def _between(lines: list[str], lang: str, words: list[str]) -> list[list[str] | Chapter]:
    """The lines between two articles of one version: chapter headings (with their title on
    the next line) and verbatim runs. `words`: the chapter words of the version met so far
    (the first is the level the style prints its way)."""
    out: list[list[str] | Chapter] = []
    k = 0
    while k < len(lines):
        m = _CHAPTER_FORM.match(lines[k])
        if m is None:
            if lines[k].strip():
                out.append([lines[k]])
            k += 1
            continue
        word, label, title = m.group(1), m.group(2), m.group(3) or None
        if word.lower() not in words:
            words.append(word.lower())
        number = int(label) if label.isdigit() else _roman_value(label)
        k += 1
        if title is None:
            j = k
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and _CHAPTER_FORM.match(lines[j]) is None and len(lines[j]) < 100:
                title, k = _clean(lines[j]), j + 1
        if number is None:
            out.append([lines[k - 1]])
        else:
            out.append(Chapter(lang, label, number, title, word, words[0] == word.lower()))
    return out


# ---------------------------------------------------------------------------------------------
# Printing a treaty in a style
# ---------------------------------------------------------------------------------------------

_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
          "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    if n < 20:
        return _WORDS[n]
    tens, unit = divmod(n, 10)
    return _TENS[tens - 2] + ("-" + _WORDS[unit] if unit else "")


def _suffix(label: str) -> str:
    m = re.fullmatch(r"\s*\d+\s*-?\s*([A-Za-z]+)\s*", label)
    return m.group(1).upper() if m else ""


_ORDINALS = ("zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
             "twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
             "nineteenth").split()
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
                  "number-first": ("native", "lower")}


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
    if form in ("(A)", "A."):
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
