"""A page of article groups ranked from the top paragraph hits only, exactly as grouping every
match would rank it.

Unseen paragraphs score at most the last seen one (s), so a group none of whose paragraphs
was seen scores at most 1.5 s, and one with fewer seen than it has (and fewer than three) at
most its seen scores completed with s. The page is final when its groups' scores are complete
and every other group's bound is below the last of them; else four times as many hits are
fetched (at worst all of them).

`table` is the index's group table (`Searcher.groups()`): per group number its key
(treaty, lang, article eId), its number of paragraphs (`sizes`) and its rank in key order.
"""

from __future__ import annotations

from collections.abc import Sequence

from indexer.index.engines import EngineSearcher, Match
from indexer.index.query_syntax import FNode
from search.results.grouping import MORE_PARAGRAPHS, Group, best_part, group_score, stored_doc
from search.results.versions import first_articles

#: Paragraph hits fetched first to rank a page of groups (at least PAGE_FACTOR per group).
PAGE_HITS = 4000
PAGE_FACTOR = 4
#: How much more is fetched when the first hits do not settle the page.
DEEPEN = 4

#: (minus the group's score, its rank in key order, group number): sorts best first.
Ranked = tuple[float, int, int]


def _seen(found: list[Match]) -> dict[int, list[int]]:
    """Group number -> indices of its hits in `found` (best first, as `found` is)."""
    seen: dict[int, list[int]] = {}
    for i, m in enumerate(found):
        seen.setdefault(m[1], []).append(i)
    return seen


def _ranked(found: list[Match], seen: dict[int, list[int]], table) -> list[Ranked]:
    ranked = []
    for g, idx in seen.items():
        top = [found[i][0] for i in idx[:3]]
        ranked.append((-group_score(top), table.rank[g], g))
    ranked.sort()
    return ranked


def _final(page: list[Ranked], ranked: list[Ranked], seen: dict[int, list[int]],
           found: list[Match], sizes: list[int], total: int, limit: int) -> bool:
    """Can no group outside `page`, seen or not, score above its last group?"""
    last = found[-1][0] if found else 0.0

    def complete(g: int) -> bool:
        return len(seen[g]) >= min(3, sizes[g])

    def bound(g: int) -> float:
        top = [found[i][0] for i in seen[g][:3]]
        top += [last] * (min(3, sizes[g]) - len(top))
        return group_score(top)

    if not all(complete(g) for _s, _r, g in page):
        return False
    if len(page) < limit:
        return total == len(seen)
    floor = -page[-1][0]
    if total > len(seen) and (1 + 2 * MORE_PARAGRAPHS) * last >= floor:
        return False
    for neg, _r, g in ranked[limit:]:
        if -neg + 2 * MORE_PARAGRAPHS * last < floor:
            return True  # nor can any group ranked below (their bounds are lower)
        if not complete(g) and bound(g) >= floor:
            return False
    return True


def _load(be: EngineSearcher, table, page: list[Ranked], seen: dict[int, list[int]],
          found: list[Match], complete: bool, ftree: FNode,
          filters: Sequence[tuple[str, str]]) -> list[Group]:
    """The page's groups with every matching paragraph (those below the hits fetched
    come from a search of the page's groups), best first."""
    sizes = table.sizes
    refs: dict[int, list[tuple[float, object]]] = {
        g: [(found[i][0], found[i][2]) for i in seen[g]] for _s, _r, g in page}
    short = [g for _s, _r, g in page if not complete and len(seen[g]) < sizes[g]]
    if short:
        known = {be.ref_key(r) for g in short for _s, r in refs[g]}
        for score, g, ref in be.in_groups(ftree, filters, short,
                                          sum(sizes[g] for g in short)):
            if be.ref_key(ref) not in known:
                refs[g].append((score, ref))
        for g in short:
            refs[g].sort(key=lambda x: -x[0])
    out = []
    for neg, _r, g in page:
        treaty, lang, article = table.keys[g]
        grp = Group(treaty, lang, article, -neg)
        grp.docs = best_part([(score, stored_doc(be.stored(ref))) for score, ref in refs[g]])
        out.append(grp)
    return out


def page_of_groups(be: EngineSearcher, table, ftree: FNode,
                   filters: Sequence[tuple[str, str]], limit: int,
                   first_hits: int = PAGE_HITS, per_group: int = PAGE_FACTOR,
                   articles: int | None = None) -> tuple[list[Group], int]:
    """The best `limit` groups and the number of groups, from the top `first_hits` (at least
    `per_group` per group asked for) paragraph hits, deepened until the page is final. With
    `articles`, only the groups of the first that many articles (treaty, article eId: the
    language versions of one article are several groups) are loaded and returned."""
    k = max(first_hits, per_group * limit)
    total: int | None = None
    while True:
        found, count = be.matches(ftree, filters, k)
        complete = len(found) >= count
        seen = _seen(found)
        ranked = _ranked(found, seen, table)
        if complete:
            total = len(seen)
        elif total is None:
            total = be.group_count(ftree, filters)
        page = ranked[:limit]
        if complete or _final(page, ranked, seen, found, table.sizes, total, limit):
            break
        k = min(count, k * DEEPEN)
    keys = [(table.keys[g][0], table.keys[g][2]) for _s, _r, g in page]
    page = [page[i] for i in first_articles(keys, articles)]
    return _load(be, table, page, seen, found, complete, ftree, filters), total
