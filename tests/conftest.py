"""Shared test fixtures: paths to the bundled corpus and the extra real texts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "corpus"
EXTRA = ROOT.parent / "shared" / "corpus-extra"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return CORPUS


@pytest.fixture(scope="session")
def extra_dir() -> Path:
    if not EXTRA.is_dir():
        pytest.skip("shared/corpus-extra is not beside the project")
    return EXTRA


@pytest.fixture(scope="session")
def ingest_report(tmp_path_factory):
    """The bundled corpus ingested once per test session into a fresh data directory."""
    from indexer.pipeline import ingest

    data = tmp_path_factory.mktemp("data")
    report = ingest(CORPUS, data)
    report.data = data
    return report


@pytest.fixture(scope="session")
def ingested(ingest_report) -> Path:
    return ingest_report.data


@pytest.fixture(scope="session")
def ingested_all(tmp_path_factory) -> Path:
    """The bundled corpus plus the corpus-extra texts of tests/cases/relevance_extra.toml
    (parallel en/sv versions of three treaties), ingested once per session; skipped when
    ../shared is not beside the project."""
    from indexer.pipeline import ingest
    from tests.script_module import script_module

    if not EXTRA.is_dir():
        pytest.skip("shared/corpus-extra is not beside the project")
    mr = script_module("measure_relevance")
    tmp = tmp_path_factory.mktemp("all")
    ingest(mr.combined_corpus(tmp / "corpus"), tmp / "data")
    return tmp / "data"


# --- the browser tests' shared pieces (tests/test_browser*.py): one app server and one
# --- browser for the session, and the folder screenshots go to

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def base_url(ingested):
    """The app on the server `treaty serve` runs (waitress), with its security headers."""
    import threading

    from search.web import create_app
    from search.web.server import make_server

    server = make_server(create_app(ingested), "127.0.0.1", 0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.port}"
    server.close()
    thread.join(10)


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium under Playwright (the browser modules skip where it is missing)."""
    import shutil

    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists() or shutil.which("chromium"), f"{CHROMIUM} is missing"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory) -> Path:
    """Where screenshots go: $TREATY_SCREENSHOTS, else a temporary folder of the session."""
    import os

    chosen = os.environ.get("TREATY_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
