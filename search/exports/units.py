"""One article (or protocol item, preamble …) of a treaty, in each of its language versions,
as the export records of `search.corpus.export_jsonl` or as text with its citation and
source line."""

from __future__ import annotations

from collections.abc import Sequence

from indexer.errors import NotFoundError
from search.citations import eid_citation
from search.corpus import Corpus, export_jsonl
from search.exports.tables import lines_text
from search.names import treaty_name


def unit_eid(unit: str | int) -> str:
    """The eId of a top-level unit as typed: an article number or numeral ("10", "X",
    "Article 10"), or an eId ("art_10", "prot_4", "preamble")."""
    from search.compare import article_eid

    text = str(unit).strip()
    if "_" in text or text.isalpha() and text.lower() in ("preamble", "title", "closing"):
        return text if "_" in text else text.lower()
    return article_eid(text)


def article_records(corpus: Corpus, treaty: str, unit: str | int,
                    lang: str | None = None, as_: str | None = None) -> list[dict]:
    """The export records (`search.corpus.export_record`) of one top-level unit of
    `treaty`, one per language version (or of `lang` only), as amended or `as_` (original,
    a date: `export_jsonl`); NotFoundError naming the units
    there are when the treaty has no such unit."""
    eid = unit_eid(unit)
    records = list(export_jsonl(corpus, treaty, lang, as_))
    mine = [r for r in records if r["id"].rsplit("/", 1)[-1] == eid]
    if not mine:
        have = list(dict.fromkeys(r["id"].rsplit("/", 1)[-1] for r in records))
        raise NotFoundError(f"{treaty} has no unit '{eid}' (it has: {', '.join(have[:40])}"
                            f"{' …' if len(have) > 40 else ''})")
    return mine


def records_text(records: Sequence[dict]) -> str:
    """Each record as its citation, language and treaty name, its source line, then its text."""
    out = []
    for r in records:
        eid = r["id"].rsplit("/", 1)[-1]
        head = f"{eid_citation(r['treaty'], eid)} [{r['lang']}] — {treaty_name(r['treaty'])}"
        source = lines_text(r["source"]["file"], *r["source"]["lines"])
        out.append(f"{head}\nSource: {source}\n\n{(r['text'] or '').strip()}\n")
    return "\n".join(out)
