"""Where the user's code added a constraint (`model.py:12`): the name of an unlabelled
constraint in a conflict (model/diagnosis.py)."""

from __future__ import annotations

import functools
import os
import sys
from types import FrameType

# the package's own folder: frames inside it are conundrum's, not the user's
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
# how far up the stack to look: Model.add is called from user code directly, or through a
# few frames of a front end (puzzles, the FlatZinc reader), whose constraints have no
# user place worth the walk
_MAX_FRAMES = 6


def caller_place() -> str:
    """`file.py:line` of the nearest frame outside the conundrum package, within a few
    frames of the caller; "" when there is none (a front end of conundrum's own added it)."""
    try:
        frame: FrameType | None = sys._getframe(1)
    except ValueError:  # pragma: no cover - no Python frame above (embedded use)
        return ""
    for _ in range(_MAX_FRAMES):
        if frame is None:
            return ""
        name = _user_file(frame.f_code.co_filename)
        if name:
            return f"{name}:{frame.f_lineno}"
        frame = frame.f_back
    return ""


@functools.lru_cache(maxsize=256)
def _user_file(path: str) -> str:
    """The file name of a frame's path if it is the user's code, else "" (conundrum's
    own, or Python's frozen modules). Cached: Model.add asks for every constraint."""
    if path.startswith(_PACKAGE) or path.startswith("<frozen"):
        return ""
    return os.path.basename(path)
