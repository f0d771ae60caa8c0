"""`treaty serve` on its production server (waitress) over real HTTP on 127.0.0.1: no
software version in the answers, the security headers, bad requests 4xx; a port in use and
a bad --host are one line and exit 1."""

from __future__ import annotations

import http.client
import re
import socket
import threading

import pytest
from click.testing import CliRunner

from search.cli import main
from search.web import create_app


@pytest.fixture(scope="module")
def server(ingested):
    from search.web.server import make_server

    srv = make_server(create_app(ingested), "127.0.0.1", 0, threads=2)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield srv
    srv.close()
    thread.join(10)


def fetch(server, path: str) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", path)
    resp = conn.getresponse()
    resp.read()
    conn.close()
    return resp


def test_no_server_version_and_security_headers(server):
    from search.web.guard import HEADERS

    for path in ("/", "/static/app.js", "/nowhere", "/search?q=tax&page=x"):
        resp = fetch(server, path)
        ident = resp.getheader("Server") or ""
        assert "werkzeug" not in ident.lower() and "python" not in ident.lower(), ident
        assert not re.search(r"\d", ident), ident  # no version of anything
        for name, value in HEADERS.items():
            assert resp.getheader(name) == value, (path, name)


def test_hostile_requests_are_4xx_over_http(server):
    for path in ("/t/br-pe-2006/art_3__%0d%0aX", "/search?q=" + "%28" * 400,
                 "/t/br-pe-2006/art_10__para_2?_external=1&_scheme=javascript"):
        resp = fetch(server, path)
        assert resp.status < 500, (path, resp.status)
        assert "javascript" not in (resp.getheader("Location") or "")


def _serve(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["serve", *args])
    return result.exit_code, result.output.strip().splitlines()


def test_port_in_use_is_one_line(ingested):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        code, lines = _serve("--data", str(ingested), "--port", str(port))
    assert code == 1 and len(lines) == 1, lines
    assert lines[0].startswith("Error: port ") and f"{port}" in lines[0] and "in use" in lines[0]


@pytest.mark.parametrize("host, says", [
    ("no-such-host.invalid", "is not a known name or address"),
    ("192.0.2.1", "is not an address of this computer"),  # TEST-NET: bind only, no traffic
    ("a..b", "is not a known name or address"),
])
def test_bad_host_is_one_line(ingested, host, says):
    code, lines = _serve("--data", str(ingested), "--host", host, "--port", "0")
    assert code == 1 and len(lines) == 1, lines
    assert f"--host {host}" in lines[0].replace("'", "") and says in lines[0], lines


def test_threads_option():
    code, lines = _serve("--help")
    assert code == 0 and any("--threads" in line for line in lines)
    code, lines = _serve("--threads", "0")
    assert code == 2
