"""Space Five: seeded random play-outs with invariants, variant contracts, replay, greedy."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from arena.game.local import play_local
from bots import random as random_bot
from bots import space_five_greedy
from engines.space_five import SpaceFiveEngine
from engines.space_five.geometry import DIRECTIONS, frontier_of, run_cells
from engines.space_five.rules import CODES, COPIES, MAX_GROUP, SpaceFiveState
from engines.testing import check_contract, new_game, random_playout

ENGINE = SpaceFiveEngine()  # its own type: the tests read the state's fields

VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (2, {"rounds": 2}),
    (3, {"rounds": 2}),
    (2, {"young": True}),
    (4, {"young": True}),
    (2, {"deal_counts": [49, 12]}),
    (4, {"deal_counts": [24, 20, 10, 3]}),
]


def check_invariants(state: SpaceFiveState) -> None:
    """Cards conserved, every run valid and at most 5 long, frontier cache exact."""
    counts = [0] * CODES
    for cards in (state.layout.values(), *state.hands, *state.stacks, state.box, state.discard):
        for code in cards:
            counts[code] += 1
    assert counts == [COPIES] * CODES
    for x, y in state.layout:
        for dx, dy in DIRECTIONS:
            run = [state.layout[c] for c in run_cells(state.layout, x, y, dx, dy)]
            assert len(run) <= MAX_GROUP and len(set(run)) == len(run)
            assert len({c // 5 for c in run}) == 1 or len({c % 5 for c in run}) == 1
    assert state.frontier == frontier_of(state.layout)
    assert len(state.layout_json) == len(state.layout)
    # the kept text of the observation's layout is the compact JSON of its entries
    assert state.layout_json.json_text == json.dumps(state.layout_json, separators=(",", ":"))


# (players, options, seeds): a short run by default, many more seeds under ``-m slow``
TABLES: list[tuple[int, dict[str, Any], int]] = [
    (1, {}, 30),
    (2, {}, 30),
    (3, {}, 25),
    (4, {}, 25),
    (2, {"rounds": 2}, 10),
    (4, {"young": True}, 20),
]


@pytest.mark.parametrize(
    ("players", "options", "seeds"),
    [(players, options, range(games)) for players, options, games in TABLES]
    + [
        pytest.param(players, options, range(games, 3 * games), marks=pytest.mark.slow)
        for players, options, games in TABLES
    ],
)
def test_random_playouts_keep_invariants(
    players: int, options: dict[str, Any], seeds: range
) -> None:
    for seed in seeds:
        steps = [0]

        def each_step(state: Any, steps: list[int] = steps) -> None:
            steps[0] += 1
            if steps[0] % 7 == 0:
                check_invariants(state)
            if steps[0] % 31 == 0:
                for viewer in range(players):
                    twin = state.determinize(viewer, random.Random(steps[0]))
                    check_invariants(twin)
                    assert twin.observation(viewer) == state.observation(viewer)

        state, _ = random_playout(
            ENGINE, players, seed, options, max_legal=300, each_step=each_step
        )
        assert isinstance(state, SpaceFiveState)
        check_invariants(state)
        result = state.result()
        totals = [sum(r[s] for r in result.detail["round_scores"]) for s in range(players)]
        if players == 1:
            assert result.scores == [float(len(state.discard))] == [float(totals[0])]
        else:
            assert result.scores == [-float(t) for t in totals]
            assert result.detail["end"] in ("out_of_cards", "dead_layout", "stall_cap", "turn_cap")


@pytest.mark.parametrize(("players", "options"), VARIANTS, ids=[str(v) for v in VARIANTS])
def test_contract_for_variants(players: int, options: dict[str, Any]) -> None:
    check_contract(ENGINE, players, options, seeds=range(2))


def test_seed_and_moves_replay_to_same_result() -> None:
    state, moves = random_playout(ENGINE, 3, 42, {"rounds": 2})
    replay = new_game(ENGINE, 3, 42, {"rounds": 2})
    for index in moves:
        replay.apply_index(index)
    assert replay.result() == state.result()
    assert replay.observation(1) == state.observation(1)


def test_greedy_clearly_beats_random() -> None:
    """Over 24 seat-swapped 2-player games greedy must win at least 20 (it won 200/200)."""
    wins = 0
    for seed in range(12):
        for greedy_seat in (0, 1):
            policies = [random_bot.choose, random_bot.choose]
            policies[greedy_seat] = space_five_greedy.choose
            result = play_local("space-five", policies, seed)
            wins += result.ranks[greedy_seat] == 1 and result.ranks[1 - greedy_seat] == 2
    assert wins >= 20


def test_greedy_lowers_the_solo_score() -> None:
    """Solo: greedy's mean discard pile over 10 games is at least 5 below random's."""
    greedy = [play_local("space-five", [space_five_greedy.choose], s).scores[0] for s in range(10)]
    rand = [play_local("space-five", [random_bot.choose], s).scores[0] for s in range(10)]
    assert sum(rand) / 10 - sum(greedy) / 10 >= 5


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_many_random_playouts_slow(players: int) -> None:
    for seed in range(1000, 1400):
        state, _ = random_playout(ENGINE, players, seed, max_legal=300)
        assert isinstance(state, SpaceFiveState)
        check_invariants(state)
