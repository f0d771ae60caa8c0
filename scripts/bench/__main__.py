"""The benchmarks: `python scripts/bench <command> [options]` (`--help` after a command for
its options). Each command is a module of this package with `add_arguments` and `run`."""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Run as `python scripts/bench`, the package's own folder is first on the path: put the repo
# (indexer, search) and scripts/ (this package, as `bench`) there instead.
sys.path[:] = [str(HERE.parent.parent), str(HERE.parent),
               *(p for p in sys.path if Path(p or ".").resolve() != HERE)]

#: The commands (modules of this package) and what each measures.
COMMANDS = {
    "scale": "ingest, index build, queries and memory on N MB of copies of the bundled corpus, "
             "against SQLite FTS5; writes docs/benchmarks.md",
    "speed": "issue 28's figures (ingest, unchanged and add-one ingests, cold searches, web) "
             "against baseline checkouts in one run",
    "large": "issue 28's figures on an N MB corpus of copies of the bundled and real texts",
    "ingest": "ingest of real corpora or scaled copies, cold and warm cache, against a "
              "baseline checkout",
    "web": "each web page type rendered with the test client: p50 / p95",
    "load": "the web app over HTTP under N client threads: requests per second, p50 / p95",
}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python scripts/bench", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True, metavar="command")
    for name, summary in COMMANDS.items():
        module = importlib.import_module(f"bench.{name}")
        cmd = sub.add_parser(name, help=summary, description=module.__doc__,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(cmd)
        cmd.set_defaults(run=module.run)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return args.run(args) or 0


if __name__ == "__main__":
    sys.exit(main())
