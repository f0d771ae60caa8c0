"""Tests for indexer.languages on the real seed texts."""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from indexer.clean import clean
from indexer.languages import detect, split
from indexer.models import Line

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
OCR = "sweden-brazil-1965.sv-en-pt.txt"
LINE_BY_LINE = "portugal-spain-1993-art10.en-pt.txt"
CASES = ROOT / "tests" / "cases" / "language_blocks.json"


@cache
def _lines(name: str) -> tuple[Line, ...]:
    return clean((CORPUS / name).read_text(encoding="utf-8")).lines


@cache
def _split(name: str) -> dict[str, tuple[Line, ...]]:
    return split(_lines(name))


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def test_ocr_text_has_three_streams_in_order_of_appearance() -> None:
    streams = _split(OCR)
    assert list(streams) == ["sv", "en", "pt"]
    for lang, lines in streams.items():
        assert all(line.lang == lang for line in lines)
        assert len(lines) > 100


@pytest.mark.parametrize(("word", "lang"), [("Artikel", "sv"), ("Article", "en"), ("Artigo", "pt")])
def test_article_keyword_lines_in_their_language(word: str, lang: str) -> None:
    streams = _split(OCR)
    found = 0
    for stream_lang, lines in streams.items():
        for line in lines:
            if re.search(rf"\b{word}\b", line.text):
                found += 1
                assert stream_lang == lang, line.text
    assert found >= 21


def test_no_swedish_or_english_in_portuguese_stream() -> None:
    streams = _split(OCR)
    for line in streams["pt"]:
        words = _words(line.text)
        assert not words & {"och", "skall", "icke", "avtal"}, line.text
        assert not words & {"the", "shall", "which"}, line.text
    for line in streams["en"]:
        assert not _words(line.text) & {"och", "skall", "não", "näo", "seräo"}, line.text


def test_nothing_lost_and_every_line_once() -> None:
    lines = _lines(OCR)
    streams = _split(OCR)
    physical_in = Counter(p for line in lines for p in line.raw.split("\n"))
    physical_out = Counter(p for s in streams.values() for line in s for p in line.raw.split("\n"))
    assert physical_in == physical_out
    starts = [line.start for s in streams.values() for line in s]
    assert len(starts) == len(set(starts))


def test_paragraph_continued_across_page_break() -> None:
    pt = _split(OCR)["pt"]
    joined = [line for line in pt if "con -\nforme o caso" in line.raw]
    assert len(joined) == 1
    line = joined[0]
    assert "pertinente, conforme o caso" in line.text
    assert line.start < line.end
    sv = _split(OCR)["sv"]
    assert any("vid tidpunkten för försäljningen, bytet" in line.text for line in sv)


def test_headings_and_signatures_follow_their_version() -> None:
    streams = _split(OCR)
    texts = {lang: [line.text for line in lines] for lang, lines in streams.items()}
    assert "Artiele II" in texts["en"]  # garbled heading takes the language of its text
    assert "Agreement" in texts["en"] and "Avtal" in texts["sv"] and "Acordo" in texts["pt"]
    for lang in ("sv", "en", "pt"):
        assert sum(t.startswith("Jens Mailing") for t in texts[lang]) == 1, lang


def test_line_by_line_alternation() -> None:
    streams = _split(LINE_BY_LINE)
    assert list(streams) == ["en", "pt"]
    en = [line.text for line in streams["en"]]
    pt = [line.text for line in streams["pt"]]
    en_numbered = [t[:2] for t in en if re.match(r"\d\. ", t)]
    pt_numbered = [t[:3] for t in pt if re.match(r"\d - ", t)]
    assert en_numbered == ["1.", "2.", "3.", "4.", "5."]
    assert pt_numbered == ["1 -", "2 -", "3 -", "4 -", "5 -"]
    assert [t[:2] for t in en if re.match(r"[ab]\) ", t)] == ["a)", "b)"]
    assert [t[:2] for t in pt if re.match(r"[ab]\) ", t)] == ["a)", "b)"]
    assert len(en) + len(pt) == len(_lines(LINE_BY_LINE))


