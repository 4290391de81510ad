"""Global constraints and expression builders of the public API (moved here from
lang/globals.py; split by kind in the next commits)."""

from conundrum.lang.globals.counting import *  # noqa: F403
from conundrum.lang.globals.counting import (  # noqa: F401
    _flatten,
    _int_values,
    _is,
    _member,
    _pairwise_all,
)
