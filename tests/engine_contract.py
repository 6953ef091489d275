"""Checks every engine must pass; engine test modules call these for their variants too."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from engines.base import Engine, IllegalAction, State


def _json_roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def random_playout(
    engine: Engine,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    max_steps: int = 20_000,
    max_legal: int = 2_000,
    each_step: Callable[[State], None] | None = None,
) -> tuple[State, list[int]]:
    """Play a seeded random game, checking the per-step contract; return state and moves."""
    state = engine.new_game(players, seed, dict(options or {}))
    rng = random.Random(seed * 7919 + players)
    moves: list[int] = []
    while (seat := state.to_move()) is not None:
        assert 0 <= seat < players
        assert len(moves) < max_steps, f"game did not end in {max_steps} steps"
        legal = state.legal_actions()
        assert legal, "empty legal list while a seat is to move"
        assert len(legal) <= max_legal, f"legal list of {len(legal)} actions"
        if each_step is not None:
            each_step(state)
        index = rng.randrange(len(legal))
        moves.append(index)
        state.apply(legal[index])
    return state, moves


def check_contract(
    engine: Engine,
    players: int,
    options: Mapping[str, Any] | None = None,
    seeds: range = range(4),
) -> None:
    """Ends, JSON-ready, deterministic, clone-independent, no leaks, replayable, strict apply."""
    for seed in seeds:
        leak_rng = random.Random(seed)

        def per_step(state: State, leak_rng: random.Random = leak_rng) -> None:
            legal = state.legal_actions()
            assert _json_roundtrip(legal) == legal
            seat = state.to_move()
            assert seat is not None
            obs = state.observation(seat)
            assert _json_roundtrip(obs) == obs
            if leak_rng.random() < 0.15:
                for viewer in range(players):
                    before = state.observation(viewer)
                    twin = state.determinize(viewer, leak_rng)
                    assert twin.observation(viewer) == before, f"leak for seat {viewer}"
                    assert twin.legal_actions() == legal or twin.to_move() != viewer
                    assert state.observation(viewer) == before, "determinize changed the state"
                twin = state.clone()
                twin.apply(legal[-1])
                assert state.observation(seat) == obs, "clone shares state with its original"
                assert state.legal_actions() == legal

        state, moves = random_playout(engine, players, seed, options, each_step=per_step)
        result = state.result()
        assert len(result.scores) == players and len(result.ranks) == players
        assert min(result.ranks) == 1
        assert all(1 <= r <= players for r in result.ranks)
        assert _json_roundtrip(result.to_json()) == result.to_json()
        assert isinstance(state.render(None), str)
        for viewer in range(players):
            assert _json_roundtrip(state.observation(viewer)) == state.observation(viewer)

        replay = engine.new_game(players, seed, dict(options or {}))
        for index in moves:
            replay.apply(replay.legal_actions()[index])
        assert replay.to_move() is None
        assert replay.result() == result, "seed + moves did not replay to the same result"

        with pytest.raises(IllegalAction):
            state.apply({"type": "no-such-action"})

        fresh = engine.new_game(players, seed, dict(options or {}))
        with pytest.raises(IllegalAction):
            fresh.apply({"type": "no-such-action"})
        assert isinstance(fresh.describe(fresh.legal_actions()[0]), str)
        assert isinstance(fresh.render(fresh.to_move()), str)
