"""Good Boy: the spec's rule scenarios (S1-S14), invariants over random play-outs, chance,
hidden information, replay, and the greedy bot's margin over random."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from arena.game.local import play_local
from arena.sdk import Choose
from bots import good_boy_greedy
from bots import random as random_bot
from engines.base import IllegalAction, OptionError, derive_rng
from engines.good_boy import GoodBoyEngine, data
from engines.good_boy.data import DOG_CARDS, TOKENS_PER_KIND
from engines.good_boy.rules import (
    CLAIM,
    DOGS,
    DONE,
    KIND_INDEX,
    KINDS,
    NK,
    ROLL,
    STOP,
    TAKE,
    Dog,
    GoodBoyState,
    Phase,
    steal_action,
)
from engines.testing import check_contract, new_game

ENGINE = GoodBoyEngine()  # its own type: the tests read the state's fields

B, S, L, D, T, F = "bone", "stick", "ball", "duck", "treat", "frisbee"
BULLDOG, PUG, CHIHUAHUA = 21, 4, 1


# -- helpers -----------------------------------------------------------------------------


class ScriptedDice:
    """Stands in for the state's RNG: hands out the given die faces in order."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)

    def randrange(self, n: int) -> int:
        assert n == 6
        return self.faces.pop(0)


def new(players: int = 3, seed: int = 0, **options: Any) -> GoodBoyState:
    state = new_game(ENGINE, players, seed, options)
    assert isinstance(state, GoodBoyState)
    return state


def counts(items: Mapping[str, int]) -> list[int]:
    vec = [0] * NK
    for kind, n in items.items():
        vec[KIND_INDEX[kind]] = n
    return vec


def give(state: GoodBoyState, target: list[int], items: Mapping[str, int]) -> None:
    """Move tokens from the pool into ``target`` (a hand or a corner)."""
    for kind, n in items.items():
        k = KIND_INDEX[kind]
        assert state.pool[k] >= n
        state.pool[k] -= n
        target[k] += n


def arrange(
    state: GoodBoyState,
    boards: Mapping[int, int] | None = None,
    claimed: Mapping[int, list[int]] | None = None,
) -> None:
    """Put chosen dogs on boards / in players' hands; every other dog stays in the deck
    (in its order), and boards not named keep a dog, so all 28 stay accounted for."""
    boards = dict(boards or {})
    claimed = dict(claimed or {})
    used = set(boards.values()) | {d for dogs in claimed.values() for d in dogs}
    rest = [d for d in [*state.boards, *state.deck] if d is not None and d not in used]
    for b in range(3):
        state.boards[b] = boards[b] if b in boards else rest.pop(0)
    state.deck = rest
    for seat, dogs in claimed.items():
        state.claimed[seat] = list(dogs)


def dice(state: GoodBoyState, *faces: int) -> None:
    state.rng = ScriptedDice(faces)  # type: ignore[assignment]


def at_assign(state: GoodBoyState, hand: Mapping[str, int]) -> None:
    """The active player has rolled once and stopped, holding ``hand``."""
    give(state, state.hands[state.current], hand)
    state.rolls = 1
    state.phase = Phase.ASSIGN


def assign(kind: str, board: int) -> dict[str, Any]:
    return {"type": "assign", "item": kind, "board": board}


def play_quiet_turn(state: GoodBoyState) -> None:
    """The active player rolls a bone and a stick, stops, assigns nothing."""
    dice(state, 2, 2)
    for action in (ROLL, STOP, DONE):
        state.apply(action)


def token_totals(state: GoodBoyState) -> list[int]:
    return [
        state.pool[k]
        + sum(hand[k] for hand in state.hands)
        + sum(corner[k] for board in state.corners for corner in board)
        for k in range(NK)
    ]


def dog_total(state: GoodBoyState) -> list[int]:
    on_boards = [d for d in state.boards if d is not None]
    return sorted([*state.deck, *on_boards, *(d for dogs in state.claimed for d in dogs)])


# -- S1-S14: the spec's rule scenarios ---------------------------------------------------


