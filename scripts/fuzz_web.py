"""Fuzz the web app: N requests over every GET route, drawn by the strategy of
tests/web_strategies.py (real ids, random text with control characters, %-escapes, huge
values, query parameters named like url_for's arguments); prints the count per status and
every URL that got a 5xx. Exit 1 when there was one.

    python scripts/fuzz_web.py -n 5000                 # in-process, the bundled corpus
    python scripts/fuzz_web.py -n 2000 --data ./data
"""

from __future__ import annotations

import argparse
import collections
import logging
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=2000, help="requests")
    ap.add_argument("--data", type=Path, default=None, help="ingested data dir (else fresh)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    from hypothesis import HealthCheck, given, seed, settings
    from web_strategies import request_urls

    from search.web import create_app

    data = args.data
    if data is None:
        from indexer.pipeline import ingest

        data = Path(tempfile.mkdtemp(prefix="treaty-fuzz-"))
        ingest(ROOT / "corpus", data)
    logging.disable(logging.CRITICAL)  # the app logs each 500: counted here instead
    app = create_app(data)
    client = app.test_client()
    statuses: collections.Counter[int] = collections.Counter()
    bad: list[str] = []

    @seed(args.seed)
    @settings(max_examples=args.n, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(url=request_urls(app))
    def run(url: str) -> None:
        status = client.get(url).status_code
        statuses[status] += 1
        if status >= 500:
            bad.append(url)

    t0 = time.perf_counter()
    run()
    total = sum(statuses.values())
    print(f"{total} requests in {time.perf_counter() - t0:.0f} s: "
          + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())))
    for url in sorted(set(bad))[:20]:
        print(f"  5xx: {url[:200]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
