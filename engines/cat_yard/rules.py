"""Cat Yard rules: gather bait with a push-your-luck draw, lure cats from the yard.

Spec: ``docs/rules/cat-yard.md`` (section numbers below refer to it). All card and tile
data is designed (see :mod:`engines.cat_yard.data`).

Chance: one :class:`random.Random` seeded with the game seed and consumed only by
``rng.shuffle`` in this order (spec §5): the bait deck at setup, one reshuffle per dog drawn
for a setup arrow field, the cat stack at setup, then one shuffle per lazy reshuffle of the
discard pile during play. Seed + the chosen action indices replay a game exactly.

Decisions: every decision with exactly one legal action is applied by the engine itself
(always, except ``end_turn``), so the seat is asked only real choices (spec §4.2).
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import combinations
from typing import Any, Final

from engines.base import Action, EventLog, GameState, Result, ranks_from_scores
from engines.cat_yard.data import BAIT_ROWS, CAT_ROWS, COUNTS, SYMBOLS

# -- constants ------------------------------------------------------------------------------

FIELDS: Final = COUNTS["fields_per_cushion"][0]
CUSHIONS: Final = COUNTS["cushions"][0]
YARD_SLOTS: Final = COUNTS["yard_slots"][0]
ROUND_CAP: Final = COUNTS["round_cap"][0]
ARROW: Final = 0  # the arrow field of every cushion

# Seats -> table positions (spec §3); the other positions hold unowned cushions.
SEAT_POSITIONS: Final[dict[int, tuple[int, ...]]] = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


class Phase(StrEnum):
    """Where the current player is inside a turn (spec §4.2)."""

    START = "START"
    GATHER_DECIDE = "GATHER_DECIDE"
    DOG = "DOG"
    PLACE = "PLACE"
    DRAW_PLACE = "DRAW_PLACE"
    POST = "POST"
    OVER = "OVER"


# The phases as plain module names: ``Phase.X`` is a slow attribute lookup on an enum.
_START: Final = Phase.START
_GATHER_DECIDE: Final = Phase.GATHER_DECIDE
_DOG: Final = Phase.DOG
_PLACE: Final = Phase.PLACE
_DRAW_PLACE: Final = Phase.DRAW_PLACE
_POST: Final = Phase.POST
_OVER: Final = Phase.OVER
SYMBOL_BIT: Final = {name: 1 << i for i, name in enumerate(SYMBOLS)}


# -- value types ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BaitCard:
    """One bait card: its symbols (none for a dog)."""

    id: int
    symbols: tuple[str, ...]
    source: str

    @property
    def dog(self) -> bool:
        return not self.symbols

    @property
    def mask(self) -> int:
        return _mask(self.symbols)

    def label(self) -> str:
        return "dog" if self.dog else "+".join(self.symbols)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "symbols": list(self.symbols), "source": self.source}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BaitCard:
        return cls(data["id"], tuple(data["symbols"]), data["source"])


@dataclass(frozen=True)
class CatTile:
    """One cat tile: cost (symbols, repeats allowed), points, ability, wild symbols."""

    id: int
    cost: tuple[str, ...]
    points: int
    ability: str
    wild: tuple[str, ...]
    source: str

    @property
    def wild_mask(self) -> int:
        return _mask(self.wild)

    def label(self) -> str:
        return f"cat {self.id} ({'+'.join(self.cost)}, {self.points} pt, {self.ability})"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "cost": list(self.cost),
            "points": self.points,
            "ability": self.ability,
            "wild": list(self.wild),
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CatTile:
        return cls(
            data["id"],
            tuple(data["cost"]),
            data["points"],
            data["ability"],
            tuple(data["wild"]),
            data["source"],
        )


def _mask(symbols: Sequence[str]) -> int:
    mask = 0
    for name in symbols:
        mask |= SYMBOL_BIT[name]
    return mask


def _build_bait() -> dict[int, BaitCard]:
    cards: dict[int, BaitCard] = {}
    for first, copies, symbols, source in BAIT_ROWS:
        for card_id in range(first, first + copies):
            cards[card_id] = BaitCard(card_id, symbols, source)
    return cards


BAIT: Final = _build_bait()
CATS: Final = {row[0]: CatTile(*row) for row in CAT_ROWS}
BAIT_IDS: Final = tuple(sorted(BAIT))
CAT_IDS: Final = tuple(sorted(CATS))
# Flat lookup tables indexed by id (index 0 unused), for the hot paths.
BAIT_MASK: Final = (0, *(BAIT[i].mask for i in BAIT_IDS))
IS_DOG: Final = (False, *(BAIT[i].dog for i in BAIT_IDS))
CAT_POINTS: Final = (0, *(CATS[i].points for i in CAT_IDS))
CAT_ABILITY: Final = ("", *(CATS[i].ability for i in CAT_IDS))
CAT_WILD: Final = (0, *(CATS[i].wild_mask for i in CAT_IDS))
CAT_COST: Final = ((), *(tuple(SYMBOLS.index(s) for s in CATS[i].cost) for i in CAT_IDS))

# What an unused cat's ability offers as a free action (``CatYardState._free``).
_FREE_NEVER, _FREE_ALWAYS, _FREE_DRAW = 0, 1, 2
_FREE_DISCARD_ALL, _FREE_DISCARD_1, _FREE_DISCARD_2 = 3, 4, 5
_FREE_OF_ABILITY: Final = {
    "draw_1": _FREE_DRAW,
    "draw_2": _FREE_DRAW,
    "rotate_left": _FREE_ALWAYS,
    "rotate_right": _FREE_ALWAYS,
    "protect": _FREE_ALWAYS,
    "yard_discard_all": _FREE_DISCARD_ALL,
    "yard_discard_1": _FREE_DISCARD_1,
    "yard_discard_2": _FREE_DISCARD_2,
}
_FREE_KIND: Final = tuple(_FREE_OF_ABILITY.get(a, _FREE_NEVER) for a in CAT_ABILITY)

# Lure search keys (hot path, see ``CatYardState._lures``): ``_LURE_COST[cat]`` numbers
# the distinct costs; per cost, ``bytes(fields).translate(_CARD_REL[cost])`` keeps of each
# field's card only the symbols the cost asks for (the others can never pay it), so many
# cushions share one cache entry.
_WILD_CATS: Final = frozenset(i for i in CAT_IDS if CAT_WILD[i])
_COST_LEN: Final = tuple(len(cost) for cost in CAT_COST)
_COST_BITS: Final = tuple(sum({1 << k for k in cost}) for cost in CAT_COST)
_COSTS: Final = sorted(set(CAT_COST[1:]))
_LURE_COST: Final = (-1, *(_COSTS.index(CAT_COST[i]) for i in CAT_IDS))
# Per distinct cost: card id -> the card's symbols that the cost asks for (0: none, empty).
_CARD_REL: Final = tuple(
    bytes(
        (BAIT_MASK[i] & sum({1 << k for k in cost})) if 0 < i < len(BAIT_MASK) else 0
        for i in range(256)
    )
    for cost in _COSTS
)
# The key prefix of a cost in ``_LURES``.
_COST_KEY: Final = tuple(bytes((c,)) for c in range(len(_COSTS)))

# The actions, built once: legal lists share them (treat them as read-only).
GATHER: Final[Action] = {"type": "gather"}
REVEAL: Final[Action] = {"type": "reveal"}
STOP: Final[Action] = {"type": "stop"}
ACCEPT_DOG: Final[Action] = {"type": "accept_dog"}
DONE: Final[Action] = {"type": "done"}
END_TURN: Final[Action] = {"type": "end_turn"}
SWAP: Final = tuple({"type": "swap", "target": q} for q in range(CUSHIONS))
_OTHERS: Final = tuple(tuple(q for q in range(CUSHIONS) if q != p) for p in range(CUSHIONS))
PLACE_DRAWN: Final = tuple({"type": "place_drawn", "field": f} for f in range(FIELDS))
# [card id][mask of the filled fields] -> that card placed on each field in turn (a
# ``replace`` on a filled field)
PLACEMENTS: Final = tuple(
    tuple(
        tuple(
            {"type": "replace" if filled >> f & 1 else "place", "card": c, "field": f}
            for f in range(FIELDS)
        )
        for filled in range(1 << FIELDS)
    )
    for c in range(len(BAIT_MASK))
)
IGNORE_DOG: Final = tuple({"type": "ignore_dog", "cat": c} for c in range(len(CAT_POINTS)))
ABILITY: Final = tuple({"type": "ability", "cat": c} for c in range(len(CAT_POINTS)))
# (cat, *slots) -> the ability of a yard-discard cat on those slots
ABILITY_ON: Final[dict[tuple[int, ...], Action]] = {
    (c, *slots): {"type": "ability", "cat": c, "slots": list(slots)}
    for c in CAT_IDS
    if CAT_ABILITY[c] in ("yard_discard_1", "yard_discard_2")
    for slots in (*((s,) for s in range(YARD_SLOTS)), *combinations(range(YARD_SLOTS), 2))
}

assert len(BAIT) == COUNTS["bait_cards"][0] and sum(IS_DOG) == COUNTS["dogs"][0]
assert len(CATS) == COUNTS["cat_tiles"][0]


def static_tables() -> dict[str, Any]:
    """The public card and tile tables (JSON-ready), e.g. for a bot's documentation."""
    return {
        "bait": [BAIT[i].to_json() for i in BAIT_IDS],
        "cats": [CATS[i].to_json() for i in CAT_IDS],
    }


