"""The rates one language version states: for each unit of an article on dividends,
interest, royalties or technical services (and each protocol item that limits one of those
incomes), the limits on the source state's tax, the exemptions, and the limits stated by
reference, resolved against the rates of the unit they name.

A rate belongs to the unit whose own text states it (a paragraph's text before and after its
points, a point's text): "shall not exceed:" in a paragraph and "a) 10 per cent ..." in its
point make a rate of the point.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from indexer.rates.cues import (
    EXEMPT_WORDS,
    LIMIT_WORDS,
    RATE_TOPICS,
    base_patterns,
    compiled,
)
from indexer.rates.model import Found, VersionUnit
from indexer.rates.numbers import Percent, percentages
from indexer.rates.refs import reference_target

#: How far after a limit's words its percentage may stand (characters).
LIMIT_REACH = 160
#: How much of a sentence a quote keeps (characters).
QUOTE_CHARS = 320

_CONTRAST = re.compile(r"(?:\S{1,4}\s+)?(?:However|Nevertheless|Todavia|Contudo|Entretanto|"
                       r"No\s+entanto|Sådan|Dock|Emellertid)\b", re.IGNORECASE)
#: "of the percentage provided for in": a rate that is a share of another.
_SHARE = re.compile(r"\s*(?:of|do|da|av)\s+(?:the\s+)?(?:percentage|rate|limit|percentual|taxa|"
                    r"limite|skattesats(?:en)?|procentsats(?:en)?)\s+(?:provided\s+for|laid\s+"
                    r"down|specified|mentioned|referred\s+to|previst[oa]|som\s+anges)\s+"
                    r"(?:in|n[oa]|i)\b", re.IGNORECASE)
#: Where a condition ends: its sentence's end, even where the print lost the space after it.
_CLAUSE_END = re.compile(r"(?<=[a-z\u00e0-\u00ff)])[.;](?=\s*[A-Z\u00c0-\u00dd])|[。；]")
_SENTENCE_END = re.compile(r"(?<=[.。;；])\s+(?=[A-ZÀ-Ý\"“(]|\d+\.\s)|(?<=。)")


def own_text(unit: VersionUnit, children: Sequence[VersionUnit]) -> str:
    """The text of `unit` without the text of its children (the intro of a list, the
    sentence after it)."""
    text = unit.text
    for child in children:
        at = text.find(child.text)
        if at >= 0:
            text = text[:at] + "\n" + text[at + len(child.text):]
    return text.strip()


def sentences(text: str) -> list[str]:
    """The sentences of `text`; a paragraph's label ("2.") stays with its first sentence."""
    out: list[str] = []
    for part in (p.strip() for p in _SENTENCE_END.split(text)):
        if not part:
            continue
        if out and len(out[-1]) <= 4:
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out


def _is_threshold(text: str, p: Percent) -> bool:
    return bool(compiled("THRESHOLD").search(text[max(0, p.start - 40):p.start]))


def _base(text: str) -> str | None:
    for label, pattern in base_patterns():
        if pattern.search(text):
            return label
    return None


def _condition(text: str) -> str:
    """Where the clause says on what condition ("if the beneficial owner is a company ...",
    "in all other cases"), to the end of its sentence; "" when it says none."""
    m = compiled("CONDITION").search(text)
    if not m:
        return ""
    text = _CLAUSE_END.split(text[m.start():], maxsplit=1)[0]
    return _clip(text.strip(" ;,."))


