"""Building blocks of the engines' ``encoding.py`` modules (see :class:`engines.base.Encoding`).

:class:`Layout` declares a tensor's named slices once (:class:`TurnLayout` begins with the
seat, the seat to move and the phase, as every engine's does); the encoder writes into a
zeroed vector at their offsets, and :func:`slice_table` prints the layout as the Markdown table
each engine's README carries (a test compares them). :class:`ActionSpace` hands out
consecutive id blocks, one per kind of action. :func:`frontier` ranks the empty cells next
to a laid-out table, for games played on an unbounded grid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

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


class TurnLayout(Layout):
    """A layout that begins as every engine's tensor begins: the observing seat, the seat
    to move (both one-hot) and, where the game has ``phases``, the phase."""

    def __init__(self, players: int, phases: Sequence[str] = ()) -> None:
        super().__init__()
        self.phases = tuple(phases)
        self.add("seat", players, "the observing seat (one-hot)")
        self.add("to_move", players, "the seat to move (one-hot; all 0 once over)")
        if self.phases:
            self.add("phase", len(self.phases), "phase (one-hot: " + ", ".join(phases) + ")")

    def begun(self, observation: Mapping[str, Any]) -> Vector:
        """A zeroed vector with the seat, the seat to move and the phase written."""
        out = self.zeros()
        one_hot(out, self.offset["seat"], observation["seat"])
        one_hot(out, self.offset["to_move"], observation["to_move"])
        if self.phases:
            one_hot(out, self.offset["phase"], self.phases.index(observation["phase"]))
        return out


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


class LaidOut:
    """The attributes of :class:`engines.base.Encoding` an engine's encoding takes from its
    action space and its tensor's layout (:meth:`lay_out`, once both are declared)."""

    space: ActionSpace
    layout: TurnLayout
    num_actions: int
    size: int
    slices: list[tuple[str, int, str]]

    def lay_out(self, space: ActionSpace, layout: TurnLayout) -> None:
        self.space = space
        self.num_actions = space.size
        self.layout = layout
        self.size = layout.size
        self.slices = layout.slices


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
