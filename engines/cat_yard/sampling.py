"""Cat Yard states sampled from one seat's observations, for search bots.

Everything on the table is public; hidden are the order of the bait deck and of the cat
stack, except the points of the top tile (printed on its back). The latest observation
carries all the rest (``draws_left`` since version 3), so a sample is that observation
turned back into a state plus:

- the bait deck: every bait card that is on no cushion, in no discard pile, not revealed,
  not a pending dog and not being placed, in a uniformly random order;
- the cat stack: the tiles in no yard slot, owned by no one and not discarded; its top is
  drawn uniformly among those with the visible top points, the rest in a uniformly random
  order beneath it;
- the state's generator (later reshuffles) seeded from ``rng``.

Earlier observations add nothing: cards and tiles leave the deck and the stack face up, and
the top points seen before belong to tiles that are face up now.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engines.cat_yard.rules import BAIT_IDS, CAT_IDS, CAT_POINTS, CatYardState, Phase

__all__ = ["sample_state"]


def sample_state(
    new_game: CatYardState,
    seat: int,
    observations: Sequence[dict[str, Any]],
    rng: random.Random,
) -> CatYardState:
    """Fill ``new_game`` (a fresh state with the game's options) from ``observations``."""
    obs = observations[-1]
    state = new_game
    state.phase = Phase(obs["phase"])
    state.current = obs["to_move"]
    state.round = obs["round"]
    state.end_triggered = obs["end_triggered"]
    state.main_action = obs["main_action"]
    state.owned = [[cat for cat, _used in view[2]] for view in obs["players"]]
    state.used = [False] * len(state.used)
    for view in obs["players"]:
        for cat, used in view[2]:
            state.used[cat] = used
    state.cushions = [fields[:] for fields in obs["cushions"]]
    state.protected = obs["protected"][:]
    state.yard = obs["yard"][:]
    state.cat_discard = obs["cat_discard"][:]
    state.discard = obs["discard"][:]
    state.revealed = obs["revealed"][:]
    state.pending_dog = obs["pending_dog"]
    state.drawn = obs["drawn"]
    state.draws_left = obs["draws_left"]
    state.swapped_with = obs["swapped_with"][:]
    if state.main_action == "none":
        state.return_phase = Phase.START
    else:
        state.return_phase = Phase.GATHER_DECIDE if state.revealed else Phase.POST

    seen = {card for fields in state.cushions for card in fields}
    seen.update(state.discard, state.revealed, (state.pending_dog, state.drawn))
    state.deck = [card for card in BAIT_IDS if card not in seen]
    rng.shuffle(state.deck)

    gone = set(state.yard) | set(state.cat_discard)
    gone.update(cat for owned in state.owned for cat in owned)
    stack = [cat for cat in CAT_IDS if cat not in gone]
    top_points = obs["cat_stack_top_points"]
    if stack:
        tops = [cat for cat in stack if CAT_POINTS[cat] == top_points]
        top = tops[rng.randrange(len(tops))]
        stack.remove(top)
        rng.shuffle(stack)
        stack.append(top)
    state.cat_stack = stack

    state.resume(obs["events"], rng)
    state.settle()
    return state
