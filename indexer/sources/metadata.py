"""Guess what a manifest does not say: title, parties, date and place of signature, treaty id.

- The **title** is the document's own title line (one that begins with an instrument word:
  "Convention", "Avtal", "Convenção", or ends in "协定"), its hard breaks joined and its
  Markdown or HTML marks removed; never a `<meta …>` line or a statute's section.
- The **parties** come from the title, else the preamble, else the first lines (`parties`).
- The **date and place** come from the closing formula of the main instrument, the first
  one that signs it ("Done at The Hague, this 5th day of June 1986", "Som skedde i Stockholm
  den 7 maj 1981", "Feito em Brasília, aos 25 dias do mês de abril de 1975",
  "本协定于一九九一年八月五日在北京签订"), before a later protocol's (`dates` reads them).
- The **id** is the file's name where it has the form of one ("at-se-1959",
  "coe-oecd-mutual-assistance-1988"), else the sorted parties and year, else the name.

Each guessed field is named in `DocMeta.guessed`, so the caller can warn about it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

import pycountry

from indexer.models import DocMeta
from indexer.sources.dates import find_date, find_dates
from indexer.sources.parties import find_parties

__all__ = ["closing_text", "document_title", "find_date", "find_place", "guess", "treaty_id"]

# A title begins with the name of an instrument, or with at most three capitalised words
# and that name followed by what it is between or about ("Double Taxation Agreement between",
# "Skatteavtal mellan", not an article's "Mutual Agreement Procedure").
_INSTRUMENT_NAME = (
    r"(?:convention|agreement|treaty|protocol|arrangement|exchange\s+of\s+(?:notes|letters)|"
    r"memorandum\s+of\s+understanding|[\wåäö]*(?:avtal|konvention|överenskommelse|protokoll)|"
    r"fördrag|noteväxling|convenção|acordo|tratado|protocolo|convênio|ajuste)(?![^\W\d_])"
)
_INSTRUMENT = re.compile(
    rf"^{_INSTRUMENT_NAME}|^(?-i:(?!(?:The|This|That|Each|Such|Den|Det|Detta|Denna|Este|Esta)\s)"
    rf"[A-ZÀ-Þ][\w'’-]*\s+){{1,3}}?{_INSTRUMENT_NAME}\s+(?:between|mellan|entre|with|med|com|"
    rf"on|om|for|för|para|sobre|concerning|relating|regarding|amending|to|of)\b",
    re.IGNORECASE,
)
_ZH_INSTRUMENT = re.compile(r"^[^，。：；]{6,120}(?:协定|協定|协议|協議|公约|公約|议定书|議定書|条约|條約)$")
_MARKUP = re.compile(r"<[^<>]{0,200}>|^\s*#+\s*|[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}|\\(?=[^\w\s])")
_HEADING = re.compile(r"^(?:article|artikel|artigo|chapter|kapitel|cap[ií]tulo|avsnitt|第)\b",
                      re.IGNORECASE)
_TITLE_MAX = 500


def _unmarked(line: str) -> str:
    """A line without Markdown/HTML marks, its whitespace made single spaces."""
    return re.sub(r"\s+", " ", _MARKUP.sub("", line)).strip(" *_#")


def _is_title(text: str) -> bool:
    return (bool(_INSTRUMENT.match(text) or _ZH_INSTRUMENT.match(text))
            and len(text) <= _TITLE_MAX and "§" not in text and not text.endswith((".", ":", ";")))


# Words a title cannot end with, and those a broken title's next line may begin with.
_OPEN_END = frozenset({
    "of", "and", "the", "for", "to", "on", "with", "in", "between", "av", "och", "för", "på",
    "om", "i", "mellan", "samt", "de", "da", "do", "das", "dos", "e", "a", "o", "em", "para",
    "sobre", "entre", "ao", "aos",
})
_GOES_ON = frozenset({
    "and", "of", "for", "to", "on", "with", "in", "och", "av", "för", "på", "om", "samt", "e",
    "de", "da", "do", "das", "dos", "ao", "aos", "em", "para", "sobre",
})


def _continues(title: str, last: str, line: str) -> bool:
    """True if `line` goes on with a title broken over lines after its `last` piece: a piece
    that ends in a word no title ends in; in an upper-case title, more upper-case words set
    in short lines or beginning with a joining word ("E DA ELISÃO FISCAIS"); in any other, a
    line that starts in lower case."""
    if not line or _HEADING.match(line) or _INSTRUMENT.match(line) or len(title) > _TITLE_MAX:
        return False
    open_end = last.split()[-1].lower() in _OPEN_END
    if title.isupper():
        return line.isupper() and (open_end or len(last) < 80
                                   or line.split()[0].lower() in _GOES_ON)
    return open_end or line[0].islower()


def document_title(lines: Sequence[str]) -> tuple[str | None, int]:
    """The document's title and the index of the line after it; (None, 0) if it has none."""
    for i, raw in enumerate(lines):
        text = last = _unmarked(raw)
        if not _is_title(text):
            continue
        j = i + 1
        while j < len(lines) and j - i < 16 and _continues(text, last, _unmarked(lines[j])):
            last = _unmarked(lines[j])
            text = f"{text} {last}"
            j += 1
        if len(text.split()) >= 3 or _ZH_INSTRUMENT.match(text):  # not a bare "PROTOCOL"
            return text, j
    return None, 0


