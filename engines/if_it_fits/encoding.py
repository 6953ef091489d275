"""If It Fits' action numbering and observation tensor (see :class:`engines.base.Encoding`).

The layout is an unbounded grid, so a slot's id is the rank of the slot among the empty
slots next to the layout (the *frontier*, in reading order: ``y`` then ``x``), read from
the observation of the seat to move; a cat's seam is the West or East one of the card just
placed. The other ids are fixed by the action alone. The tensor is built from the
protocol's observation only. The README's "Action ids and observation tensor" section
lists both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Action
from engines.encodingkit import ActionSpace, LaidOut, TurnLayout, Vector, frontier
from engines.if_it_fits import data
from engines.if_it_fits.geometry import rotate
from engines.if_it_fits.rules import (
    CARD_IDS,
    DECK_CARDS,
    INDEX,
    KINDS,
    MASKS,
    OVER,
    PLACE_BOX,
    PLACE_CAT,
    PRINCESS,
    SELECT,
    TURN,
)

CARDS = len(CARD_IDS)
PHASES = (TURN, SELECT, PLACE_BOX, PRINCESS, PLACE_CAT, OVER)
CARD_KINDS = (data.BOX, data.SPECIAL, data.START, data.PRINCESS, data.CAT)
BOX_CARDS = sum(1 for i in DECK_CARDS if KINDS[i] in (data.BOX, data.SPECIAL))
PRINCESSES = sum(1 for kind in KINDS if kind == data.PRINCESS)
_SIMPLE = ("draw_and_play", "pass", "discard", "princess_discard", "no_cat")


def _owner(card: str) -> int | None:
    """The seat of a cat card (``C<seat>-<k>``), else None."""
    return int(card[1 : card.index("-")]) if KINDS[INDEX[card]] == data.CAT else None


class IfItFitsEncoding(LaidOut):
    """The numbering and tensor of an If It Fits table of ``players``."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = p = players
        # slots of a layout: the start column, every box card of the deck, every sleeping
        # cat, and a cat again for each Princess (she takes a cat's slot and sends the cat
        # back to its supply, from where it may be laid again)
        self.slots = p + BOX_CARDS + data.CATS_PER_SEAT * p + PRINCESSES
        self.frontier = f = 2 * self.slots + 2
        space = ActionSpace()
        space.add("simple", len(_SIMPLE), ", ".join(_SIMPLE))
        space.add("select_card", CARDS, "select_card c (data.CARDS order)")
        space.add("princess", CARDS, "princess on cat c (data.CARDS order)")
        space.add(
            "place_box", 2 * f, "place_box on the frontier slot of rank r turned rot: 2 r + rot"
        )
        space.add("sleeping_cat", f, "sleeping_cat on the frontier slot of rank r")
        space.add("place_cat", 2, "place_cat on the West, East seam of the card just placed")
        self._memo: tuple[Mapping[str, Any] | None, dict[tuple[int, int], int]] = (None, {})
        self._made: dict[tuple[str, int], tuple[float, ...]] = {}

        self.entry = entry = 4 + len(CARD_KINDS) + 4 + len(data.TOY_KINDS) + 2 + p
        layout = TurnLayout(p, PHASES)
        layout.add("options", 3, "tie_rule is none_score, edge_matching, short_deck")
        layout.add("counts", 2, "deck size / 80, removed / 24")
        layout.add("hand", CARDS, "own hand (data.CARDS order)")
        layout.add("discard", CARDS, "discarded cards (data.CARDS order)")
        layout.add("hand_sizes", p, "per seat: hand size / 2")
        layout.add("cat_supply", p, "per seat: cats in supply / 5")
        layout.add(
            "pending", CARDS + 3, "the card being resolved (one-hot), placed, x / 50, y / 50"
        )
        layout.add(
            "layout",
            self.slots * entry,
            "per layout entry in laid order: present, "
            "x / 50, y / 50, rot, kind (box, special, start, princess, cat), open edges "
            "N E S W, toys / 3, special toys, sprays, the cat's owner (one-hot)",
        )
        layout.add(
            "awake_cats",
            p * data.CATS_PER_SEAT * 3,
            "per seat and cat k: awake on a seam, its x / 50, y / 50",
        )
        layout.add(
            "seam_princesses",
            PRINCESSES * 3,
            "per Princess on a seam (sorted by seam): present, x / 50, y / 50",
        )
        self.lay_out(space, layout)

    def _ranks(self, observation: Mapping[str, Any]) -> dict[tuple[int, int], int]:
        """The frontier's ranks for this observation (kept for its next actions)."""
        seen, ranks = self._memo
        if seen is not observation:
            cells = frontier((x, y) for x, y, _, _ in observation["layout"])
            ranks = {cell: rank for rank, cell in enumerate(cells)}
            self._memo = (observation, ranks)
        return ranks

    def action_id(self, observation: Mapping[str, Any], action: Action) -> int:
        start = self.space.start
        kind = action["type"]
        if kind in _SIMPLE:
            return start["simple"] + _SIMPLE.index(kind)
        if kind == SELECT:
            return start["select_card"] + INDEX[action["card"]]
        if kind == PRINCESS:
            return start["princess"] + INDEX[action["cat"]]
        if kind == PLACE_BOX:
            rank = self._ranks(observation)[action["x"], action["y"]]
            return start["place_box"] + 2 * rank + action["rot"]
        if kind == "sleeping_cat":
            return start["sleeping_cat"] + self._ranks(observation)[action["x"], action["y"]]
        if kind == PLACE_CAT:
            x, _ = observation["pending"]["slot"]
            return start["place_cat"] + (0 if action["x"] == x - 1 else 1)
        raise ValueError(f"not an If It Fits action: {action!r}")

    def tensor(self, observation: Mapping[str, Any]) -> Vector:
        at = self.layout.offset
        out = self.layout.begun(observation)
        options = observation["options"]
        out[at["options"] : at["options"] + 3] = (
            float(options["tie_rule"] == "none_score"),
            float(options["edge_matching"]),
            float(options["short_deck"]),
        )
        out[at["counts"]] = observation["deck_size"] / 80
        out[at["counts"] + 1] = observation["removed"] / 24
        for card in observation["hand"]:
            out[at["hand"] + INDEX[card]] = 1.0
        for card in observation["discard"]:
            out[at["discard"] + INDEX[card]] = 1.0
        for seat in range(self.players):
            out[at["hand_sizes"] + seat] = observation["hand_sizes"][seat] / data.HAND_SIZE
            out[at["cat_supply"] + seat] = observation["cat_supply"][seat] / data.CATS_PER_SEAT
        pending = observation["pending"]
        if pending is not None:
            out[at["pending"] + INDEX[pending["card"]]] = 1.0
            if pending["slot"] is not None:
                x, y = pending["slot"]
                out[at["pending"] + CARDS : at["pending"] + CARDS + 3] = (1.0, x / 50, y / 50)
        laid: list[float] = []
        for x, y, card, rot in observation["layout"]:
            laid += (1.0, x / 50, y / 50, float(rot))
            laid += self._features(card, rot)
        out[at["layout"] : at["layout"] + len(laid)] = laid
        for x, y, cat in observation["awake_cats"]:
            owner = _owner(cat)
            assert owner is not None
            k = int(cat[cat.index("-") + 1 :]) - 1
            base = at["awake_cats"] + (owner * data.CATS_PER_SEAT + k) * 3
            out[base : base + 3] = (1.0, x / 50, y / 50)
        for index, (x, y, _card) in enumerate(observation["seam_princesses"]):
            base = at["seam_princesses"] + index * 3
            out[base : base + 3] = (1.0, x / 50, y / 50)
        return out

    def _features(self, card: str, rot: int) -> tuple[float, ...]:
        """A laid card's numbers after its position: kind, open edges, toys, special toys,
        sprays, the cat's owner (made once per card and turn)."""
        key = (card, rot)
        found = self._made.get(key)
        if found is None:
            row = data.CARDS[INDEX[card]]
            mask = rotate(MASKS[INDEX[card]], rot)
            owner = _owner(card)
            found = self._made[key] = (
                *(float(row.kind == kind) for kind in CARD_KINDS),
                *(float(mask >> bit & 1) for bit in range(4)),
                *(count / 3 for count in row.toys),
                float(row.special),
                float(row.spray),
                *(float(seat == owner) for seat in range(self.players)),
            )
        return found


def encoding(players: int, options: Mapping[str, Any]) -> IfItFitsEncoding:
    return IfItFitsEncoding(players, options)
