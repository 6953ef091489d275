"""Cat Yard rule scenarios: spec ``docs/rules/cat-yard.md`` §10 (S1-S16) and more rules.

Decks in the scenarios are written top first, as in the spec; the engine keeps the top of
a pile at the end of its list.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engines.base import IllegalAction
from engines.cat_yard import CatYardEngine
from engines.cat_yard.rules import (
    BAIT_IDS,
    CAT_IDS,
    CAT_POINTS,
    IS_DOG,
    CatYardState,
    Phase,
    can_pay,
)
from engines.testing import new_game

ENGINE = CatYardEngine()  # its own type: the tests read the state's fields

Fields = Sequence[int | None]
EMPTY: Fields = (None, None, None, None)


def table(
    players: int = 4,
    *,
    current: int = 0,
    cushions: Sequence[Fields] | None = None,
    deck: Sequence[int] | None = None,
    discard: Sequence[int] = (),
    yard: Sequence[int] = (30, 31, 32, 29),
    stack: Sequence[int] = (),
    owned: dict[int, Sequence[int]] | None = None,
    protected: Sequence[int] = (),
    round_: int = 1,
) -> CatYardState:
    """A state at the START of ``current``'s turn with exactly the given table.

    ``deck`` and ``stack`` are top first; the default deck is every bait card that is
    not on a cushion or in ``discard``, in id order. Default yard cats cost 4 symbols, so
    they are out of reach unless a test says otherwise.
    """
    state = new_game(ENGINE, players, 0, {})
    rows = cushions if cushions is not None else [EMPTY] * 4
    state.cushions = [[c or 0 for c in row] for row in rows]
    state.protected = [p in protected for p in range(4)]
    if deck is None:
        placed = {c for row in state.cushions for c in row} | set(discard)
        deck = [c for c in BAIT_IDS if c not in placed]
    state.deck = list(reversed(deck))
    state.discard = list(discard)
    state.yard = list(yard)
    state.cat_stack = list(reversed(stack))
    state.cat_discard = []
    state.owned = [list((owned or {}).get(s, ())) for s in range(players)]
    state.used = [False] * len(state.used)
    state.current = current
    state.round = round_
    state.phase = Phase.START
    state.main_action = "none"
    state.revealed = []
    state.swapped_with = []
    state._legal_cache = None
    return state


def types(state: CatYardState) -> list[str]:
    return [a["type"] for a in state.legal_actions()]


def mine(state: CatYardState) -> list[int | None]:
    return [c or None for c in state.cushions[state.seat_pos[state.current]]]


def lures(state: CatYardState) -> list[dict[str, object]]:
    return [a for a in state.legal_actions() if a["type"] == "lure"]


ARROWS = [(40, None, None, None), (41, None, None, None), (42, None, None, None)]


# -- spec §10 scenarios ---------------------------------------------------------------------


def test_s1_michal_dog_on_third_card_busts() -> None:
    state = table(cushions=[EMPTY, *ARROWS], deck=[1, 8, 49, 2, 3])
    state.apply({"type": "gather"})
    assert state.revealed == [1]
    state.apply({"type": "reveal"})
    assert state.revealed == [1, 8]
    state.apply({"type": "reveal"})  # the dog: no ignore_dog tile, so the bust resolves itself
    assert state.discard == [1, 8, 49]
    assert state.revealed == [] and state.pending_dog == 0
    assert mine(state) == [None, None, None, None]
    assert state.phase is Phase.POST
    assert set(types(state)) <= {"swap", "ability", "end_turn"}
    assert types(state)[-1] == "end_turn" and "lure" not in types(state)


def test_s2_marta_first_card_dog_is_ignored() -> None:
    state = table(deck=[50, 15, 1])
    state.apply({"type": "gather"})
    assert state.discard == [50]
    assert state.revealed == [15]
    assert state.phase is Phase.GATHER_DECIDE
    assert {"type": "reveal"} in state.legal_actions()
    assert {"type": "stop"} in state.legal_actions()


def test_s3_monika_two_first_dogs_are_ignored() -> None:
    state = table(deck=[51, 52, 2, 1])
    state.apply({"type": "gather"})
    assert state.discard == [51, 52]
    assert state.revealed == [2]
    assert state.phase is Phase.GATHER_DECIDE
    assert state.history == [0], "no decision may be asked between the dogs"


def _patryk_gathers() -> CatYardState:
    state = table(cushions=[(22, None, None, None), *ARROWS], deck=[1, 9, 16, 23, 2])
    state.apply({"type": "gather"})
    for _ in range(3):
        state.apply({"type": "reveal"})
    state.apply({"type": "stop"})
    return state


def test_s4_patryk_placement_options() -> None:
    state = _patryk_gathers()
    assert state.phase is Phase.PLACE
    assert state.revealed == [1, 9, 16, 23]
    legal = state.legal_actions()
    places = [a for a in legal if a["type"] == "place"]
    replaces = [a for a in legal if a["type"] == "replace"]
    assert len(places) == 12 and {a["field"] for a in places} == {1, 2, 3}
    assert len(replaces) == 4 and {a["field"] for a in replaces} == {0}
    assert legal[-1] == {"type": "done"} and len(legal) == 17


def test_s4a_patryk_discards_one_gathered_card() -> None:
    state = _patryk_gathers()
    for card, field in ((1, 1), (9, 2), (16, 3)):
        state.apply({"type": "place", "card": card, "field": field})
    state.apply({"type": "done"})
    assert mine(state) == [22, 1, 9, 16]
    assert state.discard == [23]
    assert state.phase is Phase.POST


def test_s4b_patryk_replaces_his_old_card() -> None:
    state = _patryk_gathers()
    state.apply({"type": "replace", "card": 1, "field": 0})
    assert state.discard == [22]
    for card, field in ((9, 1), (16, 2), (23, 3)):
        state.apply({"type": "place", "card": card, "field": field})
    assert state.revealed == []
    assert state.phase is Phase.POST, "PLACE ends by itself when every card is placed"
    assert mine(state) == [1, 9, 16, 23]
    assert state.discard == [22]


def test_s5_arrow_field_must_be_filled() -> None:
    state = table(deck=[3, 10, 1])
    state.apply({"type": "gather"})
    state.apply({"type": "reveal"})
    state.apply({"type": "stop"})
    assert state.revealed == [3, 10]
    assert "done" not in types(state)
    state.apply({"type": "place", "card": 3, "field": 2})
    assert "done" not in types(state)
    state.apply({"type": "place", "card": 10, "field": 0})
    assert state.phase is Phase.POST
    assert mine(state) == [10, None, 3, None]
    assert state.discard == []


def test_s6_marta_card_pays_only_one_symbol() -> None:
    cushion = (29, None, None, None)  # milk + food
    state = table(cushions=[cushion, *ARROWS], yard=[9, 23, 25, 30])
    assert lures(state) == []
    state = table(cushions=[(29, 1, None, None), *ARROWS], yard=[9, 23, 25, 30])
    assert {"type": "lure", "slot": 0, "fields": [0, 1], "wilds": []} in lures(state)
    assert not any(a["slot"] == 1 for a in lures(state)), "cat 23 needs milk, milk, food"


def test_s7_patryk_lures_three_cats_in_one_action() -> None:
    state = table(cushions=[(1, 8, 15, 22), *ARROWS], yard=[1, 3, 14, 23], stack=[27, 19, 12, 5])
    state.apply({"type": "lure", "slot": 0, "fields": [0], "wilds": []})
    assert state.yard == [27, 3, 14, 23]
    state.apply({"type": "lure", "slot": 1, "fields": [1], "wilds": []})
    assert state.yard == [27, 19, 14, 23]
    state.apply({"type": "lure", "slot": 2, "fields": [2, 3], "wilds": []})
    assert state.yard == [27, 19, 12, 23]
    assert state.owned[0] == [1, 3, 14] and state.points(0) == 4
    assert mine(state) == [None, None, None, None]
    assert state.discard == [1, 8, 15, 22]
    assert lures(state) == []
    assert state.phase is Phase.POST


def test_s8_swap_arrow_cards() -> None:
    cushions = [(1, None, None, None), (8, None, None, None), (29, None, None, None)]
    state = table(cushions=[*cushions, (15, None, None, None)], protected=[3])
    swaps = {a["target"] for a in state.legal_actions() if a["type"] == "swap"}
    assert swaps == {1, 2}
    state.apply({"type": "swap", "target": 2})
    assert state.cushions[0][0] == 29 and state.cushions[2][0] == 1
    assert {a["target"] for a in state.legal_actions() if a["type"] == "swap"} == {1}
    empty_arrow = table(cushions=[(None, 5, None, None), *cushions[1:], EMPTY])
    assert "swap" not in types(empty_arrow)


ROTATION_TABLE = [(1, 2, None, None), (3, None, None, None), (4, 5, 6, None), (7, 8, 9, 10)]


@pytest.mark.parametrize(
    ("cat", "expected"),
    [(6, [3, 1, 0, 2]), (8, [2, 1, 3, 0])],
    ids=["rotate_left", "rotate_right"],
)
def test_s9_rotation_skips_protected_cushion(cat: int, expected: list[int]) -> None:
    state = table(current=2, cushions=ROTATION_TABLE, owned={2: [cat]}, protected=[1])
    state.apply({"type": "ability", "cat": cat})
    contents = [[c or None for c in row] for row in ROTATION_TABLE]
    assert [[c or None for c in row] for row in state.cushions] == [contents[i] for i in expected]
    assert state.used[cat]


def test_s10_ignore_dog_keeps_revealed_cards() -> None:
    state = table(deck=[1, 53, 8, 2], owned={0: [2]})
    state.apply({"type": "gather"})
    state.apply({"type": "reveal"})
    assert state.phase is Phase.DOG
    assert state.legal_actions() == [{"type": "ignore_dog", "cat": 2}, {"type": "accept_dog"}]
    state.apply({"type": "ignore_dog", "cat": 2})
    assert state.discard == [53] and state.used[2]
    assert state.revealed == [1] and state.phase is Phase.GATHER_DECIDE
    state.apply({"type": "reveal"})
    assert state.revealed == [1, 8]


def test_s11_wild_tile_pays_a_symbol() -> None:
    state = table(cushions=[(15, None, None, None), *ARROWS], yard=[30, 31, 12, 32], owned={0: [5]})
    action = {"type": "lure", "slot": 2, "fields": [0], "wilds": [5]}
    assert action in lures(state)
    state.apply(action)
    assert state.used[5] and state.owned[0] == [5, 12]
    assert state.points(0) == 3
    assert state.discard == [15]


def finish_turn(state: CatYardState) -> None:
    """Play the current seat's turn to its end with simple choices (gather, stop, place)."""
    seat = state.current
    while state.to_move() == seat:
        legal = state.legal_actions()
        for wanted in ("end_turn", "gather", "stop", "done", "accept_dog"):
            if {"type": wanted} in legal:
                state.apply({"type": wanted})
                break
        else:
            state.apply(legal[0])