def _clean_title(title: str | None) -> str | None:
    """A segmented title as one clean line, or None when it is not a title (a statute's
    section, a preamble's first words)."""
    text = _unmarked(title or "")
    return text if text and _is_title(text) else None


# ---------------------------------------------------------------------------------------
# Closing formula: date and place
# ---------------------------------------------------------------------------------------

# A closing formula's cue, at the start of a line or a sentence ("Convention.DONE at"). The
# white space before the cue is bounded (200 characters of indentation and blank lines): an
# unbounded one made each line start of a long blank run rescan the rest of it (quadratic;
# minutes on a 1 MB text of one line or of blank lines).
_CUE = re.compile(
    r"(?:^|(?<=[.*:;]\s)|(?<=[.*:;]))\s{0,200}(?:done|feit[oa]|(?:som|vilket)\s+skedde|"
    r"upprättat|utfärdat|undertecknat|signed|assinad[oa]|hecho|"
    r"in\s+(?:witness|faith)\s+whereof|till\s+bekräftelse|"
    r"till\s+yttermera\s+visso|em\s+(?:testemunho|fé)\s+do\s+que)\b|"
    r"本(?:协定|協定|议定书|議定書|协议|協議)[于於]|[于於](?=[〇零○一二三四五六七八九0-9０-９]{4}\s*年)|"
    r"(?P<after>[订訂][于於])",
    re.IGNORECASE | re.MULTILINE,
)
_SIGNS_PROTOCOL = re.compile(
    r"(?:this|the\s+present|detta|denna|este|o\s+presente|本)\s*"
    r"(?:additional\s+|tilläggs)?(?:protocol|protokoll|protocolo|议定书|議定書|exchange)",
    re.IGNORECASE,
)
_PLACE_WORD = r"(?:[A-ZÀ-ÞÅÄÖ][\w'’.-]*)"
_PLACE_LINK = r"(?:de|da|do|dos|das|es|of|am|an|upon|on|el|la|del)"
# (a lookahead: one candidate at each preposition, "in DUPLICATE AT LONDON" gives two)
_PLACE = re.compile(
    rf"(?=(?<![\w])(?i:at|in|i|em|en|à|a|na|no)\s+"
    rf"(?i:the\s+city\s+of\s+|cidade\s+d[eo]\s+|staden\s+)?"
    rf"(?P<place>(?:the\s+)?{_PLACE_WORD}(?:\s+(?:{_PLACE_LINK}\s+)?{_PLACE_WORD}){{0,3}}))"
)
# Words that follow "in"/"at" in a closing but name no place: how many copies, a language.
_NOT_PLACES = frozenset({
    "duplicate", "triplicate", "quadruplicate", "two", "three", "four", "single", "one",
    "original", "originals", "copy", "copies", "exemplar", "exemplars", "duplicata",
    "dois", "tres", "três", "exemplares", "två", "tre", "ett", "witness", "faith",
    "this", "respect",
})
_PLACE_STOP = frozenset({
    "this", "on", "the", "den", "aos", "ao", "em", "in", "at", "i", "på", "day", "and", "och",
    "e", "le", "done", "two", "duplicate",
})
_ZH_PLACE = re.compile(
    r"在(?P<place>[\u4e00-\u9fff]{2,6}?)(?:签订|簽訂|签署|簽署)|订于(?P<p2>[\u4e00-\u9fff]{2,4})"
)


