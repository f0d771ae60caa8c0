"""Answers the web server writes itself, for requests that never reach the app (a request
line that is not HTTP, a header over the limit, a broken chunked body): a 4xx with the app's
security headers all the same."""

from __future__ import annotations

import socket
import threading

import pytest

from search.web import create_app
from search.web.guard import HEADERS


@pytest.fixture(scope="module")
def port(ingested):
    from search.web.server import make_server

    srv = make_server(create_app(ingested), "127.0.0.1", 0, threads=2)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield srv.port
    srv.close()
    thread.join(10)


def _raw(port: int, request: bytes) -> tuple[int, dict[str, str]]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
    return status, headers


@pytest.mark.parametrize("request_bytes", [
    b"GARBAGE\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 300_000 + b"\r\n\r\n",
    b"POST /search HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
])
def test_the_server_s_own_error_answers_carry_the_security_headers(port, request_bytes):
    status, headers = _raw(port, request_bytes)
    assert 400 <= status < 500, status
    for name, value in HEADERS.items():
        assert headers.get(name) == value, (name, status)