TEN_POINTS = [27, 28, 9]  # 4 + 4 + 2


def test_s12_end_of_game_round_is_finished() -> None:
    state = table(current=1, owned={1: TEN_POINTS}, round_=6, deck=list(range(1, 40)))
    finish_turn(state)
    assert state.end_triggered and state.current == 2
    finish_turn(state)
    assert state.current == 3 and state.to_move() == 3
    finish_turn(state)
    assert state.to_move() is None
    assert state.round == 6, "P0 gets no further turn"
    result = state.result()
    assert result.ranks[1] == 1 and result.detail["end"] == "target"


def test_s12_last_seat_reaching_target_ends_at_once() -> None:
    state = table(current=3, owned={3: TEN_POINTS}, round_=6, deck=list(range(1, 40)))
    finish_turn(state)
    assert state.to_move() is None
    assert state.result().detail["winners"] == [3]


def test_s12_shared_win() -> None:
    state = table(
        current=3, owned={1: TEN_POINTS, 3: [29, 30, 10], 0: [1]}, round_=6, deck=[1, 2, 3]
    )
    finish_turn(state)
    result = state.result()
    assert result.scores == [1.0, 10.0, 0.0, 10.0]
    assert result.ranks == [3, 1, 4, 1]
    assert result.detail["winners"] == [1, 3]