def test_s1_patryk_claims_the_bulldog() -> None:
    state = new()
    arrange(state, boards={1: BULLDOG})
    next_dog = state.deck[0]
    deck_size = len(state.deck)
    at_assign(state, {B: 1, S: 1, D: 1, L: 2})
    for kind in (B, S, D, L, L):
        state.apply(assign(kind, 1))
    state.apply(DONE)
    assert state.legal_actions() == [CLAIM[1]]
    state.apply(CLAIM[1])
    assert state.pool == [TOKENS_PER_KIND] * NK  # all 5 tokens back
    assert state.corners[1][0] == [0] * NK
    assert state.claimed[0] == [BULLDOG]
    assert state.score(0) == 4
    assert state.boards[1] == next_dog
    assert len(state.deck) == deck_size - 1
    assert state.cat_side[0] is False
    assert state.to_move() == 1


def test_s2_extra_tokens_are_discarded_too() -> None:
    state = new()
    arrange(state, boards={1: BULLDOG})
    give(state, state.corners[1][0], {T: 1, L: 1})
    at_assign(state, {B: 1, S: 1, D: 1, L: 1})
    for kind in (B, S, D, L):
        state.apply(assign(kind, 1))
    state.apply(DONE)
    assert state.corners[1][0] == counts({B: 1, S: 1, D: 1, L: 2, T: 1})
    assert state.legal_actions() == [CLAIM[1]]
    state.apply(CLAIM[1])
    assert state.pool == [TOKENS_PER_KIND] * NK  # all 6, the treat included


def test_s3_first_cat_only_flips() -> None:
    state = new()
    dice(state, 0, 4)
    state.apply(ROLL)
    assert state.cat_side[0] is True
    assert state.hands[0] == counts({B: 1, T: 1})
    assert state.rolls == 1
    assert state.legal_actions() == [ROLL, STOP]
    assert state.observation(1)["sides"] == ["cat", "dog", "dog"]


def test_s4_second_cat_busts_and_carried_tokens_are_lost() -> None:
    state = new()
    state.cat_side[0] = True
    state.rolls = 1
    give(state, state.hands[0], {L: 2, S: 1})
    give(state, state.corners[0][0], {B: 1})
    dice(state, 3, 0)
    state.apply(ROLL)
    assert state.hands[0] == [0] * NK
    assert state.pool == counts({B: 9, S: 10, L: 10, D: 10, T: 10, F: 10})  # ball not collected
    assert state.corners[0][0] == counts({B: 1})
    assert state.cat_side[0] is False
    assert state.to_move() == 1
    assert state.phase is Phase.ROLL and state.rolls == 0
    assert state.observation(1)["events"][-1] == {
        "type": "bust",
        "seat": 0,
        "lost": counts({L: 2, S: 1}),
    }


def test_s5_double_cat_on_the_first_roll_flips_then_busts() -> None:
    state = new()
    give(state, state.hands[0], {D: 1})
    dice(state, 0, 0)
    state.apply(ROLL)
    assert state.hands[0] == [0] * NK
    assert state.pool == [TOKENS_PER_KIND] * NK
    assert state.to_move() == 1
    kinds = [event["type"] for event in state.observation(0)["events"]]
    assert kinds == ["roll", "flip", "bust"]


def test_s6_hard_variant_ignores_first_roll_cats_then_any_cat_busts() -> None:
    state = new(variant="hard")
    dice(state, 0, 1, 2, 3, 5, 0)
    state.apply(ROLL)  # cat ignored, "any" face to resolve
    assert state.legal_actions() == list(TAKE)
    state.apply(TAKE[KIND_INDEX[L]])
    assert state.hands[0] == counts({L: 1})
    state.apply(ROLL)
    assert state.hands[0] == counts({L: 1, B: 1, D: 1})
    state.apply(ROLL)  # treat + frisbee, cat: bust
    assert state.hands[0] == [0] * NK
    assert state.pool == [TOKENS_PER_KIND] * NK  # no treat or frisbee collected
    assert state.to_move() == 1
    assert state.observation(0)["sides"] is None


def test_s6b_hard_variant_double_cat_on_first_roll_is_ignored() -> None:
    state = new(variant="hard")
    dice(state, 0, 0)
    state.apply(ROLL)
    assert state.to_move() == 0
    assert state.legal_actions() == [ROLL, STOP]


