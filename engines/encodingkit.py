"""Building blocks of the engines' ``encoding.py`` modules (see :class:`engines.base.Encoding`).

:class:`Layout` declares a tensor's named slices once; the encoder writes into a zeroed
vector at their offsets, and :func:`slice_table` prints the layout as the Markdown table
each engine's README carries (a test compares them). :class:`ActionSpace` hands out
consecutive id blocks, one per kind of action. :func:`frontier` ranks the empty cells next
to a laid-out table, for games played on an unbounded grid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]


class Layout:
    """The named slices of one tensor, in order: ``offset[name]`` is where each starts."""

    def __init__(self) -> None:
        self.slices: list[tuple[str, int, str]] = []
        self.offset: dict[str, int] = {}
        self.size = 0

    def add(self, name: str, length: int, meaning: str) -> int:
        """Declare the next slice; returns its offset."""
        if name in self.offset:
            raise ValueError(f"slice {name!r} declared twice")
        self.offset[name] = self.size
        self.slices.append((name, length, meaning))
        self.size += length
        return self.offset[name]

    def zeros(self) -> Vector:
        return np.zeros(self.size, dtype=np.float32)


class ActionSpace:
    """Consecutive blocks of action ids, one per kind of action: ``start[kind]`` is where
    a block begins; ``size`` is the number of ids handed out so far."""

    def __init__(self) -> None:
        self.start: dict[str, int] = {}
        self.blocks: list[tuple[str, int, str]] = []
        self.size = 0

    def add(self, kind: str, length: int, meaning: str) -> int:
        if kind in self.start:
            raise ValueError(f"action block {kind!r} declared twice")
        self.start[kind] = self.size
        self.blocks.append((kind, length, meaning))
        self.size += length
        return self.start[kind]


def subset_code(items: Iterable[int], universe: Sequence[int]) -> int:
    """A subset of ``universe`` as a bit mask (bit ``i`` = ``universe[i]`` is in)."""
    code = 0
    for item in items:
        code |= 1 << universe.index(item)
    return code


def frontier(cells: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The empty cells orthogonally next to ``cells``, sorted by ``(y, x)`` (reading order).

    A connected shape of ``n`` cells has at most ``2 n + 2`` of them (the largest site
    perimeter of an ``n``-cell polyomino), which bounds the ids that number them.
    """
    taken = set(cells)
    found = {
        (x + dx, y + dy)
        for x, y in taken
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if (x + dx, y + dy) not in taken
    }
    return sorted(found, key=lambda cell: (cell[1], cell[0]))


def one_hot(out: Vector, offset: int, index: int | None) -> None:
    """Set ``out[offset + index]`` (nothing for ``None``)."""
    if index is not None:
        out[offset + index] = 1.0


def slice_table(layouts: Mapping[int, Sequence[tuple[str, int, str]]]) -> str:
    """The Markdown table of a tensor's slices, one length column per player count
    (``layouts`` maps a player count to its :attr:`Encoding.slices`)."""
    counts = sorted(layouts)
    first = layouts[counts[0]]
    head = "| slice | meaning | " + " | ".join(f"{p}p" for p in counts) + " |"
    rule = "|---|---|" + "---|" * len(counts)
    rows = [head, rule]
    for index, (name, _, meaning) in enumerate(first):
        lengths = [str(layouts[p][index][1]) for p in counts]
        rows.append(f"| `{name}` | {meaning} | " + " | ".join(lengths) + " |")
    totals = [str(sum(length for _, length, _ in layouts[p])) for p in counts]
    rows.append("| **total** | | " + " | ".join(totals) + " |")
    return "\n".join(rows)


def action_table(spaces: Mapping[int, Sequence[tuple[str, int, str]]]) -> str:
    """The Markdown table of an action numbering's blocks, one column per player count."""
    return slice_table(spaces).replace("| slice |", "| actions |", 1)


def readme_tables(name: str) -> str:
    """The two tables of engine ``name``'s README section "Action ids and observation
    tensor", for every player count (``python -m engines.encodingkit NAME`` prints them)."""
    import engines

    engine = engines.get(name)
    made = {p: engines.encoding(name, p) for p in range(engine.min_players, engine.max_players + 1)}
    actions = action_table({p: made[p].space.blocks for p in made})  # type: ignore[attr-defined]
    sizes = ", ".join(f"{made[p].num_actions} ({p}p)" for p in made)
    tensor = slice_table({p: made[p].slices for p in made})
    return (
        f"Action ids, in blocks in this order ({sizes} in all):\n\n{actions}\n\n"
        f"Observation tensor (float32), its slices in this order:\n\n{tensor}\n"
    )


if __name__ == "__main__":
    import sys

    print(readme_tables(sys.argv[1]))
