"""The OpenSpiel export (arena/bridges/openspiel.py): OpenSpiel's own random simulation
test for every engine and player count, information states and resampling, and OpenSpiel's
Python ISMCTS bot playing the games."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import engines
from engines.base import OptionError

pyspiel = pytest.importorskip("pyspiel", reason="the [openspiel] extra is not installed")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from arena.bridges.openspiel import short_name  # noqa: E402

# a single random simulation of these takes over a second of CPU (long games, every
# seat's strings and tensors at every step): run with -m slow
SLOW = {("good-boy", 3), ("good-boy", 4), ("if-it-fits", 4), ("if-it-fits", 5)}
CASES = [
    pytest.param(name, players, marks=[pytest.mark.slow] if (name, players) in SLOW else [])
    for name in engines.names()
    for players in range(engines.get(name).min_players, engines.get(name).max_players + 1)
]


def _load(name: str, players: int, **params: object) -> Any:
    return pyspiel.load_game(short_name(name), {"players": players, **params})


@pytest.mark.parametrize(("name", "players"), CASES)
def test_openspiel_random_simulation_test(name: str, players: int) -> None:
    pyspiel.random_sim_test(_load(name, players), num_sims=1, serialize=False, verbose=False)


def test_game_type_and_info() -> None:
    game = _load("cat-yard", 3, options='{"target": 15}')
    kind, info = game.get_type(), game
    assert kind.short_name == "arena_cat_yard"
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    assert info.num_players() == 3
    assert info.num_distinct_actions() == engines.encoding("cat-yard", 3).num_actions
    assert game.observation_tensor_size() == engines.encoding("cat-yard", 3).size
    assert _load("space-five", 1).get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    with pytest.raises(OptionError, match="target"):
        _load("cat-yard", 2, options='{"target": 0}')


def test_a_seed_gives_the_arenas_deal_and_strings_are_the_protocols() -> None:
    game = _load("space-five", 2)
    state = game.new_initial_state_for_seed(7)
    engine = engines.get("space-five")
    table = engine.new_game(2, 7, engine.check(2, {}))
    assert str(state) == table.render(None)
    for seat in range(2):
        assert json.loads(state.observation_string(seat)) == table.observation(seat)
        expected = engines.encoding("space-five", 2).tensor(table.observation(seat))
        assert np.array_equal(np.asarray(state.observation_tensor(seat)), expected)
    assert state.information_state_string(0) != state.information_state_string(1)
    ids = state.legal_actions()
    assert ids == sorted(ids)
    legal = [json.loads(state.action_to_string(state.current_player(), a)) for a in ids]
    assert sorted(map(json.dumps, legal)) == sorted(map(json.dumps, table.legal_actions()))


def test_the_information_state_remembers_what_the_seat_saw() -> None:
    """Two games that reach the same observation by different paths differ in their
    information state (it digests the seat's past observations), not in the observation."""
    game = _load("cat-yard", 2)
    state = game.new_initial_state_for_seed(3)
    before = state.information_state_string(0)
    rng = random.Random(0)
    while state.current_player() != 0 or state.information_state_string(0) == before:
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.information_state_string(0).split(" now ")[0] != before.split(" now ")[0]


@pytest.mark.parametrize("name", engines.names())
def test_resampling_keeps_the_information_state(name: str) -> None:
    players = max(2, engines.get(name).min_players)
    state = _load(name, players).new_initial_state_for_seed(5)
    rng = random.Random(1)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    key = state.information_state_string(seat)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(seat, sampler) for _ in range(5)]
    for sample in samples:
        assert sample.current_player() == seat
        assert sample.information_state_string(seat) == key
        assert sample.legal_actions() == state.legal_actions()
    assert len({str(sample) for sample in samples}) > 1, "the hidden parts were not redrawn"


def _ismcts_game(name: str, decisions: int, simulations: int = 4) -> int:
    """ISMCTS (random roll-outs) in seat 0 against random play; its decisions."""
    players = max(2, engines.get(name).min_players)
    game = _load(name, players)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=np.random.RandomState(2))
    state = game.new_initial_state_for_seed(1)
    rng, made = random.Random(3), 0
    while not state.is_terminal() and made < decisions:
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            made += 1
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    if state.is_terminal():
        assert sum(state.returns()) == pytest.approx(0.0)
    return made


@pytest.mark.parametrize("name", ["cat-yard", "little-everdell"])
def test_openspiel_ismcts_plays_a_whole_game(name: str) -> None:
    assert _ismcts_game(name, decisions=10**6) > 10


@pytest.mark.parametrize("name", engines.names())
def test_openspiel_ismcts_decides(name: str) -> None:
    assert _ismcts_game(name, decisions=3) == 3


@pytest.mark.slow
@pytest.mark.parametrize("name", ["good-boy", "if-it-fits", "space-five"])
def test_openspiel_ismcts_plays_a_whole_long_game(name: str) -> None:
    assert _ismcts_game(name, decisions=10**6) > 10


def test_without_open_spiel_the_bridge_says_what_to_install() -> None:
    """In a fresh interpreter where pyspiel cannot be imported: one line, no traceback of
    OpenSpiel's own."""
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "from arena.errors import MissingExtra\n"
        "try:\n    import arena.bridges.openspiel\n"
        "except MissingExtra as error:\n    print(error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    line = out.stdout.strip()
    assert "\n" not in line and "pip install" in line and "[openspiel]" in line, out
