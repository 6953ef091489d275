"""Re-simulate a stored game from its seed and moves and compare the outcome."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engines
from arena.referee import forfeit_ranks
from engines.base import EngineError


def replay_record(record: Mapping[str, Any]) -> list[str]:
    """The differences between a stored game and its re-simulation (empty: reproduced)."""
    engine = engines.get(record["engine"])
    problems: list[str] = []
    if engine.version != record["engine_version"]:
        problems.append(
            f"engine version is {engine.version}, the game was played with "
            f"{record['engine_version']}"
        )
    state = engine.new_game(record["players"], record["seed"], dict(record["options"]))
    for step, index in enumerate(record["moves"]):
        legal = state.legal_actions()
        if state.to_move() is None or not 0 <= index < len(legal):
            return [*problems, f"move {step} (index {index}) is not legal in the replay"]
        try:
            state.apply(legal[index])
        except EngineError as exc:
            return [*problems, f"move {step} failed: {exc}"]
    if state.to_move() is not None:
        return [*problems, "the replayed game has not ended after the stored moves"]
    result = state.result()
    ranks = forfeit_ranks(result.ranks, record["forfeit"])
    if list(result.scores) != list(record["scores"]):
        problems.append(f"scores {list(result.scores)} != stored {record['scores']}")
    if ranks != list(record["ranks"]):
        problems.append(f"ranks {ranks} != stored {record['ranks']}")
    return problems
