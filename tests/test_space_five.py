"""Space Five: every rule scenario of the spec (section 13) as a named unit test."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

import engines
from engines.base import Action, EventLog, IllegalAction, OptionError
from engines.space_five import SpaceFiveEngine
from engines.space_five.geometry import fit_mask
from engines.space_five.rules import (
    CODE_OF,
    NAMES,
    TURN_CAP,
    Card,
    Phase,
    Placement,
    SpaceFiveState,
)
from engines.testing import new_game

ENGINE = SpaceFiveEngine()  # its own type: the tests read the state's fields

FILLER = ["E5"] * 12  # a stack of "at least 10 cards" where its contents do not matter


def grid(text: str) -> dict[tuple[int, int], str]:
    """A layout from rows of codes ('.' = empty); the top-left entry is (0, 0)."""
    cells = {}
    for y, row in enumerate(text.strip().splitlines()):
        for x, token in enumerate(row.split()):
            if token != ".":
                cells[(x, y)] = token
    return cells


def position(
    layout: Mapping[tuple[int, int], str],
    hands: Sequence[Sequence[str]],
    stacks: Sequence[Sequence[str]] | None = None,
    active: int = 0,
    discard: Sequence[str] = (),
) -> SpaceFiveState:
    """A constructed state: given layout, hands and stacks (top first), ``active`` to start."""
    players = len(hands)
    state = new_game(ENGINE, players, 0, {})
    state.set_layout({cell: CODE_OF[code] for cell, code in layout.items()})
    state.hands = [sorted(CODE_OF[c] for c in hand) for hand in hands]
    chosen = stacks if stacks is not None else [FILLER] * players
    state.stacks = [[CODE_OF[c] for c in stack] for stack in chosen]
    state.discard = [CODE_OF[c] for c in discard]
    state.groups = [[] for _ in range(players)]
    state.box_known = [[] for _ in range(players)]
    state.active = active
    state.placed, state.picked, state.bonus_left = [], [], 0
    state.turns_without_play = 0
    state.log = EventLog(players)
    state._legal_cache = None
    state._begin_turn()
    return state


def place(card: str, x: int, y: int) -> dict[str, object]:
    return {"type": "place", "card": card, "x": x, "y": y}


DONE: Action = {"type": "done"}


def places(state: SpaceFiveState) -> set[tuple[str, int, int]]:
    return {(a["card"], a["x"], a["y"]) for a in state.legal_actions() if a["type"] == "place"}


def hand_of(state: SpaceFiveState, seat: int) -> list[str]:
    return [NAMES[c] for c in state.hands[seat]]


def last_play(state: SpaceFiveState) -> dict[str, object]:
    turn, seat, _, cards, bonus = [e for e in state.log if e[2] == "play"][-1]
    return {"turn": turn, "seat": seat, "cards": cards, "bonus": bonus}


# -- S1..S12: what a legal play is, and its bonus ------------------------------------------


def test_s1_michal_different_aliens_same_background() -> None:
    state = position({(0, 0): "A1"}, [["B1", "C1", "D4", "E5", "A3"], ["A2"]])
    for action in (place("B1", 1, 0), place("C1", 2, 0), DONE):
        state.apply(action)
    assert [state.layout[(x, 0)] for x in range(3)] == [CODE_OF[c] for c in ("A1", "B1", "C1")]
    assert last_play(state)["bonus"] == 0
    assert len(state.hands[0]) == 5 and state.active == 1


def test_s2_roksana_same_alien_different_backgrounds() -> None:
    state = position(grid("A1 B1 C1"), [["C2", "C3", "D4", "E5", "A3"], ["A2"]])
    for action in (place("C2", 2, 1), place("C3", 2, 2), DONE):
        state.apply(action)
    assert [NAMES[state.layout[(2, y)]] for y in range(3)] == ["C1", "C2", "C3"]
    assert all(cell not in state.layout for cell in [(1, 1), (3, 1), (1, 2), (3, 2)])
    assert last_play(state)["bonus"] == 0


S3_LAYOUT = grid(
    """
    B1 A1 C1
    B2 .  C4
    .  .  C5
    """
)


def test_s3_kamila_new_card_must_fit_crossing_group() -> None:
    state = position(S3_LAYOUT, [["B5", "D5", "E5", "A2", "C3"], ["A2"]])
    state.apply(place("D5", 1, 2))
    assert places(state) == {("B5", 0, 2), ("B5", 3, 2), ("E5", 3, 2)}
    assert state.legal_actions()[-1] == DONE and len(state.legal_actions()) == 4
    state.apply(place("B5", 0, 2))
    state.apply(DONE)
    assert [NAMES[state.layout[(x, 2)]] for x in range(3)] == ["B5", "D5", "C5"]
    assert [NAMES[state.layout[(0, y)]] for y in range(3)] == ["B1", "B2", "B5"]
    assert last_play(state)["bonus"] == 0


def test_s3b_kamila_wrong_crossing_card_is_illegal() -> None:
    state = position(S3_LAYOUT, [["B5", "D5", "E5", "A2", "C3"], ["A2"]])
    state.apply(place("D5", 1, 2))
    with pytest.raises(IllegalAction):
        state.apply(place("E5", 0, 2))


def test_s4_michal_three_blue_cards_without_old_card_illegal() -> None:
    state = position(grid("A1 B1 C1"), [["A2", "B2", "C2", "D4", "E4"], ["A3"]])
    assert ("A2", 0, 1) in places(state)
    state.apply(place("A2", 0, 1))
    assert state.legal_actions() == [DONE]
    with pytest.raises(IllegalAction):
        state.apply(place("B2", 1, 1))


def test_s5_michal_bonus_from_incidental_group() -> None:
    layout = grid(
        """
        A1 B1 .  .
        .  B2 C2 D2
        """
    )
    state = position(layout, [["A2", "A3", "E1", "E4", "B5"], ["A4"]])
    for action in (place("A2", 0, 1), place("A3", 0, 2), DONE):
        state.apply(action)
    assert state.phase is Phase.BONUS and state.bonus_left == 1
    assert state.legal_actions() == [
        {"type": "bonus_discard", "source": "hand", "card": "B5"},
        {"type": "bonus_discard", "source": "hand", "card": "E1"},
        {"type": "bonus_discard", "source": "hand", "card": "E4"},
        {"type": "bonus_discard", "source": "stack"},
        {"type": "bonus_stop"},
    ]


S6_LAYOUT = grid(
    """
    A3 .  .  .  .
    A1 B1 C1 .  .
    .  .  C2 .  .
    .  .  C4 .  .
    """
)
S6_PLAY = [place("B3", 1, 0), place("C3", 2, 0), place("D3", 3, 0), place("E3", 4, 0), DONE]


def test_s6_roksana_four_grey_cards_four_discards() -> None:
    state = position(S6_LAYOUT, [["B3", "C3", "D3", "E3", "A5"], ["A2"]])
    for action in S6_PLAY:
        state.apply(action)
    assert state.phase is Phase.BONUS and state.bonus_left == 4
    assert hand_of(state, 0) == ["A5"]


def test_s7_winning_during_the_bonus() -> None:
    stacks = [["D4", "E4"], FILLER]
    state = position(S6_LAYOUT, [["B3", "C3", "D3", "E3", "A5"], ["A2"]], stacks)
    for action in S6_PLAY:
        state.apply(action)
    state.apply({"type": "bonus_discard", "source": "hand", "card": "A5"})
    assert (len(state.hands[0]), len(state.stacks[0])) == (0, 2)
    state.apply({"type": "bonus_discard", "source": "stack"})
    assert state.to_move() == 0 and len(state.stacks[0]) == 1
    state.apply({"type": "bonus_discard", "source": "stack"})
    assert state.to_move() is None
    result = state.result()
    assert result.detail["end"] == "out_of_cards" and result.ranks == [1, 2]
    assert result.scores == [0.0, -13.0]
    assert state.observation(1)["result"]["winners"] == [0]


def test_s8_first_move_from_the_start_card() -> None:
    state = position({(0, 0): "A1"}, [["B2", "A2", "C1", "A1", "E5"], ["A3"]])
    cells = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    assert places(state) == {(card, x, y) for card in ("A2", "C1") for x, y in cells}
    assert len(state.legal_actions()) == 9 and state.legal_actions()[-1] == {"type": "exchange"}
    state.apply(place("A2", 1, 0))
    assert state.legal_actions() == [DONE]


def test_s9_four_cards_at_once_from_a_single_card() -> None:
    state = position({(0, 0): "A1"}, [["A2", "A3", "A4", "A5", "B1"], ["B2"]])
    for action in (place("A2", 0, 1), place("A3", 0, 2), place("A4", 0, 3), place("A5", 0, -1)):
        state.apply(action)
    state.apply(DONE)
    assert state.bonus_left == 3
    assert [NAMES[state.layout[(0, y)]] for y in range(-1, 4)] == ["A5", "A1", "A2", "A3", "A4"]
    assert fit_mask(state.layout, 0, 4) == 0 and fit_mask(state.layout, 0, -2) == 0


def test_s10_crossing_rule_on_a_single_card() -> None:
    layout = {(0, 0): "A1", (1, 0): "B1", (0, 1): "A2"}
    state = position(layout, [["B2", "C2", "D5", "E5", "E4"], ["A3"]])
    assert ("B2", 1, 1) in places(state)
    assert ("C2", 1, 1) not in places(state)


def test_s11_gap_fill_joining_two_segments() -> None:
    # Design decision (README "Rule readings"): one play may fill a gap that merges two
    # groups of one line, as the spec's S11 says; the rulebook's "add to one group per turn"
    # is read as "all new cards end in one group".
    layout = grid(
        """
        A1 B1 .  D1 E1
        .  B4 C4 D4 .
        """
    )
    state = position(layout, [["C1", "A5", "B5", "D5", "E3"], ["A3"]])
    state.apply(place("C1", 2, 0))
    state.apply(DONE)
    assert last_play(state)["bonus"] == 2 and state.bonus_left == 2


def s12_state() -> SpaceFiveState:
    return position(grid("A1 B1"), [["C1", "D1", "E1", "C2", "A1"], ["A3"]])


def test_s12a_two_separate_runs_illegal() -> None:
    state = s12_state()
    state.apply(place("C1", 2, 0))
    assert ("E1", 4, 0) not in places(state)


def test_s12b_adjacent_extension_legal() -> None:
    state = s12_state()
    state.apply(place("C1", 2, 0))
    state.apply(place("E1", 3, 0))
    assert DONE in state.legal_actions()


def test_s12c_both_ends_legal() -> None:
    state = s12_state()
    state.apply(place("C1", -1, 0))
    state.apply(place("D1", 2, 0))
    state.apply(DONE)
    assert last_play(state) == {**last_play(state), "cards": 2, "bonus": 1}


def test_s12d_turning_a_corner_illegal() -> None:
    state = s12_state()
    state.apply(place("C1", 2, 0))
    assert ("C2", 2, 1) not in places(state)


def test_s12e_duplicate_code_in_run_illegal() -> None:
    state = s12_state()
    assert ("A1", -1, 0) not in places(state)


def test_s12_full_row_cannot_grow() -> None:
    state = position(grid("A1 B1 C1 D1 E1"), [["A2", "E2", "A3", "B3", "C4"], ["A4"]])
    assert not any((x, y) in ((5, 0), (-1, 0)) for _, x, y in places(state))


# -- S13: exchange -------------------------------------------------------------------------


def test_s13_exchange() -> None:
    stack = ["E5", "D5", *["B4"] * 28]
    state = position({(0, 0): "A1"}, [["A1", "A1", "B2", "C3", "D4"], ["A2"]], [stack, FILLER])
    state.apply({"type": "exchange"})
    assert {"type": "exchange_confirm"} not in state.legal_actions()
    state.apply({"type": "exchange_pick", "card": "A1"})
    state.apply({"type": "exchange_pick", "card": "B2"})
    picks = [a["card"] for a in state.legal_actions() if a["type"] == "exchange_pick"]
    assert picks == ["A1", "C3", "D4"]  # the second A1 may still be picked
    expected = [CODE_OF["A1"], CODE_OF["B2"]]
    twin_rng = random.Random()
    twin_rng.setstate(state.rng.getstate())
    twin_rng.shuffle(expected)
    state.apply({"type": "exchange_confirm"})
    assert hand_of(state, 0) == ["A1", "C3", "D4", "D5", "E5"]
    assert len(state.stacks[0]) == 30 and state.stacks[0][-2:] == expected
    assert state.turns_without_play == 1 and state.active == 1
    assert state.log[-1] == [0, 0, "exchange", 2]


def test_s13_exchange_with_short_stack() -> None:
    hand = ["A1", "B2", "C3", "D4", "E5"]
    state = position({(0, 0): "A1"}, [hand, ["A2"]], [["B4"], FILLER])
    state.apply({"type": "exchange"})
    for card in ("C3", "D4", "E5"):
        state.apply({"type": "exchange_pick", "card": card})
    shuffled = [CODE_OF[c] for c in ("C3", "D4", "E5")]
    twin_rng = random.Random()
    twin_rng.setstate(state.rng.getstate())
    twin_rng.shuffle(shuffled)
    state.apply({"type": "exchange_confirm"})
    assert sorted(state.hands[0]) == sorted([CODE_OF[c] for c in ("A1", "B2", "B4")] + shuffled[:2])
    assert state.stacks[0] == shuffled[2:]


# -- S14: dead layout ----------------------------------------------------------------------


def test_s14_dead_layout_blocked_end() -> None:
    state = position({(0, 0): "A1"}, [["B2", "C3"], ["B3", "C2", "D4", "E5"]], [[], []])
    assert state.to_move() is None
    result = state.result()
    assert result.detail["end"] == "dead_layout"
    assert result.detail["remaining"] == [2, 4] and result.ranks == [1, 2]


def test_s14_variant_one_fitting_card_keeps_playing() -> None:
    state = position({(0, 0): "A1"}, [["B2", "C3"], ["B3", "A2", "D4", "E5"]], [[], []])
    assert state.to_move() == 0 and state.phase is Phase.TURN_START
    assert state.legal_actions() == [{"type": "exchange"}]


# -- S15, S16: solo ------------------------------------------------------------------------


def solo(hand: Sequence[str], pile: Sequence[str], discard: Sequence[str] = ()) -> SpaceFiveState:
    return position({(0, 0): "A1"}, [hand], [pile], discard=discard)


def test_s15_solo_must_play_three() -> None:
    state = solo(["A2", "A3", "A4", "B1", "C5"], ["D2"] * 20, discard=["E3"])
    cells = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    assert places(state) == {(c, x, y) for c in ("A2", "A3", "A4") for x, y in cells}
    assert len(state.legal_actions()) == 12
    state.apply(place("A2", 1, 0))
    assert DONE not in state.legal_actions()
    state.apply(place("A3", 2, 0))
    assert DONE not in state.legal_actions()
    state.apply(place("A4", 3, 0))
    assert DONE in state.legal_actions()
    state.apply(DONE)
    assert state.bonus_left == 1
    sources = [a.get("card", a.get("source")) for a in state.legal_actions()]
    assert sources == ["B1", "C5", "stack", "discard_pile", None]
    state.apply({"type": "bonus_discard", "source": "discard_pile"})
    assert state.discard == [] and state.result().scores == [0.0]
    assert state.phase is Phase.SOLO_DISCARD  # hand refilled with D2s: no 3-card play


def test_s15_solo_bonus_without_discard_pile() -> None:
    state = solo(["A2", "A3", "A4", "B1", "C5"], ["D2"] * 20)
    for action in (place("A2", 1, 0), place("A3", 2, 0), place("A4", 3, 0), DONE):
        state.apply(action)
    assert {"type": "bonus_discard", "source": "discard_pile"} not in state.legal_actions()


def test_s15_solo_variant_no_three_card_play_discards_down() -> None:
    state = solo(["A2", "A3", "B5", "C4", "D3"], ["E2", "E3", "E4", *["D2"] * 17])
    assert state.phase is Phase.SOLO_DISCARD
    assert {a["type"] for a in state.legal_actions()} == {"solo_discard"}
    for card in ("B5", "C4", "D3"):
        state.apply({"type": "solo_discard", "card": card})
    assert hand_of(state, 0) == ["A2", "A3", "E2", "E3", "E4"]
    assert state.result().scores == [3.0] and len(state.stacks[0]) == 17


def test_s16_solo_end_when_draw_pile_short() -> None:
    state = solo(["A2", "A3", "A4", "A5", "B1"], ["C2", "C3"], discard=["D1", "D2"])
    for action in (place("A2", 0, 1), place("A3", 0, 2), place("A4", 0, 3), place("A5", 0, -1)):
        state.apply(action)
    state.apply(DONE)
    state.apply({"type": "bonus_stop"})
    assert state.to_move() is None
    assert CODE_OF["B1"] in state.box and state.hands[0] == []
    result = state.result()
    assert result.scores == [2.0] and result.ranks == [1]
    assert result.detail["score_order"] == "low"
    assert result.detail["end"] == "draw_pile_exhausted"


# -- S17: setup ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "stack", "box"),
    [(2, {}, 49, 1), (3, {}, 33, 0), (4, {}, 24, 3), (4, {"young": True}, 15, 39), (1, {}, 99, 0)],
)
def test_s17_setup_counts(players: int, options: dict[str, object], stack: int, box: int) -> None:
    state = new_game(ENGINE, players, 17, options)
    assert [len(h) for h in state.hands] == [5] * players
    assert [len(s) for s in state.stacks] == [stack - 5] * players
    assert len(state.box) == box and len(state.layout) == 1
    again = new_game(ENGINE, players, 17, options)
    assert (again.layout, again.hands, again.stacks) == (state.layout, state.hands, state.stacks)


# -- further rules: caps, handicap, rounds, options, views ----------------------------------


def test_stall_cap_ends_blocked_after_ten_exchange_rounds() -> None:
    state = position({(0, 0): "A1"}, [["A2", "B3"], ["A3"]])
    state.turns_without_play = 19
    state.apply({"type": "exchange"})
    state.apply({"type": "exchange_pick", "card": "B3"})
    state.apply({"type": "exchange_confirm"})
    assert state.to_move() is None and state.result().detail["end"] == "stall_cap"


def test_turn_cap_ends_blocked() -> None:
    state = position({(0, 0): "A1"}, [["A2"], ["A3"]])
    state.turn = 999
    state.apply({"type": "exchange"})
    state.apply({"type": "exchange_pick", "card": "A2"})
    state.apply({"type": "exchange_confirm"})
    assert state.to_move() is None and state.result().detail["end"] == "turn_cap"


def exchange_all(state: SpaceFiveState) -> None:
    """One exchange turn of the active seat, swapping as many cards as it may."""
    state.apply({"type": "exchange"})
    while picks := [a for a in state.legal_actions() if a["type"] == "exchange_pick"]:
        state.apply(picks[0])
    state.apply({"type": "exchange_confirm"})


def test_stall_cap_outranks_the_turn_cap_on_the_same_turn() -> None:
    # Issue 20's position: 2 players, seed 7, rounds = 1, both seats always exchange. The
    # 20th exchange in a row is made the 1000th turn of the round: spec §9 checks the stall
    # cap before the turn cap (the engine up to version 2 said "turn_cap").
    state = new_game(ENGINE, 2, 7, {"rounds": 1})
    for _ in range(19):
        exchange_all(state)
    assert state.turns_without_play == 19 and state.to_move() is not None
    state.turn += TURN_CAP - 20  # as if the round had 980 earlier turns, ending in a play
    exchange_all(state)
    assert state.turn - state.round_start_turn == TURN_CAP
    assert state.to_move() is None and state.result().detail["end"] == "stall_cap"


def test_dead_layout_outranks_the_turn_cap_on_the_same_turn() -> None:
    # The 1000th turn plays A2, the last card anyone could place: the layout is dead.
    state = position({(0, 0): "A1"}, [["A2", "B3"], ["C4", "D5"]], [[], ["E3"]])
    state.turn = TURN_CAP - 1
    state.apply(place("A2", 1, 0))
    state.apply(DONE)
    assert state.turn - state.round_start_turn == TURN_CAP
    assert state.to_move() is None and state.result().detail["end"] == "dead_layout"


def test_win_on_last_placement_ends_game_at_once() -> None:
    state = position(grid("A1 B1 C1"), [["D1"], ["A3"]], [[], FILLER])
    state.apply(place("D1", 3, 0))
    assert state.to_move() is None
    assert state.result().detail["end"] == "out_of_cards"
    assert state.result().detail["winners"] == [0]


def test_handicap_deal_counts() -> None:
    state = new_game(ENGINE, 3, 5, {"deal_counts": [33, 20, 3]})
    assert [len(h) + len(s) for h, s in zip(state.hands, state.stacks, strict=True)] == [33, 20, 3]
    assert len(state.hands[2]) == 3 and len(state.box) == 99 - 56


def test_multi_round_totals_and_rotating_start() -> None:
    state = new_game(ENGINE, 2, 3, {"rounds": 3})
    rng = random.Random(3)
    starts: list[int] = []
    while state.to_move() is not None:
        fresh = state.turn == state.round_start_turn and state.phase is Phase.TURN_START
        if fresh and len(starts) == state.round:
            starts.append(state.active)
        state.apply(rng.choice(state.legal_actions()))
    result = state.result()
    assert starts == [0, 1, 0]
    assert len(result.detail["round_scores"]) == 3
    totals = [sum(r[s] for r in result.detail["round_scores"]) for s in range(2)]
    assert result.scores == [-float(t) for t in totals] and result.detail["totals"] == totals


@pytest.mark.parametrize(
    "options",
    [
        {"young": True, "deal_counts": [10, 10]},
        {"deal_counts": [10]},
        {"deal_counts": [50, 10]},
        {"deal_counts": [0, 10]},
        {"rounds": 0},
        {"colour": 1},
    ],
)
def test_bad_options_rejected(options: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        new_game(ENGINE, 2, 1, options)


@pytest.mark.parametrize("options", [{"young": True}, {"rounds": 2}, {"deal_counts": [20]}])
def test_solo_rejects_multiplayer_options(options: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        new_game(ENGINE, 1, 1, options)


@pytest.mark.parametrize("players", [0, 5])
def test_bad_player_count(players: int) -> None:
    with pytest.raises(OptionError):
        new_game(ENGINE, players, 1, {})


def test_observation_hides_other_hands_and_exchange_picks() -> None:
    state = position({(0, 0): "A1"}, [["A2", "B3", "C4", "D5", "E1"], ["B1", "B2"]])
    state.apply({"type": "exchange"})
    state.apply({"type": "exchange_pick", "card": "E1"})
    mine, theirs = state.observation(0), state.observation(1)
    assert mine["pending"]["exchange_picked"] == ["E1"]
    assert theirs["pending"]["exchange_picked"] == [] and theirs["pending"]["exchange_count"] == 1
    assert theirs["hand"] == ["B1", "B2"]
    assert "A2" not in str(theirs) and "E1" not in str(theirs)


def test_determinize_redeals_hidden_cards() -> None:
    state = new_game(ENGINE, 3, 11, {})
    twins = [state.determinize(0, random.Random(i)) for i in range(5)]
    assert all(t.hands[0] == state.hands[0] and t.layout == state.layout for t in twins)
    assert any(t.hands[1] != state.hands[1] for t in twins)
    assert any(t.stacks[0] != state.stacks[0] for t in twins)

    def hidden(s: SpaceFiveState) -> list[int]:
        return sorted([*s.hands[1], *s.hands[2], *s.stacks[0], *s.stacks[1], *s.stacks[2], *s.box])

    assert all(hidden(t) == hidden(state) for t in twins)


def test_determinize_keeps_own_exchanged_cards_under_own_stack() -> None:
    state = position({(0, 0): "A1"}, [["A2", "B3", "C4", "D5", "E1"], ["B1"]])
    state.apply({"type": "exchange"})
    state.apply({"type": "exchange_pick", "card": "D5"})
    state.apply({"type": "exchange_pick", "card": "E1"})
    state.apply({"type": "exchange_confirm"})
    for i in range(5):
        twin = state.determinize(0, random.Random(i))
        assert sorted(twin.stacks[0][-2:]) == [CODE_OF["D5"], CODE_OF["E1"]]
        assert twin.observation(0) == state.observation(0)


def test_value_types_round_trip() -> None:
    assert Card.from_json("C3") == Card(2, 2) and Card(2, 2).to_json() == "C3"
    assert repr(Card(0, 0)) == "Card.from_json('A1')"
    placement = Placement(1, -2, "E5")
    assert Placement.from_json(placement.to_json()) == placement


def test_describe_and_render() -> None:
    state = position(grid("A1 B1"), [["C1", "D1", "E1", "C2", "A1"], ["A3"]])
    assert state.describe(place("C1", 2, 0)) == "seat 0 places C1 at (2, 0)"
    state.apply(place("C1", 2, 0))
    picture = state.render(1)
    assert "A1  B1  C1*" in picture
    assert "seat 0: hand 4 card(s), hidden;" in picture and "seat 1 (you): hand A3;" in picture
    assert all(len(line) <= 100 for line in picture.splitlines())
    assert "D1 E1" in state.render(None)


def test_render_names_the_cards_picked_for_an_exchange_to_their_owner_only() -> None:
    state = position(grid("A1"), [["C1", "D1", "E1"], ["A3"]])
    state.apply({"type": "exchange"})
    state.apply({"type": "exchange_pick", "card": "D1"})
    assert "picking cards to exchange (picked: D1)" in state.render(0)
    assert "picking cards to exchange (picked: D1)" in state.render(None)
    other = state.render(1)
    assert "picking cards to exchange (1 picked)" in other and "D1" not in other
    picture = engines.picture("space-five")  # the viewer's seat views draw observations
    assert picture is not None
    assert "D1" in picture.draw({0: state.observation(0)})
    assert "D1" not in picture.draw({1: state.observation(1)})
