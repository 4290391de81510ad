"""Shared pytest configuration: hypothesis profiles and import path for the test helpers.

Profiles (choose with the ``HYPOTHESIS_PROFILE`` environment variable):

* ``ci`` (default): derandomized (the same examples on every run, so CI is reproducible),
  no example database, sized so that the whole property suite stays around a minute and a
  half on the project's 2-core machine. Under the pure-Python engine (``CONUNDRUM_PURE=1``,
  CI's second run, three to ten times slower) 20 examples instead of 30, derandomized as
  well: the compiled run checks its 30, and tests/test_engine_builds.py that both engines
  agree;
* ``thorough``: many more random examples for long runs (``HYPOTHESIS_PROFILE=thorough``);
* ``dev``: a handful of examples, for a quick edit-run loop;
* ``triage``: ``ci`` without shrinking, to list the failing tests quickly.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings

# A skipped test fails the run (tests/no_skips.py): CI installs what every test needs.
pytest_plugins = ["no_skips"]

# The Ctrl-C tests need SIGINT handled as a terminal's Ctrl-C is: by Python's own handler
# (in this process, and SIG_DFL in the commands it starts). A suite started in the
# background by a shell without job control inherits SIGINT ignored (POSIX), and so would
# every command it starts: set Python's handler back (a CI run of 2026-11-27 failed its
# nine Ctrl-C tests so, and their commands ran on after the tests gave up on them).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Make ``import oracle`` / ``import test_properties_harness`` work whatever the import mode
# (with or without a tests/__init__.py).
_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

settings.register_profile(
    "ci",
    max_examples=20 if os.environ.get("CONUNDRUM_PURE") == "1" else 30,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=_QUIET,
)
settings.register_profile(
    "thorough",
    max_examples=600,
    deadline=None,
    derandomize=False,
    print_blob=True,
    suppress_health_check=_QUIET,
)
settings.register_profile(
    "dev",
    max_examples=6,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=_QUIET,
)
# ``triage``: like ci but without shrinking, to list failing tests quickly.
settings.register_profile(
    "triage", parent=settings.get_profile("ci"),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
