"""The topic page's rows by content (search.compare.rows) on the real bundled texts: against
the hand-read gold they beat rows by paragraph number on both halves, every paragraph is in
one row in its order, and the alignment's invariants hold on generated columns."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from script_module import script_module

from search.compare.rows import align_rows

ROOT = Path(__file__).resolve().parent.parent


def _measure():
    return script_module("measure_topic_rows")


@pytest.fixture(scope="module")
def measured(ingested):
    return _measure().measure(ingested)


@pytest.mark.parametrize("half", ["tune", "measure"])
def test_rows_by_content_beat_rows_by_number(measured, half):
    s = measured["halves"][half]
    assert s["content"]["topics"] >= 5
    assert s["content"]["f1"] > s["number"]["f1"] + 0.05, s


def test_every_paragraph_in_one_row_in_order(ingested):
    from search.compare import compare_topic, topic_columns, topic_rows
    from search.corpus import Corpus

    with Corpus(ingested) as corpus:
        for topic in ("dividends", "interest", "permanent-establishment"):
            columns = topic_columns(corpus, compare_topic(corpus, topic)["articles"], None)
            rows = topic_rows(corpus, columns, {})
            for k, col in enumerate(columns):
                placed = [r["cells"][k]["eid"] for r in rows if r["cells"][k] is not None]
                assert placed == [p["eid"] for p in col["head"]["children"]]


def test_unnumbered_paragraph_is_kept(ingested):
    """br-se-1965's interest article is one unnumbered paragraph: by number it had no row."""
    from search.compare import compare_topic, topic_columns, topic_rows
    from search.corpus import Corpus

    with Corpus(ingested) as corpus:
        columns = topic_columns(corpus, compare_topic(corpus, "interest")["articles"], None)
        k = [c["treaty"].id for c in columns].index("br-se-1965")
        rows = topic_rows(corpus, columns, {})
        assert sum(r["cells"][k] is not None for r in rows) == 1


_word = st.sampled_from(["tax", "dividend", "interest", "pension", "resident", "state",
                         "company", "rate", "ship", "royalty", "profit", "capital", "gain",
                         "15", "%", "10"])
_para = st.lists(_word, min_size=1, max_size=12).map(lambda ws: {"en": " ".join(ws)})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_para, max_size=6), min_size=1, max_size=4))
def test_alignment_keeps_every_paragraph_once_in_order(columns):
    rows = align_rows(columns, {})
    for k, col in enumerate(columns):
        assert [r[k] for r in rows if r[k] is not None] == list(range(len(col)))
    assert all(any(x is not None for x in r) for r in rows)


@settings(max_examples=30, deadline=None)
@given(st.lists(_para, min_size=1, max_size=6))
def test_identical_columns_line_up(col):
    """Two copies of a column whose paragraphs have distinct words (a word at least) are
    aligned paragraph for paragraph."""
    words = [frozenset(w for w in p["en"].split() if w.isalpha()) for p in col]
    if len(set(words)) < len(col) or not all(words):
        return
    rows = align_rows([col, col], {})
    assert all(r[0] == r[1] for r in rows)
