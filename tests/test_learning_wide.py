"""The learning search on wide domains (issue 40, items 2 and 3): explanations and the
loops of the search cost what a domain's representation costs (a bit set of at most 65,536
values, or two bounds), never what its span costs (10^18 values, or 10^300).

Wide domains are kept as bounds only (engine/var.py): nothing may build a bit window, list
values or step a bound one value at a time across them.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Generator

import pytest

import conundrum as cn
from conundrum.engine.bits import lost

SEARCHES = ("classic", "learning", "auto")


# ------------------------------------------------------------------ bits.lost


def _lost_by_membership(a: int, b: int, before: tuple[int, int, int],
                        after: tuple[int, int, int]) -> list[int]:
    """The truth for short ranges: a membership test per value."""
    def has(v: int, d: tuple[int, int, int]) -> bool:
        lo, hi, bits = d
        return lo <= v <= hi and (bits < 0 or (bits >> (v - lo)) & 1 == 1)
    return [v for v in range(a, b + 1) if has(v, before) and not has(v, after)]


def test_lost_matches_membership_on_short_ranges() -> None:
    """Every mix of bounds-only and bit-set domains, the range a..b inside, across and
    outside both."""
    domains = [(0, 9, -1), (2, 7, -1), (0, 9, 0b1011011101), (3, 8, 0b101101),
               (3, 8, -1), (5, 5, 1), (12, 14, 0b101)]
    for before in domains:
        for after in domains:
            for a in range(-2, 16, 3):
                for b in range(a - 1, 17, 4):
                    got = list(lost(a, b, before, after))
                    assert got == _lost_by_membership(a, b, before, after), (a, b, before,
                                                                            after)


def test_lost_is_lazy_on_a_wide_bounds_only_domain() -> None:
    """A bounds-only domain of 2 * 10^300 values that lost its lower half: the values come
    one at a time (a caller reading three pays for three), and its inside has no holes."""
    w = 10**300
    gone = lost(-w, w, (-w, w, -1), (0, w, -1))
    assert [next(gone), next(gone), next(gone)] == [-w, -w + 1, -w + 2]
    assert list(lost(-w, w, (-w, w, -1), (-w + 1, w - 1, -1))) == [-w, w]
    # a bit-set `after` inside a bounds-only `before`: a window as wide as the bit set
    assert list(lost(0, 12, (-w, w, -1), (5, 9, 0b10001))) == [0, 1, 2, 3, 4, 6, 7, 8, 10,
                                                               11, 12]
    assert list(lost(4, w, (-w, w, -1), (5, w - 1, -1)))[:1] == [4]
    assert list(lost(6, w, (-w, w, -1), (5, w - 1, -1))) == [w]


# ----------------------------------------------------------- issue 40 item 2


def _offset_model(width: int) -> tuple[cn.Model, cn.Var, cn.Var, int]:
    """Issue 40's MemoryError model, with x1 over -width..width and placed at width // 3
    (so that the same model runs at every width): one solution, x0 = 6."""
    m = cn.Model()
    x0 = m.int_var(6, 7, "x0")
    x1 = m.int_var(-width, width, "x1")
    c = width // 3
    m += x1 == c + x0
    m += x1 / x1 + x0 != 8
    return m, x0, x1, c


@pytest.mark.parametrize("search", SEARCHES)
def test_issue_40_memory_error_model(search: str) -> None:
    """Issue 40 item 2 as reported: the linear explanation of x1's bounds listed the holes
    of x1's root domain through a bit window as wide as 2 * 10^18 (a MemoryError)."""
    m = cn.Model()
    x0 = m.int_var(6, 7, "x0")
    x1 = m.int_var(-10**18, 10**18, "x1")
    m += x1 == 10**12 + x0
    m += x1 / x1 + x0 != 8
    got = [(s[x0], s[x1]) for s in m.solutions(search=search, var_select="input_order",
                                                value_select="max")]
    assert got == [(6, 10**12 + 6)]
    assert m.stats.complete


def _peak(width: int) -> int:
    """The peak of Python memory while the learning search enumerates _offset_model."""
    m, x0, x1, c = _offset_model(width)
    tracemalloc.start()
    try:
        got = [(s[x0], s[x1] - c) for s in m.solutions(search="learning",
                                                        var_select="input_order",
                                                        value_select="max")]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == [(6, 6)]
    return peak


def test_explanation_memory_does_not_follow_the_width() -> None:
    """The same model at widths 10^6 and 10^300: the same peak, give or take (a window of
    the domain's width was 125 kB at 10^6, and a MemoryError from about 10^10)."""
    _peak(10**6)  # warm up: lazy imports and caches are not the search's
    small = _peak(10**6)
    huge = _peak(10**300)
    assert huge < 2 * small + 64 * 1024, (small, huge)


