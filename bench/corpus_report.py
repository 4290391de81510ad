"""CORPUS.md from CORPUS.json: the corpus, the issue's targets evaluated, the outliers
ranked by cause, and every entry's figures for both solvers."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from pathlib import Path

TOP = 15
TARGET_SLOW = 0.2  # Gecode's search time from which "more than 2x slower" counts
TARGET_ANSWER = 15.0  # Gecode's answer within this: conundrum must answer too
FIXED = 0.1  # Gecode's search time under which the difference is fixed cost


def search(cell: dict, solver: str) -> float | None:
    """The solver's own search time: Gecode's initTime + solveTime, conundrum's
    solveTime."""
    if "solveTime" not in cell:
        return None
    t = float(cell["solveTime"])
    return t + float(cell.get("initTime", 0.0)) if solver == "gecode" else t


def per_node(cell: dict, solver: str) -> float | None:
    """Microseconds per node (search time / nodes)."""
    t, n = search(cell, solver), cell.get("nodes")
    return t * 1e6 / n if t is not None and n else None


def rate(cell: dict, solver: str) -> float | None:
    """Nodes per second of search."""
    t, n = search(cell, solver), cell.get("nodes")
    return n / t if t and n else None


def fmt_t(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}" if x < 10 else f"{x:.1f}"


def fmt_n(x: float | None) -> str:
    if x is None:
        return "–"
    if x >= 1e6:
        return f"{x / 1e6:.2f}M"
    if x >= 1e4:
        return f"{x / 1e3:.0f}k"
    return f"{x:.0f}"


def fmt_r(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}" if x < 10 else f"{x:.0f}"


def shown(cell: dict) -> str:
    """The answer as shown: value, with `*` when not final (not proved, not all found)."""
    a = cell.get("answer")
    if cell.get("error") and a is None:
        return "error"
    if a is None:
        return "none"
    return f"{a}" + ("" if cell.get("complete") else "*")


def ratio(r: dict) -> float | None:
    """Gecode / conundrum whole-process time, both answers final (above 1: conundrum
    faster)."""
    g, c = r["gecode"], r["conundrum"]
    if g["complete"] and c["complete"] and c["wall"] > 0:
        return g["wall"] / c["wall"]
    return None


def geo(xs: list[float]) -> float | None:
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def annotated(e: dict) -> bool:
    return bool(e.get("annotation")) and "_search(" in e["annotation"]


def table(head: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head),
            *("| " + " | ".join(r) + " |" for r in rows), ""]


def cause(e: dict, r: dict) -> str:
    """The first cause that explains a slow entry (see the report's text)."""
    g, c = r["gecode"], r["conundrum"]
    gs = search(g, "gecode") or 0.0
    if gs < FIXED:
        return "d"
    if e["kind"] == "optimise" and (not c["complete"] or r.get("variants")):
        return "c"
    if g.get("nodes") and c.get("nodes") and c["nodes"] > 2 * g["nodes"]:
        return "a" if annotated(e) else "a*"
    pg, pc = per_node(g, "gecode"), per_node(c, "conundrum")
    if pg and pc and pc > 2 * pg:
        return "b"
    return "?"


def header(meta: dict, results: dict) -> list[str]:
    loads = [r["load"] for r in results.values() if "load" in r]
    sv = meta.get("solvers", {})
    lines = [
        "# The corpus: public MiniZinc models through conundrum and Gecode",
        "",
        f"- date: {meta.get('started')} to {meta.get('finished', '(unfinished)')}",
        f"- machine: {meta['machine']['platform']}, {meta['machine']['cpu']}, "
        f"{meta['machine']['cores']} cores, shared with other work",
        f"- load: before `{meta.get('uptime_before')}`; after `{meta.get('uptime_after')}`"
        + (f"; 1-minute load average at each entry's start: min {min(loads):.2f}, median "
           f"{statistics.median(loads):.2f}, max {max(loads):.2f}" if loads else ""),
        f"- command: `{meta.get('command')}` (timeout {meta['timeout']:g} s per run, "
        f"{meta['runs']} run(s), {meta['jobs']} at a time)",
        f"- {meta.get('minizinc')}; {sv.get('gecode', 'Gecode')} (run as `--solver gecode -G "
        "std`: Debian's Gecode 6.2.0 ships a MiniZinc library older than MiniZinc 2.6, with "
        "which `include \"globals.mzn\"` does not compile, so Gecode gets MiniZinc's own "
        "standard library and its decompositions of the globals); "
        f"{sv.get('conundrum', 'conundrum')}, `{meta.get('conundrum')}` (its own mznlib)",
        f"- harness: `{meta.get('harness')}`; manifest of {meta.get('manifest_generated')}",
        "",
    ]
    return lines


def write_report(results: dict, manifest: dict, out: Path) -> None:
    """Write the Markdown report of RESULTS (CORPUS.json's content) to OUT."""
    meta = results["meta"]
    by_name = {e["name"]: e for e in manifest["entries"]}
    res = {n: r for n, r in results["entries"].items() if n in by_name}
    lines = header(meta, res)
    lines += [
        "Times are whole-process wall seconds of `minizinc` (compilation to FlatZinc "
        "included, as a user runs it); *search* is the solver's own time (Gecode: "
        "`initTime + solveTime`; conundrum: `solveTime`); nodes and failures are each "
        "solver's own `%%%mzn-stat` counts (Gecode: nodes of its search tree; conundrum: "
        "decisions tried); nodes/s and µs/node are over the search time. Ratio = Gecode / "
        "conundrum whole-process time (above 1: conundrum faster), when both answers are "
        "final. An answer marked `*` is not final (optimum not proved, enumeration or "
        "search cut by the limit). These timings were taken on a loaded 2-core machine "
        "shared with others (the load above): re-measure on a quiet one before trusting "
        "any single ratio.",
        "",
    ]
    lines += composition(manifest, res)
    lines += targets(by_name, res)
    lines += outliers(by_name, res)
    lines += entries_table(by_name, res)
    out.write_text("\n".join(lines) + "\n")


def composition(manifest: dict, res: dict) -> list[str]:
    entries = [e for e in manifest["entries"] if e["name"] in res]
    kinds = ("satisfy", "all", "optimise")
    rows = []
    for coll in sorted({e["collection"] for e in entries}):
        es = [e for e in entries if e["collection"] == coll]
        k = Counter(e["kind"] for e in es)
        rows.append([coll, *(str(k[x]) for x in kinds), str(len(es)),
                     str(len({e["family"] for e in es}))])
    k = Counter(e["kind"] for e in entries)
    rows.append(["**all**", *(str(k[x]) for x in kinds), str(len(entries)),
                 str(len({(e["collection"], e["family"]) for e in entries}))])
    bands = Counter(e["band"] for e in entries)
    return [
        "## The corpus",
        "",
        f"{len(entries)} entries (bench/corpus/manifest.json; how they were chosen: "
        "bench/corpus/README.md). Gecode's search time at screening: "
        f"{bands['easy']} under 0.05 s, {bands['mid']} from 0.05 to 15 s, "
        f"{bands['hard']} over 15 s, {bands['timeout']} not answered by Gecode in 60 s "
        "(flagged, kept because conundrum answers them); "
        f"{sum(annotated(e) for e in entries)} with a search annotation, "
        f"{sum(1 for e in entries if e.get('set_vars'))} with set variables.",
        "",
        *table(["collection", "first solution", "all solutions", "optimisation", "entries",
                "families"], rows),
    ]


#: differences of meaning, checked by hand (each entry's solutions of both solvers
#: evaluated by MiniZinc itself with the variables given as data, `-G std`): Gecode 6.2's
#: native `set_le`/`set_lt` do not order sets as MiniZinc defines it (the sorted element
#: lists compared lexicographically: `{1,2,3} <= {1,4,5}` is true in MiniZinc), so a
#: model with `increasing`/`decreasing` over set variables gets another solution set from
#: Gecode (the same count, by symmetry). conundrum follows MiniZinc's definition
#: (docs/globals/sets.md).
SET_ORDER = ("an order over set variables (`decreasing`, `>=`, `<`): Gecode 6.2's native "
             "set order is not MiniZinc's; conundrum's solutions are the ones MiniZinc's "
             "own evaluation accepts, Gecode's it rejects (checked on the first of each)")
EXPLAINED = {
    "hakank/steiner/steiner": SET_ORDER,
    "hakank/set_puzzle/set_puzzle": SET_ORDER,
    "mzb/steiner-triples/steiner-triples+07": SET_ORDER,
    "mznc/2021/steiner-systems/steiner-systems+steiner_t6_k6_N7": SET_ORDER,
}


def targets(by_name: dict, res: dict) -> list[str]:
    status = Counter(r["verdict"]["status"] for r in res.values())
    checks = Counter(r.get("check", {}).get("status", "not checked") for r in res.values())
    wrong = [(n, r["verdict"]["note"]) for n, r in res.items()
             if r["verdict"]["status"] == "WRONG" and n not in EXPLAINED]
    rejected = [(n, r["check"]) for n, r in res.items()
                if r.get("check", {}).get("status") in ("REJECTED", "objective differs")
                and n not in EXPLAINED]
    explained = [(n, EXPLAINED[n]) for n in res if n in EXPLAINED and (
        res[n]["verdict"]["status"] == "WRONG"
        or res[n].get("check", {}).get("status") in ("REJECTED", "objective differs"))]
    missed = [n for n, r in res.items() if r["gecode"]["complete"] and
              not r["conundrum"]["complete"] and (search(r["gecode"], "gecode") or 0) <=
              TARGET_ANSWER]
    slow_pool = [(n, r) for n, r in res.items()
                 if (search(r["gecode"], "gecode") or 0) >= TARGET_SLOW and
                 r["gecode"]["complete"]]
    slow = [(n, r) for n, r in slow_pool if ratio(r) is None or ratio(r) < 0.5]
    ratios_pool = [ratio(r) for _, r in slow_pool if ratio(r)]
    ratios_all = [ratio(r) for r in res.values() if ratio(r)]
    search_ratios = [search(r["gecode"], "gecode") / search(r["conundrum"], "conundrum")
                     for _, r in slow_pool if ratio(r) and search(r["conundrum"], "conundrum")]
    cpu_ratios = [r["gecode"]["cpu"] / r["conundrum"]["cpu"] for _, r in slow_pool
                  if ratio(r) and r["conundrum"].get("cpu")]
    both = [(n, r) for n, r in res.items() if annotated(by_name[n]) and
            r["gecode"]["complete"] and r["conundrum"]["complete"] and
            r["gecode"].get("nodes") and r["conundrum"].get("nodes")]
    gap = [n for n, r in both if r["conundrum"]["nodes"] > 2 * r["gecode"]["nodes"]]
    gm = geo(ratios_pool)
    lines = [
        "## Summary and the issue's targets",
        "",
        f"- answers: {status['agree']} agree (both final), {status['gecode-only']} final "
        f"only for Gecode, {status['conundrum-only']} only for conundrum, {status['neither']} "
        f"for neither; **{len(wrong)} differ**"
        + ("" if not wrong else ": " + "; ".join(f"`{n}` ({w})" for n, w in wrong)),
        "- conundrum's solutions re-checked by Gecode: "
        + ", ".join(f"{v} {k}" for k, v in sorted(checks.items()))
        + ("" if not rejected else "; **rejected**: " + "; ".join(
            f"`{n}` ({c.get('note', c['status'])})" for n, c in rejected)),
        "- differences of meaning, explained (not counted above): "
        + ("none" if not explained else "; ".join(
            ", ".join(f"`{n}`" for n, w in explained if w == why) + f": {why}"
            for why in dict.fromkeys(w for _, w in explained))),
        "- target *the same answer everywhere*: "
        + ("met" if not wrong and not rejected else "**missed**"),
        f"- target *none where Gecode answers within {TARGET_ANSWER:g} s and conundrum does "
        f"not within the limit*: {len(missed)} such entries"
        + ("" if not missed else ": " + ", ".join(f"`{n}`" for n in missed)),
        f"- among the {len(slow_pool)} entries Gecode needs ≥ {TARGET_SLOW} s of search for: "
        f"{len(slow)} where conundrum is more than 2x slower (or not final) "
        f"(target: none); geometric mean of the ratios "
        f"{fmt_r(gm)} over the {len(ratios_pool)} both answered (CPU time of the process "
        f"tree: {fmt_r(geo(cpu_ratios))}; search time alone: {fmt_r(geo(search_ratios))}); "
        "over every entry both answered: "
        f"{fmt_r(geo(ratios_all))} ({len(ratios_all)} entries)",
        f"- under the same search annotation ({len(both)} annotated entries both finished): "
        f"{len(gap)} where conundrum visits more than twice Gecode's nodes (target: none)",
        "",
    ]
    return lines


def outliers(by_name: dict, res: dict) -> list[str]:
    lines = ["## Outliers by cause", "",
             "An entry is *slow* when Gecode needs ≥ 0.2 s of search and conundrum takes more "
             "than twice its whole-process time, or does not finish what Gecode finishes. Each "
             "slow entry is put under the first cause that fits: (d) fixed cost (Gecode's "
             "search < 0.1 s), (c) an optimisation conundrum did not prove (or proved slowly, "
             "with the variants run), (a) more than twice Gecode's nodes (a* when the model has "
             "no search annotation: different default heuristics), (b) a per-node cost more "
             "than twice Gecode's; `?` otherwise. The four tables below rank, each over every "
             "entry, the largest gaps of each kind (top 15).", ""]
    slow = []
    for n, r in res.items():
        g, c = r["gecode"], r["conundrum"]
        if not g["complete"]:
            continue
        if (search(g, "gecode") or 0) >= TARGET_SLOW and \
                (not c["complete"] or (ratio(r) or 1) < 0.5):
            slow.append((n, cause(by_name[n], r)))
    counts = Counter(k for _, k in slow)
    lines += [f"{len(slow)} slow entries: " + ", ".join(
        f"({k}) {v}" for k, v in sorted(counts.items())), ""]
    lines += node_gap(by_name, res) + per_node_gap(res) + optimisation(by_name, res)
    lines += fixed_cost(res)
    return lines


def node_gap(by_name: dict, res: dict) -> list[str]:
    rows = []
    for n, r in res.items():
        g, c = r["gecode"], r["conundrum"]
        if not annotated(by_name[n]) or not g.get("nodes") or not c.get("nodes") or \
                not g["complete"]:
            continue
        if c["nodes"] > 2 * g["nodes"] and c["nodes"] >= 100:
            rows.append((c["nodes"] / g["nodes"], n, r))
    rows.sort(key=lambda x: -x[0])
    body = [[f"`{n}`", by_name[n]["kind"], f"`{by_name[n]['annotation'][:60]}`",
             fmt_n(r["gecode"]["nodes"]), fmt_n(r["conundrum"]["nodes"]), fmt_r(x),
             fmt_n(r["gecode"].get("failures")), fmt_n(r["conundrum"].get("failures")),
             str(r["conundrum"].get("restarts", "–")), shown(r["gecode"]),
             shown(r["conundrum"]), fmt_t(r["gecode"]["wall"]), fmt_t(r["conundrum"]["wall"]),
             "; ".join(r["conundrum"].get("warnings", []))[:80]]
            for x, n, r in rows[:TOP]]
    return [f"### (a) node-count gap under the same annotation ({len(rows)} entries with "
            "more than twice Gecode's nodes)", "",
            "Optimisations run under `-t`, where conundrum's default is a large neighbourhood "
            "search (restarts > 0), and auto's switch to the learning search after 10,000 "
            "failures also leaves the annotation's tree: such rows are not a propagation "
            "gap.", "",
            *table(["entry", "kind", "annotation", "G nodes", "C nodes", "C/G", "G fail",
                    "C fail", "C restarts", "G answer", "C answer", "G s", "C s",
                    "conundrum's warnings"], body)]


def per_node_gap(res: dict) -> list[str]:
    rows = []
    for n, r in res.items():
        g, c = r["gecode"], r["conundrum"]
        pg, pc = per_node(g, "gecode"), per_node(c, "conundrum")
        if pg and pc and g["complete"] and c["complete"] and c["nodes"] >= 100 and \
                (search(c, "conundrum") or 0) >= 0.05 and c["nodes"] <= 1.25 * g["nodes"]:
            rows.append((pc / pg, n, r, pg, pc))
    rows.sort(key=lambda x: -x[0])
    body = [[f"`{n}`", fmt_n(r["gecode"]["nodes"]), fmt_n(r["conundrum"]["nodes"]),
             fmt_t(search(r["gecode"], "gecode")), fmt_t(search(r["conundrum"], "conundrum")),
             f"{pg:.1f}", f"{pc:.1f}", fmt_r(x), fmt_t(r["gecode"]["wall"]),
             fmt_t(r["conundrum"]["wall"])]
            for x, n, r, pg, pc in rows[:TOP]]
    return [f"### (b) per-node cost, nodes similar or fewer ({len(rows)} entries where "
            "both finished, conundrum's nodes at most 1.25x Gecode's, ≥ 100 nodes and ≥ "
            "0.05 s of search)", "",
            *table(["entry", "G nodes", "C nodes", "G search s", "C search s", "G µs/node",
                    "C µs/node", "C/G per node", "G s", "C s"], body)]


def optimisation(by_name: dict, res: dict) -> list[str]:
    rows = []
    for n, r in res.items():
        if by_name[n]["kind"] != "optimise" or not r.get("variants"):
            continue
        c = r["conundrum"]
        lost = (c["wall"] if c["complete"] else 10 * c["wall"]) / r["gecode"]["wall"]
        rows.append((lost, n, r))
    rows.sort(key=lambda x: -x[0])
    names = list(next(iter(rows))[2]["variants"]) if rows else []
    body = []
    for _, n, r in rows[:TOP]:
        v = r["variants"]
        cells = [f"{shown(v[k])} {fmt_t(v[k]['wall'])}" for k in names]
        best = [k for k in names if v[k]["complete"] and
                (not r["conundrum"]["complete"] or v[k]["wall"] < r["conundrum"]["wall"] / 2)]
        body.append([f"`{n}`", f"{shown(r['gecode'])} {fmt_t(r['gecode']['wall'])}",
                     f"{shown(r['conundrum'])} {fmt_t(r['conundrum']['wall'])}", *cells,
                     ", ".join(f"`{k}`" for k in best) or "none"])
    return [f"### (c) optimisation not proved or slow, and the default search ({len(rows)} "
            "optimisations conundrum did not prove where Gecode did, or proved more than twice "
            "as slowly with Gecode's search ≥ 0.2 s; each rerun with the variants)", "",
            "Cells: answer (`*` not proved) and whole-process seconds. The default under "
            "`-t` is a large neighbourhood search, then exact (auto); `--search classic` and "
            "`--search learning` keep that LNS, `--no-lns` keeps auto's choice.", "",
            *table(["entry", "Gecode", "conundrum", *[f"`{k}`" for k in names],
                    "would have proved it faster"], body)]


def fixed_cost(res: dict) -> list[str]:
    rows = []
    for n, r in res.items():
        g, c = r["gecode"], r["conundrum"]
        gs = search(g, "gecode")
        if gs is None or gs >= FIXED or not g["complete"] or not c["complete"]:
            continue
        rows.append((c["wall"] - g["wall"], n, r))
    rows.sort(key=lambda x: -x[0])
    diffs = [d for d, _, _ in rows]
    body = []
    for d, n, r in rows[:TOP]:
        g, c = r["gecode"], r["conundrum"]
        flat = (c.get("flatTime") or 0) - (g.get("flatTime") or 0)
        body.append([f"`{n}`", fmt_t(g["wall"]), fmt_t(c["wall"]), f"{d:+.3f}",
                     f"{flat:+.3f}", fmt_t(search(g, "gecode")),
                     fmt_t(search(c, "conundrum")),
                     f"{c['wall'] - (c.get('flatTime') or 0) - (search(c, 'conundrum') or 0):.3f}"])
    med = statistics.median(diffs) if diffs else None
    return [f"### (d) fixed cost ({len(rows)} entries where Gecode's search takes < {FIXED} s; "
            f"median difference conundrum − Gecode {fmt_t(med)} s)", "",
            "`flat Δ`: conundrum's flattening (its mznlib) minus Gecode's (MiniZinc's std); "
            "`C other`: conundrum's whole process minus its flattening and its search "
            "(start-up of the interpreter, reading the FlatZinc, building the model, "
            "printing).", "",
            *table(["entry", "G s", "C s", "C − G", "flat Δ", "G search", "C search",
                    "C other"], body)]


def entries_table(by_name: dict, res: dict) -> list[str]:
    rows = []
    for n in sorted(res):
        r, e = res[n], by_name[n]
        g, c = r["gecode"], r["conundrum"]
        chk = r.get("check", {}).get("status", "–")
        rows.append([f"`{n}`", e["kind"] + (" ⚑" if e.get("flag") else ""), shown(g), shown(c),
                     fmt_t(g["wall"]), fmt_t(c["wall"]), fmt_r(ratio(r)),
                     fmt_n(g.get("nodes")), fmt_n(c.get("nodes")),
                     fmt_n(g.get("failures")), fmt_n(c.get("failures")),
                     fmt_n(rate(g, "gecode")), fmt_n(rate(c, "conundrum")),
                     r["verdict"]["status"], chk])
    return ["## Every entry", "",
            "⚑: Gecode does not answer it within 60 s (kept because conundrum does). "
            "`check`: conundrum's solution fixed into the model and accepted by Gecode (or, "
            "for all solutions, found in Gecode's enumeration).", "",
            *table(["entry", "kind", "G answer", "C answer", "G s", "C s", "G/C", "G nodes",
                    "C nodes", "G fail", "C fail", "G nodes/s", "C nodes/s", "answers",
                    "check"], rows)]
