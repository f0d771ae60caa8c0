"""The command line through click's CliRunner: exit codes and the exact error lines."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from search.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_help_has_examples() -> None:
    for cmd in ("ingest", "show", "export"):
        result = run(cmd, "--help")
        assert result.exit_code == 0
        assert "Examples:" in result.output and f"treaty {cmd}" in result.output


def test_show_outline(ingested: Path) -> None:
    result = run("show", "br-co-2022", "--data", str(ingested))
    assert result.exit_code == 0, result.output
    assert "[pt] 31 articles" in result.output
    assert "*" in result.output  # inferred numbers are marked
    lines = [x for x in result.output.splitlines() if x.strip().startswith("Art.")]
    assert len(lines) == 31
    assert "dividends" in lines[9]


def test_show_every_treaty(ingested: Path) -> None:
    result = run("show", "--data", str(ingested))
    assert result.exit_code == 0
    for tid in ("br-pe-2006", "br-co-2022", "br-se-1965", "br-cn-1991", "es-pt-1993"):
        assert tid in result.output


def test_unknown_treaty_is_one_line(ingested: Path) -> None:
    result = run("show", "xx-yy-2000", "--data", str(ingested))
    assert result.exit_code == 1
    assert result.output == (
        "Error: no treaty 'xx-yy-2000' (the corpus has: br-cn-1991, br-co-2022, br-pe-2006, "
        "br-se-1965, es-pt-1993)\n"
    )


def test_unknown_language_is_one_line(ingested: Path) -> None:
    result = run("show", "br-pe-2006", "--lang", "zh", "--data", str(ingested))
    assert result.exit_code == 1
    assert result.output == "Error: br-pe-2006 has no 'zh' version (it has: en)\n"


def test_no_store_is_one_line(tmp_path: Path) -> None:
    result = run("show", "br-pe-2006", "--data", str(tmp_path))
    assert result.exit_code == 1
    assert result.output.count("\n") == 1
    assert "run `treaty ingest` first" in result.output


def test_ingest_exits_1_with_summary_on_bad_file(tmp_path: Path, corpus_dir: Path) -> None:
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "x.txt").write_bytes((corpus_dir / "portugal-spain-1993-art10.en-pt.txt")
                                   .read_bytes())
    (corpus / "empty.txt").write_text("  \n", encoding="utf-8")
    result = run("ingest", "--corpus", str(corpus), "--data", str(tmp_path / "d"))
    assert result.exit_code == 1
    assert "empty.txt" in result.output and "ERROR" in result.output
    assert result.output.rstrip().endswith(
        "Error: 1 of 2 documents failed; the other one was ingested")
    assert "Traceback" not in result.output
