"""The instruments in one file's version of a treaty: where each begins (its title line:
"PROTOCOL AMENDING THE CONVENTION …", "Protokoll om ändring av avtalet …", "PROTOCOLO DE
ALTERAÇÃO …", "Exchange of Notes", "Excellency,"), its lines, its kind, when and where it
was signed (its closing formula), and when it enters into force or has effect where its text
says so as a date.

The segment stage's units are read as lines in reading order, whatever kind the segmenter
gave them (an amending protocol after a convention's closing is often `other` text, or a
`protocol` with items): the text before the first later instrument's title is the base
instrument of a file that holds one (it has articles before that title).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from indexer.instruments.model import Instrument
from indexer.models import Unit

#: A title line that opens an instrument, and the kind each word makes it.
_TITLE = re.compile(
    r"^\W{0,3}(?:#+\s*)?(?:\*\*)?(?:the\s+)?(?P<word>"
    r"(?:additional\s+|amending\s+|supplementary\s+|second\s+|third\s+)?protocol(?!\s+shall)\b"
    r"|protocolo(?:\s+(?:adicional|de\s+altera[çc][ãa]o|modificativo))?\b"
    r"|(?:tilläggs|ändrings)?protokoll(?:et)?\b"
    r"|exchange\s+of\s+(?:notes|letters)|notes?\s+exchanged|troca\s+de\s+(?:notas|cartas)"
    r"|(?:not|skrift|brev)växling|memorandum\s+of\s+understanding|memorando\s+de\s+entendimento"
    r"|(?:agreement|convention|acordo|convenção|avtal|overenskommelse)\s+(?:amending|to\s+amend|"
    r"que\s+altera|de\s+alteração|om\s+ändring)"
    r"|议定书|議定書|换文|換文)",
    re.IGNORECASE)
#: An agreement whose title says it amends a treaty ("AGREEMENT BETWEEN … AMENDING THE
#: CONVENTION …", "Avtal mellan … om ändring av avtalet …").
_AMENDING_TITLE = re.compile(
    r"^\W{0,3}(?:#+\s*)?(?:agreement|convention|acordo|convenção|avtal|överenskommelse)\b"
    r"[^.;:]{0,250}\b(?:amending|to\s+amend|which\s+amends|modifying|que\s+altera|de\s+"
    r"alteração|om\s+ändring)\b", re.IGNORECASE)
#: A letter's salutation opens a note of an exchange where no title does.
_SALUTATION = re.compile(r"^\W{0,3}(?:(?:Your\s+)?Excellency|Sir|Madam|Excelência|Senhor\s+"
                         r"(?:Embaixador|Ministro)|Herr\s+(?:ambassadör|minister|statsråd)|"
                         r"Ers\s+Excellens)\s*[,:!]?\s*$", re.IGNORECASE)
#: Lines that say an instrument has effect from a date, or entered into force on one.
_EFFECT = re.compile(r"have\s+effect|shall\s+apply|shall\s+be\s+applicable|aplicar-se-ão|"
                     r"produzirão\s+efeitos|terão\s+efeito|tillämpas|ska\s+tillämpas|"
                     r"skall\s+tillämpas|äga\s+tillämpning", re.IGNORECASE)
_IN_FORCE = re.compile(r"entered\s+into\s+force|enter(?:s|ed)?\s+into\s+force\s+on\s+\d|"
                       r"(?:trädde|träder)\s+i\s+kraft\s+den\s+\d|entrou\s+em\s+vigor|"
                       r"treedt\s+in\s+werking\s+(?:per|op)\s+\d", re.IGNORECASE)


#: The longest line read as a note's dateline (characters).
_DATELINE = 80


@dataclass(frozen=True)
class _Line:
    text: str
    eid: str
    start: int  # the source line of the unit that holds it
    end: int


def _lines(units: Sequence[Unit]) -> list[_Line]:
    return [_Line(t, u.eid, u.start, u.end) for u in units for t in u.text.split("\n")]


def _spaced(text: str) -> str:
    """"P R O T O C O L" -> "PROTOCOL"."""
    s = text.strip()
    return s.replace(" ", "") if re.fullmatch(r"(?:\w ){3,}\w", s) else s


def title_kind(text: str) -> str | None:
    """The kind of instrument a title line opens, or None when it opens none."""
    s = _spaced(text)
    if _SALUTATION.match(s):
        return "exchange-of-notes"
    if len(s) > 400 or s.endswith((";", ",")):
        return None
    m = _TITLE.match(s)
    if m is None:
        return "agreement" if _AMENDING_TITLE.match(s) and len(s) <= 400 else None
    rest = s[m.end():].strip(" *#")
    if rest and len(s) > 40 and s.endswith(".") and not re.match(
            r"(?:amending|to|between|concerning|modifying|om|mellan|till|de|entre|que|à)\b",
            rest, re.IGNORECASE):
        return None  # a sentence that begins with the word ("Protocol shall …")
    word = m["word"].lower()
    if any(w in word for w in ("exchange", "notes", "troca", "växling", "换文", "換文")):
        return "exchange-of-notes"
    if "memorand" in word:
        return "memorandum"
    if any(w in word for w in ("agreement", "convention", "acordo", "convenção", "avtal",
                               "overenskommelse")):
        return "agreement"
    return "protocol"


def _first_article(units: Sequence[Unit]) -> int | None:
    return next((k for k, u in enumerate(units) if u.kind == "article"), None)


def _starts(lines: Sequence[_Line], floor: int) -> list[tuple[int, str]]:
    """(line index, kind) of each later instrument's title from line `floor` on; the notes
    of an exchange that follow one another make one exchange."""
    out: list[tuple[int, str]] = []
    for k in range(floor, len(lines)):
        kind = title_kind(lines[k].text)
        if kind is None:
            continue
        if out and k - out[-1][0] <= 3:
            continue  # a title and a salutation (or a title over two lines): one start
        if kind == "exchange-of-notes" and out and out[-1][1] == "exchange-of-notes" and \
                _SALUTATION.match(_spaced(lines[k].text)):
            continue  # the reply of an exchange
        out.append((k, kind))
    return out


def _dates(lines: Sequence[str], base: bool
           ) -> tuple[str | None, str | None, str | None, str, str | None]:
    """(signed, place, in force, the signing line, effective) an instrument's lines state;
    of a `base` (a statute or a bill around it has dates of other laws: its own come from
    the manifest and `facts`), no entry into force nor effect."""
    from indexer.sources.metadata import closing_text, find_date, find_place

    closing = closing_text(list(lines))
    signed = find_date(closing) if closing else None
    place = find_place(closing) if closing else None
    line = closing.split("\n")[0][:300] if closing else ""
    if signed is None:  # a note: its date heads it ("Stockholm, 12 May 2017"), in a short
        # line under its title (a title's date is mostly the amended treaty's: "… AMENDING
        # THE CONVENTION SIGNED AT LIMA ON 17 FEBRUARY 2006")
        for text in [t for t in lines[1:5] if len(t) <= _DATELINE] + list(lines[:1]):
            d = find_date(text)
            if d:
                signed, line, place = d, text[:300], find_place("in " + text) or place
                break
    effective = in_force = None
    for k, text in enumerate(() if base else lines):
        if effective is None and _EFFECT.search(text):  # (its dates may be in its points)
            effective = next((d for t in lines[k:k + 3] if (d := find_date(t))), None)
        if in_force is None and _IN_FORCE.search(text):
            in_force = find_date(text)
    return signed, place, in_force, line, effective


def _instrument(kind: str, lines: Sequence[_Line], lang: str, file: str, base: bool,
                title: str) -> Instrument:
    texts = [x.text for x in lines]
    signed, place, in_force, line, effective = _dates(texts, base)
    return Instrument(
        id=kind, kind=kind, lang=lang, file=file, title=title[:300], signed=signed,
        place=place, in_force=in_force, effective=effective, base=base, lines=tuple(texts),
        eids=tuple(dict.fromkeys(x.eid for x in lines)),
        start=min((x.start for x in lines), default=0), end=max((x.end for x in lines),
                                                               default=0),
        signed_line=line)


def instruments(units: Sequence[Unit], lang: str, file: str, holds_base: bool,
                base_kind: str = "convention", kind_hint: str | None = None
                ) -> list[Instrument]:
    """The instruments of one file's version (its top-level `units`, in reading order):
    with `holds_base`, the base instrument (`base_kind`) and each later one its text holds;
    else each instrument the file holds (`kind_hint`: the manifest's kind for a file whose
    text names none), in order. Their ids are made unique by the caller."""
    lines = _lines(units)
    if not lines:
        return []
    first = _first_article(units)
    if holds_base:
        floor = sum(len(u.text.split("\n")) for u in units[:first]) if first is not None else 0
        starts = _starts(lines, floor + 1)
        cut = starts[0][0] if starts else len(lines)
        out = [_instrument(base_kind, lines[:cut], lang, file, True, "")]
    else:
        starts = _starts(lines, 0)
        if not starts or starts[0][0] > 0:
            starts.insert(0, (0, kind_hint or "protocol"))
        out = []
    for n, (k, kind) in enumerate(starts):
        stop = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        out.append(_instrument(kind, lines[k:stop], lang, file, False,
                               _spaced(lines[k].text)))
    return out
