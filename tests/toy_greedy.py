"""The toy engine's greedy move (for ``bots.synthetic --greedy tests.toy_greedy``): leave a
multiple of three counters when it can."""

from __future__ import annotations

from typing import Any

from arena.sdk import GameInfo


def choose(obs: dict[str, Any], legal: list[dict[str, Any]], game: GameInfo) -> int:
    want = obs["pile"] % 3
    return next((i for i, a in enumerate(legal) if a["n"] == want), 0)