def test_s7_steal_when_the_pool_is_out() -> None:
    state = new()
    give(state, state.corners[2][1], {L: 1})
    give(state, state.corners[0][2], {L: 2})
    give(state, state.hands[0], {L: 4})
    give(state, state.corners[1][0], {L: 3})  # own corner: never a steal target
    assert state.pool[KIND_INDEX[L]] == 0
    dice(state, 3, 2)
    state.apply(ROLL)  # die 1's ball is resolved first: a steal, before die 2's stick
    ball = KIND_INDEX[L]
    assert state.observation(0)["pending"] == [L, S]
    assert state.legal_actions() == [steal_action(ball, 2, 1), steal_action(ball, 0, 2)]
    state.apply(steal_action(ball, 0, 2))  # then the stick comes from the pool
    assert state.corners[0][2] == counts({L: 1})
    assert state.hands[0] == counts({L: 5, S: 1})
    assert state.legal_actions() == [ROLL, STOP]
    assert token_totals(state) == [TOKENS_PER_KIND] * NK


def test_s8_nothing_to_steal_gives_nothing() -> None:
    state = new()
    give(state, state.corners[0][0], {F: 2})
    give(state, state.hands[1], {F: 8})  # opponents' hands are never stolen from
    dice(state, 2, 5)
    state.apply(ROLL)
    assert state.hands[0] == counts({B: 1, L: 1})
    assert state.phase is Phase.ROLL
    assert state.legal_actions() == [ROLL, STOP]
    assert {"type": "miss", "item": F, "seat": 0} in state.observation(0)["events"]


def test_s9_only_one_dog_per_turn() -> None:
    state = new()
    arrange(state, boards={0: PUG, 2: CHIHUAHUA})
    give(state, state.corners[0][0], {S: 1, L: 1})
    give(state, state.corners[2][0], {L: 1, T: 1})
    at_assign(state, {})
    state.apply(DONE)
    assert state.legal_actions() == [CLAIM[0], CLAIM[2]]
    state.apply(CLAIM[2])
    assert state.to_move() == 1
    assert state.boards[0] == PUG
    assert state.corners[0][0] == counts({S: 1, L: 1})
    play_quiet_turn(state)
    play_quiet_turn(state)
    dice(state, 2, 2)
    for action in (ROLL, STOP, DONE):  # an empty ASSIGN
        state.apply(action)
    assert state.legal_actions() == [CLAIM[0]]


def test_s10_other_players_tokens_survive_a_replacement() -> None:
    state = new()
    give(state, state.corners[1][2], {B: 1})
    old = state.boards[1]
    assert old is not None
    give(state, state.corners[1][0], dict(zip(KINDS, DOGS[old].needs, strict=True)))
    at_assign(state, {})
    state.apply(DONE)
    state.apply(CLAIM[1])
    assert state.boards[1] not in (None, old)
    assert state.corners[1][2] == counts({B: 1})


def test_s11_deck_exhausted() -> None:
    state = new()
    state.deck = []
    state.current = 1
    dog = state.boards[0]
    assert dog is not None
    give(state, state.corners[0][1], dict(zip(KINDS, DOGS[dog].needs, strict=True)))
    at_assign(state, {})
    state.apply(DONE)
    state.apply(CLAIM[0])
    assert state.boards[0] is None
    assert state.to_move() == 2
    at_assign(state, {B: 1})
    assert state.legal_actions() == [assign(B, 1), assign(B, 2), DONE]
    state.apply(DONE)
    state.boards = [None, None, None]  # the last two dogs are gone too
    play_quiet_turn(state)  # seat 0
    assert state.legal_actions() == [ROLL]
    play_quiet_turn(state)  # seat 1
    play_quiet_turn(state)  # seat 2, the last of the round
    assert state.to_move() is None
    assert state.result().detail["end"] == "no_dogs"