def test_s13_feeding_an_unowned_cushion_three_players() -> None:
    unowned = (5, 12, None, None)
    state = table(3, current=2, cushions=[*ARROWS, unowned], deck=[54, 33, 1, 2, 3, 4])
    state.phase = Phase.POST
    state.main_action = "gather"
    state.settle()
    state.apply({"type": "end_turn"})
    assert state.discard == [54]
    assert state.cushions[3] == [5, 12, 33, 0]
    assert state.current == 0 and state.round == 2
    before = [list(c) for c in state.cushions]
    finish_turn(state)  # P0: gathers from 1, 2, 3 (no dog) and places nothing new elsewhere
    finish_turn(state)  # P1
    assert state.cushions[3] == before[3], "no feeding after P0's or P1's turns"


def test_s13_feeding_two_players_each_turn_feeds_one_cushion() -> None:
    state = table(2, cushions=[(40, None, None, None), EMPTY, (41, None, None, None), EMPTY])
    state.deck = list(reversed(list(range(1, 30))))
    finish_turn(state)  # seat 0 at position 0 -> position 1 is fed
    assert state.cushions[1][0] != 0 and state.cushions[3] == [0, 0, 0, 0]
    finish_turn(state)  # seat 1 at position 2 -> position 3 is fed
    assert state.cushions[3][0] != 0 and state.cushions[1][1:] == [0, 0, 0]


