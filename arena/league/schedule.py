"""Leagues -> their games in play order, block by block (:class:`GameSpec`: tables, rotation
blocks, seeds).

A *table* is a set of bots that play together; each table is played as *blocks*: one game
seed under every rotation of the seats (k games for k seats), so the luck of the deal and
the first-player advantage cancel inside a block. All tables of the same size play the same
seed in the same block (a duplicate deal across tables). Ids and seeds depend only on the
config, so a schedule is the same however often a league is interrupted or how many games
run at once.

Table numbers are stable while a league grows or shrinks: a table that already has stored
games keeps its number (``known``), a new table gets the next free one. :class:`Shape` says
whether a stored game belongs to the current schedule, from ``league.toml`` alone, so the
standings always rate exactly the games of the league the folder now describes;
:func:`misplaced` finds the stored games whose id the schedule gives to another game.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, partial
from itertools import combinations, pairwise
from math import comb
from typing import Any

from arena.config import RULE_KEYS, LeagueConfig
from arena.game.spec import GameSpec, block_games, block_seed, rotations
from arena.heats import table_sizes
from arena.league.championship import CHAMPIONSHIPS, championship_games, decided, stage_count
from arena.record import GameRecord


def tables(config: LeagueConfig) -> list[tuple[str, ...]]:
    """Every table of the league, in a fixed order."""
    names = [bot.name for bot in config.bots]
    found: list[tuple[str, ...]] = []
    for size in config.players:
        if config.mode == "gauntlet":
            assert config.candidate is not None
            rest = [n for n in names if n != config.candidate]
            found += [(config.candidate, *combo) for combo in combinations(rest, size - 1)]
        elif config.mode == "sprt":
            assert config.sprt is not None
            found.append((config.sprt.candidate, config.sprt.opponent, *config.sprt.fillers))
        else:
            found += list(combinations(names, size))
    return found


def table_of(seating: Sequence[str], rotation: int) -> tuple[str, ...]:
    """The table (rotation 0) of a game seated as ``seating`` in ``rotation``."""
    k = len(seating)
    return tuple(seating[(j - rotation) % k] for j in range(k))


def known_tables(records: Iterable[GameRecord]) -> dict[tuple[str, ...], int]:
    """The number each stored table was played under: the one most of its games give it. A
    number two tables claim stays with the table more games give it, so a record edited
    by hand cannot take another table's number."""
    claims = Counter((table_of(r.seating, r.rotation), r.table) for r in records)
    known: dict[tuple[str, ...], int] = {}
    taken: set[int] = set()
    for (table, number), _ in claims.most_common():
        if table not in known and number not in taken:
            known[table] = number
            taken.add(number)
    return known


def numbered(
    found: Sequence[tuple[str, ...]], known: Mapping[tuple[str, ...], int]
) -> list[tuple[int, tuple[str, ...]]]:
    """Tables with their numbers: a known table keeps its own, a new one takes the next free."""
    taken = set(known.values())
    next_free = 0
    out = []
    for table in found:
        if table in known:
            out.append((known[table], table))
            continue
        while next_free in taken:
            next_free += 1
        taken.add(next_free)
        out.append((next_free, table))
    return out


def _block_count(config: LeagueConfig) -> int:
    """Blocks per table if every block is played (an SPRT league: its budget)."""
    if config.mode == "sprt":
        assert config.sprt is not None
        return config.sprt.max_blocks
    return config.rounds


def game_count(config: LeagueConfig) -> int:
    """Games the league means if every block is played (without building the schedule; a
    knockout: without tie-break blocks)."""
    if config.mode in CHAMPIONSHIPS:
        return championship_games(config)
    if config.mode == "sprt":
        per_block = config.players[0]  # its one table, under every rotation
    else:
        field = len(config.bots)
        per_block = 0
        for size in config.players:
            count = comb(field - 1, size - 1) if config.mode == "gauntlet" else comb(field, size)
            per_block += count * size
    return per_block * _block_count(config)


def iter_blocks(
    config: LeagueConfig, blocks: int, known: Mapping[tuple[str, ...], int] | None = None
) -> Iterator[list[GameSpec]]:
    """Blocks in play order (lazily): block 0 of every table, then block 1, and so on."""
    all_tables = numbered(tables(config), known or {})
    for block in range(blocks):
        for index, table in all_tables:
            seed = block_seed(config.seed, len(table), block)
            yield block_games(index, table, block, seed, config.bot_key)


