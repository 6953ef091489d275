"""Good Boy states sampled from one seat's observations, for search bots.

Everything at the table is public but the order of the dog deck, and the latest
observation carries all of it. So a sample is that observation turned back into a state:
the deck holds the dogs that are on no board and in no one's claimed pile, in a uniformly
random order; future dice come from a generator seeded from ``rng``. Earlier observations
add nothing (a dog leaves the deck only face up).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engines.good_boy import data
from engines.good_boy.rules import ANY, KIND_INDEX, GoodBoyState, Phase

__all__ = ["sample_state"]


def sample_state(
    new_game: GoodBoyState,
    seat: int,
    observations: Sequence[dict[str, Any]],
    rng: random.Random,
) -> GoodBoyState:
    """Fill ``new_game`` (a fresh state with the game's options) from ``observations``."""
    obs = observations[-1]
    state = new_game
    players = state.n
    state.pool = obs["pool"][:]
    state.hands = [hand[:] for hand in obs["hands"]]
    state.corners = [[corner[:] for corner in board] for board in obs["corners"]]
    state.boards = obs["boards"][:]
    state.claimed = [dogs[:] for dogs in obs["claimed"]]
    seen = {dog for dog in state.boards if dog is not None}
    seen.update(dog for dogs in state.claimed for dog in dogs)
    state.deck = [dog for dog in range(1, data.DOG_CARDS + 1) if dog not in seen]
    rng.shuffle(state.deck)
    sides = obs["sides"]
    state.cat_side = [False] * players if sides is None else [side == "cat" for side in sides]
    state.current = obs["current"]
    state.rolls = obs["rolls_this_turn"]
    roll = obs["last_roll"]
    state.last_roll = None if roll is None else (roll[0], roll[1])
    state.pending = [ANY if name == "any" else KIND_INDEX[name] for name in obs["pending"]]
    state.phase = Phase(obs["phase"])
    state.round = obs["round"]
    state.end_triggered = obs["end_triggered"]
    state.resume(obs["events"], rng)
    return state