def test_s13_full_unowned_cushion_draws_nothing() -> None:
    state = table(3, current=2, cushions=[*ARROWS, (5, 6, 7, 8)], deck=[54, 33])
    state.phase = Phase.POST
    state.main_action = "gather"
    state.settle()
    state.apply({"type": "end_turn"})
    assert state.cushions[3] == [5, 6, 7, 8]
    assert state.deck == [33, 54] and state.discard == []


def test_s14_reshuffle_of_the_discard_pile_with_dogs() -> None:
    for seed in range(100):
        state = table(deck=[], discard=[2, 49, 10])
        state.rng = random.Random(seed)
        reference = [2, 49, 10]
        random.Random(seed).shuffle(reference)
        state.apply({"type": "gather"})
        if reference[-1] == 49:
            break
    else:  # pragma: no cover
        pytest.fail("no seed put the dog on top")
    # The dog came first: discarded, then the next card revealed.
    assert state.discard == [49]
    assert state.revealed == [reference[-2]]
    assert state.deck == reference[:-2]


def test_s14_reshuffle_matches_python_reference() -> None:
    state = table(deck=[], discard=[2, 49, 10])
    state.rng = random.Random(12345)
    reference = [2, 49, 10]
    random.Random(12345).shuffle(reference)
    state.apply({"type": "gather"})
    cards = list(reference)
    discarded = []
    while IS_DOG[cards[-1]]:
        discarded.append(cards.pop())
    assert state.revealed == [cards.pop()]
    assert state.discard == discarded and state.deck == cards


