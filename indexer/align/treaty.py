"""A treaty (every pair of its language versions) and a corpus of treaties (in a process pool
when there are enough of them)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from indexer.align.pair import VersionSide, align_sides
from indexer.align.results import ALIGNED_KINDS, Alignment, Link, Unmatched
from indexer.align.rows import store_rows
from indexer.align.segments import Segments
from indexer.models import Unit, Version


def merge_versions(versions: Iterable[Version]) -> list[Version]:
    """One Version per language (files of one treaty in one language are concatenated), in
    first-seen order; versions without articles are dropped."""
    by_lang: dict[str, list[Unit]] = {}
    for v in versions:
        by_lang.setdefault(v.lang, []).extend(v.units)
    return [Version(lang, tuple(units)) for lang, units in by_lang.items()
            if any(u.kind in ALIGNED_KINDS for u in units)]


def align_versions(treaty: str, versions: Sequence[Version],
                   langs: Sequence[str] | None = None) -> Alignment:
    """Links between every pair of language versions of `treaty` (sv↔en, sv↔pt, en↔pt),
    each pair in the order the versions come."""
    merged = merge_versions(versions)
    if langs is not None:
        merged = [v for v in merged if v.lang in langs]
    links: list[Link] = []
    unmatched: list[Unmatched] = []
    # texts are tokenised, and lists of siblings made segments, once per treaty, whichever
    # pairs and passes use them
    memo = Segments()
    sides = [VersionSide(v, memo.cues) for v in merged]
    for sa, sb in combinations(sides, 2):
        pair_links, pair_unmatched, _ = align_sides(sa, sb, memo)
        links.extend(pair_links)
        unmatched.extend(pair_unmatched)
    return Alignment(treaty, tuple(v.lang for v in merged), tuple(links), tuple(unmatched))


def _align_rows(treaty: str, vs: Sequence[Version]) -> list[tuple]:
    return store_rows(align_versions(treaty, vs))


#: Fewer multilingual treaties than this are aligned in this process (a pool costs ~1 s).
PARALLEL_MIN_TREATIES = 8


def _treaty_jobs(versions: Mapping[tuple[str, str], Version] | Iterable[tuple[str, Version]]
                 ) -> list[tuple[str, list[Version]]]:
    """The treaties of `versions` with more than one language, in first-seen order, each with
    its versions in a canonical order (where each starts in its source, then language), so
    that links come out the same whether a version was just processed or read back."""
    items = versions.items() if isinstance(versions, Mapping) else versions
    by_treaty: dict[str, list[Version]] = defaultdict(list)
    for key, v in items:
        treaty = key[0] if isinstance(key, tuple) else key
        by_treaty[treaty].append(v)
    jobs: list[tuple[str, list[Version]]] = []
    for treaty, vs in by_treaty.items():
        vs = sorted(vs, key=lambda v: (min((u.start for u in v.units), default=0), v.lang))
        if len({v.lang for v in vs}) > 1:
            jobs.append((treaty, vs))
    return jobs


def align_corpus(versions: Mapping[tuple[str, str], Version] | Iterable[tuple[str, Version]],
                 workers: int = 1) -> list[tuple]:
    """Store rows for every treaty: `versions` maps (treaty, lang) -> Version, or is a list of
    (treaty, Version) pairs (several per treaty and language allowed). Treaties are
    independent, so with `workers` > 1 and enough of them they are aligned in a process pool;
    the rows are the same and in the same order either way."""
    jobs = _treaty_jobs(versions)
    rows: list[tuple] = []
    if workers > 1 and len(jobs) >= PARALLEL_MIN_TREATIES:
        from indexer.workers import pool as worker_pool

        with worker_pool(workers) as pool:
            for part in pool.map(_align_rows, *zip(*jobs), chunksize=4):
                rows.extend(part)
        return rows
    for treaty, vs in jobs:
        rows.extend(_align_rows(treaty, vs))
    return rows
