"""Rule scenarios of If It Fits (spec §10, T1-T12), each built as an exact situation."""

from __future__ import annotations

from typing import Any

import pytest

from engines.base import IllegalAction, JsonList
from engines.if_it_fits import IfItFitsEngine
from engines.if_it_fits.data import CARDS, TOY_KINDS
from engines.if_it_fits.geometry import Layout, slot_code, slot_xy
from engines.if_it_fits.rules import (
    INDEX,
    PLACE_CAT,
    TURN,
    IfItFitsState,
    cat_owner,
    final_ranks,
)
from engines.testing import new_game

ENGINE = IfItFitsEngine()  # its own type: the tests read the state's fields


DRAW = {"type": "draw_and_play"}
NO_CAT = {"type": "no_cat"}


def sleeping(x: int, y: int) -> dict[str, object]:
    return {"type": "sleeping_cat", "x": x, "y": y}


def place(x: int, y: int, rot: int = 0) -> dict[str, object]:
    return {"type": "place_box", "x": x, "y": y, "rot": rot}


def cat_on(x: int, y: int) -> dict[str, object]:
    return {"type": "place_cat", "x": x, "y": y}


def select(card: str) -> dict[str, object]:
    return {"type": "select_card", "card": card}


# -- building exact situations ----------------------------------------------------------


def table(players: int = 2, *, hands: dict[int, list[str]] | None = None) -> IfItFitsState:
    """A fresh game with an EMPTY layout (start cards taken away) and chosen hands.

    Chosen hand cards are taken out of the deck/other hands; displaced hand cards go back
    to the deck, so no card is created or lost.
    """
    state = new_game(ENGINE, players, 0, {})
    state.layout = Layout(players)
    state.slot_card, state.entries, state.entry_at = {}, JsonList(), {}
    state._boxes_view = None
    for seat, ids in (hands or {}).items():
        wanted = [INDEX[c] for c in ids]
        for other in state.hands:
            for card in wanted:
                if card in other:
                    other.remove(card)
        state.deck = [c for c in state.deck if c not in wanted] + state.hands[seat]
        state.hands[seat] = sorted(wanted)
    return state


def lay(state: IfItFitsState, card: str, x: int, y: int, rot: int = 0) -> None:
    """Force a box-type card, or a sleeping cat (a cat id), into slot (x, y)."""
    index = INDEX[card]
    for pile in (state.deck, *state.hands):
        if index in pile:
            pile.remove(index)
    code = slot_code(x, y)
    state.lay(index, code, rot)
    if card.startswith("C"):
        owner = cat_owner(index)
        state.supply[owner].remove(index)
        state.cat_place[index] = (False, code)
        state.count_cat(code, owner, +1)


def awake(state: IfItFitsState, cat: str, x: int, y: int) -> None:
    """Force an awake cat onto seam (x, y) (between slots (x, y) and (x + 1, y))."""
    index, code = INDEX[cat], slot_code(x, y)
    owner = cat_owner(index)
    state.supply[owner].remove(index)
    state.awake[code] = index
    state.cat_place[index] = (True, code)
    state.count_cat(code, owner, +1)


def box_at(state: IfItFitsState, x: int, y: int) -> dict[str, Any]:
    """The compact box of the observation holding slot (x, y), spelled out as a dict."""
    obs = state.observation(0)
    where = [entry[:2] for entry in obs["layout"]]
    for members, open_sides, cats in obs["boxes"]:
        slots = sorted((where[i] for i in members), key=lambda xy: (xy[1], xy[0]))
        if [x, y] in slots:
            rows = [CARDS[INDEX[obs["layout"][i][2]]] for i in members]
            toys = [sum(column) for column in zip(*(row.toys for row in rows), strict=True)]
            special = sum(row.special for row in rows)
            spray = sum(row.spray for row in rows)
            return {
                "slots": slots,
                "open_sides": open_sides,
                "closed": open_sides == 0,
                "cats": cats,
                "toys": dict(zip(TOY_KINDS, toys, strict=True)),
                "special": special,
                "spray": spray,
                "value": max(toys) + 2 * special - spray,
            }
    raise AssertionError(f"no box holds ({x}, {y})")


def scores(state: IfItFitsState) -> list[float]:
    return state.result().scores


# -- T1..T12 ----------------------------------------------------------------------------