# -- the state ------------------------------------------------------------------------------


class CatYardState(GameState):
    """A game of Cat Yard. Positions 0-3 hold the four cushions; seats sit at positions."""

    SHARED = (
        "players",
        "target",
        "seat_pos",
        "owner",
        "current",
        "phase",
        "main_action",
        "pending_dog",
        "drawn",
        "draws_left",
        "return_phase",
        "round",
        "end_triggered",
        "end_reason",
        "_players_view",
        "_players_key",
        "_view",
    )
    COPIED = (
        "protected",
        "deck",
        "discard",
        "cat_stack",
        "yard",
        "cat_discard",
        "used",
        "revealed",
        "swapped_with",
        "log",
    )
    COPIED_ITEMS = ("cushions", "owned")

    def __init__(self, players: int, target: int, seed: int) -> None:
        super().__init__(seed)
        self.players: int = players
        self.target: int = target
        self.seat_pos: tuple[int, ...] = SEAT_POSITIONS[players]
        owner: list[int | None] = [None] * CUSHIONS
        for seat, pos in enumerate(self.seat_pos):
            owner[pos] = seat
        self.owner: tuple[int | None, ...] = tuple(owner)
        # [position][field] -> card id, 0 = empty
        self.cushions: list[list[int]] = [[0] * FIELDS for _ in range(CUSHIONS)]
        self.protected: list[bool] = [False] * CUSHIONS
        self.discard: list[int] = []
        self.cat_discard: list[int] = []
        self.owned: list[list[int]] = [[] for _ in range(players)]  # per seat, in the order lured
        self.used: list[bool] = [False] * (len(CATS) + 1)  # per cat id
        self.revealed: list[int] = []
        self.swapped_with: list[int] = []
        self.current: int = 0  # the turn's fields are set by _begin_turn below
        self.phase: Phase = _START
        self.main_action: str = "none"  # "none", "gather" or "lure"
        self.pending_dog: int = 0
        self.drawn: int = 0  # the card a draw ability is placing (DRAW_PLACE), 0 = none
        self.draws_left: int = 0
        self.return_phase: Phase = _START
        self.round: int = 1
        self.end_triggered: bool = False
        self.end_reason: str = ""
        # compact events: [kind, *fields] (README "Observation")
        self.log: EventLog = EventLog(players)
        # Observation "players" part, rebuilt only after a change of ``owned`` or ``used``
        # (None = stale). Never mutated once built: observations share it.
        self._players_view: list[list[Any]] | None = None
        self._players_key: tuple[list[list[int]], list[bool]] | None = None
        # The last observation's table parts (every key but "seat" and "events"), refreshed by
        # comparison at each observation (see ``observation``); shared by clones.
        self._view: dict[str, Any] | None = None
        self._deal()
        self._begin_turn(0)
        self.settle()

    # -- chance ---------------------------------------------------------------------------
    def _deal(self) -> None:
        """Setup (spec §3): shuffle the deck, deal arrow cards, shuffle cats, fill the yard."""
        self.deck: list[int] = list(BAIT_IDS)  # top = last
        self.rng.shuffle(self.deck)
        for pos in range(CUSHIONS):
            card = self.deck.pop()
            while IS_DOG[card]:
                self.deck.append(card)
                self.rng.shuffle(self.deck)
                card = self.deck.pop()
            self.cushions[pos][ARROW] = card
        self.cat_stack: list[int] = list(CAT_IDS)  # top = last
        self.rng.shuffle(self.cat_stack)
        self.yard: list[int] = [0] * YARD_SLOTS  # cat id, 0 = empty
        for slot in range(YARD_SLOTS):
            self._refill(slot)

    def _draw(self) -> int:
        """The top bait card; reshuffles the discard pile first if the deck is empty."""
        if not self.deck:
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
            self.log.append(["reshuffle", len(self.deck)])
        return self.deck.pop()

    def _draw_bait(self) -> int:
        """Draw until a bait card comes, discarding dogs; 0 if no bait card is left to draw."""
        if all(IS_DOG[c] for c in self.deck) and all(IS_DOG[c] for c in self.discard):
            return 0
        while True:
            card = self._draw()
            self.log.append(["draw", card])
            if not IS_DOG[card]:
                return card
            self.discard.append(card)

    def _refill(self, slot: int) -> None:
        if self.cat_stack:
            cat = self.cat_stack.pop()
            self.yard[slot] = cat
            self.log.append(["refill", slot, cat])

    # -- the contract ---------------------------------------------------------------------
    def to_move(self) -> int | None:
        return None if self.phase is _OVER else self.current

    def _legal(self) -> list[Action]:
        phase = self.phase
        if phase is _START:
            return self._free(self._lures([GATHER]))
        if phase is _GATHER_DECIDE:
            return self._free([REVEAL, STOP])
        if phase is _DOG:
            used = self.used
            out = [
                IGNORE_DOG[c]
                for c in self.owned[self.current]
                if CAT_ABILITY[c] == "ignore_dog" and not used[c]
            ]
            out.append(ACCEPT_DOG)
            return out
        if phase is _PLACE:
            return self._placements()
        if phase is _DRAW_PLACE:
            fields = self.cushions[self.seat_pos[self.current]]
            return [PLACE_DRAWN[f] for f in range(FIELDS) if not fields[f]]
        if phase is _POST:
            out = self._lures([]) if self.main_action == "lure" else []
            self._free(out).append(END_TURN)
            return out
        return []

    def _play(self, action: Action) -> None:
        self.log.mark(self.current)  # the seat's own action starts its next events
        self.log.append(["act", self.current, action])
        self._dispatch(action)
        self._settle()

    def settle(self) -> None:
        """Apply every forced decision (one legal action, not ``end_turn``); cache the list.

        The engine does this after every action; call it yourself after editing a state by
        hand (tests, a bot's own simulations): it also drops the cached observation pieces.
        """
        self._players_view = None
        self._settle()

    def _settle(self) -> None:
        legal = self._legal()
        while len(legal) == 1 and legal[0]["type"] != "end_turn":
            self.log.append(["auto", self.current, legal[0]])
            self._dispatch(legal[0])
            legal = self._legal()
        self._legal_cache = legal if self.phase is not _OVER else None

    def _dispatch(self, action: Action) -> None:
        _DISPATCH[action["type"]](self, action)

    def _do_gather(self, action: Action) -> None:
        self.main_action = "gather"
        self._reveal()

    def _do_reveal(self, action: Action) -> None:
        self._reveal()

    def _do_stop(self, action: Action) -> None:
        self.phase = _PLACE

    def _do_ignore_dog(self, action: Action) -> None:
        self.used[action["cat"]] = True
        self._players_view = None
        self.discard.append(self.pending_dog)
        self.pending_dog = 0
        self.phase = _GATHER_DECIDE

    def _do_accept_dog(self, action: Action) -> None:
        self._bust()

    def _do_place(self, action: Action) -> None:
        self._place(action["card"], action["field"])

    def _do_done(self, action: Action) -> None:
        self.discard.extend(self.revealed)
        self.revealed = []
        self.phase = _POST

    def _do_place_drawn(self, action: Action) -> None:
        self.cushions[self.seat_pos[self.current]][action["field"]] = self.drawn
        self.drawn = 0
        self._next_draw()

    def _do_lure(self, action: Action) -> None:
        self._lure(action["slot"], action["fields"], action["wilds"])

    def _do_swap(self, action: Action) -> None:
        self._swap(action["target"])

    def _do_ability(self, action: Action) -> None:
        self._ability(action["cat"], action.get("slots", ()))

    def _do_end_turn(self, action: Action) -> None:
        self._end_turn()

    # -- legal-action generators ----------------------------------------------------------
    def _lures(self, out: list[Action]) -> list[Action]:
        """Append every legal lure (spec §4.6) to ``out``: a yard slot, paying fields and
        wild tiles.

        Payers are the non-empty fields (ascending) then the unused wild tiles (by id); per
        yard cat, every set of exactly ``len(cost)`` payers that can pay it, in
        ``combinations`` order. The actions are cached per (cost, the symbols of each field
        that the cost asks for, the wild tiles that show one) and yard slot: see
        :func:`_slot_lures`.
        """
        current = self.current
        fields = self.cushions[self.seat_pos[current]]
        f0, f1, f2, f3 = fields
        n = (f0 != 0) + (f1 != 0) + (f2 != 0) + (f3 != 0)
        shown = BAIT_MASK[f0] | BAIT_MASK[f1] | BAIT_MASK[f2] | BAIT_MASK[f3]  # symbols shown
        owned = self.owned[current]
        wilds: list[int] = []
        if owned and not _WILD_CATS.isdisjoint(owned):
            used = self.used
            wilds = sorted(c for c in owned if CAT_WILD[c] and not used[c])
            n += len(wilds)
            for w in wilds:
                shown |= CAT_WILD[w]
        if not n:
            return out
        raw = bytes(fields)
        cache = _LURES
        for slot, cat in enumerate(self.yard):
            # Quick rejects: too few payers, or a wanted symbol that no payer shows.
            if not cat or _COST_LEN[cat] > n or _COST_BITS[cat] & ~shown:
                continue
            cost = _LURE_COST[cat]
            key = _COST_KEY[cost] + raw.translate(_CARD_REL[cost])
            if wilds:
                bits = _COST_BITS[cat]
                key += bytes(w for w in wilds if CAT_WILD[w] & bits)
            per_slot = cache.get(key)
            if per_slot is None:
                if len(cache) >= _LURE_CACHE_SIZE:
                    cache.clear()
                per_slot = cache[key] = [None] * YARD_SLOTS
            lures = per_slot[slot]
            if lures is None:
                lures = per_slot[slot] = _slot_lures(slot, key)
            out += lures
        return out

    def _free(self, out: list[Action]) -> list[Action]:
        """Append F(P) to ``out``: swaps, then abilities of unused cats in the order they
        were lured (§4.3)."""
        current = self.current
        pos = self.seat_pos[current]
        cushions = self.cushions
        if cushions[pos][ARROW]:
            protected = self.protected
            swapped = self.swapped_with
            for q in _OTHERS[pos]:
                if cushions[q][ARROW] and not protected[q] and q not in swapped:
                    out.append(SWAP[q])
        owned = self.owned[current]
        if not owned:
            return out
        used = self.used
        cat_slots: list[int] | None = None
        for cat in owned:
            if used[cat]:
                continue
            kind = _FREE_KIND[cat]
            if kind == _FREE_NEVER:
                continue
            if kind == _FREE_ALWAYS:
                out.append(ABILITY[cat])
            elif kind == _FREE_DRAW:
                if 0 in cushions[pos]:
                    out.append(ABILITY[cat])
            else:
                if cat_slots is None:
                    yard = self.yard
                    cat_slots = [s for s in range(YARD_SLOTS) if yard[s]]
                if kind == _FREE_DISCARD_ALL:
                    if cat_slots:
                        out.append(ABILITY[cat])
                elif kind == _FREE_DISCARD_1 or len(cat_slots) == 1:
                    for s in cat_slots:
                        out.append(ABILITY_ON[cat, s])
                else:
                    for s1, s2 in combinations(cat_slots, 2):
                        out.append(ABILITY_ON[cat, s1, s2])
        return out

    def _placements(self) -> list[Action]:
        """PLACE (§4.5): each revealed card onto each field, then ``done`` if allowed."""
        f0, f1, f2, f3 = self.cushions[self.seat_pos[self.current]]
        filled = (f0 != 0) | (f1 != 0) << 1 | (f2 != 0) << 2 | (f3 != 0) << 3
        out: list[Action] = []
        for card in self.revealed:
            out += PLACEMENTS[card][filled]
        if f0:
            out.append(DONE)
        return out

    # -- transitions ----------------------------------------------------------------------
    def _begin_turn(self, seat: int) -> None:
        """Enter START for ``seat`` (§4.4)."""
        self.current = seat
        self.protected[self.seat_pos[seat]] = False
        self.main_action = "none"
        self.swapped_with = []
        self.revealed = []
        self.phase = _START
        self.log.append(["turn", seat, self.round])

    def _reveal(self) -> None:
        """REVEAL (§4.5): a first-card dog is discarded and the reveal repeats."""
        while True:
            card = self._draw()
            self.log.append(["reveal", card])
            if not IS_DOG[card]:
                self.revealed.append(card)
                self.phase = _GATHER_DECIDE
                return
            if self.revealed:
                self.pending_dog = card
                self.phase = _DOG
                return
            self.discard.append(card)

    def _bust(self) -> None:
        self.log.append(["bust", self.current, [*self.revealed, self.pending_dog]])
        self.discard.extend(self.revealed)
        self.discard.append(self.pending_dog)
        self.revealed = []
        self.pending_dog = 0
        self.phase = _POST

    def _place(self, card: int, field: int) -> None:
        fields = self.cushions[self.seat_pos[self.current]]
        if fields[field]:
            self.discard.append(fields[field])
        fields[field] = card
        self.revealed.remove(card)
        if not self.revealed:
            self.phase = _POST

    def _lure(self, slot: int, fields: Sequence[int], wilds: Sequence[int]) -> None:
        cushion = self.cushions[self.seat_pos[self.current]]
        for f in fields:
            self.discard.append(cushion[f])
            cushion[f] = 0
        for cat in wilds:
            self.used[cat] = True
        self.owned[self.current].append(self.yard[slot])
        self._players_view = None
        self.yard[slot] = 0
        self._refill(slot)
        self.main_action = "lure"
        self.phase = _POST

    def _swap(self, target: int) -> None:
        mine = self.cushions[self.seat_pos[self.current]]
        theirs = self.cushions[target]
        mine[ARROW], theirs[ARROW] = theirs[ARROW], mine[ARROW]
        self.swapped_with.append(target)

    def _ability(self, cat: int, slots: Sequence[int]) -> None:
        """Resolve a free ability (§4.7); the tile is used even if nothing changes."""
        self.used[cat] = True
        self._players_view = None
        ability = CAT_ABILITY[cat]
        if ability == "yard_discard_all":
            slots = [s for s in range(YARD_SLOTS) if self.yard[s]]
        if ability.startswith("yard_discard"):
            for s in slots:
                self.cat_discard.append(self.yard[s])
                self.yard[s] = 0
            for s in slots:
                self._refill(s)
        elif ability.startswith("draw_"):
            self.return_phase = self.phase
            self.draws_left = int(ability[-1])
            self._next_draw()
        elif ability.startswith("rotate_"):
            self._rotate(1 if ability == "rotate_left" else -1)
        elif ability == "protect":
            self.protected[self.seat_pos[self.current]] = True

    def _next_draw(self) -> None:
        """Draw the next card of a draw ability into DRAW_PLACE, or return when done."""
        if self.draws_left and 0 in self.cushions[self.seat_pos[self.current]]:
            card = self._draw_bait()
            if card:
                self.draws_left -= 1
                self.drawn = card
                self.phase = _DRAW_PLACE
                return
        self.draws_left = 0
        self.phase = self.return_phase

    def _rotate(self, step: int) -> None:
        """Move cushion contents ``step`` places clockwise among unprotected positions."""
        free = [p for p in range(CUSHIONS) if not self.protected[p]]
        contents = [self.cushions[p] for p in free]
        for i, p in enumerate(free):
            self.cushions[p] = contents[(i - step) % len(free)]

    def _end_turn(self) -> None:
        """End of turn (§4.8): end check, feeding of unowned cushions, next player."""
        seat = self.current
        points = CAT_POINTS.__getitem__
        if max(sum(map(points, owned)) for owned in self.owned) >= self.target:
            self.end_triggered = True
            self.end_reason = self.end_reason or "target"
        if not any(self.yard) and not self.cat_stack:
            self.end_triggered = True
            self.end_reason = self.end_reason or "no_cats"
        last = seat == self.players - 1
        if last and (self.end_triggered or self.round >= ROUND_CAP):
            self.end_reason = self.end_reason or "round_cap"
            self.phase = _OVER
            self.log.append(["game_over", self.end_reason])
            return
        nxt = 0 if last else seat + 1
        pos, nxt_pos = self.seat_pos[seat], self.seat_pos[nxt]
        q = (pos + 1) % CUSHIONS
        while q != nxt_pos:
            self._feed(q)
            q = (q + 1) % CUSHIONS
        if last:
            self.round += 1
        self._begin_turn(nxt)

    def _feed(self, pos: int) -> None:
        """Give an unowned cushion one bait card: arrow field first, else lowest empty."""
        fields = self.cushions[pos]
        if 0 not in fields:
            return
        card = self._draw_bait()
        if card:
            field = fields.index(0)
            fields[field] = card
            self.log.append(["feed", pos, field, card])

    # -- queries --------------------------------------------------------------------------
    def points(self, seat: int) -> int:
        return sum(CAT_POINTS[c] for c in self.owned[seat])

    def observation(self, seat: int) -> dict[str, Any]:
        """Everything on the table (all of it public) plus the events since ``seat`` acted.

        Hidden: the order of the bait deck and of the cat stack, except the points on the
        back of the top tile (spec §6). Compact (version 2): ids only (look them up in
        ``BAIT``/``CATS``), 0 for an empty field or slot, lists instead of per-item dicts.
        The lists are shared with other observations: do not mutate the result.
        """
        players = self._players_view
        key = self._players_key
        if players is None or key is None or key[0] is not self.owned or key[1] is not self.used:
            players = self._players_view = self._view_players()
            self._players_key = (self.owned, self.used)
        view = self._view
        if view is None:
            view = self._view = self._new_view()
        else:
            # The table's lists, copied only when they changed since the last observation
            # (whose copies stay as they were: they may be in observations handed out).
            cushions = self.cushions
            if view["cushions"] != cushions:
                view["cushions"] = [c[:] for c in cushions]
            if view["protected"] != self.protected:
                view["protected"] = self.protected[:]
            if view["yard"] != self.yard:
                view["yard"] = self.yard[:]
            if view["cat_discard"] != self.cat_discard:
                view["cat_discard"] = self.cat_discard[:]
            if view["discard"] != self.discard:
                view["discard"] = self.discard[:]
            if view["revealed"] != self.revealed:
                view["revealed"] = self.revealed[:]
            swapped = self.swapped_with
            if view["swapped_with"] != swapped:
                view["swapped_with"] = sorted(swapped)
        obs = view.copy()
        obs["seat"] = seat
        obs["to_move"] = None if self.phase is _OVER else self.current
        obs["phase"] = self.phase._value_
        obs["round"] = self.round
        obs["end_triggered"] = self.end_triggered
        obs["main_action"] = self.main_action
        obs["players"] = players
        stack = self.cat_stack
        obs["cat_stack_count"] = len(stack)
        obs["cat_stack_top_points"] = CAT_POINTS[stack[-1]] if stack else None
        obs["deck_count"] = len(self.deck)
        obs["pending_dog"] = self.pending_dog
        obs["drawn"] = self.drawn
        obs["draws_left"] = self.draws_left
        obs["events"] = self.log.since(seat)
        return obs

    def _new_view(self) -> dict[str, Any]:
        """The observation's keys in order, with the table's lists copied."""
        return {
            "seat": 0,
            "to_move": None,
            "phase": "",
            "round": 0,
            "target": self.target,
            "end_triggered": False,
            "main_action": "",
            "players": [],
            "cushions": [c[:] for c in self.cushions],
            "protected": self.protected[:],
            "yard": self.yard[:],
            "cat_stack_count": 0,
            "cat_stack_top_points": None,
            "cat_discard": self.cat_discard[:],
            "deck_count": 0,
            "discard": self.discard[:],
            "revealed": self.revealed[:],
            "pending_dog": 0,
            "drawn": 0,
            "draws_left": 0,
            "swapped_with": sorted(self.swapped_with),
            "events": [],
        }

    def _view_players(self) -> list[list[Any]]:
        used = self.used
        points = CAT_POINTS.__getitem__
        return [
            [pos, sum(map(points, owned)), [[c, used[c]] for c in owned]]
            for pos, owned in zip(self.seat_pos, self.owned, strict=True)
        ]

    def result(self) -> Result:
        scores = [self.points(s) for s in range(self.players)]
        ranks = ranks_from_scores(scores)
        return Result(
            scores=[float(x) for x in scores],
            ranks=ranks,
            detail={
                "end": self.end_reason or "unfinished",
                "rounds": self.round,
                "target": self.target,
                "cats": [list(self.owned[s]) for s in range(self.players)],
                "winners": [s for s in range(self.players) if ranks[s] == 1],
            },
        )

    def determinize(self, seat: int, rng: random.Random) -> CatYardState:
        """Re-shuffle the deck and the cat stack (keeping the top tile's visible points)."""
        new = self.clone()
        rng.shuffle(new.deck)
        if new.cat_stack:
            top_points = CAT_POINTS[new.cat_stack[-1]]
            top = rng.choice([c for c in new.cat_stack if CAT_POINTS[c] == top_points])
            rest = [c for c in new.cat_stack if c != top]
            rng.shuffle(rest)
            new.cat_stack = [*rest, top]
        new._reseed(rng)
        return new

    # -- text -----------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        return f"seat {self.current} {describe_action(action, self.yard)}"

    def render(self, seat: int | None) -> str:
        """The table as text, at most 100 columns; ``seat`` is marked "you".

        Everything on the table is public but the bait deck (face down) and the cat stack
        (picture side up: only the top tile's points show); their sizes are shown.
        ``seat=None`` also shows their order.
        """

        def who(s: int | None) -> str:
            return "unowned" if s is None else f"seat {s}" + (" (you)" if s == seat else "")

        if self.phase is _OVER:
            doing = "game over"
        else:
            doing = f"{who(self.current)} to move: {_PHASE_WORDS[self.phase]}"
        trigger = "; the end is triggered: this round is the last" if self.end_triggered else ""
        lines = [
            f"Cat Yard - round {self.round}, first to {self.target} points{trigger}",
            doing,
            "Yard (lure a cat by paying its cost with bait cards from your cushion):",
        ]
        for slot, cat in enumerate(self.yard):
            lines.append(f"  slot {slot}: {_cat_words(cat)}")
        top = f"; the top tile shows {CAT_POINTS[self.cat_stack[-1]]} pt" if self.cat_stack else ""
        stack = f"Cat stack: {len(self.cat_stack)} tiles, picture side up (cost and ability hidden)"
        lines.append(f"{stack}{top}")
        lines.append("Cushions (field 0 is the arrow field, marked >):")
        for pos in range(CUSHIONS):
            guard = ", protected" if self.protected[pos] else ""
            cells = "   ".join(
                f"{f}{'>' if f == ARROW else ':'} {_bait_words(c)}"
                for f, c in enumerate(self.cushions[pos])
            )
            owner = "you" if self.owner[pos] == seat is not None else who(self.owner[pos])
            head = f"  cushion {pos} ({owner}{guard}):"
            if len(head) + 2 + len(cells) <= 100:
                lines.append(f"{head}  {cells}")
            else:
                lines += [head, f"      {cells}"]
        lines.append("Players (cats marked * have used their ability):")
        for s in range(self.players):
            cats = ", ".join(f"{c}{'*' if self.used[c] else ''}" for c in self.owned[s]) or "-"
            lines.append(f"  {who(s)}: {self.points(s)} pt; cats {cats}")
        lines.append(
            f"Bait deck: {len(self.deck)} cards, face down; discard pile: {len(self.discard)} cards"
        )
        if self.revealed or self.pending_dog or self.drawn:
            shown = [_bait_words(c) for c in self.revealed] or ["-"]
            lines += _wrap_list("Revealed this turn:", shown, "    ")
            if self.pending_dog:
                lines.append("  A DOG came up: accept it (lose the revealed cards) or ignore it")
            if self.drawn:
                lines.append(f"  drawn by an ability: {_bait_words(self.drawn)}")
        if seat is None:
            lines += textwrap.wrap(
                "deck top first: " + " ".join(str(c) for c in reversed(self.deck)), 100
            )
            lines += textwrap.wrap(
                "stack top first: " + " ".join(str(c) for c in reversed(self.cat_stack)), 100
            )
        return "\n".join(lines)


