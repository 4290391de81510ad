"""``conundrum serve``: the puzzle page, a local web page on which to type, generate,
solve, explain and rate the puzzles of every family (docs/serve.md).

The standard library's HTTP server, a page of one HTML file, one script and one style
sheet shipped with the package, and a pool of worker processes with a time limit. Nothing
here prints or exits (cli/serving.py does); ``import conundrum`` does not load it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conundrum.serve.pool import Settings
    from conundrum.serve.server import PuzzleServer


def make_server(host: str = "127.0.0.1", port: int = 8000,
                settings: Settings | None = None) -> PuzzleServer:
    """The server, bound and ready for ``serve_forever()`` (see server.make_server)."""
    from conundrum.serve.server import make_server as make

    return make(host, port, settings)
