"""cross-version: a token that no language of the treaty knows, which differs by OCR
confusions from a token of the aligned paragraph of another language version, is that token
(Portuguese “roj’alties” beside English and Swedish "royalties", the Swedish signatory
"V. da Cunlia" beside "V. da Cunha" in the two other versions).

Runs after alignment, over the linked paragraphs and points (and the closings, titles and
preambles, one per version), each counterpart's tokens being the evidence: a counterpart
token is confident when its own lexicon knows it or another version prints it too, and it
replaces the token only where it fits the token's language as well (its lexicon knows it,
or it is a name: capitalised). Pure: Versions and link rows in, Versions out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..models import Change, Unit, Version
from .candidates import KNOWN, recase
from .context import Normaliser, shared
from .distance import WORD, allowance, clitic, extends, hyphenated, ocr_cost
from .document import NOISY_SHARE
from .orthography import older_form

#: Links at least this confident are evidence.
MIN_LINK = 0.8
#: One unit of these kinds per version: paired by kind.
SINGLE_KINDS = ("title", "preamble", "closing")
#: A counterpart token longer or shorter than this is no reading of the token.
MAX_LENGTH_GAP = 3
#: Two counterpart tokens about equally close (within this cost): no repair.
AMBIGUOUS = 0.15

#: A repair in one top-level unit: token -> (replacement, reason).
Repairs = dict[str, tuple[str, str]]


def _walk(units: Iterable[Unit]) -> Iterable[tuple[Unit, Unit]]:
    """(top-level unit, unit) for every unit under `units`, tops included."""
    for top in units:
        stack = [top]
        while stack:
            u = stack.pop()
            yield top, u
            stack.extend(u.children)


def _noisy(version: Version) -> bool:
    words = sum(len(WORD.findall(u.text)) for u in version.units)
    fixed = sum(1 for u in version.units for ch in u.changes if ch.before != ch.after)
    return words > 0 and fixed >= NOISY_SHARE * words


def _pairs(versions: Sequence[Version], rows: Iterable[tuple]
           ) -> list[tuple[str, Unit, Unit, str, Unit, Unit]]:
    """(lang a, top a, unit a, lang b, top b, unit b) of every linked pair (both ways)."""
    where = {(v.lang, u.eid): (top, u) for v in versions for top, u in _walk(v.units)}
    out = []
    for row in rows:
        _t, eid_a, lang_a, lang_b, eid_b, level, score, _method = row[:8]
        if not eid_a or not eid_b or score < MIN_LINK or level == "article":
            continue
        a, b = where.get((lang_a, eid_a)), where.get((lang_b, eid_b))
        if a and b:
            out.append((lang_a, *a, lang_b, *b))
            out.append((lang_b, *b, lang_a, *a))
    for kind in SINGLE_KINDS:
        ones = [(v.lang, u) for v in versions for u in v.units if u.kind == kind]
        if len({lang for lang, _ in ones}) == len(ones):
            out.extend((la, ua, ua, lb, ub, ub) for la, ua in ones for lb, ub in ones if la != lb)
    return out


def _confident(tok: str, lang: str, seen_in: int) -> bool:
    return shared(lang).lex.freq(tok) >= KNOWN or seen_in >= 2


def _fits(tok: str, nz: Normaliser) -> bool:
    return nz.lex.freq(tok) >= KNOWN or tok[:1].isupper()


def _repair(tok: str, lang: str, evidence: dict[str, tuple[str, str, int]], noisy: bool,
            langs: Sequence[str]) -> tuple[str, str] | None:
    """The counterpart token `tok` (of version `lang`) stands for, with the reason.
    `evidence`: counterpart token -> (its language, where it stands, in how many versions)."""
    low = tok.lower()
    if len(low) < 4 or any(shared(x).lex.freq(low) >= KNOWN for x in langs):
        return None
    nz = shared(lang)
    if hyphenated(tok, lambda part: nz.lex.freq(part) >= KNOWN) or clitic(tok):
        return None
    scored = []
    for cand, (other, where, seen) in evidence.items():
        if abs(len(cand) - len(low)) > MAX_LENGTH_GAP or cand.lower() == low \
                or extends(low, cand):
            continue
        limit = allowance(cand, noisy)
        cost = ocr_cost(low, cand, lang, limit)
        if cost <= limit and _confident(cand, other, seen) and _fits(cand, nz) \
                and not older_form(tok, cand, lang):
            scored.append((cost, cand, other, where))
    if not scored:
        return None
    scored.sort()
    cost, cand, other, where = scored[0]
    if len(scored) > 1 and scored[1][1].lower() != cand.lower() \
            and scored[1][0] - cost < AMBIGUOUS:
        return None
    return cand, f"from {other} {where}: {cand} (OCR cost {cost:.1f})"


def _where(eid: str) -> str:
    """A unit's eId as a reader cites it: art_7__para_2 -> Art. 7(2)."""
    out = ""
    for part in eid.split("__"):
        kind, _, num = part.partition("_")
        if kind == "art":
            out += f"Art. {num}"
        elif kind == "prot":
            out += f"Protocol {num}"
        elif kind in ("para", "point") and num:
            out += f"({num})"
        else:
            out += part
    return out