def test_chinese_is_one_stream() -> None:
    streams = _split("china-brazil-1991.zh.txt")
    assert list(streams) == ["zh"]
    assert len(streams["zh"]) == len(_lines("china-brazil-1991.zh.txt"))


@pytest.mark.parametrize(
    ("name", "lang"), [("brazil-peru-2006.en.txt", "en"), ("brazil-colombia-2022.pt.txt", "pt")]
)
def test_single_language_texts(name: str, lang: str) -> None:
    streams = _split(name)
    assert list(streams) == [lang]
    assert len(streams[lang]) == len(_lines(name))  # one paragraph per line: nothing joined


def test_deterministic() -> None:
    lines = _lines(OCR)
    assert split(lines) == split(lines)
    assert split(_lines(LINE_BY_LINE)) == split(_lines(LINE_BY_LINE))


def test_dutch_translation_becomes_its_own_stream(extra_dir: Path) -> None:
    text = (extra_dir / "en" / "nl-se-1991.txt").read_text(encoding="utf-8")
    streams = split(clean(text).lines)
    assert list(streams) == ["en", "nl"]
    for line in streams["en"]:
        assert not re.search(r"\bArtikel\b", line.text), line.text
    for line in streams["nl"]:
        assert not re.search(r"\bArticle\b", line.text) or "Ad Article" in line.text, line.text
    # the Dutch translation follows the English text (only the Dutch title line precedes)
    last_en = max(line.start for line in streams["en"] if len(line.text) > 60)
    late = [line for line in streams["nl"] if line.start > last_en - 60]
    assert len(late) >= 0.98 * len(streams["nl"])


def test_detect_examples() -> None:
    assert detect("第二十三条 消除双重征税方法") == "zh"
    assert detect("Artikel XIV", ("en", "pt", "sv")) == "sv"
    assert detect("Artigo XIV", ("en", "pt", "sv")) == "pt"
    assert detect("Article XIV", ("en", "pt", "sv")) == "en"
    assert detect("1965.") == ""
    dutch = (
        "De Regering van het Koninkrijk der Nederlanden en de Regering van de Volksrepubliek "
        "China, de wens koesterende een overeenkomst te sluiten tot het vermijden van dubbele "
        "belasting"
    )
    assert detect(dutch) == "nl"
    assert detect(dutch, ("en", "pt", "sv")) in {"en", "pt", "sv"}


def test_gold_blocks_accuracy() -> None:
    cases = json.loads(CASES.read_text(encoding="utf-8"))["cases"]
    assert len(cases) >= 60
    right = sum(detect(case["text"], ("en", "pt", "sv")) == case["lang"] for case in cases)
    assert right / len(cases) >= 0.95


def test_setting_a_lines_language_is_dataclass_replace():
    """`split` sets each line's language by copying its fields (faster than `replace`); the
    copy must stay what `dataclasses.replace` gives if `Line` changes (slots, new fields)."""
    from dataclasses import replace

    from indexer.languages import _with_lang

    line = Line(text="Artigo 10", raw="Artigo 10", start=3, end=4, page=1, block=2, lang="en")
    copy_ = _with_lang(line, "pt")
    assert copy_ == replace(line, lang="pt")
    assert line.lang == "en" and copy_ is not line


