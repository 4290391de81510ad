"""The HTTP side: the page's three static files (named in a fixed table, never a path
from the request), the list of families, and ``POST /api/ACTION`` with a JSON body, handed
to the worker pool. Every answer is complete and closes nothing it should not: a hostile
request (too large, malformed, too slow, one too many) gets a status and a JSON message,
and the server goes on."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from importlib import resources
from typing import Any

from conundrum.serve.actions import ActionError, check_request
from conundrum.serve.families import MAX_BODY, catalogue
from conundrum.serve.pool import Busy, TimeLimit, WorkerPool

STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
          "/index.html": ("index.html", "text/html; charset=utf-8"),
          "/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/style.css": ("style.css", "text/css; charset=utf-8")}
# the page loads nothing from elsewhere, and runs no script but its own
POLICY = ("default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
          "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
DRAIN = 16 * 1024 * 1024  # bytes of a refused body read (and dropped) before answering
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]", "::1")


def static_file(name: str) -> bytes:
    """One of the page's files, from the package."""
    return (resources.files(__package__) / "static" / name).read_bytes()


class Handler(BaseHTTPRequestHandler):
    """One request of the puzzle page (the server gives each its own thread)."""

    server_version = "conundrum-serve"
    protocol_version = "HTTP/1.1"
    timeout = 30  # seconds a client may take to send its request

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base's name)
        """Quiet: the command line prints the address, not every request."""

    # ---------------------------------------------------------------------- answers
    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", POLICY)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: dict[str, Any]) -> None:
        self._send(status, json.dumps(data, ensure_ascii=False).encode(),
                   "application/json; charset=utf-8")

    def _error(self, status: int, message: str) -> None:
        self._json(status, {"error": message})

    def _host_allowed(self) -> bool:
        """On the loopback address, only requests addressed to it (a web site that has a
        name resolve to 127.0.0.1 cannot use the page)."""
        address: Any = self.server.server_address
        if str(address[0]) not in ("127.0.0.1", "::1"):
            return True
        host = (self.headers.get("Host") or "").strip()
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name in LOOPBACK_NAMES

    # ---------------------------------------------------------------------- methods
    def do_GET(self) -> None:
        """The page's files and ``/api/families``."""
        if not self._host_allowed():
            self._error(403, "this server answers requests to its loopback address only")
            return
        path = self.path.split("?", 1)[0]
        if path == "/api/families":
            self._json(200, {"families": catalogue()})
        elif path in STATIC:
            name, content_type = STATIC[path]
            self._send(200, static_file(name), content_type)
        else:
            self._error(404, f"not found: {path[:80]}")

    do_HEAD = do_GET

    def do_POST(self) -> None:
        """``/api/ACTION``: a JSON request, answered by a worker."""
        if not self._host_allowed():
            self.close_connection = True
            self._error(403, "this server answers requests to its loopback address only")
            return
        body = self._body()
        if body is None:
            return
        path = self.path.split("?", 1)[0]
        if not path.startswith("/api/"):
            self._error(404, f"not found: {path[:80]}")
            return
        try:
            data = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            self._error(400, f"malformed JSON: {str(exc)[:120]}")
            return
        action = path[len("/api/"):]
        try:
            request = check_request(action, data)
        except ActionError as exc:
            self._error(exc.status, exc.message)
            return
        pool: WorkerPool = self.server.pool  # type: ignore[attr-defined]
        try:
            status, answer = pool.run(action, request)
        except Busy:
            self._error(503, "server busy: every worker is taken and the queue is full; "
                        "try again in a moment")
            return
        except TimeLimit:
            self._error(504, f"time limit: the {action} took more than "
                        f"{pool.settings.time_limit:g} s and was stopped")
            return
        self._json(status, answer)

    def _body(self) -> bytes | None:
        """The request's body, or None once an error was answered: a body without a
        length, or longer than MAX_BODY, is refused unread."""
        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding") or length is None:
            self.close_connection = True
            self._error(411, "the request needs a Content-Length (and no chunked body)")
            return None
        try:
            size = int(length)
        except ValueError:
            size = -1
        if size < 0:
            self.close_connection = True
            self._error(400, "bad Content-Length")
            return None
        if size > MAX_BODY:
            self.close_connection = True
            self._discard(size)
            self._error(413, f"the request is too large: {size} bytes, the page takes at "
                        f"most {MAX_BODY // 1024} KiB")
            return None
        return self.rfile.read(size)

    def _discard(self, size: int) -> None:
        """Read and drop up to DRAIN bytes of a refused body, so that the client, still
        sending, gets the answer rather than a reset connection."""
        left = min(size, DRAIN)
        while left > 0:
            chunk = self.rfile.read(min(left, 65536))
            if not chunk:
                break
            left -= len(chunk)