_GAME_ID = re.compile(r"t(0|[1-9]\d*)-b(0|[1-9]\d*)-r(0|[1-9]\d*)")  # as block_games names

RULES = RULE_KEYS
"""The fields of a league that a stored game repeats and must hold as the league does: what
its moves are played by."""

Rules = tuple[str, str, Mapping[str, Any]]


def rules_of(row: Mapping[str, Any]) -> Rules:
    """The engine, engine version and options of a game's row (its JSON form)."""
    engine, version, options = map(row.__getitem__, RULES)
    return engine, version, options


def record_rules(record: GameRecord) -> Rules:
    """:func:`rules_of` a stored game."""
    return record.engine, record.engine_version, record.options


# seating, block, seed, then the rules: what makes a game the same
_Game = tuple[tuple[str, ...], int, int, str, str, Mapping[str, Any]]


def misplaced(
    config: LeagueConfig, records: Iterable[GameRecord], known: Mapping[tuple[str, ...], int]
) -> dict[str, str]:
    """The stored games whose id the schedule gives to another game (another seating, block,
    seed, engine, engine version or options): id -> how they differ. A game whose id the
    schedule gives to no game (a removed bot's, a block beyond ``rounds``) is not misplaced:
    it is outside the league.

    A Swiss or knockout league gives ids to the games its stored results have decided on
    (:func:`~arena.league.championship.decided`); a stored game of a round or stage they
    have not paired yet is misplaced too (it was played after results since moved aside):
    its id may go to another game."""
    if config.mode in CHAMPIONSHIPS:
        return _misplaced_in_championship(config, list(records))
    scheduled = _scheduled_by_id(config, known)
    found = {}
    for record in records:
        theirs = scheduled(record.id)
        mine = (record.seating, record.block, record.seed, *record_rules(record))
        if theirs is not None and mine != theirs:
            found[record.id] = _differences(mine, theirs)
    return found


def _misplaced_in_championship(
    config: LeagueConfig, records: Sequence[GameRecord]
) -> dict[str, str]:
    """:func:`misplaced` of a Swiss or knockout league."""
    specs, undecided = decided(config, records)
    rules = config.engine, config.engine_version, config.options
    shape = Shape.of(config)
    assert shape is not None, "a league file describes its schedule"
    found = {}
    for record in records:
        mine = (record.seating, record.block, record.seed, *record_rules(record))
        spec = specs.get(record.id)
        if spec is not None:
            theirs = (spec.seating, spec.block, spec.seed, *rules)
            if mine != theirs:
                found[record.id] = _differences(mine, theirs)
        elif _GAME_ID.fullmatch(record.id) and undecided <= record.block < shape.blocks:
            what = "round" if config.mode == "swiss" else "stage"
            found[record.id] = f"its {what} is not paired yet by the games stored before it"
    return found


def _scheduled_by_id(
    config: LeagueConfig, known: Mapping[tuple[str, ...], int]
) -> Callable[[str], _Game | None]:
    """The game the schedule gives an id (``t<table>-b<block>-r<rotation>``), or None."""
    by_number = dict(numbered(tables(config), known))
    blocks = _block_count(config)
    seed_of = cache(partial(block_seed, config.seed))  # one seed per table size and block
    rules = config.engine, config.engine_version, config.options

    def game(game_id: str) -> _Game | None:
        match = _GAME_ID.fullmatch(game_id)
        if match is None:
            return None
        number, block, rotation = map(int, match.groups())
        table = by_number.get(number)
        if table is None or block >= blocks or rotation >= len(table):
            return None
        return rotations(table)[rotation], block, seed_of(len(table), block), *rules

    return game


def _differences(mine: _Game, theirs: _Game) -> str:
    """How a stored game differs from the scheduled game of its id."""
    return "; ".join(
        f"{name} {json.dumps(a)}, the league's {json.dumps(b)}"
        for name, a, b in zip(("seating", "block", "seed", *RULES), mine, theirs, strict=True)
        if a != b
    )


