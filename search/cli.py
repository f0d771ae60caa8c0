"""The `treaty` command. Each command parses options, calls one library function and turns a
domain error into a one-line message with a non-zero exit."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path

import click

from indexer.errors import TreatyError

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def domain_errors(fn: Callable) -> Callable:
    """Turn domain errors (and a broken pipe) into one line and exit status 1."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TreatyError as exc:
            raise click.ClickException(str(exc)) from None
        except BrokenPipeError:
            sys.exit(0)

    return wrapper


data_option = click.option(
    "--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
    envvar="TREATY_DATA", show_envvar=True,
    help="Data directory holding the store and index [default: ./data].",
)
lang_option = click.option("--lang", default=None, metavar="XX",
                           help="Language version (ISO 639-1: en, pt, sv, zh).")


def _data(data: Path | None) -> Path:
    from indexer.pipeline import data_dir

    return data_dir(data)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="treaty")
def main() -> None:
    """Search, read and compare international tax treaties in their language versions.

    \b
    Start with:
      treaty ingest                 # build ./data from the bundled corpus
      treaty show br-pe-2006        # outline of one treaty
      treaty export --format jsonl --treaty br-se-1965 --lang sv
    """


@main.command()
@click.option("--corpus", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Corpus folder with manifest.toml [default: the bundled corpus].")
@data_option
@click.option("--engine", type=click.Choice(["whoosh", "tantivy"]), default=None,
              envvar="TREATY_ENGINE", show_envvar=True, help="Search engine [default: whoosh].")
@click.option("--force", is_flag=True, help="Re-process files even when unchanged.")
@domain_errors
def ingest(corpus: Path | None, data: Path | None, engine: str | None, force: bool) -> None:
    """Ingest the corpus into the store and build the search index.

    Unchanged files are not re-processed; a failed ingest leaves the previous corpus intact.
    Exits 1 when any document failed (the others are still ingested).

    \b
    Examples:
      treaty ingest
      treaty ingest --corpus ~/treaties --data /tmp/treaty-data --engine tantivy
    """
    from indexer.manifest import load
    from indexer.pipeline import ingest as run

    corpus = corpus or DEFAULT_CORPUS
    total = len(load(corpus))
    if sys.stderr.isatty():
        with click.progressbar(length=total, label="Ingesting", file=sys.stderr,
                               item_show_func=lambda f: f) as bar:
            report = run(corpus, _data(data), engine=engine, force=force,
                         progress=lambda f: bar.update(1, f))
    else:
        report = run(corpus, _data(data), engine=engine, force=force)
    click.echo(_summary(report))
    if report.failed:
        raise click.ClickException(
            f"{len(report.failed)} of {len(report.documents)} documents failed; "
            "the others were ingested"
        )


def _summary(report) -> str:
    rows = [("document", "treaty", "versions", "articles", "warnings")]
    for d in report.documents:
        if d.error:
            rows.append((d.file, "-", "-", "-", f"ERROR: {d.error}"))
            continue
        arts = " ".join(f"{k}:{v}" for k, v in d.articles.items() if v) or "-"
        rows.append((d.file + (" (unchanged)" if d.reused else ""), d.treaty,
                     ",".join(d.languages), arts, str(len(d.warnings))))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r[:4], widths)) + "  " + r[4] for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    for d in report.documents:
        for w in d.warnings:
            lines.append(f"warning: {d.file}: {w}")
    ok = len(report.documents) - len(report.failed)
    lines.append(f"{ok} of {len(report.documents)} documents ingested into {report.store} "
                 f"in {report.seconds:.1f} s" + (f"; index at {report.index}" if report.index
                                                 else ""))
    return "\n".join(lines)


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

    with Corpus(_data(data)) as corpus:
        ids = [treaty] if treaty else [t.id for t in corpus.treaties()]
        results = [outline(corpus, tid, lang) for tid in ids]
    if as_json:
        out = results[0] if treaty else results
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    for result in results:
        _print_outline(result)


def _print_outline(result: dict) -> None:
    click.echo(f"{result['treaty']}  {result['title'] or ''}")
    click.echo(f"parties: {', '.join(result['parties'])}  signed: {result['signed'] or '?'}  "
               f"place: {result['place'] or '?'}  files: {', '.join(result['files'])}")
    for lg, units in result["versions"].items():
        arts = sum(1 for u in units if u["kind"] == "article")
        click.echo(f"\n[{lg}] {arts} articles")
        for u in units:
            if u["kind"] in ("article", "protocol"):
                mark = "*" if u["number_inferred"] else " "
                num = f"{u['number']}{mark}" if u["number"] is not None else "-"
                head = "Art." if u["kind"] == "article" else "Prot."
                extra = f" -> Art. {u['refers_to']}" if u["refers_to"] else ""
                click.echo(f"  {head:5} {num:>4} {u['label'] or '':>6}  "
                           f"{(u['title'] or '')[:40]:40}  {u['topic'] or '':28} "
                           f"{u['paragraphs']:>2} para{extra}")
            else:
                click.echo(f"  {u['kind']:<11} {u['eid']:<10} lines {u['lines'][0]}-"
                           f"{u['lines'][1]}")
    click.echo("\n* number inferred (heading missing in the source)\n")


@main.command()
@data_option
@click.option("--treaty", default=None, help="Only this treaty id.")
@lang_option
@click.option("--format", "fmt", type=click.Choice(["jsonl"]), default="jsonl",
              show_default=True, help="Output format.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to FILE instead of standard output.")
@domain_errors
def export(data: Path | None, treaty: str | None, lang: str | None, fmt: str,
           out: Path | None) -> None:
    """Export top-level units (title, preamble, articles, protocol, closing, other) as JSON
    lines, with their paragraphs and points.

    \b
    Examples:
      treaty export --format jsonl > corpus.jsonl
      treaty export --treaty br-pe-2006 --lang en --format jsonl --out br-pe.jsonl
    """
    from search.corpus import Corpus, export_jsonl

    with Corpus(_data(data)) as corpus:
        records = export_jsonl(corpus, treaty, lang)
        stream = out.open("w", encoding="utf-8") if out else sys.stdout
        try:
            for rec in records:
                stream.write(json.dumps(rec, ensure_ascii=False) + "\n")
        finally:
            if out:
                stream.close()


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
    from search.cite import cite as lookup
    from search.corpus import Corpus

    with Corpus(_data(data)) as corpus:
        result = lookup(corpus, " ".join(citation), lang)
    if as_json:
        click.echo(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
        return
    for unit in result.units:
        head = f"{unit['id']}"
        if unit["article"] is not None:
            kind = "Art." if unit["article_kind"] == "article" else "Protocol"
            head += f"  ({kind} {unit['article']}{' ' + unit['title'] if unit['title'] else ''})"
        click.echo(click.style(head, bold=True))
        click.echo(unit["text"])
        click.echo()


if __name__ == "__main__":  # pragma: no cover
    main()
