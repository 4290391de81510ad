"""A pytest plugin that fails a run in which any test was skipped.

A test that skips because something is absent (a package, a program) turns CI green
without testing anything: here every test runs for real, and `.ci/run` installs what they
need. Loaded by conftest.py for the whole suite; a skip makes the exit status 1 and names
the skipped tests. Expected failures (`xfail`) are not skips and pass through.
"""

from __future__ import annotations

import pytest


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Turn a green run with skipped tests into a failed one."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped and exitstatus == pytest.ExitCode.OK:
        reporter.ensure_newline()
        names = ", ".join(report.nodeid for report in skipped[:10])
        reporter.write_line(f"no_skips: {len(skipped)} test(s) skipped, which fails the run "
                            f"(install what they need): {names}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
