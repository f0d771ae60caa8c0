"""Tests for indexer.clean on the real seed texts (and perturbed copies of them)."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from indexer.clean import clean, join_lines, strip_drawing
from indexer.models import Cleaned

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
SEEDS = sorted(p.name for p in CORPUS.glob("*.txt"))
OCR = "sweden-brazil-1965.sv-en-pt.txt"
ONE_PER_LINE = [
    "brazil-peru-2006.en.txt",
    "brazil-colombia-2022.pt.txt",
    "china-brazil-1991.zh.txt",
    "portugal-spain-1993-art10.en-pt.txt",
]
# Any OCR variant of the 1965 running header: "Kungl. Maj.ts proposition nr 164 år 1965",
# "Kungl. Mnj.ts proposition nr 16''r år W65", "Kungl. Maj ds proposition nr 16 i år 1!)(iö".
HEADER = re.compile(r"^Kungl\. ?M\w\w[ .:]*\w* ?proposition nr ")
SHEET_MARK = re.compile(r"Bihang till riksdagens protokoll|Dihang till riksdagens")


@cache
def _text(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


@cache
def _clean(name: str) -> Cleaned:
    return clean(_text(name))


def _physical(cleaned: Cleaned) -> list[str]:
    return [p for line in cleaned.lines for p in line.raw.split("\n")]


def test_no_running_header_variant_survives() -> None:
    cleaned = _clean(OCR)
    survivors = [p for p in _physical(cleaned) if HEADER.match(p) or SHEET_MARK.search(p)]
    assert survivors == []
    removed = [f.raw for f in cleaned.furniture]
    assert sum(bool(HEADER.match(r)) for r in removed) >= 50
    assert sum(bool(SHEET_MARK.search(r)) for r in removed) == 4
    # the variants the OCR produced are among them
    for variant in (
        "Kungl. Maj ds proposition nr 16 i år 1!)(iö",
        "Kungl. Mnj.ts proposition nr 16''r år W65",
    ):
        assert variant in removed


def test_only_furniture_is_removed_from_ocr_text() -> None:
    cleaned = _clean(OCR)
    for f in cleaned.furniture:
        assert HEADER.match(f.raw) or SHEET_MARK.search(f.raw), f.raw
    # the bill's title mentions the proposition but is not a running header
    assert any(l.text.startswith("Kungl. Maj.ts proposition till riksdagen") for l in cleaned.lines)
    # signatures repeated in three language versions are not running headers
    assert sum("Jens Mailing" in l.text for l in cleaned.lines) == 3


@pytest.mark.parametrize("name", SEEDS)
def test_nothing_lost(name: str) -> None:
    text = _text(name)
    cleaned = _clean(name)
    source = Counter(w for line in text.split("\n") for w in line.split())
    kept = Counter(w for line in (*cleaned.lines, *cleaned.furniture) for w in line.raw.split())
    assert kept == source
    numbers: list[int] = []
    for line in (*cleaned.lines, *cleaned.furniture):
        assert 1 <= line.start <= line.end
        numbers.extend(range(line.start, line.end + 1))
    nonblank = [i + 1 for i, line in enumerate(text.split("\n")) if line.strip()]
    covered = [n for n in numbers if n in set(nonblank)]
    assert sorted(covered) == nonblank  # each non-blank source line exactly once
    # raw is the exact source text of the lines it spans (blank lines dropped)
    source_lines = text.split("\n")
    for line in cleaned.lines:
        span = [s for s in source_lines[line.start - 1 : line.end] if s.strip()]
        assert line.raw == "\n".join(span)


@pytest.mark.parametrize("name", ONE_PER_LINE)
def test_one_paragraph_per_line_texts_unchanged(name: str) -> None:
    text = _text(name)
    cleaned = _clean(name)
    nonblank = [s for s in text.split("\n") if s.strip()]
    spans = sum(line.end - line.start + 1 for line in cleaned.lines)
    assert spans + len(cleaned.furniture) == len(nonblank)
    for line in cleaned.lines:
        if line.start != line.end:  # a paragraph wrapped here and there: joined as prose
            parts = line.raw.split("\n")
            assert line.text == " ".join(part.strip() for part in parts)
            assert all(not part.rstrip().endswith((".", ";", ":")) and nxt.lstrip()[:1].islower()
                       for part, nxt in itertools.pairwise(parts))
            continue
        assert "\n" not in line.raw
        assert line.text == strip_drawing(line.raw)
        if "|" not in line.raw and "__" not in line.raw:
            assert line.text == line.raw.strip()


def test_a_paragraph_wrapped_here_and_there_reads_as_prose() -> None:
    """br-pe-2006 prints one paragraph per line, but for Art. 7(3) and (4), hard-wrapped:
    their text reads as prose, their raw keeps the source's lines."""
    lines = {line.start: line for line in _clean("brazil-peru-2006.en.txt").lines}
    para3 = next(line for line in lines.values() if line.text.startswith("3. In determining the profits"))
    assert "there shall be allowed as deductions" in para3.text and "\n" not in para3.text
    assert para3.raw.count("\n") == 3 and para3.end - para3.start == 3
    para4 = next(line for line in lines.values() if line.text.startswith("4. No profits shall be attributed"))
    assert para4.text.endswith("goods or merchandise for the enterprise.")


def test_signature_drawing_lines_are_furniture() -> None:
    cleaned = _clean("brazil-peru-2006.en.txt")
    assert cleaned.furniture
    for f in cleaned.furniture:
        assert set(f.raw) <= set("|_ ")
    texts = [l.text for l in cleaned.lines]
    assert texts.count("Celso Amorim") == 2
    assert texts.count("FOR THE GOVERNMENT") == 4
    assert not any(set(t) <= set("|_ ") for t in texts)


