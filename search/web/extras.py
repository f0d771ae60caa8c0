"""Pieces of the web app beside the pages of `views`: readable treaty names, downloads of a
treaty or an article (TMX, TSV, JSONL, plain text) and the template helpers they need.

    /download/<treaty>.<fmt>            the whole treaty (tmx, tsv: its aligned versions;
                                         jsonl, txt: every version or ?lang=)
    /download/<treaty>.<fmt>?article=art_10   one article
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, abort, request

from indexer.errors import QueryError
from indexer.sources.countries import country_name
from search.web import corpus

bp = Blueprint("extras", __name__)

FORMATS = {"tmx": "application/x-tmx+xml", "tsv": "text/tab-separated-values",
           "jsonl": "application/x-ndjson", "txt": "text/plain"}


def treaty_name(treaty_id: str, parties: tuple[str, ...] = (), lang: str = "en") -> str:
    """A treaty as people name it: "Brazil–Peru (2006)" (`search.names`, the one helper)."""
    from search import names

    return names.treaty_name(treaty_id, lang)


@bp.app_template_global("treaty_name")
def _treaty_name(treaty_id: str) -> str:
    return treaty_name(treaty_id)


@bp.app_template_global("fact_name")
def _fact_name(name: str) -> str:
    from search.terminal import FACT_NAMES

    return FACT_NAMES.get(name, name).capitalize()


@bp.app_template_global("cited_as")
def _cited_as(citation: str) -> str:
    """"br-pe-2006 Art. 10(2)" as a person reads it: "Brazil–Peru (2006) Art. 10(2)"."""
    from search.names import cited_as

    return cited_as(citation)


@bp.app_template_global("country")
def _country(code: str) -> str:
    try:
        return country_name(code, "en")
    except (KeyError, LookupError, AttributeError):
        return code


def _records(treaty: str, lang: str | None, article: str | None) -> list[dict]:
    from search.corpus import export_jsonl

    records = list(export_jsonl(corpus(), treaty, lang))
    if article:
        records = [r for r in records if r["id"].split("/")[-1] == article]
        if not records:
            abort(404, f"{treaty} has no unit {article}")
    return records


def _text(records: list[dict]) -> str:
    out = []
    for r in records:
        out.append(f"[{r['lang']}] {r['id'].split('/')[-1]}\n{r['text'].strip()}\n")
    return "\n".join(out)


@bp.get("/download/<treaty>.<fmt>")
def download(treaty: str, fmt: str) -> Response:
    """The treaty (or ?article=) in format `fmt`, as a file to save."""
    if fmt not in FORMATS:
        raise QueryError(f"unknown format '{fmt[:10]}': use one of {', '.join(FORMATS)}")
    lang = request.args.get("lang") or None
    article = request.args.get("article") or None
    c = corpus()
    t = c.treaty(treaty)
    if fmt in ("tmx", "tsv"):
        from search.tmx import to_tmx, to_tsv

        body = (to_tmx if fmt == "tmx" else to_tsv)(c, t.id)
        if article:
            body = _only_article(body, fmt, article)
    elif fmt == "jsonl":
        body = "".join(json.dumps(r, ensure_ascii=False) + "\n"
                       for r in _records(t.id, lang, article))
    else:
        body = _text(_records(t.id, lang, article))
    name = f"{t.id}{'-' + article if article else ''}{'-' + lang if lang else ''}.{fmt}"
    return Response(body, mimetype=FORMATS[fmt], headers={
        "Content-Disposition": f'attachment; filename="{name}"'})


def _only_article(body: str, fmt: str, article: str) -> str:
    """The rows of one article of a TSV or TMX export."""
    if fmt == "tsv":
        lines = body.splitlines(keepends=True)
        keep = [ln for ln in lines[1:] if ln.split("\t")[1].split("__")[0] == article]
        return lines[0] + "".join(keep)
    import xml.etree.ElementTree as ET

    root = ET.fromstring(body.split("\n", 2)[2])
    tus = root.find("body")
    for tu in list(tus):
        prop = tu.find("prop[@type='x-article']")
        if prop is None or prop.text != article:
            tus.remove(tu)
    head = "\n".join(body.split("\n", 2)[:2])
    return head + "\n" + ET.tostring(root, encoding="unicode") + "\n"
