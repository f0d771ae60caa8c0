"""The search index on both engines, over real treaty texts.

The corpus store does not exist yet, so the fixture builds `IndexDoc`s straight from the
bundled texts: one per line (Swedish: per blank-line block), with article context taken from
"ARTICLE n" / "ARTIGO n" / "第n条" headings (fake but plausible)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from indexer.index import IndexMissingError, build_index, make_snippet, open_index
from indexer.index.query_syntax import compile_query, parse, term_matcher
from indexer.models import IndexDoc

ENGINES = ("whoosh", "tantivy")

TOPICS = {  # key: (en, pt, sv, zh) display names
    "dividends": ("Dividends", "Dividendos", "Utdelning", "股息"),
    "interest": ("Interest", "Juros", "Ränta", "利息"),
    "royalties": ("Royalties", "Royalties", "Royalty", "特许权使用费"),
    "resident": ("Resident", "Residente", "Hemvist", "居民"),
    "permanent-establishment": (
        "Permanent establishment",
        "Estabelecimento permanente",
        "Fast driftställe",
        "常设机构",
    ),
    "termination": ("Termination", "Denúncia", "Upphörande", "终止"),
}
_BY_TITLE = {name.lower(): key for key, names in TOPICS.items() for name in names}
_BY_TITLE["permanent establishement"] = "permanent-establishment"  # the source's typo

_ZH_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")}


def zh_number(s: str) -> int:
    """一 -> 1, 十 -> 10, 十二 -> 12, 二十九 -> 29."""
    if "十" not in s:
        return _ZH_DIGITS[s]
    tens, _, units = s.partition("十")
    return (_ZH_DIGITS[tens] if tens else 1) * 10 + (_ZH_DIGITS[units] if units else 0)


def _doc(treaty, parties, lang, n, art, title, para, text) -> IndexDoc:
    topic = _BY_TITLE.get(title.lower(), "") if title else ""
    article_eid = f"art_{art}" if art else "preamble"
    eid = f"{article_eid}__para_{para}"
    return IndexDoc(
        id=f"{treaty}/{lang}/{eid}", treaty=treaty, parties=parties, lang=lang,
        kind="article" if art else "preamble", eid=eid, article_eid=article_eid,
        number=art, label=str(art) if art else None, title=title, topic=topic,
        topic_names=" ".join(TOPICS[topic]) if topic else "", text=text, raw=text,
    )  # fmt: skip


def docs_from_lines(path: Path, treaty, parties, lang, heading, number, *, stop=None):
    """Paragraph docs from a text whose article headings match `heading` (group 1 = number,
    group 2 = title on the same line, if any)."""
    lines = [ln.strip() for ln in path.read_text("utf-8").splitlines()]
    out, art, title, para, want_title = [], None, "", 0, False
    for i, line in enumerate(lines):
        if stop and i and stop(line) and art and art > 20:
            break
        if not line:
            continue
        if m := heading.match(line):
            art, para = number(m.group(1)), 0
            title = (m.group(2) or "").strip() if m.lastindex and m.lastindex >= 2 else ""
            want_title = not title
            continue
        if want_title and len(line) < 80:
            title, want_title = line, False
            continue
        want_title = False
        para += 1
        out.append(_doc(treaty, parties, lang, len(out), art, title, para, line))
    return out


def swedish_docs(path: Path) -> list[IndexDoc]:
    blocks = re.split(r"\n\s*\n", path.read_text("utf-8"))[:140]
    out = []
    for i, block in enumerate(blocks):
        text = " ".join(block.split())
        if len(text) > 20 and re.search("[åäö]", text):
            out.append(_doc("br-se-1965", ("BR", "SE"), "sv", i, None, "", i + 1, text))
    return out


@pytest.fixture(scope="session")
def fixture_docs(corpus_dir: Path) -> list[IndexDoc]:
    en = docs_from_lines(corpus_dir / "brazil-peru-2006.en.txt", "br-pe-2006", ("BR", "PE"),
                         "en", re.compile(r"ARTICLE (\d+)$"), int)  # fmt: skip
    pt = docs_from_lines(corpus_dir / "brazil-colombia-2022.pt.txt", "br-co-2022", ("BR", "CO"),
                         "pt", re.compile(r"ARTIGO (\d+)$"), int)  # fmt: skip
    zh = docs_from_lines(
        corpus_dir / "china-brazil-1991.zh.txt", "br-cn-1991", ("BR", "CN"), "zh",
        re.compile(r"第([一二三四五六七八九十]+)条\s*(\S.*)?$"), zh_number,
        stop=lambda line: line.startswith("议定书"),
    )  # fmt: skip
    sv = swedish_docs(corpus_dir / "sweden-brazil-1965.sv-en-pt.txt")
    # An OCR'd variant and a Traditional-script paragraph, for the folding tests.
    extra = [
        _doc(
            "br-co-2022",
            ("BR", "CO"),
            "pt",
            0,
            99,
            "",
            1,
            "Nenhuma disposição impede a tributacäo da sociedade.",
        ),
    ]
    docs = en + pt + zh + sv + extra
    assert len({d.id for d in docs}) == len(docs)
    return docs


@pytest.fixture(scope="session")
def indexes(fixture_docs, tmp_path_factory) -> dict[str, Path]:
    out = {}
    for engine in ENGINES:
        path = tmp_path_factory.mktemp(f"ix-{engine}")
        stats = build_index(fixture_docs, path, engine=engine)
        assert stats.docs == len(fixture_docs)
        out[engine] = path
    return out


@pytest.fixture(scope="session")
def searchers(indexes):
    opened = {engine: open_index(path) for engine, path in indexes.items()}
    yield opened
    for s in opened.values():
        s.close()


def ids(searcher, query, **kw) -> set[str]:
    return searcher.search(query, limit=None, **kw).ids


# --- both engines, same answers --------------------------------------------------------------

AGREEMENT_QUERIES = [
    ("dividends", {}),
    ("dividendos", {}),
    ("股息", {}),
    ('"beneficial owner"', {"lang": "en"}),
    ('"双重征税"', {"lang": "zh"}),
    ("dividents~", {"lang": "en"}),
    ("royalt*", {}),
    ("tax NOT dividends", {"lang": "en"}),
    ("(interest OR royalties) AND resident", {"lang": "en"}),
    ("tributação", {"lang": "pt"}),
    ("稅收", {}),
    ('"unclosed AND (', {}),
    ("NOT dividends", {"treaty": "br-pe-2006"}),
    ("resident", {"party": "pe", "article": 4}),
    ("utdelning", {}),
    ("skatt*", {"lang": "sv"}),
    ("é år", {"lang": "sv"}),
    ("tax~1 income", {"kind": "article", "lang": "en"}),
]


@pytest.mark.parametrize("query,kw", AGREEMENT_QUERIES)
def test_engines_return_the_same_hits(searchers, query, kw):
    w = searchers["whoosh"].search(query, limit=None, **kw)
    t = searchers["tantivy"].search(query, limit=None, **kw)
    assert w.ids == t.ids
    assert w.total == t.total == len(w.ids)
    snippets_w = {h.id: h.snippet for h in w.hits}
    assert snippets_w == {h.id: h.snippet for h in t.hits}
    assert w.suggestions == t.suggestions


def test_agreement_queries_are_not_trivial(searchers):
    s = searchers["whoosh"]
    nonempty = [q for q, kw in AGREEMENT_QUERIES if s.search(q, limit=None, **kw).total]
    assert len(nonempty) >= 15


# --- relevance ------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_each_language_finds_its_own_text(searchers, engine):
    s = searchers[engine]
    assert {"br-pe-2006/en/art_10__para_1"} <= ids(s, "dividends", lang="en")
    pt = ids(s, "dividendos", lang="pt")
    assert pt and all("/pt/" in i for i in pt)
    zh = ids(s, "股息")
    assert "br-cn-1991/zh/art_10__para_1" in zh


@pytest.mark.parametrize("engine", ENGINES)
def test_query_in_one_language_reaches_the_article_in_another(searchers, engine):
    s = searchers[engine]
    # Chinese and Swedish names of the topic reach the English dividends article.
    for query in ("股息", "utdelning"):
        hits = ids(s, query, lang=None, treaty="br-pe-2006")
        assert hits and all("/art_10__" in i for i in hits), query
    top = s.search("dividends", lang="en", limit=3).hits
    assert top[0].article_eid == "art_10"  # title and topic weigh more


@pytest.mark.parametrize("engine", ENGINES)
def test_accent_and_ocr_folding_meet(searchers, engine):
    s = searchers[engine]
    a, b, c = (ids(s, q, lang="pt") for q in ("tributação", "tributacao", "tributacäo"))
    assert a == b == c
    assert "br-co-2022/pt/art_99__para_1" in a  # the OCR'd "tributacäo"


@pytest.mark.parametrize("engine", ENGINES)
def test_swedish_keeps_a_ring_and_a_umlaut_apart(searchers, engine):
    s = searchers[engine]
    year, be = ids(s, "år", lang="sv"), ids(s, "är", lang="sv")
    assert year and be and year != be


@pytest.mark.parametrize("engine", ENGINES)
def test_traditional_query_finds_simplified_text(searchers, engine):
    s = searchers[engine]
    trad, simp = ids(s, "稅收 協定", lang="zh"), ids(s, "税收 协定", lang="zh")
    assert trad and trad == simp


@pytest.mark.parametrize("engine", ENGINES)
def test_phrases(searchers, engine):
    s = searchers[engine]
    phrase = ids(s, '"beneficial owner"', lang="en")
    words = ids(s, "beneficial owner", lang="en")
    assert phrase and phrase <= words
    assert not ids(s, '"owner beneficial"', lang="en")
    zh = ids(s, '"避免双重征税"', lang="zh")
    assert zh and zh <= ids(s, "避免 双重 征税", lang="zh")
    assert not ids(s, '"征税双重"', lang="zh")


@pytest.mark.parametrize("engine", ENGINES)
def test_fuzzy_prefix_not(searchers, engine):
    s = searchers[engine]
    assert "br-pe-2006/en/art_10__para_1" in ids(s, "dividents~", lang="en")
    assert ids(s, "royalt*", lang="en") == ids(s, "royalties", lang="en")
    every = ids(s, "tax", lang="en")
    without = ids(s, "tax NOT dividends", lang="en")
    assert without and without < every
    assert not without & ids(s, "dividends", lang="en")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("query", ['"unclosed AND (', "((", "~*", "AND", '"', "a OR", "*~x"])
def test_bad_syntax_is_searched_as_plain_words(searchers, engine, query):
    res = searchers[engine].search(query)
    assert res.plain


@pytest.mark.parametrize("engine", ENGINES)
def test_filters(searchers, engine):
    s = searchers[engine]
    res = ids(s, "resident", treaty="br-pe-2006", article=4)
    assert res and all(i.startswith("br-pe-2006/en/art_4__") for i in res)
    assert ids(s, "dividends", topic="dividends", lang="en") == ids(
        s, "dividends", article=10, lang="en"
    )
    assert ids(s, "dividends", party="pe") == ids(s, "dividends", party="PE")
    assert not ids(s, "dividends", party="se", lang="en")


@pytest.mark.parametrize("engine", ENGINES)
def test_snippets_highlight_matched_terms(searchers, engine):
    hit = searchers[engine].search("dividends", lang="en", article=10, limit=1).hits[0]
    assert "<b>dividends</b>" in hit.snippet.lower() or "<b>dividend" in hit.snippet.lower()
    zh = searchers[engine].search("股息", lang="zh", limit=1).hits[0]
    assert "<b>股息</b>" in zh.snippet


def test_snippet_escapes_and_windows():
    doc = IndexDoc("t/en/x", "t", (), "en", "article", "x", "x", 1, "1", "", "", "",
                   "a < b " * 60 + "dividends paid " + "c & d " * 60, "")  # fmt: skip
    tree = compile_query(parse("dividends")[0], ["en"])
    snip = make_snippet(doc, term_matcher(tree, "text_en"))
    assert "<b>dividends</b>" in snip and "&lt;" in snip and snip.startswith("…")
    assert len(snip) < 400


@pytest.mark.parametrize("engine", ENGINES)
def test_did_you_mean(searchers, engine):
    res = searchers[engine].search("dividents", lang="en")
    assert res.suggestions and res.suggestions[0].alternatives[0] == "dividends"
    assert res.corrected == "dividends"
    assert not searchers[engine].search("dividends", lang="en").suggestions


def test_groups_by_article(searchers):
    res = searchers["whoosh"].search("dividends", lang="en", limit=None)
    groups = res.groups
    assert sum(len(g.hits) for g in groups) == len(res.hits)
    assert len({(g.treaty, g.lang, g.article_eid) for g in groups}) == len(groups)


# --- atomic rebuild ---------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_rebuild_is_atomic(fixture_docs, tmp_path, engine):
    index_dir = tmp_path / "ix"
    with pytest.raises(IndexMissingError):
        open_index(index_dir)
    old = [d for d in fixture_docs if d.lang == "en"][:40]
    build_index(old, index_dir, engine=engine)
    reader = open_index(index_dir)
    before = reader.search("convention", limit=None).ids
    assert before
    seen_during = []

    def new_docs():
        for i, d in enumerate(fixture_docs):
            if i == 50:  # half way through the build: readers still see the old index
                with open_index(index_dir) as during:
                    seen_during.append(during.search("股息", limit=None).total)
                seen_during.append(reader.search("convention", limit=None).ids == before)
            yield d

    build_index(new_docs(), index_dir, engine=engine)
    assert seen_during == [0, True]
    with open_index(index_dir) as after:
        assert after.search("股息", limit=None).total > 0
    assert reader.search("convention", limit=None).ids == before  # old reader still works
    reader.close()

    def failing():
        yield fixture_docs[0]
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        build_index(failing(), index_dir, engine=engine)
    with open_index(index_dir) as still:
        assert still.search("股息", limit=None).total > 0
    assert len(list(index_dir.glob("g-*"))) <= 2


def test_engine_from_environment(fixture_docs, tmp_path, monkeypatch):
    monkeypatch.setenv("TREATY_ENGINE", "tantivy")
    stats = build_index(fixture_docs[:5], tmp_path / "ix")
    assert stats.engine == "tantivy"
    with open_index(tmp_path / "ix") as s:
        assert s.engine == "tantivy"


@pytest.mark.parametrize("engine", ENGINES)
def test_parallel_build_is_the_same_index(fixture_docs, tmp_path, monkeypatch, engine):
    """Analysing in worker processes (chunks made small here so that the pool is used) gives
    the index a sequential build gives: the same vocabulary, languages and answers."""
    import json

    import indexer.index.build as index_mod

    monkeypatch.setattr(index_mod, "CHUNK", 7)
    monkeypatch.setattr(index_mod, "PARALLEL_MIN", 14)
    built = {}
    for workers in (1, 2):
        done: list[int] = []
        stats = build_index(fixture_docs, tmp_path / str(workers), engine=engine,
                            workers=workers, progress=done.append)
        assert stats.docs == len(fixture_docs) and done[-1] == len(fixture_docs)
        answers = []
        with open_index(tmp_path / str(workers)) as s:
            for q, kw in AGREEMENT_QUERIES:
                r = s.search(q, limit=None, **kw)
                answers.append((r.total, sorted((h.id, h.score, h.snippet) for h in r.hits),
                                r.suggestions))
        built[workers] = (json.loads((stats.path / "vocab.json").read_text("utf-8")),
                          stats.languages, answers)
    assert built[1] == built[2]
