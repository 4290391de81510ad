"""Write bench/RESULTS.md (tables, ratios, where conundrum is behind) and bench/ratios.png."""

from __future__ import annotations

import datetime
import json
import os
import platform
import re
import statistics
from dataclasses import dataclass
from pathlib import Path

from host import cpu_name
from instances import SCALING, Instance
from measure import OK, SKIPPED, WRONG, Cell
from systems import System, all_systems

CN = "conundrum"
GECODE = "minizinc"


def machine() -> str:
    cpu = cpu_name(platform.processor() or "?")
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 2**20:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{mem}; {platform.system()} {platform.release()}"


def engine_lines(engine: dict | None) -> list[str]:
    """Which conundrum was measured: its commit and a digest of its installed source, at
    the start and the end of the run (the engine's work tree may change under a run)."""
    if not engine:
        return []
    start, end = engine.get("start", "?"), engine.get("end")
    if end is None or end == start:
        return [f"- conundrum engine: {start}"]
    digests = {m.group(1) if m else None
               for m in (re.search(r"source digest (\w+)", s) for s in (start, end))}
    if len(digests) == 1 and None not in digests:
        # commits outside the package (tests, notes) landed during the run: same engine
        return [f"- conundrum engine: {end} (the run began at {start}: the same installed "
                "engine, other files changed)"]
    return [f"- conundrum engine: **changed during the run**: {start} at the start, {end} at "
            "the end; the figures mix the two"]


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
             profile_notes: str = "", baseline: Baseline | None = None,
             engine: dict | None = None, date: str | None = None) -> str:
    peers = [s for s in systems if s.name != CN]
    lines = [
        "# conundrum benchmark results", "",
        f"- date: {date or f'{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M UTC}'}",
        f"- machine: {machine()}",
        f"- command: `{command}`",
        *engine_lines(engine),
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

    lines += nodes_table(instances, systems, cells)
    lines += scaling_table(instances, systems, cells, timeout)
    if baseline is not None:
        lines += moved(instances, peers, cells, baseline)
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
    skipped = [c for c in cells.values() if c.status == SKIPPED
               and c.note.startswith("not attempted:") and "no model" not in c.note]
    if skipped:
        lines += ["", "## Pairs not attempted", "",
                  "Known to take far beyond the timeout (`SKIP` in `run.py`); systems "
                  "without a model or command for a family are left out of this list.", "",
                  "| instance | system | why |", "|---|---|---|"]
        for c in skipped:
            lines.append(f"| {c.instance} | {c.system} | "
                         f"{c.note.removeprefix('not attempted: ')} |")
    if profile_notes:
        lines += ["", profile_notes]
    lines.append("")
    return "\n".join(lines)


# ------------------------------------------------------------------ search nodes

NODE_SOURCES = [
    "**conundrum** (API and CLI): nodes = decisions tried, each branch taken whether it "
    "fails or not (`m.stats.nodes` after the call; the CLI's `--stats` line).",
    "**MiniZinc + Gecode**: Gecode's `nodes` statistic (`%%%mzn-stat: nodes=`), the nodes of "
    "its search tree; time per node from Gecode's own `initTime + solveTime`, without "
    "MiniZinc's flattening.",
    "**CP-SAT** and **CPMpy** (which solves with CP-SAT): `num_branches`, the *branches* "
    "(decisions) of a SAT-based search with clause learning and restarts, not nodes of a "
    "propagate-and-branch tree; 0 when presolve alone solves the model. With several "
    "workers CP-SAT reports the first subsolver's statistics only (`cp_model.proto`), so the "
    "1-worker column is the one to read.",
    "**python-constraint2**, **SWI-Prolog clpfd**, **GNU Prolog**: no node count (–). "
    "python-constraint2 and clpfd keep no search statistics; GNU Prolog 1.4.5 has no "
    "`fd_statistics` (its `backtracks(B)` labeling option counts only up to the solution it "
    "returns, not a whole enumeration or optimisation).",
]


def fmt_us(seconds: float) -> str:
    us = seconds * 1e6
    return f"{us:,.0f}" if us >= 100 else f"{us:.3g}"


def fmt_nodes(c: Cell | None) -> str:
    """'12,345 (6.7 µs)': median nodes and microseconds per node; '–' if not counted."""
    if c is None:
        return "–"
    if c.status != OK:
        return fmt_time(c)
    n = c.nodes_median
    if n is None:
        return "–"
    per = c.per_node_time
    return f"{n:,.0f} ({fmt_us(per)} µs)" if per is not None else f"{n:,.0f}"


def nodes_table(instances: list[Instance], systems: list[System], cells: dict) -> list[str]:
    counted = [s for s in systems
               if any(c.nodes for i in instances if (c := cells.get((i.name, s.name))))]
    if not counted:
        return []
    out = ["", "## Search nodes and microseconds per node", "",
           "Median nodes over the runs, and in brackets microseconds per node: the solver's "
           "own time (previous table) / nodes. That time includes what happens inside the "
           "solve call besides search (conundrum compiling the model, CP-SAT's presolve), so "
           "on small trees it is mostly set-up. What \"nodes\" means differs:", ""]
    out += [f"- {line}" for line in NODE_SOURCES]
    header = ["instance"] + [s.label for s in systems]
    out += ["", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for inst in instances:
        out.append("| " + " | ".join([inst.name] + [fmt_nodes(cells.get((inst.name, s.name)))
                                                      for s in systems]) + " |")
    per = [(s.label, m) for s in counted
           if (m := _median_per_node(instances, cells, s.name)) is not None]
    if per:
        out += ["", "Median microseconds per node over the instances with at least 100 "
                "nodes: " + "; ".join(f"{label} {fmt_us(m)}" for label, m in per) + "."]
    return out


def _median_per_node(instances: list[Instance], cells: dict, system: str) -> float | None:
    vals = [c.per_node_time for i in instances if (c := cells.get((i.name, system)))
            and c.per_node_time is not None and (c.nodes_median or 0) >= 100]
    return statistics.median(vals) if vals else None


# ------------------------------------------------------------------ scaling

def scaling_families(instances: list[Instance]) -> list[tuple[str, list[Instance]]]:
    """SCALING's families, each with its instances present in this run (size order)."""
    present = {i.name: i for i in instances}
    out = []
    for family, names in SCALING.items():
        got = [present[n] for n in names if n in present]
        if got:
            out.append((family, got))
    return out


def size_label(inst: Instance) -> str:
    n = inst.params["n"]
    return {"sudoku": f"{n}x{n}", "golomb": f"{n} marks"}.get(inst.family, f"n = {n}")


def growth(values: list[float | None]) -> str:
    """'x2.1, x3.4 (mean x2.7)' for successive values; '?' where one is missing."""
    if sum(v is not None for v in values) < 2:
        return "–"
    steps, known = [], []
    for a, b in zip(values, values[1:]):
        if a and b:
            steps.append(f"x{b / a:.2g}")
            known.append(b / a)
        else:
            steps.append("?")
    if not steps:
        return "–"
    mean = f" (mean x{statistics.geometric_mean(known):.2g})" if len(known) > 1 else ""
    return ", ".join(steps) + mean


def _own_time(c: Cell | None) -> float | None:
    """The solver's own time; for MiniZinc, Gecode's (without flattening)."""
    if c is None or c.status != OK:
        return None
    return statistics.median(c.search) if c.search else c.solver_median


def scaling_table(instances: list[Instance], systems: list[System], cells: dict,
                  timeout: float) -> list[str]:
    families = scaling_families(instances)
    if not families:
        return []
    peers = [s for s in systems if s.name != CN]
    out = ["", "## Scaling: how the cost grows with the size", "",
           "Whole-process seconds (median) per size; for conundrum also its search nodes. "
           "The 9x9 is one hard puzzle (Golden Nugget): a Sudoku's cost depends on the "
           "puzzle as much as on its size. Chart: [scaling.png](scaling.png).", ""]
    header = ["instance", "size", CN, "conundrum nodes"] + [s.label for s in peers]
    out += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for _, insts in families:
        for inst in insts:
            cn = cells.get((inst.name, CN))
            nodes = f"{cn.nodes_median:,.0f}" if cn and cn.nodes_median is not None else "–"
            row = [inst.name, size_label(inst), fmt_time(cn), nodes]
            row += [fmt_time(cells.get((inst.name, s.name))) for s in peers]
            out.append("| " + " | ".join(row) + " |")
    if all(len(insts) < 2 for _, insts in families):
        return out
    out += ["", "Growth factor per size step, on the solver's own time (start-up would flatten "
            "the small sizes; Gecode: its own time without MiniZinc's flattening) and on "
            "nodes; `?` where a size did not finish:", ""]
    for family, insts in families:
        if len(insts) < 2:
            continue
        sizes = " → ".join(str(i.params["n"]) for i in insts)
        parts = []
        for system, label in ((CN, "conundrum"), (GECODE, "Gecode")):
            cs = [cells.get((i.name, system)) for i in insts]
            if not any(c is not None for c in cs):
                continue
            parts.append(f"{label} time {growth([_own_time(c) for c in cs])}, nodes "
                         f"{growth([c.nodes_median if c else None for c in cs])}")
        out.append(f"- **{family}** ({sizes}): " + "; ".join(parts))
    return out


def scaling_chart(instances: list[Instance], systems: list[System], cells: dict,
                  timeout: float, path: Path) -> bool:
    """Log-scale whole-process seconds against size, one panel per family and one line per
    system; a timeout is an x at the timeout.  False if no matplotlib or nothing to draw."""
    families = scaling_families(instances)
    if not families:
        return False
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, axes = plt.subplots(1, len(families), figsize=(4.6 * len(families), 4.6),
                             squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    order = [s.name for s in all_systems()]  # one colour per system, whatever the run
    handles = {}
    for ax, (family, insts) in zip(axes[0], families):
        xs_all = [i.params["n"] for i in insts]
        for s in systems:
            k = order.index(s.name) if s.name in order else len(order)
            colour = colours[k % len(colours)]
            style = dict(color=colour, linewidth=2.4 if s.name == CN else 1.2,
                         zorder=3 if s.name == CN else 2)
            xs, ys, tx = [], [], []
            for inst in insts:
                c = cells.get((inst.name, s.name))
                if c is not None and c.median is not None:
                    xs.append(inst.params["n"])
                    ys.append(c.median)
                elif c is not None and c.status == "timeout":
                    tx.append(inst.params["n"])
            if xs:
                (line,) = ax.plot(xs, ys, marker="o", markersize=4, **style)
                handles.setdefault(s.label, line)
            if tx:
                ax.scatter(tx, [timeout] * len(tx), marker="x", color=colour, s=40)
        ax.axhline(timeout, color="grey", linestyle="--", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(xs_all)
        ax.set_xlabel({"queens": "n (queens, count all)", "sudoku": "n (n x n Sudoku)",
                       "golomb": "marks (Golomb ruler, minimise)"}.get(family, "size"))
        ax.set_title(family)
        ax.grid(which="both", alpha=0.3)
    axes[0][0].set_ylabel(f"whole-process seconds (log; x = timeout, {timeout:g} s)")
    fig.legend(list(handles.values()), list(handles.keys()), loc="lower center",
               ncol=min(5, len(handles)), fontsize=8)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


# ------------------------------------------------------------------ against a baseline

@dataclass
class Baseline:
    """A previous run's results.json: where it came from and its cells."""

    path: str
    meta: dict
    cells: dict[tuple[str, str], Cell]


def load_baseline(path: Path) -> Baseline:
    data = json.loads(Path(path).read_text())
    cells = {(d["instance"], d["system"]): Cell.from_json(d) for d in data["cells"]}
    return Baseline(str(path), data.get("meta", {}), cells)


def fastest(cells: dict, name: str, systems: set[str]) -> tuple[float, str] | None:
    """The fastest peer's whole-process median on one instance (conundrum's CLI is not a
    peer), or None."""
    done = [(c.median, c.system) for (inst, system), c in cells.items()
            if inst == name and system in systems and c.median is not None]
    return min(done) if done else None


def _limit(c: Cell, default: float | None) -> float | None:
    """The timeout a timed-out cell ran under ('> 15 s' in its note), else the run's."""
    m = re.search(r"> ([\d.]+) s", c.note)
    return float(m.group(1)) if m else default


def _vs_fastest(c: Cell | None, run_cells: dict, pool: set[str]) -> tuple[str, float | None]:
    """('36.4x (gprolog)', 36.4): conundrum / the fastest peer of the same run."""
    best = fastest(run_cells, c.instance, pool) if c is not None else None
    if c is None or best is None:
        return "–", None
    if c.median is None:
        return f"conundrum {c.status} ({best[1]}: {best[0]:.3f})", None
    r = c.median / best[0]
    return f"{r:.3g}x ({best[1]})", r


def _solver_s(c: Cell | None) -> str:
    if c is None:
        return "–"
    return f"{c.solver_median:.3f}" if c.solver_median is not None else fmt_time(c)


def fmt_ratio(r: float) -> str:
    return f"{r:.2f}" if r < 100 else f"{r:,.0f}"


def moved(instances: list[Instance], peers: list[System], cells: dict,
          base: Baseline) -> list[str]:
    """'How the figures moved': conundrum then and now, per instance, and against the
    fastest peer of each run."""
    meta = base.meta
    source = meta.get("source") or f"the results.json of the run of {meta.get('date', '?')}"
    timeout = meta.get("timeout")
    peer_names = {s.name for s in peers if not s.name.startswith(CN)}
    base_peers = {system for (_, system) in base.cells if not system.startswith(CN)}
    intro = (f"Baseline `{Path(base.path).name}`: {source}; its command "
             f"`{meta.get('command', '?')}`, timeout "
             f"{f'{timeout:g}' if timeout else '?'} s.")
    if meta.get("machine") and meta["machine"].split(";")[0] != machine().split(";")[0]:
        intro += (f" **Measured on another machine** ({meta['machine']}): then / now mixes "
                  "the machine with the engine; conundrum / the fastest peer, measured on "
                  "the same machine in each run, is the fairer comparison.")
    if meta.get("caveat"):
        intro += f" Caveat: {meta['caveat']}"
    intro += "".join(f" Its note: {n}." for n in meta.get("notes", []))
    out = ["", "## How the figures moved", "", intro, "",
           "`then / now` is conundrum's whole-process time then over now: above 1, faster now "
           "(`> N` when it timed out then). The last two columns are conundrum / the fastest "
           "peer of each run (whole process; conundrum's CLI is not a peer).", "",
           "| instance | conundrum then | now | then / now | solver time then | now "
           "| behind fastest peer then | now |", "|---|---|---|---|---|---|---|---|"]
    speedups, solver_speedups, newly = [], [], []
    behind_then = behind_now = both = 0
    for inst in instances:
        now, then = cells.get((inst.name, CN)), base.cells.get((inst.name, CN))
        if now is None:
            continue
        ratio_s = "–"
        if then is not None and then.median is not None and now.median is not None:
            speedups.append(then.median / now.median)
            ratio_s = fmt_ratio(speedups[-1])
            if then.solver_median and now.solver_median:
                solver_speedups.append(then.solver_median / now.solver_median)
        elif then is not None and then.status == "timeout" and now.median is not None:
            lim = _limit(then, timeout)
            ratio_s = f"> {fmt_ratio(lim / now.median)}" if lim else "> 1"
            newly.append(inst.name)
        then_vs, rt = _vs_fastest(then, base.cells, base_peers)
        now_vs, rn = _vs_fastest(now, cells, peer_names)
        if then_vs != "–" and now_vs != "–":
            both += 1
            behind_then += rt is None or rt > 10
            behind_now += rn is None or rn > 10
        out.append(f"| {inst.name} | {fmt_time(then) if then else '–'} | {fmt_time(now)} "
                   f"| {ratio_s} | {_solver_s(then)} | {_solver_s(now)} | {then_vs} "
                   f"| {now_vs} |")
    out.append("")
    if speedups:
        text = (f"- Geometric mean of then / now over the {len(speedups)} instances conundrum "
                f"finished in both runs: **{statistics.geometric_mean(speedups):.3g}x** "
                "(whole process)")
        if solver_speedups:
            text += (f", {statistics.geometric_mean(solver_speedups):.3g}x (solver time, "
                     f"{len(solver_speedups)} instances)")
        out.append(text + ".")
    if newly:
        out.append(f"- Finished now, timed out then: {', '.join(newly)}.")
    if both:
        out.append(f"- More than 10x behind the fastest peer (or not finished where a peer "
                   f"did): {behind_then} then, {behind_now} now, of the {both} instances "
                   "compared in both runs.")
    return out


PYTHON_PEERS = ("python-constraint2", "cpsat", "cpsat-1w", "cpmpy")
GECODE = "minizinc"
GECODE_FACTOR = 3.0  # the target: within 3x of MiniZinc+Gecode
CLOSE_CALL = 1.25  # a ratio this close to a target is within the machine's noise


def _verdict(peer: Cell | None, cn: Cell | None) -> tuple[str, float | None]:
    """('faster' | 'SLOWER' | 'n/a', peer / conundrum) for one pair, whole process; a peer
    that timed out or failed where conundrum finished counts as faster, one not run
    (skipped) as n/a."""
    r = ratio(peer, cn)
    if r is not None:
        return ("faster" if r > 1 else "SLOWER"), r
    if cn is not None and cn.median is not None and peer is not None \
            and peer.status not in (OK, SKIPPED):
        return "faster", None
    return "n/a", None


def _fmt_verdict(verdict: str, r: float | None, peer: Cell | None) -> str:
    if verdict == "n/a":
        return "n/a"
    return f"{verdict} ({r:.2g}x)" if r is not None else f"{verdict} (peer: {peer.status})"


def targets(instances: list[Instance], cells: dict) -> list[str]:
    """The issue's targets: conundrum faster than every Python peer (python-constraint2,
    CP-SAT default and one worker, CPMpy) and within 3x of MiniZinc+Gecode, whole process,
    on every instance; the seeds in full, the others where a target is missed or close."""
    header = ("| instance | " + " | ".join(f"vs {p}" for p in PYTHON_PEERS)
              + f" | vs {GECODE} (within {GECODE_FACTOR:g}x) |")
    rule = "|---" * (len(PYTHON_PEERS) + 2) + "|"
    seed_rows: list[str] = []
    close_rows: list[str] = []
    slower: list[str] = []  # "instance (peer ratio)" per slower pair
    slower_instances: set[str] = set()
    beyond: list[str] = []
    compared = 0
    for inst in instances:
        cn = cells.get((inst.name, CN))
        if cn is None or cn.median is None:
            continue
        compared += 1
        row = [inst.name]
        close = False
        for peer in PYTHON_PEERS:
            pc = cells.get((inst.name, peer))
            verdict, r = _verdict(pc, cn)
            row.append(_fmt_verdict(verdict, r, pc))
            if verdict == "SLOWER":
                slower.append(f"{inst.name} ({peer} {r:.2g}x)")
                slower_instances.add(inst.name)
            if r is not None and r < CLOSE_CALL:
                close = True
        gc = cells.get((inst.name, GECODE))
        g = ratio(gc, cn)
        if g is not None:
            row.append(f"{'yes' if g * GECODE_FACTOR >= 1 else 'NO'} ({g:.2g}x)")
            if g * GECODE_FACTOR < 1:
                beyond.append(f"{inst.name} ({1 / g:.2g}x behind)")
            close = close or g * GECODE_FACTOR < CLOSE_CALL
        else:
            row.append(_fmt_verdict(*_verdict(gc, cn), gc).replace("faster", "yes"))
        line = "| " + " | ".join(row) + " |"
        if inst.seed:
            seed_rows.append(line)
        elif close:
            close_rows.append(line)
    out = ["", "## Targets: faster than every Python peer, within 3x of Gecode", "",
           f"Whole process, `(Nx)` = peer / conundrum as above. Of the {compared} instances "
           "conundrum finished:", "",
           f"- slower than a Python peer on {len(slower_instances)}: "
           + (", ".join(slower) if slower else "none") + ";",
           f"- more than {GECODE_FACTOR:g}x behind MiniZinc+Gecode on {len(beyond)}: "
           + (", ".join(beyond) if beyond else "none") + ".",
           "", "The seed puzzles, then every other instance where a target is missed or "
           f"within {CLOSE_CALL:g}x of being missed (a margin the machine's noise can undo):",
           "", header, rule, *seed_rows, *close_rows]
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


# ---------------------------------------------------------------- the hard section (issue 29)

def hard_status(inst: Instance, c: Cell | None) -> str:
    """What a system reached on a hard instance: proved (optimum proved, or a solution of a
    satisfaction instance), optimum (reached, not proved), solution (short of the optimum),
    or why there is nothing."""
    if c is None:
        return "–"
    if c.status == "timeout":
        return "none"
    if c.status != "ok":
        return c.status
    if inst.kind in ("min", "max"):
        if c.proved:
            return "proved"
        return "optimum" if c.objective == inst.expected else "solution"
    return "proved"


def _hard_solved(inst: Instance, c: Cell | None) -> bool:
    return hard_status(inst, c) == "proved"


def hard_markdown(instances: list[Instance], systems: list[System], cells: dict, *,
                  timeout: float, command: str, versions: dict, notes: list[str],
                  date: str | None, engine: dict | None, runs: int) -> str:
    """HARD.md: per instance and system, the status (proved / optimum / solution / none),
    the objective and the whole-process time; totals per system and the geometric mean of
    time / CP-SAT (1 worker) over the instances both proved."""
    ref = "cpsat-1w"
    lines = ["# The hard section of the benchmark (issue 29)", "",
             f"- command: `{command}`", f"- date: {date or '?'}; machine: {machine()}",
             f"- timeout {timeout:g} s per run (each system is told to stop a few seconds "
             f"earlier and report its best solution), {runs} run(s) per pair; one core: "
             "CP-SAT with one worker, the other solvers are sequential",
             *engine_lines(engine),
             *(f"- {s.label}: {versions.get(s.name, '?')}" for s in systems),
             *(f"- note: {n}" for n in notes), "",
             "Status: **proved** = optimum proved (satisfaction instances: a solution, "
             "verified); **optimum** = the known optimum reached, not proved; **solution** = "
             "a verified solution short of the optimum; **none** = no solution within the "
             "limit. Every solution is checked by `bench/verify.py` (feasibility from the "
             "data, the objective recomputed); a claim better than the known optimum, or a "
             "wrong optimum claimed proved, is WRONG. Time: median whole-process seconds.", ""]
    head = "| instance | expected | " + " | ".join(s.label for s in systems) + " |"
    lines += [head, "|" + "---|" * (len(systems) + 2)]
    for inst in instances:
        row = [inst.name, str(inst.expected) if inst.kind in ("min", "max") else "sat"]
        for s in systems:
            c = cells.get((inst.name, s.name))
            st = hard_status(inst, c)
            obj = f" {c.objective}" if c is not None and c.objective is not None else ""
            t = f", {c.median:.1f} s" if c is not None and c.median is not None else ""
            row.append(f"{st}{obj}{t}")
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "| system | solution | optimum reached | proved | geometric mean time / "
              "CP-SAT 1w (both proved) | the same over every instance, unproved = timeout |",
              "|---|---|---|---|---|---|"]

    def proof_time(i: Instance, c: Cell | None) -> float:
        return c.median if _hard_solved(i, c) and c.median else timeout
    for s in systems:
        got = [hard_status(i, cells.get((i.name, s.name))) for i in instances]
        sol = sum(g in ("proved", "optimum", "solution") for g in got)
        opt = sum(g in ("proved", "optimum") for g in got)
        prv = got.count("proved")
        ratios = []
        for i in instances:
            a, b = cells.get((i.name, s.name)), cells.get((i.name, ref))
            if _hard_solved(i, a) and _hard_solved(i, b) and a.median and b.median:
                ratios.append(a.median / b.median)
        gm = (f"{statistics.geometric_mean(ratios):.2f}x over {len(ratios)}"
              if ratios else "–")
        par = [proof_time(i, cells.get((i.name, s.name))) / proof_time(i, cells.get((i.name, ref)))
               for i in instances if (i.name, ref) in cells]
        gp = f"{statistics.geometric_mean(par):.2f}x" if par else "–"
        lines.append(f"| {s.label} | {sol}/{len(instances)} | {opt}/{len(instances)} | "
                     f"{prv}/{len(instances)} | {gm} | {gp} |")
    lines += ["", "Expected answers and their provenance (`bench/hard.py`, data in "
              "`bench/data/hard/`, see its SOURCES.md):", ""]
    lines += [f"- `{i.name}`: {i.expected if i.kind in ('min', 'max') else 'satisfiable'} "
              f"({i.params.get('provenance', '?')})" for i in instances]
    odd = [c for c in cells.values() if c.note and c.status not in ("ok",)]
    if odd:
        lines += ["", "Notes:", ""] + [f"- {c.system} on {c.instance}: {c.status}, {c.note}"
                                        for c in odd]
    return "\n".join(lines) + "\n"