@cache
def _language_names() -> frozenset[str]:
    """Names of languages in en (a closing's "in English" is no place)."""
    return frozenset(lang.name.lower() for lang in pycountry.languages
                     if hasattr(lang, "alpha_2"))


def _place_name(words: str) -> str | None:
    """The place in the capitalised words after "at"/"i"/"em", or None if they name none."""
    kept: list[str] = []
    for word in words.split():
        low = word.lower().strip(".,")
        if kept and low in _PLACE_STOP:
            break
        kept.append(word.rstrip(","))
    while kept and kept[-1].lower() in {"de", "da", "do", "dos", "das", "of", "on", "am", "an"}:
        kept.pop()
    first = next((w.lower() for w in kept if w.lower() != "the"), "")
    if not first or first in _NOT_PLACES or first in _language_names():
        return None
    place = " ".join(kept).rstrip(".")
    place = place.title() if place.isupper() and len(place) > 3 else place
    return place[0].upper() + place[1:]  # "the Hague"


def find_place(text: str) -> str | None:
    """The place of signature in a closing formula (after its cue when it has one)."""
    cue = _CUE.search(text)
    text = re.sub(r"\s+", " ", text[(cue.start() if cue.group("after") else cue.end())
                                     if cue else 0 :])
    m = _ZH_PLACE.search(text)
    if m:
        return m.group("place") or m.group("p2")
    first_date = find_dates(text)
    end = first_date[0][1] if first_date else len(text)
    for m in _PLACE.finditer(text, 0, min(len(text), end + 40)):
        place = _place_name(m.group("place"))
        if place:
            return place
    return None


@dataclass(frozen=True)
class _Closing:
    text: str  # from its cue on
    signed: str
    protocol: bool  # the formula signs a protocol or an exchange, not the main instrument


def _closing(text: str, segmented: bool = False) -> _Closing | None:
    """The closing formula in `text`: its cue followed by a date within 300 characters; in
    a formula the segmenter found, without a cue, its first date."""
    cues = [(cue.start(), bool(cue.group("after"))) for cue in _CUE.finditer(text)]
    for start, after in cues or ([(0, False)] if segmented else []):
        if after:  # "二〇一三年五月三十一日订于北京": the date before the cue
            start = max(0, text.rfind("\n", 0, start) + 1, start - 30)
        dates = find_dates(text[start : start + 300])
        if dates:
            signing = text[max(0, start - 200) : start + dates[0][0]]
            return _Closing(text[start:], dates[0][2], bool(_SIGNS_PROTOCOL.search(signing)))
    return None


def _closings(lines: Sequence[str], segmented: Sequence[str]) -> list[_Closing]:
    """The closing formulas found: the segmented ones (in document order), else those the
    lines hold (a cue line with the one before and the two after)."""
    found = [c for c in (_closing(t, segmented=True) for t in segmented) if c]
    if found:
        return found
    out = []
    for i, line in enumerate(lines):
        if _CUE.search(line):
            c = _closing("\n".join(lines[max(0, i - 1) : i + 3]))
            if c:
                out.append(c)
    return out


def closing_text(lines: Sequence[str], segmented: Sequence[str] = ()) -> str:
    """The closing formula of the main instrument: the first that does not sign a protocol
    (the base treaty's, before its later protocols'), else the first; "" if none."""
    found = _closings(lines, segmented)
    main = [c for c in found if not c.protocol] or found
    return main[0].text if main else ""


# A treaty's signature named in its title or a statute's first lines: "Protocol amending the
# Convention signed at Brasília on 25 April 1975", "som Sverige och Korea undertecknade den 27
# maj 1981", "öppnades för undertecknande den 25 januari 1988", "Konventionen av den 23 juli
# 1990".
_SIGNED = re.compile(
    r"\b(?:signed|signature|undertecknade?s?|undertecknat|undertecknande|assinad[oa]s?|"
    r"assinatura)\b|签订|签署|(?:convention|agreement|treaty|avtal(?:et)?|konvention(?:en)?|"
    r"convenção|acordo|tratado)\s+(?:of|av\s+den|de)\s+(?=\d)",
    re.IGNORECASE,
)


