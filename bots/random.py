"""A bot that plays a uniformly random legal action, for any engine.

Deterministic: it draws from the generator seeded by the referee's ``start`` seed.
Run it as ``python -m bots.random``.
"""

from __future__ import annotations

from typing import Any

from arena.sdk import GameInfo, run


def choose(observation: dict[str, Any], legal: list[dict[str, Any]], game: GameInfo) -> int:
    return game.rng.randrange(len(legal))


if __name__ == "__main__":
    run(choose, name="random", version="1")
