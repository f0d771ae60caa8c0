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
