"""`treaty terms`: how a term is rendered in the other languages (`search.concordance`)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from search.clikit import data_option, domain_errors, langs_option


@click.command()
@click.argument("term", nargs=-1, required=True)
@langs_option("--to", help="Target languages, codes or names [default: every other one].")
@click.option("--from", "source", default=None, metavar="LANG",
              help="The term's language [default: read off its words].")
@click.option("--treaty", default=None, metavar="ID", help="Only this treaty's text.")
@click.option("--examples", type=click.IntRange(0, 20), default=2, show_default=True,
              help="Keyword-in-context lines per rendering.")
@data_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@domain_errors
def terms(term: tuple[str, ...], to: list[str] | None, source: str | None, treaty: str | None,
          examples: int, data: Path | None, as_json: bool) -> None:
    """How TERM is rendered in the other language versions of the treaties: where the term
    occurs, what the aligned counterpart says there. Renderings are ranked by how many
    treaties use each, with the term and its rendering in context on both sides and the
    citation of each place. Where no treaty has both languages (Chinese, in the bundled
    corpus), the counterpart is what other treaties say in the same place of their article on
    the same topic (marked so).

    \b
    Examples:
      treaty terms "permanent establishment"
      treaty terms "beneficial owner" --to pt,zh
      treaty terms "competent authority" --to svenska --examples 4
      treaty terms utdelning --to en
      treaty terms 受益所有人 --json
    """
    from search.concordance import lookup
    from search.concordance.text import concordance_text
    from search.names import language_code

    lang = (language_code(source) or source) if source else None
    result = lookup(data or Path("data"), " ".join(term), lang, to, treaty)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    click.echo(concordance_text(result, examples))
