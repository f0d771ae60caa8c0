"""Render each page type of the web app N times with Flask's test client and print p50/p95
milliseconds per page type (target: under 200 ms on the bundled corpus).

    python scripts/bench web                    # ingests the bundled corpus into a temp dir
    python scripts/bench web --data ./data -n 50
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.common import BUNDLED, pct

PAGES: dict[str, list[str]] = {
    "home": ["/"],
    "search": ["/search?q=beneficial+owner", "/search?q=tax", "/search?q=股息",
               "/search?q=utdelning", "/search?q=royalt*+OR+interest"],
    "search+facet": ["/search?q=dividends&treaty=br-se-1965", "/search?q=tax&lang=pt&page=2"],
    "did-you-mean": ["/search?q=benefical+ownr"],
    "article": ["/t/br-se-1965/art_7", "/t/br-pe-2006/art_10", "/t/br-cn-1991/art_10",
                "/t/br-co-2022/art_12", "/t/es-pt-1993/art_10"],
    "article raw/diff": ["/t/br-se-1965/art_2?view=diff", "/t/br-se-1965/art_7?view=raw"],
    "topic": ["/topic/dividends", "/topic/interest?lang=en", "/topic/royalties?lang=zh"],
    "treaty": ["/t/br-se-1965", "/t/br-pe-2006", "/t/br-cn-1991"],
    "cite": ["/cite?q=Brazil%E2%80%93Peru+Art.+10(2)", "/api/cite?q=br-se-1965+art+7"],
    "api/search": ["/api/search?q=beneficial+owner", "/api/search?q=tax"],
    "api/compare": ["/api/compare?treaty=br-se-1965&article=7"],
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, default=None,
                   help="ingested data dir (else a fresh one)")
    p.add_argument("-n", type=int, default=30, help="renders per URL (after one warm-up)")


def fresh_data() -> Path:
    """The bundled corpus ingested into a new temporary directory."""
    from indexer.pipeline import ingest

    data = Path(tempfile.mkdtemp(prefix="treaty-bench-"))
    t0 = time.perf_counter()
    ingest(BUNDLED, data)
    print(f"ingested the bundled corpus into {data} in {time.perf_counter() - t0:.1f} s")
    return data


def run(args: argparse.Namespace) -> int:
    from search.web import create_app, warm_up

    app = create_app(args.data or fresh_data())
    t0 = time.perf_counter()
    warm_up(app)  # what `treaty serve` does in the background at start
    print(f"start-up warm-up: {(time.perf_counter() - t0) * 1000:.0f} ms")
    client = app.test_client()
    print(f"{'page':18} {'urls':>4} {'renders':>7} {'first ms':>8} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'max ms':>8}")
    worst = 0.0
    for name, urls in PAGES.items():
        times: list[float] = []
        first = 0.0
        for url in urls:
            t0 = time.perf_counter()
            resp = client.get(url)  # the first render of this URL (cold caches)
            first = max(first, (time.perf_counter() - t0) * 1000)
            if resp.status_code >= 400:
                print(f"{url}: HTTP {resp.status_code}", file=sys.stderr)
                return 1
            for _ in range(args.n):
                t0 = time.perf_counter()
                client.get(url)
                times.append((time.perf_counter() - t0) * 1000)
        p95 = pct(times, 95)
        worst = max(worst, p95)
        print(f"{name:18} {len(urls):>4} {len(times):>7} {first:>8.1f} "
              f"{statistics.median(times):>8.1f} {p95:>8.1f} {max(times):>8.1f}")
    print(f"worst p95: {worst:.1f} ms ({'under' if worst < 200 else 'OVER'} the 200 ms target)")
    return 0 if worst < 200 else 2
