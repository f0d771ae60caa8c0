"""What the `treaty ingest` and `treaty add` commands share: the ingest with a progress bar
on a terminal, the closing line of an ingest where documents failed, and SIGTERM turned into
an exception so that the ingest cleans up and the user is told."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click


def run_ingest(corpus: Path, ddir: Path, options: dict):
    """`pipeline.ingest` of `corpus` into `ddir`, with a progress bar on a terminal."""
    from indexer.pipeline import ingest as run
    from indexer.sources.manifest import load

    if not sys.stderr.isatty():
        return run(corpus, ddir, **options)
    from search.terminal import escaped

    with click.progressbar(length=len(load(corpus)), label="Ingesting", file=sys.stderr,
                           item_show_func=lambda f: escaped(f) if f else f) as bar:
        return run(corpus, ddir, progress=lambda f: bar.update(1, f), **options)


def say(msg: str) -> None:
    """A progress message ("another ingest ... is running; waiting…") on standard error, its
    names escaped."""
    from search.terminal import escaped

    click.echo(escaped(msg), err=True)


def failures(report) -> str:
    """The closing error line of an ingest where documents failed."""
    n, total = len(report.failed), len(report.documents)
    if report.store is None:
        return (f"{'the' if n == 1 else 'all'} {n} document{'s' * (n != 1)} failed; "
                "nothing was ingested and the previous corpus, if any, is unchanged")
    ok = total - n
    kept = sum(1 for d in report.failed if d.kept_before)
    return (f"{n} of {total} documents failed; "
            + ("the other one was ingested" if ok == 1 else f"the other {ok} were ingested")
            + ("" if not kept else "; its version ingested before is kept" if n == 1
               else f"; {kept} of them kept their version ingested before"))


class Terminated(BaseException):
    """SIGTERM arrived (raised by the handler `sigterm_raises` installs). Not an Exception,
    so that no `except Exception` (a document's error) swallows it."""


@contextlib.contextmanager
def sigterm_raises():
    """SIGTERM raises `Terminated` in the block, so that cleanup runs and the user is told."""
    import signal

    def handler(_signum, _frame):
        raise Terminated

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave SIGTERM as it is
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
