"""``conundrum serve [--port N] [--host H] [--no-browser]``: start the puzzle page
(conundrum.serve), say where it is, open it in the browser, and serve until Ctrl-C.

Exit status: 0 after Ctrl-C, 2 when the address cannot be had (a port in use, a host
that is not this machine's)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from conundrum.cli.output import EXIT_BAD_INPUT, EXIT_SOLVED


def serve_command(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    """Run the page's server in the foreground; the URL is the first line printed."""
    from conundrum.serve.pool import Settings
    from conundrum.serve.server import make_server

    settings = Settings(workers=args.workers, time_limit=args.time_limit)
    try:
        server = make_server(args.host, args.port, settings)
    except OSError as exc:
        print(f"conundrum: serve: cannot listen on {args.host}:{args.port}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    out(f"conundrum: the puzzle page is at {server.url} (Ctrl-C to stop)")
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"conundrum: serve: listening on {args.host}: other machines can reach the "
              "page", file=sys.stderr)
    if not args.no_browser:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        out("conundrum: serve: stopped")
    finally:
        server.server_close()
    return EXIT_SOLVED