def test_letters_and_scripts_match_letters_and_script() -> None:
    """`_letters_and_scripts` (one vectorised pass over a document's lines) gives `_letters`
    and `_script` of each line: any characters, beyond the Basic Multilingual Plane and lone
    surrogates included, Han, kana and Hangul mixed with others at the blocks' edges."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from indexer.languages import _letters, _letters_and_scripts, _script

    assert _letters_and_scripts([]) == ([], [])
    assert _letters_and_scripts(["", "Artigo 5.º", "第五条", "\ud800x\U0001d400é1"]) == (
        [0, 7, 3, 3], ["", "", "zh", ""])
    assert _letters_and_scripts(["ひらがな漢字", "한국어 漢字 text", "abc"]) == (
        [6, 9, 3], ["ja", "ko", ""])

    edges = [0x303F, 0x3040, 0x30FF, 0x3100, 0x33FF, 0x3400, 0x9FFF, 0xA000, 0xABFF, 0xAC00,
             0xD7AF, 0xD7B0, 0xF8FF, 0xF900, 0xFAFF, 0xFB00]
    chars = st.one_of(
        st.characters(),
        st.sampled_from([chr(code) for code in edges] + list("ab é1 ")),
        st.characters(min_codepoint=0x3000, max_codepoint=0xFB10),
    )

    @settings(max_examples=500, deadline=None)
    @given(st.lists(st.text(chars, max_size=40), max_size=8))
    def check(texts: list[str]) -> None:
        letters = [_letters(text) for text in texts]
        assert _letters_and_scripts(texts) == (
            letters, [_script(text, n) for text, n in zip(texts, letters)])

    check()


def test_vectorised_feature_counts_are_py3langids(monkeypatch: pytest.MonkeyPatch) -> None:
    """`_count_features`' vectorised walk (texts joined by a resetting separator, the first
    two bytes of each window looked up together) counts what py3langid's own walk of each
    text alone counts, features in the same order: any texts, short, empty or not UTF-8-safe."""
    import numpy as np
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from py3langid.langid import LanguageIdentifier, visit_counts

    from indexer import languages

    assert languages._automaton() is not None  # the shipped model: the shortcut is taken
    monkeypatch.setattr(languages, "_VECTOR_BYTES", 0)
    monkeypatch.setattr(languages, "_CHUNK_TEXTS", 5)  # batches of up to 8 texts halved too
    identifier = languages._base_identifier()
    alphabet = st.sampled_from("aeiou tnsrhlkåäöçãõéÉ\u0301 .,:;-\n1\u4e00\u3042\ud800\U0001d400\xff")

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.one_of(st.text(alphabet, max_size=30), st.text(max_size=12)),
                    min_size=1, max_size=8))
    def check(texts: list[str]) -> None:
        for text, found in zip(texts, languages._count_features(texts), strict=True):
            data = LanguageIdentifier._encode(text)
            visits = visit_counts(identifier.tk_nextmove, identifier._rowbase,
                                  identifier.tk_output, data) or {}
            assert found.size == len(data)
            assert found.ids.tolist() == list(visits)
            assert np.array_equal(found.weights,
                                  np.log1p(np.array(list(visits.values()), dtype=np.float32)))

    check()


def test_document_languages_runs_match_a_line_by_line_count() -> None:
    """`_document_languages` finds the longest runs by grouping consecutive labels; the same
    languages, in the same order, as counting along the lines one by one (ties in order of
    first label, labels in any order, "" among them)."""
    from collections import Counter

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from indexer.languages import _document_languages

    def reference(letter_counts, labels, candidates):
        letters: Counter[str] = Counter()
        counts: Counter[str] = Counter()
        for i, lang in labels.items():
            letters[lang] += letter_counts[i]
            counts[lang] += 1
        total = sum(letters.values())
        runs: Counter[str] = Counter()
        run_lang, run, run_letters = "", 0, 0
        for i in sorted(labels):
            same = labels[i] == run_lang
            run, run_letters = (run + 1, run_letters) if same else (1, 0)
            run_letters += letter_counts[i]
            run_lang = labels[i]
            if run >= 3:
                runs[run_lang] = max(runs[run_lang], run_letters)
        keep = [lang for lang, n in letters.most_common()
                if lang in ("zh", "ja", "ko") or (n >= 0.05 * total and counts[lang] >= 2)
                or runs[lang] >= 800]
        if not keep and letters:
            keep = [letters.most_common(1)[0][0]]
        if candidates:
            keep = [lang for lang in keep if lang in candidates] or list(candidates)
        return keep

    @settings(max_examples=500, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from(["", "en", "pt", "sv", "zh", "nl"]),
                              st.integers(0, 900)), max_size=40),
           st.randoms(), st.sampled_from([None, ("en", "pt"), ("sv", "en", "pt"), ("zh",)]))
    def check(items, rnd, candidates) -> None:
        keep = list(range(len(items)))
        rnd.shuffle(keep)
        letter_counts = [n for _, n in items]
        labels = {i: items[i][0] for i in keep[: rnd.randint(0, len(keep))]}
        assert (_document_languages(letter_counts, labels, candidates)
                == reference(letter_counts, labels, candidates))

    check()