def reference_setup(seed: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """Spec §3/§5 setup replayed by hand: arrow cards, deck, yard, cat stack."""
    rng = random.Random(seed)
    deck = list(range(1, 56))
    rng.shuffle(deck)
    arrows = []
    for _ in range(4):
        card = deck.pop()
        while IS_DOG[card]:
            deck.append(card)
            rng.shuffle(deck)
            card = deck.pop()
        arrows.append(card)
    stack = list(range(1, 33))
    rng.shuffle(stack)
    yard = [stack.pop() for _ in range(4)]
    return arrows, deck, yard, stack


def test_s15_setup_with_a_dog() -> None:
    seed = next(s for s in range(1000) if _top_after_shuffle(s) in range(49, 56))
    state = new_game(ENGINE, 4, seed, {})
    arrows, deck, yard, stack = reference_setup(seed)
    assert [state.cushions[p][0] for p in range(4)] == arrows
    assert all(not IS_DOG[c] for c in arrows)
    assert arrows[0] != _top_after_shuffle(seed)
    assert state.deck == deck and state.yard == yard and state.cat_stack == stack


def _top_after_shuffle(seed: int) -> int:
    deck = list(range(1, 56))
    random.Random(seed).shuffle(deck)
    return deck[-1]


def test_s16_draw_ability_discards_dogs() -> None:
    state = table(cushions=[(7, 8, 9, None), *ARROWS], deck=[55, 20], owned={0: [4]})
    state.apply({"type": "ability", "cat": 4})
    assert state.discard == [55]
    assert mine(state) == [7, 8, 9, 20], "a single field choice resolves by itself"
    assert state.phase is Phase.START and state.used[4]
    full = table(cushions=[(7, 8, 9, 10), *ARROWS], owned={0: [4]})
    assert {"type": "ability", "cat": 4} not in full.legal_actions()


# -- further rules ----------------------------------------------------------------------------


def test_draw_2_asks_for_fields_and_returns_to_gathering() -> None:
    state = table(cushions=[(7, None, None, None), *ARROWS], deck=[1, 20, 21, 2], owned={0: [23]})
    state.apply({"type": "gather"})
    assert state.phase is Phase.GATHER_DECIDE
    state.apply({"type": "ability", "cat": 23})
    assert state.phase is Phase.DRAW_PLACE and state.drawn == 20
    assert types(state) == ["place_drawn", "place_drawn", "place_drawn"]
    state.apply({"type": "place_drawn", "field": 3})
    assert state.drawn == 21
    state.apply({"type": "place_drawn", "field": 1})
    assert mine(state) == [7, 21, None, 20]
    assert state.phase is Phase.GATHER_DECIDE and state.revealed == [1]


def test_yard_discard_abilities_remove_cats_and_refill() -> None:
    yard = [30, 31, 32, 29]
    state = table(yard=yard, stack=[1, 2, 3, 4, 5], owned={0: [9, 11, 28]})
    legal = state.legal_actions()
    assert sum(1 for a in legal if a.get("cat") == 9) == 4
    assert sum(1 for a in legal if a.get("cat") == 11) == 6
    state.apply({"type": "ability", "cat": 11, "slots": [1, 3]})
    assert state.cat_discard == [31, 29] and state.yard == [30, 1, 32, 2]
    state.apply({"type": "ability", "cat": 28})
    assert state.cat_discard == [31, 29, 30, 1, 32, 2]
    assert state.yard == [3, 4, 5, 0], "a slot stays empty when the stack runs out"
    state.apply({"type": "ability", "cat": 9, "slots": [0]})
    assert state.yard == [0, 4, 5, 0] and state.used[9]


def test_yard_discard_2_with_one_cat_left() -> None:
    state = table(yard=[0, 0, 17, 0], owned={0: [20]})
    assert {"type": "ability", "cat": 20, "slots": [2]} in state.legal_actions()


def test_protect_blocks_swaps_until_owner_next_turn() -> None:
    cushions = [(1, None, None, None), (8, None, None, None), (29, 2, None, None), EMPTY]
    state = table(current=2, cushions=cushions, owned={2: [18]}, deck=list(range(1, 30)))
    state.apply({"type": "ability", "cat": 18})
    assert state.protected[2]
    finish_turn(state)
    finish_turn(state)  # seat 3: its arrow field is empty anyway
    assert {"type": "swap", "target": 2} not in state.legal_actions()
    assert {"type": "swap", "target": 1} in state.legal_actions()
    finish_turn(state)
    finish_turn(state)
    assert state.current == 2 and not state.protected[2], "protection ends at the next START"


def test_protected_arrow_card_still_pays_its_owner() -> None:
    state = table(cushions=[(1, None, None, None), *ARROWS], yard=[1, 30, 31, 32], protected=[0])
    assert {"type": "lure", "slot": 0, "fields": [0], "wilds": []} in lures(state)


def test_cat_lured_this_turn_pays_as_wild_at_once() -> None:
    cushions = [(15, 2, None, None), *ARROWS]  # mouse, milk
    state = table(cushions=cushions, yard=[5, 9, 30, 31], stack=[32])
    state.apply({"type": "lure", "slot": 0, "fields": [0], "wilds": []})  # cat 5: wild milk/food
    assert {"type": "lure", "slot": 1, "fields": [1], "wilds": [5]} in lures(state)


def test_no_free_actions_while_placing_or_facing_a_dog() -> None:
    state = table(cushions=[(1, None, None, None), *ARROWS], deck=[2, 49, 3], owned={0: [3, 6]})
    state.apply({"type": "gather"})
    state.apply({"type": "reveal"})
    assert state.phase is Phase.DOG
    assert set(types(state)) == {"ignore_dog", "accept_dog"}
    state.apply({"type": "accept_dog"})
    assert state.phase is Phase.POST and state.discard == [2, 49]
    assert "ability" in types(state)
    placing = table(cushions=[(1, None, None, None), *ARROWS], deck=[2, 3], owned={0: [6]})
    placing.apply({"type": "gather"})
    placing.apply({"type": "stop"})
    assert set(types(placing)) == {"place", "replace", "done"}


def test_swap_once_per_target_and_end_turn_never_automatic() -> None:
    state = table(cushions=[(1, None, None, None), (2, None, None, None), EMPTY, EMPTY])
    state.apply({"type": "swap", "target": 1})
    assert state.phase is Phase.GATHER_DECIDE, "gather was the only choice left: played"
    assert state.observation(0)["events"][1] == ["auto", 0, {"type": "gather"}]
    assert "swap" not in types(state)
    state.apply({"type": "stop"})
    state.apply({"type": "done"})
    assert state.legal_actions() == [{"type": "end_turn"}]


def test_lure_not_offered_after_gathering() -> None:
    state = table(cushions=[(1, 2, None, None), *ARROWS], yard=[1, 30, 31, 32], deck=[3, 4])
    assert lures(state)
    state.apply({"type": "gather"})
    state.apply({"type": "stop"})
    state.apply({"type": "done"})
    assert lures(state) == []


def test_long_variant_needs_fifteen_points() -> None:
    state = new_game(ENGINE, 4, 0, {"target": 15})
    assert state.target == 15
    state.owned[3] = [27, 28, 29]  # 12 points
    state.current = 3
    finish_turn(state)
    assert not state.end_triggered and state.to_move() == 0


def test_game_ends_when_no_cat_is_left() -> None:
    state = table(current=3, yard=[0, 0, 0, 0], stack=[], deck=[1, 2, 3])
    finish_turn(state)
    assert state.to_move() is None
    assert state.result().detail["end"] == "no_cats"


def test_round_cap_ends_the_game() -> None:
    state = table(current=3, round_=50, deck=[1, 2, 3])
    finish_turn(state)
    assert state.to_move() is None and state.result().detail["end"] == "round_cap"


def test_illegal_actions_are_refused() -> None:
    state = table(cushions=[(1, None, None, None), *ARROWS], yard=[9, 30, 31, 32])
    with pytest.raises(IllegalAction):
        state.apply({"type": "lure", "slot": 0, "fields": [0], "wilds": []})
    with pytest.raises(IllegalAction):
        state.apply({"type": "end_turn"})


def test_can_pay_one_symbol_per_card() -> None:
    milk, food, milk_food = 1, 2, 3
    cost = (0, 1)  # milk, food
    assert not can_pay(cost, (milk_food,))
    assert can_pay(cost, (milk, milk_food))
    assert not can_pay(cost, (milk, milk))
    assert can_pay((0, 0, 1), (milk, milk_food, milk_food))
    assert not can_pay((0, 0, 1), (food, milk_food, 4))


def test_data_tables_match_the_spec() -> None:
    assert len(BAIT_IDS) == 55 and sum(IS_DOG) == 7
    assert len(CAT_IDS) == 32 and sum(CAT_POINTS) == 76


def test_observation_fields_and_hidden_order() -> None:
    state = new_game(ENGINE, 3, 5, {})
    obs = state.observation(1)
    assert set(obs) == {
        "seat", "to_move", "phase", "round", "target", "end_triggered", "main_action",
        "players", "cushions", "protected", "yard", "cat_stack_count", "cat_stack_top_points",
        "cat_discard", "deck_count", "discard", "revealed", "pending_dog", "drawn", "draws_left",
        "swapped_with", "events",
    }  # fmt: skip
    assert obs["seat"] == 1 and obs["to_move"] == 0
    assert obs["deck_count"] == len(state.deck)
    assert obs["cat_stack_top_points"] == CAT_POINTS[state.cat_stack[-1]]
    assert [player[0] for player in obs["players"]] == [0, 1, 2], "positions"
    assert obs["cushions"] == state.cushions and obs["cushions"] is not state.cushions
    assert obs["protected"] == [False] * 4 and obs["pending_dog"] == obs["drawn"] == 0
    assert "deck top first" not in state.render(1) and "deck top first" in state.render(None)


def test_events_since_the_seat_last_acted() -> None:
    state = new_game(ENGINE, 2, 3, {})
    state.apply({"type": "gather"})
    finish_turn(state)
    events = state.observation(0)["events"]
    assert events[0] == ["act", 0, {"type": "end_turn"}]
    assert ["turn", 1, 1] in events
    seat1 = state.observation(1)["events"]
    assert ["act", 0, {"type": "gather"}] in seat1, "seat 1 sees all"
    finish_turn(state)
    assert state.observation(1)["events"][0] == ["act", 1, {"type": "end_turn"}]


def test_describe_and_render() -> None:
    state = table(cushions=[(1, None, None, None), *ARROWS], yard=[1, 30, 31, 32])
    line = state.describe({"type": "lure", "slot": 0, "fields": [0], "wilds": []})
    assert line.startswith("seat 0 lures cat 1")
    assert "cushion 0 (you):  0> " in state.render(0) and "cushion 1 (seat 1)" in state.render(0)
    assert all(len(line) <= 100 for line in state.render(0).splitlines())
    # the rulebook: the stack lies "stroną z kotkami do góry" (picture side up), as the README
    stack = next(line for line in state.render(0).splitlines() if line.startswith("Cat stack"))
    assert "picture side up" in stack and "face down" not in stack


def test_a_swap_reads_the_same_at_the_seat_and_in_the_event_line() -> None:
    """The human seat's choice (``describe``) and the event line (the guide) use one wording."""
    from engines.cat_yard.guide import narrate

    state = table(cushions=[(1, None, None, None), *ARROWS], yard=[1, 30, 31, 32])
    action = {"type": "swap", "target": 2}
    seat_line = state.describe(action)
    assert seat_line == "seat 0 swaps arrow cards with cushion 2"
    assert narrate(["act", 0, action], lambda seat: f"seat {seat}") == "seat 0: " + seat_line[7:]