def test_t1_setup_and_legal_list_sizes() -> None:
    state = new_game(ENGINE, 2, 5, {})
    obs = state.observation(0)
    assert [e[:2] for e in obs["layout"]] == [[0, 0], [0, 1]]
    assert obs["deck_size"] == 76 and obs["hand_sizes"] == [2, 2]
    assert obs["cat_supply"] == [5, 5] and state.to_move() == 0
    frontier = [(x, y) for x, y in map(slot_xy, state.layout.frontier_slots())]
    assert frontier == [(0, -1), (-1, 0), (1, 0), (-1, 1), (1, 1), (0, 2)]
    assert state.legal_actions() == [
        DRAW,
        sleeping(-1, 0),
        sleeping(1, 0),
        sleeping(-1, 1),
        sleeping(1, 1),
    ]
    start_layout = list(state.entries)
    state = _with_hand(state, 0, ["B01", "B02"])
    assert state.entries == start_layout
    state.apply(DRAW)
    twin = state.clone()
    state.apply(select("B02"))
    assert len(state.legal_actions()) == 12
    twin.apply(select("B01"))
    assert len(twin.legal_actions()) == 6
    assert all(a["rot"] == 0 for a in twin.legal_actions())


def _with_hand(state: IfItFitsState, seat: int, ids: list[str]) -> IfItFitsState:
    """Swap chosen cards into a hand of a game that keeps its start layout."""
    for card in map(INDEX.__getitem__, ids):
        for pile in (state.deck, *state.hands):
            if card in pile:
                pile.remove(card)
    state.deck.extend(state.hands[seat])
    state.hands[seat] = sorted(INDEX[c] for c in ids)
    return state


def test_t2_first_awake_cat() -> None:
    state = _with_hand(new_game(ENGINE, 2, 5, {}), 0, ["B19", "B02"])
    state.apply(DRAW)
    state.apply(select("B19"))
    other = state.clone()
    state.apply(place(1, 0, 0))
    assert state.phase == PLACE_CAT
    assert state.legal_actions() == [cat_on(0, 0), NO_CAT]
    other.apply(place(1, 0, 1))
    assert other.phase == TURN and other.to_move() == 1


def closed_box_layout() -> IfItFitsState:
    state = table()
    lay(state, "B63", 0, 0, rot=1)
    lay(state, "B15", 1, 0)
    return state


def test_t3_closed_box_scoring() -> None:
    state = closed_box_layout()
    awake(state, "C0-1", 0, 0)
    box = box_at(state, 0, 0)
    assert box["open_sides"] == 0 and box["closed"]
    assert box["toys"]["yarn"] == 4 and box["spray"] == 1 and box["value"] == 3
    result = state.result()
    assert result.scores == [3.0, 0.0]
    assert result.detail["penalties"] == [1, 0]


def open_box_with_rival_cat(b04_to: int = 0) -> IfItFitsState:
    """T4's layout; the seat ``b04_to`` holds B04 (seat 0 also holds a Princess)."""
    hands = {0: ["P1", "B04"], 1: ["B02", "B05"]} if b04_to == 0 else {1: ["B02", "B04"]}
    state = table(hands=hands)
    lay(state, "S1", 0, 0)
    lay(state, "B19", 1, 0)
    awake(state, "C1-1", 0, 0)
    return state


def test_t4_open_box_scoring_and_princess_on_awake_cat() -> None:
    state = open_box_with_rival_cat()
    box = box_at(state, 0, 0)
    assert box["open_sides"] == 2 and not box["closed"] and box["value"] == 3
    assert scores(state) == [0.0, 3.0]
    state.apply(DRAW)
    state.apply(select("P1"))
    assert state.legal_actions() == [{"type": "princess", "cat": "C1-1"}]
    state.apply({"type": "princess", "cat": "C1-1"})
    obs = state.observation(0)
    assert obs["cat_supply"] == [5, 5]
    assert obs["seam_princesses"] == [[0, 0, "P1"]]
    assert obs["awake_cats"] == []
    assert box_at(state, 0, 0)["cats"] == [0, 0]
    assert scores(state) == [0.0, 0.0]


def test_t5_cat_refused_in_rivals_box() -> None:
    state = open_box_with_rival_cat()
    state.apply(DRAW)
    state.apply(select("B04"))
    state.apply(place(-1, 0, 1))
    assert state.phase == TURN and state.to_move() == 1  # no place_cat phase
    box = box_at(state, 0, 0)
    assert box["slots"] == [[-1, 0], [0, 0], [1, 0]]
    assert box["toys"]["yarn"] == 3 and box["toys"]["mouse"] == 2
    assert box["value"] == 3 and box["open_sides"] == 1


