"""The /rates page (treaties x incomes, each cell linking to the paragraph that states the
rate, with its condition; filtered by party; as CSV at /rates.csv) and `rates_for`, the rates a
topic or treaty page shows on top (templates/_rates.html)."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request

from indexer.errors import StoreError
from search import rates as lib
from search.web import corpus

bp = Blueprint("rates", __name__)


def _query(flags: bool = False) -> dict:
    party = request.args.get("party", "").strip() or None
    topic = request.args.get("topic", "").strip() or None
    lang = request.args.get("lang", "").strip() or None
    as_of = request.args.get("as_of", "").strip() or None
    return lib.rates(corpus(), topic=topic, party=party, flags=flags, lang=lang, as_of=as_of)


@bp.get("/rates")
def rates_page() -> str:
    result = _query(flags=True)
    topics, rows = lib.matrix(result)
    parties = sorted({p for t in corpus().treaties() for p in t.parties})
    return render_template("rates.html", topics=topics, rows=rows, parties=parties,
                           party=(request.args.get("party") or "").strip().upper(),
                           lang=(request.args.get("lang") or "en").strip().lower(),
                           as_of=(request.args.get("as_of") or "").strip(),
                           langs=lib.PHRASE_LANGS, count=len(result["rates"]))


@bp.get("/rates.csv")
def rates_csv() -> Response:
    return Response(lib.rates_csv(_query()), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="rates.csv"'})


@bp.get("/api/rates")
def rates_api() -> Response:
    from flask import jsonify

    return jsonify(_query())


@bp.app_template_global()
def rates_for(treaty: str | None = None, topic: str | None = None,
              treaties: list[str] | None = None, lang: str | None = None) -> list[dict]:
    """The rates of a treaty or on a topic (of the `treaties` a page shows, when given), for
    the box on top of its page, their conditions in `lang` where it is one a phrase can be
    said in (none when the store predates the rates stage, or the topic sets no rate)."""
    if topic is not None and topic not in lib.RATE_TOPICS:
        return []
    if lang not in lib.PHRASE_LANGS:
        lang = None
    try:
        return lib.rates(corpus(), treaty=treaty, topic=topic, flags=True,
                         treaties=treaties, lang=lang)["rates"]
    except StoreError:
        return []


@bp.app_template_global()
def rate_text(r: dict) -> str:
    return lib.rate_text(r)


@bp.app_template_global()
def kind_text(r: dict) -> str:
    return lib.kind_text(r)


@bp.app_template_global()
def conditions_text(r: dict) -> str:
    """The condition's fields as one line for a tooltip: "holding ≥ 25% (capital, direct);
    recipient: company; beneficial owner"."""
    c = r.get("conditions") or {}
    parts = []
    if c.get("holding_min") is not None:
        extra = ", ".join(x for x in (c.get("holding_of"), c.get("holding_direct"), c.get("period")) if x)
        parts.append(f"holding ≥ {c['holding_min']:g}%" + (f" ({extra})" if extra else ""))
    if c.get("recipient"):
        parts.append("recipient: " + ", ".join(c["recipient"]))
    if c.get("subject"):
        parts.append("for: " + ", ".join(c["subject"]))
    if c.get("beneficial_owner"):
        parts.append("beneficial owner")
    if c.get("otherwise"):
        parts.append("all other cases")
    return "; ".join(parts)
