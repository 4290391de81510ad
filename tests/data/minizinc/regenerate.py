#!/usr/bin/env python3
"""Re-run Gecode (through the ``minizinc`` driver) on every entry of
manifest.json and report any result that differs from the recorded
expectation.

Standard library only.  Typical use, from any directory::

    python3 tests/data/minizinc/regenerate.py            # check everything
    python3 tests/data/minizinc/regenerate.py -f         # same, Gecode free search
    python3 tests/data/minizinc/regenerate.py queens8 zebra   # only these entries
    python3 tests/data/minizinc/regenerate.py --update   # rewrite expected values
                                                         # and gecode_seconds

Exit status: 0 when every entry matches, 1 when anything differs or fails.

The command run for each entry is (in this folder)::

    minizinc --solver gecode -G std --output-mode dzn --output-objective -s \
             [-a] MODEL [DATA]

``-a`` (all solutions) is given for entries of kind "count" only.
``-G std`` makes MiniZinc flatten against its own standard library instead of
the globals library shipped with the solver: the Debian/Ubuntu ``minizinc``
2.6.4 package is paired with Gecode 6.2.0's older MiniZinc library, with which
``include "globals.mzn"`` fails to type-check (see README.md).  Pass
``--solver-lib`` to use the solver's own library instead.

How each kind is judged:

* count   -- the number of ``----------`` separated solutions printed with
             ``-a`` must equal ``expected``, the search must be complete
             (``==========`` printed) and no two printed solutions may be equal.
* optimum -- the search must be complete (``==========``) and the last
             ``_objective`` printed must equal ``expected``.
* satisfy -- "sat": at least one solution printed; "unsat":
             ``=====UNSATISFIABLE=====`` printed.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "manifest.json")


def build_command(entry, args):
    cmd = [args.minizinc, "--solver", args.solver]
    if not args.solver_lib:
        cmd += ["-G", "std"]
    cmd += ["--output-mode", "dzn", "--output-objective", "-s"]
    if entry["kind"] == "count":
        cmd.append("-a")
    if args.free:
        cmd.append("-f")
    cmd += args.extra
    cmd.append(entry["model"])
    if entry.get("data"):
        cmd.append(entry["data"])
    return cmd


def parse_output(out):
    # Solutions are terminated by a line "----------"; statistics lines
    # start with "%%%mzn-stat" and are ignored when comparing solutions.
    blocks = out.split("----------\n")
    solutions = []
    for block in blocks[:-1]:
        lines = [l for l in block.splitlines()
                 if l.strip() and not l.startswith("%")]
        solutions.append("\n".join(lines))
    objectives = re.findall(r"^_objective = (-?\d+);", out, re.M)
    nodes = re.findall(r"^%%%mzn-stat: nodes=(\d+)", out, re.M)
    return {
        "solutions": solutions,
        "complete": "==========" in out,
        "unsat": "=====UNSATISFIABLE=====" in out,
        "objective": int(objectives[-1]) if objectives else None,
        "nodes": int(nodes[-1]) if nodes else None,
    }


def result_of(entry, parsed):
    """The value to compare with entry["expected"], or an error string."""
    kind = entry["kind"]
    if kind == "count":
        if not parsed["complete"]:
            return "incomplete search (no ==========)"
        n = len(parsed["solutions"])
        if len(set(parsed["solutions"])) != n:
            distinct = len(set(parsed["solutions"]))
            return f"duplicate solutions in output ({n} printed, {distinct} distinct)"
        return n
    if kind == "optimum":
        if parsed["unsat"]:
            return "unsat"
        if not parsed["complete"]:
            return "optimality not proven (no ==========)"
        return parsed["objective"]
    if kind == "satisfy":
        if parsed["unsat"]:
            return "unsat"
        if parsed["solutions"]:
            return "sat"
        return "no solution and no UNSATISFIABLE"
    return f"unknown kind {kind!r}"


def run_entry(entry, args):
    cmd = build_command(entry, args)
    start = time.time()
    try:
        proc = subprocess.run(cmd, cwd=HERE, capture_output=True,
                              text=True,
                              timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return cmd, f"timeout after {args.timeout}s", None, time.time() - start
    seconds = time.time() - start
    if proc.returncode != 0:
        err = proc.stderr.strip().splitlines()
        err = [l for l in err if l.strip() and not l.startswith("Warning")]
        tail = " | ".join(err[-3:])
        return cmd, f"minizinc exit {proc.returncode}: {tail}", None, seconds
    parsed = parse_output(proc.stdout)
    return cmd, result_of(entry, parsed), parsed, seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="only check these entries")
    ap.add_argument("--minizinc", default="minizinc", help="minizinc executable")
    ap.add_argument("--solver", default="gecode", help="solver id (default gecode)")
    ap.add_argument("--solver-lib", action="store_true",
                    help="do not pass -G std (use the solver's own globals library)")
    ap.add_argument("-f", "--free", action="store_true", help="pass -f (free search)")
    ap.add_argument("--extra", action="append", default=[],
                    help="extra argument for minizinc (repeatable)")
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds allowed per entry (default 60)")
    ap.add_argument("--update", action="store_true",
                    help="write the obtained values and timings into manifest.json")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print the command and result of every entry")
    args = ap.parse_args()

    with open(MANIFEST) as fh:
        manifest = json.load(fh)
    known = {e["name"] for e in manifest}
    for n in args.names:
        if n not in known:
            ap.error(f"no manifest entry named {n!r}")

    mismatches = 0
    total = 0.0
    checked = 0
    for entry in manifest:
        if args.names and entry["name"] not in args.names:
            continue
        cmd, got, parsed, seconds = run_entry(entry, args)
        total += seconds
        checked += 1
        ok = got == entry["expected"]
        if args.verbose or not ok:
            status = "ok" if ok else "MISMATCH"
            command = "" if ok else "\n         command: " + " ".join(cmd)
            print(f"{status:<8} {entry['name']:<24} kind={entry['kind']:<7} "
                  f"expected={entry['expected']!s:<8} got={got}  ({seconds:.2f}s){command}")
        if not ok:
            mismatches += 1
        if args.update and (isinstance(got, int) or got in ("sat", "unsat")):
            entry["expected"] = got
            entry["gecode_seconds"] = round(seconds, 3)
    print(f"{checked} entries checked, {mismatches} mismatch(es), {total:.1f} s in total")
    if args.update:
        with open(MANIFEST, "w") as fh:
            json.dump(manifest, fh, indent=2)
            fh.write("\n")
        print("manifest.json updated")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
