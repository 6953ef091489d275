"""A strong bot for the toy engine: leave the opponent a multiple of three (2 seats)."""

from __future__ import annotations

from typing import Any

from arena.sdk import GameInfo, run


def choose(observation: dict[str, Any], legal: list[dict[str, Any]], game: GameInfo) -> int:
    for index, action in enumerate(legal):
        if (observation["pile"] - action["n"]) % 3 == 0:
            return index
    return game.rng.randrange(len(legal))


if __name__ == "__main__":
    run(choose, name="nim", version="1")
