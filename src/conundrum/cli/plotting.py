"""``--plot FILE.png``: a picture of a search, for people who would rather look than read.

Two panels: solutions and nodes over time (how fast the search goes and when it finds
answers), and the nodes at each depth of the search tree (where the work is: a bulge deep
down means late failures, the price of weak propagation). Matplotlib is an optional extra
(``pip install ".[plot]"``, or ``pip install matplotlib``), imported only when a plot is asked for.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any


class PlotError(Exception):
    """A plot cannot be written (matplotlib missing, a bad file name)."""


class Timeline:
    """Samples of a running search: (seconds, nodes, solutions), taken by the progress
    callback and as each solution comes (the statistics count it before it is handed
    over)."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.samples: list[tuple[float, int, int]] = [(0.0, 0, 0)]

    def sample(self, stats: Any) -> None:
        """One sample of the running search's statistics."""
        self.samples.append((time.perf_counter() - self.start, stats.nodes, stats.solutions))


def check_plot_target(path: str) -> None:
    """Fail before the search when the plot could not be written afterwards."""
    if Path(path).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise PlotError(f"--plot {path}: the file name must end in .png, .svg or .pdf")
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        raise PlotError(f"--plot {path}: no such folder {folder}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotError("--plot needs matplotlib: pip install matplotlib") from None


def write_plot(path: str, title: str, samples: Sequence[tuple[float, int, int]],
               stats: Any) -> None:
    """Draw the two panels into `path` (PNG, SVG or PDF, by its suffix)."""
    import matplotlib

    matplotlib.use("Agg")  # no screen needed
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # an SVG keeps its words as text, not outlines

    points = [*samples, (stats.seconds, stats.nodes, stats.solutions)]
    seconds = [p[0] for p in points]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    fig.suptitle(title)
    left.plot(seconds, [p[1] for p in points], color="tab:blue", drawstyle="steps-post")
    left.set_xlabel("seconds")
    left.set_ylabel("nodes", color="tab:blue")
    found = left.twinx()
    found.plot(seconds, [p[2] for p in points], color="tab:orange", drawstyle="steps-post")
    found.set_ylabel("solutions", color="tab:orange")
    left.set_title(f"{stats.solutions:,} solutions, {stats.nodes:,} nodes, "
                   f"{stats.seconds:.2f} s")
    profile = list(stats.depth_nodes)
    if profile:
        right.barh(range(1, len(profile) + 1), profile, color="tab:green")
        right.invert_yaxis()  # the root at the top, as trees are drawn
        right.set_xlabel("nodes")
        right.set_ylabel("depth (decisions from the root)")
        right.set_title(f"nodes by depth (deepest: {len(profile)})")
    else:
        right.axis("off")
        right.text(0.5, 0.5, "no search tree: propagation alone decided\n(or the search "
                   "ran on several workers)", ha="center", va="center")
    try:
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise PlotError(f"--plot {path}: cannot write: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)
