"""Good Boy: the rules engine (spec: ``docs/rules/good-boy.md``).

A turn is split into atomic decisions of the active player (the only one who ever acts):

- ``roll``  ROLL_OR_STOP: ``roll`` (compulsory first) or ``stop``;
- ``resolve`` a roll's symbol needs a choice: ``take`` a kind for an "any" face, or
  ``steal`` a token from an opponent's corner when the pool has none of a kind;
- ``assign`` one unassigned token into the player's corner on a board, or ``done``;
- ``claim`` one satisfied dog (compulsory, at most one per turn).

Chance is the state's own :class:`random.Random`, seeded by ``derive_rng(seed, "good-boy")``
and consumed in this fixed order: one ``shuffle`` of the deck ``[1..28]`` at setup, then two
``randrange(6)`` per roll (die 1, then die 2). Nothing else draws from it.

Counts of tokens are lists of six ints in the order of :data:`KINDS`.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engines.base import Action, EventLog, GameState, Result, ranks_from_scores
from engines.good_boy import data

# -- constants ---------------------------------------------------------------------------

KINDS: tuple[str, ...] = tuple(kind for kind, _ in data.KINDS_TABLE)
KIND_INDEX: dict[str, int] = {kind: i for i, kind in enumerate(KINDS)}
NK = len(KINDS)
BOARDS = data.BOARDS
ANY = NK  # pending-queue marker of an "any" face (kinds are 0..NK-1)
VARIANTS = ("standard", "hard")


class Phase(StrEnum):
    ROLL = "roll"
    RESOLVE = "resolve"
    ASSIGN = "assign"
    CLAIM = "claim"
    OVER = "over"


# The phases as plain module names: ``Phase.X`` is a slow attribute lookup on an enum.
_ROLL = Phase.ROLL
_RESOLVE = Phase.RESOLVE
_ASSIGN = Phase.ASSIGN
_CLAIM = Phase.CLAIM
_OVER = Phase.OVER


class End(StrEnum):
    TARGET = "target"
    NO_DOGS = "no_dogs"
    MAX_ROUNDS = "max_rounds"


# Per die and face: the number of cats, the item kinds shown, whether it is an "any" face.
FACE_CATS: tuple[tuple[int, ...], ...] = tuple(
    tuple(face.count("cat") for face in die) for die in data.DICE
)
FACE_ITEMS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(KIND_INDEX[s] for s in face if s in KIND_INDEX) for face in die)
    for die in data.DICE
)
FACE_ANY: tuple[tuple[bool, ...], ...] = tuple(
    tuple("any" in face for face in die) for die in data.DICE
)
FACE_SYMBOLS: tuple[tuple[list[str], ...], ...] = tuple(
    tuple(list(face) for face in die) for die in data.DICE
)


# -- value types -------------------------------------------------------------------------


@dataclass(frozen=True)
class Dog:
    """One dog card: what it needs (a count per kind, in :data:`KINDS` order) and its points."""

    id: int
    breed: str
    points: int
    needs: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "breed": self.breed,
            "points": self.points,
            "needs": {KINDS[k]: n for k, n in enumerate(self.needs) if n},
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Dog:
        needs = tuple(obj["needs"].get(kind, 0) for kind in KINDS)
        return cls(obj["id"], obj["breed"], obj["points"], needs)


DOGS: dict[int, Dog] = {
    cid: Dog(cid, breed, points, tuple(needs.get(kind, 0) for kind in KINDS))
    for cid, breed, points, needs, _source in data.CARDS
}
DOG_POINTS: dict[int, int] = {cid: dog.points for cid, dog in DOGS.items()}

# The actions, built once (legal lists share them; treat them as read-only).
ROLL: Action = {"type": "roll"}
STOP: Action = {"type": "stop"}
DONE: Action = {"type": "done"}
TAKE: tuple[Action, ...] = tuple({"type": "take", "item": kind} for kind in KINDS)
ASSIGN: tuple[tuple[Action, ...], ...] = tuple(
    tuple({"type": "assign", "item": kind, "board": b} for b in range(BOARDS)) for kind in KINDS
)
CLAIM: tuple[Action, ...] = tuple({"type": "claim", "board": b} for b in range(BOARDS))
# [kinds in hand, as a bit mask][boards with a dog, as a bit mask] -> the ASSIGN legal list
ASSIGN_LEGAL: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(
        (
            *(
                ASSIGN[k][b]
                for k in range(NK)
                if held >> k & 1
                for b in range(BOARDS)
                if live >> b & 1
            ),
            DONE,
        )
        for live in range(1 << BOARDS)
    )
    for held in range(1 << NK)
)
SYMBOL_NAMES: tuple[str, ...] = (*KINDS, "any")  # pending symbol -> its name


# [kind][board][victim] -> the steal action (4 seats at most)
STEAL: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(
        tuple({"type": "steal", "item": KINDS[k], "board": b, "from": q} for q in range(4))
        for b in range(BOARDS)
    )
    for k in range(NK)
)


def steal_action(kind: int, board: int, victim: int) -> Action:
    return {"type": "steal", "item": KINDS[kind], "board": board, "from": victim}


# -- the state ---------------------------------------------------------------------------


class GoodBoyState(GameState):
    """A game of Good Boy in progress. Fields follow the spec's §3 model."""

    SHARED = (
        "n",
        "hard",
        "target",
        "max_rounds",
        "current",
        "rolls",
        "last_roll",
        "phase",
        "round",
        "end_triggered",
        "end",
        "_view",
    )
    COPIED = ("pool", "boards", "deck", "cat_side", "pending", "log")
    COPIED_ITEMS = ("hands", "claimed")
    COPIED_GRIDS = ("corners",)

    def __init__(self, players: int, seed: int, options: Mapping[str, Any]) -> None:
        super().__init__(seed, "good-boy")
        self.n: int = players
        self.hard: bool = options["variant"] == "hard"
        self.target: int = options["target_points"]
        self.max_rounds: int = options["max_rounds"]
        self.pool: list[int] = [data.TOKENS_PER_KIND] * NK
        self.hands: list[list[int]] = [[0] * NK for _ in range(players)]
        # corners[board][seat][kind]
        self.corners: list[list[list[int]]] = [
            [[0] * NK for _ in range(players)] for _ in range(BOARDS)
        ]
        self.deck: list[int] = list(range(1, data.DOG_CARDS + 1))  # index 0 is the top
        self._deal()
        self.boards: list[int | None] = [self.deck.pop(0) for _ in range(BOARDS)]
        self.claimed: list[list[int]] = [[] for _ in range(players)]
        # dog/cat token shows the cat (always False in the hard variant)
        self.cat_side: list[bool] = [False] * players
        self.current: int = 0
        self.rolls: int = 0
        self.last_roll: tuple[int, int] | None = None
        self.pending: list[int] = []  # symbols of the current roll still to resolve (kind or ANY)
        self.phase: Phase = _ROLL
        self.round: int = 1
        self.end_triggered: bool = False
        self.end: End | None = None
        # events as dicts; a seat's view starts with its own last action
        self.log: EventLog = EventLog(players)
        # The last observation's table parts (every key but "seat" and "events"), refreshed by
        # comparison at each observation (see ``observation``); shared by clones.
        self._view: dict[str, Any] | None = None

    # -- chance ---------------------------------------------------------------------------
    def _deal(self) -> None:
        """Setup chance: one shuffle of the whole deck."""
        self.rng.shuffle(self.deck)

    def _roll(self) -> tuple[int, int]:
        """Roll chance: face of die 1, then face of die 2."""
        rng = self.rng
        return rng.randrange(6), rng.randrange(6)

    # -- GameState ------------------------------------------------------------------------
    def to_move(self) -> int | None:
        return None if self.phase is _OVER else self.current

    def _legal(self) -> list[Action]:
        phase = self.phase
        if phase is _ROLL:
            return [ROLL, STOP] if self.rolls else [ROLL]
        if phase is _RESOLVE:
            return self._choice_actions(self.pending[0])
        if phase is _ASSIGN:
            held = 0
            for k, count in enumerate(self.hands[self.current]):
                if count:
                    held |= 1 << k
            live = 0
            for b, dog in enumerate(self.boards):
                if dog is not None:
                    live |= 1 << b
            return list(ASSIGN_LEGAL[held][live])
        if phase is _CLAIM:
            return [CLAIM[b] for b in self.satisfied(self.current)]
        return []

    def _play(self, action: Action) -> None:
        seat = self.current
        self.log.mark(seat)
        kind = action["type"]
        if kind == "roll":
            self._do_roll(seat)
        elif kind == "stop":
            self._log(seat, action)
            self.phase = _ASSIGN
        elif kind in ("take", "steal"):
            self._do_choice(seat, action)
        elif kind == "assign":
            k = KIND_INDEX[action["item"]]
            self.hands[seat][k] -= 1
            self.corners[action["board"]][seat][k] += 1
            self._log(seat, action)
        elif kind == "done":
            self._log(seat, action)
            if self.satisfied(seat):
                self.phase = _CLAIM
            else:
                self._end_turn(seat)
        else:  # claim
            self._do_claim(seat, action["board"])

    # -- transitions ----------------------------------------------------------------------
    def _do_roll(self, seat: int) -> None:
        f1, f2 = self._roll()
        self.rolls += 1
        self.last_roll = (f1, f2)
        self._log(seat, ROLL, faces=[f1, f2])
        cats = FACE_CATS[0][f1] + FACE_CATS[1][f2]
        if cats:
            if self.hard:
                if self.rolls >= 2:
                    self._bust(seat)
                    return
            else:
                for _ in range(cats):
                    if self.cat_side[seat]:
                        self._bust(seat)
                        return
                    self.cat_side[seat] = True
                    self._log(seat, {"type": "flip"})
        self.pending = [*FACE_ITEMS[0][f1], *FACE_ITEMS[1][f2]]
        self.pending.extend(ANY for die, f in ((0, f1), (1, f2)) if FACE_ANY[die][f])
        self._resolve_pending(seat)

    def _bust(self, seat: int) -> None:
        hand = self.hands[seat]
        self._log(seat, {"type": "bust"}, lost=hand[:])
        for k in range(NK):
            self.pool[k] += hand[k]
            hand[k] = 0
        self._end_turn(seat)

    def _resolve_pending(self, seat: int) -> None:
        """Resolve queued symbols until one needs a decision (phase RESOLVE) or none is left."""
        pending = self.pending
        while pending:
            symbol = pending[0]
            if symbol != ANY and self.pool[symbol]:
                self.pool[symbol] -= 1
                self.hands[seat][symbol] += 1
                self._log(seat, {"type": "gain", "item": KINDS[symbol]})
            elif self._choice_actions(symbol):
                self.phase = _RESOLVE
                return
            else:
                self._log(seat, {"type": "miss", "item": _symbol_name(symbol)})
            pending.pop(0)
        self.phase = _ROLL

    def _do_choice(self, seat: int, action: Action) -> None:
        k = KIND_INDEX[action["item"]]
        if action["type"] == "take":
            self.pool[k] -= 1
        else:
            self.corners[action["board"]][action["from"]][k] -= 1
        self.hands[seat][k] += 1
        self._log(seat, action)
        self.pending.pop(0)
        self._resolve_pending(seat)

    def _do_claim(self, seat: int, b: int) -> None:
        corner = self.corners[b][seat]
        returned = corner[:]
        for k in range(NK):
            self.pool[k] += corner[k]
            corner[k] = 0
        dog = self.boards[b]
        assert dog is not None
        self.claimed[seat].append(dog)
        self.boards[b] = self.deck.pop(0) if self.deck else None
        self._log(seat, CLAIM[b], dog=dog, returned=returned, revealed=self.boards[b])
        self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        self.cat_side[seat] = False
        self.rolls = 0
        self.last_roll = None
        self.pending = []
        if self.score(seat) >= self.target:
            self.end_triggered = True
        if seat == self.n - 1:
            if self.end_triggered:
                self.end = End.TARGET
            elif not self.deck and all(b is None for b in self.boards):
                self.end = End.NO_DOGS
            elif self.round >= self.max_rounds:
                self.end = End.MAX_ROUNDS
            else:
                self.round += 1
        if self.end is not None:
            self.phase = _OVER
            self.log.append({"type": "game_over", "end": str(self.end)})
            return
        self.current = (seat + 1) % self.n
        self.phase = _ROLL

    # -- queries --------------------------------------------------------------------------
    def score(self, seat: int) -> int:
        return sum(DOGS[d].points for d in self.claimed[seat])

    def satisfied(self, seat: int) -> list[int]:
        """Boards whose dog ``seat``'s corner satisfies, in board order."""
        return [
            b
            for b, dog in enumerate(self.boards)
            if dog is not None and covers(self.corners[b][seat], DOGS[dog].needs)
        ]

    def _choice_actions(self, symbol: int) -> list[Action]:
        """The choices for a symbol that cannot be taken from the pool (maybe none)."""
        if symbol == ANY:
            takes = [TAKE[k] for k in range(NK) if self.pool[k]]
            if takes:
                return takes
            kinds: range | tuple[int] = range(NK)
        else:
            kinds = (symbol,)
        seat = self.current
        corners = self.corners
        return [
            STEAL[k][b][q]
            for k in kinds
            for q in range(self.n)
            if q != seat
            for b in range(BOARDS)
            if corners[b][q][k]
        ]

    # -- events ---------------------------------------------------------------------------
    def _log(self, seat: int, action: Action, **outcome: Any) -> None:
        self.log.append({**action, "seat": seat, **outcome})

    # -- observation, result --------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """Everything public (all of the table but the deck order), plus the events since
        ``seat`` last acted (its own last action included).

        The lists are shared with other observations: do not mutate the result.
        """
        view = self._view
        if view is None:
            view = self._view = self._new_view()
        else:
            # The table's lists, copied only when they changed since the last observation
            # (whose copies stay as they were: they may be in observations handed out).
            if view["pool"] != self.pool:
                view["pool"] = self.pool[:]
            if view["hands"] != self.hands:
                view["hands"] = [hand[:] for hand in self.hands]
            if view["corners"] != self.corners:
                view["corners"] = [[corner[:] for corner in board] for board in self.corners]
            if view["boards"] != self.boards:
                view["boards"] = self.boards[:]
            claimed = self.claimed
            if view["claimed"] != claimed:
                view["claimed"] = [dogs[:] for dogs in claimed]
                view["scores"] = [sum(map(DOG_POINTS.__getitem__, dogs)) for dogs in claimed]
        obs = view.copy()
        obs["seat"] = seat
        obs["to_move"] = None if self.phase is _OVER else self.current
        obs["phase"] = self.phase._value_
        obs["current"] = self.current
        obs["round"] = self.round
        obs["end_triggered"] = self.end_triggered
        obs["deck_size"] = len(self.deck)
        if not self.hard:
            obs["sides"] = ["cat" if c else "dog" for c in self.cat_side]
        obs["rolls_this_turn"] = self.rolls
        roll = self.last_roll
        if roll is not None:
            obs["last_roll"] = list(roll)
        pending = self.pending
        if pending:
            obs["pending"] = [SYMBOL_NAMES[s] for s in pending]
        obs["events"] = self.log.since(seat)
        return obs

    def _new_view(self) -> dict[str, Any]:
        """The observation's keys in order, with the table's lists copied."""
        claimed = self.claimed
        return {
            "seat": 0,
            "to_move": None,
            "phase": "",
            "current": 0,
            "round": 0,
            "end_triggered": False,
            "variant": "hard" if self.hard else "standard",
            "target_points": self.target,
            "pool": self.pool[:],
            "hands": [hand[:] for hand in self.hands],
            "corners": [[corner[:] for corner in board] for board in self.corners],
            "boards": self.boards[:],
            "deck_size": 0,
            "claimed": [dogs[:] for dogs in claimed],
            "scores": [sum(map(DOG_POINTS.__getitem__, dogs)) for dogs in claimed],
            "sides": None,
            "rolls_this_turn": 0,
            "last_roll": None,
            "pending": [],
            "events": [],
        }

    def result(self) -> Result:
        points = [self.score(p) for p in range(self.n)]
        dogs = [len(c) for c in self.claimed]
        ranks = ranks_from_scores(list(zip(points, dogs, strict=True)))
        return Result(
            scores=[float(p) for p in points],
            ranks=ranks,
            detail={
                "end": "unfinished" if self.end is None else str(self.end),
                "rounds": self.round,
                "points": points,
                "dogs": dogs,
                "claimed": [c[:] for c in self.claimed],
                "winners": [p for p in range(self.n) if ranks[p] == 1],
            },
        )

    # -- hidden information ---------------------------------------------------------------
    def determinize(self, seat: int, rng: random.Random) -> GoodBoyState:
        """The deck order is the only hidden thing: reshuffle it, and re-seed future dice."""
        twin = self.clone()
        rng.shuffle(twin.deck)
        twin._reseed(rng)
        return twin

    # -- text -----------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        who = f"seat {self.current}"
        kind = action.get("type")
        if kind == "roll":
            return f"{who} rolls the dice"
        if kind == "stop":
            return f"{who} stops rolling"
        if kind == "done":
            return f"{who} finishes assigning"
        if kind == "take":
            return f"{who} takes a {action['item']} (any face)"
        if kind == "steal":
            return (
                f"{who} takes a {action['item']} from seat {action['from']}'s corner "
                f"on board {action['board']}"
            )
        if kind == "assign":
            return f"{who} puts a {action['item']} in its corner on board {action['board']}"
        if kind == "claim":
            dog = self.boards[action["board"]]
            name = "no dog" if dog is None else f"the {DOGS[dog].breed} ({DOGS[dog].points} pts)"
            return f"{who} claims {name} on board {action['board']}"
        return f"{who} plays {action!r}"

    def render(self, seat: int | None) -> str:
        """The table as text, at most 100 columns; ``seat`` is marked "you".

        Everything is public but the order of the dog deck (its size is shown; ``None``
        also shows the order).
        """

        def who(p: int) -> str:
            return f"seat {p} (you)" if p == seat else f"seat {p}"

        ending = ", END TRIGGERED: this round is the last" if self.end_triggered else ""
        lines = [
            f"Good Boy ({'hard' if self.hard else 'standard'}), round {self.round}, "
            f"target {self.target} pts{ending}",
            f"pool (tokens left)  {_counts(self.pool)}",
        ]
        for b, dog in enumerate(self.boards):
            title = "(empty)" if dog is None else _dog_line(DOGS[dog])
            lines.append(f"board {b}: {title}")
            for p in range(self.n):
                owner = "your corner" if p == seat else f"seat {p}'s corner"
                lines.append(f"    {owner}: {_counts(self.corners[b][p])}")
        if not self.hard:
            lines.append("players ([dog]/[cat]: the side of their token; on [cat] a cat busts):")
        for p in range(self.n):
            side = "" if self.hard else (" [cat]" if self.cat_side[p] else " [dog]")
            mark = ">" if p == self.current and self.phase is not Phase.OVER else " "
            dogs = ", ".join(DOGS[d].breed for d in self.claimed[p]) or "-"
            lines += textwrap.wrap(
                f"{mark} {who(p)}{side}: {self.score(p)} pts; hand {_counts(self.hands[p])};"
                f" dogs {dogs}",
                100,
                subsequent_indent="      ",
            )
        deck = f"deck {len(self.deck)} cards, face down"
        if seat is None:
            deck += f" (top first: {' '.join(map(str, self.deck))})"
        lines += textwrap.wrap(deck, 100)
        if self.phase is Phase.OVER:
            lines.append(f"game over ({self.end})")
        else:
            roll = "-" if self.last_roll is None else _roll_text(self.last_roll)
            doing = {
                Phase.ROLL: "roll the dice or stop",
                Phase.RESOLVE: "choose a token for the roll",
                Phase.ASSIGN: "put tokens from the hand into corners",
                Phase.CLAIM: "claim a dog",
            }[self.phase]
            lines.append(f"{who(self.current)} to move: {doing} (roll {self.rolls}: {roll})")
        return "\n".join(lines)


# -- pure helpers ------------------------------------------------------------------------


def covers(have: list[int], needs: tuple[int, ...]) -> bool:
    """Whether the counts ``have`` hold at least ``needs`` of every kind."""
    return all(h >= n for h, n in zip(have, needs, strict=True))


def missing(have: list[int], needs: tuple[int, ...]) -> list[int]:
    """Per kind, how many more tokens ``needs`` asks for than ``have`` holds."""
    return [max(0, n - h) for h, n in zip(have, needs, strict=True)]


def _symbol_name(symbol: int) -> str:
    return "any" if symbol == ANY else KINDS[symbol]


def _counts(counts: list[int]) -> str:
    return " ".join(f"{KINDS[k]}:{c}" for k, c in enumerate(counts) if c) or "none"


def _dog_line(dog: Dog) -> str:
    needs = " ".join(f"{KINDS[k]}:{n}" for k, n in enumerate(dog.needs) if n)
    return f"#{dog.id} {dog.breed}, {dog.points} pts, needs {needs}"


def _roll_text(faces: tuple[int, int]) -> str:
    return " | ".join("+".join(FACE_SYMBOLS[d][f]) for d, f in enumerate(faces))
