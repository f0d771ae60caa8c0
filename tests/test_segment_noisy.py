"""Structure read through the slips of a scan (issue 30): a heading with specks around it, its
word misread, its number lost where its place in the run is certain, a paragraph sign read
as a currency sign, an ordinal sign read as a degree sign. The texts are the bundled ones,
with their headings and labels misread as the scans of scripts/bench_scans.py misread them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from indexer.models import DocMeta
from indexer.pipeline.document import process
from indexer.segment.numbering.tokens import line_labels
from indexer.sources.read import decode

ROOT = Path(__file__).resolve().parent.parent


def _articles(text: str, lang: str) -> list[tuple[int, int, int]]:
    doc, _removed = process(decode(text.encode(), "scan.txt"),
                            DocMeta(file="scan.txt", treaty="xx-yy-1950", languages=(lang,)),
                            topics=False)
    return [(u.number, u.start, len(u.children)) for v in doc.versions for u in v.units
            if u.kind == "article"]


def _head(text: str, lines: int) -> str:
    return "\n".join(text.split("\n")[:lines]) + "\n"


def test_misread_headings_are_read_as_the_articles_they_are():
    text = _head((ROOT / "corpus" / "brazil-colombia-2022.pt.txt").read_text(encoding="utf-8"),
                 60)
    clean = _articles(text, "pt")
    assert [n for n, _s, _p in clean] == [1, 2, 3, 4, 5]
    noisy = (text.replace("ARTIGO 1\n", "ARTIGO\n")  # its number lost, before a 2
             .replace("ARTIGO 2\n", ". ARTIGO 2\n")  # a speck before it
             .replace("ARTIGO 3\n", "ARFIGO 3\n")  # its word misread
             .replace("ARTIGO 4\n", "ARTIGO 4'\n"))  # a speck after it
    assert _articles(noisy, "pt") == clean


def test_a_heading_word_alone_between_two_headings_is_the_one_missing():
    text = _head((ROOT / "corpus" / "brazil-colombia-2022.pt.txt").read_text(encoding="utf-8"),
                 60)
    clean = _articles(text, "pt")
    assert _articles(text.replace("ARTIGO 3\n", "ARTIGO\n"), "pt") == clean


def test_paragraph_signs_read_as_dollars_still_number_paragraphs():
    text = ROOT.parent / "shared" / "corpus-wild" / "sv" / "at-se-1959.txt"
    if not text.exists():
        pytest.skip("shared/corpus-wild is not beside the project")
    lines = text.read_text(encoding="utf-8").split("\n")
    start = lines.index("Artikel 1")
    typed = "\n".join(lines[start:start + 230]) + "\n"
    clean = _articles(typed, "sv")
    assert [p for _n, _s, p in clean][:3] == [7, 4, 4]
    assert _articles(re.sub(r"(?m)^§ ", "$ ", typed), "sv") == clean


def test_an_ordinal_sign_read_as_a_degree_sign_or_a_ring_is_one_form():
    forms = {line_labels(f"Artigo 1{mark} Definições")[0].form for mark in "º°˚"}
    assert len(forms) == 1


def test_paragraph_labels_misread_where_the_next_number_is_due():
    text = _head((ROOT / "corpus" / "brazil-peru-2006.en.txt").read_text(encoding="utf-8"), 60)
    clean = _articles(text, "en")
    lines = text.split("\n")
    start = lines.index("ARTICLE 2")
    para = [k for k in range(start, start + 12) if lines[k][:3] in ("2. ", "3. ", "4. ")]
    lines[para[0]] = lines[para[0]].replace("2. ", "2 ", 1)  # its stop lost
    lines[para[1]] = lines[para[1]].replace("3. ", "3, ", 1)  # a comma for its stop
    assert _articles("\n".join(lines), "en") == clean
