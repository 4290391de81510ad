"""Write bench/RESULTS.md (tables, ratios, where conundrum is behind) and bench/ratios.png."""

from __future__ import annotations

import datetime
import os
import platform
from pathlib import Path

from instances import Instance
from measure import OK, WRONG, Cell
from systems import System

CN = "conundrum"


def machine() -> str:
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 2**20:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{mem}; {platform.system()} {platform.release()}"


def fmt_time(cell: Cell | None) -> str:
    if cell is None:
        return "–"
    if cell.status == OK:
        return f"{cell.median:.3f}"
    if cell.status == WRONG:
        return "**WRONG**"
    return cell.status


def ratio(peer: Cell | None, cn: Cell | None) -> float | None:
    """peer / conundrum: above 1 means conundrum is faster."""
    if peer is None or cn is None or peer.median is None or cn.median is None:
        return None
    return peer.median / cn.median


def fmt_cell(peer: Cell | None, cn: Cell | None) -> str:
    r = ratio(peer, cn)
    text = fmt_time(peer)
    return f"{text} ({r:.2g}x)" if r is not None else text


def behind(instances: list[Instance], cells: dict, peers: list[System]) -> list[tuple]:
    """(conundrum / fastest peer, instance, fastest peer, its time, conundrum's), worst
    first; conundrum failing where a peer succeeded counts as infinitely behind."""
    out = []
    for inst in instances:
        cn = cells.get((inst.name, CN))
        done = [(c.median, s.name) for s in peers
                if (c := cells.get((inst.name, s.name))) is not None and c.median is not None]
        if not done or cn is None:
            continue
        best, who = min(done)
        mine = cn.median
        out.append((mine / best if mine is not None else float("inf"), inst.name, who, best,
                    mine))
    return sorted(out, key=lambda t: -t[0])


def markdown(instances: list[Instance], systems: list[System], cells: dict, *, runs: int,
             timeout: float, command: str, notes: list[str], versions: dict[str, str],
             profile_notes: str = "") -> str:
    peers = [s for s in systems if s.name != CN]
    lines = [
        "# conundrum benchmark results", "",
        f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M UTC}",
        f"- machine: {machine()}",
        f"- command: `{command}`",
        f"- runs per pair: {runs} (median reported), timeout per run: {timeout:g} s",
        "- times: **whole-process wall seconds** (start-up, import or compile of the model, "
        "solve, output), what a user waits for; `(Nx)` is peer time / conundrum time, so "
        "above 1 means conundrum is faster. Every answer is verified against the known "
        "answer; a wrong answer is shown as **WRONG** and never counted as a time.",
        "", "## Versions", "",
    ]
    lines += [f"- {s.label}: {versions.get(s.name, '?')}" for s in systems]
    if notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in notes]
    lines += ["", "## Whole-process time (seconds, median)", ""]
    header = ["instance", CN] + [s.label for s in peers]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for inst in instances:
        cn = cells.get((inst.name, CN))
        row = [inst.name + (" (seed)" if inst.seed else ""), fmt_time(cn)]
        row += [fmt_cell(cells.get((inst.name, s.name)), cn) for s in peers]
        lines.append("| " + " | ".join(row) + " |")

    lines += ["", "## Solver's own time (seconds, median, where the system reports it)", "",
              "conundrum and the Python peers: time inside the solve call(s); Prolog: wall "
              "time of the query after loading; MiniZinc: flatTime + solveTime.", ""]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for inst in instances:
        row = [inst.name]
        for s in systems:
            c = cells.get((inst.name, s.name))
            row.append(f"{c.solver_median:.3f}" if c and c.solver_median is not None
                       else fmt_time(c) if c and c.status != OK else "–")
        lines.append("| " + " | ".join(row) + " |")

    lines += targets(instances, cells)
    worst = behind(instances, cells, [s for s in peers if not s.name.startswith(CN)])
    lines += ["", "## Where conundrum is furthest behind the fastest peer", "",
              "Whole-process times; the solver-time columns separate search from start-up "
              "(`startup-x=3` is the floor: one variable, one constraint).", "",
              "| instance | conundrum / fastest | fastest peer | its time | conundrum "
              "| solver time: conundrum | solver time: that peer |",
              "|---|---|---|---|---|---|---|"]

    def solver_s(name: str, system: str) -> str:
        c = cells.get((name, system))
        return f"{c.solver_median:.3f}" if c and c.solver_median is not None else "–"

    for r, name, who, best, mine in worst[:12]:
        flag = " **> 10x**" if r > 10 else ""
        shown = f"{r:.3g}x{flag}" if r != float("inf") else \
            f"**conundrum {cells[(name, CN)].status}**"
        mine_s = f"{mine:.3f}" if mine is not None else fmt_time(cells[(name, CN)])
        lines.append(f"| {name} | {shown} | {who} | {best:.3f} | {mine_s} "
                     f"| {solver_s(name, CN)} | {solver_s(name, who)} |")
    over = [w for w in worst if w[0] > 10]
    lines += ["", f"Instances where conundrum is more than 10x slower than the fastest peer: "
              f"**{len(over)}** of {len(worst)}" + (": " + ", ".join(w[1] for w in over)
                                                    if over else "") + "."]
    problems = [c for c in cells.values() if c.status not in (OK, "skipped", "absent")]
    if problems:
        lines += ["", "## Failures, timeouts and wrong answers", "",
                  "| instance | system | status | note |", "|---|---|---|---|"]
        for c in problems:
            lines.append(f"| {c.instance} | {c.system} | {c.status} | {c.note} |")
    if profile_notes:
        lines += ["", profile_notes]
    lines.append("")
    return "\n".join(lines)


