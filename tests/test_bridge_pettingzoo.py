"""The PettingZoo export (arena/bridges/pettingzoo.py): PettingZoo's own API and seed tests
for every engine and player count, the arena's deals, and the arena's game itself."""

from __future__ import annotations

import contextlib
import io
import random
import sys
import warnings

import numpy as np
import pytest
import trio

import engines
from arena.errors import MissingExtra
from arena.game.local import play_specs
from arena.game.spec import GameSpec
from arena.sdk import Choose
from bots import random as random_bot
from engines.base import legal_ids

pytest.importorskip("pettingzoo", reason="the [pettingzoo] extra is not installed")

from pettingzoo.test import api_test, seed_test

from arena.bridges.pettingzoo import ArenaEnv, env

CASES = [
    (name, players)
    for name in engines.names()
    for players in range(engines.get(name).min_players, engines.get(name).max_players + 1)
]
IDS = [f"{n}-{p}p" for n, p in CASES]


def _quiet(check: object, *args: object, **kwargs: object) -> None:
    """Run one of PettingZoo's tests without its prints and its advice warnings
    ("Observation is not a NumPy array": a dict with an action mask, as its classic games)."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore", UserWarning)
        check(*args, **kwargs)  # type: ignore[operator]


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_pettingzoo_api_and_seed_tests(name: str, players: int) -> None:
    _quiet(api_test, env(name, players), num_cycles=1000)
    _quiet(seed_test, lambda: env(name, players), num_cycles=1000)


def test_reset_with_a_seed_deals_the_arenas_game() -> None:
    for name in engines.names():
        players = max(2, engines.get(name).min_players)
        made = env(name, players)
        made.reset(seed=11)
        engine = engines.get(name)
        table = engine.new_game(players, 11, engine.check(players, {}))
        assert made.state is not None
        assert made.state.render(None) == table.render(None), name


def _arena_random_games(name: str, players: int, seeds: range) -> list[list[float]]:
    names = tuple(f"r{seat}" for seat in range(players))
    specs = [GameSpec(f"g{seed}", 0, seed, 0, seed, names) for seed in seeds]
    choosers = dict.fromkeys(names, random_bot.choose)
    engine = engines.get(name)
    records = trio.run(play_specs, engine, engine.check(players, {}), specs, choosers)
    return [[seat.score for seat in record.seats] for record in records]


def _env_game(made: ArenaEnv, seed: int, pick: random.Random) -> list[float]:
    """Play one game with a uniformly random choice among the masked ids."""
    made.reset(seed=seed)
    for agent in made.agent_iter():
        observation, _, termination, truncation, _ = made.last()
        if termination or truncation:
            made.step(None)
            continue
        ids = np.flatnonzero(observation["action_mask"])
        made.step(int(ids[pick.randrange(len(ids))]))
        del agent
    assert made.state is not None
    return list(made.state.result().scores)


def test_the_export_replays_the_arenas_games() -> None:
    """The arena's moves (indices into legal lists), given as ids, end in the same result."""
    for name in ("cat-yard", "good-boy", "space-five"):
        names = ("a", "b")
        specs = [GameSpec(f"g{seed}", 0, seed, 0, seed, names) for seed in range(3)]
        engine = engines.get(name)
        records = trio.run(
            play_specs, engine, engine.check(2, {}), specs, dict.fromkeys(names, random_bot.choose)
        )
        made = env(name, 2)
        for record in records:
            made.reset(seed=record.seed)
            for index in record.moves:
                state = made.state
                assert state is not None
                seat = state.to_move()
                assert seat is not None and made.agent_selection == f"player_{seat}"
                legal = state.legal_actions()
                made.step(legal_ids(made.encoding, state.observation(seat), legal)[index])
            assert made.state is not None and made.state.to_move() is None
            assert list(made.state.result().scores) == [seat.score for seat in record.seats]


