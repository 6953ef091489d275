"""``Engine.sample_state``: worlds drawn from what one seat observed.

For every engine and player count, at random decision points of seeded random games, a
state sampled from the deciding seat's observations must show that seat the same
observation and the same legal list as the real game, and must keep playing to an end.
Over many samples of one decision point, every hidden card lands only where the seat
cannot rule it out, and each one the seat cannot locate does land in each of those places.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import engines
from engines.base import State, resolve_options
from engines.cat_yard.rules import CAT_IDS, CAT_POINTS, CatYardState
from engines.good_boy.rules import GoodBoyState
from engines.if_it_fits import data as fits_data
from engines.if_it_fits.rules import DECK_CARDS, INDEX, KINDS, IfItFitsState
from engines.little_everdell.rules import LittleEverdellState
from engines.space_five.rules import CODE_OF, SpaceFiveState

CASES = [
    (name, players)
    for name in engines.names()
    for players in range(engines.get(name).min_players, engines.get(name).max_players + 1)
]
IDS = [f"{name}-{players}p" for name, players in CASES]
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "space-five": [{"rounds": 2}],
    "if-it-fits": [{"short_deck": True, "edge_matching": True}],
    "good-boy": [{"variant": "hard"}],
}

Decision = tuple[State, int, list[dict[str, Any]]]


def decisions(
    name: str, players: int, seed: int, options: dict[str, Any], count: int = 6
) -> list[Decision]:
    """Copies of a seeded random game at ``count`` decision points spread over the game (one
    of them random), each with the observations its seat received so far."""
    engine = engines.get(name)
    state = engine.new_game(players, seed, options)
    rng = random.Random(seed)
    seen: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    every: list[Decision] = []
    while (seat := state.to_move()) is not None:
        seen[seat].append(state.observation(seat))
        every.append((state.clone(), seat, list(seen[seat])))
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    step = max(1, len(every) // (count - 1))
    spread = every[rng.randrange(step) :: step][: count - 1]
    return [*spread, rng.choice(every)]


def play_out(state: State, rng: random.Random) -> None:
    """Play random legal actions until the game ends (it must end)."""
    for _ in range(100_000):
        if state.to_move() is None:
            return
        state.apply_index(rng.randrange(len(state.legal_actions())))
    raise AssertionError("the game did not end within 100000 steps")


def option_sets(name: str, players: int) -> list[dict[str, Any]]:
    engine = engines.get(name)
    sets = [resolve_options(engine.option_specs(), {})]
    for extra in OPTIONS.get(name, []):
        if name != "space-five" or players > 1:
            sets.append(resolve_options(engine.option_specs(), extra))
    return sets


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_sample_shows_the_seat_what_it_saw(name: str, players: int) -> None:
    engine = engines.get(name)
    rng = random.Random(7)
    checked = 0
    for options in option_sets(name, players):
        for seed in (1, 2):
            for real, seat, seen in decisions(name, players, seed, options):
                sample = engine.sample_state(players, options, seat, seen, rng)
                assert sample.to_move() == seat
                assert sample.observation(seat) == real.observation(seat)
                assert sample.legal_actions() == real.legal_actions()
                checked += 1
            play_out(sample, rng)  # a sample is a game that goes on to an end
    assert checked >= 6


# -- where hidden cards may be -------------------------------------------------------------
# Per engine: the hidden places of a state (name -> cards there) as seen from ``seat``, and
# the places each card the seat cannot locate may be in, from the seat's observation.

Places = dict[str, Counter[Any]]


def good_boy_places(state: State, seat: int) -> Places:
    assert isinstance(state, GoodBoyState)
    return {"deck": Counter(state.deck)}


def good_boy_allowed(obs: dict[str, Any], seat: int) -> dict[str, set[Any]]:
    seen = {dog for dog in obs["boards"] if dog is not None}
    seen.update(dog for dogs in obs["claimed"] for dog in dogs)
    return {"deck": {dog for dog in range(1, 29) if dog not in seen}}


def everdell_places(state: State, seat: int) -> Places:
    assert isinstance(state, LittleEverdellState)
    return {"deck": Counter(state.deck)}


def everdell_allowed(obs: dict[str, Any], seat: int) -> dict[str, set[Any]]:
    from engines.little_everdell.data import MAIN_DECK

    seen = {uid for uid in obs["meadow"] if uid is not None}
    seen.update(uid for player in obs["players"] for uid in player["cards"])
    return {"deck": {uid for uid in MAIN_DECK if uid not in seen}}


def cat_yard_places(state: State, seat: int) -> Places:
    assert isinstance(state, CatYardState)
    return {
        "deck": Counter(state.deck),
        "stack-top": Counter(state.cat_stack[-1:]),
        "stack": Counter(state.cat_stack),
    }


def cat_yard_allowed(obs: dict[str, Any], seat: int) -> dict[str, set[Any]]:
    from engines.cat_yard.rules import BAIT_IDS

    seen = {card for fields in obs["cushions"] for card in fields}
    seen.update(obs["discard"], obs["revealed"], (obs["pending_dog"], obs["drawn"]))
    gone = set(obs["yard"]) | set(obs["cat_discard"])
    gone.update(cat for view in obs["players"] for cat, _used in view[2])
    stack = {cat for cat in CAT_IDS if cat not in gone}
    top = obs["cat_stack_top_points"]
    return {
        "deck": {card for card in BAIT_IDS if card not in seen},
        "stack-top": {cat for cat in stack if CAT_POINTS[cat] == top},
        "stack": stack,
    }


def fits_places(state: State, seat: int) -> Places:
    assert isinstance(state, IfItFitsState)
    places = {f"hand-{s}": Counter(hand) for s, hand in enumerate(state.hands) if s != seat}
    places["deck"] = Counter(state.deck)
    places["removed"] = Counter(state.removed)
    return places


def fits_allowed(obs: dict[str, Any], seat: int) -> dict[str, set[Any]]:
    seen = {INDEX[entry[2]] for entry in obs["layout"]}
    seen.update(INDEX[entry[2]] for entry in obs["seam_princesses"])
    seen.update(INDEX[card] for card in obs["discard"])
    if obs["pending"] is not None:
        seen.add(INDEX[obs["pending"]["card"]])
    own = {INDEX[card] for card in obs["hand"]}
    unseen = {card for card in DECK_CARDS if card not in seen | own}
    allowed = {
        f"hand-{s}": unseen if size else set()
        for s, size in enumerate(obs["hand_sizes"])
        if s != seat
    }
    allowed["deck"] = unseen if obs["deck_size"] else set()
    boxes = {card for card in unseen if KINDS[card] == fits_data.BOX}
    allowed["removed"] = boxes if obs["removed"] else set()
    return allowed


def space_five_places(state: State, seat: int) -> Places:
    assert isinstance(state, SpaceFiveState)
    places = {f"hand-{s}": Counter(hand) for s, hand in enumerate(state.hands) if s != seat}
    for s, stack in enumerate(state.stacks):
        places[f"stack-{s}"] = Counter(stack)
    places["box"] = Counter(state.box)
    return places


def space_five_allowed(obs: dict[str, Any], seat: int) -> dict[str, set[Any]]:
    visible = visible_counts("space-five", obs, seat)
    assert visible is not None
    everything = {code for code in range(25) if visible[code] < 4}
    allowed = {f"hand-{s}": everything for s in range(obs["num_players"]) if s != seat}
    for s in range(obs["num_players"]):
        allowed[f"stack-{s}"] = everything if obs["stack_sizes"][s] else set()
    allowed["box"] = everything if obs["box_size"] else set()
    return allowed


def space_five_known(obs: dict[str, Any], seat: int, state: State) -> None:
    """The seat's exchanged cards stay in its stack bottom or the box; its box cards stay."""
    assert isinstance(state, SpaceFiveState)
    bottom = sum(left for _names, left in obs["own_stack_bottom"])
    kept = Counter(state.stacks[seat][len(state.stacks[seat]) - bottom :])
    expected_box = Counter(CODE_OF[name] for name in obs["own_in_box"])
    candidates: Counter[int] = Counter()
    for names, _left in obs["own_stack_bottom"]:
        candidates.update(CODE_OF[name] for name in names)
    assert not kept - candidates  # the stack bottom holds only exchanged cards
    assert not expected_box - Counter(state.box)
    assert not (candidates - kept) - Counter(state.box)  # the rest of them is in the box