def test_t5_cat_allowed_in_box_holding_own_cat() -> None:
    state = open_box_with_rival_cat(b04_to=1)
    state.current = 1
    state.apply(DRAW)
    state.apply(select("B04"))
    state.apply(place(-1, 0, 1))
    assert state.legal_actions() == [cat_on(-1, 0), NO_CAT]


def test_t5_cat_refused_across_a_wall() -> None:
    state = open_box_with_rival_cat(b04_to=1)
    state.current = 1
    state.apply(DRAW)
    state.apply(select("B04"))
    state.apply(place(-1, 0, 0))
    assert state.phase == TURN and state.to_move() == 0  # seam (-1, 0) crosses B04's E wall
    assert box_at(state, -1, 0)["slots"] == [[-1, 0]]
    assert box_at(state, 0, 0)["open_sides"] == 1  # S1's W edge is sealed by B04's wall


def tie_layout() -> IfItFitsState:
    state = table(hands={0: ["P1", "B01"]})
    lay(state, "B45", 0, 0)
    lay(state, "B39", 1, 0)
    awake(state, "C0-1", 0, 0)
    state.current = 1
    return state


def test_t6_sleeping_cat_tie_for_majority_both_score() -> None:
    state = tie_layout()
    assert sleeping(0, 1) in state.legal_actions()
    state.apply(sleeping(0, 1))
    box = box_at(state, 0, 0)
    assert box["slots"] == [[0, 0], [1, 0], [0, 1]]
    assert box["cats"] == [1, 1] and box["value"] == 2 and box["open_sides"] == 4
    assert scores(state) == [2.0, 2.0]
    state.apply(DRAW)
    state.apply(select("P1"))
    state.apply({"type": "princess", "cat": "C1-1"})
    assert state.observation(1)["cat_supply"] == [4, 5]
    entry = state.observation(0)["layout"][-1]
    assert entry == [0, 1, "P1", 0]
    after = box_at(state, 0, 0)
    assert after["slots"] == box["slots"] and after["open_sides"] == 4
    assert after["cats"] == [1, 0]
    assert scores(state) == [2.0, 0.0]


def test_t6_tie_with_none_score_option() -> None:
    state = tie_layout()
    state.options["tie_rule"] = "none_score"
    state.apply(sleeping(0, 1))
    assert scores(state) == [0.0, 0.0]


def test_t7_sleeping_cat_merging_boxes() -> None:
    state = table(hands={0: ["B29", "B01"]})
    lay(state, "B45", 0, 0)
    lay(state, "B39", 1, 0)
    awake(state, "C0-1", 0, 0)
    lay(state, "B26", 0, 2)
    lay(state, "B47", 1, 2)
    awake(state, "C1-1", 0, 2)
    assert scores(state) == [2.0, 3.0]
    state.apply(DRAW)
    state.apply(select("B29"))
    state.apply(place(0, 1))
    assert state.phase == TURN and state.to_move() == 1  # no E/W neighbour: no cat phase
    box = box_at(state, 0, 1)
    assert len(box["slots"]) == 5 and box["cats"] == [1, 1]
    assert box["toys"] == {"yarn": 3, "mouse": 4, "fish": 1, "feather": 0}
    assert box["spray"] == 0 and box["value"] == 4
    assert scores(state) == [4.0, 4.0]
    state.current = 0  # seat 0's next turn
    state._legal_cache = None
    assert sleeping(-1, 1) in state.legal_actions()
    state.apply(sleeping(-1, 1))
    assert box_at(state, 0, 1)["cats"] == [2, 1]
    assert scores(state) == [4.0, 0.0]


def test_t7_sleeping_cat_merges_two_boxes_it_touches() -> None:
    state = table()
    lay(state, "B45", 0, 0)  # S edge open
    lay(state, "B26", 0, 2)  # N edge open
    awake_box = box_at(state, 0, 0)
    assert [0, 2] not in awake_box["slots"]
    lay(state, "C1-2", 0, 1)
    assert box_at(state, 0, 0)["slots"] == [[0, 0], [0, 1], [0, 2]]


