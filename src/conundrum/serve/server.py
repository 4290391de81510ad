"""The server: the standard library's threading HTTP server (a thread per connection, so
that a slow request holds up no other), the page's handler, and the worker pool."""

from __future__ import annotations

from http.server import ThreadingHTTPServer

from conundrum.serve.handler import Handler
from conundrum.serve.pool import Settings, WorkerPool


class PuzzleServer(ThreadingHTTPServer):
    """The puzzle page's HTTP server; `pool` runs the work, `url` is where it listens."""

    daemon_threads = True  # a connection left open does not keep the process alive
    request_queue_size = 64

    def __init__(self, host: str, port: int, settings: Settings) -> None:
        if ":" in host:  # an IPv6 address
            import socket

            self.address_family = socket.AF_INET6
        self.pool = WorkerPool(settings)  # first: a failed bind closes the server
        super().__init__((host, port), Handler)

    @property
    def url(self) -> str:
        """The page's address, with the port the system gave when 0 was asked."""
        host, port = str(self.server_address[0]), int(self.server_address[1])
        shown = f"[{host}]" if ":" in host else host
        if shown in ("0.0.0.0", "[::]"):
            shown = "127.0.0.1" if shown == "0.0.0.0" else "[::1]"
        return f"http://{shown}:{port}/"

    def server_close(self) -> None:
        """Stop listening and kill the running workers."""
        super().server_close()
        self.pool.close()


def make_server(host: str = "127.0.0.1", port: int = 8000,
                settings: Settings | None = None) -> PuzzleServer:
    """A server bound to host:port (0: any free port), ready for ``serve_forever()``;
    OSError when the address cannot be had."""
    return PuzzleServer(host, port, settings or Settings())
