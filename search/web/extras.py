"""Pieces of the web app beside the pages of `views`: readable treaty names, downloads of a
treaty, an article or a topic page, and the template helpers they need.

    /download/<treaty>.<fmt>            the whole treaty (tmx, tsv: its aligned versions;
                                         jsonl, txt: every version), in the ?lang= chosen
    /download/<treaty>.<fmt>?article=art_10   one article (also csv, docx: side by side)
    /download/topic/<topic>.<csv|docx>  a topic page: the provision in every treaty
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, request

from indexer.errors import QueryError
from indexer.sources.countries import country_name
from search.names import treaty_name
from search.web import corpus

bp = Blueprint("extras", __name__)

FORMATS = {"tmx": "application/x-tmx+xml", "tsv": "text/tab-separated-values",
           "jsonl": "application/x-ndjson", "txt": "text/plain; charset=utf-8",
           "csv": "text/csv; charset=utf-8",
           "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}


@bp.app_template_global("treaty_name")
def _treaty_name(treaty_id: str) -> str:
    return treaty_name(treaty_id)


@bp.app_template_global("own_name")
def _own_name(code: str) -> str:
    """A language by its name in itself ("Español"), for one the interface has no name of."""
    from search.names import own_name

    return own_name(code)


@bp.app_template_global("unit_cite")
def _unit_cite(treaty_id: str, eid: str) -> str:
    """A unit of a treaty as a citation names it, without the treaty: "Art. 11(2)"."""
    from search.citations import eid_citation

    return eid_citation(treaty_id, eid).partition(" ")[2]


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


def _langs() -> list[str]:
    """?lang=sv&lang=en or ?lang=sv,en, names as typed ("english") read as codes."""
    from search.names import language_code

    out: list[str] = []
    for value in request.args.getlist("lang"):
        out.extend(language_code(x) or x.strip() for x in value.split(",") if x.strip())
    return list(dict.fromkeys(out))


def _body(fmt: str, treaty: str, article: str | None, langs: list[str]) -> str | bytes:
    """The download of `fmt` (a QueryError or NotFoundError for what cannot be made)."""
    from search import exports
    from search.corpus import export_jsonl
    from search.exports.units import unit_eid

    c = corpus()
    if fmt in ("tmx", "tsv"):
        from search.tmx import to_tmx, to_tsv

        eid = unit_eid(article) if article else None
        return (to_tmx if fmt == "tmx" else to_tsv)(c, treaty, langs or None, article=eid)
    if fmt in ("csv", "docx"):
        if not article:
            raise QueryError(f"a {fmt} download is of one article side by side: add "
                             "?article=art_N")
        table = exports.article_table(c, treaty, article, langs or None)
        return exports.table_csv(table) if fmt == "csv" else exports.table_docx(table)
    lang = langs[0] if len(langs) == 1 else None
    records = exports.article_records(c, treaty, article, lang) if article else \
        list(export_jsonl(c, treaty, lang))
    if len(langs) > 1:
        records = [r for r in records if r["lang"] in langs]
    if fmt == "txt":
        return exports.records_text(records)
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def attachment(body: str | bytes, fmt: str, name: str) -> Response:
    """`body` as a file to save, named `name`."""
    return Response(body, mimetype=FORMATS[fmt], headers={
        "Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/download/<treaty>.<fmt>")
def download(treaty: str, fmt: str) -> Response:
    """The treaty (or ?article=) in format `fmt`, in the languages of ?lang= (all by
    default), as a file to save."""
    if fmt not in FORMATS:
        raise QueryError(f"unknown format '{fmt[:10]}': use one of {', '.join(FORMATS)}")
    article = request.args.get("article") or None
    langs = _langs()
    t = corpus().treaty(treaty)
    body = _body(fmt, t.id, article, langs)
    name = f"{t.id}{'-' + article if article else ''}{''.join('-' + lg for lg in langs)}.{fmt}"
    return attachment(body, fmt, name)


@bp.get("/download/topic/<topic>.<fmt>")
def download_topic(topic: str, fmt: str) -> Response:
    """The topic page (the provision in every treaty, rows by content) as CSV or DOCX."""
    from search import exports
    from search.web.views import term_table

    if fmt not in ("csv", "docx"):
        raise QueryError(f"a topic downloads as csv or docx, not '{fmt[:10]}'")
    lang = (request.args.get("lang") or "").strip() or None
    table = exports.topic_table(corpus(), topic.strip()[:80], lang, term_table())
    body = exports.table_csv(table) if fmt == "csv" else exports.table_docx(table)
    return attachment(body, fmt, f"topic-{topic.strip()[:40]}{'-' + lang if lang else ''}.{fmt}")
