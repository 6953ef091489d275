"""Seeded random play-outs, contract checks per variant, determinize, replay, bot strength."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from arena.game.local import play_local
from bots import little_everdell_greedy as greedy
from bots import random as random_bot
from engines.little_everdell import LittleEverdellEngine
from engines.little_everdell.data import ALL_UIDS, MAIN_DECK
from engines.little_everdell.rules import LittleEverdellState, score_parts
from engines.testing import check_contract, new_game

ENGINE = LittleEverdellEngine()  # its own type: the tests read the state's fields


#: (players, options) for every mode and variant of the issue.
VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (1, {"opponent": "prince"}),
    (1, {"opponent": "princess"}),
    (2, {"opponent": "prince"}),
    (3, {"opponent": "prince"}),
    (1, {"opponent": "princess", "automa_first": True, "automa_captain_fort": True}),
    (1, {"automa_instant_parades": True, "start_bonus": [0], "start_fort": [0]}),
    (4, {"start_bonus": [0, 3], "start_captain": [0, 1, 2, 3], "start_fort": [0, 1, 2, 3]}),
    (3, {"opponent": "prince", "automa_captain_fort": True, "start_captain": [0, 1, 2]}),
]
IDS = [f"{p}p-{'-'.join(sorted(o)) or 'default'}" for p, o in VARIANTS]


@pytest.mark.parametrize(("players", "options"), VARIANTS[3:], ids=IDS[3:])
def test_contract_for_variant(players: int, options: dict[str, Any]) -> None:
    check_contract(ENGINE, players, options, seeds=range(3))


def check_invariants(state: LittleEverdellState) -> None:
    """Every card accounted for once; no negative resources."""
    areas = [uid for p in state.players for uid in p.cards]
    meadow = [uid for uid in state.meadow if uid is not None]
    main = sorted([u for u in areas if u in MAIN_DECK] + meadow + state.deck)
    assert main == sorted(MAIN_DECK)
    handicap = [u for u in areas if u not in MAIN_DECK]
    assert len(handicap) == len(set(handicap)) and set(handicap) <= set(ALL_UIDS)
    for player in state.players:
        assert min(player.res) >= 0 and player.tokens >= 0 and 0 <= player.friends <= 3


@pytest.mark.parametrize(("players", "options"), VARIANTS, ids=IDS)
def test_random_playouts(players: int, options: dict[str, Any]) -> None:
    for seed in range(80):
        state = new_game(ENGINE, players, seed, options)
        state.log.trim_at = 0  # keep the whole history: the automa turns are counted
        rng = random.Random(seed)
        places: Counter[int] = Counter()
        while (seat := state.to_move()) is not None:
            legal = state.legal_actions()
            assert 1 <= len(legal) <= 17  # 3 top spaces + 4 dice + 10 red cards at most
            if state.stack[-1][0] == "place":
                places[seat] += 1
                assert state.players[seat].friends > 0
            state.apply(legal[rng.randrange(len(legal))])
            check_invariants(state)
        check_invariants(state)
        assert state.round == 4 and state.turn == 3 * state.n
        assert places == dict.fromkeys(range(players), 12)
        automa_turns = [e for e in state.log if e["type"] == "automa"]
        assert len(automa_turns) == (12 if state.automa else 0)
        if state.automa:
            assert len(state.players[state.n - 1].cards) - (2 if _has_cf(options) else 0) == 12
        result = state.result()
        for seat, part in enumerate(result.detail["breakdown"]):
            total = sum(v for k, v in part.items() if k != "total")
            assert part["total"] == total == score_parts(state.players[seat])["total"]
        assert result.scores == [p["total"] for p in result.detail["breakdown"][:players]]


def _has_cf(options: dict[str, Any]) -> bool:
    return bool(options.get("automa_captain_fort"))


def test_determinize_reshuffles_deck_and_future_dice() -> None:
    state = new_game(ENGINE, 3, 11, {})
    assert isinstance(state, LittleEverdellState)
    rng = random.Random(5)
    twins = [state.determinize(0, rng) for _ in range(5)]
    assert any(t.deck != state.deck for t in twins)
    assert all(sorted(t.deck) == sorted(state.deck) for t in twins)
    assert all(t.observation(0) == state.observation(0) for t in twins)
    rolls = {tuple(t.rng.randint(1, 6) for _ in range(6)) for t in twins}
    assert len(rolls) > 1


def test_seed_and_moves_replay_to_the_same_result() -> None:
    options = {"opponent": "prince"}
    state = new_game(ENGINE, 3, 42, options)
    rng = random.Random(42)
    moves = []
    while state.to_move() is not None:
        legal = state.legal_actions()
        moves.append(rng.randrange(len(legal)))
        state.apply(legal[moves[-1]])
    replay = new_game(ENGINE, 3, 42, options)
    for index in moves:
        replay.apply(replay.legal_actions()[index])
    assert replay.result() == state.result()
    assert replay.observation(1) == state.observation(1)


def test_greedy_clearly_beats_random() -> None:
    wins = 0
    games = 0
    for seed in range(20):
        for greedy_seat in (0, 1):
            policies = [random_bot.choose, random_bot.choose]
            policies[greedy_seat] = greedy.choose
            result = play_local("little-everdell", policies, seed)
            wins += result.ranks[greedy_seat] == 1
            games += 1
    assert wins / games >= 0.9  # measured 0.998 over 200 blocks


def test_greedy_beats_the_automa_more_often_than_random() -> None:
    rates = {}
    for name, policy in (("greedy", greedy.choose), ("random", random_bot.choose)):
        won = 0
        for seed in range(30):
            for opponent in ("prince", "princess"):
                result = play_local("little-everdell", [policy], seed, {"opponent": opponent})
                won += result.detail["bot_won"]
        rates[name] = won / 60
    assert rates["greedy"] >= rates["random"] + 0.5  # measured about 0.92 vs 0.07 (200 seeds)
