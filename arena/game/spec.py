"""What one game is: its id, seed and seating (the unit a schedule is made of)."""

from __future__ import annotations

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
