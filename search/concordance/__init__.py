"""The term concordance (`treaty terms`, the web app's /terms): how a term is rendered in the
other languages, read off the treaties themselves.

Where the term occurs in a language version (`pairs.occurrences`, through the index), the
aligned counterpart in each other language says it somehow (`pairs.counterparts`, through
the store's alignment links); the words that come wherever the term comes are its rendering
(`renderings`). Where no treaty has both languages, the counterpart is what another treaty
says in the same place of its article on the same topic (`comparable`, marked so). The renderings are ranked by how many treaties use each, each with
keyword-in-context lines on both sides and the units to link to.

    words       texts as runs of words with their index terms; where a term occurs
    pairs       occurrences of the term and their aligned counterparts
    comparable  counterparts in other treaties' articles on the same topic
    renderings  candidates, their scores, the rendering of each pair
    text        the result as terminal lines

Everything here reads the index and the store, never the raw texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from indexer.errors import NotFoundError, QueryError
from search.citations import eid_citation
from search.concordance.comparable import comparable_pairs
from search.concordance.pairs import FULL, SEARCH, Limits, Pair, Unit, counterparts, occurrences
from search.concordance.renderings import Rendering, renderings
from search.concordance.words import term_words, words

#: Characters of context on each side of a keyword in context.
CONTEXT = 60
#: Examples given per rendering (the first of each treaty first).
EXAMPLES = 3
#: The longest term read.
MAX_TERM = 120

__all__ = ["CONTEXT", "FULL", "SEARCH", "Limits", "concordance", "lookup"]


def lookup(data_dir: Path, term: str, lang: str | None = None,
           targets: Sequence[str] | None = None, treaty: str | None = None) -> dict:
    """`concordance` in a search session of its own over `data_dir`."""
    from search.results import SearchSession

    with SearchSession(Path(data_dir).resolve()) as session:
        return concordance(session, term, lang, targets, treaty)


def _source_lang(session, term: str, lang: str | None) -> str:
    """The language the term is written in: `lang` when given, else Chinese for Han
    characters, else the language whose texts use its words most."""
    from indexer.index.chinese import has_han
    from search.names import known_language
    from search.results.versions import query_language

    if lang:
        return known_language(lang, session.searcher.languages, "the index")
    if has_han(term):
        return "zh"
    found = query_language(term.split(), session.searcher.vocabulary()["surface"])
    if found is None:
        raise NotFoundError(f"no text of the corpus has '{term}': check its spelling, or "
                            "name its language with --from")
    return found


def _clean(term: str) -> str:
    term = " ".join("".join(ch if ch.isprintable() else " " for ch in term or "")
                    .replace('"', " ").split())
    if not term:
        raise QueryError("type a term to look up, e.g. \"permanent establishment\", "
                         "\"beneficial owner\", utdelning, 股息")
    if len(term) > MAX_TERM:
        raise QueryError(f"the term is {len(term)} characters long; the most is {MAX_TERM}")
    return term


def concordance(session, term: str, lang: str | None = None,
                targets: Sequence[str] | None = None, treaty: str | None = None,
                limits: Limits = FULL) -> dict:
    """How `term` (of language `lang`, else found from its words) is rendered in `targets`
    (the corpus's other languages by default), in every treaty or in `treaty`: per target
    language its renderings ranked by the number of treaties using each (see the module's
    doc; the JSON of `treaty terms --json`). `limits`: how much it reads."""
    term = _clean(term)
    source = _source_lang(session, term, lang)
    wanted = term_words(term, source)
    if not wanted:
        raise QueryError(f"'{term}' has no word to look up")
    docs = session.documents('"' + term + '"', source, treaty)
    units = occurrences(docs, source, wanted, session.db, limits)
    if not units:
        where = f" of {treaty}" if treaty else ""
        raise NotFoundError(f"'{term}' is in no {source} text{where}; `treaty search {term}` "
                            "finds its near matches")
    languages = {tid: t["languages"] for tid, t in session.treaties().items()}
    chosen = _targets(session, source, targets)
    term_ws = words(term, source)
    table = session.searcher.terms().get(source, {})
    out = {}
    for target in chosen:
        pairs = counterparts(session.db, languages, units, target)
        # no treaty in both languages at all (the corpus's Chinese): the same provision of
        # other treaties; where some treaty is, only parallel text is heard
        comparable = not any(source in langs and target in langs
                             for langs in languages.values())
        if comparable:
            pairs = comparable_pairs(session.db, units, target, session.searcher.terms(),
                                     limits)
        translations = {y for t in wanted for y in table.get(target, {}).get(t, ())}
        out[target] = _target(session, pairs, target, term_ws, term, translations,
                              limits.background)
        out[target]["comparable"] = comparable
    return {"term": term, "lang": source, "treaty": treaty,
            "occurrences": len(units), "treaties": len({u.treaty for u in units}),
            "targets": out}


def _targets(session, source: str, targets: Sequence[str] | None) -> list[str]:
    from search.names import known_language

    have = [lg for lg in session.searcher.languages if lg != source]
    if not targets:
        return have
    out = [known_language(t, session.searcher.languages, "the index") for t in targets]
    chosen = [t for t in dict.fromkeys(out) if t != source]
    if not chosen:
        raise QueryError(f"the term is {source}: choose a language it is to be rendered in "
                         f"({', '.join(have)})")
    return chosen


def _target(session, pairs: list[Pair], target: str, term_ws, term: str,
            translations: set[str], background: int) -> dict:
    """One target language's part of the result."""
    if not pairs:
        return {"pairs": 0, "unmatched": 0, "renderings": []}
    ranked, unmatched = renderings(pairs, _background(session.db, pairs, target, background),
                                   target, term_ws, term, translations)
    return {"pairs": len(pairs), "unmatched": len(unmatched),
            "renderings": [_rendering_json(r) for r in ranked]}


def _background(db, pairs: Sequence[Pair], target: str, limit: int) -> dict[str, list[str]]:
    """Per treaty of `pairs`, the texts of its target language's paragraphs (and units
    without paragraphs): where a candidate's spread is counted."""
    return {tid: [r[0] or "" for r in db.execute(
        "SELECT text FROM units WHERE treaty = ? AND lang = ? AND depth <= 1 AND kind != "
        "'chapter' ORDER BY seq LIMIT ?", (tid, target, limit))]
        for tid in dict.fromkeys(p.target.treaty for p in pairs)}


def kwic(text: str, start: int, end: int, width: int = CONTEXT) -> dict:
    """The keyword in context: up to `width` characters each side, cut at a blank."""
    left = text[max(0, start - width):start]
    right = text[end:end + width]
    if start - width > 0 and " " in left:
        left = left[left.index(" ") + 1:]
    if end + width < len(text) and " " in right:
        right = right[:right.rindex(" ")]
    return {"left": " ".join(left.split()) + (" " if left[-1:].isspace() else ""),
            "match": text[start:end],
            "right": (" " if right[:1].isspace() else "") + " ".join(right.split())}


def _side(u: Unit, start: int, end: int) -> dict:
    return {"treaty": u.treaty, "lang": u.lang, "eid": u.eid, "article": u.article,
            "citation": eid_citation(u.treaty, u.eid), **kwic(u.text, start, end)}


def _rendering_json(r: Rendering) -> dict:
    firsts, rest, seen = [], [], set()
    for pair, cand in r.pairs:
        (rest if pair.source.treaty in seen else firsts).append((pair, cand))
        seen.add(pair.source.treaty)
    examples = [{"treaty": p.source.treaty,
                 "source": _side(p.source, p.source.start, p.source.end),
                 "target": _side(p.target, c.start, c.end)}
                for p, c in (firsts + rest)[:EXAMPLES]]
    return {"text": r.text, "forms": dict(r.forms.most_common()), "treaties": r.treaties,
            "seen_in": r.seen_in, "pairs": len(r.pairs), "examples": examples}