def test_t8_no_sleeping_cat_slot_beside_a_closed_box() -> None:
    state = closed_box_layout()
    frontier = [slot_xy(c) for c in state.layout.frontier_slots()]
    assert frontier == [(0, -1), (1, -1), (-1, 0), (2, 0), (0, 1), (1, 1)]
    assert state.legal_actions() == [DRAW]
    state.hands = [[], []]
    state.deck = []
    state._legal_cache = None
    assert state.legal_actions() == [{"type": "pass"}]


def test_t9_negative_box() -> None:
    state = table()
    lay(state, "B70", 0, 0)
    lay(state, "B10", 1, 0)
    awake(state, "C0-1", 0, 0)
    assert box_at(state, 0, 0)["value"] == -2
    result = state.result()
    assert result.scores == [-2.0, 0.0] and result.detail["penalties"] == [2, 0]


def test_t9_special_toy() -> None:
    state = table()
    lay(state, "S1", 0, 0)
    lay(state, "X1", 1, 0)
    awake(state, "C0-1", 0, 0)
    box = box_at(state, 0, 0)
    assert box["special"] == 1 and box["open_sides"] == 1 and box["value"] == 3
    assert scores(state) == [3.0, 0.0]


def test_t10_end_of_game() -> None:
    state = table(hands={0: ["B37"]})
    lay(state, "S1", 0, 0)
    state.hands[1] = []
    state.deck = []
    state.supply[1] = []
    assert state.legal_actions()[0] == DRAW
    assert all(a["type"] == "sleeping_cat" for a in state.legal_actions()[1:])
    state.apply(DRAW)
    assert state.hands[0] == [INDEX["B37"]]  # nothing drawn from the empty deck
    state.apply(select("B37"))
    state.apply(place(1, 0))
    if state.to_move() is not None:
        state.apply(NO_CAT)
    assert state.to_move() is None
    assert state.result().detail["end"] == "hands_empty"


def test_t10_only_pass_for_an_empty_hand_without_cats() -> None:
    state = table(hands={0: ["B37"]})
    lay(state, "S1", 0, 0)
    state.hands[1], state.deck, state.supply[1] = [], [], []
    state.current = 1
    assert state.legal_actions() == [{"type": "pass"}]
    state.apply({"type": "pass"})
    assert state.to_move() == 0


def test_t10_tie_break_fewest_penalty_points() -> None:
    state = table()
    # seat 1: fish 5, no spray -> 5 points, penalty 0
    lay(state, "B34", 0, 0)
    lay(state, "B53", 1, 0)
    lay(state, "B13", 0, 1)
    awake(state, "C1-1", 0, 0)
    # seat 0: fish 7, two sprays -> 5 points, penalty 2
    lay(state, "B59", -1, 5)
    lay(state, "B48", 0, 5)
    lay(state, "B65", 1, 5)
    lay(state, "B46", 1, 6, rot=1)
    awake(state, "C0-1", 0, 5)
    result = state.result()
    assert result.scores == [5.0, 5.0]
    assert result.detail["penalties"] == [2, 0]
    assert result.ranks == [2, 1]
    assert final_ranks([5, 5], [2, 2]) == [1, 1]


def test_t11_princess_with_no_target() -> None:
    state = table(hands={0: ["P1", "B01"]})
    lay(state, "S1", 0, 0)
    state.apply(DRAW)
    state.apply(select("P1"))
    assert state.legal_actions() == [{"type": "princess_discard"}]
    state.apply({"type": "princess_discard"})
    assert state.observation(1)["discard"] == ["P1"]
    assert state.phase == TURN and state.to_move() == 1


def test_t11_own_cat_is_no_princess_target() -> None:
    state = _with_hand(open_box_with_rival_cat(), 1, ["P2"])
    state.current = 1
    state.apply(DRAW)
    state.apply(select("P2"))
    assert state.legal_actions() == [{"type": "princess_discard"}]


def test_t12_determinism_seed_and_moves_replay() -> None:
    import random

    rng = random.Random(12)
    state = new_game(ENGINE, 3, 99, {})
    moves, observations = [], []
    while (seat := state.to_move()) is not None:
        observations.append(state.observation(seat))
        legal = state.legal_actions()
        moves.append(rng.randrange(len(legal)))
        state.apply(legal[moves[-1]])
    replay = new_game(ENGINE, 3, 99, {})
    for index, obs in zip(moves, observations, strict=True):
        assert replay.observation(replay.to_move() or 0) == obs
        replay.apply_index(index)
    assert replay.result() == state.result()
    assert replay.history == state.history


