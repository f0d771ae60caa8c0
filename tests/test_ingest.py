"""The whole pipeline on the bundled corpus: what the store holds, and what a failed or
repeated ingest does."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from indexer import store
from indexer.models import TOP_KINDS
from indexer.pipeline import ingest
from search.corpus import Corpus, export_jsonl

EXPECTED_ARTICLES = {
    "br-pe-2006": {"en": 29},
    "br-co-2022": {"pt": 31},
    "br-se-1965": {"sv": 21, "en": 21, "pt": 21},
    "br-cn-1991": {"zh": 29},
    "es-pt-1993": {"en": 1, "pt": 1},
}


@pytest.fixture(scope="module")
def records(ingested: Path) -> list[dict]:
    with Corpus(ingested) as corpus:
        return list(export_jsonl(corpus))


def test_every_document_ingested(ingest_report) -> None:
    assert not ingest_report.failed
    assert {d.treaty for d in ingest_report.documents} == set(EXPECTED_ARTICLES)


@pytest.mark.parametrize("treaty", sorted(EXPECTED_ARTICLES))
def test_articles_per_version(records: list[dict], treaty: str) -> None:
    got = Counter(r["lang"] for r in records if r["treaty"] == treaty and r["kind"] == "article")
    assert dict(got) == EXPECTED_ARTICLES[treaty]


@pytest.mark.parametrize("treaty", sorted(EXPECTED_ARTICLES))
def test_article_numbers_run_consecutively(records: list[dict], treaty: str) -> None:
    for lang in EXPECTED_ARTICLES[treaty]:
        numbers = [r["number"] for r in records
                   if r["treaty"] == treaty and r["lang"] == lang and r["kind"] == "article"]
        if len(numbers) > 1:
            assert numbers == list(range(1, len(numbers) + 1)), (treaty, lang)


def test_export_contract(records: list[dict]) -> None:
    fields = {"id", "treaty", "lang", "kind", "number", "label", "title", "topic",
              "number_inferred", "text", "raw", "paragraphs", "source"}
    for r in records:
        assert fields <= set(r), r["id"]
        assert r["kind"] in TOP_KINDS
        assert r["id"] == f"{r['treaty']}/{r['lang']}/" + r["id"].split("/", 2)[2]
        assert r["number"] is None or isinstance(r["number"], int)
        assert isinstance(r["source"]["file"], str)
        first, last = r["source"]["lines"]
        assert 1 <= first <= last
        if r["kind"] == "article":
            assert r["paragraphs"], r["id"]
            for p in r["paragraphs"]:
                assert p["id"].startswith(r["id"] + "__para_")
                for pt in p["points"]:
                    assert pt["id"].startswith(p["id"] + "__point_")


def test_dividends_article_of_peru(records: list[dict]) -> None:
    art = next(r for r in records if r["id"] == "br-pe-2006/en/art_10")
    assert art["title"] == "Dividends" and art["topic"] == "dividends"
    assert art["number_inferred"] is False and art["label"] == "10"
    assert art["text"].startswith("ARTICLE 10")
    assert art["paragraphs"][0]["num"] == "1"
    assert art["paragraphs"][0]["text"].startswith("1. Dividends paid by a company")


def test_excerpt_takes_its_number_from_the_manifest(records: list[dict]) -> None:
    for lang in ("en", "pt"):
        art = next(r for r in records if r["treaty"] == "es-pt-1993" and r["lang"] == lang
                   and r["kind"] == "article")
        assert art["number"] == 10 and art["topic"] == "dividends"
        assert [p["num"] for p in art["paragraphs"]] == ["1", "2", "3", "4", "5"]
        assert [pt["num"] for pt in art["paragraphs"][1]["points"]] == ["a", "b"]


def _words(text: str) -> Counter:
    return Counter(re.findall(r"\w+", text))


@pytest.mark.parametrize("treaty", sorted(EXPECTED_ARTICLES))
def test_no_source_word_lost(ingested: Path, corpus_dir: Path, treaty: str) -> None:
    db = sqlite3.connect(store.store_path(ingested))
    (file,) = db.execute("SELECT file FROM documents WHERE treaty = ?", (treaty,)).fetchone()
    kept = Counter()
    for (raw,) in db.execute("SELECT raw FROM units WHERE file = ? AND depth = 0", (file,)):
        kept += _words(raw)
    for (raw,) in db.execute("SELECT raw FROM removed WHERE file = ?", (file,)):
        kept += _words(raw)
    source = _words((corpus_dir / file).read_text(encoding="utf-8"))
    missing = source - kept
    assert not missing, list(missing.items())[:20]


def test_no_page_furniture_inside_articles(ingested: Path) -> None:
    db = sqlite3.connect(store.store_path(ingested))
    furniture = [r for (r,) in db.execute("SELECT raw FROM removed") if len(r.strip()) > 8]
    assert furniture, "the 1965 print has running headers that must be removed"
    articles = [r for (r,) in db.execute("SELECT raw FROM units WHERE kind = 'article'")]
    for line in furniture:
        for raw in articles:
            assert line not in raw.splitlines()


def test_no_foreign_text_inside_articles(records: list[dict]) -> None:
    from indexer.languages import detect

    for r in records:
        if r["kind"] != "article":
            continue
        for p in r["paragraphs"]:
            if len(p["text"]) >= 60:
                assert detect(p["text"], ["en", "pt", "sv"]) == r["lang"] or r["lang"] == "zh", (
                    r["id"], p["num"], p["text"][:80])


def test_reingest_reuses_unchanged_files(ingested: Path, corpus_dir: Path) -> None:
    before = store.store_path(ingested).read_bytes()
    report = ingest(corpus_dir, ingested)
    assert all(d.reused for d in report.documents)
    assert {d.treaty: d.articles for d in report.documents} == EXPECTED_ARTICLES
    db_old = sqlite3.connect(":memory:")
    db_old.deserialize(before)
    db_new = sqlite3.connect(store.store_path(ingested))
    q = "SELECT id, text, raw FROM units ORDER BY id"
    assert db_old.execute(q).fetchall() == db_new.execute(q).fetchall()


def test_bad_files_fail_alone(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(corpus_dir / "portugal-spain-1993-art10.en-pt.txt", corpus)
    (corpus / "empty.txt").write_bytes(b"")
    (corpus / "binary.txt").write_bytes(bytes(range(256)) * 8)
    (corpus / "manifest.toml").write_text(
        '[[document]]\nfile = "portugal-spain-1993-art10.en-pt.txt"\ntreaty = "es-pt-1993"\n'
        'languages = ["en", "pt"]\narticle = 10\n'
        '[[document]]\nfile = "gone.txt"\ntreaty = "br-pe-2006"\n', encoding="utf-8")
    report = ingest(corpus, tmp_path / "data")
    errors = {d.file: d.error for d in report.documents if d.error}
    assert set(errors) == {"empty.txt", "binary.txt", "gone.txt"}
    for file, message in errors.items():
        assert file in message and "\n" not in message
    with Corpus(tmp_path / "data") as c:
        assert [t.id for t in c.treaties()] == ["es-pt-1993"]


def test_failed_ingest_leaves_previous_corpus(tmp_path: Path, corpus_dir: Path,
                                              monkeypatch) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(corpus_dir / "portugal-spain-1993-art10.en-pt.txt", corpus / "a.txt")
    data = tmp_path / "data"
    ingest(corpus, data)
    before = store.store_path(data).read_bytes()

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(store, "_treaty_rows", boom)
    shutil.copy(corpus_dir / "brazil-peru-2006.en.txt", corpus / "b.txt")
    with pytest.raises(KeyboardInterrupt):
        ingest(corpus, data)
    assert store.store_path(data).read_bytes() == before
    assert [p.name for p in data.iterdir() if p.name.endswith(".tmp")] == []


def test_temp_store_of_a_killed_ingest_is_removed(tmp_path: Path, corpus_dir: Path) -> None:
    """A temp store left by a writer that no longer runs goes at the next write; one of a
    writer still running (here: this process's parent) stays."""
    import os
    import subprocess
    import sys

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(corpus_dir / "portugal-spain-1993-art10.en-pt.txt", corpus / "a.txt")
    data = tmp_path / "data"
    data.mkdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    orphan = data / f".{store.STORE_NAME}.{dead}.tmp"
    alive = data / f".{store.STORE_NAME}.{os.getppid()}.tmp"
    orphan.write_bytes(b"x" * 1000)
    alive.write_bytes(b"y")
    ingest(corpus, data)
    assert not orphan.exists()
    assert alive.exists()
    assert store.store_path(data).exists()


def test_undeclared_text_gets_guessed_metadata(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(corpus_dir / "brazil-peru-2006.en.txt", corpus / "some-treaty.txt")
    report = ingest(corpus, tmp_path / "data")
    (doc,) = report.documents
    assert doc.treaty == "br-pe-2006"
    assert doc.languages == ("en",)
    assert doc.articles == {"en": 29}
    assert any("guessed" in n for n in doc.notes) and doc.warnings == ()


def test_export_is_json_lines(ingested: Path) -> None:
    from click.testing import CliRunner

    from search.cli import main

    result = CliRunner().invoke(main, ["export", "--data", str(ingested), "--treaty",
                                       "es-pt-1993", "--format", "jsonl"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(x) for x in result.output.splitlines()]
    assert {r["lang"] for r in rows} == {"en", "pt"}
    kinds = Counter(r["kind"] for r in rows)
    assert kinds["article"] == 2 and kinds["other"] >= 1


def test_versions_of_the_1965_agreement_have_the_same_structure(records: list[dict]) -> None:
    """The three versions are one text: every article has the same paragraphs and points in
    sv, en and pt (OCR-garbled labels like "(3t" and "h)" for "b)" read in sequence)."""
    shape: dict[str, dict[int, list]] = {}
    for r in records:
        if r["treaty"] == "br-se-1965" and r["kind"] == "article":
            shape.setdefault(r["lang"], {})[r["number"]] = [
                (p["num"], [pt["num"] for pt in p["points"]]) for p in r["paragraphs"]]
    assert set(shape) == {"sv", "en", "pt"}
    assert shape["sv"] == shape["en"] == shape["pt"]
    assert shape["en"][19] == [(str(n), []) for n in range(1, 7)]
    assert shape["en"][11][1] == ("2", ["a", "b"])
    assert shape["en"][18][0] == ("1", list("abcdefgh"))


def test_topics_agree_across_versions_and_are_unique(records: list[dict]) -> None:
    by_treaty: dict[str, dict[str, list]] = {}
    for r in records:
        if r["kind"] == "article":
            by_treaty.setdefault(r["treaty"], {}).setdefault(r["lang"], []).append(r["topic"])
    for treaty, versions in by_treaty.items():
        topics = list(versions.values())
        assert all(t == topics[0] for t in topics), treaty
        named = [t for t in topics[0] if t]
        assert len(named) == len(set(named)), treaty
    assert by_treaty["br-se-1965"]["en"][2:7] == [
        "dividends", "interest", "immovable-property", "capital-gains", "royalties"]


def _articles(doc) -> list[tuple]:
    return [(v.lang, u.eid, u.number, u.start, u.end, len(u.children), u.text)
            for v in doc.versions for u in v.units if u.kind == "article"]


@pytest.mark.parametrize("encoding", ["utf-16", "cp1252-crlf"])
def test_reencoded_text_gives_the_same_articles(corpus_dir: Path, encoding: str) -> None:
    from indexer.models import DocMeta
    from indexer.pipeline import process
    from indexer.sources.read import decode

    name = "brazil-peru-2006.en.txt"
    text = (corpus_dir / name).read_text(encoding="utf-8")
    if encoding == "utf-16":
        data = text.encode("utf-16")
    else:  # every character of this text exists in cp1252
        data = text.replace("\n", "\r\n").encode("cp1252", errors="strict")
    meta = DocMeta(file=name, treaty="br-pe-2006", parties=("BR", "PE"), signed="2006-02-17",
                   languages=("en",))
    original, _ = process(decode(text.encode("utf-8"), name), meta)
    perturbed, _ = process(decode(data, name), meta)
    assert _articles(perturbed) == _articles(original)
    assert len(_articles(original)) == 29


def _two_copies(tmp_path: Path, corpus_dir: Path) -> Path:
    """A corpus of two files holding the same text under one treaty id."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("a.txt", "b.txt"):
        shutil.copy(corpus_dir / "portugal-spain-1993-art10.en-pt.txt", corpus / name)
    (corpus / "manifest.toml").write_text(
        "".join(f'[[document]]\nfile = "{f}"\ntreaty = "es-pt-1993"\nlanguages = ["en", "pt"]\n'
                'article = 10\n' for f in ("a.txt", "b.txt")), encoding="utf-8")
    return corpus


def test_two_files_of_one_treaty_never_collide(tmp_path: Path, corpus_dir: Path) -> None:
    """A second copy of a text under the same treaty id (a split source, a repeated slice)
    is kept as `other` with a warning, never merged into the first copy or lost."""
    report = ingest(_two_copies(tmp_path, corpus_dir), tmp_path / "data")
    assert not report.failed
    a, b = report.documents
    assert a.articles == {"en": 1, "pt": 1} and b.articles == {"en": 0, "pt": 0}
    assert any("kept as other" in w for w in b.warnings)
    with Corpus(tmp_path / "data") as c:
        rows = c.rows("es-pt-1993", "en", kinds=("article", "other"))
        assert sum(1 for r in rows if r["kind"] == "article") == 1
        copies = [r for r in rows if r["kind"] == "other" and r["file"] == "b.txt"]
        assert any(r["raw"].startswith("1. Dividends paid") for r in copies)


def test_reingest_reprocesses_partner_files(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = _two_copies(tmp_path, corpus_dir)
    ingest(corpus, tmp_path / "data")
    with (corpus / "b.txt").open("a", encoding="utf-8") as f:
        f.write("An added note.\n")
    report = ingest(corpus, tmp_path / "data")
    assert not report.failed
    assert [d.reused for d in report.documents] == [False, False]  # a.txt shares the treaty


def test_ingest_where_every_document_fails_keeps_the_store(tmp_path: Path,
                                                           corpus_dir: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(corpus_dir / "portugal-spain-1993-art10.en-pt.txt", corpus / "a.txt")
    ingest(corpus, tmp_path / "data")
    before = store.store_path(tmp_path / "data").read_bytes()
    (corpus / "a.txt").write_bytes(b"")
    report = ingest(corpus, tmp_path / "data")
    assert report.store is None and len(report.failed) == 1
    assert store.store_path(tmp_path / "data").read_bytes() == before
