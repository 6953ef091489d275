"""If It Fits: seeded random play-outs, incremental boxes vs flood fill, leaks, greedy bot."""

from __future__ import annotations

import json
import random
from itertools import chain
from typing import Any

import pytest

from arena.game.local import play_local
from arena.sdk import Choose
from bots import if_it_fits_greedy
from bots import random as random_bot
from engines.if_it_fits import IfItFitsEngine
from engines.if_it_fits.data import CARDS
from engines.if_it_fits.geometry import (
    ALL_OPEN,
    DIRECTIONS,
    Layout,
    flood_fill_boxes,
    rotate,
    slot_code,
    slot_xy,
)
from engines.if_it_fits.rules import (
    BOX_TYPES,
    CARD_IDS,
    FIRST_CAT,
    INDEX,
    KINDS,
    MASKS,
    PLACE_BOX,
    PRINCESS,
    START_CARDS,
    IfItFitsState,
)
from engines.testing import check_contract, new_game, random_playout

ENGINE = IfItFitsEngine()  # its own type: the tests read the state's fields


ALL_CARDS = set(range(len(CARD_IDS)))
MAX_LEGAL = 400


def accounted(state: IfItFitsState) -> list[int]:
    """Every card the game still uses, wherever it is (duplicates kept, to be detected)."""
    cards = [
        *state.deck,
        *state.removed,
        *state.discard,
        *chain.from_iterable(state.hands),
        *chain.from_iterable(state.supply),
        *state.slot_card.values(),
        *state.awake.values(),
        *state.seam_princess.values(),
    ]
    if state.phase in (PLACE_BOX, PRINCESS) and state.pending is not None:
        cards.append(state.pending)
    return cards


def check_invariants(state: IfItFitsState) -> None:
    cards = accounted(state)
    assert len(cards) == len(set(cards)), "a card is in two places"
    unused_starts = set(START_CARDS) - set(state.slot_card.values())
    unused_cats = set(range(FIRST_CAT + 5 * state.players, len(CARD_IDS)))
    assert set(cards) | unused_starts | unused_cats == ALL_CARDS, "a card was lost"
    assert len(unused_starts) == 5 - state.players
    slots = [tuple(e[:2]) for e in state.entries]
    assert len(slots) == len(set(slots)) == len(state.slot_card), "two cards share a slot"
    for seam in chain(state.awake, state.seam_princess):
        for code in (seam, seam + 1):
            assert KINDS[state.slot_card[code]] in BOX_TYPES, "a seam off two box cards"
    assert not set(state.awake) & set(state.seam_princess)
    check_compact_observation(state)


def check_compact_observation(state: IfItFitsState) -> None:
    """The compact observation (ids + rot, box lists) reproduces the engine's geometry."""
    obs = state.observation(0)
    layout = obs["layout"]
    assert len(layout) == len(state.slot_card)
    for x, y, card, rot in layout:
        code = slot_code(x, y)
        assert CARD_IDS[state.slot_card[code]] == card
        assert rotate(MASKS[INDEX[card]], rot) == state.layout.open[code]
    for part in (layout, obs["boxes"]):  # the kept text is the compact JSON of the items
        assert part.json_text == json.dumps(part, separators=(",", ":"))
    boxes = {
        frozenset(slot_code(*layout[i][:2]) for i in members): (sides, cats, toys(layout, members))
        for members, sides, cats in obs["boxes"]
    }
    assert boxes == {
        frozenset(b.members): (b.open_sides, b.cats, [*b.toys, b.special, b.spray])
        for b in state.layout.boxes.values()
    }


def toys(layout: list[list[Any]], members: list[int]) -> list[int]:
    """Toys per kind, special toys and sprays of a box, summed from the card table."""
    rows = [CARDS[INDEX[layout[i][2]]] for i in members]
    return [sum(r.toys[k] for r in rows) for k in range(4)] + [
        sum(r.special for r in rows),
        sum(r.spray for r in rows),
    ]


def check_boxes_against_flood_fill(layout: Layout) -> None:
    expected = {members: sides for members, sides in flood_fill_boxes(layout.open)}
    tracked = {frozenset(b.members): b.open_sides for b in layout.boxes.values()}
    assert tracked == expected
    for root, box in layout.boxes.items():
        assert all(layout.find(code) == root for code in box.members)
        assert box.first == min(box.members)


@pytest.mark.parametrize(
    ("players", "seeds"),
    [(players, range(35)) for players in (2, 3, 4, 5)]
    + [pytest.param(players, range(35, 70), marks=pytest.mark.slow) for players in (2, 3, 4, 5)],
)
def test_random_playouts_end_and_conserve_cards(players: int, seeds: range) -> None:
    """Seeded random games end, keep every card and box consistent: 35 seeds a seat count,
    35 more under ``-m slow``."""
    longest = 0
    for seed in seeds:

        def each_step(state: object) -> None:
            assert isinstance(state, IfItFitsState)
            assert len(state.legal_actions()) <= MAX_LEGAL
            check_invariants(state)

        state, moves = random_playout(ENGINE, players, seed, each_step=each_step)
        assert isinstance(state, IfItFitsState)
        longest = max(longest, len(moves))
        check_invariants(state)
        assert not state.deck and not any(state.hands)
        result = state.result()
        parts = [0.0] * players
        for box in result.detail["boxes_scored"]:
            for seat in box["to"]:
                parts[seat] += box["value"]
        assert parts == result.scores, "scores are not the sum of their boxes"
    assert longest < 2_000


def test_incremental_boxes_equal_flood_fill_in_games() -> None:
    for seed in range(12):

        def each_step(state: object) -> None:
            assert isinstance(state, IfItFitsState)
            check_boxes_against_flood_fill(state.layout)
            check_cats_and_contents(state)

        random_playout(ENGINE, 2 + seed % 4, 1000 + seed, each_step=each_step)


