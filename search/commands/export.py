"""`treaty export`: the corpus, a treaty or one article, as JSON lines, text, a translation
memory (TMX, TSV) or a side-by-side table (DOCX, CSV)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from search.clikit import data_option, data_path, domain_errors, lang_option, langs_option

FORMATS = ("jsonl", "txt", "tmx", "tsv", "csv", "docx")


@click.command()
@data_option
@click.option("--treaty", default=None, metavar="ID",
              help="Only this treaty id (required for every format but jsonl).")
@click.option("--article", default=None, metavar="N",
              help="Only this article (10, X, art_10) or unit (prot_4, preamble) of --treaty.")
@lang_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="jsonl",
              show_default=True, help="JSON lines; text with citations and source lines; "
              "aligned paragraphs as a TMX 1.4b translation memory or TSV; one article side "
              "by side as CSV or a Word file (docx).")
@langs_option("--langs", help="Languages of the tmx/tsv/csv/docx columns, in order, codes or "
              "names [default: all of the treaty].")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to FILE instead of standard output.")
@click.option("--as", "as_", default=None, metavar="original|DATE",
              help="jsonl, txt: the treaty as first signed, or as in force at DATE "
              "(2010-01-01) [default: as amended today].")
@domain_errors
def export(data: Path | None, treaty: str | None, article: str | None, lang: str | None,
           fmt: str, langs: list[str] | None, out: Path | None, as_: str | None) -> None:
    """Export top-level units (title, preamble, chapters, articles, protocol, closing,
    annexes, other) as JSON lines, with their paragraphs and points; one treaty or article as
    text, each version with its citation and source line; a treaty's (or an article's)
    aligned paragraphs as a translation memory (tmx) or a table (tsv) for translators; one
    article side by side, each cell with its citation and source line, as CSV or DOCX.

    A translation memory pairs two languages or more: a treaty of one language version is
    refused with a message.

    \b
    Examples:
      treaty export --format jsonl > corpus.jsonl
      treaty export --treaty br-pe-2006 --article 10 --format txt
      treaty export --treaty br-se-1965 --article 7 --format docx --out art7.docx
      treaty export --treaty br-se-1965 --article VII --format csv --langs sv,english
      treaty export --format tmx --treaty br-se-1965 --langs en,pt --out br-se.tmx
      treaty export --treaty br-pe-2006 --as original > br-pe-as-signed.jsonl
    """
    from search.corpus import Corpus

    if fmt != "jsonl" and not treaty:
        raise click.UsageError(f"--format {fmt} needs --treaty ID")
    if fmt in ("csv", "docx") and not article:
        raise click.UsageError(f"--format {fmt} needs --article N (one article side by side; "
                               "`treaty compare --topic KEY --format csv` for a topic)")
    if article and not treaty:
        raise click.UsageError("--article needs --treaty ID")
    with Corpus(data_path(data)) as corpus:
        body = _export(corpus, fmt, treaty, article, lang, langs, as_)
    write(body, out)


def _export(corpus, fmt: str, treaty: str | None, article: str | None, lang: str | None,
            langs: list[str] | None, as_: str | None = None) -> str | bytes:
    """The export of `fmt` as text or bytes (one library call per format)."""
    from search import exports
    from search.corpus import export_jsonl

    if fmt in ("tmx", "tsv"):
        return _aligned(corpus, fmt, treaty, article, langs)
    if fmt in ("csv", "docx"):
        table = exports.article_table(corpus, treaty, article, langs)
        return exports.table_csv(table) if fmt == "csv" else exports.table_docx(table)
    if article:
        records = exports.article_records(corpus, treaty, article, lang, as_)
    else:
        records = list(export_jsonl(corpus, treaty, lang, as_))
    if fmt == "txt":
        return exports.records_text(records)
    return "".join(json.dumps(rec, ensure_ascii=False) + "\n" for rec in records)


def _aligned(corpus, fmt: str, treaty: str, article: str | None,
             langs: list[str] | None) -> str:
    from importlib.metadata import PackageNotFoundError, version

    from search.exports.units import unit_eid
    from search.tmx import to_tmx, to_tsv

    eid = unit_eid(article) if article else None
    if fmt == "tsv":
        return to_tsv(corpus, treaty, langs, article=eid)
    try:
        ver = version("treaty")
    except PackageNotFoundError:
        ver = "0"
    return to_tmx(corpus, treaty, langs, version=ver, article=eid)


def write(body: str | bytes, out: Path | None) -> None:
    """`body` into `out`, else onto standard output (a Word file only when that is not a
    terminal)."""
    if out is not None:
        if isinstance(body, bytes):
            out.write_bytes(body)
        else:
            out.write_text(body, encoding="utf-8")
        return
    if isinstance(body, bytes):
        if sys.stdout.isatty():
            raise click.UsageError("a Word file is not for the terminal: give --out FILE "
                                   "(or redirect the output)")
        stream = click.get_binary_stream("stdout")
        stream.write(body)
        stream.flush()
        return
    click.echo(body, nl=False)
