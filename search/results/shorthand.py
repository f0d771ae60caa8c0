"""Practitioners' shorthand in a query: "PE definition", "LOB", "MAP time limit", "tie-breaker
rule dual resident", "183-day rule", "force of attraction". The table (`shorthand.toml`,
data about the domain) gives each abbreviation or rule name the model-convention topic of
the article it means and the words it stands for in each language.

`read(query, lang)` finds the shorthand of a plain-words query and gives the query to search
instead (each shorthand replaced by its words in `lang`, English when no language is asked
for), the topic its articles should lead with, and what was read (for "PE read as permanent
establishment"). An abbreviation is read only as typed in capitals ("MAP", never the word
"map"); a rule's name in any case, a hyphen as a space. A query with operators, quotes or
fields is left as typed.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

#: The languages the table's words are given in (and a language without words falls back
#: to the topic's own name in it).
LANGS = ("en", "pt", "sv", "zh")
_SYNTAX = re.compile(r'["()~*]|\b(?:AND|OR|NOT)\b|:')


@dataclass(frozen=True, eq=False)
class Entry:
    abbreviations: tuple[str, ...]
    names: tuple[str, ...]
    topic: str | None
    words: dict[str, str]

    def words_in(self, lang: str) -> str:
        """What this shorthand stands for in `lang`: its words, else its topic's name, else
        its English words."""
        from indexer.topics import TOPICS

        if lang in self.words:
            return self.words[lang]
        if self.topic and lang in TOPICS.get(self.topic, {}):
            return TOPICS[self.topic][lang].lower() if lang != "zh" else TOPICS[self.topic][lang]
        return self.words.get("en") or (self.names[0] if self.names else self.abbreviations[0])


@dataclass(frozen=True)
class Reading:
    """A query as read: what to search, the topic to lead with, and each shorthand read
    (typed -> words)."""

    query: str
    topic: str | None = None
    read: tuple[tuple[str, str], ...] = field(default=())


@cache
def table() -> tuple[Entry, ...]:
    """The shorthand table, read once from the package's data file."""
    raw = tomllib.loads(resources.files("search.results").joinpath("shorthand.toml")
                        .read_text("utf-8"))
    return tuple(Entry(tuple(e.get("abbreviations", ())), tuple(e.get("names", ())),
                       e.get("topic"), dict(e.get("words", {})))
                 for e in raw["shorthand"])


#: The dashes a name may be written with but an ASCII hyphen, each read as a space (one
#: character for one, so that offsets in the text read are those in the query).
_DASHES = str.maketrans("‐‑–", "   ")


def _key(text: str) -> str:
    """A name as matched: lower case, hyphens and blanks as one space."""
    return " ".join(text.lower().translate(_DASHES).replace("-", " ").split())


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], Entry], ...]:
    """One pattern per entry, longest names first (a rule's name before an abbreviation
    inside it: "services PE" before "PE")."""
    out = []
    for entry in table():
        alts = [(len(n), _name_re(n)) for n in entry.names]
        alts += [(len(a), rf"(?<![\w-]){re.escape(a)}s?(?![\w-])") for a in entry.abbreviations]
        body = "|".join(p for _n, p in sorted(alts, key=lambda x: -x[0]))
        out.append((re.compile(body), entry))
    return tuple(out)


def _name_re(name: str) -> str:
    """A rule's name in any case, a hyphen or a blank between its words alike."""
    words = _key(name).split()
    glue = r"[\s\-]+"  # (the query's other dashes read as spaces: `read`; an ASCII class
    # compiles in a fraction of the time of one with characters past U+00FF)
    body = glue.join(re.escape(w) for w in words)
    edge = r"\w" if re.match(r"\w", words[0], re.ASCII) else r"(?!)"
    return rf"(?i:(?<!{edge}){body}(?![\w]))" if edge != r"(?!)" else rf"(?i:{body})"


def read(query: str, lang: str | None = None) -> Reading:
    """`query` with its shorthand replaced by the words it stands for in `lang` (English
    when None); the topic of the first shorthand that names one. A query with search syntax
    is returned as typed."""
    if not query.strip() or _SYNTAX.search(query):
        return Reading(query)
    found: list[tuple[int, int, Entry]] = []
    text = query.translate(_DASHES)
    for pattern, entry in _patterns():
        for m in pattern.finditer(text):
            if not any(m.start() < e and s < m.end() for s, e, _x in found):
                found.append((m.start(), m.end(), entry))
    if not found:
        return Reading(query)
    found.sort(key=lambda x: x[0])
    lang = lang if lang in LANGS else "en"
    parts, last, read_as, seen = [], 0, [], set()
    for start, end, entry in found:
        words = entry.words_in(lang)
        parts += [query[last:start], "" if entry in seen else f" {words} "]
        seen.add(entry)  # (two names of one rule: its words once)
        read_as.append((query[start:end], words))
        last = end
    parts.append(query[last:])
    topic = next((e.topic for _s, _e, e in found if e.topic), None)
    return Reading(" ".join("".join(parts).split()), topic, tuple(read_as))
