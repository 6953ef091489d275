"""Write the known answers of every engine: a golden play-through and perft counts.

    python -m tests.golden.make_golden

Run it on purpose after a rules change (and bump the engine's ``version``); the test
``tests/test_golden.py`` diffs the engines against these files.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import engines
from engines.base import State

HERE = Path(__file__).resolve().parent
SEED = 20261129
PERFT_DEPTH = 3


def digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play_through(name: str, players: int) -> list[list[Any]]:
    """Per step: seat to move, legal count, digest of (observation, legal), chosen index."""
    state = engines.get(name).new_game(players, SEED, {})
    rng = random.Random(SEED)
    steps: list[list[Any]] = []
    while (seat := state.to_move()) is not None:
        legal = state.legal_actions()
        index = rng.randrange(len(legal))
        steps.append([seat, len(legal), digest([state.observation(seat), legal]), index])
        state.apply(legal[index])
    result = state.result()
    steps.append(["end", result.scores, result.ranks])
    return steps


def perft(state: State, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` (shorter if the game ends)."""
    if depth == 0 or state.to_move() is None:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def known_answers(name: str) -> dict[str, Any]:
    engine = engines.get(name)
    players = max(2, engine.min_players)
    return {
        "engine": name,
        "version": engine.version,
        "players": players,
        "seed": SEED,
        "perft": [perft(engine.new_game(players, SEED + s, {}), PERFT_DEPTH) for s in range(3)],
        "play_through": play_through(name, players),
    }


def path_for(name: str) -> Path:
    return HERE / f"{name}.json"


def main() -> None:
    for name in engines.names():
        data = known_answers(name)
        path_for(name).write_text(json.dumps(data, separators=(",", ":")) + "\n")
        print(f"{path_for(name)}: {len(data['play_through'])} steps, perft {data['perft']}")


if __name__ == "__main__":
    main()
