"""The production server of `treaty serve`: waitress (pure Python, no C toolchain), a
configurable number of threads, no software version in its answers. The listening sockets
are bound here, so that a port in use or a host that is not this computer's is one line
(ServeError) rather than a server's own messages."""

from __future__ import annotations

import errno
import logging
import socket
from dataclasses import dataclass

from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask

from indexer.errors import TreatyError

IDENT = "treaty"  # the Server header: neither the server's name nor a version


class ServeError(TreatyError):
    """The web app cannot listen where it was asked to."""


def _addresses(host: str, port: int) -> list[tuple[int, tuple]]:
    """(family, socket address) of each distinct address `host` names."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, socket.gaierror) else "not a valid host name"
        raise ServeError(f"--host '{host[:80]}' is not a known name or address ({why}); "
                         "use 127.0.0.1 (this computer only) or 0.0.0.0 (every address)"
                         ) from None
    out: list[tuple[int, tuple]] = []
    for family, _type, _proto, _name, addr in infos:
        if family in (socket.AF_INET, socket.AF_INET6) and (family, addr) not in out:
            out.append((family, addr))
    if not out:
        raise ServeError(f"--host '{host[:80]}' has no IPv4 or IPv6 address")
    return out


def _why(exc: OSError, host: str, port: int) -> str:
    if exc.errno == errno.EADDRINUSE:
        return (f"port {port} on {host} is in use (another program listens there): "
                "stop it or choose another --port")
    if exc.errno == errno.EADDRNOTAVAIL:
        return (f"--host {host} is not an address of this computer: use 127.0.0.1 (this "
                "computer only) or 0.0.0.0 (every address)")
    if exc.errno == errno.EACCES:
        return f"no permission to listen on port {port}: choose a port above 1023"
    return f"cannot listen on {host}:{port}: {exc.strerror or exc}"


def _bind(family: int, addr: tuple, host: str, port: int) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(addr)
    except OSError as exc:
        sock.close()
        raise ServeError(_why(exc, host, port)) from None
    return sock


def bind(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to every address of `host` on `port` (0: a free port, the same for
    all); ServeError with the reason when one cannot be."""
    sockets: list[socket.socket] = []
    try:
        for family, addr in _addresses(host, port):
            addr = (addr[0], port, *addr[2:])
            sockets.append(_bind(family, addr, host, port))
            port = port or sockets[0].getsockname()[1]
    except ServeError:
        for s in sockets:
            s.close()
        raise
    return sockets


@dataclass
class Server:
    """A running waitress server: `run()` serves until `close()` (or Ctrl+C)."""

    host: str
    port: int
    _server: object

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def run(self) -> None:
        self._server.run()  # type: ignore[attr-defined]

    def close(self) -> None:
        self._server.close()  # type: ignore[attr-defined]
        self._server.task_dispatcher.shutdown()  # type: ignore[attr-defined]


class _GuardedErrorTask(ErrorTask):
    """waitress's own error answer (a malformed request: a bad request line, a header too
    large, a broken chunked body), which never reaches the app, with the app's security
    headers all the same."""

    def execute(self) -> None:
        from search.web.guard import HEADERS

        self.response_headers.extend(HEADERS.items())
        super().execute()


class _GuardedChannel(HTTPChannel):
    error_task_class = _GuardedErrorTask


def make_server(app, host: str = "127.0.0.1", port: int = 8000, threads: int = 16) -> Server:
    """The app under waitress on `host`:`port` (0: a free port) with `threads` worker
    threads, listening (ServeError when it cannot)."""
    sockets = bind(host, port)
    # waitress warns on every request that waits for a thread ("Task queue depth is 16"):
    # thousands of lines under load, which is a queue doing its job, not a fault
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    listening: dict = {}  # (waitress's socket map: the listening servers, then connections)
    server = create_server(app, map=listening, sockets=sockets, threads=threads, ident=IDENT)
    for listener in list(listening.values()):
        listener.channel_class = _GuardedChannel  # (each connection's: its error answers)
    return Server(host, sockets[0].getsockname()[1], server)
