"""`treaty search`: ranked full-text search of the corpus, hits grouped by article.

One `SearchSession` holds the open index (`indexer.index.Searcher`, whichever engine built it)
and a read-only connection to the store; `search` keeps one session per data directory, so
repeated queries never re-open the index.

The query is parsed and compiled exactly as `Searcher.search` does (`indexer.query`); every
matching paragraph is fetched once, without snippets, and grouped by (treaty, language,
article). Groups are ranked by their best paragraph's BM25F score (title and topic fields
weighted, see `indexer.query.BOOSTS`) plus a quarter of their next two; snippets are made
only for the groups returned.

A plain-words query that has fewer matching articles than asked for (a paraphrase such as
"tax on pensions") is completed by a relaxed search that needs only most of its words, ranked
below every article that has them all, by their score times the share of the query's
rarity (idf) that they match.

The result is the JSON contract of ``treaty search --json``::

    {"query": "...", "total": 12, "suggestions": ["..."], "corrected": "..." | None,
     "engine": "whoosh", "plain": false,
     "hits": [{"treaty": "br-pe-2006", "lang": "en", "kind": "article", "number": 10,
               "eid": "art_10", "title": "Dividends", "citation": "br-pe-2006 Art. 10(2)",
               "score": 12.3, "snippets": ["... <b>beneficial owner</b> ..."],
               "paragraphs": ["art_10__para_2"], "relaxed": false,
               "aligned": {"pt": [{"eid": ..., "text": ..., "of": ..., "method": ...,
                                   "score": ...}]}}]}

(``aligned`` only when asked for.)
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

from indexer.errors import QueryError
from indexer.index import SNIPPET_WIDTH, Searcher, Suggestion, make_snippet, open_index
from indexer.index.query_syntax import (
    And,
    FNode,
    FNone,
    FPhrase,
    FPrefix,
    FTerm,
    Node,
    Word,
    compile_query,
    field_lang,
    leaves,
    parse,
    term_matcher,
)
from indexer.models import TOP_KINDS, IndexDoc

__all__ = ["SearchSession", "citation", "close_sessions", "search", "session"]

MAX_QUERY = 1000  # characters
MAX_LIMIT = 1000
SNIPPETS_PER_HIT = 2
#: Relaxed matching: at least this share of the plain words must match (rounded up).
RELAX_SHARE = 0.6
#: Weight of an article's second and third best paragraph in its score.
MORE_PARAGRAPHS = 0.25
#: Paragraph hits fetched first to rank a page of groups (at least PAGE_FACTOR per group).
PAGE_HITS = 4000
PAGE_FACTOR = 4
#: A word matching more documents than this by itself gets no "did you mean".
RARE_DOCS = 2
_PARA_RE = re.compile(r"__para_([^_]+(?:_[^_]+)*?)(?:__|$)")


@dataclass
class _Group:
    treaty: str
    lang: str
    article_eid: str
    score: float
    docs: list[tuple[float, IndexDoc]] = field(default_factory=list)
    relaxed: bool = False
    weight: float = 0.0  # relaxed groups: summed idf of the query words matched


def citation(treaty: str, kind: str, number: int | None, article_eid: str,
             eid: str | None = None) -> str:
    """The citation of a hit: "br-pe-2006 Art. 10(2)" (the paragraph `eid` when it is one of
    the article's numbered paragraphs), "br-pe-2006 Protocol 4", else "br-pe-2006 preamble"."""
    if kind == "article" and number is not None:
        out = f"{treaty} Art. {number}"
        m = _PARA_RE.search(eid or "")
        if m and eid and eid.startswith(article_eid + "__"):
            out += f"({m.group(1).rstrip('_')})"
        return out
    if kind == "protocol" and number is not None:
        return f"{treaty} Protocol {number}"
    return f"{treaty} {article_eid}"


def _stored(stored: str) -> IndexDoc:
    data = json.loads(stored)
    data["parties"] = tuple(data.get("parties") or ())
    return IndexDoc(**data)


def _plain_words(tree: Node | None) -> list[Word] | None:
    """The words of a query made only of plain words (ANDed), else None."""
    if isinstance(tree, Word):
        return [tree]
    if isinstance(tree, And) and all(isinstance(c, Word) for c in tree.children):
        return list(tree.children)  # type: ignore[arg-type]
    return None


class SearchSession:
    """An open index and store. Use as a context manager or call close()."""

    def __init__(self, data_dir: Path, index_dir: Path | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.index_dir = Path(index_dir) if index_dir else self.data_dir / "index"
        self.searcher: Searcher = open_index(self.index_dir)
        self._db: sqlite3.Connection | None = None
        self._treaties: dict[str, dict] | None = None
        self._lock = threading.Lock()

    @property
    def engine(self) -> str:
        return self.searcher.engine

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.searcher.close()
        if self._db is not None:
            self._db.close()
            self._db = None

    # -- the store ------------------------------------------------------------------------

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            from indexer import store

            self._db = store.connect(self.data_dir)
        return self._db

    def treaties(self) -> dict[str, dict]:
        """Treaty id -> {"parties": [...], "languages": [...]} from the store."""
        if self._treaties is None:
            self._treaties = {
                r["id"]: {"parties": json.loads(r["parties"] or "[]"),
                          "languages": json.loads(r["languages"] or "[]")}
                for r in self.db.execute("SELECT id, parties, languages FROM treaties")
            }
        return self._treaties

    # -- checking options -----------------------------------------------------------------

    def _filters(self, lang: str | None, treaty: str | None, party: str | None,
                 topic: str | None, article: int | str | None,
                 kind: str | None) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if lang is not None and lang.strip():
            lang = lang.strip().lower()
            if lang not in self.searcher.languages:
                raise QueryError(f"unknown language '{lang[:20]}': the corpus has "
                                 f"{', '.join(self.searcher.languages)}")
            out.append(("lang", lang))
        if treaty is not None and treaty.strip():
            treaty = treaty.strip().lower()
            if treaty not in self.treaties():
                raise QueryError(f"no treaty '{treaty[:40]}' (the corpus has: "
                                 f"{', '.join(sorted(self.treaties())) or 'none'})")
            out.append(("treaty", treaty))
        if party is not None and party.strip():
            party = party.strip().upper()
            known = sorted({p for t in self.treaties().values() for p in t["parties"]})
            if party not in known:
                raise QueryError(f"no treaty with party '{party[:20]}' (parties in the corpus: "
                                 f"{', '.join(known) or 'none'})")
            out.append(("party", party))
        if topic is not None and topic.strip():
            out.append(("topic", topic_key(topic)))
        if article is not None and str(article).strip():
            text = str(article).strip()
            number = _article_number(text)
            if number is None:
                raise QueryError(f"--article must be an article number (10 or X), not "
                                 f"'{text[:20]}'")
            out.append(("number", str(number)))
        if kind is not None and kind.strip():
            kind = kind.strip().lower()
            if kind not in TOP_KINDS:
                raise QueryError(f"unknown kind '{kind[:20]}': use one of {', '.join(TOP_KINDS)}")
            out.append(("kind", kind))
        return out

    # -- searching ------------------------------------------------------------------------

    def search(self, query: str, *, lang: str | None = None, treaty: str | None = None,
               party: str | None = None, topic: str | None = None,
               article: int | str | None = None, kind: str | None = None, limit: int = 10,
               aligned: bool = False) -> dict:
        """Search; the result follows the JSON contract of the module docstring. Bad option
        values raise QueryError (one line); any query text is searched, never an error."""
        if not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise QueryError(f"--limit must be between 1 and {MAX_LIMIT}, not {limit}")
        query = "".join(ch if ch.isprintable() else " " for ch in query or "")
        if len(query) > MAX_QUERY:
            raise QueryError(f"the query is {len(query)} characters long; the most is "
                             f"{MAX_QUERY}")
        filters = self._filters(lang, treaty, party, topic, article, kind)
        lang_filter = next((v for f, v in filters if f == "lang"), None)
        langs = (field_lang(lang_filter),) if lang_filter else self.searcher.languages
        tree, plain = parse(query)
        ftree = _compiled(tree, langs)
        with self._lock:
            paged = self._page(ftree, filters, limit)
            if paged is None:
                groups = self._groups(ftree, filters)
                total = len(groups)
            else:
                groups, total = paged
            words = _plain_words(tree)
            if words and len(words) > 1 and total < limit:
                relaxed = self._relaxed(words, langs, filters, groups)
                groups += relaxed
                total += len(relaxed)
            suggestions = self._useful(self.searcher.suggest(tree, langs), langs, lang_filter)
            hits = [self._hit(g, ftree if not g.relaxed else _relaxed_tree(words or [], langs))
                    for g in groups[:limit]]
            if aligned:
                for hit in hits:
                    hit["aligned"] = self.aligned(hit["treaty"], hit["lang"], hit["paragraphs"])
        alternatives = list(dict.fromkeys(a for s in suggestions for a in s.alternatives))
        corrected = _corrected(query, suggestions)
        return {"query": query, "total": total, "suggestions": alternatives,
                "corrected": corrected, "engine": self.engine, "plain": plain, "hits": hits}

    def _engine_search(self, tree: FNode, filters: Sequence[tuple[str, str]]
                       ) -> tuple[list, int]:
        """Every document matching `tree`, unranked by limit and without snippets: the
        Searcher's own engine handle (Searcher.search makes a snippet per hit)."""
        return self.searcher._backend.search(tree, filters, None)

    def _groups(self, ftree: FNode, filters: Sequence[tuple[str, str]]) -> list[_Group]:
        if isinstance(ftree, FNone):
            return []
        found, _total = self._engine_search(ftree, filters)
        return _group((h.score, _stored(h.stored)) for h in found)

    def _page(self, ftree: FNode, filters: Sequence[tuple[str, str]], limit: int
              ) -> tuple[list[_Group], int] | None:
        """The best `limit` groups and the number of groups, as `_groups` ranks them, from
        the top paragraph hits only (None: the index does not record groups).

        Unseen paragraphs score at most the last seen one (s), so a group none of whose
        paragraphs was seen scores at most 1.5 s, and one with fewer seen than it has (and
        fewer than three) at most its seen scores completed with s. The page is final when
        its groups' scores are complete and every other group's bound is below the last of
        them; else four times as many hits are fetched (at worst all of them)."""
        table = self.searcher.groups()
        if table is None:
            return None
        if isinstance(ftree, FNone):
            return [], 0
        be = self.searcher._backend
        k = max(PAGE_HITS, PAGE_FACTOR * limit)
        total: int | None = None
        while True:
            found, count = be.matches(ftree, filters, k)
            complete = len(found) >= count
            seen: dict[int, list[int]] = {}  # group -> indices of its hits in `found`
            for i, m in enumerate(found):
                seen.setdefault(m[1], []).append(i)
            ranked = []
            for g, idx in seen.items():  # `found` is best first: so is each group's list
                top = [found[i][0] for i in idx[:3]]
                ranked.append((-(top[0] + MORE_PARAGRAPHS * sum(top[1:3])), table.rank[g], g))
            ranked.sort()
            if complete:
                total = len(seen)
            elif total is None:
                total = be.group_count(ftree, filters)
            page = ranked[:limit]
            if complete or self._final(page, ranked, seen, found, table.sizes, total, limit):
                break
            k = min(count, k * 4)
        return self._load(page, seen, found, complete, ftree, filters, table.sizes), total

    @staticmethod
    def _final(page: list[tuple[float, int, int]], ranked: list[tuple[float, int, int]],
               seen: dict[int, list[int]], found: list, sizes: list[int], total: int,
               limit: int) -> bool:
        last = found[-1][0] if found else 0.0

        def complete(g: int) -> bool:
            return len(seen[g]) >= min(3, sizes[g])

        def bound(g: int) -> float:
            top = [found[i][0] for i in seen[g][:3]]
            top += [last] * (min(3, sizes[g]) - len(top))
            return top[0] + MORE_PARAGRAPHS * sum(top[1:3])

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

    def _load(self, page: list[tuple[float, int, int]], seen: dict[int, list[int]],
              found: list, complete: bool, ftree: FNode, filters: Sequence[tuple[str, str]],
              sizes: list[int]) -> list[_Group]:
        """The page's groups with every matching paragraph (those below the hits fetched
        come from a search of the page's groups), best first."""
        be = self.searcher._backend
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
            treaty, lang, article = self.searcher.groups().keys[g]  # type: ignore[union-attr]
            grp = _Group(treaty, lang, article, -neg)
            grp.docs = [(score, _stored(be.stored(ref))) for score, ref in refs[g]]
            out.append(grp)
        return out

    def _relaxed(self, words: list[Word], langs: Sequence[str],
                 filters: Sequence[tuple[str, str]], have: list[_Group]) -> list[_Group]:
        """Articles whose paragraphs match most (not all) of the query's words, below the
        articles that match them all: ranked by the BM25F score of the OR of the words times
        the share of the words' summed idf that the article matches."""
        need = max(1, math.ceil(len(words) * RELAX_SHARE))
        n_docs = max(int(self.searcher.meta.get("docs") or 1), 1)
        matched: dict[str, float] = {}  # doc id -> summed idf of the words it matches
        count: dict[str, int] = {}
        total = 0.0
        for w in words:
            tree = _compiled(w, langs)
            if isinstance(tree, FNone):
                continue
            found, _ = self._engine_search(tree, filters)
            ids = {json.loads(h.stored)["id"] for h in found}
            idf = math.log(1 + n_docs / (1 + len(ids)))
            total += idf
            for doc_id in ids:
                matched[doc_id] = matched.get(doc_id, 0.0) + idf
                count[doc_id] = count.get(doc_id, 0) + 1
        ftree = _relaxed_tree(words, langs)
        if isinstance(ftree, FNone) or not matched or total <= 0:
            return []
        seen = {(g.treaty, g.lang, g.article_eid) for g in have}
        found, _ = self._engine_search(ftree, filters)
        kept = []
        for h in found:
            doc = _stored(h.stored)
            key = (doc.treaty, doc.lang, doc.article_eid)
            if key not in seen and count.get(doc.id, 0) >= need:
                kept.append((h.score, doc))
        out = _group(kept)
        for g in out:
            g.relaxed = True
            g.weight = max(matched[d.id] for _s, d in g.docs)
        out.sort(key=lambda g: (-g.score * g.weight / total, g.treaty, g.lang, g.article_eid))
        return out

    def _useful(self, suggestions: Sequence[Suggestion], langs: Sequence[str],
                lang: str | None) -> list[Suggestion]:
        """The suggestions worth showing: for a word that matches (nearly) nothing by itself,
        alternatives that are clearly more common in the corpus than the word as typed. (The
        index's vocabulary knows text words only, so a title or topic word such as "entry"
        looks rare to it.)"""
        if not suggestions:
            return []
        surface = self.searcher._load_vocab()["surface"]

        def count(w: str) -> int:
            return sum(words.get(w, 0) for words in surface.values())

        filters = [("lang", lang)] if lang else []
        out = []
        for s in suggestions:
            tree = _compiled(Word(s.term), langs)
            if self.searcher.groups() is not None:
                _found, n = self.searcher._backend.matches(tree, filters, 1)
            else:
                _hits, n = self._engine_search(tree, filters)
            if n > RARE_DOCS:
                continue
            own = count(s.term.lower())
            alts = tuple(a for a in s.alternatives if count(a) >= 3 * max(own, 1))
            if alts:
                out.append(Suggestion(s.term, alts))
        return out

    def _hit(self, g: _Group, ftree: FNode) -> dict:
        best = g.docs[0][1]
        snippets = []
        for _score, doc in g.docs[:SNIPPETS_PER_HIT]:
            snippets.append(snippet(doc, ftree))
        return {
            "treaty": g.treaty, "lang": g.lang, "kind": best.kind, "number": best.number,
            "eid": g.article_eid, "title": best.title or None, "topic": best.topic or None,
            "citation": citation(g.treaty, best.kind, best.number, g.article_eid, best.eid),
            "score": round(g.score, 4), "snippets": snippets,
            "paragraphs": [d.eid for _s, d in g.docs], "relaxed": g.relaxed,
        }

    # -- aligned paragraphs ---------------------------------------------------------------

    def aligned(self, treaty: str, lang: str, eids: Sequence[str]) -> dict[str, list[dict]]:
        """The units aligned with `eids` (of `treaty` in `lang`) in the treaty's other
        languages, from the store's links; where the treaty has no links at all, the units
        with the same eId (method "same-eid")."""
        other = [lg for lg in self.treaties().get(treaty, {}).get("languages", []) if lg != lang]
        if not other or not eids:
            return {}
        has_links = self.db.execute("SELECT 1 FROM links WHERE treaty=? LIMIT 1",
                                    (treaty,)).fetchone() is not None
        pairs: list[tuple[str, str, str, str, float | None]] = []  # (lang, eid, of, method, score)
        for eid in eids:
            if has_links:
                rows = self.db.execute(
                    "SELECT lang_b AS lang, eid_b AS eid, method, score FROM links "
                    "WHERE treaty=? AND lang_a=? AND eid=? AND eid_b != '' "
                    "UNION ALL SELECT lang_a, eid, method, score FROM links "
                    "WHERE treaty=? AND lang_b=? AND eid_b=? AND eid != '' "
                    "ORDER BY score DESC",
                    (treaty, lang, eid, treaty, lang, eid),
                ).fetchall()
                pairs.extend((r["lang"], r["eid"], eid, r["method"], r["score"]) for r in rows
                             if r["method"] != "unmatched")
            else:
                pairs.extend((lg, eid, eid, "same-eid", None) for lg in other)
        out: dict[str, list[dict]] = {}
        seen: set[tuple[str, str]] = set()
        for lg, eid, of, method, score in pairs:
            if lg not in other or (lg, eid) in seen:
                continue
            seen.add((lg, eid))
            row = self.db.execute("SELECT text FROM units WHERE id=?",
                                  (f"{treaty}/{lg}/{eid}",)).fetchone()
            if row is None:
                continue
            item = {"eid": eid, "text": row["text"], "of": of, "method": method}
            if score is not None:
                item["score"] = round(score, 4)
            out.setdefault(lg, []).append(item)
        return {lg: out[lg] for lg in other if lg in out}


# --- helpers ------------------------------------------------------------------------------


def snippet(doc: IndexDoc, ftree: FNode) -> str:
    """The HTML snippet of `doc` with the matches of `ftree` in <b>; for a Chinese paragraph
    that cannot contain a match (it matched through its title or topic names) the start of
    the text, without loading the Chinese segmenter just to find nothing."""
    fl = field_lang(doc.lang)
    field_name = f"text_{fl}"
    if fl == "zh" and not _may_match(doc.text.lower(), ftree, field_name):
        return _plain_snippet(doc.text)
    return make_snippet(doc, term_matcher(ftree, field_name))


def _may_match(text: str, ftree: FNode, field_name: str) -> bool:
    """Could `text` hold a match of a positive leaf of `ftree` on `field_name`? (Chinese
    terms are substrings of the text they were cut from; a fuzzy leaf always may.)"""
    for leaf, negated in leaves(ftree):
        if negated or leaf.field != field_name:
            continue
        if isinstance(leaf, FPhrase):
            if any(t in text for t in leaf.terms):
                return True
        elif isinstance(leaf, FTerm):
            if leaf.term in text:
                return True
        elif isinstance(leaf, FPrefix):
            if leaf.prefix in text:
                return True
        else:
            return True
    return False


def _plain_snippet(text: str, width: int = SNIPPET_WIDTH) -> str:
    import html

    cut = text[:width]
    return html.escape(cut, quote=False) + ("…" if len(text) > width else "")


def _compiled(tree: Node | None, langs: Sequence[str]) -> FNode:
    ftree = compile_query(tree, langs)
    if next(iter(leaves(ftree)), None) is None:
        return FNone()  # nothing searchable (empty, punctuation): no hits, not all
    return ftree


def _relaxed_tree(words: Sequence[Word], langs: Sequence[str]) -> FNode:
    from indexer.index.query_syntax import Or

    if not words:
        return FNone()
    return _compiled(Or(tuple(words)) if len(words) > 1 else words[0], langs)


def _group(scored: Iterable[tuple[float, IndexDoc]]) -> list[_Group]:
    """Paragraph hits grouped by (treaty, lang, article), best group first; within a group the
    paragraphs best first. A group scores its best paragraph plus a little of the next two
    (an article that matches in several paragraphs is more about the query)."""
    groups: dict[tuple[str, str, str], _Group] = {}
    for score, doc in scored:
        key = (doc.treaty, doc.lang, doc.article_eid)
        g = groups.get(key)
        if g is None:
            g = groups[key] = _Group(doc.treaty, doc.lang, doc.article_eid, score)
        g.docs.append((score, doc))
    out = list(groups.values())
    for g in out:
        g.docs.sort(key=lambda x: -x[0])
        scores = [s for s, _ in g.docs]
        g.score = scores[0] + MORE_PARAGRAPHS * sum(scores[1:3])
    out.sort(key=lambda g: (-g.score, g.treaty, g.lang, g.article_eid))
    return out


def _corrected(query: str, suggestions: Sequence) -> str | None:
    out = query
    for s in suggestions:
        out = re.sub(rf"(?<!\w){re.escape(s.term)}(?!\w)", s.alternatives[0], out)
    return out if out != query else None


def _article_number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    m = re.fullmatch(r"(?i)(?:art(?:icle|igo|ikel)?[._ ]*)?(\d+|[ivxlc]+)", text)
    if not m:
        return None
    value = m.group(1)
    if value.isdigit():
        return int(value)
    from indexer.numerals import parse_roman

    return parse_roman(value)


def topic_key(value: str) -> str:
    """A topic key from its key or display name in any language ("Dividends", "股息");
    QueryError naming the keys when unknown."""
    from indexer.topics import TOPICS

    v = " ".join(value.strip().lower().split())
    if v in TOPICS:
        return v
    for key, names in TOPICS.items():
        if v == key.replace("-", " ") or v in {n.lower() for n in names.values()}:
            return key
    raise QueryError(f"unknown topic '{value.strip()[:40]}': use one of {', '.join(TOPICS)}")


# --- sessions ----------------------------------------------------------------------------

_SESSIONS: dict[tuple[str, str], SearchSession] = {}


def session(data_dir: Path, index_dir: Path | None = None) -> SearchSession:
    """The open session for `data_dir` (re-opened only when the index was rebuilt)."""
    data_dir = Path(data_dir).resolve()
    idx = Path(index_dir).resolve() if index_dir else data_dir / "index"
    try:
        current = (idx / "CURRENT").read_text("utf-8").strip()
    except OSError:
        current = ""
    key = (f"{data_dir}|{idx}", current)
    s = _SESSIONS.get(key)
    if s is None:
        for old in [k for k in _SESSIONS if k[0] == key[0]]:
            _SESSIONS.pop(old).close()
        s = _SESSIONS[key] = SearchSession(data_dir, idx)
    return s


def close_sessions() -> None:
    """Close every cached session."""
    while _SESSIONS:
        _SESSIONS.popitem()[1].close()


def search(data_dir: Path, query: str, *, lang: str | None = None, treaty: str | None = None,
           party: str | None = None, topic: str | None = None, article: int | str | None = None,
           kind: str | None = None, limit: int = 10, aligned: bool = False) -> dict:
    """Search the corpus in `data_dir` (its index in `data_dir`/index); see the module
    docstring for the result. Bad option values raise QueryError."""
    return session(data_dir).search(query, lang=lang, treaty=treaty, party=party, topic=topic,
                                    article=article, kind=kind, limit=limit, aligned=aligned)