def test_s12_end_of_round_and_tie_break() -> None:
    state = new()
    # seat 1: 16 points with 5 dogs; seat 2: 16 points with 6 dogs
    arrange(state, claimed={1: [22, 23, 24, 5, 6], 2: [25, 26, 7, 8, 9, 10]})
    play_quiet_turn(state)  # seat 0
    assert not state.end_triggered
    play_quiet_turn(state)  # seat 1 ends a turn with 16 points
    assert state.end_triggered
    assert state.to_move() == 2
    play_quiet_turn(state)
    assert state.to_move() is None  # seat 0 gets no further turn
    result = state.result()
    assert result.detail["end"] == "target"
    assert result.scores == [0.0, 16.0, 16.0]
    assert result.ranks == [3, 2, 1]  # seat 2 wins on dogs
    assert result.detail["winners"] == [2]
    assert dog_total(state) == list(range(1, DOG_CARDS + 1))


def test_s12_same_points_and_dogs_share_the_win() -> None:
    state = new()
    arrange(state, claimed={1: [22, 23, 24, 5, 6], 2: [25, 26, 27, 7, 1]})
    result = state.result()
    assert result.ranks == [3, 1, 1]
    assert result.detail["winners"] == [1, 2]


def test_s13_carry_over() -> None:
    state = new()
    arrange(state, boards={0: BULLDOG})
    at_assign(state, {B: 2, S: 1, T: 1})
    state.apply(assign(B, 0))
    state.apply(assign(S, 0))
    state.apply(DONE)
    assert state.to_move() == 1  # board 0 not satisfied: the turn ended
    play_quiet_turn(state)
    play_quiet_turn(state)
    assert state.to_move() == 0 and state.rolls == 0
    assert state.hands[0] == counts({B: 1, T: 1})
    assert token_totals(state) == [TOKENS_PER_KIND] * NK


def test_s14_determinism_and_chance_order() -> None:
    seed = 12
    first, moves = _random_game(3, seed, {})
    second = new(3, seed)
    rolls = _roll_log(second, moves)
    assert rolls == _roll_log(new(3, seed), moves)
    assert second.deck == first.deck
    assert second.result() == first.result()
    # The RNG is consumed as documented: one shuffle of [1..28], then 2 x randrange(6) per roll.
    ref = derive_rng(seed, "good-boy")
    deck = list(range(1, DOG_CARDS + 1))
    ref.shuffle(deck)
    fresh = new(3, seed)
    assert fresh.boards == deck[:3] and fresh.deck == deck[3:]
    assert len(rolls) > 10
    assert rolls == [[ref.randrange(6), ref.randrange(6)] for _ in rolls]


# -- random play-outs --------------------------------------------------------------------


def _random_game(
    players: int, seed: int, options: Mapping[str, Any], check: bool = False
) -> tuple[GoodBoyState, list[int]]:
    """A seeded random game; with ``check``, assert the invariants at every step."""
    state = new(players, seed, **options)
    rng = random.Random(seed)
    moves: list[int] = []
    turn_seat, turn_claims = 0, 0
    while (seat := state.to_move()) is not None:
        legal = state.legal_actions()
        if check:
            assert legal and len(legal) <= 6 * 3 * 3
            assert token_totals(state) == [TOKENS_PER_KIND] * NK
            assert min(state.pool) >= 0 and min(min(h) for h in state.hands) >= 0
            assert dog_total(state) == list(range(1, DOG_CARDS + 1))
            if seat != turn_seat:
                turn_seat, turn_claims = seat, sum(map(len, state.claimed))
            assert sum(map(len, state.claimed)) - turn_claims <= 1, "two dogs in one turn"
        index = rng.randrange(len(legal))
        moves.append(index)
        state.apply(legal[index])
    return state, moves


def _roll_log(state: GoodBoyState, moves: list[int]) -> list[list[int]]:
    """Play ``moves``; return the faces of every roll, read from the roller's event log."""
    rolls = []
    for index in moves:
        seat = state.current
        action = state.legal_actions()[index]
        state.apply(action)
        if action is ROLL:
            rolls.append(state.observation(seat)["events"][0]["faces"])
    return rolls


PLAYOUT_CASES = [
    (players, options)
    for players in (2, 3, 4)
    for options in ({}, {"variant": "hard"}, {"target_points": 8, "max_rounds": 12})
]