def _find(versions: Sequence[Version], rows: Iterable[tuple]) -> dict[tuple[str, str], Repairs]:
    """The repairs by (language, top-level eId)."""
    langs = [v.lang for v in versions]
    noisy = {v.lang: _noisy(v) for v in versions}
    own: dict[tuple[str, str, str], set[str]] = {}
    # per unit, each counterpart token: (its language, where it stands, in how many versions)
    evidence: dict[tuple[str, str, str], dict[str, tuple[str, str, int]]] = defaultdict(dict)
    for la, top_a, ua, lb, _top_b, ub in _pairs(versions, rows):
        key = (la, top_a.eid, ua.eid)
        own.setdefault(key, set(WORD.findall(ua.text)))
        ev = evidence[key]
        for t in set(WORD.findall(ub.text)):
            prior = ev.get(t)
            ev[t] = (lb, _where(ub.eid), prior[2] + 1 if prior else 1)
    repairs: dict[tuple[str, str], Repairs] = defaultdict(dict)
    for key, toks in own.items():
        la, top = key[0], key[1]
        ev = evidence[key]
        for tok in sorted(toks - set(ev)):
            got = _repair(tok, la, ev, noisy[la], langs)
            if got is not None:
                repairs[la, top].setdefault(tok, got)
    return repairs


def _replace_in(unit: Unit, fixes: Repairs) -> Unit:
    """`unit` with every whole-word token of `fixes` replaced in its text and its children's,
    each unit's changes extended with the ones made in its own text."""
    children = tuple(_replace_in(c, fixes) for c in unit.children)
    made: list[Change] = []

    def sub(m) -> str:
        tok = m.group()
        got = fixes.get(tok)
        if got is None:
            return tok
        after = recase(got[0], tok) if not got[0][:1].isupper() else got[0]
        made.append(Change("cross-version", tok, after, got[1]))
        return after

    text = WORD.sub(sub, unit.text)
    if not made and all(a is b for a, b in zip(children, unit.children)):
        return unit
    return replace(unit, text=text, children=children, changes=unit.changes + tuple(made))


def cross_version(versions: Sequence[Version], rows: Iterable[tuple]) -> list[Version]:
    """`versions` of one treaty with the step's repairs made (the same objects where none
    were); `rows`: the treaty's link rows (see align.store_rows)."""
    repairs = _find(versions, list(rows))
    out = []
    for v in versions:
        units = tuple(_replace_in(u, repairs[v.lang, u.eid]) if (v.lang, u.eid) in repairs
                      else u for u in v.units)
        out.append(v if all(a is b for a, b in zip(units, v.units)) else replace(v, units=units))
    return out