_PHASE_WORDS: Final = {
    _START: "gather bait or lure cats (free actions allowed)",
    _GATHER_DECIDE: "gathering bait - reveal another card or stop",
    _DOG: "a dog came up",
    _PLACE: "put the revealed cards on your cushion",
    _DRAW_PLACE: "put the drawn card on your cushion",
    _POST: "main action done - free actions, more lures after a lure, or end the turn",
}


_DISPATCH: Final = {
    "gather": CatYardState._do_gather,
    "reveal": CatYardState._do_reveal,
    "stop": CatYardState._do_stop,
    "ignore_dog": CatYardState._do_ignore_dog,
    "accept_dog": CatYardState._do_accept_dog,
    "place": CatYardState._do_place,
    "replace": CatYardState._do_place,
    "done": CatYardState._do_done,
    "place_drawn": CatYardState._do_place_drawn,
    "lure": CatYardState._do_lure,
    "swap": CatYardState._do_swap,
    "ability": CatYardState._do_ability,
    "end_turn": CatYardState._do_end_turn,
}


# -- pure helpers ---------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def can_pay(cost: tuple[int, ...], masks: tuple[int, ...]) -> bool:
    """Whether payers with these symbol masks can pay ``cost``, one symbol each.

    ``cost`` lists symbol indices (repeats allowed); each payer (a bait card or a wild
    tile) pays exactly one symbol it shows (spec §4.6), so a card showing two wanted
    symbols still pays only one. Spare payers are allowed. Pass ``masks`` sorted so the
    cache is shared. Checked with Hall's condition: every set S of wanted kinds needs at
    least as many payers showing a kind in S as the cost has symbols in S.
    """
    need = [0] * len(SYMBOLS)
    for k in cost:
        need[k] += 1
    kinds = [k for k in range(len(SYMBOLS)) if need[k]]
    for subset in range(1, 1 << len(kinds)):
        bits = 0
        demand = 0
        for i, k in enumerate(kinds):
            if subset >> i & 1:
                bits |= 1 << k
                demand += need[k]
        if sum(1 for m in masks if m & bits) < demand:
            return False
    return True


