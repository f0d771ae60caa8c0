"""The term concordance in the web app: /terms?q=TERM[&to=pt&to=zh][&from=en][&treaty=ID]
shows how a term is rendered in the other languages (`search.concordance`), each rendering
with the treaties that use it and its keywords in context on both sides, linked to their
paragraphs; /api/terms the same as JSON (`treaty terms --json`)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from indexer.errors import NotFoundError, QueryError
from search.web import searching

bp = Blueprint("terms", __name__)


def _langs(name: str) -> list[str]:
    """?to=pt&to=zh or ?to=pt,zh; names as typed ("english") read as codes."""
    from search.names import language_code

    out: list[str] = []
    for value in request.args.getlist(name):
        out.extend(language_code(x) or x.strip() for x in value.split(",") if x.strip())
    return list(dict.fromkeys(out))


def _lookup() -> tuple[str, dict | None]:
    """The term asked for and its concordance (None when no term was asked for)."""
    from search.concordance import concordance

    term = searching.clean_input(request.args.get("q", ""))[: searching.MAX_QUERY]
    if not term:
        return "", None
    source = (request.args.get("from") or "").strip() or None
    treaty = (request.args.get("treaty") or "").strip() or None
    with current_app.extensions["treaty_searcher"].checkout() as index:
        return term, concordance(index.session, term, source, _langs("to") or None, treaty)


@bp.get("/terms")
def terms_page() -> tuple[str, int] | str:
    with current_app.extensions["treaty_searcher"].checkout() as index:
        languages = list(index.searcher.languages)
    chosen = _langs("to")
    try:
        term, result = _lookup()
    except (NotFoundError, QueryError) as exc:
        status = 404 if isinstance(exc, NotFoundError) else 400
        return render_template("terms.html", term=request.args.get("q", "")[:200],
                               result=None, error=str(exc), languages=languages,
                               chosen=chosen), status
    return render_template("terms.html", term=term, result=result, error=None,
                           languages=languages, chosen=chosen)


@bp.get("/api/terms")
def terms_api() -> Response:
    _term, result = _lookup()
    if result is None:
        raise QueryError("missing q: a term, e.g. /api/terms?q=beneficial+owner&to=pt")
    return jsonify(result)

