"""The model of a treaty read from its source and its gold, for the layout generator
(scripts/relayout.py): articles with their heading, title and paragraphs, each paragraph with
its label, points and text, chapter headings between them, and everything else kept verbatim.

Independent of the project, as the generator is: standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


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