def test_clones_and_originals_keep_their_own_boxes() -> None:
    """Boxes are shared copy-on-write: clones taken along a game, then each played on to its
    own end, and the original all keep boxes equal to a count from scratch."""
    for seed in range(4):
        rng = random.Random(seed)
        state = new_game(ENGINE, 2 + seed % 4, 2000 + seed)
        assert isinstance(state, IfItFitsState)
        twins = []
        while state.to_move() is not None:
            if rng.random() < 0.2:
                twins.append(state.clone())
            state.apply_index(rng.randrange(len(state.legal_actions())))
        for twin in twins:
            while twin.to_move() is not None:
                twin.apply_index(rng.randrange(len(twin.legal_actions())))
        for each in (state, *twins):
            check_boxes_against_flood_fill(each.layout)
            check_cats_and_contents(each)
            check_compact_observation(each)


def check_cats_and_contents(state: IfItFitsState) -> None:
    """Per-box toys and cat counts equal a from-scratch tally."""
    for members, _ in flood_fill_boxes(state.layout.open):
        box = state.layout.box(next(iter(members)))
        toys = [0, 0, 0, 0]
        cats = [0] * state.players
        for code in members:
            card = state.slot_card[code]
            toys = [a + b for a, b in zip(toys, _toys(card), strict=True)]
            if KINDS[card] == "cat":
                cats[(card - FIRST_CAT) // 5] += 1
        for seam, cat in state.awake.items():
            if seam in members:
                cats[(cat - FIRST_CAT) // 5] += 1
        assert box.toys == toys and box.cats == cats


def _toys(card: int) -> tuple[int, int, int, int]:
    from engines.if_it_fits.data import CARDS

    return CARDS[card].toys


def test_incremental_boxes_equal_flood_fill_random_masks() -> None:
    """Union-find under arbitrary masks and placements, far beyond real decks."""
    rng = random.Random(7)
    for _ in range(40):
        layout = Layout(2)
        layout.place(slot_code(0, 0), rng.randrange(16))
        for _ in range(120):
            slot = rng.choice(layout.frontier_slots())
            layout.place(slot, rng.choice([rng.randrange(16), ALL_OPEN]))
        check_boxes_against_flood_fill(layout)
        for code in layout.frontier_slots():
            assert code not in layout.open
            facing = sum(
                1 for _, step, back in DIRECTIONS if layout.open.get(code + step, 0) & back
            )
            assert layout.frontier[code] == facing, slot_xy(code)


VARIANTS = [
    (2, {"edge_matching": True}),
    (4, {"edge_matching": True}),
    (2, {"short_deck": True}),
    (3, {"short_deck": True, "tie_rule": "none_score"}),
    (5, {"tie_rule": "none_score"}),
]


@pytest.mark.parametrize(("players", "options"), VARIANTS)
def test_contract_for_variants(players: int, options: dict[str, object]) -> None:
    check_contract(ENGINE, players, options, seeds=range(2))


@pytest.mark.parametrize(("players", "options"), VARIANTS)
def test_variant_playouts_conserve_cards(players: int, options: dict[str, object]) -> None:
    for seed in range(15):

        def each_step(state: object) -> None:
            assert isinstance(state, IfItFitsState)
            check_invariants(state)

        random_playout(ENGINE, players, seed, options, each_step=each_step, max_legal=MAX_LEGAL)


def test_determinize_redeals_hidden_cards_only() -> None:
    state = new_game(ENGINE, 3, 5, {})
    for _ in range(20):
        state.apply(state.legal_actions()[0])
    rng = random.Random(1)
    twins = [state.determinize(0, rng) for _ in range(5)]
    for twin in twins:
        assert twin.observation(0) == state.observation(0)
        assert twin.hands[0] == state.hands[0]
        assert sorted(twin.deck + twin.hands[1] + twin.hands[2]) == sorted(
            state.deck + state.hands[1] + state.hands[2]
        )
    assert any(t.deck != state.deck for t in twins)
    assert any(t.hands[1] != state.hands[1] for t in twins)


def test_determinize_keeps_short_deck_removals_box_cards() -> None:
    state = new_game(ENGINE, 2, 8, {"short_deck": True})
    twin = state.determinize(1, random.Random(3))
    assert len(twin.removed) == 24 and all(KINDS[c] == "box" for c in twin.removed)
    assert twin.removed != state.removed
    assert twin.observation(1) == state.observation(1)


def test_seed_and_moves_replay_the_same_game() -> None:
    state, moves = random_playout(ENGINE, 4, 21)
    replay = new_game(ENGINE, 4, 21, {})
    for index in moves:
        replay.apply_index(index)
    assert replay.result() == state.result()
    assert replay.observation(2) == state.observation(2)


def test_greedy_clearly_beats_random() -> None:
    """24 seat-rotated 2-player games and 8 four-player games; fixed seeds."""
    wins = games = 0
    for seed in range(12):
        for greedy_seat in (0, 1):
            policies: list[Choose] = [random_bot.choose, random_bot.choose]
            policies[greedy_seat] = if_it_fits_greedy.choose
            result = play_local("if-it-fits", policies, seed)
            wins += result.ranks[greedy_seat] == 1
            games += 1
    assert wins >= 0.85 * games, f"greedy won {wins} of {games} against random"
    firsts = 0
    for seed in range(8):
        table: list[Choose] = [random_bot.choose] * 4
        table[seed % 4] = if_it_fits_greedy.choose
        firsts += play_local("if-it-fits", table, 50 + seed).ranks[seed % 4] == 1
    assert firsts >= 6, f"greedy first in only {firsts} of 8 four-player games"
