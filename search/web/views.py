"""Routes. Each parses its parameters, calls one library function and renders a template
(or JSON under /api/). Domain errors become 400 (bad input), 404 (unknown id) or 503 (no
corpus yet) with their one-line message; nothing a user types is a 500."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from urllib.parse import quote

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from indexer.errors import AmbiguousError, NotFoundError, QueryError, StoreError, TreatyError
from search.web import corpus, guard, markup, pages, searching

bp = Blueprint("views", __name__)
log = logging.getLogger(__name__)


def _search_data() -> dict:
    cache = current_app.extensions["treaty_searcher"]
    with cache.checkout() as index:
        params = searching.params_from(request.args, index.searcher.languages)
        try:
            return searching.search(index, params)
        except RecursionError:  # the query's own nesting: bad input, not a bug
            raise QueryError("the query nests too deeply: use fewer parentheses") from None


def _langs() -> list[str]:
    """?lang=sv&lang=en or ?lang=sv,en."""
    out: list[str] = []
    for value in request.args.getlist("lang"):
        out.extend(x for x in value.split(",") if x.strip())
    return out


# --- pages -----------------------------------------------------------------------------------


@bp.get("/")
def home() -> str:
    return render_template("home.html", data=pages.home_page(corpus(), _page()))


@bp.get("/search")
def search_page() -> str:
    return render_template("search.html", data=_search_data(), facets=searching.FACETS)


@bp.get("/t/<treaty>")
def treaty(treaty: str) -> str:
    return render_template("treaty.html", data=pages.treaty_page(corpus(), treaty))


@bp.get("/t/<treaty>/<eid>")
def article(treaty: str, eid: str) -> Response | str:
    if "__" in eid:  # a paragraph or point: the article, scrolled to it
        top = eid.split("__")[0]
        url = guard.link("views.article", {"treaty": treaty, "eid": top}, request.args)
        return redirect(url + "#" + quote(eid, safe=""))
    page = pages.article_page(corpus(), treaty, eid, _langs(), request.args.get("view"),
                              request.args.get("as") or request.args.get("as_of"))
    subset = page.langs if len(page.langs) < len(page.treaty.languages) else []
    is_article = page.kind == "article"
    anchors = pages.anchor_ids(page)
    ctx = {lang: markup.Context(
        view=page.view, articles=page.articles, anchors=i == 0,
        current=page.number if is_article else None,
        link=_article_link(page.treaty.id, subset, page.view),
        top=page.eid if is_article else None, units=anchors.get(lang, frozenset()))
        for i, lang in enumerate(page.langs)}
    return render_template("article.html", page=page, ctx=ctx, views=markup.VIEWS)


def _article_link(treaty: str, langs: list[str], view: str):
    def link(number: int, para: int | None) -> str:
        eid = f"art_{number}"
        args = {"lang": langs} if langs else {}
        if view != "text":
            args["view"] = view
        url = url_for("views.article", treaty=treaty, eid=eid, **args)
        return url + (f"#{eid}__para_{para}" if para else "")

    return link


@bp.get("/topic")
def topics() -> str:
    return render_template("topics.html", topics=pages.topics_list(corpus()))


def _page() -> int:
    """?page=N of a paged page (1 when absent; QueryError when not a page number)."""
    return searching.page_number(request.args.get("page", ""))


def term_table() -> dict:
    """The live index's bilingual term table ({} when there is no index: rows then match
    paragraphs of the same language, and numbers, only)."""
    from indexer.index.searcher import IndexMissingError

    try:
        with current_app.extensions["treaty_searcher"].checkout() as index:
            return index.searcher.terms()
    except IndexMissingError:
        return {}


@bp.get("/topic/<topic>")
def topic(topic: str) -> str:
    data = pages.topic_page(corpus(), topic, request.args.get("lang"), term_table(),
                            _page())
    ctx = markup.Context(view="text", articles=set(), link=lambda n, p: "")
    return render_template("topic.html", page=data, ctx=ctx)


@bp.get("/cite")
def cite() -> Response:
    from search.citations import cite as lookup

    text = searching.clean_input(request.args.get("q", ""))
    if not text:
        raise QueryError("type a citation, e.g. 'br-pe-2006 Art. 10(2)' or 'Brazil–Peru Article 10'")
    result = lookup(corpus(), text[: searching.MAX_QUERY], None)
    top = result.eid.split("__")[0]
    url = url_for("views.article", treaty=result.treaty, eid=top)
    return redirect(url + (f"#{result.eid}" if result.eid != top else ""), code=303)


# --- JSON API --------------------------------------------------------------------------------


@bp.get("/api/search")
def api_search() -> Response:
    return jsonify(_search_data())


@bp.get("/api/cite")
def api_cite() -> Response:
    from search.citations import cite as lookup

    text = searching.clean_input(request.args.get("q", ""))
    if not text:
        raise QueryError("missing q: a citation such as 'br-pe-2006 Art. 10(2)'")
    lang = request.args.get("lang") or None
    return jsonify(lookup(corpus(), text[: searching.MAX_QUERY], lang).as_json())


@bp.get("/api/compare")
def api_compare() -> Response:
    treaty_id = request.args.get("treaty", "")
    art = request.args.get("article", "")
    if not treaty_id or not art:
        raise QueryError("give treaty and article, e.g. /api/compare?treaty=br-se-1965&article=7")
    return jsonify(pages.compare_json(corpus(), treaty_id, art, _langs()))


@bp.get("/api/topic/<topic>")
def api_topic(topic: str) -> Response:
    return jsonify(pages.topic_json(corpus(), topic, request.args.get("lang"), term_table(),
                                    _page()))


@bp.get("/api/treaties")
def api_treaties() -> Response:
    from search.corpus import outline

    c = corpus()
    return jsonify([outline(c, t.id) for t in c.treaties()])


@bp.get("/api/treaties/<treaty>")
def api_treaty(treaty: str) -> Response:
    from search.corpus import outline

    return jsonify(outline(corpus(), treaty, request.args.get("lang") or None))


@bp.get("/api/export")
def api_export() -> Response:
    """`treaty export --format jsonl` over HTTP: one JSON object per line."""
    from search.corpus import export_jsonl

    treaty_id = request.args.get("treaty") or None
    lang = request.args.get("lang") or None
    records = list(export_jsonl(corpus(), treaty_id, lang))

    def lines() -> Iterator[str]:
        for rec in records:
            yield json.dumps(rec, ensure_ascii=False) + "\n"

    return Response(stream_with_context(lines()), mimetype="application/x-ndjson")


# --- errors ----------------------------------------------------------------------------------


def _error(status: int, message: str, candidates: tuple[dict, ...] = ()) -> Response:
    """The error page (JSON under /api/); `candidates`: the treaties an ambiguous reference
    may mean, each linked (its "citation" looked up again)."""
    if request.path.startswith("/api/"):
        body = {"error": message, "status": status}
        if candidates:
            body["candidates"] = list(candidates)
        resp = jsonify(body)
    else:
        resp = Response(render_template("error.html", status=status, message=message,
                                        candidates=candidates), mimetype="text/html")
    resp.status_code = status
    return resp


def register_errors(app: Flask) -> None:
    @app.errorhandler(TreatyError)
    def _domain(exc: TreatyError) -> Response:
        if isinstance(exc, NotFoundError):
            return _error(404, str(exc))
        if isinstance(exc, AmbiguousError):
            return _error(400, str(exc), exc.candidates)
        if isinstance(exc, QueryError):
            return _error(400, str(exc))
        if isinstance(exc, StoreError):
            return _error(503, str(exc))
        return _error(400, str(exc))

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        return _error(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(Exception)
    def _bug(exc: Exception) -> Response:  # pragma: no cover - a bug, logged
        log.exception("unhandled error on %s", request.path)
        return _error(500, "internal error: this is a bug; the log has the details")


# --- template helpers ------------------------------------------------------------------------


@bp.app_template_global()
def modify_query(**changes: str | None) -> str:
    """The current URL with `changes` applied to its query string (None removes a key), of
    the parameters that page takes only (guard.LINK_PARAMS); the page number is reset unless
    it is changed."""
    return guard.link(request.endpoint or "views.search_page", request.view_args or {},
                      request.args, {"page": None, **changes})


@bp.app_template_global()
def lang_name(lang: str) -> str:
    return pages.lang_name(lang)


@bp.app_template_global()
def lang_label(lang: str) -> Markup:
    """A language's own name, marked as that language: <span lang="pt">Português</span>."""
    return Markup('<span lang="{}">{}</span>').format(lang, pages.lang_name(lang))


@bp.app_template_global()
def title_lang(treaty) -> str:
    return pages.title_lang(treaty)


@bp.app_template_global()
def topic_name(topic: str | None, lang: str = "en") -> str:
    return pages.topic_name(topic, lang)


@bp.app_template_global()
def unit_label(kind: str, number: int | None, eid: str) -> str:
    return pages.unit_label(kind, number, eid)


@bp.app_context_processor
def _helpers() -> dict:
    return {"render_unit": markup.render_unit, "render_text": markup.render_text,
            "lead_text": markup.lead_text, "tail_text": markup.tail_text,
            "changes_of": markup.changes_of}