@dataclass(frozen=True)
class Shape:
    """What decides whether a game belongs to a league: its field, sizes, mode and rounds,
    and the rules its games are played by (None: a ``league.toml`` that does not say)."""

    names: tuple[str, ...]
    players: tuple[int, ...]
    mode: str
    blocks: int
    seed: int
    candidate: str | None = None
    sprt_table: tuple[str, ...] = ()
    rules: Rules | None = None
    stage_blocks: int = 1  # a knockout's blocks per stage (its first, and tie-break ones)
    stage_sizes: tuple[tuple[int, ...], ...] = ()  # a knockout's table sizes, stage by stage

    @classmethod
    def of(cls, league: LeagueConfig) -> Shape | None:
        """The shape of a league; None for a stored ``league.toml`` that does not describe
        its schedule (:attr:`~arena.config.LeagueConfig.scheduled`)."""
        if not league.scheduled:
            return None
        sprt = league.sprt
        blocks = sprt.max_blocks if sprt else league.rounds
        stage_blocks = 1
        stage_sizes: tuple[tuple[int, ...], ...] = ()
        if league.knockout is not None:
            stage_blocks = 1 + league.knockout.tiebreak_blocks
            sizes = table_sizes(len(league.bots), league.knockout.stages)
            stage_sizes = tuple(tuple(sorted(set(stage))) for stage in sizes)
            blocks = stage_blocks * stage_count(league)
        return cls(
            names=tuple(bot.name for bot in league.bots),
            players=league.players,
            mode=league.mode,
            blocks=blocks,
            seed=league.seed,
            candidate=league.candidate,
            sprt_table=(sprt.candidate, sprt.opponent, *sprt.fillers) if sprt else (),
            rules=(league.engine, league.engine_version, league.options)
            if league.rules_known
            else None,
            stage_blocks=stage_blocks,
            stage_sizes=stage_sizes,
        )

    _seeds: dict[tuple[int, int], int] = field(default_factory=dict, compare=False, repr=False)

    def plays(self, record: GameRecord) -> bool:
        """Is this stored game one of the league's games? It is when the league plays its
        seating, block and seed, under any rotation: a run then finds the game stored (it
        looks games up by those three) and counts it, and so the standings rate it. (A game
        whose table the league now names in another order, as after a change of the bots'
        order or of a gauntlet's candidate, is such a game under another rotation.) A game
        played by other rules (engine, engine version, options) is never the league's."""
        return self.plays_row(
            record_rules(record), record.seating, record.block, record.rotation, record.seed
        )

    def plays_row(
        self, rules: Rules, seating: Sequence[str], block: int, rotation: int, seed: int
    ) -> bool:
        """:meth:`plays` for a game given by its rules, seating, block, rotation and seed."""
        if self.rules is not None and rules != self.rules:
            return False
        if self._holds_row(seating, block, rotation, seed):  # its own rotation first
            return True
        others = (r for r in range(len(seating)) if r != rotation)
        return any(self._holds_row(seating, block, r, seed) for r in others)

    def _holds_row(self, seating: Sequence[str], block: int, rotation: int, seed: int) -> bool:
        """Is this the league's game of that rotation?"""
        size = len(seating)
        if size not in self.players or not 0 <= block < self.blocks:
            return False
        if not 0 <= rotation < size:
            return False
        if self.stage_sizes and size not in self.stage_sizes[block // self.stage_blocks]:
            return False
        if (size, block) not in self._seeds:  # derived once per block, not once per game
            self._seeds[(size, block)] = block_seed(self.seed, size, block)
        if seed != self._seeds[(size, block)]:
            return False
        return self._is_table(table_of(seating, rotation))

    @cached_property
    def _order(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names)}

    def _is_table(self, table: tuple[str, ...]) -> bool:
        if self.mode == "sprt":
            return table == self.sprt_table
        order = self._order
        if self.mode in CHAMPIONSHIPS:  # any table of the field may be paired
            return len(set(table)) == len(table) and all(name in order for name in table)
        if self.mode == "gauntlet":
            if not table or table[0] != self.candidate:
                return False
            table = table[1:]
            if self.candidate in table:
                return False
        if any(name not in order for name in table):
            return False
        positions = [order[name] for name in table]
        return all(a < b for a, b in pairwise(positions))
