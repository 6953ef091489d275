"""If It Fits states sampled from one seat's observations, for search bots.

Public: the layout (cards, rotations, sleeping and awake cats, Princesses), the discard
pile, the card being resolved, hand sizes, cat supplies, deck size and the number of
short-deck cards removed. Hidden from a seat: the other hands, the deck order and which box
cards the short deck removed. A sample rebuilds the public table from the latest
observation (laying its layout entries again in the order they were laid: the boxes are the
connected components, whatever the order) and deals the cards the seat cannot see:

- the *unseen* cards are the deck cards (boxes, specials, Princesses) in no layout slot, on
  no seam, in no discard pile, not being resolved and not in the seat's own hand;
- the removed cards are a uniformly random set of the unseen *box* cards of the right size
  (the short deck removes box cards only);
- the rest are shuffled uniformly and dealt to the other hands (their sizes) and the deck.

Earlier observations add nothing: cards leave the hidden part only face up (a drawn card is
never named, and every card a seat plays is named), and no card ever returns to a hand.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from typing import Any

from engines.base import JsonList
from engines.if_it_fits import data
from engines.if_it_fits.geometry import Layout, slot_code
from engines.if_it_fits.rules import (
    DECK_CARDS,
    FIRST_CAT,
    INDEX,
    KINDS,
    PLACE_CAT,
    IfItFitsState,
    cat_owner,
)

__all__ = ["sample_state"]


def sample_state(
    new_game: IfItFitsState,
    seat: int,
    observations: Sequence[dict[str, Any]],
    rng: random.Random,
) -> IfItFitsState:
    """Fill ``new_game`` (a fresh state with the game's options) from ``observations``."""
    obs = observations[-1]
    state = new_game
    players = state.players
    state.layout = Layout(players)
    state.slot_card, state.entries, state.entry_at = {}, JsonList(), {}
    state.awake, state.seam_princess, state.cat_place = {}, {}, {}
    seen: set[int] = set()
    for x, y, card_id, rot in obs["layout"]:
        card, code = INDEX[card_id], slot_code(x, y)
        state.lay(card, code, rot)
        seen.add(card)
        if KINDS[card] == data.CAT:
            state.cat_place[card] = (False, code)
            state.count_cat(code, cat_owner(card), +1)
    for x, y, card_id in obs["awake_cats"]:
        cat, code = INDEX[card_id], slot_code(x, y)
        state.awake[code] = cat
        state.cat_place[cat] = (True, code)
        state.count_cat(code, cat_owner(cat), +1)
    for x, y, card_id in obs["seam_princesses"]:
        state.seam_princess[slot_code(x, y)] = INDEX[card_id]
        seen.add(INDEX[card_id])
    state.supply = [
        [
            cat
            for cat in range(
                FIRST_CAT + s * data.CATS_PER_SEAT, FIRST_CAT + (s + 1) * data.CATS_PER_SEAT
            )
            if cat not in state.cat_place
        ]
        for s in range(players)
    ]
    state.discard = [INDEX[card_id] for card_id in obs["discard"]]
    seen.update(state.discard)
    pending = obs["pending"]
    state.pending = state.pending_slot = None
    if pending is not None:
        state.pending = INDEX[pending["card"]]
        seen.add(state.pending)
        if pending["slot"] is not None:
            state.pending_slot = slot_code(*pending["slot"])
    own = [INDEX[card_id] for card_id in obs["hand"]]
    seen.update(own)

    unseen = [card for card in DECK_CARDS if card not in seen]
    rng.shuffle(unseen)
    removed = [card for card in unseen if KINDS[card] == data.BOX][: obs["removed"]]
    gone = set(removed)
    rest = [card for card in unseen if card not in gone]
    state.removed = sorted(removed)
    hands: list[list[int]] = []
    for s, size in enumerate(obs["hand_sizes"]):
        if s == seat:
            hands.append(own)
            continue
        hand: list[int] = []
        for card in rest[:size]:
            insort(hand, card)
        hands.append(hand)
        rest = rest[size:]
    state.hands = hands
    state.deck = rest

    state.current = obs["to_move"] if obs["to_move"] is not None else seat
    state.phase = obs["phase"]
    state.seams = []
    if state.phase == PLACE_CAT and state.pending_slot is not None:
        code = state.pending_slot
        state.seams = state.cat_seams(state.current, code, state.layout.box(code))
    state.resume(obs["events"], rng)
    return state
