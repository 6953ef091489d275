"""Good Boy's action numbering and observation tensor (see :class:`engines.base.Encoding`).

Every action id is fixed by the action alone; the tensor is built from the protocol's
observation only. The README's "Action ids and observation tensor" section lists both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Action
from engines.encodingkit import ActionSpace, LaidOut, TurnLayout, Vector
from engines.good_boy.data import DICE, TOKENS_PER_KIND
from engines.good_boy.rules import BOARDS, DOGS, KIND_INDEX, KINDS, SYMBOL_NAMES, Phase

NK = len(KINDS)
DOG_IDS = sorted(DOGS)
PHASES = tuple(phase.value for phase in Phase)
FACES = max(len(die) for die in DICE)
_SIMPLE = ("roll", "stop", "done")


class GoodBoyEncoding(LaidOut):
    """The numbering and tensor of a Good Boy table of ``players``."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = p = players
        self.max_rounds = options["max_rounds"]
        self.target = options["target_points"]
        space = ActionSpace()
        space.add("simple", len(_SIMPLE), "roll, stop, done")
        space.add("take", NK, "take item k (kinds in KINDS order)")
        space.add(
            "steal",
            NK * BOARDS * p,
            "steal item k on board b from seat q: (k * 3 + b) * players + q",
        )
        space.add("assign", NK * BOARDS, "assign item k to board b: k * 3 + b")
        space.add("claim", BOARDS, "claim board b")

        layout = TurnLayout(p, PHASES)
        layout.add(
            "scalars",
            5,
            "round / max_rounds, target / 78, end triggered, hard variant, rolls this turn / 10",
        )
        layout.add("deck", 1, "dog cards left in the deck / 28")
        layout.add("pool", NK, "tokens of each kind in the pool / 10")
        layout.add("hands", p * NK, "per seat: its unassigned tokens / 10")
        layout.add("corners", BOARDS * p * NK, "per board and seat: the tokens in its corner / 10")
        layout.add("boards", BOARDS * len(DOG_IDS), "per board: its dog (one-hot by id)")
        layout.add("needs", BOARDS * NK, "per board: what its dog needs of each kind / 3")
        layout.add("claimed", p * len(DOG_IDS), "per seat: the dogs it has claimed")
        layout.add("scores", p, "per seat: points / 78")
        layout.add("sides", p, "per seat: its dog/cat token shows the cat (0 in the hard variant)")
        layout.add("last_roll", len(DICE) * FACES, "per die: the face just rolled (one-hot)")
        layout.add("pending", NK + 1, "symbols still to resolve, per kind and 'any' (counts)")
        layout.add("pending_head", NK + 1, "the symbol being resolved now (one-hot)")
        self.lay_out(space, layout)

    def action_id(self, observation: Mapping[str, Any], action: Action) -> int:
        start = self.space.start
        kind = action["type"]
        if kind in _SIMPLE:
            return start["simple"] + _SIMPLE.index(kind)
        if kind == "take":
            return start["take"] + KIND_INDEX[action["item"]]
        if kind == "steal":
            item = KIND_INDEX[action["item"]]
            return (
                start["steal"] + (item * BOARDS + action["board"]) * self.players + action["from"]
            )
        if kind == "assign":
            return start["assign"] + KIND_INDEX[action["item"]] * BOARDS + action["board"]
        if kind == "claim":
            return start["claim"] + action["board"]
        raise ValueError(f"not a Good Boy action: {action!r}")

    def tensor(self, observation: Mapping[str, Any]) -> Vector:
        at = self.layout.offset
        out = self.layout.begun(observation)
        out[at["scalars"] : at["scalars"] + 5] = (
            observation["round"] / self.max_rounds,
            observation["target_points"] / 78,
            float(observation["end_triggered"]),
            float(observation["variant"] == "hard"),
            observation["rolls_this_turn"] / 10,
        )
        out[at["deck"]] = observation["deck_size"] / len(DOG_IDS)
        out[at["pool"] : at["pool"] + NK] = observation["pool"]
        out[at["pool"] : at["pool"] + NK] /= TOKENS_PER_KIND
        for seat, hand in enumerate(observation["hands"]):
            base = at["hands"] + seat * NK
            out[base : base + NK] = [count / TOKENS_PER_KIND for count in hand]
        for board, corners in enumerate(observation["corners"]):
            for seat, corner in enumerate(corners):
                base = at["corners"] + (board * self.players + seat) * NK
                out[base : base + NK] = [count / TOKENS_PER_KIND for count in corner]
        for board, dog in enumerate(observation["boards"]):
            if dog is not None:
                out[at["boards"] + board * len(DOG_IDS) + DOG_IDS.index(dog)] = 1.0
                base = at["needs"] + board * NK
                out[base : base + NK] = [need / 3 for need in DOGS[dog].needs]
        for seat, dogs in enumerate(observation["claimed"]):
            for dog in dogs:
                out[at["claimed"] + seat * len(DOG_IDS) + DOG_IDS.index(dog)] = 1.0
        for seat, score in enumerate(observation["scores"]):
            out[at["scores"] + seat] = score / 78
        for seat, side in enumerate(observation["sides"] or ()):
            out[at["sides"] + seat] = float(side == "cat")
        for die, face in enumerate(observation["last_roll"] or ()):
            out[at["last_roll"] + die * FACES + face] = 1.0
        pending = observation["pending"]
        for symbol in pending:
            out[at["pending"] + SYMBOL_NAMES.index(symbol)] += 1.0
        if pending:
            out[at["pending_head"] + SYMBOL_NAMES.index(pending[0])] = 1.0
        return out


def encoding(players: int, options: Mapping[str, Any]) -> GoodBoyEncoding:
    return GoodBoyEncoding(players, options)
