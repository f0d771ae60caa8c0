"""The checks across the language versions of a treaty: article and paragraph counts that
disagree, and alignment links too weak to trust."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from indexer.align.results import LOW_CONFIDENCE, UNMATCHED
from indexer.audit.articles import VersionView
from indexer.audit.model import Finding, unit_place
from indexer.models import Unit


def _paragraphs(unit: Unit) -> int:
    return sum(1 for c in unit.children if c.kind == "paragraph")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def disagreements(views: Sequence[VersionView]) -> Iterator[Finding]:
    """Per version: the other versions with another article count, and per article (by eId)
    the other versions that give it another paragraph count. Versions without articles are
    left out (their own finding says so)."""
    counted = [v for v in views if v.articles()]
    counts = {v.lang: len(v.articles()) for v in counted}
    arts = {v.lang: {u.eid: u for _f, u in v.articles()} for v in counted}
    for v in counted:
        others = [(w.lang, counts[w.lang]) for w in counted
                  if w.lang != v.lang and counts[w.lang] != counts[v.lang]]
        if others:
            said = ", ".join(f"{lang} has {n}" for lang, n in others)
            yield v.finding(v.file, None, "versions-disagree",
                            f"{_plural(counts[v.lang], 'article')}; {said}")
        for file, u in v.articles():
            n = _paragraphs(u)
            differ = [(w.lang, k) for w in counted if w.lang != v.lang and u.eid in arts[w.lang]
                      and (k := _paragraphs(arts[w.lang][u.eid])) != n]
            if differ:
                said = ", ".join(f"{lang} has {k}" for lang, k in differ)
                yield v.finding(file, u, "versions-disagree",
                                f"{_plural(n, 'paragraph')}; {said}")


def _all_units(view: VersionView) -> dict[str, tuple[str, Unit]]:
    out: dict[str, tuple[str, Unit]] = {}

    def walk(file: str, u: Unit) -> None:
        out.setdefault(u.eid, (file, u))
        for c in u.children:
            walk(file, c)

    for file, u in view.units:
        walk(file, u)
    return out


def weak_links(views: Sequence[VersionView], links: Iterable[tuple]) -> Iterator[Finding]:
    """Link rows (the store's: treaty, eid, lang_a, lang_b, eid_b, level, score, method)
    scored below `LOW_CONFIDENCE`: a unit with no counterpart, on the version that has the
    unit; a unit's weak links (two for a 1-2 bead), as one finding on its first version."""
    units = {v.lang: (v, _all_units(v)) for v in views}
    weak: dict[tuple[str, str], list[tuple]] = {}
    for _t, eid, lang_a, lang_b, eid_b, level, score, method in links:
        if score >= LOW_CONFIDENCE:
            continue
        if method == UNMATCHED:
            lang, other, mine = (lang_a, lang_b, eid) if eid else (lang_b, lang_a, eid_b)
            if lang in units and mine in units[lang][1]:
                view, (file, unit) = units[lang][0], units[lang][1][mine]
                yield view.finding(file, unit, "low-confidence-link",
                                   f"no counterpart in {other} (unmatched {level})")
        elif lang_a in units and eid in units[lang_a][1]:
            weak.setdefault((lang_a, eid), []).append((lang_b, eid_b, level, score, method))
    for (lang, eid), found in weak.items():
        view, (file, unit) = units[lang][0], units[lang][1][eid]
        level, score, method = found[0][2:]
        places = ", ".join(f"{b} {unit_place(e)}" for b, e, *_ in found)
        yield view.finding(file, unit, "low-confidence-link",
                           f"weak {level} link{'s' if len(found) > 1 else ''} to {places} "
                           f"(score {min(x[3] for x in found):.2f}, {method})")
