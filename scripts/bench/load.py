"""Load test of the web app over HTTP: N client threads for S seconds per page kind (search,
then article pages), each thread on one keep-alive connection; prints requests per second,
p50/p95 latency and the error count (any status other than 200, or a broken connection).

    python scripts/bench load                          # ingests the bundled corpus, starts
                                                       # `treaty serve` on a free port
    python scripts/bench load --threads 8              # the server's --threads
    python scripts/bench load --url http://127.0.0.1:8000   # a server already running

Only addresses on this machine (127.0.0.0/8, localhost, ::1) are accepted as --url.
"""

from __future__ import annotations

import argparse
import http.client
import ipaddress
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from bench.common import ROOT, pct
from bench.web import fresh_data

KINDS: dict[str, list[str]] = {
    "search": ["/search?q=beneficial+owner", "/search?q=tax", "/search?q=%E8%82%A1%E6%81%AF",
               "/search?q=utdelning", "/search?q=royalt*+OR+interest",
               "/search?q=dividends&treaty=br-se-1965", "/search?q=tax&lang=pt&page=2"],
    "article": ["/t/br-se-1965/art_7", "/t/br-pe-2006/art_10", "/t/br-cn-1991/art_10",
                "/t/br-co-2022/art_12", "/t/es-pt-1993/art_10", "/t/br-se-1965/art_2?view=diff"],
}


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _client(host: str, port: int, urls: list[str], until: float, out: list, errors: list,
            offset: int) -> None:
    """Requests `urls` in turn (from `offset`) until `until`; latencies (s) to `out`."""
    conn = http.client.HTTPConnection(host, port, timeout=60)
    i = offset
    while time.perf_counter() < until:
        url = urls[i % len(urls)]
        i += 1
        t0 = time.perf_counter()
        try:
            conn.request("GET", url)
            resp = conn.getresponse()
            resp.read()
            status = resp.status
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{url}: {type(exc).__name__}")
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=60)
            continue
        out.append(time.perf_counter() - t0)
        if status != 200:
            errors.append(f"{url}: HTTP {status}")
    conn.close()


def run_kind(host: str, port: int, urls: list[str], clients: int, seconds: float) -> dict:
    times: list[float] = []
    errors: list[str] = []
    until = time.perf_counter() + seconds
    t0 = time.perf_counter()
    threads = [threading.Thread(target=_client, args=(host, port, urls, until, times, errors, k))
               for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    return {"requests": len(times), "rps": len(times) / elapsed,
            "p50": statistics.median(times) * 1000 if times else 0.0,
            "p95": pct(times, 95) * 1000 if times else 0.0,
            "errors": errors}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_up(host: str, port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with status {proc.returncode}")
        try:
            conn = http.client.HTTPConnection(host, port, timeout=5)
            conn.request("GET", "/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server on {host}:{port} did not answer in {timeout:.0f} s")


def _start_server(data: Path | None, threads: int | None) -> tuple[subprocess.Popen, int]:
    data = data or fresh_data()
    port = _free_port()
    cmd = [sys.executable, "-m", "search.cli", "serve", "--data", str(data), "--port", str(port)]
    if threads:
        cmd += ["--threads", str(threads)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    _wait_up("127.0.0.1", port, proc)
    return proc, port


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--url", default=None, help="a running server (loopback only)")
    ap.add_argument("--data", type=Path, default=None, help="ingested data dir for the server")
    ap.add_argument("--threads", type=int, default=None, help="the server's --threads")
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30.0, help="per page kind")


def run(args: argparse.Namespace) -> int:
    proc = None
    if args.url:
        parts = urlsplit(args.url)
        host, port = parts.hostname or "", parts.port or 80
        if not _loopback(host):
            print(f"refused: {host} is not an address on this machine", file=sys.stderr)
            return 2
    else:
        proc, port = _start_server(args.data, args.threads)
        host = "127.0.0.1"
    try:
        for url in [u for urls in KINDS.values() for u in urls]:  # warm up: every URL once
            conn = http.client.HTTPConnection(host, port, timeout=60)
            conn.request("GET", url)
            conn.getresponse().read()
        conn = http.client.HTTPConnection(host, port, timeout=10)
        conn.request("GET", "/")
        resp = conn.getresponse()
        print(f"server: {resp.getheader('Server') or '(no Server header)'}; "
              f"{args.clients} clients, {args.seconds:.0f} s per kind")
        print(f"{'kind':8} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'errors':>6}")
        failed = 0
        for kind, urls in KINDS.items():
            r = run_kind(host, port, urls, args.clients, args.seconds)
            failed += len(r["errors"])
            print(f"{kind:8} {r['requests']:>8} {r['rps']:>7.1f} {r['p50']:>7.0f} "
                  f"{r['p95']:>7.0f} {len(r['errors']):>6}")
            for e in sorted(set(r["errors"]))[:5]:
                print(f"  {e}")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
    return 1 if failed else 0

