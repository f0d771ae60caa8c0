"""The benchmarks, one package run as `python scripts/bench <command> ...` (see __main__.py).

Modules: common (machine, interpreter, percentiles, peak memory, ratios, sections of
docs/benchmarks.md), corpus (scaled and real corpora), checkouts (a step in a fresh process
importing from a given checkout), mix / phases / fts5 / clone / startup / report (the scale
benchmark's parts), and one module per command: scale, speed, ingest, large, web, load.
Nothing here is imported by the project or its tests except the CLI's parser.
"""
