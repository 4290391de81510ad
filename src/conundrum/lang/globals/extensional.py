"""Extensional globals: the allowed tuples (table) or the words of an automaton (regular,
pattern_automaton).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    BoolConst,
    BoolOp,
    Expr,
    ExprLike,
    Global,
    Operands,
)
from conundrum.lang.globals.base import (
    _flatten,
    _int_values,
    _pairwise_all,
)


class Table(Global):
    """The arguments, as a tuple, are one of the allowed tuples."""

    __slots__ = ("tuples",)
    name = "table"

    def __init__(self, args: tuple[ExprLike, ...], tuples: tuple[tuple[int, ...], ...]) -> None:
        super().__init__(args)
        self.tuples = tuples

    def holds(self, values: list[int]) -> bool:
        return tuple(values) in set(self.tuples)

    def decompose(self) -> Expr:
        if not self.tuples:
            return BoolConst(False)
        options = [_pairwise_all(x == v for x, v in zip(self.args, t)) for t in self.tuples]
        return BoolOp("or", *options) if len(options) > 1 else options[0]


class Regular(Global):
    """The sequence is a word of a deterministic automaton. args = the sequence.

    Posted at the top level it becomes a chain of ternary tables (state_i, x_i, state_i+1)
    over auxiliary state variables: the chain is Berge-acyclic, so generalised arc
    consistency on each table is GAC on the whole constraint (Pesant's layered graph
    reached through tables). Reified, it is the table of its accepted words."""

    __slots__ = ("transitions", "start", "accepting")
    name = "regular"
    WORD_LIMIT = 100_000

    def __init__(self, args: tuple[ExprLike, ...], transitions: dict[tuple[int, int], int],
                 start: int, accepting: frozenset[int]) -> None:
        super().__init__(args)
        self.transitions = transitions
        self.start = start
        self.accepting = accepting

    def holds(self, values: list[int]) -> bool:
        q: int | None = self.start
        for v in values:
            q = self.transitions.get((q, v))  # type: ignore[arg-type]
            if q is None:
                return False
        return q in self.accepting

    def decompose(self) -> Expr:
        """The accepted words over the symbols of the automaton, as a table (refused when
        there are more than WORD_LIMIT of them)."""
        words: list[tuple[int, ...]] = []
        stack: list[tuple[int, tuple[int, ...]]] = [(self.start, ())]
        n = len(self.args)
        out_of: dict[int, list[tuple[int, int]]] = {}
        for (q, v), r in self.transitions.items():
            out_of.setdefault(q, []).append((v, r))
        while stack:
            q, word = stack.pop()
            if len(word) == n:
                if q in self.accepting:
                    words.append(word)
                    if len(words) > self.WORD_LIMIT:
                        raise ModelError(f"regular used as a value: more than "
                                         f"{self.WORD_LIMIT:,} accepted words")
                continue
            for v, r in out_of.get(q, ()):
                stack.append((r, word + (v,)))
        return Table(self.args, tuple(sorted(words))).decompose()


def table(variables: Operands, tuples: Iterable[Iterable[int]]) -> Expr:
    """The variables take the values of one of the tuples."""
    xs = _flatten(variables, "table")
    rows = []
    for t in tuples:
        row = tuple(t)
        if len(row) != len(xs):
            raise ModelError(f"table: tuple {row} has {len(row)} values for {len(xs)} variables")
        for v in row:
            if isinstance(v, bool) or not isinstance(v, int):
                raise ModelError(f"table: tuple {row} holds {v!r}; tuples hold integers")
        rows.append(row)
    return Table(xs, tuple(rows))


def regular(variables: Operands,
            transitions: Mapping[tuple[int, int], int] | Iterable[tuple[int, int, int]],
            start: int,
            accepting: Iterable[int]) -> Expr:
    """The variables spell a word accepted by a deterministic automaton: `transitions` maps
    (state, value) to the next state (a dict, or (state, value, next) triples), `start` is
    the initial state, `accepting` the final ones. Generalised arc consistent (posted as a
    chain of tables over the states reachable at each position)."""
    xs = _flatten(variables, "regular")
    table: dict[tuple[int, int], int] = {}
    try:
        triples: Iterable[tuple[int, int, int]] = (
            [(q, v, r) for (q, v), r in transitions.items()]
            if isinstance(transitions, Mapping) else transitions)
        for q, v, r in triples:
            for k in (q, v, r):
                if isinstance(k, bool) or not isinstance(k, int):
                    raise ModelError(f"regular: states and values are integers, not {k!r}")
            if table.get((q, v), r) != r:
                raise ModelError(f"regular: state {q} has two transitions on {v} (the "
                                 "automaton must be deterministic)")
            table[(q, v)] = r
    except (TypeError, ValueError):
        raise ModelError("regular: transitions are a dict {(state, value): next} or "
                         "(state, value, next) triples") from None
    finals = frozenset(_int_values(accepting, "regular"))
    if isinstance(start, bool) or not isinstance(start, int):
        raise ModelError(f"regular: the start state is an integer, not {start!r}")
    return Regular(xs, table, start, finals)


def pattern_automaton(clues: Iterable[int]) -> tuple[dict[tuple[int, int], int], int,
                                                       frozenset[int]]:
    """(transitions, start, accepting) of a Nonogram line: blocks of 1s of the given
    lengths, in order, separated by at least one 0, with any 0s around them. Use with
    regular(row, *pattern_automaton([3, 1, 2]))."""
    blocks = list(clues)
    for b in blocks:
        if isinstance(b, bool) or not isinstance(b, int) or b < 1:
            raise ModelError(f"pattern_automaton: block lengths are integers >= 1, not {b!r}")
    # states: 0 = before the first block; then one state per cell of every block, and for
    # each block but the last one "just after it" state that needs a 0
    transitions: dict[tuple[int, int], int] = {}
    state = 0
    transitions[(0, 0)] = 0
    for k, length in enumerate(blocks):
        for _ in range(length):
            transitions[(state, 1)] = state + 1
            state += 1
        last = k == len(blocks) - 1
        gap = state + 1  # a 0 after the block
        transitions[(state, 0)] = gap
        transitions[(gap, 0)] = gap
        if last:
            return transitions, 0, frozenset({state, gap})
        state = gap
    return transitions, 0, frozenset({0})
