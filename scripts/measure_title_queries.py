"""Search measured on treaties nobody tuned it on: each article title of a corpus (default
../shared/corpus-wild, 60 sv/en treaties) is a query, within its treaty, as a user would type
it: as printed, in lower case with one letter left out of its longest word (a typo), and
without its first word (a partial phrase). The article it heads should come first. (A
variant that is part of another title of the treaty as well is no question with one answer
and is left out.)

Titles are what users type most (a reader looking for "Capital gains" types it), and the
corpus's titles are many (about 1,500) and were never looked at while tuning the ranking, so
the figures say how the mechanisms of `search.results` carry over. Prints, per variant and
language, the number of queries, recall@1, recall@5 and MRR, and the first misses.

    python scripts/measure_title_queries.py                     # ingests corpus-wild
    python scripts/measure_title_queries.py --data /tmp/wild    # an ingested data directory
    python scripts/measure_title_queries.py --corpus ../shared/corpus-extra --show 20
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WILD = ROOT.parent / "shared" / "corpus-wild"
TOP = 5
_WORD = re.compile(r"[^\W\d_]{2,}")


def typo(title: str) -> str | None:
    """`title` in lower case with the middle letter of its longest word left out (None: no
    word of five letters or more)."""
    words = _WORD.findall(title)
    longest = max(words, key=len, default="")
    if len(longest) < 5:
        return None
    mid = len(longest) // 2
    return title.lower().replace(longest.lower(), longest[:mid].lower() + longest[mid + 1:]
                                 .lower(), 1)


def partial(title: str) -> str | None:
    """`title` without its first word (None: fewer than three words)."""
    words = title.split()
    return " ".join(words[1:]) if len(words) >= 3 else None


VARIANTS = {"as printed": lambda t: t, "typo": typo, "partial": partial}


def cases(db) -> Iterator[tuple[str, str, str, str]]:
    """(treaty, lang, article eId, title) of every titled article, each title once per
    treaty (a title two articles share is no question with one answer)."""
    rows = db.execute("SELECT treaty, lang, eid, title FROM units WHERE kind = 'article' "
                      "AND depth = 0 AND title IS NOT NULL AND title != '' "
                      "ORDER BY treaty, lang, seq").fetchall()
    seen: dict[tuple[str, str], int] = {}
    for r in rows:
        key = (r["treaty"], r["title"].strip().lower())
        seen[key] = seen.get(key, 0) + 1
    for r in rows:
        if seen[r["treaty"], r["title"].strip().lower()] == 1 and _WORD.search(r["title"]):
            yield r["treaty"], r["lang"], r["eid"], r["title"].strip()


def _ambiguous(query: str, title: str, titles: list[str]) -> bool:
    """Is `query` (made from `title`) part of another title of the treaty too ("personal
    services" of both "Dependent" and "Independent personal services")?"""
    low = query.lower()
    return any(low in other for other in titles if other != title.lower())


def rank(session, query: str, treaty: str, eid: str) -> int | None:
    hits = session.search(query, treaty=treaty, limit=20)["hits"]
    return next((i + 1 for i, h in enumerate(hits) if h["eid"] == eid), None)


def measure(data: Path, show: int) -> dict[str, dict]:
    from indexer import store
    from indexer.datadir import live
    from search.results import SearchSession

    db = store.connect(live(data))
    todo = list(cases(db))
    db.close()
    out: dict[str, dict] = {}
    misses: list[str] = []
    titles: dict[str, list[str]] = {}
    for treaty, _lang, _eid, title in todo:
        titles.setdefault(treaty, []).append(title.lower())
    with SearchSession(data) as s:
        for name, make in VARIANTS.items():
            for treaty, lang, eid, title in todo:
                query = make(title)
                if not query or _ambiguous(query, title, titles[treaty]):
                    continue
                r = rank(s, query, treaty, eid)
                for key in (name, f"{name} {lang}"):
                    st = out.setdefault(key, {"queries": 0, "at1": 0, "at5": 0, "rr": 0.0})
                    st["queries"] += 1
                    st["at1"] += r == 1
                    st["at5"] += r is not None and r <= TOP
                    st["rr"] += 1 / r if r else 0.0
                if r != 1 and len(misses) < show:
                    misses.append(f"{name:10} {treaty:24} {eid:8} {query[:50]!r:54} rank {r}")
    print("\n".join(misses))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=WILD)
    ap.add_argument("--data", type=Path, default=None, help="an ingested data directory")
    ap.add_argument("--show", type=int, default=10, help="misses to print")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        data = args.data
        if data is None:
            from indexer.pipeline import ingest

            data = Path(tmp) / "data"
            ingest(args.corpus, data)
        for key, st in measure(data, args.show).items():
            n = st["queries"]
            print(f"{key:16} queries {n:5}  recall@1 {st['at1'] / n:.3f}  "
                  f"recall@5 {st['at5'] / n:.3f}  MRR {st['rr'] / n:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
