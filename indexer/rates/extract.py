"""The rates one language version states: for each unit of an article on dividends,
interest, royalties or technical services (and each protocol item that limits one of those
incomes), the limits on the source state's tax, the exemptions there, the limits stated by
reference (resolved against the rates of the unit they name), the branch-profits taxes
(wherever the treaty states them) and the most-favoured-nation clauses — each with its
condition read into fields (`conditions`).

A rate belongs to the unit whose own text states it (a paragraph's text before and after its
points, a point's text): "shall not exceed:" in a paragraph and "a) 10 per cent ..." in its
point make a rate of the point. A residence state's exemption of what its residents receive
is no rate (`kinds.exempting_role`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from indexer.rates import kinds
from indexer.rates.conditions import Conditions, clip, read_conditions
from indexer.rates.cues import (
    EXEMPT_WORDS,
    LIMIT_WORDS,
    RATE_TOPICS,
    base_patterns,
    compiled,
)
from indexer.rates.model import Found, VersionUnit
from indexer.rates.numbers import Percent, percentages
from indexer.rates.refs import article_target, reference_target

#: How far after a limit's words its percentage may stand (characters).
LIMIT_REACH = 160
#: How much of a sentence a quote keeps (characters).
QUOTE_CHARS = 1200

_CONTRAST = re.compile(r"(?:\S{1,4}\s+)?(?:However|Nevertheless|Todavia|Contudo|Entretanto|"
                       r"No\s+entanto|Sådan|Dock|Emellertid)\b", re.IGNORECASE)
#: "of the percentage provided for in": a rate that is a share of another.
_SHARE = re.compile(r"\s*(?:of|do|da|av)\s+(?:the\s+)?(?:percentage|rate|limit|percentual|taxa|"
                    r"limite|skattesats(?:en)?|procentsats(?:en)?)\s+(?:provided\s+for|laid\s+"
                    r"down|specified|mentioned|referred\s+to|previst[oa]|som\s+anges)\s+"
                    r"(?:in|n[oa]|i)\b", re.IGNORECASE)
#: A limit whose print lost its "per cent": "shall not exceed 10 of the gross amount".
_BARE = re.compile(r"(?P<num>\d{1,2}(?:[.,]\d{1,2})?)\s+(?:of|do|da|av)\s+(?:the\s+)?"
                   r"(?:gross|montante\s+bruto|valor\s+bruto|brutto)", re.IGNORECASE)
#: A rate opening an item of a list inside a point: "(i) 5 per cent", "1) 10 procent".
_ITEM_RATE = re.compile(r"(?:^|[:;,]\s*|\s)(?:\(?[ivx]{1,4}\)|\d\)|[a-z]\))\s*$", re.IGNORECASE)
#: A sentence that opens with an item's label ("(ii) 15 per cent").
_LABEL_START = re.compile(r"^\s*(?:\(?[ivx]{1,4}\)|\(?\d{1,2}\)|\(?[a-z]\))\s*\S", re.IGNORECASE)
#: Where a condition ends: its sentence's end, even where the print lost the space after it.
_CLAUSE_END = re.compile(r"(?<=[a-z\u00e0-\u00ff)])[.;](?=\s*[A-Z\u00c0-\u00dd])|[。；]")
_SENTENCE_END = re.compile(r"(?<=[.。;；])\s+(?=[A-ZÀ-Ý\"“(]|\d+\.\s)|(?<=。)")
#: Percentage points (a branch tax "not exceeding the rate of company tax by more than 5
#: percentage points").
_POINTS = re.compile(r"(?P<num>\d{1,2}(?:[.,]\d)?)\s+percentage\s+points?|(?P<num2>\d{1,2})\s+"
                     r"procentenheter", re.IGNORECASE)


def own_text(unit: VersionUnit, children: Sequence[VersionUnit]) -> str:
    """The text of `unit` without the text of its children (the intro of a list, the
    sentence after it)."""
    text = unit.text
    for child in children:
        at = text.find(child.text)
        if at >= 0:
            text = text[:at] + "\n" + text[at + len(child.text):]
    return text.strip()


def intro_text(unit: VersionUnit, children: Sequence[VersionUnit]) -> str:
    """The text of `unit` before its first child: the intro of its list."""
    if not children:
        return unit.text
    at = unit.text.find(children[0].text)
    return unit.text[:at] if at > 0 else own_text(unit, children)


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
    return " ".join(text.strip(" ;,.").split())


#: A sentence that opens with its condition ("If the royalties are paid for patents, the tax
#: shall not exceed 5 per cent", "Om royaltyn betalas …", "Se …", "如果…").
#: (A "however" may come first: "但是，如果…"; a Chinese word has no word boundary after it.)
_OPENS_WITH_CONDITION = re.compile(
    r"^\W{0,3}(?:\d{1,2}\.\s*)?(?:(?:however|但是|然而)\W{0,3})?"
    r"(?:(?:if|where|om|se|quando)\b|如果|倘若)", re.IGNORECASE)


def _leading_condition(before: str) -> str:
    """The condition a sentence opens with, up to its main clause (`before`: the sentence up
    to its limit's words); "" when it opens otherwise."""
    if not _OPENS_WITH_CONDITION.match(before):
        return ""
    text = re.split(r",\s*(?:the\s+tax|får|o\s+imposto|则)|，则", before, maxsplit=1)[0]
    text = re.sub(r"^\W{0,3}(?:\d{1,2}\.\s*)?(?:however|但是|然而)\W{0,3}", "", text,
                  flags=re.IGNORECASE)
    return " ".join(text.split()).strip(" ,;，")


def _clip(text: str, n: int = QUOTE_CHARS) -> str:
    return clip(text, n)


def _limit_rates(unit: VersionUnit, sentence: str, intro_limit: bool, before: str = ""
                 ) -> list[Found]:
    """The limits a sentence states: the first rate (not a threshold) after each limit cue,
    or the reference it names; in a point of a list whose intro is a limit, its first rate
    and each rate that opens an item of a list of its own ("(i) 5 per cent … (ii) 15 …")."""
    starts: list[int] = []
    lower = sentence.lower()
    cues = (compiled("LIMIT").finditer(sentence) if any(w in lower for w in LIMIT_WORDS)
            else ())
    for m in cues:
        if compiled("TAX").search(sentence[:m.start()]) or intro_limit or \
                compiled("REDUCED").match(m.group(0)):
            starts.append(m.end())
    if intro_limit and not starts:
        starts.append(0)
        starts.extend(p.start for p in percentages(sentence)[1:]
                      if _ITEM_RATE.search(sentence[max(0, p.start - 12):p.start]))
    found = [_limit_at(unit, sentence, at, intro_limit) for at in starts]
    return _with_context([f for f in found if f is not None], sentence, before)


def _limit_at(unit: VersionUnit, sentence: str, at: int, in_list: bool) -> Found | None:
    """The limit stated from `at` in `sentence` (right after its limit cue): a rate, a
    reference to one, or a share of one; None when no rate follows."""
    full = sentence[at:].lstrip()
    tail = full[:LIMIT_REACH]
    quote = _clip(sentence)
    ref = compiled("REFERENCE").search(tail[:40])
    if ref is None and not percentages(tail):
        ref = compiled("REFERENCE").search(tail)  # "the sum of the company tax plus the rate
        # provided for in paragraph 2 a)"
    if ref:
        return Found(unit.eid, None, sentence=quote, by_reference=True,
                     target=reference_target(tail[ref.end():], unit.eid),
                     condition=_condition(sentence), base=_base(tail))
    rate = next((p for p in percentages(tail) if not _is_threshold(tail, p)), None)
    if rate is None:
        bare = _BARE.match(tail) or _POINTS.search(tail)
        if bare is None:
            return None
        value = float((bare["num"] if "num" in bare.groupdict() and bare["num"] else
                       bare.groupdict().get("num2") or "0").replace(",", "."))
        rate = Percent(value, bare.start(), bare.start() + len(bare.group(0).split()[0]))
    rest = full[rate.end:]
    share = _SHARE.match(rest)
    if share:  # "50 per cent of the percentage provided for in sub-paragraph a)"
        return Found(unit.eid, None, sentence=quote, by_reference=True,
                     target=reference_target(rest[share.end():], unit.eid),
                     share=rate.value / 100, condition=_condition(sentence))
    return Found(unit.eid, rate.value, sentence=quote, words=rate.words,
                 condition=(_condition(rest) or _condition(tail[:rate.start])
                            or _leading_condition(sentence[:at])),
                 base=_base(rest[:80]) or _base(tail[:rate.start]), in_list=in_list)


def _with_context(found: list[Found], sentence: str, before: str) -> list[Found]:
    """A rate whose own sentence states no condition and opens with "However" takes the
    sentence before it, where the condition is ("... dividends beneficially owned by a
    recognised pension fund ... However, the tax so charged shall not exceed 10 per cent")."""
    if not before or not _CONTRAST.match(sentence):
        return found
    return [f if f.condition or f.exempt else replace(f, condition=" ".join(before.split()))
            for f in found]


def _exemption(unit: VersionUnit, sentence: str, context: str = "") -> Found | None:
    """The exemption of the income in the source state that `sentence` states (None for
    none, or for a residence state's exemption of what its residents receive)."""
    lower = sentence.lower()
    if not any(w in lower for w in EXEMPT_WORDS):
        return None
    m = compiled("EXEMPT").search(sentence)
    if not m or not (compiled("INCOME").search(sentence) or kinds.is_branch(sentence, context)):
        return None
    if kinds.exempting_role(sentence, m.start(), m.end(), context) == "residence":
        return None
    return Found(unit.eid, 0.0, sentence=_clip(sentence), exempt=True,
                 condition=_condition(sentence[m.end():]) or _condition(sentence[:m.start()]))


def _states_exemption(sentence: str) -> bool:
    """Whether `sentence` exempts an income (in any state)."""
    lower = sentence.lower()
    return (any(w in lower for w in EXEMPT_WORDS) and compiled("EXEMPT").search(sentence)
            is not None and compiled("INCOME").search(sentence) is not None)


def _ends_in_limit(text: str) -> bool:
    """Whether a list's intro ends in a limit with no rate after it ("shall not exceed:")."""
    last = None
    for last in compiled("LIMIT").finditer(text):
        pass
    return last is not None and not percentages(text[last.end():])


def _mfn(unit: VersionUnit, text: str) -> Found:
    """A most-favoured-nation clause, pointing at the rate it may lower."""
    ref = compiled("REFERENCE").search(text)
    target = reference_target(text[ref.end():], unit.eid) if ref else None
    return Found(unit.eid, None, sentence=_clip(text), kind="mfn",
                 target=target or article_target(text, unit.eid), condition="")


def unit_rates(unit: VersionUnit, own: str, intro_limit: bool, exemptions: bool,
               mfn: bool = True) -> list[Found]:
    """The rates the own text of `unit` states (`intro_limit`: it is a point of a list whose
    intro is a limit; `exemptions`: exemptions count, as in the articles of a rate topic;
    `mfn`: a most-favoured-nation clause counts, as in those articles and protocol items)."""
    if kinds.is_mfn(own) and not intro_limit:
        return [_mfn(unit, own)] if mfn else []
    found: list[Found] = []
    parts = sentences(own)
    for k, sentence in enumerate(parts):
        listed = intro_limit and (k == 0 or bool(_LABEL_START.match(sentence)))
        new = _limit_rates(unit, sentence, listed, parts[k - 1] if k else "")
        if exemptions and not new:
            ex = _exemption(unit, sentence, own)
            new = [ex] if ex is not None else []
        if new and kinds.is_branch(sentence, own):  # (its base says on what: no condition)
            new = [replace(f, kind="branch-profits", base=_branch_base(sentence) or f.base,
                           condition="") for f in new]
        found.extend(new)
    seen: set[tuple] = set()
    out = []
    for f in found:
        key = (f.rate, f.exempt, f.target, f.kind)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _branch_base(sentence: str) -> str | None:
    """The base of a branch-profits tax: the profits remitted, the profits after corporate
    tax, the profits."""
    if re.search(r"remit|repatriat|överför|汇出|remess", sentence, re.IGNORECASE):
        return "profits remitted"
    if re.search(r"after\s+(?:the\s+)?(?:payment|deduction)|efter\s+avdrag|após|após\s+o"
                 r"\s+pagamento|有关公司税后|after\s+having\s+been\s+taxed", sentence,
                 re.IGNORECASE):
        return "profits after corporate tax"
    return "profits"


class _Version:
    """One language version's units, looked up by eId, with their children and the topic of
    each article."""

    def __init__(self, units: Iterable[VersionUnit]) -> None:
        self.units = list(units)
        self.limit_intro: dict[str, bool] = {}  # parent eid -> its list's intro is a limit
        self.has_limit: dict[str, bool] = {}  # top eid -> its text has a limit's words
        self.by_eid = {u.eid: u for u in self.units}
        self.children: dict[str, list[VersionUnit]] = {}
        for u in self.units:
            if u.parent is not None:
                self.children.setdefault(u.parent, []).append(u)
        self.articles = {u.number: u.topic for u in self.units
                         if u.kind == "article" and u.parent is None}

    def limits(self, top: str) -> bool:
        """Whether the text of the top-level unit `top` holds a limit's words at all."""
        if top not in self.has_limit:
            low = self.by_eid[top].text.lower()
            self.has_limit[top] = any(w in low for w in LIMIT_WORDS)
        return self.has_limit[top]

    def own(self, u: VersionUnit) -> str:
        return own_text(u, self.children.get(u.eid, ()))

    def parent(self, u: VersionUnit) -> VersionUnit | None:
        return self.by_eid.get(u.parent) if u.parent else None

    def in_list_of_limit(self, u: VersionUnit) -> bool:
        """Whether `u` is a point of a list whose intro is a limit ("shall not exceed:")."""
        parent = self.parent(u)
        if u.kind != "point" or parent is None:
            return False
        if parent.eid not in self.limit_intro:
            self.limit_intro[parent.eid] = _ends_in_limit(
                intro_text(parent, self.children.get(parent.eid, ())))
        return self.limit_intro[parent.eid]

    def under_exemption(self, u: VersionUnit) -> bool:
        """Whether `u` is a point of a list whose intro states an exemption: its points are
        that exemption's conditions ("exempt ... provided that: a) the organisation is
        itself exempt ..."), not exemptions of their own."""
        parent = self.parent(u)
        return (u.kind == "point" and parent is not None
                and any(_states_exemption(s) for s in sentences(self.own(parent))))

    def scope(self, u: VersionUnit) -> tuple[str | None, bool] | None:
        """(topic, whether exemptions count) of a unit where rates are read: in the article
        of a rate topic (exemptions count), a protocol item (limits only), any other article
        (its branch-profits taxes, and limits whose base names a rate's income: topic None);
        else None."""
        top = self.by_eid.get(u.top)
        if top is None:
            return None
        if top.kind == "article" and top.topic in RATE_TOPICS:
            return top.topic, True
        if top.kind == "article":
            return None, False
        if top.kind != "protocol":
            return None
        return _topic_of(top, self.articles, self.own(u)), False


def _topic_of(top: VersionUnit, articles: dict[int, str | None], text: str) -> str | None:
    """A protocol item's topic: that of the article it refers to, else the income it names."""
    topic = articles.get(top.refers_to) if top.refers_to is not None else None
    if topic in RATE_TOPICS:
        return topic
    named = kinds.incomes(text)
    return named[0] if named else None


def _topics(f: Found, topic: str | None, own: str, referred: list[str]) -> list[str]:
    """The incomes a rate is of: the income its base names ("of the gross amount of the
    dividends") where the article's topic is another or none; for royalties and technical
    fees stated together ("royalties or technical service fees"), both; an MFN clause, each
    income it names (or the articles it refers to)."""
    if f.kind == "branch-profits":
        return ["dividends"]
    if f.kind == "mfn":
        if kinds.names_branch(own) and not kinds.incomes(own):
            return ["dividends"]  # a lower rate of the branch-profits tax
        named = [t for t in kinds.incomes(own) if t in RATE_TOPICS] or referred
        return named or ([topic] if topic else [])
    base = _after_rate(f.sentence)
    named = kinds.incomes(base) or kinds.incomes(f.sentence)
    if topic is None or (named and topic not in named and topic in ("dividends", "interest")
                         and named[0] != topic and _names_base(base)):
        return named[:1]
    out = [topic]
    pair = {"royalties": "technical-services", "technical-services": "royalties"}
    if topic in pair and pair[topic] in kinds.incomes(f.sentence):
        out.append(pair[topic])
    return out


def _after_rate(sentence: str) -> str:
    ps = percentages(sentence)
    return sentence[ps[0].end:ps[0].end + 80] if ps else ""


def _names_base(text: str) -> bool:
    return bool(re.search(r"gross|brutto|bruto|总额|belopp", text, re.IGNORECASE))


def version_rates(units: Iterable[VersionUnit], lang: str = "en") -> list[Found]:
    """Every rate of one language version (`units`: all of its units, in reading order),
    references resolved within it, each with its condition read into fields."""
    version = _Version(units)
    found: list[Found] = []
    for u in version.units:
        scope = version.scope(u)
        if scope is None:
            continue
        topic, exemptions = scope
        if topic is None and version.by_eid[u.top].kind == "article" and not version.limits(
                u.top):
            continue  # an article of no rate topic: only its limits count (branch taxes)
        exemptions = exemptions and not version.under_exemption(u)
        own = version.own(u)
        in_list = version.in_list_of_limit(u)
        top = version.by_eid[u.top]
        mfn = top.kind == "protocol" or top.topic in RATE_TOPICS
        for f in unit_rates(u, own, in_list, exemptions, mfn):
            if (topic is None and f.kind == "limit" and top.kind == "article"
                    and not _names_base(_after_rate(f.sentence))):
                continue  # a limit in an article of no rate topic: only with its income
            for t in _topics(f, topic, own, _referred_topics(version, own)):
                found.append(_with_conditions(f.with_topic(t, u), version, u, lang))
    return resolve(found)


#: A reference to one article or a list of them, as protocol items name what they concern:
#: "Ad Articles 10, 11 and 12", "Till artiklarna 11 och 12", "Ad artigos 11 e 12".
_NUMBER = r"(?:\d{1,3}|(?-i:[IVXL]{1,6}))\b"
_ARTICLE_LIST = re.compile(
    r"\b(?:articles?|artigos?|artik(?:larna|lar|eln|el)|art\.)\s+(?P<list>" + _NUMBER
    + r"(?:(?:\s*,\s*|\s+(?:and|och|e|y|en)\s+)" + _NUMBER + r")*)", re.IGNORECASE)


def _referred_topics(version: _Version, text: str) -> list[str]:
    """The rate topics of the articles `text` refers to ("Ad Articles 10, 11 and 12")."""
    from indexer.segment.numerals import parse_label

    out = []
    for m in _ARTICLE_LIST.finditer(text):
        for label in re.findall(_NUMBER, m.group("list")):
            t = version.articles.get(parse_label(label))
            if t in RATE_TOPICS and t not in out:
                out.append(t)
    return out


def _with_conditions(f: Found, version: _Version, u: VersionUnit, lang: str) -> Found:
    """`f` with its condition read into fields: from its own condition's words, and, for an
    exemption whose conditions are the points of its list, from those points."""
    clause = f.condition
    if f.exempt:  # who or what is exempt: the sentence says it, and the points of its list
        clause = " ".join([f.sentence, *(c.text for c in version.children.get(u.eid, ()))])
    if f.in_list and not clause:
        clause = f.sentence
    conditions = read_conditions(clause, lang) if clause else Conditions()
    return replace(f, conditions=conditions)


def resolve(found: list[Found]) -> list[Found]:
    """Limits by reference given the rate of the unit they name (when it states exactly
    one); one that names no rate keeps None."""
    stated: dict[str, list[Found]] = {}
    for f in found:
        if not f.by_reference and f.kind != "mfn":
            stated.setdefault(f.eid, []).append(f)
    out = []
    for f in found:
        if f.by_reference and f.target:
            hits = [g for g in stated.get(f.target, []) if not g.exempt]
            rates = {g.rate for g in hits}
            if len(rates) == 1 and hits[0].rate is not None:
                rate = hits[0].rate * f.share if f.share else hits[0].rate
                f = f.resolved(round(rate, 4), hits[0].base)
        out.append(f)
    return out
