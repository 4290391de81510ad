"""Optimisation over time (issue 30): for each optimisation instance of the hard section and
each system, the objective reached at a few marks (1 s, 10 s, the run's limit), the time
to the known optimum and to the proof, the gap left, and a chart of objective over time.

Every time is whole-process seconds on the runner's clock: `measure.py` stamps each line a
system prints as it arrives (`IMPROVE v` from the Python-hosted models, `OBJ v` from
MiniZinc's intermediate solutions), so no system's own clock is trusted.  The final
objective of a run is the verified one (`bench/verify.py`); the marks in between are what
the system announced as it went.
"""

from __future__ import annotations

from pathlib import Path

from instances import Instance
from measure import Cell
from systems import System

MARKS = (1.0, 10.0)
GAP_SHOWN = 20.0  # percent: the chart's y range


def run_limit(timeout: float) -> float:
    """The limit each hard model was given inside a run of --timeout (run.py's rule)."""
    return max(1.0, timeout * 0.9 - 2)


def optimisations(instances: list[Instance]) -> list[Instance]:
    """The instances with an objective (and a known optimum)."""
    return [i for i in instances if i.kind in ("min", "max")]


def at(c: Cell | None, t: float) -> int | None:
    """The best objective announced by time t (None: nothing yet)."""
    if c is None:
        return None
    best = None
    for when, v in c.trace:
        if when > t:
            break
        best = v
    if best is None and c.objective is not None and c.end is not None and c.end <= t:
        best = c.objective  # a system that announced nothing but finished in time
    return best


def gap(inst: Instance, v: int | None) -> float | None:
    """Relative distance of v from the known optimum (0 = optimal; None: no solution)."""
    if v is None:
        return None
    opt = inst.expected
    return abs(v - opt) / max(1, abs(opt))


def time_to_optimum(inst: Instance, c: Cell | None) -> float | None:
    """When the known optimum was first announced, or the end of a run that reported it."""
    if c is None or c.objective != inst.expected:
        return None
    for when, v in c.trace:
        if v == inst.expected:
            return when
    return c.end


def _fmt_obj(inst: Instance, v: int | None) -> str:
    if v is None:
        return "–"
    g = gap(inst, v)
    return f"**{v}**" if g == 0 else f"{v} ({100 * g:.0f}%)" if g >= 0.005 else f"{v} (<1%)"


def _fmt_s(t: float | None) -> str:
    return "–" if t is None else f"{t:.1f} s" if t >= 0.1 else f"{t:.2f} s"


def markdown(instances: list[Instance], systems: list[System], cells: dict,
             limit: float, chart: str | None) -> list[str]:
    """The section's lines: one table per mark set, then the issue's target."""
    insts = optimisations(instances)
    if not insts:
        return []
    marks = [m for m in MARKS if m < limit] + [limit]
    names = ", ".join(f"{m:g} s" for m in marks)
    lines = ["", "## Optimisation over time (issue 30)", "",
             f"Per optimisation instance: the objective announced by {names} (bold: the known "
             "optimum; otherwise the gap to it), the time it first reached the optimum and "
             "the time of the proof. Whole-process seconds, stamped by the runner as each "
             "improving solution is printed.", ""]
    if chart:
        lines += [f"Chart: [{chart}]({chart}) (the gap over time, log time axis).", ""]
    for s in systems:
        if not any((i.name, s.name) in cells for i in insts):
            continue
        lines += [f"### {s.label}", "",
                  "| instance | optimum | " + " | ".join(f"at {m:g} s" for m in marks)
                  + " | optimum at | proved at |",
                  "|---|---|" + "---|" * (len(marks) + 2)]
        for i in insts:
            c = cells.get((i.name, s.name))
            row = [i.name, str(i.expected), *(_fmt_obj(i, at(c, m)) for m in marks),
                   _fmt_s(time_to_optimum(i, c)),
                   _fmt_s(c.end if c is not None and c.proved else None)]
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    lines += _summary(insts, systems, cells, marks)
    return lines


def _within(inst: Instance, c: Cell | None, t: float, share: float = 0.01) -> bool:
    g = gap(inst, at(c, t))
    return g is not None and g <= share


def _summary(insts: list[Instance], systems: list[System], cells: dict,
             marks: list[float]) -> list[str]:
    lines = ["### Summary", "",
             "| system | " + " | ".join(f"within 1% at {m:g} s" for m in marks)
             + " | optimum reached | proved |",
             "|---|" + "---|" * (len(marks) + 2)]
    for s in systems:
        got = [cells.get((i.name, s.name)) for i in insts]
        if not any(got):
            continue
        row = [s.label, *(f"{sum(_within(i, c, m) for i, c in zip(insts, got))}/{len(insts)}"
                          for m in marks),
               f"{sum(time_to_optimum(i, c) is not None for i, c in zip(insts, got))}"
               f"/{len(insts)}",
               f"{sum(bool(c and c.proved) for c in got)}/{len(insts)}"]
        lines.append("| " + " | ".join(row) + " |")
    ref, cn = "cpsat-1w", "conundrum"
    quick = [i for i in insts if _within(i, cells.get((i.name, ref)), 1.0, 0.0)]
    if quick and any((i.name, cn) in cells for i in insts):
        met = [i for i in quick if _within(i, cells.get((i.name, cn)), 10.0)]
        missed = [i.name for i in quick if i not in met]
        lines += ["", f"The issue's goal (within 1% of the optimum by 10 s wherever CP-SAT with "
                  f"one worker reaches the optimum within 1 s): met on {len(met)} of "
                  f"{len(quick)}" + (f"; missed: {', '.join(missed)}." if missed else ".")]
    return lines + [""]


def chart(instances: list[Instance], systems: list[System], cells: dict, limit: float,
          path: Path) -> bool:
    """The gap to the known optimum over time, one panel per optimisation instance; False
    if matplotlib is missing or there is nothing to draw."""
    insts = [i for i in optimisations(instances)
             if any(cells.get((i.name, s.name)) and cells[(i.name, s.name)].trace
                    for s in systems)]
    if not insts:
        return False
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    cols = 4
    rows = (len(insts) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.0 * rows), squeeze=False)
    for ax, inst in zip(axes.flat, insts):
        for s in systems:
            c = cells.get((inst.name, s.name))
            if c is None or not c.trace:
                continue
            ts = [t for t, _ in c.trace] + [c.end if c.end else limit]
            # percent from the optimum, far ones held at the top of the panel
            vs = [min(100 * gap(inst, v), GAP_SHOWN) for _, v in c.trace]
            vs.append(vs[-1])
            (line,) = ax.step(ts, vs, where="post", label=s.label)
            if c.proved and c.end:
                ax.plot([c.end], [vs[-1]], marker="*", markersize=9, color=line.get_color())
        ax.set_ylim(-0.5, GAP_SHOWN)  # first solutions far away are drawn at the top
        ax.set_xscale("log")
        ax.set_xlim(0.05, limit * 1.1)
        ax.set_title(inst.name.removeprefix("hard-"), fontsize=9)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(insts):]:
        ax.axis("off")
    legend: dict = {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, handle)
    fig.legend(list(legend.values()), list(legend), loc="lower center", ncol=len(legend),
               fontsize=9)
    fig.suptitle("Gap to the optimum (%) over time (whole-process seconds, log scale; "
                 f"* = proved; gaps above {GAP_SHOWN:g}% drawn at the top)", fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return True
