"""Topic tables and classification: every printed article title of the seed texts, by table."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from indexer.topics import MODEL_NUMBER, RANK, TOPICS, classify, score_all, treaty_register

ROOT = Path(__file__).resolve().parent.parent / "corpus"

# Model order for a 29-article treaty of the 1990s-2000s without capital/assistance/LOB.
_ORDER_29 = [
    "persons-covered", "taxes-covered", "general-definitions", "resident",
    "permanent-establishment", "immovable-property", "business-profits", "shipping",
    "associated-enterprises", "dividends", "interest", "royalties", "capital-gains",
    "independent-services", "employment", "directors-fees", "artistes-sportspersons",
    "pensions", "government-service",
]  # fmt: skip
# Titles read from the texts: Brazil-Peru (en) articles 20-29, China-Brazil (zh) 20-29.
PERU = _ORDER_29 + [
    "students", "other-income", "elimination-double-taxation", "non-discrimination",
    "mutual-agreement", "exchange-of-information", "diplomatic-agents",
    None,  # 27 "General Provisions": no model topic by title
    "entry-into-force", "termination",
]  # fmt: skip
CHINA = _ORDER_29 + [
    "teachers", "students", "other-income", "elimination-double-taxation",
    "non-discrimination", "mutual-agreement", "exchange-of-information",
    "diplomatic-agents", "entry-into-force", "termination",
]  # fmt: skip
COLOMBIA = ["persons-covered", "taxes-covered", "general-definitions", "resident",
            "permanent-establishment"]  # printed titles: articles 1-5 only


def _titles(path: str, pattern: str, title_on_next_line: bool) -> list[str]:
    lines = (ROOT / path).read_text(encoding="utf-8").split("\n")
    out = []
    for i, line in enumerate(lines):
        m = re.fullmatch(pattern, line.strip())
        if m and len(line.strip()) < 20:  # a heading, not a regulation's "第一条 为加强…"
            out.append(lines[i + 1].strip() if title_on_next_line else m.group(1))
    return out


def test_tables_complete() -> None:
    assert len(TOPICS) == 33
    for key, names in TOPICS.items():
        assert set(names) == {"en", "pt", "sv", "zh"}, key
        assert key in MODEL_NUMBER and key in RANK
    assert list(TOPICS)[:3] == ["persons-covered", "taxes-covered", "general-definitions"]
    assert MODEL_NUMBER["dividends"] == 10 and MODEL_NUMBER["capital-gains"] == 13


@pytest.mark.parametrize(
    ("path", "pattern", "next_line", "expected"),
    [
        ("brazil-peru-2006.en.txt", r"ARTICLE \d+", True, PERU),
        ("china-brazil-1991.zh.txt", r"第[一二三四五六七八九十]+条 (\S+)", False, CHINA),
        ("brazil-colombia-2022.pt.txt", r"ARTIGO \d+", True, COLOMBIA),
    ],
)
def test_every_printed_title(path: str, pattern: str, next_line: bool, expected: list) -> None:
    titles = _titles(path, pattern, next_line)
    if path.startswith("brazil-colombia"):
        titles = titles[:5]  # ARTIGO 21 is printed without a title
    if path.startswith("china"):
        titles = titles[:29]  # the appended regulation restarts at 第一条
    assert len(titles) == len(expected)
    got = [classify(t, "", "pt" if "colombia" in path else "en")[0] for t in titles]
    assert got == expected


@pytest.mark.parametrize(
    ("text", "lang", "key"),
    [
        ("Os dividendos pagos por uma sociedade residente", "pt", "dividends"),
        ("Utdelning från bolag med hemvist i en avtalsslutande stat", "sv", "dividends"),
        ("缔约国一方居民公司支付给缔约国另一方居民的股息", "zh", "dividends"),
        ("Remunerações por serviços técnicos provenientes de um Estado", "pt", "technical-services"),
        ("um residente que não for uma pessoa qualificada terá direito a um benefício", "pt", "entitlement-to-benefits"),
        ("As remunerações de direção e outras retribuições similares percebidas por membro da diretoria", "pt", "directors-fees"),
        ("Royalties arising in a Contracting State", "en", "royalties"),
        ("发生于缔约国一方而支付给缔约国另一方居民的特许权使用费", "zh", "royalties"),
        ("Where taxes on capital are imposed by one or other of the States", "en", "capital"),
    ],
)  # fmt: skip
def test_content_classification(text: str, lang: str, key: str) -> None:
    got, score = classify(None, text, lang)
    assert got == key and 0 < score <= 1


def test_title_beats_content() -> None:
    assert classify("Dividends", "interest interest interest", "en") == ("dividends", 0.95)


def test_scores_bounded() -> None:
    scores = score_all("dividends interest royalties " * 20, "en")
    assert scores and all(0 < v <= 1 for v in scores.values())
    assert score_all("", "en") == {}


def test_treaty_register() -> None:
    assert treaty_register("The competent authorities of the Contracting States shall settle", "en") > 0
    assert treaty_register("We apply tax treaties and prepare refund claims for our clients.", "en") <= 0
    assert treaty_register("Unofficial English translation. Editorial notes are ours.", "en") <= 0


def test_topic_scores_do_not_depend_on_hash_seed() -> None:
    """Ties between topics break in model order, so every process (and every ingest worker)
    labels an article the same way whatever PYTHONHASHSEED is."""
    import os
    import subprocess
    import sys

    code = (
        "from indexer.topics import content_scores, classify;"
        "t='Interest and royalties arising in a Contracting State';"
        "print(list(content_scores(t, 'en')), classify(None, t, 'en'))"
    )
    outs = set()
    for seed in ("0", "1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                text=True, check=True, cwd=os.path.dirname(os.path.dirname(
                                    os.path.abspath(__file__)))).stdout)
    assert len(outs) == 1, outs


def test_ingest_topics_do_not_need_segments_own() -> None:
    """The ingest skips segment's per-article topics (`process(topics=False)`) because
    `harmonise_topics` decides every article's topic anew: on every bundled text the
    harmonised documents are the same either way, and segment's own topics were really
    replaced (so the skip saves work without changing what is stored)."""
    from indexer.pipeline import process
    from indexer.pipeline.entries import _meta_from_entry
    from indexer.pipeline.treaty import harmonise_topics
    from indexer.sources import manifest
    from indexer.sources.read import read_file

    replaced = 0
    for entry in manifest.load(ROOT):
        decoded, meta = read_file(ROOT / entry.file), _meta_from_entry(entry)
        with_own = [process(decoded, meta)]
        without = [process(decoded, meta, topics=False)]
        own = [u.topic for v in with_own[0][0].versions for u in v.units if u.kind == "article"]
        harmonise_topics(with_own)
        harmonise_topics(without)
        assert with_own == without, entry.file
        final = [u.topic for v in with_own[0][0].versions for u in v.units
                 if u.kind == "article"]
        assert any(final), entry.file
        replaced += sum(a != b for a, b in zip(own, final))
    assert replaced > 0  # harmonising does change some of segment's topics


def _pieces_of(lang: str):
    from hypothesis import strategies as st

    from indexer.topics.scoring import keyword_table

    return st.lists(st.one_of(
        st.sampled_from(keyword_table(lang).literals),
        st.sampled_from([" ", "  ", "\n", ".", ",", "s", "es", "-", "(", "a", "ção", "ö"]),
        st.text(max_size=3),
    ), max_size=25).map("".join)


@pytest.mark.parametrize("lang", ["en", "pt", "sv", "zh"])
def test_counting_from_start_literals_is_findall(lang: str) -> None:
    """A keyword with a start clause is tried only where one of its start literals begins:
    the same capped count as the regex's own `findall`, on texts made of the table's
    literals."""
    from hypothesis import given, settings

    from indexer.topics.matcher import MAX_HITS
    from indexer.topics.scoring import keyword_table

    cases = [m for m in keyword_table(lang).matchers if m.starts]  # counted so
    assert cases  # the shortcut is used in every language

    @settings(max_examples=200, deadline=None)
    @given(_pieces_of(lang))
    def check(text: str) -> None:
        low = text.lower()
        for m in cases:
            expected = min(len(m.folded.findall(low)), MAX_HITS)
            assert m.hits(text, low) == expected, (m.folded.pattern, text)

    check()


# -- the declared literals of the tables --------------------------------------------------------


def _declared() -> list[tuple[str, str, tuple[str, ...]]]:
    """(where, pattern, clauses) of every pattern of the tables."""
    from indexer.topics.table import KEYWORDS, REGISTER, TITLE_PATTERNS

    out = [(f"{key}/{lang}", p, tuple(clauses)) for key, per_lang in KEYWORDS.items()
           for lang, entries in per_lang.items() for p, _weight, *clauses in entries]
    out += [(f"title/{key}", p, (c,)) for key, pats in TITLE_PATTERNS.items() for p, c in pats]
    out += [(f"{kind}/{lang}", p, (c,)) for kind, per_lang in REGISTER.items()
            for lang, pats in per_lang.items() for p, c in pats]
    return out


def _holds(clause: str, low: str) -> bool:
    """Does lower-cased `low`, a whole match, hold (or begin with, "^") a literal of `clause`?"""
    if clause.startswith("^"):
        return any(low.startswith(x) for x in clause[1:].split("|"))
    return any(x in low for x in clause.split("|"))


@pytest.mark.parametrize(("where", "pattern", "clauses"), _declared(),
                         ids=[f"{where}-{i}" for i, (where, _p, _c) in enumerate(_declared())])
def test_declared_literals_hold_in_every_match(where: str, pattern: str,
                                               clauses: tuple[str, ...]) -> None:
    """Every string the pattern matches whole (case-insensitively, as on a text, or as its
    lower-case self, as on a lower-cased text) holds, lower-cased, a literal of each clause
    declared beside it, and begins with one of a "^" clause: generated by hypothesis from
    the regex itself. (A text `lowered` refuses is never prefiltered.)"""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from indexer.topics.matcher import lowered

    assert clauses and all(clauses), where
    assert all(x and x in pattern for c in clauses for x in c.removeprefix("^").split("|")
               if "." not in x), (where, "a literal that is not in the pattern")

    @settings(max_examples=10, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(st.one_of(st.from_regex(re.compile(pattern, re.IGNORECASE), fullmatch=True),
                     st.from_regex(pattern, fullmatch=True)))
    def check(match: str) -> None:
        low = lowered(match)
        if low is not None:
            for clause in clauses:
                assert _holds(clause, low), (where, pattern, clause, match)

    check()


def _table_letters() -> set[str]:
    """Every character the tables' patterns are written with, outside escapes like ``\\s``
    (escaped punctuation such as ``\\.`` counts), lower-cased."""
    out: set[str] = set()
    for _where, pattern, _clauses in _declared():
        out.update(re.sub(r"\\[0-9A-Za-z]", "", pattern.replace("\\\\", "")).replace("\\", ""))
    return {c.lower() for c in out}


def test_lowered_texts_match_as_the_regex_engine_folds() -> None:
    """The shortcuts run the tables' lower-case patterns case-sensitively on the lower-cased
    text (`matcher.lowered`), which is exact when every character of the text lower-cases
    to one character that matches each letter of the tables (as a literal or in a class)
    exactly when the character matches it case-insensitively, and is a word, space or digit
    character (also inside a case-insensitive class) exactly when the character is. Checked
    for every code point outside `UNSAFE_CHARS` (those `lowered` refuses), in both the forms
    it lower-cases to ("Σ" by its neighbours)."""
    from indexer.topics.matcher import UNSAFE_CHARS, lowered

    letters = sorted(_table_letters())
    any_letter = re.compile("[" + "".join(re.escape(c) for c in letters) + "]", re.IGNORECASE)
    each = [(c, re.compile(re.escape(c), re.IGNORECASE)) for c in letters]
    classes = [(re.compile(x), re.compile(y, re.IGNORECASE), re.compile(x)) for x, y in
               ((r"\w", r"[\w]"), (r"\s", r"[\s]"), (r"\d", r"[\d]"))]
    bad = []
    for code in range(0x110000):  # lone surrogates too: a text may hold one
        ch = chr(code)
        forms = {ch.lower(), ("a" + ch).lower()[1:]}
        if ch in UNSAFE_CHARS or (forms == {ch} and any_letter.match(ch) is None):
            continue  # refused, or lower-cased to itself and no letter of the tables
        ok = all(len(low) == 1 for low in forms) and all(
            all(bool(p.match(ch)) == bool(q.match(ch)) == bool(r.match(low))
                for p, q, r in classes)
            and all(bool(p.match(ch)) == (low == c) for c, p in each)
            for low in forms)
        if not ok:
            bad.append(ch)
    assert not bad, [f"U+{ord(c):04X}" for c in bad]
    assert lowered("".join(map(chr, range(128)))) is not None  # ASCII always passes
    assert all(lowered(f"a{ch}b") is None for ch in UNSAFE_CHARS)


# -- with and without the prefilter, on the real texts -----------------------------------------

_SHARED = ROOT.parent.parent / "shared"


def _plain(entries: list[tuple[str, str, int]]) -> tuple[tuple[str, int, Any, Any], ...]:
    """(topic, weight, findall of the pattern as itself, findall case-insensitively) of
    (topic, pattern, weight) entries, in the order given."""
    return tuple((key, weight, re.compile(p).findall, re.compile(p, re.IGNORECASE).findall)
                 for key, p, weight in entries)


@cache
def _keywords_plain(lang: str) -> tuple[tuple[str, int, Any, Any], ...]:
    from indexer.topics.table import KEYWORDS

    return _plain([(key, e[0], e[1]) for key, per_lang in KEYWORDS.items()
                   for e in per_lang.get(lang) or per_lang["en"]])


def _reference_raw(text: str, lang: str) -> dict[str, float]:
    """`raw_scores` without the prefilter: every keyword pattern of `lang` run on `text` (no
    literals looked for, no start literals, no further clauses): as itself on the lower-cased
    text when `lowered` gives one (exact: see the test above), else case-insensitively."""
    from indexer.topics.matcher import MAX_HITS, lowered

    low = lowered(text)
    totals: dict[str, float] = {}
    for key, weight, folded, plain in _keywords_plain(lang):
        hits = len(plain(text) if low is None else folded(low))
        if hits:
            totals[key] = totals.get(key, 0.0) + weight * min(hits, MAX_HITS)
    return {key: v for key, v in totals.items() if v}


@cache
def _titles_plain() -> tuple[tuple[str, Any], ...]:
    from indexer.topics.table import TITLE_PATTERNS

    return tuple((key, re.compile(p, re.IGNORECASE).search)
                 for key, pats in TITLE_PATTERNS.items() for p, _c in pats)


def _reference_title(title: str) -> str | None:
    """`classify_title` without the prefilter: the topic of the first title pattern that
    matches, run case-insensitively."""
    if not title.strip():
        return None
    return next((key for key, search in _titles_plain() if search(title)), None)


@cache
def _register_plain(lang: str, kind: str) -> tuple[tuple[str, int, Any, Any], ...]:
    from indexer.topics.table import REGISTER

    return _plain([(kind, p, 0) for p, _c in REGISTER[kind].get(lang) or REGISTER[kind]["en"]])


def _reference_register(text: str, lang: str) -> float:
    """`treaty_register` without the prefilter."""
    from indexer.topics.matcher import lowered

    low = lowered(text)
    treaty, other = _register_plain(lang, "treaty"), _register_plain(lang, "other")
    pos = sum(1 for _k, _w, folded, plain in treaty if (plain(text) if low is None else folded(low)))
    neg = sum(len(plain(text) if low is None else folded(low)) for _k, _w, folded, plain in other)
    return pos - 2.0 * neg


def _real_texts() -> list[tuple[str, list[str], tuple[str, ...]]]:
    """(file, lines, languages) of every text of the bundled corpus, corpus-extra and
    corpus-wild (those beside the project)."""
    from indexer.sources import manifest
    from indexer.sources.read import read_file

    out = []
    for corpus in (ROOT, _SHARED / "corpus-extra", _SHARED / "corpus-wild"):
        if not corpus.is_dir():
            continue
        for entry in manifest.load(corpus):
            langs = entry.languages or (entry.file.split("/")[0],)
            lines = read_file(corpus / entry.file).text.split("\n")
            out.append((entry.file, lines, tuple(x if x in ("en", "pt", "sv", "zh") else "en"
                                                 for x in langs)))
    return out


def _paragraphs(lines: list[str]) -> list[tuple[int, int]]:
    """[a, b) of each run of non-blank lines."""
    spans, a = [], None
    for i, line in enumerate([*lines, ""]):
        if line.strip() and a is None:
            a = i
        elif not line.strip() and a is not None:
            spans.append((a, i))
            a = None
    return spans


def test_prefilter_finds_every_match_on_the_real_texts() -> None:
    """On every real text, line by line and paragraph by paragraph (lines joined by "\n"),
    the scores with the prefilter and the shortcuts (`raw_scores`, `LineScores`,
    `classify_title`, `treaty_register`) are those of every pattern run plainly: the
    declared literals never hide a match."""
    from indexer.topics import LineScores, classify_title, raw_scores, treaty_register

    texts = _real_texts()
    assert len(texts) >= 5
    for file, lines, langs in texts:
        for lang in langs:
            scores = LineScores(lines, lang)
            expected = [_reference_raw(t, lang) for t in lines]
            assert scores.line_raws(0, len(lines)) == expected, (file, lang)
            assert [raw_scores(t, lang) for t in lines] == expected, (file, lang)
            for a, b in _paragraphs(lines):
                if b - a > 1:
                    text = "\n".join(lines[a:b])
                    assert scores.raw(a, b) == _reference_raw(text, lang), (file, lang, a)
            assert [treaty_register(t, lang) for t in lines] == [
                _reference_register(t, lang) for t in lines], (file, lang)
        heads = [t for t in lines if len(t) < 60]  # printed titles are short
        assert [classify_title(t) for t in heads] == [_reference_title(t) for t in heads], file
