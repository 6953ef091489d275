"""Space Five states sampled from one seat's observations, for search bots.

Public: the layout, the solo discard pile, hand and stack sizes, the box size, the play in
progress. The seat also knows its own hand and, since version 3, what it remembers of hidden
cards (``own_stack_bottom``: the cards it exchanged, still under its own stack;
``own_in_box``: its own cards it put in the box). A sample rebuilds the table from the latest
observation, then deals the cards the seat cannot locate, as
:meth:`SpaceFiveState.determinize` does for a full state:

- the seat's exchanged cards stay at the bottom of its stack (in a uniformly random order
  inside each exchange; when some of an exchange left the stack unseen, a uniformly random
  subset of its candidates is the part still there, the rest is in the box) and its known
  box cards stay in the box;
- every other card of the 100 that is not in the layout, the discard pile or the seat's
  hand is shuffled uniformly and dealt to the other hands, the rest of every stack and the
  box, by their sizes.

Earlier observations give the start turn of the round (``round_start`` event, for the turn
cap) and the scores of finished rounds (``round_end`` events); nothing else about hidden
cards: every card that leaves a hidden place for a public one is named.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engines.space_five.rules import (
    CODE_OF,
    CODES,
    COPIES,
    OFF,
    WIDE,
    Phase,
    SpaceFiveState,
)

__all__ = ["sample_state"]


def sample_state(
    new_game: SpaceFiveState,
    seat: int,
    observations: Sequence[dict[str, Any]],
    rng: random.Random,
) -> SpaceFiveState:
    """Fill ``new_game`` (a fresh state with the game's options) from ``observations``."""
    obs = observations[-1]
    state = new_game
    players = state.players
    state.round = obs["round"]
    state.turn = obs["turn"]
    state.turns_without_play = obs["turns_without_play"]
    state.active = obs["active_seat"]
    state.phase = Phase(obs["phase"])
    state.round_scores, state.round_ends = _finished_rounds(observations, state.round)
    state.round_start_turn = _round_start_turn(observations, state.round)
    state.outcome = None

    state.set_layout({(x, y): CODE_OF[name] for x, y, name in obs["layout"]})
    placed = obs["pending"]["placed"]
    state.placed = [(x, y) for x, y, _ in obs["layout"][len(obs["layout"]) - placed :]]
    state.placed_keys = [(y + OFF) * WIDE + x + OFF for x, y in state.placed]
    state.picked = [CODE_OF[name] for name in obs["pending"]["exchange_picked"]]
    state.bonus_left = obs["pending"]["bonus_left"]
    state.discard = [CODE_OF[name] for name in obs.get("discard_pile", [])]

    # Any placement of the hidden cards with the right sizes; determinize redeals them.
    own = [CODE_OF[name] for name in obs["hand"]]
    counts = [COPIES] * CODES
    for _x, _y, name in obs["layout"]:
        counts[CODE_OF[name]] -= 1
    for code in (*state.discard, *own):
        counts[code] -= 1
    hidden = [code for code in range(CODES) for _ in range(counts[code])]
    state.hands = [
        own if s == seat else _take(hidden, obs["hand_sizes"][s]) for s in range(players)
    ]
    state.stacks = [_take(hidden, size) for size in obs["stack_sizes"]]
    state.box = hidden
    state.groups = [[] for _ in range(players)]
    state.groups[seat] = [
        (tuple(CODE_OF[name] for name in names), left) for names, left in obs["own_stack_bottom"]
    ]
    state.box_known = [[] for _ in range(players)]
    state.box_known[seat] = [CODE_OF[name] for name in obs["own_in_box"]]
    if state.solo and state.phase is Phase.TURN_START:
        state.solo_starts = state.find_solo_starts()

    state.resume(obs["events"], rng)
    return state.determinize(seat, rng)


def _take(cards: list[int], count: int) -> list[int]:
    taken = cards[len(cards) - count :] if count else []
    del cards[len(cards) - count :]
    return taken


def _finished_rounds(
    observations: Sequence[dict[str, Any]], current: int
) -> tuple[list[list[int]], list[str]]:
    """Scores (cards left per seat) and ends (as ``detail["end"]``) of the rounds before
    ``current``."""
    scores: dict[int, list[int]] = {}
    reasons: dict[int, str] = {}
    for obs in observations:
        for event in obs["events"]:
            if event[2] == "round_end" and event[3] < current:
                scores[event[3]] = list(event[6])
                reasons[event[3]] = event[7] or event[4]  # the cap of a blocked end
    return [scores[r] for r in range(current)], [reasons[r] for r in range(current)]


def _round_start_turn(observations: Sequence[dict[str, Any]], current: int) -> int:
    """The turn count when round ``current`` started (from its ``round_start`` event)."""
    for obs in reversed(observations):
        for event in reversed(obs["events"]):
            if event[2] == "round_start" and event[3] == current:
                turn: int = event[0]
                return turn
    raise ValueError(f"no round_start event of round {current} in the observations")
