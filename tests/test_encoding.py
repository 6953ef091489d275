"""Every engine's fixed action numbering and observation tensor (engines/<game>/encoding.py).

Random play-outs at every player count: the ids of each legal list are unique and inside
``range(num_actions)``, every id maps back to its action, and the tensor has the declared
size, finite values, and depends on the observation only (the leak test in
``engines.testing.check_contract`` compares it across ``determinize``). Each README lists
the generated layout.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import engines
from engines.base import IllegalAction, action_of_id, legal_ids
from engines.encodingkit import action_table, slice_table
from engines.testing import random_playout

ROOT = Path(__file__).resolve().parent.parent
CASES = [
    (name, players)
    for name in engines.names()
    for players in range(engines.get(name).min_players, engines.get(name).max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_ids_are_unique_in_range_and_round_trip(name: str, players: int) -> None:
    engine = engines.get(name)
    encoding = engines.encoding(name, players)
    assert encoding.size == sum(length for _, length, _ in encoding.slices)
    seen: set[int] = set()
    for seed in range(3):

        def per_step(state: engines.base.State) -> None:
            seat = state.to_move()
            assert seat is not None
            observation = state.observation(seat)
            legal = state.legal_actions()
            ids = legal_ids(encoding, observation, legal)
            assert len(set(ids)) == len(ids), f"two legal actions share an id: {legal}"
            assert all(0 <= i < encoding.num_actions for i in ids)
            seen.update(ids)
            for action, action_id in zip(legal, ids, strict=True):
                assert action_of_id(encoding, observation, legal, action_id) == action
            for viewer in range(players):
                tensor = encoding.tensor(state.observation(viewer))
                assert tensor.shape == (encoding.size,) and tensor.dtype == np.float32
                assert np.isfinite(tensor).all()

        random_playout(engine, players, seed, each_step=per_step)
    assert len(seen) > 5  # the play-outs used many different ids


@pytest.mark.parametrize("players", [1, 2, 3])
def test_little_everdell_with_the_prince(players: int) -> None:
    """The automa is one more participant in the tensor, and never moves."""
    engine = engines.get("little-everdell")
    options = {"opponent": "prince"}
    encoding = engines.encoding("little-everdell", players, options)

    def per_step(state: engines.base.State) -> None:
        observation = state.observation(state.to_move() or 0)
        assert len(observation["players"]) == players + 1
        ids = legal_ids(encoding, observation, state.legal_actions())
        assert len(set(ids)) == len(ids)
        assert encoding.tensor(observation).shape == (encoding.size,)

    random_playout(engine, players, 5, options, each_step=per_step)


def test_an_id_no_legal_action_has_is_illegal() -> None:
    state = engines.get("cat-yard").new_game(2, 1, engines.get("cat-yard").check(2, {}))
    encoding = engines.encoding("cat-yard", 2)
    observation = state.observation(0)
    used = set(legal_ids(encoding, observation, state.legal_actions()))
    free = next(i for i in range(encoding.num_actions) if i not in used)
    with pytest.raises(IllegalAction):
        action_of_id(encoding, observation, state.legal_actions(), free)


def test_the_tensor_changes_with_the_observation() -> None:
    """Not a constant: two seats, or two moments, give different tensors."""
    for name in engines.names():
        engine = engines.get(name)
        players = max(2, engine.min_players)
        encoding = engines.encoding(name, players)
        state = engine.new_game(players, 3, engine.check(players, {}))
        first = encoding.tensor(state.observation(0))
        rng = random.Random(0)
        for _ in range(5):
            if state.to_move() is None:
                break
            state.apply_index(rng.randrange(len(state.legal_actions())))
        assert not np.array_equal(first, encoding.tensor(state.observation(0))), name


@pytest.mark.parametrize("name", engines.names())
def test_readme_lists_the_layout(name: str) -> None:
    engine = engines.get(name)
    counts = range(engine.min_players, engine.max_players + 1)
    made = {p: engines.encoding(name, p) for p in counts}
    readme = (ROOT / "engines" / name.replace("-", "_") / "README.md").read_text()
    assert slice_table({p: e.slices for p, e in made.items()}) in readme
    blocks = {p: e.space.blocks for p, e in made.items()}  # type: ignore[attr-defined]
    assert action_table(blocks) in readme
