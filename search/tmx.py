"""Translation-memory exports of aligned paragraphs: TMX 1.4b (for OmegaT, Okapi and any CAT
tool) and TSV.

One translation unit per aligned row of `search.compare.compare_article`: a paragraph's text
(up to its first point), each aligned point, and the paragraph's text after its points. A row
needs at least two of the requested languages to become a unit; a treaty of one language, or
one language asked for, is refused with a message (a QueryError), as is an export with no
aligned row.
"""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence

from indexer.errors import NotFoundError, QueryError
from search.compare import compare_article
from search.corpus import Corpus

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_INVALID_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def pair_langs(corpus: Corpus, treaty: str, langs: Sequence[str] | None = None) -> list[str]:
    """The languages of a translation memory of `treaty`: those asked for (each a version of
    the treaty), else all of its versions; QueryError when that is not two or more."""
    t = corpus.treaty(treaty)
    chosen = list(dict.fromkeys(langs)) if langs else list(t.languages)
    for lg in chosen:
        corpus.check_lang(t, lg)
    if len(chosen) < 2:
        if len(t.languages) < 2:
            raise QueryError(f"{t.id} has one language version ({', '.join(t.languages)}): a "
                             "translation memory pairs two; export it as jsonl, txt, docx or "
                             "csv instead")
        raise QueryError(f"a translation memory pairs two languages or more; {t.id} has "
                         f"{', '.join(t.languages)} (e.g. --langs {','.join(t.languages[:2])})")
    return chosen


def units(corpus: Corpus, treaty: str, langs: Sequence[str] | None = None,
          article: str | None = None) -> Iterator[dict]:
    """Aligned rows of every article of `treaty` (or of the one whose eId is `article`):
    {treaty, article, eid, level, score, method, texts: {lang: text}} with at least two
    languages."""
    t = corpus.treaty(treaty)
    langs = pair_langs(corpus, treaty, langs)
    eids = [r[0] for r in corpus.db.execute(
        "SELECT eid FROM units WHERE treaty=? AND kind='article' AND depth=0 "
        "GROUP BY eid ORDER BY MIN(seq)", (t.id,))]
    if article is not None:
        if article not in eids:
            raise NotFoundError(f"{t.id} has no article '{article}' (it has: "
                                f"{', '.join(eids)})")
        eids = [article]
    for eid in eids:
        result = compare_article(corpus, t.id, eid, langs)
        for row in result["rows"]:
            texts = {lg: c["text"].strip() for lg, c in row["cells"].items()
                     if c and c["text"].strip()}
            if len(texts) < 2:
                continue
            yield {"treaty": t.id, "article": eid, "eid": row["eid"], "level": row["level"],
                   "score": row["score"], "method": row["method"], "texts": texts}


def _clean(text: str) -> str:
    return _INVALID_XML.sub("", text)


def _rows(corpus: Corpus, treaty: str, langs: list[str], article: str | None) -> list[dict]:
    """The aligned rows to export; QueryError when there is none (nothing is aligned)."""
    rows = list(units(corpus, treaty, langs, article))
    if not rows:
        where = f"{treaty} {article}" if article else treaty
        raise QueryError(f"no aligned paragraphs in {', '.join(langs)} of {where}: nothing to "
                         "export as a translation memory")
    return rows


def to_tmx(corpus: Corpus, treaty: str, langs: Sequence[str] | None = None,
           version: str = "", article: str | None = None) -> str:
    """A TMX 1.4b document of the treaty's aligned rows (of one article's when `article`
    is its eId) in `langs` (two or more; all the treaty's by default); srclang is the first
    language. QueryError when there is no pair to export."""
    langs = pair_langs(corpus, treaty, langs)
    rows = _rows(corpus, treaty, langs, article)
    root = ET.Element("tmx", version="1.4")
    ET.SubElement(root, "header", {
        "creationtool": "treaty", "creationtoolversion": version or "0",
        "segtype": "paragraph", "o-tmf": "treaty-sqlite", "adminlang": "en",
        "srclang": langs[0], "datatype": "plaintext",
    })
    body = ET.SubElement(root, "body")
    for n, u in enumerate(rows, 1):
        tu = ET.SubElement(body, "tu", tuid=f"{u['treaty']}/{u['eid']}/{n}")
        for kind, value in (("x-treaty", u["treaty"]), ("x-article", u["article"]),
                            ("x-eid", u["eid"]), ("x-level", u["level"]),
                            ("x-method", u["method"]),
                            ("x-score", "" if u["score"] is None else f"{u['score']:.4f}")):
            ET.SubElement(tu, "prop", type=kind).text = value
        for lg in langs:
            if lg in u["texts"]:
                tuv = ET.SubElement(tu, "tuv", {XML_LANG: lg})
                ET.SubElement(tuv, "seg").text = _clean(u["texts"][lg])
    ET.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n'
            + ET.tostring(root, encoding="unicode") + "\n")


def to_tsv(corpus: Corpus, treaty: str, langs: Sequence[str] | None = None,
           article: str | None = None) -> str:
    """Tab-separated rows: treaty, eid, level, score, method, then one column per language
    (tabs and line ends inside a text become spaces; a missing text is empty)."""
    langs = pair_langs(corpus, treaty, langs)
    rows = _rows(corpus, treaty, langs, article)
    out = io.StringIO()
    w = csv.writer(out, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE,
                   escapechar="\\")
    w.writerow(["treaty", "eid", "level", "score", "method", *langs])
    for u in rows:
        w.writerow([u["treaty"], u["eid"], u["level"],
                    "" if u["score"] is None else f"{u['score']:.4f}", u["method"],
                    *(re.sub(r"[\t\r\n]+", " ", u["texts"].get(lg, "")) for lg in langs)])
    return out.getvalue()