@pytest.mark.parametrize(("players", "options"), PLAYOUT_CASES)
def test_random_playouts_keep_the_invariants(players: int, options: dict[str, Any]) -> None:
    for seed in range(35):
        state, _ = _random_game(players, seed, options, check=True)
        result = state.result()
        assert token_totals(state) == [TOKENS_PER_KIND] * NK
        assert dog_total(state) == list(range(1, DOG_CARDS + 1))
        assert result.detail["end"] in ("target", "no_dogs", "max_rounds")
        assert state.round <= state.max_rounds
        for p in range(players):
            assert result.scores[p] == sum(DOGS[d].points for d in state.claimed[p])
            assert result.detail["dogs"][p] == len(state.claimed[p])
        if result.detail["end"] == "target":
            assert max(result.scores) >= state.target


def test_safety_cap_ends_the_game() -> None:
    state = new(2, 3, max_rounds=2)
    while state.to_move() is not None:
        play_quiet_turn(state)
    assert state.round == 2
    assert state.result().detail["end"] == "max_rounds"
    assert state.result().ranks == [1, 1]


# -- contract, hidden information, replay ------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {"variant": "hard"}), (4, {"variant": "hard"}), (3, {"target_points": 5})],
)
def test_contract_for_variants(players: int, options: dict[str, Any]) -> None:
    check_contract(ENGINE, players, options)


def test_determinize_reshuffles_the_deck_and_the_dice() -> None:
    state = new(3, 5)
    twins = [state.determinize(1, random.Random(i)) for i in range(5)]
    assert all(t.observation(s) == state.observation(s) for t in twins for s in range(3))
    assert any(t.deck != state.deck for t in twins)
    assert all(sorted(t.deck) == sorted(state.deck) for t in twins)
    rolls = set()
    for twin in [state.clone(), *twins]:
        twin.apply(ROLL)
        rolls.add(twin.last_roll)
    assert len(rolls) > 1
    assert state.last_roll is None and state.rolls == 0


def test_observation_hides_the_deck_order() -> None:
    state = new(4, 9)
    obs = state.observation(2)
    assert obs["deck_size"] == 25
    assert "deck" not in obs
    assert obs["boards"] == state.boards and obs["boards"] is not state.boards, "dog ids"
    assert "kinds" not in obs and "last_symbols" not in obs, "static data: the engine's tables"
    assert obs["scores"] == [state.score(p) for p in range(4)]
    assert str(state.deck) not in str(obs)
    order = " ".join(map(str, state.deck))
    assert order not in state.render(2) and "deck 25 cards, face down" in state.render(2)
    assert order in " ".join(state.render(None).split())


def test_events_run_from_the_seats_last_action() -> None:
    state = new(3)
    play_quiet_turn(state)  # seat 0: roll, stop, done
    play_quiet_turn(state)  # seat 1
    events = state.observation(0)["events"]
    assert [(e["type"], e["seat"]) for e in events] == [
        ("done", 0),
        ("roll", 1),
        ("gain", 1),
        ("gain", 1),
        ("stop", 1),
        ("done", 1),
    ]
    assert state.observation(1)["events"] == [{"type": "done", "seat": 1}]
    unseen = state.observation(2)["events"]  # seat 2 has not acted yet: everything so far
    assert unseen[0] == {"type": "roll", "seat": 0, "faces": [2, 2]}
    assert unseen[4:] == events


def test_event_log_stays_short_in_long_games() -> None:
    state = new(4, 1)
    rng = random.Random(1)
    longest = 0
    while state.to_move() is not None:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        longest = max(longest, len(state.log))
    assert state.round > 10 and longest < 300


def test_describe_and_render_name_the_table() -> None:
    state = new(3)
    arrange(state, boards={1: BULLDOG})
    assert state.describe(ROLL) == "seat 0 rolls the dice"
    assert state.describe(CLAIM[1]) == "seat 0 claims the Bulldog (4 pts) on board 1"
    assert state.describe(assign(B, 2)) == "seat 0 puts a bone in its corner on board 2"
    assert "from seat 2's corner on board 0" in state.describe(steal_action(0, 0, 2))
    picture = state.render(0)
    assert "#21 Bulldog, 4 pts, needs bone:1 stick:1 ball:2 duck:1" in picture
    assert "seat 0 (you) [dog]" in picture and "deck 25 cards" in picture


