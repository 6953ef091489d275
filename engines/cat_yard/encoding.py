"""Cat Yard's action numbering and observation tensor (see :class:`engines.base.Encoding`).

Every action id is fixed by the action alone; the tensor is built from the protocol's
observation only. The README's "Action ids and observation tensor" section lists both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Action
from engines.cat_yard.rules import (
    BAIT_IDS,
    BAIT_MASK,
    CAT_IDS,
    CAT_WILD,
    CUSHIONS,
    FIELDS,
    IS_DOG,
    ROUND_CAP,
    YARD_SLOTS,
    Phase,
)
from engines.encodingkit import ActionSpace, LaidOut, TurnLayout, Vector, one_hot, subset_code

CARDS = len(BAIT_IDS)  # bait card ids 1..55
TILES = len(CAT_IDS)  # cat tile ids 1..32
WILD_CATS = tuple(c for c in CAT_IDS if CAT_WILD[c])
PHASES = tuple(phase.value for phase in Phase)
MAIN_ACTIONS = ("none", "gather", "lure")
SYMBOLS = 4
YARD = tuple(range(YARD_SLOTS))
FIELD_LIST = tuple(range(FIELDS))
_SIMPLE = ("gather", "reveal", "stop", "accept_dog", "done", "end_turn")


class CatYardEncoding(LaidOut):
    """The numbering and tensor of a Cat Yard table of ``players``."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        space = ActionSpace()
        space.add("simple", len(_SIMPLE), "gather, reveal, stop, accept_dog, done, end_turn")
        space.add("ignore_dog", TILES, "ignore_dog with cat c (id c - 1)")
        space.add("place", CARDS * FIELDS, "place card x on field f: (x - 1) * 4 + f")
        space.add("replace", CARDS * FIELDS, "replace with card x on field f: (x - 1) * 4 + f")
        space.add("place_drawn", FIELDS, "place_drawn on field f")
        space.add("swap", CUSHIONS, "swap with the arrow card at position q")
        space.add(
            "ability", TILES * 16, "ability of cat c on the yard slots s: (c - 1) * 16 + mask"
        )
        lures = YARD_SLOTS * 16 * (1 << len(WILD_CATS))
        space.add(
            "lure", lures, "lure slot s paying fields F with wild cats W: (s * 16 + F) * 16 + W"
        )

        p = players
        layout = TurnLayout(p, PHASES)
        layout.add("main_action", len(MAIN_ACTIONS), "main action this turn (none, gather, lure)")
        layout.add(
            "scalars",
            6,
            "round / 50, target / 76, end triggered, cat stack / 32, "
            "stack top points / 4, deck / 55",
        )
        layout.add("draws_left", 1, "cards a draw ability still places")
        layout.add("positions", p * CUSHIONS, "per seat: its table position (one-hot)")
        layout.add("points", p, "per seat: points / 76")
        layout.add("cats", p * TILES, "per seat: the cats it owns (tile c at c - 1)")
        layout.add("used", p * TILES, "per seat: the cats whose ability it used")
        layout.add(
            "cushions",
            CUSHIONS * FIELDS * (SYMBOLS + 1),
            "per position and field: card there, then its 4 symbols",
        )
        layout.add("protected", CUSHIONS, "per position: protected")
        layout.add("yard", YARD_SLOTS * TILES, "per yard slot: its cat (one-hot)")
        layout.add("cat_discard", TILES, "discarded cats")
        layout.add("discard", CARDS, "bait cards in the discard pile")
        layout.add("revealed", CARDS, "bait cards revealed this turn")
        layout.add("pending_dog", 1, "a dog waits for accept_dog or ignore_dog")
        layout.add("drawn", SYMBOLS + 1, "the card being placed by a draw: present, its symbols")
        layout.add("swapped_with", CUSHIONS, "positions swapped with this turn")
        self.lay_out(space, layout)

    def action_id(self, observation: Mapping[str, Any], action: Action) -> int:
        start = self.space.start
        kind = action["type"]
        if kind in _SIMPLE:
            return start["simple"] + _SIMPLE.index(kind)
        if kind == "ignore_dog":
            return start["ignore_dog"] + action["cat"] - 1
        if kind in ("place", "replace"):
            return start[kind] + (action["card"] - 1) * FIELDS + action["field"]
        if kind == "place_drawn":
            return start["place_drawn"] + action["field"]
        if kind == "swap":
            return start["swap"] + action["target"]
        if kind == "ability":
            slots = subset_code(action.get("slots", ()), YARD)
            return start["ability"] + (action["cat"] - 1) * 16 + slots
        if kind == "lure":
            fields = subset_code(action["fields"], FIELD_LIST)
            wilds = subset_code(action["wilds"], WILD_CATS)
            return start["lure"] + (action["slot"] * 16 + fields) * 16 + wilds
        raise ValueError(f"not a Cat Yard action: {action!r}")

    def tensor(self, observation: Mapping[str, Any]) -> Vector:
        at = self.layout.offset
        out = self.layout.begun(observation)
        one_hot(out, at["main_action"], MAIN_ACTIONS.index(observation["main_action"]))
        top = observation["cat_stack_top_points"]
        out[at["scalars"] : at["scalars"] + 6] = (
            observation["round"] / ROUND_CAP,
            observation["target"] / 76,
            float(observation["end_triggered"]),
            observation["cat_stack_count"] / TILES,
            (top or 0) / 4,
            observation["deck_count"] / CARDS,
        )
        out[at["draws_left"]] = observation["draws_left"]
        for seat, (position, points, cats) in enumerate(observation["players"]):
            out[at["positions"] + seat * CUSHIONS + position] = 1.0
            out[at["points"] + seat] = points / 76
            for cat, used in cats:
                out[at["cats"] + seat * TILES + cat - 1] = 1.0
                out[at["used"] + seat * TILES + cat - 1] = float(used)
        for position, fields in enumerate(observation["cushions"]):
            for field, card in enumerate(fields):
                self._card(out, at["cushions"] + (position * FIELDS + field) * (SYMBOLS + 1), card)
        for position, flag in enumerate(observation["protected"]):
            out[at["protected"] + position] = float(flag)
        for slot, cat in enumerate(observation["yard"]):
            if cat:
                out[at["yard"] + slot * TILES + cat - 1] = 1.0
        for cat in observation["cat_discard"]:
            out[at["cat_discard"] + cat - 1] = 1.0
        for card in observation["discard"]:
            out[at["discard"] + card - 1] = 1.0
        for card in observation["revealed"]:
            out[at["revealed"] + card - 1] = 1.0
        out[at["pending_dog"]] = float(bool(observation["pending_dog"]))
        self._card(out, at["drawn"], observation["drawn"])
        for position in observation["swapped_with"]:
            out[at["swapped_with"] + position] = 1.0
        return out

    @staticmethod
    def _card(out: Vector, offset: int, card: int) -> None:
        """A bait card as present + its symbol bits (a dog: present, no symbols)."""
        if card:
            out[offset] = 1.0
            if not IS_DOG[card]:
                mask = BAIT_MASK[card]
                for bit in range(SYMBOLS):
                    if mask >> bit & 1:
                        out[offset + 1 + bit] = 1.0


def encoding(players: int, options: Mapping[str, Any]) -> CatYardEncoding:
    return CatYardEncoding(players, options)
