"""Serving the studio: uvicorn on a socket bound before the server starts, so that the port (a
free one chosen by the system when asked for 0) is known and printed before the first request.
"""
from __future__ import annotations

import contextlib
import signal
import socket
import threading
import time
from collections.abc import Iterator

import uvicorn

from deckpress.generator.studio.app import Studio, create_app

LOOPBACK = "127.0.0.1"


def bind(host: str = LOOPBACK, port: int = 0) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: a free one).

    Raises:
        OSError: the address is taken or cannot be bound (the CLI says so in one line).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    return sock


def url_of(sock: socket.socket) -> str:
    """``http://HOST:PORT/`` of a bound socket (IPv6 hosts in brackets)."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


class StudioServer(uvicorn.Server):
    """uvicorn's server that, when it stops, first ends the pages' event streams and kills every
    child process (a running check and its workers), so that stopping is immediate and quiet and
    leaves nothing running.  It stops on SIGHUP too (the terminal closed), as uvicorn does on
    SIGINT (Ctrl-C) and SIGTERM."""

    def __init__(self, config: uvicorn.Config, studio: Studio):
        super().__init__(config)
        self.studio = studio

    @contextlib.contextmanager
    def capture_signals(self):
        """uvicorn's own, with SIGHUP among the signals: each one caught stops the server, and is
        raised again once it has stopped (so the process ends as the signal says)."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        earlier = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
        try:
            yield
        finally:
            for sig, handler in earlier.items():
                signal.signal(sig, handler)
        for caught in reversed(self._captured_signals):
            signal.raise_signal(caught)

    def handle_exit(self, sig, frame) -> None:
        self.studio.stop_children()  # at once: a check's workers stop using the CPU now
        super().handle_exit(sig, frame)

    async def shutdown(self, sockets=None) -> None:
        self.studio.end_streams()
        self.studio.stop_children()
        await super().shutdown(sockets=sockets)


def server_for(studio: Studio, sock: socket.socket, watch: bool = True, allowed_hosts: list[str] | None = None) -> uvicorn.Server:
    """A uvicorn server for ``studio`` on ``sock`` (quiet: no access log)."""
    app = create_app(studio, allowed_hosts=allowed_hosts, watch=watch)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", timeout_graceful_shutdown=2)
    return StudioServer(config, studio)


@contextlib.contextmanager
def running(studio: Studio, watch: bool = True, start_timeout_s: float = 120.0) -> Iterator[str]:
    """Run the studio in a background thread on a free loopback port for the block (tests, the
    benchmark); yields its URL once the first rendering is done and it answers.  Every request
    needs ``studio.secret``: open ``URL?token=SECRET`` first (a cookie keeps it), or send
    ``Authorization: token SECRET``.

    Raises:
        RuntimeError: the server did not start within ``start_timeout_s`` s.
    """
    sock = bind()
    server = server_for(studio, sock, watch=watch)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout_s
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the studio did not start")
        time.sleep(0.02)
    try:
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
