"""The country-name matcher (`indexer.sources.countries._Names`, an Aho-Corasick automaton)
finds what the regex alternation of every name, longest first, found before it: the same
names at the same places, on the real texts and on made-up strings; and the tables kept in
the machine cache are the ones pycountry's catalogs give."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.sources import countries
from tests.conftest import CORPUS, ROOT

SHARED = ROOT.parent / "shared"


def _trie(names: list[str]) -> str:
    root: dict = {}
    for name in names:
        node = root
        for ch in name:
            node = node.setdefault(ch, {})
        node[""] = {}

    def pattern(node: dict) -> str:
        branches = [(r"[\s-]+" if ch == " " else re.escape(ch)) + pattern(child)
                    for ch, child in sorted(node.items()) if ch]
        if "" in node:
            branches.append("")
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return pattern(root)


@pytest.fixture(scope="module")
def reference():
    """The regex the matcher replaced (every name as a trie of alternations, the CJK ones
    without word boundaries, the others with an optional genitive)."""
    names = sorted(countries._plain_keys(), key=lambda n: (-len(n), n))
    cjk = [n for n in names if countries._CJK.search(n)]
    other = [n for n in names if not countries._CJK.search(n)]
    assert not {n[0] for n in cjk} & {n[0] for n in other}
    pattern = re.compile(rf"(?<![\w'])(?P<n>{_trie(other)})(?:s|'s|’s|')?(?![\w'])"
                         rf"|(?P<c>{_trie(cjk)})")

    def find(text: str) -> list[tuple[int, int, int, str]]:
        out = []
        for m in pattern.finditer(countries.fold(text)):
            written = m.group("n") or m.group("c")
            out.append((m.start(), m.start() + len(written), m.end(),
                        re.sub(r"[-\s]+", " ", written)))
        return out

    return find


def _found(text: str) -> list[tuple[int, int, int, str]]:
    return list(countries._names().find(countries.fold(text)))


def test_same_names_as_the_regex_on_real_texts(reference):
    files = sorted(CORPUS.glob("*.txt")) + sorted(SHARED.glob("corpus-*/*/*.txt"))[:12]
    found = 0
    for path in files:
        text = path.read_text("utf-8", errors="replace")
        for at in range(0, len(text), 20_000):
            chunk = text[at:at + 20_000]
            expected = reference(chunk)
            assert _found(chunk) == expected, path.name
            found += len(expected)
    assert found > 100


_PIECES = ["sweden", "sverige", "sveriges", "sweden's", "peru", "brasil", "korea",
           "republiken korea", "guinea-bissau", "viet nam", "中国", "巴西", "台湾省", "s", "'",
           "’s", "-", " ", "\n", "x", "é", "_", "1"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12), st.sampled_from(["", " ", "-"]))
def test_same_names_as_the_regex_on_made_up_text(reference, pieces, glue):
    text = glue.join(pieces)
    assert _found(text) == reference(text)
    assert _found(text.upper()) == reference(text.upper())


def test_the_cached_tables_are_pycountrys(tmp_path, monkeypatch):
    monkeypatch.setenv("TREATY_CACHE", str(tmp_path))
    countries._tables.cache_clear()
    try:
        made = countries._tables()  # built, and written to the machine cache
        (side,) = (tmp_path / "countries").glob("*.pickle")
        countries._tables.cache_clear()
        assert countries._tables() == made == countries._build_tables()  # read back
        side.write_bytes(b"damaged")
        countries._tables.cache_clear()
        assert countries._tables() == made  # built again
    finally:
        countries._tables.cache_clear()
