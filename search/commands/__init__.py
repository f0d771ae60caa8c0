"""`treaty` commands kept in modules of their own (the others are in `search.cli`); each is
a click command that `register` adds to the `treaty` group.

    export   treaty export (JSON lines, text, TMX, TSV, CSV, DOCX; a treaty or one article)
    terms    treaty terms (how a term is rendered in the other languages)
"""

from __future__ import annotations

import click


def register(group: click.Group) -> None:
    """Add the commands of this package to `group`."""
    from search.commands.export import export
    from search.commands.terms import terms

    group.add_command(export)
    group.add_command(terms)
