"""What a comparison exports: one article side by side in its language versions, or one
provision (a topic) across treaties, as a table whose every cell carries its citation and its
source line, so that a quote taken from the file can be checked against the source.

`article_table` reads `search.compare.compare_article` (rows as the alignment links them);
`topic_table` the topic page's rows by content (`search.compare.topic_rows`). Both are plain
data (`Table`); `search.exports.files` writes them as CSV or DOCX.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from search.citations import eid_citation
from search.corpus import Corpus
from search.names import treaty_name


@dataclass(frozen=True)
class Cell:
    text: str
    citation: str  # "br-se-1965 Art. 7(2)"
    source: str  # "sweden-brazil-1965.sv-en-pt.txt, lines 410–414"


@dataclass(frozen=True)
class Column:
    head: str  # "sv · Svenska" or "br-pe-2006 Art. 10 (en)"
    lang: str


@dataclass(frozen=True)
class Table:
    title: str  # what is compared: "br-se-1965 Art. 7 — Brazil–Sweden (1965)"
    source: str  # the files it was read from, with the treaties' titles
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell | None, ...], ...]


def lines_text(file: str | None, start: int | None, end: int | None) -> str:
    """"FILE, lines 410–414" ("line 12" for one line; the file alone without lines)."""
    if not file:
        return ""
    if start is None:
        return file
    if end is None or end == start:
        return f"{file}, line {start}"
    return f"{file}, lines {start}–{end}"


class _Places:
    """Where each unit of a treaty is in its source: (lang, eId) -> (file, start, end)."""

    def __init__(self, corpus: Corpus, treaty: str) -> None:
        self.treaty = treaty
        self.at = {(r["lang"], r["eid"]): (r["file"], r["start_line"], r["end_line"])
                   for r in corpus.rows(treaty)}

    def cell(self, lang: str, eids: str, text: str) -> Cell:
        """The cell of the units `eids` ("art_7__para_1, art_7__para_2" when a row joins
        several) of the `lang` version."""
        ids = [e.strip().replace("#tail", "") for e in eids.split(",") if e.strip()]
        found = [self.at[lang, e] for e in ids if (lang, e) in self.at]
        if not found:
            return Cell(text, eid_citation(self.treaty, ids[0]) if ids else self.treaty, "")
        starts = [s for _f, s, _e in found if s is not None]
        ends = [e for _f, _s, e in found if e is not None]
        source = lines_text(found[0][0], min(starts) if starts else None,
                            max(ends) if ends else None)
        return Cell(text, eid_citation(self.treaty, ids[0]), source)


def _source_line(corpus: Corpus, treaty_ids: Sequence[str]) -> str:
    parts = []
    for tid in treaty_ids:
        t = corpus.treaty(tid)
        files = ", ".join(t.files)
        parts.append(f"{tid}: {t.title or treaty_name(tid)} ({files})" if files else tid)
    return "Source: " + "; ".join(parts)


def article_table(corpus: Corpus, treaty: str, article: str | int,
                  langs: Sequence[str] | None = None) -> Table:
    """ARTICLE of TREATY in its language versions (or `langs`), a column per version and a
    row per aligned paragraph or point, as `treaty compare` shows it."""
    from search.compare import compare_article
    from search.names import own_name

    result = compare_article(corpus, treaty, article, langs)
    places = _Places(corpus, result["treaty"])
    columns = tuple(Column(f"{lg} · {own_name(lg)}" + (
        f" — {result['titles'][lg]}" if result["titles"].get(lg) else ""), lg)
        for lg in result["langs"])
    rows = []
    for row in result["rows"]:
        rows.append(tuple(None if (c := row["cells"][lg]) is None
                          else places.cell(lg, c["eid"], c["text"] or "")
                          for lg in result["langs"]))
    head = eid_citation(result["treaty"], result["eid"])
    return Table(f"{head} — {treaty_name(result['treaty'])}",
                 _source_line(corpus, [result["treaty"]]), columns, tuple(rows))


def topic_table(corpus: Corpus, topic: str, lang: str | None = None,
                terms: dict | None = None, treaties: Sequence[str] | None = None) -> Table:
    """The article on `topic` of every treaty (or of `treaties`), a column per treaty (in
    `lang` where it has it) and its paragraphs in rows by what they say, as the web app's
    topic page lines them up (`terms`: the index's term table, for columns of different
    languages)."""
    from indexer.topics import TOPICS
    from search.compare import compare_topic, topic_columns, topic_key, topic_rows
    from search.names import known_language

    key = topic_key(topic)
    if lang:  # (a treaty without this language shows its first: as the topic page does)
        lang = known_language(lang, sorted({lg for t in corpus.treaties()
                                            for lg in t.languages}))
    found = compare_topic(corpus, key, treaties=treaties)
    columns = topic_columns(corpus, found["articles"], lang)
    rows = topic_rows(corpus, columns, terms)
    places = {c["treaty"].id: _Places(corpus, c["treaty"].id) for c in columns}
    heads = tuple(Column(f"{eid_citation(c['treaty'].id, c['eid'])} ({c['lang']})", c["lang"])
                  for c in columns)
    lead = tuple(places[c["treaty"].id].cell(c["lang"], c["eid"], _lead(c["head"]))
                 for c in columns)
    body = [tuple(None if cell is None else places[c["treaty"].id].cell(
        c["lang"], cell["eid"], cell["text"] or "") for c, cell in zip(columns, row["cells"],
                                                                     strict=True))
            for row in rows]
    ids = list(dict.fromkeys(c["treaty"].id for c in columns))
    return Table(f"{TOPICS[key]['en']}: the provision in {len(ids)} treat"
                 f"{'y' if len(ids) == 1 else 'ies'}", _source_line(corpus, ids), heads,
                 (lead, *body))


def _lead(head: dict) -> str:
    """An article's heading and title, as its first row."""
    return " ".join(x for x in (head.get("label") and f"Article {head['label']}",
                                head.get("title")) if x) or ""


def index_terms(data_dir) -> dict:
    """The bilingual term table of the live index in `data_dir` ({} without an index: the
    topic rows then match paragraphs of one language, and numbers, only)."""
    from indexer.index import open_index
    from indexer.index.searcher import IndexMissingError

    try:
        from indexer.datadir import live

        with open_index(live(data_dir) / "index") as searcher:
            return searcher.terms()
    except IndexMissingError:
        return {}
