"""The `treaty` command. Each command parses options, calls one library function and turns a
domain error into a one-line message with a non-zero exit."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from search import ingesting
from search.clikit import data_option, domain_errors, lang_option, langs_option, party_option
from search.clikit import data_path as _data
from search.clikit import split_list as _langs

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="treaty")
def main() -> None:
    """Search, read and compare international tax treaties in their language versions.

    \b
    Start with:
      treaty ingest                              # build ./data from the bundled corpus
      treaty show br-pe-2006                     # outline of one treaty
      treaty search '"beneficial owner"' --lang en
      treaty cite "Brazil–Peru Art. 10(2)(a)"
      treaty compare br-se-1965 VII --langs sv,en,pt
      treaty compare --topic dividends
      treaty terms "permanent establishment" --to pt,zh   # how a term is rendered
      treaty serve                               # the web app on http://127.0.0.1:8000/
    """
    from search.terminal import SafeOutput

    if not isinstance(sys.stdout, SafeOutput):  # (what stored texts hold never steers it)
        sys.stdout = SafeOutput(sys.stdout)


@main.command()
@click.option("--corpus", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Corpus folder with manifest.toml [default: the bundled corpus].")
@data_option
@click.option("--engine", type=click.Choice(["whoosh", "tantivy"]), default=None,
              envvar="TREATY_ENGINE", show_envvar=True, help="Search engine [default: whoosh].")
@click.option("--force", is_flag=True, help="Re-process files even when unchanged, and keep "
              "files without treaty structure (no article heading, no protocol item).")
@click.option("--verbose", "-v", is_flag=True,
              help="List each guess (of metadata, article numbers), not one line per file.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes for the documents [default: every CPU for corpora over 2 MB, "
              "else 1].")
@click.option("--max-file-mb", type=click.FloatRange(min=0, min_open=True), default=None,
              envvar="TREATY_MAX_FILE_MB", show_envvar=True,
              help="Size limit of one source file, in MB [default: 64].")
@click.option("--allow-empty", is_flag=True,
              help="Accept a corpus folder without documents (it empties the corpus).")
@click.option("--no-wait", is_flag=True,
              help="Exit at once when another ingest into the data directory is running.")
@domain_errors
def ingest(corpus: Path | None, data: Path | None, engine: str | None, force: bool,
           verbose: bool, workers: int | None, max_file_mb: float | None, allow_empty: bool,
           no_wait: bool) -> None:
    """Ingest the corpus into the store and build the search index.

    Unchanged files are not re-processed; a failed or interrupted ingest leaves the previous
    corpus intact (the new store and index go live together, at the end). One ingest at a
    time writes into a data directory: another waits for it (or, with --no-wait, exits).
    What was guessed (a text without a manifest entry) is one line per file, each guess
    with --verbose; warnings are what a person must look at. A text without treaty
    structure (a licence, a web page's policy) is refused, unless --force.
    Exits 1 when any document failed (the others are still ingested), 130 on Ctrl+C and 143
    on SIGTERM.

    \b
    Examples:
      treaty ingest
      treaty ingest --corpus ~/treaties --data /tmp/treaty-data --engine tantivy
      treaty ingest --corpus ~/treaties --workers 2
    """
    from indexer.datadir import live

    options = {"engine": engine, "force": force, "workers": workers, "max_file_mb": max_file_mb,
               "allow_empty": allow_empty, "wait": not no_wait,
               "notify": ingesting.say}
    ddir = before = None
    try:
        with ingesting.sigterm_raises():  # (from the start: the imports take a moment too)
            ddir = _data(data)
            before = live(ddir)
            report = ingesting.run_ingest(corpus or DEFAULT_CORPUS, ddir, options)
            from search.terminal import ingest_summary

            click.echo(ingest_summary(report, verbose))
    except (KeyboardInterrupt, ingesting.Terminated) as exc:
        changed = before is not None and live(ddir) != before
        click.echo("interrupted: " + ("the new corpus had already been made live"
                                      if changed else "the previous corpus is unchanged"),
                   err=True)
        raise click.exceptions.Exit(143 if isinstance(exc, ingesting.Terminated) else 130) from None
    if report.failed:
        raise click.ClickException(ingesting.failures(report))


@main.command()
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--corpus", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Corpus folder to add to [default: the bundled corpus].")
@data_option
@click.option("--treaty", default=None, metavar="ID", help="Treaty id, e.g. br-pe-2006.")
@click.option("--parties", default=None, metavar="XX,YY", help="ISO 3166-1 alpha-2 codes.")
@click.option("--signed", default=None, metavar="DATE", help="Date of signature, 2006-02-17.")
@click.option("--ocr", default=None, metavar="XX,YY",
              help="Read a PDF without a text layer by OCR (tesseract) in these languages.")
@click.option("--dry-run", is_flag=True, help="Show what would be added and guessed; change nothing.")
@click.option("--force", is_flag=True,
              help="Add a file without treaty structure all the same (its entry keeps it).")
@click.option("--verbose", "-v", is_flag=True, help="List each guess of the ingest.")
@domain_errors
def add(files: tuple[Path, ...], corpus: Path | None, data: Path | None, treaty: str | None,
        parties: str | None, signed: str | None, ocr: str | None, dry_run: bool, force: bool,
        verbose: bool) -> None:
    """Add treaty files (text, HTML, PDF, Word) to the corpus and ingest.

    Each file is copied into the corpus folder and gets a manifest entry with what was given;
    the rest is guessed at ingest (--dry-run shows the guesses and changes nothing). Given
    metadata that the text contradicts is a warning; a file without treaty structure (no
    article heading, no protocol item: a licence, a cookie policy) is refused unless
    --force. A PDF
    without a text layer is refused unless --ocr gives its languages: it is then read by
    tesseract once, and its text is added as NAME.ocr.txt.

    \b
    Examples:
      treaty add --corpus ~/treaties --dry-run convention.pdf
      treaty add --corpus ~/treaties --treaty br-pe-2006 --parties BR,PE page.html
      treaty add --corpus ~/treaties --ocr en,pt scan.pdf
    """
    import contextlib

    from indexer.datadir import writing
    from indexer.sources.add import add as add_files
    from indexer.sources.add import describe, given_fields
    from search.terminal import escaped, ingest_summary

    folder = corpus or DEFAULT_CORPUS
    # the data directory's lock for the add and its ingest: no ingest into it runs between
    with contextlib.nullcontext() if dry_run else writing(_data(data), notify=ingesting.say):
        planned = add_files(list(files), folder, given_fields(treaty, parties, signed),
                            dry_run, _langs(ocr), notify=ingesting.say, force=force)
        for item in planned:
            click.echo(escaped("\n".join(describe(item)), "\n"))
        if dry_run:
            click.echo("dry run: nothing was changed")
            return
        report = ingesting.run_ingest(folder, _data(data),
                                      {"notify": ingesting.say, "held": True})
    click.echo(ingest_summary(report, verbose))
    if report.failed:
        raise click.ClickException(ingesting.failures(report))


@main.command()
@click.argument("treaty", required=False)
@lang_option
@data_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@domain_errors
def show(treaty: str | None, lang: str | None, data: Path | None, as_json: bool) -> None:
    """Outline of TREATY (of every treaty when none is given): each article's number, label,
    title, topic and paragraph count, per language version. Inferred article numbers are
    marked with '*'.

    \b
    Examples:
      treaty show br-pe-2006
      treaty show br-se-1965 --lang pt
      treaty show --json br-cn-1991
    """
    from search.corpus import Corpus, outline
    from search.terminal import outline_text

    with Corpus(_data(data)) as corpus:
        ids = [treaty] if treaty else [t.id for t in corpus.treaties()]
        results = [outline(corpus, tid, lang) for tid in ids]
    if as_json:
        out = results[0] if treaty else results
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    for result in results:
        click.echo(outline_text(result))


@main.command()
@click.argument("citation", nargs=-1, required=True)
@lang_option
@data_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@domain_errors
def cite(citation: tuple[str, ...], lang: str | None, data: Path | None, as_json: bool) -> None:
    """Print the unit a CITATION names, in every language version (or --lang).

    Citations are read the way people write them, in English, Portuguese, Swedish and
    Chinese, with arabic, roman or Chinese numerals, country names or treaty ids.

    \b
    Examples:
      treaty cite "Brazil–Peru Art. 10(2)(a)"
      treaty cite "Artigo 10, parágrafo 2, alínea a) da Convenção Brasil–Colômbia"
      treaty cite "artikel VII § 2 avtalet Sverige–Brasilien" --lang sv
      treaty cite 中国巴西协定第十条第二款
      treaty cite "br-pe-2006 Protocol 4" --json
    """
    from search.citations import cite as lookup
    from search.corpus import Corpus
    from search.terminal import cite_text

    with Corpus(_data(data)) as corpus:
        result = lookup(corpus, " ".join(citation), lang)
    if as_json:
        click.echo(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
        return
    click.echo(cite_text(result))


@main.command()
@click.argument("treaty", required=False)
@click.argument("article", required=False)
@langs_option("--langs", help="Versions to show, in column order (codes or names) "
              "[default: all of the treaty].")
@click.option("--topic", default=None, metavar="KEY",
              help="Compare one provision across treaties instead (e.g. dividends).")
@lang_option
@click.option("--treaties", default=None, metavar="A,B",
              help="With --topic: only these treaties.")
@click.option("--width", type=click.IntRange(min=30), default=None,
              help="Line width [default: the terminal's].")
@data_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--repairs", is_flag=True,
              help="List the article's OCR repairs, version by version, with their context.")
@click.option("--format", "fmt", type=click.Choice(["text", "csv", "docx"]), default="text",
              show_default=True, help="Text columns, or a table whose cells carry their "
              "citation and source line: CSV or a Word file (docx).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="With --format csv/docx: write to FILE instead of standard output.")
@domain_errors
def compare(treaty: str | None, article: str | None, langs: list[str] | None, topic: str | None,
            lang: str | None, treaties: str | None, width: int | None, data: Path | None,
            as_json: bool, repairs: bool, fmt: str, out: Path | None) -> None:
    """Read ARTICLE of TREATY in its language versions side by side, paragraph against
    paragraph and point against point, as the alignment links them ("—" marks a missing
    counterpart); or, with --topic, the same provision in every treaty, whatever its number.
    ARTICLE is a number (7), a roman numeral (VII) or an eId (art_7). --repairs lists what
    the OCR repair changed in the article (the web app's repair view, in the terminal).

    \b
    Examples:
      treaty compare br-se-1965 VII
      treaty compare br-se-1965 3 --langs sv,pt --width 160
      treaty compare br-se-1965 7 --repairs
      treaty compare br-se-1965 7 --format docx --out art7.docx
      treaty compare es-pt-1993 art_10 --json
      treaty compare --topic dividends --lang en
      treaty compare --topic dividends --format csv > dividends.csv
      treaty compare --topic dividends --treaties br-pe-2006,br-se-1965 --json
    """
    from search.corpus import Corpus

    if topic:
        if treaty or article:
            raise click.UsageError("give either TREATY ARTICLE or --topic, not both")
        if repairs:
            raise click.UsageError("--repairs is of one article: give TREATY ARTICLE")
    elif not (treaty and article):
        raise click.UsageError("give TREATY and ARTICLE (e.g. br-se-1965 VII), or --topic KEY")
    ddir = _data(data)
    with Corpus(ddir) as corpus:
        if fmt != "text":
            from search.commands.export import write
            from search.exports import (
                article_table,
                index_terms,
                table_csv,
                table_docx,
                topic_table,
            )

            table = (topic_table(corpus, topic, lang, index_terms(ddir), _langs(treaties))
                     if topic else article_table(corpus, treaty, article, langs))
            write(table_csv(table) if fmt == "csv" else table_docx(table), out)
            return
        result = _compared(corpus, treaty, article, langs, topic, lang, _langs(treaties), repairs)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    import shutil

    from search.compare import render_columns
    from search.compare.repairs import repairs_text

    if repairs:
        click.echo(repairs_text(result), nl=False)
        return
    click.echo(render_columns(result, width or shutil.get_terminal_size((100, 24)).columns))


def _compared(corpus, treaty: str | None, article: str | None, langs: list[str] | None,
              topic: str | None, lang: str | None, treaties: list[str] | None,
              repairs: bool) -> dict:
    """The one library call of `compare`: the topic, the article's repairs or the article."""
    from search.compare import compare_article, compare_topic
    from search.compare.repairs import article_repairs

    if topic:
        return compare_topic(corpus, topic, lang, treaties)
    if repairs:
        return article_repairs(corpus, treaty, article, langs)
    return compare_article(corpus, treaty, article, langs)


@main.command("align-report")
@click.argument("treaty")
@click.option("--limit", type=click.IntRange(min=0), default=20, show_default=True,
              help="How many links to list (0: all).")
@data_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@domain_errors
def align_report(treaty: str, limit: int, data: Path | None, as_json: bool) -> None:
    """List the lowest-confidence alignment links of TREATY for a person to check: units with
    no counterpart first (score 0), then links by rising score, with the start of both texts.

    \b
    Examples:
      treaty align-report br-se-1965
      treaty align-report br-se-1965 --limit 50 --json
    """
    from search.compare import align_report as report
    from search.corpus import Corpus
    from search.terminal import align_report_text

    with Corpus(_data(data)) as corpus:
        rows = report(corpus, treaty, limit)
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    click.echo(align_report_text(treaty, rows))


@main.command()
@click.argument("treaty", required=False)
@data_option
@click.option("--json", "as_json", is_flag=True,
              help='Print JSON: {"findings": [...], "versions": N, "clean_versions": M, '
              '"rates": [...], "removed": [...]}.')
@click.option("--removed", "list_removed", is_flag=True,
              help="List each source line removed as page furniture, with why.")
@domain_errors
def check(treaty: str | None, data: Path | None, as_json: bool, list_removed: bool) -> None:
    """List what looks wrong in the ingested result of TREATY (of every treaty when none is
    given), per language version: one line per finding with its place (treaty, language,
    article), its source lines, its kind and what it means. The audit is made at ingest,
    with the units it audits; a report, so it exits 0 with or without findings.

    \b
    Kinds of finding:
      no-articles          no article found in the version
      numbering-gap        article numbers skip, start past 1 or go back
      numbering-duplicate  an article number occurs twice (21A after 21 is not one)
      heading-in-body      a line of an article's text reads as an article/chapter heading
      heading-outside      text kept apart from the articles holds a heading continuing them
      paragraph-skip       an article's numbered paragraphs skip or repeat (1, 2, 4)
      paragraph-before-1   an unnumbered paragraph before paragraph 1 (a title, points)
      versions-disagree    versions differ in article count, or in an article's paragraphs
      inferred-number      an article number recovered, not printed
      low-confidence-link  an alignment link below even odds, or no counterpart at all
      unaccounted-lines    source lines with text that no unit and no removed furniture holds
    Then how many source lines were removed as page furniture, by why (running headers and
    footers, page numbers, drawing lines; `--removed` lists each), and the withholding
    rates (`treaty rates`) of low confidence or that versions disagree on.

    \b
    Examples:
      treaty check
      treaty check br-se-1965
      treaty check br-se-1965 --removed
      treaty check --json --data /tmp/treaty-data
    """
    from search.check import check as run
    from search.check import check_text
    from search.corpus import Corpus

    with Corpus(_data(data)) as corpus:
        result = run(corpus, treaty)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    click.echo(check_text(result, removed=list_removed))


@main.command("rates")
@click.option("--treaty", default=None, metavar="ID", help="Only this treaty (e.g. br-pe-2006).")
@click.option("--topic", default=None, metavar="KEY",
              help="Only this income: dividends, interest, royalties, technical-services.")
@party_option
@lang_option
@click.option("--as-of", "as_of", default=None, metavar="DATE",
              help="The rates in force at this date (2010-01-01) [default: today's, the "
              "treaty as amended].")
@data_option
@click.option("--json", "as_json", is_flag=True, help='Print JSON: {"rates": [...]}.')
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV with a header row.")
@domain_errors
def rates_cmd(treaty: str | None, topic: str | None, party: str | None, lang: str | None,
              as_of: str | None, data: Path | None, as_json: bool, as_csv: bool) -> None:
    """List the withholding rates the treaties state: the most the source state may tax
    dividends, interest, royalties or technical fees, for which recipient, and where the
    treaty says so. Each rate has its kind (a limit; an exemption is a limit of 0; a
    branch-profits tax; an MFN clause that may lower a rate), its condition as a short
    phrase in the reader's language with its fields (holding, period, recipient, beneficial
    owner), the paragraph that states it (cited by the treaty's name, with a quote), the
    language versions that state it and how sure the extraction is. Rates set or changed by
    an amending protocol are read from the text as amended; --as-of gives those in force at
    a date. A residence state's own exemption is no rate.

    \b
    Examples:
      treaty rates
      treaty rates --treaty br-pe-2006 --lang pt
      treaty rates --treaty se-us-1994 --as-of 2004-01-01
      treaty rates --topic royalties --party BR --csv > royalties.csv
      treaty rates --json
    """
    from search.corpus import Corpus
    from search.rates import rates, rates_csv, rates_text

    if as_json and as_csv:
        raise click.UsageError("--json and --csv: choose one")
    with Corpus(_data(data)) as corpus:
        result = rates(corpus, treaty=treaty, topic=topic, party=party, lang=lang, as_of=as_of,
                       flags=not (as_json or as_csv))
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
    elif as_csv:
        click.echo(rates_csv(result), nl=False)
    else:
        click.echo(rates_text(result))


@main.command()
@data_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (127.0.0.1: this computer only).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--threads", default=16, show_default=True, type=click.IntRange(1, 256),
              help="Worker threads: requests served at once (more wait in a queue).")
@domain_errors
def serve(data: Path | None, host: str, port: int, threads: int) -> None:
    """Start the local web app: search, read language versions side by side, compare a
    provision across treaties, look up citations; JSON under /api/. Needs no internet.

    \b
    Examples:
      treaty serve                       # then open http://127.0.0.1:8000/
      treaty serve --data /tmp/treaty-data --port 8080 --threads 8
    """
    import threading

    from indexer import store
    from search.web import create_app, warm_up
    from search.web.server import make_server

    path = _data(data)
    store.connect(path).close()  # a missing corpus is a one-line error, before serving
    app = create_app(path)
    server = make_server(app, host, port, threads)
    click.echo(f"Serving {path} on {server.url} (Ctrl+C to stop)", err=True)
    threading.Thread(target=warm_up, args=(app,), daemon=True).start()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


@main.command("search")
@click.argument("query", nargs=-1, required=True)
@lang_option
@click.option("--treaty", default=None, metavar="ID", help="Only this treaty (e.g. br-pe-2006).")
@party_option
@click.option("--topic", default=None, metavar="KEY",
              help="Only articles of this model-convention topic (e.g. dividends).")
@click.option("--article", default=None, metavar="N", help="Only article N (10 or X).")
@click.option("--kind", default=None, metavar="KIND",
              help="Only units of this kind: article, protocol, preamble, closing, title, other.")
@click.option("--limit", type=click.IntRange(1, 1000), default=10, show_default=True,
              help="How many articles to show.")
@click.option("--aligned", is_flag=True,
              help="Add the aligned paragraphs of each hit in the treaty's other languages.")
@click.option("--as-typed", is_flag=True,
              help="Search the words as typed, even when a correction would match more.")
@data_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@domain_errors
def search_cmd(query: tuple[str, ...], lang: str | None, treaty: str | None, party: str | None,
               topic: str | None, article: str | None, kind: str | None, limit: int,
               aligned: bool, as_typed: bool, data: Path | None, as_json: bool) -> None:
    """Search the corpus for QUERY; hits are ranked (BM25F, titles and topics weighted) and
    grouped by article, each with its citation, a highlighted snippet and its language.

    QUERY syntax: words (all must match), "a phrase", AND / OR / NOT, term~ (fuzzy),
    prefix* ; anything else is searched as plain words. A query in one language also finds
    the matching articles of the other languages by their topic.

    \b
    Examples:
      treaty search beneficial owner dividends
      treaty search '"permanent establishment" NOT agent' --lang en
      treaty search dividends --lang zh --json
      treaty search tributação --treaty br-co-2022 --limit 3
      treaty search utdelning --topic dividends --aligned
      treaty search royalt* --party BR --article 12
    """
    from search.results import search as run
    from search.terminal import search_text

    # Not _data(): importing indexer.pipeline costs a cold search ~0.2 s; same rule as its
    # data_dir (--data, else $TREATY_DATA, which click already put in `data`, else ./data).
    result = run(data or Path("data"), " ".join(query), lang=lang, treaty=treaty, party=party,
                 topic=topic, article=article, kind=kind, limit=limit, aligned=aligned,
                 correct=not as_typed)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    click.echo(search_text(result))


from search.commands import register

register(main)


def entry() -> None:
    """The `treaty` program: `main`, after which SIGINT and SIGTERM are ignored while the
    interpreter exits (a command has said what it had to say; a signal in those last moments
    would end the process by the signal, without a word, after a finished ingest)."""
    import signal

    try:
        main()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


if __name__ == "__main__":  # pragma: no cover
    entry()
