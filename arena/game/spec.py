"""What one game is: its id, seed and seating, and the rotation block a schedule is made of
(one seed under every rotation of a table's seats)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engines.base import derive_rng


@dataclass(frozen=True)
class GameSpec:
    """One game to play."""

    id: str
    table: int
    block: int
    rotation: int
    seed: int
    seating: tuple[str, ...]  # bot name per seat

    @property
    def players(self) -> int:
        return len(self.seating)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed a bot is given for its own RNG: derived from, never equal to, the game's."""
    return derive_rng(game_seed, "bot", seat).getrandbits(31)


def block_seed(league_seed: int, players: int, block: int) -> int:
    """The game seed of ``block`` for tables of ``players`` seats."""
    return derive_rng(league_seed, "block", players, block).getrandbits(48)


def rotations(table: Sequence[str]) -> list[tuple[str, ...]]:
    """The k seatings of a block: each bot in each seat once."""
    k = len(table)
    return [tuple(table[(i + r) % k] for i in range(k)) for r in range(k)]


def block_games(table_index: int, table: tuple[str, ...], block: int, seed: int) -> list[GameSpec]:
    """The games of one rotation block."""
    return [
        GameSpec(
            id=f"t{table_index}-b{block}-r{rotation}",
            table=table_index,
            block=block,
            rotation=rotation,
            seed=seed,
            seating=seating,
        )
        for rotation, seating in enumerate(rotations(table))
    ]
