"""My Lil' Everdell states sampled from one seat's observations, for search bots.

Everything is public but the order of the deck, and the latest observation carries all of
it (the queue of pending steps included, since version 3). So a sample is that observation
turned back into a state: the deck holds the main-deck cards in no meadow slot and in no
participant's tableau, in a uniformly random order; future dice and automa d8 rolls come
from a generator seeded from ``rng``. Earlier observations add nothing: a card leaves the
deck only face up into the meadow, and nothing returns to it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engines.little_everdell import rules
from engines.little_everdell.data import MAIN_DECK, Gain
from engines.little_everdell.rules import PARADES, LittleEverdellState, Pending

__all__ = ["sample_state"]

_PENDING_KIND = {name: kind for kind, name in rules.PENDING_NAMES.items()}


def sample_state(
    new_game: LittleEverdellState,
    seat: int,
    observations: Sequence[dict[str, Any]],
    rng: random.Random,
) -> LittleEverdellState:
    """Fill ``new_game`` (a fresh state with the game's options) from ``observations``."""
    obs = observations[-1]
    state = new_game
    state.round = obs["round"]
    state.turn = obs["turn"]
    state.first = obs["first_player"]
    state.dice = obs["dice"][:]
    state.dice_occ = obs["dice_occupied"][:]
    state.top = {space: occ[:] for space, occ in obs["top_spaces"].items()}
    state.meadow = obs["meadow"][:]
    state.princess_slots = [slot - 1 for slot in obs["princess_slots"]]
    state.stacks = {pid: obs["parade_stacks"][pid][:] for pid in PARADES}
    for player, view in zip(state.players, obs["players"], strict=True):
        player.res = view["resources"][:]
        player.tokens = view["point_tokens"]
        player.cards = view["cards"][:]
        player.parades = dict(view["parades"])
        player.red_used = view["red_spaces_used"][:]
        player.friends = view["friends_left"]
        player.view = None
    seen = {uid for uid in state.meadow if uid is not None}
    seen.update(uid for player in state.players for uid in player.cards)
    state.deck = [uid for uid in MAIN_DECK if uid not in seen]
    rng.shuffle(state.deck)
    pending = obs["pending"]
    state.over = pending is None
    state.stack = [_pending(item) for item in obs["queue"]]
    if pending is not None:
        kind = _PENDING_KIND[pending["kind"]]
        if kind == "garden":
            top: Pending = (kind, pending["seat"], pending["picks_left"], tuple(pending["picked"]))
        else:
            top = (kind, pending["seat"])
        state.stack.append(top)
    state.resume(obs["events"], rng)
    return state


def _pending(item: list[Any]) -> Pending:
    kind, seat, *rest = item
    if kind == "gain":
        berry, twig, resin, points, any_ = rest[0]
        return (kind, seat, Gain(berry, twig, resin, points, any_))
    if kind == "garden":
        return (kind, seat, rest[0], tuple(rest[1]))
    return (kind, seat)
