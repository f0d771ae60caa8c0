"""A quiet, honest ingest: what was guessed is one line per file (each guess with
--verbose), warnings are only what a person must look at; a text with no treaty structure (a
licence, a cookie-policy page) is refused with a one-line reason unless --force; metadata
given that the text contradicts is a warning."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from indexer.models import DocMeta
from indexer.pipeline.document import contradictions, process, structure_missing
from indexer.sources.read import read_file
from search.cli import main

runner = CliRunner()

#: The MIT licence as projects ship it: numbered nothing, no article, no party.
LICENCE = """MIT License

Copyright (c) 2024 Example Authors

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""

COOKIES = """<!doctype html><html lang="en"><head><title>Cookie policy</title></head><body>
<header><nav><a href="/">Home</a> <a href="/about">About us</a></nav></header>
<main><h1>Cookie policy</h1>
<p>This website uses cookies to improve your experience. By continuing to browse the site you
agree to our use of cookies.</p>
<h2>1. What are cookies?</h2>
<p>Cookies are small text files that are stored on your computer or mobile device when you
visit a website. They allow the website to recognise your device.</p>
<h2>2. How we use cookies</h2>
<p>We use strictly necessary cookies to make the site work and analytics cookies to
understand how visitors use the site. You can change your cookie settings at any time.</p>
<h2>3. Contact</h2><p>If you have questions about this policy, write to us.</p>
</main><footer>© 2024 Example Ltd. All rights reserved.</footer></body></html>
"""


def _doc(path: Path, **given):
    return process(read_file(path), DocMeta(file=path.name, treaty="", **given),
                   topics=False)[0]


@pytest.fixture(scope="module")
def own_files(tmp_path_factory, corpus_dir: Path) -> Path:
    """A researcher's own folder: two treaties under neutral names, no manifest, and the
    licence and the cookie policy that came with them."""
    folder = tmp_path_factory.mktemp("own") / "corpus"
    folder.mkdir()
    shutil.copy(corpus_dir / "brazil-peru-2006.en.txt", folder / "doc1.txt")
    shutil.copy(corpus_dir / "portugal-spain-1993-art10.en-pt.txt", folder / "doc2.txt")
    (folder / "LICENSE.txt").write_text(LICENCE, encoding="utf-8")
    (folder / "cookies.html").write_text(COOKIES, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def own_ingest(own_files, tmp_path_factory):
    """`treaty ingest` of the researcher's folder: (its result, its data directory)."""
    data = tmp_path_factory.mktemp("own-data")
    return runner.invoke(main, ["ingest", "--corpus", str(own_files), "--data", str(data)]), data


def test_junk_is_refused_with_one_line_and_the_treaties_are_ingested(own_ingest):
    out, _data = own_ingest
    assert out.exit_code == 1
    lines = out.output.splitlines()
    errors = {x.split()[0]: x.split("ERROR: ", 1)[1] for x in lines if "ERROR: " in x}
    assert errors == {name: f"{name}: no treaty structure: no article heading, protocol item or "
                            "treaty language in its text (en); not ingested (`treaty ingest "
                            "--force` or `keep = true` in its manifest entry keeps it)"
                      for name in ("LICENSE.txt", "cookies.html")}
    assert lines[-1] == "Error: 2 of 4 documents failed; the other 2 were ingested"
    # what was guessed: one line per treaty file, and no warning at all
    notes = [x for x in lines if x.startswith("note: ")]
    assert notes == [
        "note: doc1.txt: guessed languages, parties, signed, place, treaty",
        ("note: doc2.txt: guessed languages, treaty; en: 1 of 1 article numbers inferred; pt: 1 "
        "of 1 article numbers inferred"),
    ]
    assert not any(x.startswith("warning:") for x in lines)


def test_verbose_lists_each_guess_and_force_keeps_the_junk(own_files, tmp_path):
    out = runner.invoke(main, ["ingest", "--corpus", str(own_files), "--data",
                               str(tmp_path / "data"), "--verbose", "--force"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert "note: doc1.txt: parties guessed: BR,PE" in lines
    assert "note: doc1.txt: signed guessed: 2006-02-17" in lines
    assert "note: doc1.txt: treaty guessed: br-pe-2006" in lines
    assert sum(x.startswith("note: doc1.txt: ") for x in lines) == 5
    assert "warning: LICENSE.txt: en: no articles found" in lines  # kept: to look at
    assert lines[-1].startswith("4 of 4 documents ingested")


def test_add_refuses_junk_unless_forced(tmp_path):
    corpus, junk = tmp_path / "corpus", tmp_path / "LICENSE.txt"
    corpus.mkdir()
    junk.write_text(LICENCE, encoding="utf-8")
    out = runner.invoke(main, ["add", "--corpus", str(corpus), "--data", str(tmp_path / "d"),
                               str(junk)])
    assert out.exit_code == 1
    assert out.output == (f"Error: {junk}: no treaty structure: no article heading, protocol "
                          "item or treaty language in its text (en); not added (--force adds "
                          "it all the same)\n")
    assert list(corpus.iterdir()) == []  # nothing was copied
    forced = runner.invoke(main, ["add", "--corpus", str(corpus), "--data", str(tmp_path / "d"),
                                  "--force", "--dry-run", str(junk)])
    assert forced.exit_code == 0 and "kept without treaty structure (--force)" in forced.output


def test_every_real_treaty_has_treaty_structure(corpus_dir: Path):
    """The refusal reads the ingest's own result: every bundled text passes, even without its
    manifest entry (the headingless excerpt by its treaty language), the junk does not."""
    from indexer.sources import manifest

    for entry in manifest.load(corpus_dir):
        doc = _doc(corpus_dir / entry.file)
        assert structure_missing(doc) is None, entry.file


def test_given_metadata_the_text_contradicts_is_a_warning(corpus_dir: Path, tmp_path):
    peru = corpus_dir / "brazil-peru-2006.en.txt"
    assert contradictions(DocMeta(file="x", treaty="t", parties=("BR", "PE"),
                                  signed="2006-02-17"),
                          read_file(peru).text.splitlines()) == []
    doc = _doc(peru, parties=("BR", "SE"), signed="1965-03-17")
    assert list(doc.warnings) == [
        "parties given as BR,SE, but the text names BR,PE",
        "signed given as 1965-03-17, but the text's closing formula says 2006-02-17"]
    # through `treaty add`: shown before anything changes
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    out = runner.invoke(main, ["add", "--corpus", str(corpus), "--parties", "BR,SE",
                               "--dry-run", str(peru)])
    assert "  warning: parties given as BR,SE, but the text names BR,PE" in out.output.splitlines()


def test_the_treaty_page_separates_warnings_from_guesses(own_ingest):
    from search.web import create_app

    _out, data = own_ingest  # (the junk refused, the treaties ingested)
    html = create_app(data).test_client().get("/t/br-pe-2006").get_data(as_text=True)
    assert "ingest warning" not in html
    assert "What the ingest guessed or kept aside in <code>doc1.txt</code> (5)" in html
    assert "<li>parties guessed: BR,PE</li>" in html
