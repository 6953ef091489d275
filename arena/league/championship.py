"""Swiss and knockout leagues as the driver plays them: their games' ids and seeds, the state
of the event recomputed from stored games alone, and the feeds that hand out its blocks.

The pairing rules are :mod:`arena.league.swiss`'s and :mod:`arena.league.knockout`'s; this
module only says which games they mean and reads stored games back into their results.
Nothing here depends on anything but the league file, its seed and the stored games, so a
run resumed after ``kill -9`` recomputes the very pairings it had.

**Ids and seeds.** A Swiss round ``r`` plays each of its tables ``i`` as the rotation block
``t<i>-b<r>-r<rotation>``, dealt from :func:`~arena.game.spec.block_seed` ``(seed, size,
r)``: every table of a round plays the same deal. A knockout heat ``i`` of stage ``s`` plays
its ``n``-th block (0, then its tie-break blocks) as ``t<i>-b<s * (1 + tiebreak_blocks) +
n>-r<rotation>``, dealt from ``block_seed(seed, size, that block)``: the heats of a stage share
their first deal, and every stage and every tie-break block is dealt anew.

**A table's result** is each player's points over its block, ``k - rank`` per game (a first
place of ``k`` is worth ``k - 1``), only from a block whose every game is stored and is the
game the schedule gives that id (by seating, seed and rules).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from random import Random

from arena.config import LeagueConfig
from arena.game.spec import GameSpec, block_games, block_seed
from arena.heats import Heat, table_sizes
from arena.league.knockout import Bracket, bracket
from arena.league.swiss import Pairing, RoundResult, Standing, TableResult, pair_round, standings
from arena.record import GameRecord

CHAMPIONSHIPS = ("swiss", "knockout")
"""The modes whose games depend on the results so far (played by
:class:`~arena.league.feeds.ChampionshipFeed`)."""

Blocks = Mapping[tuple[int, int], Sequence[GameRecord]]
"""Stored games by (table, block)."""


def by_block(
    config: LeagueConfig, records: Iterable[GameRecord]
) -> dict[tuple[int, int], list[GameRecord]]:
    """The stored games played by the league's rules, by (table, block)."""
    rules = (config.engine, config.engine_version, dict(config.options))
    found: dict[tuple[int, int], list[GameRecord]] = defaultdict(list)
    for record in records:
        if (record.engine, record.engine_version, dict(record.options)) == rules:
            found[(record.table, record.block)].append(record)
    return found


def block_points(specs: Sequence[GameSpec], games: Sequence[GameRecord]) -> dict[str, float]:
    """Each player's points over a block (``k - rank`` per game), or {} when the block is not
    complete, or holds a game other than the one its id is given to."""
    stored = {record.id: record for record in games}
    points: dict[str, float] = defaultdict(float)
    for spec in specs:
        record = stored.get(spec.id)
        if record is None or (record.seating, record.seed) != (spec.seating, spec.seed):
            return {}
        for seat in record.seats:
            points[seat.bot] += record.players - seat.rank
    return dict(points)


# ---- Swiss ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SwissRound:
    """One round as paired: its tables' blocks and the results of those complete."""

    number: int
    pairing: Pairing
    blocks: tuple[list[GameSpec], ...]  # table i's block
    results: tuple[TableResult | None, ...]  # None: not complete yet

    @property
    def complete(self) -> bool:
        return all(result is not None for result in self.results)


@dataclass(frozen=True)
class SwissEvent:
    """A Swiss league after the stored games: every round paired so far (only the last may
    be incomplete) and the standings after the complete ones."""

    rounds: tuple[SwissRound, ...]
    standings: tuple[Standing, ...]
    total_rounds: int

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.total_rounds and all(r.complete for r in self.rounds)


def swiss_event(config: LeagueConfig, blocks: Blocks) -> SwissEvent:
    """The Swiss league of ``config`` after the stored games ``blocks`` (:func:`by_block`)."""
    field = tuple(bot.name for bot in config.bots)
    size = config.players[0]
    played: list[RoundResult] = []
    rounds: list[SwissRound] = []
    for number in range(config.rounds):
        pairing = paired(field, tuple(played), size, config.seed)
        seed = block_seed(config.seed, size, number)
        specs = tuple(block_games(i, table, number, seed) for i, table in enumerate(pairing.tables))
        results = []
        for i, table in enumerate(pairing.tables):
            points = block_points(specs[i], blocks.get((i, number), ()))
            results.append(TableResult(table, tuple(points[p] for p in table)) if points else None)
        this = SwissRound(number, pairing, specs, tuple(results))
        rounds.append(this)
        if not this.complete:
            break
        played.append(RoundResult(tuple(r for r in results if r is not None), pairing.byes))
    return SwissEvent(
        tuple(rounds), tuple(standings(field, played, size, config.seed)), config.rounds
    )