def _ks_statistic(a: list[float], b: list[float]) -> float:
    """The two-sample Kolmogorov-Smirnov distance between two samples."""
    points = sorted(set(a) | set(b))
    sa, sb = np.sort(a), np.sort(b)
    cdf_a = np.searchsorted(sa, points, side="right") / len(a)
    cdf_b = np.searchsorted(sb, points, side="right") / len(b)
    return float(np.max(np.abs(cdf_a - cdf_b)))


# Good Boy's 150 games take about 4 s of CPU: run with -m slow
@pytest.mark.parametrize("name", ["cat-yard", pytest.param("good-boy", marks=pytest.mark.slow)])
def test_a_random_policy_scores_as_the_arenas_random_bot(name: str) -> None:
    """Same seeds, same distribution of seat 0's score (two-sample KS test at the 0.1 %
    level); a policy that always takes the first legal action is told apart by the same
    test, so it has the power to see a different game."""
    seeds = range(150)
    arena = [scores[0] for scores in _arena_random_games(name, 2, seeds)]
    made, pick = env(name, 2), random.Random(1)
    export = [_env_game(made, seed, pick)[0] for seed in seeds]
    critical = 1.95 * np.sqrt(2 / len(seeds))  # c(0.001) * sqrt((n + m) / (n m))
    assert _ks_statistic(arena, export) < critical

    first = []
    for seed in seeds:
        made.reset(seed=seed)
        for _ in made.agent_iter():
            observation, _, termination, truncation, _ = made.last()
            ids = np.flatnonzero(observation["action_mask"])
            made.step(None if termination or truncation else int(ids[0]))
        assert made.state is not None
        first.append(made.state.result().scores[0])
    assert _ks_statistic(arena, first) > critical


def test_only_the_seat_to_move_has_a_mask_and_each_seat_its_own_tensor() -> None:
    made = env("space-five", 3)
    made.reset(seed=2)
    seen = {agent: made.observe(agent) for agent in made.agents}
    mover = made.agent_selection
    for agent, observation in seen.items():
        assert observation["action_mask"].any() == (agent == mover)
    tensors = [observation["observation"] for observation in seen.values()]
    assert not np.array_equal(tensors[0], tensors[1])  # own seat, own hand


def test_an_id_outside_the_mask_is_refused() -> None:
    made = env("cat-yard", 2)
    made.reset(seed=1)
    observation, *_ = made.last()
    outside = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(engines.base.IllegalAction):
        made.step(outside)


def test_without_pettingzoo_the_bridge_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "arena.bridges.pettingzoo")
    with pytest.raises(MissingExtra) as caught:
        import arena.bridges.pettingzoo  # noqa: F401
    message = str(caught.value)
    assert "\n" not in message and "pip install" in message and "[pettingzoo]" in message


def _learned_against_random(games: int, blocks: int) -> list[int]:
    """Ranks of a value table learned in ``games`` PettingZoo games, playing the arena's
    random bot in-process in ``blocks`` seat-rotated blocks of Cat Yard."""
    from arena.game.spec import block_games, block_seed
    from bots.pz_values import Policy, train

    values = train("cat-yard", 2, games)
    names = ("learned", "random")
    specs = [s for b in range(blocks) for s in block_games(0, names, b, block_seed(5, 2, b))]
    engine = engines.get("cat-yard")
    choosers: dict[str, Choose] = {"learned": Policy(values), "random": random_bot.choose}
    records = trio.run(play_specs, engine, engine.check(2, {}), specs, choosers)
    return [seat.rank for record in records for seat in record.seats if seat.bot == "learned"]


def test_a_table_learned_in_pettingzoo_plays_in_the_arena() -> None:
    ranks = _learned_against_random(games=30, blocks=3)
    assert len(ranks) == 6 and set(ranks) <= {1, 2}


@pytest.mark.slow
def test_a_table_learned_in_pettingzoo_beats_the_random_bot() -> None:
    """1,000 training games; 200 arena games: wins well above half (z > 3)."""
    ranks = _learned_against_random(games=1000, blocks=100)
    wins = sum(1 for rank in ranks if rank == 1)
    assert (wins - len(ranks) / 2) / np.sqrt(len(ranks) / 4) > 3