def test_wrapped_columns_are_joined_into_paragraphs() -> None:
    cleaned = _clean(OCR)
    by_start = {l.start: l for l in cleaned.lines}
    preamble = by_start[55]
    assert preamble.end == 62
    assert preamble.text.startswith("Konungariket Sveriges regering och Brasiliens Förenta")
    assert preamble.raw.count("\n") == 7
    # far fewer logical lines than physical ones
    assert len(cleaned.lines) < 0.3 * len([s for s in _text(OCR).split("\n") if s.strip()])
    # a cross-reference wrapped to the next line is not a new point
    assert any(
        "In the application of paragraph (1) of this Article, when" in l.text for l in cleaned.lines
    )


def test_headings_stay_their_own_lines() -> None:
    cleaned = _clean(OCR)
    texts = [l.text for l in cleaned.lines]
    for word in ("Artikel", "Article", "Artigo"):
        headings = [t for t in texts if re.fullmatch(rf"{word} [IVXL]+", t)]
        assert len(headings) >= 19, word
    for heading in ("Avtal", "Agreement", "Acordo", "Artiele II"):
        assert heading in texts


def test_labels_start_new_lines() -> None:
    cleaned = _clean(OCR)
    for line in cleaned.lines:
        # no paragraph label glued after a sentence end inside one logical line
        assert not re.search(r"[.;:] (§ \d\.|\(\d\) [A-Z])", line.text), line.text


def test_pages_and_blocks() -> None:
    cleaned = _clean(OCR)
    pages = [l.page for l in cleaned.lines]
    blocks = [l.block for l in cleaned.lines]
    assert pages == sorted(pages) and blocks == sorted(blocks)
    assert 50 <= max(pages) <= 62
    by_start = {l.start: l for l in cleaned.lines}
    assert by_start[100].page == by_start[64].page != by_start[160].page  # Agreement / Acordo


@pytest.mark.parametrize(
    ("head", "tail", "joined"),
    [
        (
            "skall vid tillämpningen av finans-",
            "departementet",
            "skall vid tillämpningen av finansdepartementet",
        ),
        ("förutsätt -", "ningarna för ett sådant avtal", "förutsättningarna för ett sådant avtal"),
        ("pertinente, con -", "forme o caso", "pertinente, conforme o caso"),
        ("the per-", "manent establishment", "the permanent establishment"),
        ("statsrådet Sven-", "Eric Nilsson", "statsrådet Sven-Eric Nilsson"),
        ("radio- och tv-", "sändningar", "radio- och tv-sändningar"),
        ("the tax-", "payer", "the taxpayer"),
        ("obligations de l'em-", "ployeur", "obligations de l'employeur"),
        ("ägt rum —", "på diplomatisk väg", "ägt rum — på diplomatisk väg"),
        ("inom sjöfarts-", "eller luftfart", "inom sjöfarts-eller luftfart"),
        ("ägt rum -", "och sedan", "ägt rum - och sedan"),
        ("a ratifica-", "ção do acordo", "a ratificação do acordo"),
        ("中华人民共和国", "政府", "中华人民共和国政府"),
    ],
)
def test_hyphen_joining(head: str, tail: str, joined: str) -> None:
    assert join_lines(head, tail) == joined


def test_document_vocabulary_decides_hyphens() -> None:
    text = "Dispositions fiscales pour le xyzzy-plugh.\n\nLe xyzzy-\nplugh est valide et la\nsuite vient ici sans point\nencore une ligne\n"
    lines = [l.text for l in clean(text).lines]
    assert any("xyzzy-plugh est valide" in t for t in lines)


def _perturbed(seed: int) -> tuple[str, list[str]]:
    """A wrapped text with an invented running header in OCR variants, every ~40 lines."""
    import random

    rng = random.Random(seed)
    body = [s for s in _text(OCR).split("\n")[2000:2600]]
    variants = []
    out: list[str] = []
    for i, line in enumerate(body):
        if i % 40 == 0:
            header = f"Official Gazette of the Republic No {rng.randint(10, 99)} page {i // 40 + 3}"
            chars = list(header)
            for _ in range(rng.randint(0, 3)):
                chars[rng.randrange(len(chars))] = rng.choice("il1!|.")
            header = "".join(chars)
            variants.append(header)
            out.extend(["", header, ""])
        out.append(line)
    return "\n".join(out), variants


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_unseen_running_header_with_ocr_variants_removed(seed: int) -> None:
    text, variants = _perturbed(seed)
    cleaned = clean(text)
    removed = {f.raw for f in cleaned.furniture}
    assert set(variants) <= removed
    assert not any(v in _physical(cleaned) for v in variants)


def test_word_table_answers_as_wordfreq(corpus_dir: Path) -> None:
    """`lexicon.zipf_frequency` reads plain words from a table made from wordfreq's lists and
    leaves every other word to wordfreq: the same answer as wordfreq for each word of the
    bundled texts, as written and lower-cased, and for words outside the table's alphabet."""
    import wordfreq

    from indexer import lexicon

    words: set[str] = set()
    for path in sorted(corpus_dir.glob("*.txt")):
        for w in re.findall(r"\w+", path.read_text("utf-8")):
            words.update((w, w.lower()))
    words.update(("straße", "ŉ", "ĳssel", "l'état", "co-operation", "1965", "İstanbul", "ſ"))
    for lang in ("en", "sv"):
        for w in sorted(words):
            assert lexicon.zipf_frequency(w, lang) == wordfreq.zipf_frequency(w, lang), (lang, w)
