"""``cite``: look a unit up by citation: parse it, find the treaty among the corpus's, then the
unit in every language version of the store."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from indexer.errors import AmbiguousError, NotFoundError, QueryError
from search.citations.format import format_citation, to_eid
from search.citations.messages import ambiguous_message, missing_message
from search.citations.model import Citation
from search.citations.parse import parse_citation
from search.citations.targets import resolve
from search.corpus import Corpus, Treaty


@dataclass(frozen=True)
class CiteResult:
    citation: Citation
    treaty: str
    eid: str
    units: tuple[dict, ...]  # one per language: id, lang, eid, kind, number, title, text, raw

    def as_json(self) -> dict:
        c = self.citation
        return {
            "treaty": self.treaty, "article": c.article, "paragraph": c.paragraph,
            "point": c.point, "protocol": c.protocol, "eid": self.eid,
            "units": [dict(u) for u in self.units],
        }


def _units_of(corpus: Corpus, treaty: str, eid: str, langs: list[str]) -> list[dict]:
    rows = corpus.db.execute(
        "SELECT u.*, t.title AS art_title, t.number AS art_number, t.kind AS art_kind "
        "FROM units u JOIN units t ON t.treaty = u.treaty AND t.lang = u.lang AND t.eid = u.top "
        f"WHERE u.treaty = ? AND u.eid = ? AND u.lang IN ({','.join('?' * len(langs))})",
        [treaty, eid, *langs],
    ).fetchall()
    order = {lang: i for i, lang in enumerate(langs)}
    rows = sorted(rows, key=lambda r: order[r["lang"]])
    return [{
        "id": r["id"], "lang": r["lang"], "eid": r["eid"], "kind": r["kind"],
        "article": r["art_number"], "article_kind": r["art_kind"], "title": r["art_title"],
        "num": r["num"], "text": r["text"], "raw": r["raw"],
        "lines": [r["start_line"], r["end_line"]], "file": r["file"],
    } for r in rows]


def _treaty_of(corpus: Corpus, c: Citation, text: str) -> Treaty:
    """The one treaty of the corpus that `c` means (NotFoundError: none; AmbiguousError:
    several)."""
    if c.treaty_id and corpus.has_treaty(c.treaty_id):
        candidates = [c.treaty_id]  # a written id needs no matching
    else:
        candidates = resolve(c, corpus.citation_refs)
    if not candidates:
        who = c.treaty_id or "-".join(c.parties) or "?"
        known = ", ".join(t.id for t in corpus.treaties()) or "none"
        raise NotFoundError(f"no treaty matches '{who}' (the corpus has: {known})")
    if len(candidates) > 1 and c.lang_read:
        # a citation written in a language cites a text in it: "第十条第二款" names the
        # article of the one treaty with a Chinese version, if only one has one
        written = [t for t in candidates if c.lang_hint in corpus.treaty(t).languages]
        candidates = written if len(written) == 1 else candidates
    if len(candidates) > 1:
        raise AmbiguousError(ambiguous_message(text, candidates),
                             tuple(_candidate(corpus, c, tid) for tid in candidates))
    return corpus.treaty(candidates[0])


def _candidate(corpus: Corpus, c: Citation, treaty_id: str) -> dict:
    """One treaty an ambiguous citation may mean: its id, its name ("Brazil–Peru (2006)"),
    its languages and the citation of the same unit in it ("br-pe-2006 Art. 10(2)")."""
    from search.names import treaty_name

    t = corpus.treaty(treaty_id)
    style = c.lang_hint if c.lang_read and c.lang_hint else "en"
    return {"treaty": t.id, "name": treaty_name(t.id, lang=style), "languages": list(t.languages),
            "citation": format_citation(replace(c, treaty_id=t.id, parties=(), year=None),
                                        style)}


def _missing(corpus: Corpus, c: Citation, treaty: str, eid: str) -> NotFoundError:
    """What to say when the treaty has no unit `eid`: the articles (or protocol items) it
    has, else the paragraphs (or points) of the cited one."""
    kind = "protocol" if c.protocol else "article"
    numbers = sorted({r["number"] for r in corpus.rows(treaty, kinds=(kind,))
                      if r["number"] is not None})
    if c.article is not None and c.article not in numbers:
        return NotFoundError(missing_message(c, treaty, numbers))
    top = eid.split("__")[0]
    have = sorted({r["num"] for r in corpus.rows(treaty, top=top)
                   if r["num"] and r["eid"].count("__") == eid.count("__")})
    part = "point" if c.point else "paragraph"
    return NotFoundError(
        f"{treaty} {top.replace('_', ' ')} has no {part} "
        f"{c.point or c.paragraph}" + (f"; it has {part}s {', '.join(have)}" if have
                                       else f"; it has no numbered {part}s")
    )


def cite(corpus: Corpus, text: str, lang: str | None = None) -> CiteResult:
    """The unit `text` cites, in every language version (or only `lang`), the version in
    the language the citation is written in first."""
    c = parse_citation(text)
    if c.article is None:
        what = "protocol item" if c.protocol else "article"
        raise QueryError(f"'{text}' names no {what} number to look up "
                         "(e.g. 'br-pe-2006 Art. 10(2)' or 'br-pe-2006 Protocol 4')")
    treaty = _treaty_of(corpus, c, text)
    corpus.check_lang(treaty, lang)
    # the version in the citation's language first ("Artigo III" shows the Portuguese)
    first = c.lang_hint if c.lang_read else None
    langs = [lang] if lang else sorted(treaty.languages, key=lambda lg: lg != first)
    eid = to_eid(c)
    units = _units_of(corpus, treaty.id, eid, langs)
    other = ordinal_twin(eid)
    missing = [lg for lg in langs if lg not in {u["lang"] for u in units}]
    if other and missing:  # a version that numbers its points the other way
        units += _units_of(corpus, treaty.id, other, missing)
        units.sort(key=lambda u: langs.index(u["lang"]))
    if not units:
        raise _missing(corpus, c, treaty.id, eid)
    return CiteResult(c, treaty.id, units[0]["eid"] if eid not in
                      {u["eid"] for u in units} else eid, tuple(units))


_POINT = re.compile(r"(.*__point_)([a-z]|\d{1,2})")


def ordinal_twin(eid: str) -> str | None:
    """The eId of the same point numbered the other way: the n-th point is "a" in one
    version's list and "1" in another's (a Chinese （一） list, which the store numbers 1, 2, ...;
    a citation reads （一） as "a"). None when `eid` names no point of up to 26."""
    m = _POINT.fullmatch(eid)
    if not m:
        return None
    label = m.group(2)
    if label.isdigit():
        n = int(label)
        return f"{m.group(1)}{chr(96 + n)}" if 1 <= n <= 26 else None
    return f"{m.group(1)}{ord(label) - 96}"