# -- other rules ------------------------------------------------------------------------


def test_unknown_or_illegal_actions_are_refused() -> None:
    state = new_game(ENGINE, 2, 1, {})
    with pytest.raises(IllegalAction):
        state.apply(place(0, 0))
    with pytest.raises(IllegalAction):
        state.apply(sleeping(0, -1))  # faces a short-side wall of the start card


def test_edge_matching_filters_and_discards() -> None:
    state = new_game(ENGINE, 2, 5, {"edge_matching": True})
    state = _with_hand(state, 0, ["B19", "B02"])
    state.apply(DRAW)
    state.apply(select("B19"))  # ##.. : only slots whose facing edges it can copy
    legal = state.legal_actions()
    assert place(1, 0, 0) in legal  # W open meets the start card's open E
    assert place(1, 0, 1) not in legal  # W wall against an open edge
    assert place(0, -1, 0) not in legal  # S open against the start card's N wall
    assert place(0, -1, 1) in legal  # rot 1 puts the wall (N) on S
    closed = table(hands={0: ["B13", "B01"]})
    closed.options["edge_matching"] = True
    lay(closed, "B63", 0, 0, rot=1)
    lay(closed, "B15", 1, 0)
    closed.apply(DRAW)
    closed.apply(select("B13"))  # .... can match no frontier slot: all face walls
    assert closed.legal_actions() == [{"type": "discard"}]
    closed.apply({"type": "discard"})
    assert closed.observation(0)["discard"] == ["B13"]


def test_edge_matching_applies_against_a_sleeping_cats_open_edges() -> None:
    # Design decision (README "Rule readings"): with ``edge_matching`` a box card's edge
    # facing a sleeping cat must be open too (the cat's edges are all open), like any card's.
    state = table(hands={0: ["B02", "B13"]})
    state.options["edge_matching"] = True
    lay(state, "C1-1", 0, 0)  # seat 1's sleeping cat, alone in the layout
    state.apply(DRAW)
    state.apply(select("B02"))  # ###. : only W open (rot 1: only E open)
    assert state.legal_actions() == [place(-1, 0, 1), place(1, 0, 0)]
    free = table(hands={0: ["B02", "B13"]})
    lay(free, "C1-1", 0, 0)
    free.apply(DRAW)
    free.apply(select("B02"))
    assert len(free.legal_actions()) == 8  # without the option: both turns at all 4 slots


def test_short_deck_removes_box_cards_for_two_and_three_players() -> None:
    for players, deck in ((2, 80 - 24 - 4), (3, 80 - 12 - 6), (4, 80 - 8)):
        state = new_game(ENGINE, players, 3, {"short_deck": True})
        assert len(state.deck) == deck
        assert all(c < INDEX["P1"] for c in state.removed)  # only B.. cards
        assert state.observation(0)["removed"] == len(state.removed)


def test_bad_player_count_and_options() -> None:
    from engines.base import OptionError

    with pytest.raises(OptionError):
        new_game(ENGINE, 1, 0, {})
    with pytest.raises(OptionError):
        new_game(ENGINE, 6, 0, {})
    with pytest.raises(OptionError):
        new_game(ENGINE, 2, 0, {"tie_rule": "coin"})
    with pytest.raises(OptionError):
        new_game(ENGINE, 2, 0, {"no_such": 1})


def test_observation_hides_other_hands_and_reports_events() -> None:
    state = new_game(ENGINE, 2, 4, {})
    state.apply(DRAW)
    obs1 = state.observation(1)
    assert obs1["hand_sizes"] == [3, 2] and len(obs1["hand"]) == 2
    assert obs1["events"] == [[0, "draw_and_play", True]]
    assert state.observation(0)["events"] == []
    assert "catalog" not in obs1  # card data is data.CARDS, looked up by id
    text = "".join(str(v) for k, v in obs1.items() if k != "hand")
    assert not any(state.observation(0)["hand"][i] in text for i in range(3))


def test_render_shows_walls_open_sides_and_cats() -> None:
    state = closed_box_layout()
    awake(state, "C0-1", 0, 0)
    picture = state.render(None)
    assert "+=====++=====+" in picture
    assert "| B63 C0 B15 |" in picture
    assert "C0" in picture and "legend" in picture
    assert "hand" in state.render(1)
