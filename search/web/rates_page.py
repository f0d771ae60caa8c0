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
    return lib.rates(corpus(), topic=topic, party=party, flags=flags)


@bp.get("/rates")
def rates_page() -> str:
    result = _query(flags=True)
    topics, rows = lib.matrix(result)
    parties = sorted({p for t in corpus().treaties() for p in t.parties})
    return render_template("rates.html", topics=topics, rows=rows, parties=parties,
                           party=(request.args.get("party") or "").strip().upper(),
                           count=len(result["rates"]))


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
              treaties: list[str] | None = None) -> list[dict]:
    """The rates of a treaty or on a topic (of the `treaties` a page shows, when given), for
    the box on top of its page (none when the store predates the rates stage, or the topic
    sets no rate)."""
    if topic is not None and topic not in lib.RATE_TOPICS:
        return []
    try:
        return lib.rates(corpus(), treaty=treaty, topic=topic, flags=True,
                         treaties=treaties)["rates"]
    except StoreError:
        return []


@bp.app_template_global()
def rate_text(r: dict) -> str:
    return lib.rate_text(r)