@lru_cache(maxsize=256)
def paired(
    field: tuple[str, ...], played: tuple[RoundResult, ...], size: int, seed: int
) -> Pairing:
    """:func:`~arena.league.swiss.pair_round`, kept: a pairing of a large field takes
    seconds, and a run asks for each round's again as games come in (the feed), to check
    the stored games (:func:`decided`), and for the standings and the report."""
    return pair_round(field, played, size, seed)


def swiss_games(config: LeagueConfig) -> int:
    """Games of a Swiss league: every round seats all but its byes, one block (a game per
    seat) a table."""
    size = config.players[0]
    return config.rounds * (len(config.bots) - len(config.bots) % size)


# ---- knockout ---------------------------------------------------------------------------


def seed_order(config: LeagueConfig) -> list[str]:
    """The knockout's field in seed order: the file's order of bots, or a seeded draw."""
    assert config.knockout is not None, "a knockout league has a [knockout] table"
    field = [bot.name for bot in config.bots]
    if config.knockout.seeding == "random":
        Random(f"knockout-draw-{config.seed}").shuffle(field)
    return field


def heat_block(config: LeagueConfig, heat: Heat, number: int) -> list[GameSpec]:
    """The games of a heat's ``number``-th block (see the module docstring)."""
    assert config.knockout is not None
    block = heat.stage * (1 + config.knockout.tiebreak_blocks) + number
    seed = block_seed(config.seed, len(heat.players), block)
    return block_games(heat.index, heat.players, block, seed)


@dataclass(frozen=True)
class KnockoutEvent:
    """A knockout after the stored games: its bracket, and the blocks it has decided on."""

    bracket: Bracket
    blocks: tuple[list[GameSpec], ...]  # every block the bracket has called for so far

    @property
    def finished(self) -> bool:
        return self.bracket.winner is not None


def knockout_event(config: LeagueConfig, blocks: Blocks) -> KnockoutEvent:
    """The knockout of ``config`` after the stored games ``blocks`` (:func:`by_block`)."""
    assert config.knockout is not None
    spec = config.knockout
    order = seed_order(config)
    played: dict[tuple[int, int], list[dict[str, float]]] = {}
    while True:
        state = bracket(order, spec.stages, played, spec.tiebreak_blocks)
        new = False
        for heat, number in state.to_play:
            games = heat_block(config, heat, number)
            points = block_points(games, blocks.get((heat.index, games[0].block), ()))
            if points:
                played.setdefault((heat.stage, heat.index), []).append(points)
                new = True
        if not new:
            break
    called = [
        heat_block(config, outcome.heat, number)
        for stage in state.stages
        for outcome in stage
        for number in range(outcome.blocks + (outcome.advancing is None))
    ]
    return KnockoutEvent(state, tuple(called))


def knockout_games(config: LeagueConfig) -> int:
    """Games of a knockout without a tie-break block: one block (a game per seat) a heat."""
    assert config.knockout is not None
    return sum(map(sum, table_sizes(len(config.bots), config.knockout.stages)))


def stage_count(config: LeagueConfig) -> int:
    """How many stages the knockout has (the final table's included)."""
    assert config.knockout is not None
    return len(table_sizes(len(config.bots), config.knockout.stages))


# ---- both -------------------------------------------------------------------------------


def championship_games(config: LeagueConfig) -> int:
    """Games a championship league means (a knockout: without tie-break blocks)."""
    return swiss_games(config) if config.mode == "swiss" else knockout_games(config)


def decided(config: LeagueConfig, records: Iterable[GameRecord]) -> tuple[dict[str, GameSpec], int]:
    """The games the stored ``records`` have decided on, by id, and the first block whose
    games they have not decided yet (a Swiss round, a knockout stage, not yet paired)."""
    blocks = by_block(config, records)
    if config.mode == "swiss":
        swiss = swiss_event(config, blocks)
        specs = [spec for r in swiss.rounds for block in r.blocks for spec in block]
        return {spec.id: spec for spec in specs}, len(swiss.rounds)
    assert config.knockout is not None
    knockout = knockout_event(config, blocks)
    specs = [spec for block in knockout.blocks for spec in block]
    per_stage = 1 + config.knockout.tiebreak_blocks
    return {spec.id: spec for spec in specs}, len(knockout.bracket.stages) * per_stage
