"""My Lil' Everdell's action numbering and observation tensor (see
:class:`engines.base.Encoding`).

Every action id is fixed by the action alone; the tensor is built from the protocol's
observation only. The README's "Action ids and observation tensor" section lists both.
The automa, when one plays, is a participant of the tensor (after the bots) but never moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Action
from engines.encodingkit import ActionSpace, LaidOut, TurnLayout, Vector, one_hot
from engines.little_everdell import _automa
from engines.little_everdell.data import (
    ALL_UIDS,
    DECK_SIZE,
    FRIENDS,
    MEADOW_SLOTS,
    PARADE_STACK,
    PARADES,
    RESOURCES,
    ROUNDS,
    TOP_SPACES,
)
from engines.little_everdell.rules import MAX_DICE, PENDING_NAMES

UIDS = tuple(ALL_UIDS)
UID_INDEX = {uid: i for i, uid in enumerate(UIDS)}
CARDS = len(UIDS)
TOPS = tuple(TOP_SPACES)
KINDS = tuple(PENDING_NAMES.values())
FACES = 6


class LittleEverdellEncoding(LaidOut):
    """The numbering and tensor of a My Lil' Everdell table of ``players`` bots."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = p = players
        self.participants = n = players + (1 if _automa(players, options["opponent"]) else 0)
        space = ActionSpace()
        space.add("place_top", len(TOPS), "place on top_resin, top_twig, top_berry")
        space.add("place_die", MAX_DICE, "place on die_i: i - 1")
        space.add("place_card", CARDS, "place on own red card u (uids in data.ALL_UIDS order)")
        space.add("buy", MEADOW_SLOTS, "buy meadow slot s: s - 1")
        space.add("pass", 1, "pass (buy nothing)")
        space.add("choose_resource", len(RESOURCES), "choose berry, twig, resin")
        space.add("copy_die", MAX_DICE, "copy die i: i - 1")
        space.add("activate_green", CARDS, "activate own green card u (data.ALL_UIDS order)")

        layout = TurnLayout(p)
        layout.add(
            "pending", len(KINDS), "the pending decision (one-hot: " + ", ".join(KINDS) + ")"
        )
        layout.add("picks_left", 1, "activate_green: picks left / 2")
        layout.add("picked", CARDS, "activate_green: cards picked so far")
        layout.add("queue", 1, "decisions and steps queued behind the pending one / 10")
        layout.add("clock", 2, "round / 4, turn / turns per round")
        layout.add("first_player", n, "the first player this round (one-hot, automa last)")
        layout.add("dice", MAX_DICE * FACES, "per die: its face (one-hot)")
        layout.add("dice_occupied", MAX_DICE * n, "per die: who placed there (one-hot)")
        layout.add("top_spaces", len(TOPS) * n, "per top space: workers of each participant")
        layout.add("meadow", MEADOW_SLOTS * CARDS, "per meadow slot: its card (one-hot by uid)")
        layout.add("princess_slots", MEADOW_SLOTS, "meadow slots blocked by the Princess")
        layout.add("deck", 1, "cards left in the deck / deck size")
        layout.add("parade_stacks", len(PARADES) * 2, "per parade: tiles left / 4, top value / 6")
        layout.add("automa", n, "per participant: it is the automa")
        layout.add("resources", n * len(RESOURCES), "per participant: berry, twig, resin / 10")
        layout.add("point_tokens", n, "per participant: point tokens / 10")
        layout.add("cards", n * CARDS, "per participant: the cards in its city (by uid)")
        layout.add("parades", n * len(PARADES), "per participant: value of each parade won / 6")
        layout.add("red_used", n * CARDS, "per participant: red cards used this round (by uid)")
        layout.add("friends_left", n, "per participant: workers left / 3")
        layout.add("points", n, "per participant: points if the game ended now / 50")
        self.lay_out(space, layout)

    def action_id(self, observation: Mapping[str, Any], action: Action) -> int:
        start = self.space.start
        kind = action["type"]
        if kind == "place":
            space = action["space"]
            if space == "card":
                return start["place_card"] + UID_INDEX[action["card"]]
            if space.startswith("die_"):
                return start["place_die"] + int(space[4:]) - 1
            return start["place_top"] + TOPS.index(space)
        if kind == "buy":
            return start["buy"] + action["slot"] - 1
        if kind == "pass":
            return start["pass"]
        if kind == "choose_resource":
            return start["choose_resource"] + RESOURCES.index(action["resource"])
        if kind == "copy_die":
            return start["copy_die"] + action["die"] - 1
        if kind == "activate_green":
            return start["activate_green"] + UID_INDEX[action["card"]]
        raise ValueError(f"not a Little Everdell action: {action!r}")

    def tensor(self, observation: Mapping[str, Any]) -> Vector:
        at = self.layout.offset
        out = self.layout.begun(observation)
        n = self.participants
        pending = observation["pending"]
        if pending is not None:
            one_hot(out, at["pending"], KINDS.index(pending["kind"]))
            out[at["picks_left"]] = pending.get("picks_left", 0) / 2
            for uid in pending.get("picked", ()):
                out[at["picked"] + UID_INDEX[uid]] = 1.0
        out[at["queue"]] = len(observation["queue"]) / 10
        out[at["clock"]] = observation["round"] / ROUNDS
        out[at["clock"] + 1] = observation["turn"] / observation["turns_per_round"]
        one_hot(out, at["first_player"], observation["first_player"])
        for die, face in enumerate(observation["dice"]):
            out[at["dice"] + die * FACES + face - 1] = 1.0
        for die, seat in enumerate(observation["dice_occupied"]):
            if seat is not None:
                out[at["dice_occupied"] + die * n + seat] = 1.0
        for index, name in enumerate(TOPS):
            for seat in observation["top_spaces"].get(name, ()):
                out[at["top_spaces"] + index * n + seat] += 1.0
        for slot, uid in enumerate(observation["meadow"]):
            if uid is not None:
                out[at["meadow"] + slot * CARDS + UID_INDEX[uid]] = 1.0
        for slot in observation["princess_slots"]:
            out[at["princess_slots"] + slot - 1] = 1.0
        out[at["deck"]] = observation["deck_count"] / DECK_SIZE
        for index, parade in enumerate(PARADES):
            stack = observation["parade_stacks"].get(parade, [])
            out[at["parade_stacks"] + 2 * index] = len(stack) / len(PARADE_STACK)
            out[at["parade_stacks"] + 2 * index + 1] = (stack[-1] if stack else 0) / 6
        for seat, player in enumerate(observation["players"]):
            out[at["automa"] + seat] = float(player["automa"] is not None)
            base = at["resources"] + seat * len(RESOURCES)
            out[base : base + len(RESOURCES)] = [count / 10 for count in player["resources"]]
            out[at["point_tokens"] + seat] = player["point_tokens"] / 10
            for uid in player["cards"]:
                out[at["cards"] + seat * CARDS + UID_INDEX[uid]] = 1.0
            for parade, value in player["parades"].items():
                out[at["parades"] + seat * len(PARADES) + PARADES.index(parade)] = value / 6
            for uid in player["red_spaces_used"]:
                out[at["red_used"] + seat * CARDS + UID_INDEX[uid]] = 1.0
            out[at["friends_left"] + seat] = player["friends_left"] / FRIENDS
            out[at["points"] + seat] = player["points"] / 50
        return out


def encoding(players: int, options: Mapping[str, Any]) -> LittleEverdellEncoding:
    return LittleEverdellEncoding(players, options)
