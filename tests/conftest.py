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
