"""The parties of a treaty, read from its title and preamble in en, sv, pt and zh.

A title or a preamble names its parties as one run of country names joined by "and", "och",
"e", "和", a comma: "between the Kingdom of the Netherlands and the Republic of Korea",
"Konungariket Sveriges regering och Republiken Kazakstans regering", "A República
Federativa do Brasil e a República da Colômbia", "中华人民共和国政府和巴西联邦共和国政府".
Inside that run:

- a name in parentheses is an aside ("Bermuda (as authorised by the Government of the
  United Kingdom)"), not a party;
- a name that qualifies the one before it, with no conjunction between them, is not a
  party either ("Hong Kong Special Administrative Region of the People's Republic of China");
- "A in respect of B", "A for B", "A on behalf of B": B is the party ("the Kingdom of the
  Netherlands in respect of the Netherlands Antilles").

A run of two names gives the parties; a run of three or more is a multilateral instrument,
which gets no parties (they are not guessed). A name no catalog spells so, written after a
state form ("Republic of Turkey", "Republiken Makedonien") or as an adjective before one
("Hungarian People's Republic"), is resolved to the one country it is nearest to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from indexer.sources import countries, stateforms


@dataclass(frozen=True)
class _Mention:
    code: str
    start: int
    end: int


_CONJUNCTION = re.compile(
    r"(?<![^\W\d_])(?:and|och|e|y|et|und)(?![^\W\d_])|(?<![^\W\d_])and(?=the\b)|[&,与和及同、]",
    re.IGNORECASE,
)
# "A in respect of B": B is the party, A acts for it
_ON_BEHALF = re.compile(
    r"\W*(?:in\s+respect\s+of|on\s+behalf\s+of|acting\s+(?:for|on\s+behalf\s+of)|for|"
    r"med\s+avseende\s+p[aå]|f[oö]r|em\s+rela[cç][aã]o\s+a|em\s+nome\s+de|por|代表)"
    r"\W*(?:the\s+)?",
    re.IGNORECASE,
)
_STOP = (r"for|för|and|och|e|y|para|the|on|om|concerning|relating|regarding|with|to|of|in|i|"
         r"em|sobre|relativo|avseende|beträffande|betraffande|regering|government|governo")
_WORD = r"[^\W\d_][^\W\d_'’-]{2,}"
_JOIN_GAP = 80  # characters between two names of one run, at most
_QUALIFIER_GAP = 50  # a name this close after another, without a conjunction, qualifies it


@cache
def _phrases() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a state form and the words after it, an adjective before a state's head noun)."""
    word = rf"(?!(?:{_STOP})(?![^\W\d_]))(?:{_WORD})"
    form = stateforms.form_pattern()
    return (
        re.compile(rf"(?<![\w'’])(?:{form})(?P<core>{word}(?:[\s-]+{word}){{0,2}})",
                   re.IGNORECASE),
        re.compile(rf"(?<![\w'’])(?P<adj>{word})\s+(?:(?:{stateforms.word_pattern()})\s+){{0,3}}"
                   rf"{stateforms.head_pattern()}", re.IGNORECASE),
    )


def _asides(text: str) -> str:
    """`text` with what stands in parentheses blanked (offsets kept)."""
    return re.sub(r"\([^()]*\)", lambda m: " " * len(m.group(0)), text)


def _unlisted(folded: str, taken: list[_Mention]) -> Iterable[_Mention]:
    """Names no catalog spells so, after a state form or as an adjective before one."""
    by_form, by_adjective = _phrases()

    def free(start: int, end: int) -> bool:
        return all(end <= m.start or start >= m.end for m in taken)

    for m in by_form.finditer(folded):
        words = m.group("core").split()
        for n in range(len(words), 0, -1):  # the longest reading that names a country
            code = countries.closest(" ".join(words[:n])) if free(m.start(), m.end()) else None
            if code:
                yield _Mention(code, m.start(), m.end())
                break
    for m in by_adjective.finditer(folded):
        adj = m.group("adj")
        if stateforms.is_form(adj) or not free(m.start(), m.end()):
            continue
        code = countries.from_adjective(adj)
        if code:
            yield _Mention(code, m.start(), m.end())


def mentions(text: str) -> list[_Mention]:
    """The countries named in `text` (its parentheses blanked), left to right."""
    found = [_Mention(m.code, m.start, m.end) for m in countries.find_countries(text)]
    found.extend(_unlisted(countries.fold(text), found))
    return sorted(found, key=lambda m: m.start)


def _run(text: str, found: list[_Mention]) -> list[str]:
    """The codes of the first run of names joined by conjunctions."""
    run: list[_Mention] = []
    for m in found:
        if not run:
            run.append(m)
            continue
        gap = text[run[-1].end : m.start]
        if _ON_BEHALF.fullmatch(gap):
            run[-1] = m
        elif len(gap) <= _JOIN_GAP and _CONJUNCTION.search(gap) and not re.search(r"[.;:]", gap):
            run.append(m)
        elif len(gap) <= _QUALIFIER_GAP and not _CONJUNCTION.search(gap):
            continue  # qualifies the name before it
        else:
            break
    return list(dict.fromkeys(m.code for m in run))


def find_parties(texts: Iterable[str]) -> tuple[str, ...] | None:
    """The parties named by the first of `texts` (title, preamble, ...) that names a run of
    two or more: sorted codes for two, () for more (multilateral); None if none names two."""
    for text in texts:
        if not text:
            continue
        text = _asides(re.sub(r"\s+", " ", text))
        run = _run(text, mentions(text))
        if len(run) == 2:
            return tuple(sorted(run))
        if len(run) > 2:
            return ()
    return None
