"""Knockout stages and heats: who sits at which table in each stage, from the number and
seed order of the entrants alone (no results). The rules are stated in
:mod:`arena.league.knockout`, which plays them out over the stored results; the league file
(:mod:`arena.config`) checks its stages with :func:`check_stages` and :func:`table_sizes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Stage:
    """How one stage is played: its table size and how many of each heat go on."""

    table: int
    advance: int


@dataclass(frozen=True)
class Heat:
    """One table of a stage: its players (in seed order) and what is decided there."""

    stage: int
    index: int
    players: tuple[str, ...]
    advance: int  # how many go on (1 at the final table: the winner)
    final: bool


def stage_of(stages: Sequence[Stage], number: int) -> Stage:
    """The rules of stage ``number``: the file's last stage repeats for any later one."""
    return stages[min(number, len(stages) - 1)]


def heats(entrants: Sequence[str], stage: Stage, number: int) -> tuple[list[Heat], list[str]]:
    """Stage ``number``'s heats for ``entrants`` (in seed order), and its byes."""
    n = len(entrants)
    if n <= stage.table:
        return [Heat(number, 0, tuple(entrants), 1, final=True)], []
    # fewer than two full tables: the best seeds wait while the rest play one heat
    byes_count = n - stage.table if n < 2 * stage.table else n % stage.table
    byes = list(entrants[:byes_count])
    rest = entrants[byes_count:]
    count = len(rest) // stage.table
    seated: list[list[str]] = [[] for _ in range(count)]
    for place, name in enumerate(rest):
        row, col = divmod(place, count)
        seated[col if row % 2 == 0 else count - 1 - col].append(name)
    found = [
        Heat(number, i, tuple(players), stage.advance, final=False)
        for i, players in enumerate(seated)
    ]
    return found, byes


def table_sizes(field_size: int, stages: Sequence[Stage]) -> list[list[int]]:
    """The table sizes of every stage for a field of ``field_size`` (results do not change
    them): what a league file is checked against."""
    names = [str(i) for i in range(field_size)]
    sizes = []
    number = 0
    while True:
        found, byes = heats(names, stage_of(stages, number), number)
        sizes.append([len(h.players) for h in found])
        if found[0].final:
            return sizes
        names = byes + [p for h in found for p in h.players[: h.advance]]
        number += 1


def check_stages(stages: Sequence[Stage]) -> str | None:
    """What is wrong with a file's stages (None: nothing)."""
    if not stages:
        return "a knockout needs at least one stage"
    for i, stage in enumerate(stages, start=1):
        if not 2 <= stage.table <= 5:
            return f"stage {i}: table must be 2 to 5 seats, got {stage.table}"
        if not 1 <= stage.advance < stage.table:
            return f"stage {i}: advance must be 1 to {stage.table - 1}, got {stage.advance}"
    return None
