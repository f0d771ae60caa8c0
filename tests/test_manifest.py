"""The corpus manifest: declared entries, undeclared files, and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.errors import ManifestError
from indexer.sources import manifest


def test_bundled_manifest_declares_every_text(corpus_dir: Path) -> None:
    entries = manifest.load(corpus_dir)
    assert [e.treaty for e in entries] == [
        "br-pe-2006", "br-co-2022", "br-se-1965", "br-cn-1991", "es-pt-1993"
    ]
    assert all(e.declared for e in entries)
    for e in entries:
        assert (corpus_dir / e.file).is_file(), e.file
    excerpt = next(e for e in entries if e.treaty == "es-pt-1993")
    assert excerpt.article == 10 and excerpt.languages == ("en", "pt")
    assert next(e for e in entries if e.treaty == "br-pe-2006").parties == ("BR", "PE")


def test_undeclared_text_files_are_found(tmp_path: Path, corpus_dir: Path) -> None:
    (tmp_path / "manifest.toml").write_text(
        '[[document]]\nfile = "a.txt"\ntreaty = "br-pe-2006"\n', encoding="utf-8")
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.txt").write_text("y", encoding="utf-8")
    entries = manifest.load(tmp_path)
    assert [(e.file, e.declared) for e in entries] == [("a.txt", True), ("sub/b.txt", False)]


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[[document]]\ntreaty = "br-pe-2006"\n', "needs a `file`"),
        ('[[document]]\nfile = "a.txt"\ntreaty = "Brazil Peru"\n', "is not like"),
        ('[[document]]\nfile = "a.txt"\nparties = ["Brazil"]\n', "alpha-2"),
        ('[[document]]\nfile = "a.txt"\nsigned = "17/2/2006"\n', "signed must be a date"),
        ('[[document]]\nfile = "a.txt"\narticle = 0\n', "positive whole number"),
        ('[[document]]\nfile = "a.txt"\ncolour = "red"\n', "unknown field"),
        ('[[document]\nfile = "a.txt"\n', "not valid TOML"),
        ('[[document]]\nfile = "a.txt"\n[[document]]\nfile = "a.txt"\n', "listed twice"),
    ],
)
def test_bad_manifest_is_one_line_error(tmp_path: Path, toml: str, message: str) -> None:
    (tmp_path / "manifest.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(ManifestError) as exc:
        manifest.load(tmp_path)
    assert message in str(exc.value)
    assert "\n" not in str(exc.value)


def test_missing_corpus_folder(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="corpus folder not found"):
        manifest.load(tmp_path / "nope")