def _clip(text: str, n: int = QUOTE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _limit_rates(unit: VersionUnit, sentence: str, intro_limit: bool, before: str = ""
                 ) -> list[Found]:
    """The limits a sentence states: the first rate (not a threshold) after each limit cue,
    or the reference it names; in a point of a list whose intro is a limit, its first rate."""
    starts: list[int] = []
    lower = sentence.lower()
    cues = (compiled("LIMIT").finditer(sentence) if any(w in lower for w in LIMIT_WORDS)
            else ())
    for m in cues:
        if compiled("TAX").search(sentence[:m.start()]) or intro_limit:
            starts.append(m.end())
    if intro_limit and not starts:
        starts.append(0)
    found = [_limit_at(unit, sentence, at, intro_limit) for at in starts]
    return _with_context([f for f in found if f is not None], sentence, before)


def _limit_at(unit: VersionUnit, sentence: str, at: int, in_list: bool) -> Found | None:
    """The limit stated from `at` in `sentence` (right after its limit cue): a rate, a
    reference to one, or a share of one; None when no rate follows."""
    full = sentence[at:].lstrip()
    tail = full[:LIMIT_REACH]
    quote = _clip(sentence)
    ref = compiled("REFERENCE").search(tail[:40])
    if ref:
        return Found(unit.eid, None, sentence=quote, by_reference=True,
                     target=reference_target(tail[ref.end():], unit.eid),
                     condition=_condition(sentence), base=_base(tail))
    rate = next((p for p in percentages(tail) if not _is_threshold(tail, p)), None)
    if rate is None:
        return None
    rest = full[rate.end:]
    share = _SHARE.match(rest)
    if share:  # "50 per cent of the percentage provided for in sub-paragraph a)"
        return Found(unit.eid, None, sentence=quote, by_reference=True,
                     target=reference_target(rest[share.end():], unit.eid),
                     share=rate.value / 100, condition=_condition(sentence))
    return Found(unit.eid, rate.value, sentence=quote, words=rate.words,
                 condition=_condition(rest) or _condition(tail[:rate.start]),
                 base=_base(rest[:80]) or _base(tail[:rate.start]), in_list=in_list)


def _with_context(found: list[Found], sentence: str, before: str) -> list[Found]:
    """A rate whose own sentence states no condition and opens with "However" takes the
    sentence before it, where the condition is ("... dividends beneficially owned by a
    recognised pension fund ... However, the tax so charged shall not exceed 10 per cent")."""
    if not before or not _CONTRAST.match(sentence):
        return found
    return [f if f.condition or f.exempt else replace(f, condition=_clip(before))
            for f in found]


def _exemption(unit: VersionUnit, sentence: str) -> Found | None:
    lower = sentence.lower()
    if not any(w in lower for w in EXEMPT_WORDS):
        return None
    m = compiled("EXEMPT").search(sentence)
    if not m or not compiled("INCOME").search(sentence):
        return None
    return Found(unit.eid, 0.0, sentence=_clip(sentence), exempt=True,
                 condition=_condition(sentence[m.end():]))


def _ends_in_limit(text: str) -> bool:
    """Whether a list's intro ends in a limit with no rate after it ("shall not exceed:")."""
    last = None
    for last in compiled("LIMIT").finditer(text):
        pass
    return last is not None and not percentages(text[last.end():])


def unit_rates(unit: VersionUnit, own: str, intro_limit: bool, exemptions: bool
               ) -> list[Found]:
    """The rates the own text of `unit` states (`intro_limit`: it is a point of a list whose
    intro is a limit; `exemptions`: exemptions count, as in the articles of a rate topic)."""
    found: list[Found] = []
    parts = sentences(own)
    for k, sentence in enumerate(parts):
        found.extend(_limit_rates(unit, sentence, intro_limit and k == 0,
                                  parts[k - 1] if k else ""))
        if exemptions and not any(f.sentence == _clip(sentence) for f in found):
            ex = _exemption(unit, sentence)
            if ex is not None:
                found.append(ex)
    seen: set[tuple] = set()
    out = []
    for f in found:
        key = (f.rate, f.exempt, f.target)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _topic_of(top: VersionUnit, articles: dict[int, str | None], text: str) -> str | None:
    """A protocol item's topic: that of the article it refers to, else the income it names."""
    topic = articles.get(top.refers_to) if top.refers_to is not None else None
    if topic in RATE_TOPICS:
        return topic
    m = compiled("INCOME").search(text)
    if not m:
        return None
    word = m.group(0).lower()
    for key, stems in (("dividends", ("divid", "utdeln", "股息")),
                       ("interest", ("interest", "juros", "ränt", "利息")),
                       ("technical-services", ("techn", "técn", "tecn", "tekn", "技术")),
                       ("royalties", ("royalt", "特许"))):
        if any(word.startswith(s) for s in stems):
            return key
    return None


class _Version:
    """One language version's units, looked up by eId, with their children and the topic of
    each article."""

    def __init__(self, units: Iterable[VersionUnit]) -> None:
        self.units = list(units)
        self.by_eid = {u.eid: u for u in self.units}
        self.children: dict[str, list[VersionUnit]] = {}
        for u in self.units:
            if u.parent is not None:
                self.children.setdefault(u.parent, []).append(u)
        self.articles = {u.number: u.topic for u in self.units
                         if u.kind == "article" and u.parent is None}

    def own(self, u: VersionUnit) -> str:
        return own_text(u, self.children.get(u.eid, ()))

    def in_list_of_limit(self, u: VersionUnit) -> bool:
        """Whether `u` is a point of a list whose intro is a limit ("shall not exceed:")."""
        parent = self.by_eid.get(u.parent) if u.parent else None
        return u.kind == "point" and parent is not None and _ends_in_limit(self.own(parent))

    def under_exemption(self, u: VersionUnit) -> bool:
        """Whether `u` is a point of a list whose intro states an exemption: its points are
        that exemption's conditions ("exempt ... provided that: a) the organisation is
        itself exempt ..."), not exemptions of their own."""
        parent = self.by_eid.get(u.parent) if u.parent else None
        return (u.kind == "point" and parent is not None
                and any(_exemption(parent, s) for s in sentences(self.own(parent))))

    def scope(self, u: VersionUnit) -> tuple[str, bool] | None:
        """(topic, whether exemptions count) of a unit where rates are read: in the article
        of a rate topic (exemptions count) or a protocol item (limits only); else None."""
        top = self.by_eid.get(u.top)
        if top is None:
            return None
        if top.kind == "article" and top.topic in RATE_TOPICS:
            return top.topic, True
        if top.kind != "protocol":
            return None
        topic = _topic_of(top, self.articles, self.own(u))
        return (topic, False) if topic else None


def version_rates(units: Iterable[VersionUnit]) -> list[Found]:
    """Every rate of one language version (`units`: all of its units, in reading order),
    references resolved within it."""
    version = _Version(units)
    found: list[Found] = []
    for u in version.units:
        scope = version.scope(u)
        if scope is None:
            continue
        topic, exemptions = scope
        exemptions = exemptions and not version.under_exemption(u)
        for f in unit_rates(u, version.own(u), version.in_list_of_limit(u), exemptions):
            found.append(f.with_topic(topic, u))
    return resolve(found)


def resolve(found: list[Found]) -> list[Found]:
    """Limits by reference given the rate of the unit they name (when it states exactly
    one); one that names no rate keeps None."""
    stated: dict[str, list[Found]] = {}
    for f in found:
        if not f.by_reference:
            stated.setdefault(f.eid, []).append(f)
    out = []
    for f in found:
        if f.by_reference and f.target:
            hits = [g for g in stated.get(f.target, []) if not g.exempt]
            if len(hits) == 1 and hits[0].rate is not None:
                rate = hits[0].rate * f.share if f.share else hits[0].rate
                f = f.resolved(round(rate, 4), hits[0].base)
        out.append(f)
    return out
