"""Leagues -> an ordered list of :class:`GameSpec` (tables, rotation blocks, seeds).

A *table* is a set of bots that play together; each table is played as *blocks*: one game
seed under every rotation of the seats (k games for k seats), so the luck of the deal and
the first-player advantage cancel inside a block. All tables of the same size play the same
seed in the same block (a duplicate deal across tables). Ids and seeds depend only on the
config, so a schedule is the same however often a league is interrupted or how many games
run at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from arena.config import LeagueConfig
from arena.game.spec import GameSpec, block_games, block_seed


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


def iter_blocks(config: LeagueConfig, blocks: int) -> Iterator[list[GameSpec]]:
    """Blocks in play order: block 0 of every table, then block 1, and so on."""
    all_tables = tables(config)
    for block in range(blocks):
        for index, table in enumerate(all_tables):
            seed = block_seed(config.seed, len(table), block)
            yield block_games(index, table, block, seed)


def schedule(config: LeagueConfig) -> list[GameSpec]:
    """Every game of a round-robin or gauntlet league, in play order."""
    return [game for block in iter_blocks(config, config.rounds) for game in block]