def targets(instances: list[Instance], cells: dict) -> list[str]:
    """The issue's targets on the seed puzzles: conundrum faster than python-constraint2
    and than CP-SAT (default workers, whole process)."""
    out = ["", "## Targets on the seed puzzles (whole process)", "",
           "| seed puzzle | vs python-constraint2 | vs CP-SAT (default) |", "|---|---|---|"]
    for inst in instances:
        if not inst.seed:
            continue
        cn = cells.get((inst.name, CN))
        row = [inst.name]
        for peer in ("python-constraint2", "cpsat"):
            pc = cells.get((inst.name, peer))
            r = ratio(pc, cn)
            if r is not None:
                row.append(f"{'faster' if r > 1 else 'SLOWER'} ({r:.2g}x)")
            elif cn is not None and cn.median is not None and pc is not None \
                    and pc.status not in (OK,):
                row.append(f"faster (peer: {pc.status})")
            else:
                row.append("n/a")
        out.append("| " + " | ".join(row) + " |")
    return out


def chart(instances: list[Instance], systems: list[System], cells: dict, path: Path) -> bool:
    """A dot plot of peer/conundrum ratios per instance (log scale); False if no matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    peers = [s for s in systems if s.name != CN]
    names = [i.name for i in instances if (i.name, CN) in cells]
    fig, ax = plt.subplots(figsize=(10, max(4, 0.28 * len(names) + 1.5)))
    markers = "os^vD<>Px*"
    plotted = False
    for k, s in enumerate(peers):
        xs, ys = [], []
        for y, name in enumerate(names):
            r = ratio(cells.get((name, s.name)), cells.get((name, CN)))
            if r is not None:
                xs.append(r)
                ys.append(y)
        if xs:
            ax.scatter(xs, ys, label=s.label, marker=markers[k % len(markers)], s=28,
                       alpha=0.8)
            plotted = True
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_xscale("log")
    lo, hi = ax.get_xlim()
    lo, hi = min(lo, 0.05), max(hi, 2.0)
    ax.axvspan(lo, 0.1, color="red", alpha=0.06)
    ax.set_xlim(lo, hi)
    labels = []
    for name in names:
        cn = cells[(name, CN)]
        labels.append(name if cn.status == OK else f"{name} (conundrum: {cn.status})")
    ax.set_yticks(range(len(names)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("peer time / conundrum time (whole process; > 1: conundrum faster; "
                  "shaded: conundrum > 10x slower)")
    ax.set_title("conundrum vs peers")
    if plotted:
        ax.legend(fontsize=7, loc="lower right")
    ax.grid(axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