# ------------------------------------------ explanations of wide entries, one by one
# Each builds an engine state by hand, with a journal, where a propagator moved a bound of
# a bounds-only domain of 2 * 10^300 values a little (or far), and asks for the entry's
# explanation: a walk over the values between would never end.

W300 = 10**300


GUARD = 120  # seconds: a walk over 10^300 values never ends; these end in a moment


def _guarded(check: str, *args: object) -> None:
    """Run `check(*args)` of this module in a child process, so that a regression that walks
    the span (in compiled code too, where no signal gets in) fails the test instead of
    hanging the run."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    # the child imports the conundrum this process runs (a relative PYTHONPATH=src would
    # not do from another directory) and this module
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(cn.__file__).resolve().parents[1]), env.get("PYTHONPATH", "")])
    code = f"import test_learning_wide as t; t.{check}(*{args!r})"
    try:
        done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parent,
                              env=env, capture_output=True, text=True, timeout=GUARD,
                              check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{check}{args!r} ran for {GUARD} s: a walk across the domain?")
    assert done.returncode == 0, done.stderr[-3000:]


def _journal_of(solver: object) -> object:
    from conundrum.engine.journal import Journal

    journal = Journal(solver)  # type: ignore[arg-type]
    journal.attach()
    solver.trail.push_level()  # type: ignore[attr-defined]
    return journal


def _entries_of(journal: object, p: object) -> list[int]:
    """The journal entries propagator p made."""
    return [e for e in range(len(journal))  # type: ignore[arg-type]
            if journal.reason[e] is p]  # type: ignore[attr-defined]


def _held_before(journal: object, e: int, preds: list[object]) -> None:
    from conundrum.engine.journal import NOT_TRUE

    for q in preds:
        b = journal.became_true(q.var.index, q.kind, q.value)  # type: ignore
        assert b != NOT_TRUE and b < e, f"{q} does not hold before entry {e}"


def check_removed_values_of_a_wide_entry() -> None:
    """reasons.removed_values (element, circuit and bin packing explanations): a bound
    moved by one on a domain of 2 * 10^300 values is one value; moved far, too many."""
    from conundrum.engine import Solver
    from conundrum.engine.reasons import removed_values

    s = Solver()
    x = s.int_var(-W300, W300, "x")
    journal = _journal_of(s)
    x.set_min(-W300 + 1)
    x.set_max(W300 - 2)
    x.set_min(0)
    assert removed_values(journal, 0, 1) == [-W300]  # type: ignore[arg-type]
    assert removed_values(journal, 1, 5) == [W300 - 1, W300]  # type: ignore[arg-type]
    assert removed_values(journal, 1, 1) is None  # type: ignore[arg-type]
    assert removed_values(journal, 2, 256) is None  # type: ignore[arg-type]


def check_element_var_explains_a_small_move_of_a_wide_result() -> None:
    """ElementVar lowers the upper bound of a result of 2 * 10^300 values by 3: the
    explanation reads the three values removed, not the domain (element_explain._removed
    walked every value of it when the move was small)."""
    from conundrum.engine import Solver
    from conundrum.engine.literals import LE, Pred
    from conundrum.engine.reasons import explain_entry
    from conundrum.propagators.element import ElementVar

    s = Solver()
    i = s.int_var(0, 1, "i")
    a0 = s.int_var(-W300, W300, "a0")
    a1 = s.int_var(-W300, W300, "a1")
    r = s.int_var(-W300, W300, "r")
    p = ElementVar(s, [a0, a1], i, r)
    s.post(p)
    journal = _journal_of(s)
    journal.current = None  # type: ignore[attr-defined]
    a0.set_max(W300 - 5)
    a1.set_max(W300 - 3)
    s.fix_point()
    assert r.hi == W300 - 3
    (e,) = _entries_of(journal, p)
    out: list[Pred] = []
    explain_entry(journal, e, out)  # type: ignore[arg-type]
    _held_before(journal, e, out)
    assert Pred(a0, LE, W300 - 5) in out or Pred(a0, LE, W300 - 3) in out, out
    assert Pred(a1, LE, W300 - 3) in out, out


def check_table_explains_a_far_move_of_a_wide_column(element: bool) -> None:
    """A table (or an element of constants, explained as the table of its pairs) whose
    wide column holds 0 and 10^300: after x <= 10^300 // 2 it keeps x = 0, and the old
    bound is moved outwards only to the next value a tuple has, found among the tuples
    (support_explain._outward walked there one value at a time)."""
    from conundrum.engine import Solver
    from conundrum.engine.literals import LE, Pred
    from conundrum.engine.reasons import explain_entry
    from conundrum.propagators.element import ElementConst
    from conundrum.propagators.table import Table

    s = Solver()
    x = s.int_var(-W300, W300, "x")
    y = s.int_var(0, 1, "y")
    p = ElementConst(s, [0, W300], y, x) if element else Table(s, [x, y], [(0, 0), (W300, 1)])
    s.post(p)
    assert (x.lo, x.hi, x.bits) == (0, W300, -1)
    journal = _journal_of(s)
    journal.current = None  # type: ignore[attr-defined]
    x.set_max(W300 // 2)
    s.fix_point()
    assert x.lo == x.hi == 0 and y.lo == y.hi == 0
    entries = [e for e in _entries_of(journal, p) if journal.var[e] == x.index]  # type: ignore
    assert entries
    for e in entries:
        out: list[Pred] = []
        explain_entry(journal, e, out)  # type: ignore[arg-type]
        _held_before(journal, e, out)
        assert out == [Pred(x, LE, W300 - 1)], out


def check_bounds_context_below_the_old_bound() -> None:
    """A reason whose own lower bound lies below the variable's old lower bound (10^300
    values below it): the old bound explains the entry, nothing is listed between."""
    from conundrum.engine import Solver
    from conundrum.engine.literals import GE, Pred
    from conundrum.engine.reasons import bounds_context

    s = Solver()
    x = s.int_var(-W300, W300, "x")
    journal = _journal_of(s)
    x.set_min(-5)
    x.set_min(7)
    out: list[Pred] = []
    bounds_context(journal, 1, -W300, None, out)  # type: ignore[arg-type]
    assert out == [Pred(x, GE, -5)]
    out.clear()
    bounds_context(journal, 1, -5, None, out)  # type: ignore[arg-type]
    assert out == []  # the reason's floor is the old bound: nothing to add
    # a bit set: the holes between the old bound and the new one are still listed
    y = s.int_var_values([0, 2, 3, 5, 9], "y")
    journal = _journal_of(s)
    y.set_min(2)
    y.set_min(4)
    out.clear()
    bounds_context(journal, 1, -W300, None, out)  # type: ignore[arg-type]
    assert [(q.kind, q.value) for q in out] == [(GE, 2)], out


def check_table_entry_in_a_learning_conflict() -> None:
    """Issue 40 item 3 reproduced on a model: the first decision x <= 5 * 10^17 leaves x
    = 0 by the table, which forces z = 1, y = 0 and a failure. Analysing it explains the
    table's entry on x, and _outward then stepped from 5 * 10^17 to 10^18 one value at a
    time, inside conflict analysis, where no time limit was looked at."""
    for form in ("table", "element"):
        for search in SEARCHES:
            m = cn.Model()
            x = m.int_var(0, 10**18, "x")
            y, z = m.int_vars("y z", 0, 1)
            m += cn.table([x, y], [(0, 0), (10**18, 1)]) if form == "table" \
                else x == cn.element([0, 10**18], y)
            m += x + z >= 1
            m += z + y != 1
            got = [(s[x], s[y], s[z]) for s in m.solutions(
                search=search, var_select="input_order", value_select="split")]
            assert got == [(10**18, 1, 1)], (form, search, got)


def check_all_wide_entries() -> None:
    """The checks above, in turn."""
    check_table_entry_in_a_learning_conflict()
    check_bounds_context_below_the_old_bound()
    check_removed_values_of_a_wide_entry()
    check_element_var_explains_a_small_move_of_a_wide_result()
    check_table_explains_a_far_move_of_a_wide_column(False)
    check_table_explains_a_far_move_of_a_wide_column(True)


def test_wide_entries_are_explained_without_walking_the_domain() -> None:
    """The checks above, in one child process (see _guarded)."""
    _guarded("check_all_wide_entries")


# ------------------------------------------------------------- the journal, analysis


def test_entry_before_on_a_long_chain() -> None:
    """Journal.entry_before (a binary search over a variable's entries): the latest entry
    of the variable before each position, ROOT before its first one."""
    from conundrum.engine import Solver
    from conundrum.engine.journal import ROOT, Journal

    s = Solver()
    x = s.int_var(0, 10**18, "x")
    y = s.int_var(0, 10**18, "y")
    journal = Journal(s)
    journal.attach()
    s.trail.push_level()
    mine: list[int] = []
    for k in range(1, 300):
        (x if k % 3 else y).set_min(k)
        if k % 3:
            mine.append(len(journal) - 1)
    for pos in range(len(journal) + 2):
        before = [e for e in mine if e < pos]
        assert journal.entry_before(x.index, pos) == (before[-1] if before else ROOT), pos
    assert journal.entry_before(y.index, 0) == ROOT


def test_conflict_analysis_looks_at_the_clock() -> None:
    """Issue 40 item 3: a conflict whose level holds a chain of 3,000 entries (x < y and
    y < x, once b = 1, move the bounds by one per step) is analysed in as many steps; past
    the solver's deadline the analysis stops with TimeUp (the search then reports the time
    limit) instead of finishing first."""
    import time

    from conundrum.compiler.compiled import compile_model
    from conundrum.engine import Inconsistency, TimeUp
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import EQ, Pred
    from conundrum.engine.reasons import explain_conflict
    from conundrum.search.conflict import analyse

    m = cn.Model()
    b = m.int_var(0, 1, "b")
    x, y = m.int_vars("x y", 0, 3000)
    m += cn.implies(b == 1, x < y)
    m += y < x
    c = compile_model(m.variables, m.constraints, None, 0)
    assert c is not None
    s = c.solver
    (bv,) = [v for v in s.vars if v.name == "b"]
    journal = Journal(s)
    journal.attach()
    s.trail.push_level()
    root = s.trail.depth
    s.trail.push_level()
    journal.current = None
    with pytest.raises(Inconsistency):
        bv.assign(1)
        s.fix_point()
    assert len(journal) > 3000 and journal.conflict is not None
    conflict: list[Pred] = []
    explain_conflict(journal, journal.conflict, conflict)
    decisions = [Pred(bv, EQ, 1)]
    s.deadline = 0.0  # none
    assert analyse(journal, conflict, root, decisions).nogood
    s.deadline = time.perf_counter() - 1.0  # passed
    with pytest.raises(TimeUp):
        analyse(journal, conflict, root, decisions)


# ------------------------------------------------------------- time limits (item 3)


def _cycle() -> tuple[cn.Model, cn.Var]:
    """x < y once b = 1, and y < x, over 2 * 10^18 values: the first decision b = 1 (input
    order, largest value first) starts a propagation that moves a bound by one per step,
    10^18 steps before the failure."""
    m = cn.Model()
    b = m.int_var(0, 1, "b")
    x, y = m.int_vars("x y", -10**18, 10**18)
    m += cn.implies(b == 1, x < y)
    m += y < x
    return m, b


def _factor() -> tuple[cn.Model, cn.Var]:
    """x * y == a product of two primes near 10^9, factors in 2..10^18: a long search
    full of conflicts (under learning: explanations, analyses, nogoods)."""
    m = cn.Model()
    x, y = m.int_vars("x y", 2, 10**18)
    m += x * y == 1000000007 * 1000000009
    return m, x


def check_time_limits() -> None:
    """Each model under every search, and by LNS for an optimisation, with a time limit of
    0.05 s: the run returns, says the time limit stopped it and that it is incomplete."""
    for search in SEARCHES:  # warm up: the first run of each search imports its modules
        _offset_model(10**6)[0].solve(search=search, time_limit=5.0)
    for make, sense in ((_cycle, "maximize"), (_factor, "minimize")):
        for search in SEARCHES:
            m, _ = make()
            m.solve(search=search, time_limit=0.05, var_select="input_order",
                    value_select="max")
            assert m.stats.stopped_by == "time_limit", (make.__name__, search, m.stats)
            assert not m.stats.complete and m.stats.status == "unknown"
        m, z = make()
        getattr(m, sense)(z, lns=True, time_limit=0.05, var_select="input_order",
                          value_select="max")
        assert m.stats.stopped_by == "time_limit", (make.__name__, "lns", m.stats)
        assert not m.stats.complete and m.stats.status in ("unknown", "satisfied")


def test_a_tiny_time_limit_stops_every_search_on_wide_domains() -> None:
    """check_time_limits in a child process: an engine loop that ignored the limit would
    hang the run (the safety net is GUARD seconds, for a run of a fraction of a second)."""
    _guarded("check_time_limits")


# ------------------------------------------------------------------ Ctrl-C (item 3)

INTERRUPTED = [("factor", "classic"), ("factor", "learning"), ("factor", "auto"),
               ("factor", "lns"), ("cycle", "learning")]


def interrupted_runs() -> None:
    """The child of test_ctrl_c_stops_every_search_on_wide_domains: each run of
    INTERRUPTED, announced by "ready" on stdout (the parent then sends SIGINT), reported
    by how it ended."""
    for which, search in INTERRUPTED:
        m, z = _factor() if which == "factor" else _cycle()
        opts: dict[str, object] = {"var_select": "input_order", "value_select": "max"}
        print("ready", flush=True)
        try:
            if search == "lns":
                m.minimize(z, lns=True, **opts)
            else:
                m.solve(search=search, **opts)
            print("ended", m.stats.stopped_by, flush=True)
        except KeyboardInterrupt:
            print("interrupted", m.stats.stopped_by, flush=True)


def test_ctrl_c_stops_every_search_on_wide_domains() -> None:
    """A real SIGINT into searches on 10^18-wide domains, which never end on their own:
    each one stops with KeyboardInterrupt (minimize: returns, stopped by "interrupted").
    Delivered inside a big-integer multiplication of the compiled build, it used to abort
    the process ("fatal: out of memory", conundrum/_interrupt.py)."""
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time
    from pathlib import Path

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(cn.__file__).resolve().parents[1]), env.get("PYTHONPATH", "")])
    child = subprocess.Popen(
        [sys.executable, "-c", "import test_learning_wide as t; t.interrupted_runs()"],
        cwd=Path(__file__).parent, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    watchdog = threading.Timer(GUARD, child.kill)  # a child that ignores SIGINT: no hang
    watchdog.start()
    outcomes: list[str] = []
    try:
        for _ in INTERRUPTED:
            line = child.stdout.readline().strip()
            if line != "ready":  # the child died: say how
                child.wait()
                assert child.stderr is not None
                pytest.fail(f"after {outcomes}: {line!r}, exit {child.returncode}, "
                            f"{child.stderr.read()[-3000:]}")
            time.sleep(0.5)  # into the search (were it still compiling, the same holds)
            child.send_signal(signal.SIGINT)
            outcomes.append(child.stdout.readline().strip())
        child.wait()
    finally:
        watchdog.cancel()
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, child.stderr.read()[-3000:] if child.stderr else ""
    assert outcomes == ["interrupted interrupted"] * 3 + ["ended interrupted",
                                                          "interrupted interrupted"], outcomes


def test_deferred_holds_ctrl_c_for_poll() -> None:
    """_interrupt.deferred: a SIGINT inside the block only notes itself; poll raises it,
    and again at every poll until the block ends (a poll whose exception Python ignores
    must not take it away); one still held at the end of the block is raised there; the
    handler is back after; blocks nest, and another thread's block changes nothing."""
    import signal
    import threading

    from conundrum._interrupt import deferred, poll

    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt), deferred():
        signal.raise_signal(signal.SIGINT)  # to this thread: handled before the next line
        for _ in range(2):
            with pytest.raises(KeyboardInterrupt):
                poll()
    poll()  # heard when the block ended (raised there): nothing left
    with pytest.raises(KeyboardInterrupt), deferred():
        signal.raise_signal(signal.SIGINT)  # to this thread: handled before the next line
        with pytest.raises(KeyboardInterrupt):
            poll()
    poll()
    with pytest.raises(KeyboardInterrupt), deferred():
        with deferred():
            signal.raise_signal(signal.SIGINT)  # to this thread: handled before the next line
            sum(range(1000))  # interpreted steps: the noted Ctrl-C waits
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    seen: list[object] = []

    def other() -> None:
        with deferred():
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert seen == [signal.default_int_handler]


def test_ctrl_c_survives_a_finalizer_that_polls() -> None:
    """The Ctrl-C lost in CI (notes/ENGINE-BUGS.md): an abandoned generator of an earlier
    run, finalized by the garbage collector while a search runs, polls in its cleanup; its
    KeyboardInterrupt is ignored by Python, and the running search must still get one."""
    import gc
    import signal

    from conundrum._interrupt import deferred, poll

    def earlier_run() -> Generator[int, None, None]:
        try:
            yield 1
        finally:
            poll()  # as closing a search does when it unwinds through the engine

    abandoned = earlier_run()
    next(abandoned)
    cycle: list[object] = [abandoned]
    cycle.append(cycle)  # only the collector finalizes it
    del abandoned, cycle
    gc.disable()  # no automatic collection before the one below
    ignored: list[object] = []
    hook, sys.unraisablehook = sys.unraisablehook, ignored.append
    try:
        with pytest.raises(KeyboardInterrupt), deferred():
            signal.raise_signal(signal.SIGINT)  # to this thread: handled before the next line
            gc.collect()  # the finalizer's poll raises: ignored
            assert len(ignored) == 1
            poll()  # the search's next poll
    finally:
        sys.unraisablehook = hook
        gc.enable()
