"""Space Five's action numbering and observation tensor (see :class:`engines.base.Encoding`).

The table is an unbounded grid, so a placement's id names its card code and the rank of
its cell among the empty cells next to the layout (the *frontier*, in reading order: ``y``
then ``x``), read from the observation of the seat to move. The other ids are fixed by the
action alone. The tensor is built from the protocol's observation only. The README's
"Action ids and observation tensor" section lists both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Action
from engines.encodingkit import ActionSpace, LaidOut, TurnLayout, Vector, frontier
from engines.space_five.rules import (
    CODE_OF,
    COPIES,
    MAX_EXCHANGE,
    NAMES,
    STALL_PER_PLAYER,
    TURN_CAP,
    Phase,
)

CODES = len(NAMES)
CARDS = CODES * COPIES  # every card can lie in the layout at once
FRONTIER = 2 * CARDS + 2  # the most empty cells next to a connected layout of CARDS
PHASES = tuple(phase.value for phase in Phase)
ENTRY = 4 + CODES  # per layout entry: present, x, y, laid this turn, then its code
_SIMPLE = ("exchange", "done", "exchange_confirm", "bonus_stop")
_SOURCES = ("stack", "discard_pile")


class SpaceFiveEncoding(LaidOut):
    """The numbering and tensor of a Space Five table of ``players``."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = p = players
        space = ActionSpace()
        space.add(
            "place", CODES * FRONTIER, "place code c on the frontier cell of rank r: c * 202 + r"
        )
        space.add("simple", len(_SIMPLE), "exchange, done, exchange_confirm, bonus_stop")
        space.add("exchange_pick", CODES, "exchange_pick code c (A1..E5 = 0..24)")
        space.add("bonus_hand", CODES, "bonus_discard of hand code c")
        space.add("bonus_other", len(_SOURCES), "bonus_discard from the stack, the discard pile")
        space.add("solo_discard", CODES, "solo_discard code c")
        self._memo: tuple[Mapping[str, Any] | None, dict[tuple[int, int], int]] = (None, {})

        layout = TurnLayout(p, PHASES)
        layout.add(
            "scalars",
            5,
            "round / rounds, rounds / 20, turn / 1000, "
            "turns without a play / stall cap, box size / 100",
        )
        layout.add("hand", CODES, "own hand: copies of each code / 4")
        layout.add("hand_sizes", p, "per seat: hand size / 100")
        layout.add("stack_sizes", p, "per seat: stack size / 100")
        layout.add("pending", 3, "cards laid this turn / 5, exchange picks / 5, bonus left / 5")
        layout.add("exchange_picked", CODES, "own exchange picks: copies of each code / 4")
        layout.add(
            "own_stack_bottom",
            CODES,
            "own exchanged cards still in the stack: expected copies of each code / 4",
        )
        layout.add("own_in_box", CODES, "own cards put in the box: copies of each code / 4")
        layout.add("discard_pile", CODES, "solo discard pile: copies of each code / 4")
        layout.add(
            "layout",
            CARDS * ENTRY,
            "per layout entry in laid order: present, x / 50, "
            "y / 50, laid this turn, code (one-hot)",
        )
        self.lay_out(space, layout)

    def _ranks(self, observation: Mapping[str, Any]) -> dict[tuple[int, int], int]:
        """The frontier's ranks for this observation (kept for its next actions)."""
        seen, ranks = self._memo
        if seen is not observation:
            cells = frontier((x, y) for x, y, _ in observation["layout"])
            ranks = {cell: rank for rank, cell in enumerate(cells)}
            self._memo = (observation, ranks)
        return ranks

    def action_id(self, observation: Mapping[str, Any], action: Action) -> int:
        start = self.space.start
        kind = action["type"]
        if kind == "place":
            rank = self._ranks(observation)[action["x"], action["y"]]
            return start["place"] + CODE_OF[action["card"]] * FRONTIER + rank
        if kind in _SIMPLE:
            return start["simple"] + _SIMPLE.index(kind)
        if kind == "exchange_pick":
            return start["exchange_pick"] + CODE_OF[action["card"]]
        if kind == "bonus_discard":
            if action["source"] == "hand":
                return start["bonus_hand"] + CODE_OF[action["card"]]
            return start["bonus_other"] + _SOURCES.index(action["source"])
        if kind == "solo_discard":
            return start["solo_discard"] + CODE_OF[action["card"]]
        raise ValueError(f"not a Space Five action: {action!r}")

    def tensor(self, observation: Mapping[str, Any]) -> Vector:
        at = self.layout.offset
        out = self.layout.begun(observation)
        p = self.players
        out[at["scalars"] : at["scalars"] + 5] = (
            observation["round"] / observation["rounds"],
            observation["rounds"] / 20,
            observation["turn"] / TURN_CAP,
            observation["turns_without_play"] / (STALL_PER_PLAYER * p),
            observation["box_size"] / CARDS,
        )
        self._codes(out, at["hand"], observation["hand"])
        for seat in range(p):
            out[at["hand_sizes"] + seat] = observation["hand_sizes"][seat] / CARDS
            out[at["stack_sizes"] + seat] = observation["stack_sizes"][seat] / CARDS
        pending = observation["pending"]
        out[at["pending"] : at["pending"] + 3] = (
            pending["placed"] / 5,
            pending["exchange_count"] / MAX_EXCHANGE,
            pending["bonus_left"] / 5,
        )
        self._codes(out, at["exchange_picked"], pending["exchange_picked"])
        for candidates, left in observation["own_stack_bottom"]:
            for name in candidates:
                out[at["own_stack_bottom"] + CODE_OF[name]] += left / len(candidates) / COPIES
        self._codes(out, at["own_in_box"], observation["own_in_box"])
        self._codes(out, at["discard_pile"], observation.get("discard_pile", ()))
        entries = observation["layout"]
        this_turn = len(entries) - pending["placed"]
        for index, (x, y, name) in enumerate(entries):
            base = at["layout"] + index * ENTRY
            out[base : base + 4] = (1.0, x / 50, y / 50, float(index >= this_turn))
            out[base + 4 + CODE_OF[name]] = 1.0
        return out

    @staticmethod
    def _codes(out: Vector, offset: int, names: Any) -> None:
        for name in names:
            out[offset + CODE_OF[name]] += 1 / COPIES


def encoding(players: int, options: Mapping[str, Any]) -> SpaceFiveEncoding:
    return SpaceFiveEncoding(players, options)
