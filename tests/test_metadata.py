"""Guessing parties, date and place of signature from a text's title and closing formula."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indexer.models import DocMeta
from indexer.sources import metadata


def _lines(path: Path) -> list[str]:
    return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.mark.parametrize(
    ("file", "parties", "signed", "place"),
    [
        ("brazil-peru-2006.en.txt", ("BR", "PE"), "2006-02-17", "Lima"),
        ("brazil-colombia-2022.pt.txt", ("BR", "CO"), "2022-08-05", "Brasília"),
        ("china-brazil-1991.zh.txt", ("BR", "CN"), "1991-08-05", "北京"),
    ],
)
def test_guess_from_real_texts(corpus_dir: Path, file, parties, signed, place) -> None:
    meta = metadata.guess(DocMeta(file=file, treaty=""), _lines(corpus_dir / file))
    assert meta.parties == parties
    assert meta.signed == signed
    assert meta.place == place
    assert meta.treaty == "-".join(p.lower() for p in parties) + "-" + signed[:4]
    assert {"parties", "signed", "place", "treaty"} <= set(meta.guessed)


def test_declared_fields_are_kept(corpus_dir: Path) -> None:
    meta = DocMeta(file="x.txt", treaty="br-pe-2006", parties=("BR", "PE"), signed="2006-02-17",
                   place="Lima")
    out = metadata.guess(meta, _lines(corpus_dir / "brazil-colombia-2022.pt.txt"))
    assert (out.treaty, out.parties, out.signed, out.place) == (
        "br-pe-2006", ("BR", "PE"), "2006-02-17", "Lima")
    assert out.guessed == ()


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("signed in the city of Lima, on February 17th, 2006, in two", "2006-02-17"),
        ("Done at The Hague this 5th day of June, 1986", "1986-06-05"),
        ("FEITO em Brasília, em 5 de agosto de 2022, nos idiomas", "2022-08-05"),
        ("Som skedde i Rio de Janeiro den 17 september 1965 i tre", "1965-09-17"),
        ("本协定于一九九一年八月五日在北京签订", "1991-08-05"),
        ("于2013年5月31日在北京签订", "2013-05-31"),
        ("no date here", None),
    ],
)
def test_find_date(text: str, iso: str | None) -> None:
    assert metadata.find_date(text) == iso


@given(st.integers(1800, 2099), st.integers(1, 12), st.integers(1, 28))
def test_find_date_round_trip_english(year: int, month: int, day: int) -> None:
    names = ["January", "February", "March", "April", "May", "June", "July", "August",
             "September", "October", "November", "December"]
    text = f"Done at Paris on {day} {names[month - 1]} {year}."
    assert metadata.find_date(text) == f"{year:04d}-{month:02d}-{day:02d}"


def test_treaty_id_without_parties_falls_back_to_file_name() -> None:
    assert metadata.treaty_id(("PE", "BR"), 2006, "x") == "br-pe-2006"
    assert metadata.treaty_id((), "1996-09-23", "Nordic convention") == "nordic-convention-1996"
    assert metadata.treaty_id((), None, "mystery") == "mystery-0000"