def test_seed_and_moves_replay_the_same_game() -> None:
    state, moves = _random_game(4, 77, {"variant": "hard"})
    replay = new(4, 77, variant="hard")
    for index in moves:
        replay.apply_index(index)
    assert replay.result() == state.result()
    assert replay.observation(0) == state.observation(0)
    assert replay.render(None) == state.render(None)


def test_options_and_player_counts_are_checked() -> None:
    with pytest.raises(OptionError):
        new_game(ENGINE, 1, 0, {})
    with pytest.raises(OptionError):
        new_game(ENGINE, 5, 0, {})
    with pytest.raises(OptionError):
        new_game(ENGINE, 2, 0, {"variant": "easy"})
    with pytest.raises(OptionError):
        new_game(ENGINE, 2, 0, {"target_points": 0})
    with pytest.raises(OptionError):
        new_game(ENGINE, 2, 0, {"deck": 3})
    with pytest.raises(IllegalAction):
        new().apply(STOP)  # the first roll is compulsory


# -- data and value types ---------------------------------------------------------------


def test_data_table_matches_the_spec() -> None:
    assert data.ITEM_TOKENS == NK * TOKENS_PER_KIND
    assert len(DOGS) == DOG_CARDS and sorted(DOGS) == list(range(1, DOG_CARDS + 1))
    assert DOGS[BULLDOG].needs == tuple(counts({B: 1, S: 1, D: 1, L: 2}))
    assert all(dog.points == sum(dog.needs) - 1 and max(dog.needs) <= 2 for dog in DOGS.values())
    per_kind = [sum(dog.needs[k] for dog in DOGS.values()) for k in range(NK)]
    assert sum(per_kind) == 106 and all(17 <= n <= 18 for n in per_kind)
    assert sum(dog.points for dog in DOGS.values()) == 78
    assert len(data.DICE) == data.DICE_COUNT
    symbols = [s for die in data.DICE for face in die for s in face]
    assert all(symbols.count(kind) == 2 for kind in KINDS)
    assert symbols.count("cat") == symbols.count("any") == 2
    faces = [(a, b) for a in data.DICE[0] for b in data.DICE[1]]
    assert sum("cat" in a or "cat" in b for a, b in faces) == 11  # P(a cat) = 11/36
    assert sum("cat" in a and "cat" in b for a, b in faces) == 1


def test_dog_json_round_trip() -> None:
    for dog in DOGS.values():
        assert Dog.from_json(dog.to_json()) == dog
    assert DOGS[BULLDOG].to_json() == {
        "id": 21,
        "breed": "Bulldog",
        "points": 4,
        "needs": {B: 1, S: 1, L: 2, D: 1},
    }


# -- chance ------------------------------------------------------------------------------


def test_each_die_face_comes_up_at_its_rate() -> None:
    """60 000 seeded rolls: each face's share is within 0.01 of 1/6 (sigma is ~0.0015), and
    at least one cat shows within 0.01 of 11/36."""
    state = new(2, 2024)
    n = 60_000
    seen = [[0] * 6, [0] * 6]
    any_cat = 0
    for _ in range(n):
        f1, f2 = state._roll()
        seen[0][f1] += 1
        seen[1][f2] += 1
        any_cat += f1 == 0 or f2 == 0
    for die in seen:
        for face in die:
            assert abs(face / n - 1 / 6) < 0.01
    assert abs(any_cat / n - 11 / 36) < 0.01


# -- the greedy bot ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_clearly_beats_random(players: int) -> None:
    wins = games = 0
    for seed in range(12):
        for greedy_seat in range(players):
            policies: list[Choose] = [random_bot.choose] * players
            policies[greedy_seat] = good_boy_greedy.choose
            result = play_local("good-boy", policies, seed)
            wins += result.ranks[greedy_seat] == 1
            games += 1
    assert wins / games >= 0.8