PLACES: dict[str, tuple[Callable[[State, int], Places], Callable[..., dict[str, set[Any]]]]] = {
    "good-boy": (good_boy_places, good_boy_allowed),
    "little-everdell": (everdell_places, everdell_allowed),
    "cat-yard": (cat_yard_places, cat_yard_allowed),
    "if-it-fits": (fits_places, fits_allowed),
    "space-five": (space_five_places, space_five_allowed),
}


def visible_counts(name: str, obs: dict[str, Any], seat: int) -> Counter[Any] | None:
    """Space Five has four copies of each card: what the seat sees of each, by code."""
    if name != "space-five":
        return None
    counts: Counter[Any] = Counter(CODE_OF[entry[2]] for entry in obs["layout"])
    counts.update(CODE_OF[card] for card in obs["hand"])
    counts.update(CODE_OF[card] for card in obs.get("discard_pile", []))
    return counts


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_hidden_cards_land_only_where_they_may_be(name: str, players: int) -> None:
    engine = engines.get(name)
    places_of, allowed_of = PLACES[name]
    options = resolve_options(engine.option_specs(), {})
    rng = random.Random(11)
    for _real, seat, seen in decisions(name, players, 3, options, count=3):
        obs = seen[-1]
        allowed = allowed_of(obs, seat)
        landed: dict[str, set[Any]] = {place: set() for place in allowed}
        visible = visible_counts(name, obs, seat)
        for _ in range(150):
            sample = engine.sample_state(players, options, seat, seen, rng)
            places = places_of(sample, seat)
            assert set(places) == set(allowed)
            for place, cards in places.items():
                assert set(cards) <= allowed[place], (place, set(cards) - allowed[place])
                landed[place].update(cards)
            if visible is not None:  # no card more often than its copies allow
                hidden = sum((places[p] for p in places), Counter[Any]())
                assert all(hidden[code] + visible[code] <= 4 for code in hidden)
                space_five_known(obs, seat, sample)
        # every card the seat cannot locate turned up somewhere it may be
        assert set().union(*landed.values()) == set().union(*allowed.values())
