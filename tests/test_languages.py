"""Tests for indexer.languages on the real seed texts."""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from indexer.clean import clean
from indexer.languages import OTHERS, PRIMARY, detect, model, split
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


def test_quoted_foreign_names_stay_in_their_version(extra_dir: Path) -> None:
    """Article 2 of each version lists the other state's taxes in its own language ("- de
    loonbelasting (wages tax)," in the English text, "den statliga inkomstskatten" quoted):
    those lines belong to the version they are printed in, in the order printed."""
    text = (extra_dir / "en" / "nl-se-1991.txt").read_text(encoding="utf-8")
    streams = split(clean(text).lines)
    english = [line.text for line in streams["en"]]
    names = [t for t in english if "belasting" in t and t.lstrip().startswith("-")]
    assert len(names) >= 5 and any("de loonbelasting (wages tax)" in t for t in names)
    start = english.index(next(t for t in english if "in the Netherlands" in t))
    assert english[start + 1:start + 6] == names[:5]  # right after "b) in the Netherlands:"
    dutch_before_english_ends = [line for line in streams["nl"] if line.start < 60]
    assert all("belasting (" not in line.text for line in dutch_before_english_ends)


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


def test_letters_and_scripts_match_letters_and_script() -> None:
    """`letters_and_scripts` (one vectorised pass over a document's lines) gives
    `count_letters` and `script` of each line: any characters, beyond the Basic Multilingual
    Plane and lone surrogates included, Han, kana and Hangul mixed with others at the blocks' edges."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from indexer.languages.scripts import count_letters, letters_and_scripts, script

    assert letters_and_scripts([]) == ([], [])
    assert letters_and_scripts(["", "Artigo 5.º", "第五条", "\ud800x\U0001d400é1"]) == (
        [0, 7, 3, 3], ["", "", "zh", ""])
    assert letters_and_scripts(["ひらがな漢字", "한국어 漢字 text", "abc"]) == (
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
        letters = [count_letters(text) for text in texts]
        assert letters_and_scripts(texts) == (
            letters, [script(text, n) for text, n in zip(texts, letters)])

    check()


def test_vectorised_feature_counts_are_py3langids() -> None:
    """`fastid.walk` (texts joined by a resetting separator, the first two bytes of each window
    looked up together) counts what py3langid's own `visit_counts` counts of each text alone,
    features in the same order: any texts, short, empty or not UTF-8-safe."""
    import numpy as np
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from py3langid.langid import visit_counts

    from indexer.languages import fastid

    automaton = fastid.automaton()
    assert automaton is not None  # the shipped model: the vectorised path is taken
    public = model.identifier()
    rowbase = [row << 8 for row in public.tk_row]  # (the layout `py3langid.modelio` states)
    alphabet = st.sampled_from("aeiou tnsrhlkåäöçãõéÉ\u0301 .,:;-\n1\u4e00\u3042\ud800\U0001d400\xff")

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.one_of(st.text(alphabet, max_size=30), st.text(max_size=12)),
                    min_size=1, max_size=8))
    def check(texts: list[str]) -> None:
        encoded = [fastid.encode(text) for text in texts]
        for data, found in zip(encoded, fastid.walk(automaton, encoded), strict=True):
            visits = visit_counts(public.tk_nextmove, rowbase, public.tk_output, data) or {}
            assert found.size == len(data)
            assert found.ids.tolist() == list(visits)
            assert np.array_equal(found.weights,
                                  np.log1p(np.array(list(visits.values()), dtype=np.float32)))

    check()


def test_fast_ranks_are_py3langids_rank_on_any_text() -> None:
    """`fastid.FastRanks` gives the first of py3langid's own `rank` (label and probability):
    any texts, few (counted by `visit_counts`) or many, upper case and decomposed accents (the
    input py3langid lower-cases and normalises) among them."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from indexer.languages import fastid

    automaton = fastid.automaton()
    assert automaton is not None
    alphabet = st.sampled_from("aeiouAEIOU tnsrhlkTNSåäöçãõéÉ\u0301\u0308 .,:;-\n1\u4e00\ud800")
    identifiers = {candidates: model.identifier(candidates)
                   for candidates in (PRIMARY, PRIMARY + OTHERS, ("sv", "zh"))}

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.text(alphabet, max_size=300), min_size=1, max_size=8),
           st.sampled_from(sorted(identifiers)))
    def check(texts: list[str], candidates: tuple[str, ...]) -> None:
        ranks = fastid.FastRanks(automaton)
        ranks.rank(texts, candidates)
        for text in texts:
            assert ranks.top(text, candidates) == tuple(identifiers[candidates].rank(text)[0])

    check()


@cache
def _real_blocks() -> list[str]:
    """Every distinct block (cleaned line) of the bundled corpus, corpus-extra and corpus-wild."""
    from indexer.sources import manifest
    from indexer.sources.read import read_file

    shared = ROOT.parent / "shared"
    corpora = [c for c in (CORPUS, shared / "corpus-extra", shared / "corpus-wild") if c.is_dir()]
    texts = [line.text for c in corpora for entry in manifest.load(c)
             for line in clean(read_file(c / entry.file).text).lines]
    return list(dict.fromkeys(texts))


@pytest.mark.parametrize("candidates", [PRIMARY, PRIMARY + OTHERS])
def test_fast_rankings_are_py3langids_on_every_real_block(candidates: tuple[str, ...]) -> None:
    """The vectorised path ranks every block of the real texts as py3langid's own `rank` does:
    the whole ranking (every label, its probability, their order), and the best of it as
    `FastRanks` finds it, counted in batches of many texts at once."""
    from operator import itemgetter

    from indexer.languages import fastid

    automaton = fastid.automaton()
    assert automaton is not None
    texts = _real_blocks()
    # every block was read: 1,379 of the bundled corpus alone, over 10,000 with ../shared
    assert len(texts) > (10_000 if (ROOT.parent / "shared" / "corpus-wild").is_dir() else 1_000)
    ranks = fastid.FastRanks(automaton)
    ranks.rank(texts, candidates)
    scorer = fastid.scorer(frozenset(candidates))
    public = model.identifier(candidates)
    for lo in range(0, len(texts), 2048):
        batch = texts[lo : lo + 2048]
        rows = scorer.scores([ranks.features[text] for text in batch]).tolist()
        for text, row in zip(batch, rows, strict=True):
            merged: dict[str, float] = {}
            for lang, score in zip(scorer.classes, row):
                merged.setdefault(lang, score)  # (a label's first column holds its score)
            expected = public.rank(text)
            assert sorted(merged.items(), key=itemgetter(1), reverse=True) == expected, text
            assert ranks.top(text, candidates) == tuple(expected[0]), text


def test_shipped_automaton_is_six_definite() -> None:
    """The premise of the vectorised walk: the state of py3langid's shipped automaton after
    any six bytes does not depend on the state before them (and no fewer would do)."""
    from indexer.languages import fastid

    automaton = fastid.automaton()
    assert automaton is not None
    assert fastid.context_bytes(automaton) == fastid.CONTEXT


def test_document_languages_runs_match_a_line_by_line_count() -> None:
    """`document_languages` finds the longest runs by grouping consecutive labels; the same
    languages, in the same order, as counting along the lines one by one (ties in order of
    first label, labels in any order, "" among them)."""
    from collections import Counter

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from indexer.languages.split import document_languages

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
        assert (document_languages(letter_counts, labels, candidates)
                == reference(letter_counts, labels, candidates))

    check()
