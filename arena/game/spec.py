"""What one game is: its id, seed and seating, and the rotation block a schedule is made of
(one seed under every rotation of a table's seats)."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

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
    # the results folder's secret its bots' seeds come from (arena.league.secret); b"": none
    key: bytes = field(default=b"", compare=False, repr=False)
    # parameter values per bot name (``arena tune``'s two versions of one bot): sent in the
    # ``start`` message, and filled into a command's ``{name}`` placeholders
    params: tuple[tuple[str, SeatParams], ...] = ()

    @property
    def players(self) -> int:
        return len(self.seating)

    def params_of(self, name: str) -> dict[str, float | int]:
        """The parameter values this game gives bot ``name`` (none: empty)."""
        for bot, values in self.params:
            if bot == name:
                return dict(values)
        return {}


SeatParams = tuple[tuple[str, float | int], ...]
"""One bot's parameter values in a :class:`GameSpec`, as sorted (name, value) pairs."""


def seat_params(values: Mapping[str, float | int]) -> SeatParams:
    """``values`` as a :class:`GameSpec` holds them."""
    return tuple(sorted(values.items()))


def bot_seed(game_seed: int, seat: int, key: bytes = b"") -> int:
    """The seed a bot is given for its own RNG: an HMAC of the game's seed and the seat
    under ``key``, the results folder's secret (:mod:`arena.league.secret`), so that no
    bot can work the league's seed out of its own; without a key (a game outside any
    league folder: ``arena play``) derived from the game's seed alone."""
    if not key:
        return derive_rng(game_seed, "bot", seat).getrandbits(31)
    digest = hmac.new(key, f"bot {game_seed} {seat}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def block_seed(league_seed: int, players: int, block: int) -> int:
    """The game seed of ``block`` for tables of ``players`` seats."""
    return derive_rng(league_seed, "block", players, block).getrandbits(48)


def rotations(table: Sequence[str]) -> list[tuple[str, ...]]:
    """The k seatings of a block: each bot in each seat once."""
    k = len(table)
    return [tuple(table[(i + r) % k] for i in range(k)) for r in range(k)]


def block_games(
    table_index: int, table: tuple[str, ...], block: int, seed: int, key: bytes = b""
) -> list[GameSpec]:
    """The games of one rotation block (``key``: see :attr:`GameSpec.key`)."""
    return [
        GameSpec(
            id=f"t{table_index}-b{block}-r{rotation}",
            table=table_index,
            block=block,
            rotation=rotation,
            seed=seed,
            seating=seating,
            key=key,
        )
        for rotation, seating in enumerate(rotations(table))
    ]
