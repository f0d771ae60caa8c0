"""The local web app: search, read side by side, compare across treaties.

``create_app(data_dir)`` builds a Flask app over a data directory (the store and the index
that `treaty ingest` wrote). Pages are server-rendered Jinja2 templates that work without
JavaScript; ``/api/`` mirrors the CLI's JSON. Run it with ``treaty serve``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, g

from search.corpus import Corpus

__all__ = ["SearcherCache", "create_app", "warm_up"]


class SearcherCache:
    """A pool of open indexes (each a `WebIndex`: the search session and the facets' engine)
    of the live generation. A search checks one out for itself (`checkout`), so searches run
    side by side and a slow one holds no other; an index of an older generation (an ingest
    while the app runs) is closed instead of reused."""

    #: Idle indexes kept open for the next searches (more are closed when returned).
    keep = 8

    def __init__(self, data_dir: Path, index_dir: Path | None = None) -> None:
        self.data_dir = data_dir
        self.index_dir = index_dir  # None: the live generation's (`indexer.datadir`)
        self._lock = threading.Lock()  # guards `_idle` only, never held during a search
        self._idle: list[tuple[str | None, object]] = []

    def _live(self) -> str | None:
        from indexer.datadir import live

        index_dir = self.index_dir or live(self.data_dir) / "index"
        try:
            return str(index_dir / (index_dir / "CURRENT").read_text("utf-8").strip())
        except OSError:
            return None

    @contextmanager
    def checkout(self) -> Iterator:
        """An index of the live generation for this caller alone, for the block (raises
        IndexMissingError when there is none)."""
        from search.web.searching import WebIndex

        live = self._live()
        index, stale = None, []
        with self._lock:
            while self._idle and index is None:
                generation, candidate = self._idle.pop()
                if generation == live:
                    index = candidate
                else:
                    stale.append(candidate)
        for old in stale:
            old.close()
        if index is None:
            index = WebIndex(self.data_dir, self.index_dir)
        try:
            yield index
        finally:
            self._give_back(live, index)

    def _give_back(self, generation: str | None, index) -> None:
        with self._lock:
            keep = generation == self._live() and len(self._idle) < self.keep
            if keep:
                self._idle.append((generation, index))
        if not keep:
            index.close()


def create_app(data_dir: str | Path) -> Flask:
    """The web app over the store and index in `data_dir`."""
    app = Flask(__name__)
    app.config["DATA_DIR"] = Path(data_dir)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["treaty_searcher"] = SearcherCache(Path(data_dir))

    @app.teardown_appcontext
    def _close(_exc: BaseException | None) -> None:
        corpus = g.pop("corpus", None)
        if corpus is not None:
            corpus.close()

    from search.web import extras, guard, views

    app.before_request(guard.refuse_control_characters)
    app.after_request(guard.add_headers)
    app.register_blueprint(views.bp)
    from search.web import rates_page

    app.register_blueprint(rates_page.bp)
    app.register_blueprint(extras.bp)
    from search.web import terms_page

    app.register_blueprint(terms_page.bp)
    views.register_errors(app)
    return app


def corpus() -> Corpus:
    """The store for this request, opened on first use and closed at teardown."""
    from flask import current_app

    if "corpus" not in g:
        g.corpus = Corpus(current_app.config["DATA_DIR"])
    return g.corpus


def warm_up(app: Flask) -> None:
    """Render one page of each kind once (opens the index, loads each language's analyser —
    jieba's dictionary takes a moment — and compiles the templates), so the first page a
    user opens is as fast as the next. Failures are left to the pages themselves."""
    client = app.test_client()
    for url in ("/", "/search?q=tax+OR+%E7%A8%8E+OR+skatt+OR+imposto", "/topic/dividends",
                "/topic", "/api/cite?q=Brasil+Artigo+1"):
        client.get(url)
    try:
        with app.app_context():
            c = corpus()
            first = next(iter(c.treaties()), None)
            if first is not None:
                client.get(f"/t/{first.id}")
                row = c.db.execute("SELECT eid FROM units WHERE treaty = ? AND depth = 0 "
                                   "AND kind = 'article' LIMIT 1", (first.id,)).fetchone()
                if row is not None:
                    client.get(f"/t/{first.id}/{row['eid']}?view=diff")
    except Exception:  # noqa: BLE001 - the page that needs it reports the problem
        return