def _signature_mention(title: str | None, lines: Sequence[str]) -> str:
    """The words from a signature verb to the date after it, in the title or the first
    lines, when no closing formula has one; "" if none."""
    for text in (title or "", *lines[:8]):
        for m in _SIGNED.finditer(text):
            dates = find_dates(text[m.start() : m.start() + 120])
            if dates:
                return text[m.start() : m.start() + dates[0][1]]
    return ""


# ---------------------------------------------------------------------------------------
# Treaty id
# ---------------------------------------------------------------------------------------

_YEAR_TAIL = re.compile(r"-(1[6-9]\d\d|20\d\d)(?:-(?:1[6-9]\d\d|20\d\d))?$")


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _id_from_name(stem: str) -> str | None:
    """The id a file's name gives: "at-se-1959" (codes and a year) as it is, "brazil-peru-2006"
    (country names) as sorted codes, "coe-oecd-mutual-assistance-1988" (a short name and a
    year) as it is; None for a name without that form."""
    from indexer.sources.countries import lookup

    if stem != _slug(stem) or not _YEAR_TAIL.search(stem):
        return None
    words = _YEAR_TAIL.sub("", stem).split("-")
    if all(len(w) == 2 for w in words):
        return stem
    codes = [lookup(w) for w in words]
    if all(codes) and len(set(codes)) == len(codes) >= 2:
        return "-".join(sorted(c.lower() for c in codes)) + _YEAR_TAIL.search(stem).group(0)
    return stem


def treaty_id(parties: Sequence[str], year: int | str | None, fallback: str) -> str:
    """`br-pe-2006` from parties and year; a slug of `fallback` (with the year when known and
    not in it) where they are unknown. Never a made-up year."""
    y = str(year)[:4] if year else None
    if len(parties) >= 2 and y:
        return "-".join(sorted(p.lower() for p in parties)) + f"-{y}"
    slug = _slug(fallback) or "treaty"
    if y and not re.search(r"(?<!\d)\d{4}(?!\d)", slug):
        slug += f"-{y}"
    return slug


def _stem(file: str) -> str:
    """A file's name without its folders and extensions ("en/br-pe-2006.en.txt" -> "br-pe-2006")."""
    return re.sub(r"\..*$", "", file.replace("\\", "/").split("/")[-1])


# ---------------------------------------------------------------------------------------
# Guessing
# ---------------------------------------------------------------------------------------


def _signature(lines: Sequence[str], closings: Sequence[str],
               title: str | None) -> tuple[str | None, str | None]:
    """(date, place) of signature: from the main instrument's closing formula, else from a
    mention of its signature; the place, where that formula names none, from the first
    closing formula that names one, dated or not."""
    closing = closing_text(lines, closings) or _signature_mention(title, lines)
    signed = find_date(closing) if closing else None
    place = find_place(closing) if closing else None
    for line in lines:
        if place:
            break
        if _CUE.search(line):
            place = find_place(line)
    return signed, place


def guess(meta: DocMeta, lines: Sequence[str], title: str | None = None,
          closings: Sequence[str] = ()) -> DocMeta:
    """Fill the empty fields of `meta` from the text: `lines` (the document's lines), `title`
    and `closings` (the segmented title and closing formulas, in document order, when the
    segmenter found them). Each filled field is named in `guessed`."""
    found_title, after = document_title(lines)
    found_title = found_title or _clean_title(title)
    fields: dict[str, object] = {}
    if not meta.parties:
        preamble = " ".join(lines[after : after + 5] if found_title else lines[:5])
        fields["parties"] = find_parties([found_title or "", preamble, " ".join(lines[:8])])
    if not (meta.signed and meta.place):
        signed, place = _signature(lines, closings, found_title)
        fields["signed"] = meta.signed or signed
        fields["place"] = meta.place or place
    fields["title"] = meta.title or found_title
    found = {k: v for k, v in fields.items() if v and v != getattr(meta, k)}
    meta = replace(meta, **found)
    guessed = [*meta.guessed, *found]
    if not meta.treaty:
        stem = _stem(meta.file)
        meta = replace(meta, treaty=_id_from_name(stem)
                       or treaty_id(meta.parties, meta.signed, stem))
        guessed.append("treaty")
    return replace(meta, guessed=tuple(guessed))
