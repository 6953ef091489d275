"""Observations built from cached parts equal observations built from scratch, and stay as
they were handed out.

cat-yard, good-boy and little-everdell build an observation by copying a template whose
lists are refreshed only when the table changed (and share those lists between
observations); these tests play seeded random games and check, at every decision, every
seat's observation against one from a clone whose caches were dropped, and at the end that
no observation handed out earlier has changed since.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engines
from engines.testing import new_game


def without_caches(state: Any) -> Any:
    """A clone of ``state`` that builds its next observation from scratch."""
    twin = state.clone()
    twin._view = None
    if hasattr(twin, "_players_view"):  # cat-yard
        twin._players_view = None
    if hasattr(twin, "_top_view"):  # little-everdell
        twin._top_view = twin._stacks_view = None
        for player in twin.players:
            player.view = None
    return twin


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        ("cat-yard", 2, {}),
        ("cat-yard", 4, {}),
        ("good-boy", 3, {}),
        ("good-boy", 2, {"variant": "hard"}),
        ("little-everdell", 1, {}),
        ("little-everdell", 3, {"opponent": "prince"}),
    ],
)
def test_cached_observations_equal_fresh_ones_and_never_change(
    name: str, players: int, options: dict[str, Any]
) -> None:
    engine = engines.get(name)
    handed_out: list[tuple[dict[str, Any], str]] = []
    for seed in range(2):
        state = new_game(engine, players, seed, options)
        rng = random.Random(seed)
        while (seat := state.to_move()) is not None:
            for viewer in {seat, rng.randrange(players)}:
                observation = state.observation(viewer)
                assert observation == without_caches(state).observation(viewer)
                handed_out.append((observation, json.dumps(observation, sort_keys=True)))
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            if rng.random() < 0.2:  # a clone plays on: shared caches must not leak back
                twin = state.clone()
                for _ in range(30):
                    if twin.to_move() is None:
                        break
                    moves = twin.legal_actions()
                    twin.observation(twin.to_move() or 0)
                    twin.apply(moves[rng.randrange(len(moves))])
    changed = [
        i for i, (obs, text) in enumerate(handed_out) if json.dumps(obs, sort_keys=True) != text
    ]
    assert not changed, f"{len(changed)} observations changed after they were handed out"
