"""Translation-memory exports of aligned paragraphs: TMX 1.4b (for OmegaT, Okapi and any CAT
tool) and TSV.

One translation unit per aligned row of `search.compare.compare_article`: a paragraph's text
(up to its first point), each aligned point, and the paragraph's text after its points. A row
needs at least two of the requested languages to become a unit.
"""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence

from search.compare import compare_article
from search.corpus import Corpus

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_INVALID_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def units(corpus: Corpus, treaty: str, langs: Sequence[str] | None = None) -> Iterator[dict]:
    """Aligned rows of every article of `treaty`: {treaty, article, eid, level, score, method,
    texts: {lang: text}} with at least two languages."""
    t = corpus.treaty(treaty)
    langs = list(langs) if langs else list(t.languages)
    for lg in langs:
        corpus.check_lang(t, lg)
    eids = [r[0] for r in corpus.db.execute(
        "SELECT eid FROM units WHERE treaty=? AND kind='article' AND depth=0 "
        "GROUP BY eid ORDER BY MIN(seq)", (t.id,))]
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


def to_tmx(corpus: Corpus, treaty: str, langs: Sequence[str] | None = None,
           version: str = "") -> str:
    """A TMX 1.4b document of the treaty's aligned rows; srclang is the first language."""
    t = corpus.treaty(treaty)
    langs = list(langs) if langs else list(t.languages)
    root = ET.Element("tmx", version="1.4")
    ET.SubElement(root, "header", {
        "creationtool": "treaty", "creationtoolversion": version or "0",
        "segtype": "paragraph", "o-tmf": "treaty-sqlite", "adminlang": "en",
        "srclang": langs[0], "datatype": "plaintext",
    })
    body = ET.SubElement(root, "body")
    for n, u in enumerate(units(corpus, treaty, langs), 1):
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


def to_tsv(corpus: Corpus, treaty: str, langs: Sequence[str] | None = None) -> str:
    """Tab-separated rows: treaty, eid, level, score, method, then one column per language
    (tabs and line ends inside a text become spaces; a missing text is empty)."""
    t = corpus.treaty(treaty)
    langs = list(langs) if langs else list(t.languages)
    out = io.StringIO()
    w = csv.writer(out, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE,
                   escapechar="\\")
    w.writerow(["treaty", "eid", "level", "score", "method", *langs])
    for u in units(corpus, treaty, langs):
        w.writerow([u["treaty"], u["eid"], u["level"],
                    "" if u["score"] is None else f"{u['score']:.4f}", u["method"],
                    *(re.sub(r"[\t\r\n]+", " ", u["texts"].get(lg, "")) for lg in langs)])
    return out.getvalue()
