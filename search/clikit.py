"""What the `treaty` commands share: domain errors turned into one line and a non-zero exit,
and the options every command spells the same way (--data, --lang, --langs, --party), which
read languages and parties as users type them (`search.names`: "english", "Brasil")."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path

import click

from indexer.errors import AmbiguousError, TreatyError


def domain_errors(fn: Callable) -> Callable:
    """Turn domain errors (and a broken pipe) into one line and exit status 1."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except AmbiguousError as exc:
            from search.terminal import escaped

            raise click.ClickException(escaped(ambiguous_text(exc), "\n")) from None
        except TreatyError as exc:
            from search.terminal import escaped

            raise click.ClickException(escaped(str(exc))) from None
        except BrokenPipeError:
            sys.exit(0)
        except (click.ClickException, click.exceptions.Exit, click.Abort, KeyboardInterrupt):
            raise
        except Exception as exc:  # noqa: BLE001 - no traceback reaches a user
            from indexer.errors import environment_message
            from search.terminal import escaped

            env = environment_message(exc)
            if env is not None:  # the machine's problem (a full disk...), not a bug
                raise click.ClickException(escaped(env)) from None
            raise click.ClickException(
                f"internal error ({type(exc).__name__}: {exc}); please report it") from None

    return wrapper


def ambiguous_text(exc: AmbiguousError) -> str:
    """The message of an ambiguous reference, then each candidate on a line of its own: the
    citation to type for it, its name and languages."""
    rows = [(c.get("citation") or c["treaty"], c.get("name") or "",
             ",".join(c.get("languages") or ())) for c in exc.candidates]
    width = max((len(r[0]) for r in rows), default=0)
    return "\n".join([str(exc), *(f"  {cite:<{width}}  {name}  [{langs}]"
                                   for cite, name, langs in rows)])


def _flag(param) -> str:
    """The option as typed: "--lang"."""
    return max(param.opts, key=len) if param is not None and param.opts else "option"


# (a bad value is one line and exit 1, as every domain error: a ClickException, not click's
# BadParameter, which prints the usage first)
def _language(_ctx, param, value: str | None) -> str | None:
    """A --lang value as its ISO 639-1 code ("english" -> "en")."""
    from search.names import language_code

    if value is None or not value.strip():
        return None
    code = language_code(value)
    if code is None:
        raise click.ClickException(
            f"{_flag(param)}: unknown language '{value.strip()[:20]}': give a code or a "
            "name, e.g. en, english, pt, português, sv, svenska, zh, 中文")
    return code


def _languages(_ctx, param, value: str | None) -> list[str] | None:
    """A comma-separated list of languages as their codes ("sv,english" -> ["sv", "en"])."""
    if value is None:
        return None
    out = [_language(_ctx, param, x) for x in value.split(",") if x.strip()]
    return [x for x in out if x] or None


def _party(_ctx, param, value: str | None) -> str | None:
    """A --party value as its ISO 3166 code ("Brasil" -> "BR")."""
    from search.names import party_code

    if value is None or not value.strip():
        return None
    code = party_code(value)
    if code is None:
        raise click.ClickException(
            f"{_flag(param)}: unknown party '{value.strip()[:30]}': give an ISO 3166 code or "
            "a country name, e.g. BR, Brazil, Brasil, Suécia")
    return code


data_option = click.option(
    "--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
    envvar="TREATY_DATA", show_envvar=True,
    help="Data directory holding the store and index [default: ./data].",
)
lang_option = click.option("--lang", default=None, metavar="LANG", callback=_language,
                           help="Language version: a code or a name (en, english, pt, "
                           "português, sv, svenska, zh, 中文).")
party_option = click.option("--party", default=None, metavar="PARTY", callback=_party,
                            help="Only treaties with this party: an ISO 3166 code or a "
                            "country name (BR, Brazil, Brasil, Suécia).")


def langs_option(*names: str, help: str) -> Callable:
    """An option holding a comma-separated list of languages (codes or names)."""
    return click.option(*(names or ("--langs",)), default=None, metavar="XX,YY",
                        callback=_languages, help=help)


def data_path(data: Path | None) -> Path:
    """The data directory: --data, else $TREATY_DATA, else ./data."""
    from indexer.pipeline import data_dir

    return data_dir(data)


def split_list(value: str | None) -> list[str] | None:
    """"a, b,c" -> ["a", "b", "c"]; None for nothing."""
    if not value:
        return None
    return [x.strip() for x in value.split(",") if x.strip()] or None
