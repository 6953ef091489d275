"""Knockout heats for tables of 2 to 5 seats: the bracket, from the results so far.

The field enters in seed order (the league file's order of bots, or a seeded draw). Each
stage seats its entrants at heats of the stage's table size and the top ``advance`` of each
heat go on; when the entrants no longer fill two tables of the stage they play one final
table, whose first place wins the knockout.

- **Byes.** When the entrants do not divide into full tables, the best seeds (as many as are
  left over) go straight to the next stage.
- **Heats.** The other entrants are dealt to the heats in a snake (seeds 1..h to heats 1..h,
  then h..1, ...), so the best seeds meet as late as possible.
- **A heat's result.** Each heat is played as a rotation block on one deal; its players are
  placed by the points they took over the block's games (``k - rank`` per game). When two
  players tie on the cut (or for first place at the final table), the heat plays another
  block on a new deal and the points add up, up to ``tiebreak_blocks`` extra blocks; a tie
  left after those goes to the better seed.
- **Next stage.** The players who go on are seated again by their seed.

:func:`bracket` depends only on the field, the stages and the stored results, so a resumed
league recomputes exactly the heats it had.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.heats import Heat, Stage, heats, stage_of


@dataclass(frozen=True)
class HeatOutcome:
    """A heat after the blocks played so far."""

    heat: Heat
    points: dict[str, float]  # summed over its blocks
    blocks: int
    advancing: tuple[str, ...] | None  # None: another block is needed
    by_seed: bool = False  # a tie was left after every extra block: the better seed went on


@dataclass(frozen=True)
class Bracket:
    """The knockout so far: every stage's heats and byes, what to play next, the winner."""

    stages: list[list[HeatOutcome]] = field(default_factory=list)
    byes: list[tuple[str, ...]] = field(default_factory=list)
    to_play: list[tuple[Heat, int]] = field(default_factory=list)  # (heat, its block number)
    winner: str | None = None


def decide(
    heat: Heat,
    blocks: Sequence[Mapping[str, float]],
    tiebreak_blocks: int,
    seed_rank: Mapping[str, int],
) -> HeatOutcome:
    """A heat's outcome after ``blocks`` (each: every player's points in that block)."""
    points = {name: sum(block[name] for block in blocks) for name in heat.players}
    if not blocks:
        return HeatOutcome(heat, points, 0, None)
    order = sorted(heat.players, key=lambda p: (-points[p], seed_rank[p]))
    cut = heat.advance
    tied = points[order[cut - 1]] == points[order[cut]]
    if tied and len(blocks) < 1 + tiebreak_blocks:
        return HeatOutcome(heat, points, len(blocks), None)
    return HeatOutcome(heat, points, len(blocks), tuple(order[:cut]), by_seed=tied)


def bracket(
    field_order: Sequence[str],
    stages: Sequence[Stage],
    played: Mapping[tuple[int, int], Sequence[Mapping[str, float]]],
    tiebreak_blocks: int = 1,
) -> Bracket:
    """The knockout of ``field_order`` (in seed order) after the blocks ``played``: (stage,
    heat) -> that heat's blocks in order, each giving every player's points."""
    seed_rank = {name: i for i, name in enumerate(field_order)}
    result = Bracket()
    entrants = list(field_order)
    number = 0
    while True:
        found, byes = heats(entrants, stage_of(stages, number), number)
        outcomes = [
            decide(h, played.get((number, h.index), ()), tiebreak_blocks, seed_rank) for h in found
        ]
        result.stages.append(outcomes)
        result.byes.append(tuple(byes))
        waiting = [(o.heat, o.blocks) for o in outcomes if o.advancing is None]
        if waiting:
            result.to_play.extend(waiting)
            return result
        going_on = list(byes) + [p for o in outcomes for p in o.advancing or ()]
        if found[0].final:
            return Bracket(result.stages, result.byes, [], winner=going_on[0])
        entrants = sorted(going_on, key=seed_rank.__getitem__)
        number += 1
