"""``sample_state`` for OpenSpiel games: a full state from one seat's observations.

In a game of perfect information the last observation's ``history`` is the whole game:
it is replayed. Otherwise the seat's ``information_state`` strings are matched by a
depth-first walk of the game tree from its root (every chance outcome and every action of
the other seats; the seat's own actions are checked by its next information state), at
most :data:`NODES` nodes; the state found is then redrawn by OpenSpiel's
``resample_from_infostate`` on every sample (the state's ``determinize``). A game without
information-state strings, or without ``resample_from_infostate``, cannot be sampled: an
:class:`~engines.base.EngineError` says so. The walk suits small games (Kuhn and Leduc
poker, Liar's Dice); a large game runs out of nodes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engines.base import CannotSample, EngineError
from engines.openspiel.rules import OpenSpielState

NODES = 200_000  # the most tree nodes one rebuild visits


def sample_state(
    fresh: OpenSpielState, seat: int, observations: Sequence[dict[str, Any]], rng: random.Random
) -> OpenSpielState:
    """A state whose ``seat`` has seen ``observations`` (the last is the current one)."""
    engine, game = fresh.engine, fresh.game
    root = game.new_initial_state()
    if engine.perfect:
        for action in observations[-1]["history"]:
            root.apply_action(action)
        return OpenSpielState.wrap(engine, root, rng)
    if not engine.infostates:
        raise CannotSample(
            f"{engine.name}: OpenSpiel gives this game no information-state string, so a "
            "state cannot be rebuilt from a seat's observations"
        )
    targets = [view["information_state"] for view in observations]
    found = _walk(root, seat, targets, 0, [NODES])
    if found is None:
        raise EngineError(
            f"{engine.name}: no state matching seat {seat}'s observations within {NODES} nodes"
        )
    state = OpenSpielState.wrap(engine, found, rng)
    if not engine.resamples(found, seat):
        raise CannotSample(
            f"{engine.name}: OpenSpiel offers no resample_from_infostate for this game"
        )
    return state


def _walk(state: Any, seat: int, targets: list[str], seen: int, budget: list[int]) -> Any:
    """The first state below ``state`` where ``seat`` decides with ``targets[-1]``, having
    decided with ``targets[seen:]`` on the way; None if there is none (or no budget)."""
    budget[0] -= 1
    if budget[0] < 0 or state.is_terminal():
        return None
    if state.is_chance_node():
        children = [a for a, p in state.chance_outcomes() if p > 0]
    else:
        if state.current_player() == seat:
            if state.information_state_string(seat) != targets[seen]:
                return None
            if seen == len(targets) - 1:
                return state
            seen += 1
        children = state.legal_actions()
    for action in children:
        found = _walk(state.child(action), seat, targets, seen, budget)
        if found is not None:
            return found
    return None
