"""MiniZinc's symbol table (the `.paths` file of `minizinc --output-paths-to-file FILE`):
where in the MiniZinc source each FlatZinc constraint came from, for `conundrum fzn --why
--paths FILE` (issue 43).

Each line is `NAME<TAB>NAME<TAB>PATH`; a constraint's NAME is its position among the
FlatZinc's constraint items, from 0, and its PATH a `;`-separated list of segments
`file|line|column|end line|end column|kind|...`, from the outermost expression (the
constraint item the modeller wrote) inwards.
"""

from __future__ import annotations

import re

from conundrum.io.flatzinc.parser import FznError

_CONSTRAINT = re.compile(r"^\s*constraint\b")


def read_paths(text: str, source: str = "the paths file") -> dict[int, str]:
    """Constraint position -> `file:line.column` of the MiniZinc source it came from;
    FznError naming the line when the text is not a symbol table."""
    out: dict[int, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 3:
            raise FznError(f"{source}, line {number}: not a MiniZinc symbol table line "
                           "(NAME, NAME and PATH separated by tabs)")
        if not fields[0].isdigit():
            continue  # a variable's entry
        first = fields[2].split(";")[0].split("|")
        if len(first) < 3 or not first[1].isdigit() or not first[2].isdigit():
            raise FznError(f"{source}, line {number}: a path starts file|line|column, "
                           f"not {fields[2][:40]!r}")
        out[int(fields[0])] = f"{first[0]}:{first[1]}.{first[2]}"
    return out


def constraint_positions(fzn_text: str) -> dict[int, int]:
    """Line number -> position among the constraint items, for each line of the FlatZinc
    that starts a constraint item (MiniZinc writes one item a line)."""
    positions: dict[int, int] = {}
    for number, line in enumerate(fzn_text.splitlines(), 1):
        if _CONSTRAINT.match(line):
            positions[number] = len(positions)
    return positions