@lru_cache(maxsize=65536)
def paying_combos(cost: tuple[int, ...], masks: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every set of payer indices (ascending, in ``combinations`` order) of exactly
    ``len(cost)`` payers with these masks (in payer order) that can pay ``cost``."""
    if len(cost) > len(masks) or not can_pay(cost, tuple(sorted(masks))):
        return ()
    return tuple(
        combo
        for combo in combinations(range(len(masks)), len(cost))
        if can_pay(cost, tuple(sorted(masks[i] for i in combo)))
    )


_LURES: dict[bytes, list[tuple[Action, ...] | None]] = {}
_LURE_CACHE_SIZE: Final = 1 << 16  # keys; cleared when full


def _slot_lures(slot: int, key: bytes) -> tuple[Action, ...]:
    """The lure actions of one yard slot. ``key`` (of ``_LURES``): the cost's index, per
    field the symbols of its card that the cost asks for, then the ids of the unused wild
    tiles that show one. The paying sets come in ``combinations`` order over the payers
    that show a wanted symbol (fields ascending, then wild tiles by id): payers showing
    none never pay, so dropping them keeps the order (the indices are relabelled
    monotonically)."""
    cost = _COSTS[key[0]]
    bits = sum({1 << k for k in cost})
    at = [f for f in range(FIELDS) if key[1 + f]]
    wild = list(key[1 + FIELDS :])
    masks = (*(key[1 + f] for f in at), *(CAT_WILD[w] & bits for w in wild))
    n_fields = len(at)
    return tuple(
        {
            "type": "lure",
            "slot": slot,
            "fields": [at[i] for i in combo if i < n_fields],
            "wilds": [wild[i - n_fields] for i in combo if i >= n_fields],
        }
        for combo in paying_combos(cost, masks)
    )


def _card_text(card: int) -> str:
    return f"{card}({BAIT[card].label()})" if card else "--"


def _bait_words(card: int) -> str:
    return f"{card} {BAIT[card].label()}" if card else "--"


def _wrap_list(head: str, items: Sequence[str], indent: str) -> list[str]:
    """``head`` and the comma-separated ``items`` in lines of at most 100 columns, broken
    only between items (a card's number stays with its bait); later lines start with
    ``indent``."""
    lines: list[str] = []
    line = head
    for index, item in enumerate(items):
        piece = item if index == len(items) - 1 else f"{item},"
        if index and len(line) + 1 + len(piece) > 100:
            lines.append(line)
            line = indent + piece
        else:
            line = f"{line} {piece}"
    return [*lines, line]


def _cat_words(cat: int) -> str:
    if not cat:
        return "empty"
    tile = CATS[cat]
    return f"cat {cat}, cost {'+'.join(tile.cost)}, {tile.points} pt, ability {tile.ability}"


def describe_action(action: Action, yard: Sequence[int]) -> str:
    """One line for an action (without the seat), e.g. ``lures cat 14 from slot 2 ...``."""
    kind = action["type"]
    if kind == "gather":
        return "gathers bait"
    if kind == "reveal":
        return "reveals another card"
    if kind == "stop":
        return "stops revealing"
    if kind == "ignore_dog":
        return f"ignores the dog with cat {action['cat']}"
    if kind == "accept_dog":
        return "accepts the dog and loses the revealed cards"
    if kind == "place":
        return f"places {_card_text(action['card'])} on field {action['field']}"
    if kind == "replace":
        return f"replaces field {action['field']} with {_card_text(action['card'])}"
    if kind == "done":
        return "discards the remaining revealed cards"
    if kind == "place_drawn":
        return f"places the drawn card on field {action['field']}"
    if kind == "lure":
        wilds = f" and wild cats {action['wilds']}" if action["wilds"] else ""
        return (
            f"lures {CATS[yard[action['slot']]].label()} from slot {action['slot']} "
            f"paying fields {action['fields']}{wilds}"
        )
    if kind == "swap":
        return f"swaps arrow cards with cushion {action['target']}"
    if kind == "ability":
        slots = f" on slots {action['slots']}" if "slots" in action else ""
        return f"uses {CAT_ABILITY[action['cat']]} of cat {action['cat']}{slots}"
    if kind == "end_turn":
        return "ends the turn"
    return f"plays {action!r}"
