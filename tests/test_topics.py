"""Topic tables and classification: every printed article title of the seed texts, by table."""

from __future__ import annotations

import re
from pathlib import Path

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
    from indexer.pipeline.run import _meta_from_entry
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

    from indexer.topics import _compiled

    table = _compiled(lang)
    return st.lists(st.one_of(
        st.sampled_from(table.literals),
        st.sampled_from([" ", "  ", "\n", ".", ",", "s", "es", "-", "(", "a", "ção", "ö"]),
        st.text(max_size=3),
    ), max_size=25).map("".join)


@pytest.mark.parametrize("lang", ["en", "pt", "sv", "zh"])
def test_counting_from_start_literals_is_findall(lang: str) -> None:
    """`_matches_from` tries a keyword only where one of its start literals begins: the same
    capped count as the regex's own `findall`, on texts made of the table's literals."""
    from hypothesis import given, settings

    from indexer.topics import _MAX_HITS, _compiled, _matches_from

    table = _compiled(lang)
    cases = [i for i, starts in enumerate(table.starts) if starts]  # counted so
    assert cases  # the shortcut is used in every language

    @settings(max_examples=200, deadline=None)
    @given(_pieces_of(lang))
    def check(text: str) -> None:
        low = text.lower()
        for i in cases:
            fast = table.keywords[i][1]
            expected = min(len(fast.findall(low)), _MAX_HITS)
            assert _matches_from(fast.match, low, table.starts[i], _MAX_HITS) == expected, (
                fast.pattern, text)

    check()
