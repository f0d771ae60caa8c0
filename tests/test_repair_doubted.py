"""The repair driven by tesseract's confidence (indexer/normalise/evidence.py, issue 30): a
word tesseract doubted that is no word of the language becomes the word it most likely was;
the same misreading read with confidence is left to the other steps; words of the language,
of another language and older spellings are kept however doubted."""

from __future__ import annotations

from pathlib import Path

from indexer.clean import clean
from indexer.normalise import normalise_line, repair_version, shared
from indexer.normalise.evidence import doubted
from indexer.sources.formats.ocr_words import Word, read_tsv, to_tsv

ROOT = Path(__file__).resolve().parent.parent


def _word(text: str, conf: float) -> Word:
    return Word(1, 1, 1, 1, 0, 0, 10, 15, conf, text)


def _repaired(text: str, lang: str, words: list[Word]) -> tuple[str, list]:
    from dataclasses import replace

    nz = shared(lang)
    lines = [normalise_line(replace(x, lang=lang), nz) for x in clean(text).lines]
    out = repair_version(lines, nz, [], True, doubted(words))
    return "\n".join(x.text for x in out), [c for x in out for c in x.changes
                                            if c.step == "unsure-word"]


def _excerpt() -> str:
    text = (ROOT / "corpus" / "brazil-peru-2006.en.txt").read_text(encoding="utf-8")
    return "\n".join(text.split("\n")[:60]) + "\n"


def test_a_doubted_misreading_becomes_its_word_a_sure_one_is_left_alone():
    text = _excerpt()
    assert "prevention" in text and "enterprises" in text
    misread = text.replace("prevention", "prevemtiom", 1).replace(
        "enterprises", "entenpnises", 1)
    words = [_word("prevemtiom", 31), _word("entenpnises", 95)]
    _out, changes = _repaired(misread, "en", words)
    assert ("prevemtiom", "prevention") in [(c.before, c.after) for c in changes]
    assert "entenpnises" not in [c.before for c in changes]  # (sure: the other steps' business)


def test_doubted_words_of_the_language_or_of_another_are_kept():
    text = _excerpt()  # (it has typing slips of its own: "taation", "invation", "othe")
    words = [_word(w, 10) for w in text.split()]  # every word doubted
    _out, changes = _repaired(text, "en", words)
    nz = shared("en")
    # (only words no lexicon knows, or rare ones: "othe" is one, and becomes "the")
    assert 0 < len(changes) <= 3 and all(nz.lex.freq(c.before) < 3 for c in changes)


def test_an_older_swedish_spelling_doubted_is_kept():
    text = "Artikel 1\n\nHvarje stat skall äga rätt att beskatta inkomsten.\n"
    out, changes = _repaired(text, "sv", [_word("Hvarje", 20), _word("beskatta", 20)])
    assert changes == [] and "Hvarje" in out


def test_the_kept_table_reads_back():
    words = [_word("Article", 96.5), Word(2, 3, 1, 4, 10, 20, 30, 12, 41, "l.")]
    assert read_tsv(to_tsv(words)) == words


def test_an_ingest_reads_the_words_kept_beside_an_ocr_text(tmp_path: Path):
    """`treaty add --ocr` keeps tesseract's words beside the text (`x.ocr.tsv`); the ingest
    reads them, so a word the engine doubted is repaired in the store, and only there."""
    import sqlite3
    from contextlib import closing

    from indexer import store
    from indexer.pipeline import ingest

    text = _excerpt().replace("prevention", "prevemtiom", 1)
    out = {}
    for name, words in (("with", [_word("prevemtiom", 31)]), ("without", None)):
        corpus = tmp_path / name / "corpus"
        corpus.mkdir(parents=True)
        (corpus / "br-pe.ocr.txt").write_text(text, encoding="utf-8")
        if words is not None:
            (corpus / "br-pe.ocr.tsv").write_text(to_tsv(words), encoding="utf-8")
        (corpus / "manifest.toml").write_text(
            '[[document]]\nfile = "br-pe.ocr.txt"\ntreaty = "br-pe-2006"\nlanguages = ["en"]\n'
            'parties = ["BR", "PE"]\nkeep = true\n', encoding="utf-8")
        data = tmp_path / name / "data"
        ingest(corpus, data)
        with closing(sqlite3.connect(store.store_path(data))) as db:
            out[name] = " ".join(t for (t,) in db.execute("SELECT text FROM units"))
    assert "prevention" in out["with"] and "prevemtiom" not in out["with"]
    assert "prevemtiom" in out["without"]
