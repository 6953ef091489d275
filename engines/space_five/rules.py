"""Space Five (Piątka z kosmosu): rules and state.

Spec: docs/rules/space-five.md. Cards are ints ``alien * 5 + background``
(0..24) inside the engine and codes like ``"C3"`` at every edge (actions, observations).
A set of codes is a 25-bit mask. The state keeps the layout with integer cell keys
(``grid``, and ``front`` for the frontier's fit masks); :attr:`SpaceFiveState.layout` shows
it as a dict ``(x, y) -> card``, the form the helpers of :mod:`engines.space_five.geometry`
take.

Chance (all from ``State.rng``, a ``random.Random(seed)``), in this order:
1. each round (one round unless the ``rounds`` option says more): one ``shuffle`` of the
   100-card canonical deck -> start card, stacks in seat order, box;
2. each exchange: one ``shuffle`` of the picked cards (in pick order) before they go under
   the stack.
"""

from __future__ import annotations

import random
import textwrap
from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engines.base import (
    Action,
    EventLog,
    GameState,
    JsonList,
    OptionError,
    Result,
    ranks_from_scores,
)
from engines.space_five.data import value
from engines.space_five.geometry import (
    ALIEN_MASKS,
    BACKGROUND_MASKS,
    BONUS_BOTH,
    BONUS_FIFTH,
    BONUS_FOURTH,
    CODES,
    KINDS,
    MAX_GROUP,
    Cell,
    Layout,
    joinable,
)

# -- constants -------------------------------------------------------------------------------

ALIENS: tuple[str, ...] = value("aliens")
BACKGROUNDS: tuple[str, ...] = value("backgrounds")
NAMES: tuple[str, ...] = tuple(a + b for a in ALIENS for b in BACKGROUNDS)
CODE_OF: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
COPIES: int = value("copies_per_code")
HAND: int = value("hand_size")
MAX_EXCHANGE: int = value("max_exchange")
SOLO_MIN_PLAY: int = value("solo_min_play")
SOLO_KEEP: int = value("solo_keep")
YOUNG_DEAL: int = value("young_deal")
STALL_PER_PLAYER: int = value("stall_turns_per_player")
TURN_CAP: int = value("turn_cap")

# Inside the state the grid is also kept with integer cell keys ``(y + OFF) * WIDE + x + OFF``
# (neighbours are key +-1 and key +-WIDE; integer order is the (y, x) order). A layout of
# 100 cards stays within 100 cells of the start, far inside the bounds.
OFF = 512
WIDE = 1024
CELL_BITS = 20  # keys fit in 20 bits: a sort item ``code << CELL_BITS | key`` orders (code, y, x)
CELL_MASK = (1 << CELL_BITS) - 1
STEPS = (1, WIDE)  # H, V


class Phase(StrEnum):
    TURN_START = "turn_start"
    PLACING = "placing"
    EXCHANGE_SELECT = "exchange_select"
    BONUS = "bonus"
    SOLO_DISCARD = "solo_discard"
    OVER = "over"


# module-level names for the members: cheaper than ``Phase.X`` in the hot paths
_TURN_START = Phase.TURN_START
_PLACING = Phase.PLACING
_EXCHANGE_SELECT = Phase.EXCHANGE_SELECT
_BONUS = Phase.BONUS
_SOLO_DISCARD = Phase.SOLO_DISCARD
_OVER = Phase.OVER
# a phase's text as a plain str, C-level (a dict keyed by Phase would hash the member by a
# Python-level Enum.__hash__ on every observation)
_PHASE_TEXT = str.__str__


# -- value types -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Card:
    """One card kind: an alien (0..4) on a background (0..4)."""

    alien: int
    background: int

    @property
    def code(self) -> int:
        return self.alien * KINDS + self.background

    def to_json(self) -> str:
        return NAMES[self.code]

    @classmethod
    def from_json(cls, text: str) -> Card:
        code = CODE_OF[text]
        return cls(code // KINDS, code % KINDS)

    def __repr__(self) -> str:
        return f"Card.from_json({self.to_json()!r})"


@dataclass(frozen=True, slots=True)
class Placement:
    """A card lying (or to be laid) at a cell of the layout."""

    x: int
    y: int
    card: str

    def to_json(self) -> list[Any]:
        """The observation's compact form ``[x, y, "C4"]``."""
        return [self.x, self.y, self.card]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Placement:
        x, y, card = data
        return cls(int(x), int(y), str(card))

    def __repr__(self) -> str:
        return f"Placement({self.x}, {self.y}, {self.card!r})"


# Fixed actions are built once (legal lists are read-only by contract).
EXCHANGE: Action = {"type": "exchange"}
DONE: Action = {"type": "done"}
EXCHANGE_CONFIRM: Action = {"type": "exchange_confirm"}
BONUS_STOP: Action = {"type": "bonus_stop"}
BONUS_STACK: Action = {"type": "bonus_discard", "source": "stack"}
BONUS_PILE: Action = {"type": "bonus_discard", "source": "discard_pile"}
# per code (index = code), shared like the fixed actions
PICK: tuple[Action, ...] = tuple({"type": "exchange_pick", "card": n} for n in NAMES)
BONUS_HAND: tuple[Action, ...] = tuple(
    {"type": "bonus_discard", "source": "hand", "card": n} for n in NAMES
)
SOLO_DISCARD: tuple[Action, ...] = tuple({"type": "solo_discard", "card": n} for n in NAMES)


# -- state -----------------------------------------------------------------------------------


class SpaceFiveState(GameState):
    """A game of Space Five: 1 player (solo) or 2-4 players, one or several rounds."""

    SHARED = (
        "players",
        "solo",
        "options",
        "rounds",
        "deal_counts",
        "round",
        "turn",
        "outcome",
        "solo_starts",
        "active",
        "round_start_turn",
        "turns_without_play",
        "bonus_left",
        "phase",
    )
    COPIED = (
        "round_scores",
        "round_ends",
        "log",
        "layout_json",
        "grid",
        "front",
        "box",
        "discard",
        "placed",
        "placed_keys",
        "picked",
    )
    COPIED_ITEMS = ("stacks", "hands", "groups", "box_known")

    def __init__(self, players: int, seed: int, options: Mapping[str, Any]) -> None:
        super().__init__(seed)
        self.players = players
        self.solo = players == 1
        self.options = dict(options)  # never changed: clones share it
        self.rounds: int = options["rounds"]
        self.deal_counts = tuple(deal_counts(players, options))
        self.round = 0
        self.round_scores: list[list[int]] = []  # a finished round's list is never changed
        self.round_ends: list[str] = []  # per finished round, its end (as detail["end"])
        # events [turn, seat, kind, *values] (order per kind); a seat's view starts with
        # its own last action
        self.log = EventLog(players)
        self.turn = 0  # completed turns, whole game
        self.outcome: dict[str, Any] | None = None
        # sort items ``code << CELL_BITS | key``; computed once per turn, never changed
        self.solo_starts: list[int] = []
        self._deal_round()

    # -- chance ------------------------------------------------------------------------------
    def _deal_round(self) -> None:
        """Shuffle all 100 cards, start the layout, deal stacks and hands, start the round."""
        deck = [code for code in range(CODES) for _ in range(COPIES)]
        self.rng.shuffle(deck)
        start = deck[0]
        self.set_layout({(0, 0): start})
        self.stacks: list[list[int]] = []
        pos = 1
        for count in self.deal_counts:
            self.stacks.append(deck[pos : pos + count])
            pos += count
        self.box: list[int] = deck[pos:]
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        # What each owner knows of hidden cards (used by determinize): groups of exchanged
        # cards at the bottom of the own stack (candidates, how many still there), and
        # own cards known to lie in the box (sorted).
        self.groups: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in range(self.players)]
        self.box_known: list[list[int]] = [[] for _ in range(self.players)]
        for seat in range(self.players):
            self._draw(seat, HAND)
        self.active = self.round % self.players
        self.round_start_turn = self.turn
        self.turns_without_play = 0
        self.placed: list[Cell] = []
        self.placed_keys: list[int] = []
        self.picked: list[int] = []
        self.bonus_left = 0
        self._log(self.active, "round_start", self.round, NAMES[start])
        self._begin_turn()

    def _exchange(self) -> None:
        """Put the picked cards under the own stack in shuffled order, draw as many."""
        seat, picked = self.active, self.picked
        hand = self.hands[seat]
        for code in picked:
            hand.remove(code)
        self.rng.shuffle(picked)
        self.stacks[seat].extend(picked)
        self.groups[seat].append((tuple(picked), len(picked)))
        self._draw(seat, len(picked))
        self._log(seat, "exchange", len(picked))
        self.picked = []
        self._end_turn(played=False)

    # -- whose turn, what is legal -----------------------------------------------------------
    def to_move(self) -> int | None:
        return None if self.phase is _OVER else self.active

    def _legal(self) -> list[Action]:
        phase = self.phase
        if phase is _TURN_START:
            if self.solo:
                return [*map(_PLACE_ITEM.__getitem__, self.solo_starts)]
            return [*map(_PLACE_ITEM.__getitem__, self._start_items()), EXCHANGE]
        if phase is _PLACING:
            items = self._placing_items()
            if self.solo and len(self.placed) < SOLO_MIN_PLAY:
                need = SOLO_MIN_PLAY - len(self.placed) - 1
                items = [i for i in items if self._completes(i >> CELL_BITS, i & CELL_MASK, need)]
                return [*map(_PLACE_ITEM.__getitem__, items)]
            return [*map(_PLACE_ITEM.__getitem__, items), DONE]
        hand = self.hands[self.active]
        if phase is _EXCHANGE_SELECT:
            picks: list[Action] = []
            if len(self.picked) < MAX_EXCHANGE:
                free = list(hand)
                for code in self.picked:
                    free.remove(code)
                picks = [PICK[c] for c in _distinct(free)]
            return [*picks, EXCHANGE_CONFIRM] if self.picked else picks
        if phase is _BONUS:
            acts: list[Action] = [BONUS_HAND[c] for c in _distinct(hand)]
            if self.stacks[self.active]:
                acts.append(BONUS_STACK)
            if self.discard:
                acts.append(BONUS_PILE)
            acts.append(BONUS_STOP)
            return acts
        if phase is _SOLO_DISCARD:
            return [SOLO_DISCARD[c] for c in _distinct(hand)]
        return []

    def _start_items(self) -> list[int]:
        """Single-card legal plays from the active hand as sorted ``code << CELL_BITS | key``."""
        hand_mask = 0
        for code in self.hands[self.active]:
            hand_mask |= 1 << code
        items: list[int] = []
        append = items.append
        shifted = _SHIFTED_CODES
        for key, mask in self.front.items():
            fits = mask & hand_mask
            if fits:
                for high in shifted[fits]:
                    append(high | key)
        items.sort()
        return items

    def _placing_items(self) -> list[int]:
        """Legal next placements once a card of the play is down, sorted like start items."""
        hand_mask = 0
        for code in self.hands[self.active]:
            hand_mask |= 1 << code
        shifted = _SHIFTED_CODES
        items = [
            high | key
            for key, mask in _placing_keys(self.grid, self.placed_keys, self.front)
            if mask & hand_mask
            for high in shifted[mask & hand_mask]
        ]
        items.sort()
        return items

    def find_solo_starts(self) -> list[int]:
        """Solo first placements from which a play of at least 3 cards can be completed."""
        need = SOLO_MIN_PLAY - 1
        hand_mask = 0
        for code in self.hands[self.active]:
            hand_mask |= 1 << code
        out = []
        for item in self._start_items():
            code = item >> CELL_BITS
            # a play lies in one run: its cards are distinct codes sharing the alien or the
            # background, so the rest of the hand must hold ``need`` such codes (cheap filter)
            rest = hand_mask & ~(1 << code)
            if (
                (rest & ALIEN_MASKS[code // KINDS]).bit_count() >= need
                or (rest & BACKGROUND_MASKS[code % KINDS]).bit_count() >= need
            ) and self._completes(code, item & CELL_MASK, need):
                out.append(item)
        return out

    def _completes(self, code: int, key: int, need: int) -> bool:
        """Whether placing ``code`` at cell ``key`` can be followed by ``need`` more placements."""
        hand = list(self.hands[self.active])
        hand.remove(code)
        grid = self.grid  # probed in place (the cell is empty), restored below
        grid[key] = code
        try:
            return _can_extend_keys(grid, [*self.placed_keys, key], hand, need)
        finally:
            del grid[key]

    # -- transitions -------------------------------------------------------------------------
    def _play(self, action: Action) -> None:
        seat = self.active
        # the actor's next view starts with the consequences of this action
        self.log.mark(seat)
        kind = action["type"]
        if kind == "place":
            self._place(CODE_OF[action["card"]], (action["x"], action["y"]))
        elif kind == "done":
            self._finish_play()
        elif kind == "exchange":
            self.phase = _EXCHANGE_SELECT
        elif kind == "exchange_pick":
            self.picked.append(CODE_OF[action["card"]])
        elif kind == "exchange_confirm":
            self._exchange()
        elif kind == "bonus_discard":
            self._bonus_discard(action["source"], action.get("card"))
        elif kind == "bonus_stop":
            self._log(seat, "bonus_stop", self.bonus_left)
            self._refill_and_end()
        elif kind == "solo_discard":
            self._solo_discard(CODE_OF[action["card"]])
        else:
            raise ValueError(f"unknown action type {kind!r}")

    def _place(self, code: int, cell: Cell) -> None:
        seat = self.active
        hand = self.hands[seat]
        hand.remove(code)
        x, y = cell
        key = (y + OFF) * WIDE + x + OFF
        self.grid[key] = code
        name = NAMES[code]
        self.layout_json.add([x, y, name], f'[{x},{y},"{name}"]')
        self._refresh_front(key)
        self.placed.append(cell)
        self.placed_keys.append(key)
        self.phase = _PLACING
        self.log.append([self.turn, seat, "place", x, y, name])
        if not hand:
            self._check_out(seat)

    def _finish_play(self) -> None:
        bonus = _play_bonus_keys(self.grid, self.placed_keys)
        self._log(self.active, "play", len(self.placed), bonus)
        if bonus:
            self.bonus_left = bonus
            self.phase = _BONUS
        else:
            self._refill_and_end()

    def _bonus_discard(self, source: str, card: str | None) -> None:
        seat = self.active
        if source == "hand":
            assert card is not None
            code = CODE_OF[card]
            self.hands[seat].remove(code)
            insort(self.box_known[seat], code)
        elif source == "stack":
            code = self._pop_stack(seat, seen=False)
        else:
            code = self.discard.pop()
        self.box.append(code)
        self.bonus_left -= 1
        self._log(seat, "bonus_discard", source)
        if not self._check_out(seat) and not self.bonus_left:
            self._refill_and_end()

    def _solo_discard(self, code: int) -> None:
        hand = self.hands[0]
        hand.remove(code)
        self.discard.append(code)
        self._log(0, "solo_discard", NAMES[code])
        if len(hand) == SOLO_KEEP:
            self._refill_and_end()

    def _refill_and_end(self) -> None:
        """Refill the hand to 5 from the own stack, then end the turn (solo may end here)."""
        seat = self.active
        need = HAND - len(self.hands[seat])
        if self.solo and need > len(self.stacks[0]):
            self.box.extend(self.hands[0])
            self.hands[0].clear()
            self._log(0, "draw_pile_short", need)
            self._end_round("draw_pile_exhausted", [0])
            return
        count = self._draw(seat, need)
        if count:
            self._log(seat, "draw", count)
        self._end_turn(played=self.phase is not _SOLO_DISCARD)

    def _end_turn(self, played: bool) -> None:
        self.turn += 1
        self.turns_without_play = 0 if played else self.turns_without_play + 1
        self.placed = []
        self.placed_keys = []
        self.bonus_left = 0
        self.active = (self.active + 1) % self.players
        self._begin_turn()

    def _begin_turn(self) -> None:
        """Apply the blocked-end checks (spec §9, in its order), then open the next decision
        of the new turn (out of cards is checked where the last card leaves)."""
        if self.solo:
            # first placements of a 3-card play; computed once per turn, never mutated
            self.solo_starts = self.find_solo_starts()
            self.phase = _TURN_START if self.solo_starts else _SOLO_DISCARD
            return
        if not self._someone_can_play():
            self._end_round("blocked", self._fewest(), cap="dead_layout")
        elif self.turns_without_play >= STALL_PER_PLAYER * self.players:
            self._end_round("blocked", self._fewest(), cap="stall_cap")
        elif self.turn - self.round_start_turn >= TURN_CAP:
            self._end_round("blocked", self._fewest(), cap="turn_cap")
        else:
            self.phase = _TURN_START

    def _check_out(self, seat: int) -> bool:
        """End the round if ``seat`` has no card left in hand and stack (not in solo)."""
        if self.solo or self.hands[seat] or self.stacks[seat]:
            return False
        self._end_round("out_of_cards", [seat])
        return True

    def _end_round(self, reason: str, winners: list[int], cap: str | None = None) -> None:
        remaining = self.remaining()
        self.round_scores.append(self._round_score())
        self.round_ends.append(cap or reason)
        info: dict[str, Any] = {"round": self.round, "reason": reason, "winners": winners}
        if cap is not None:
            info["cap"] = cap
        self._log(self.active, "round_end", self.round, reason, winners, remaining, cap)
        self.phase = _OVER
        if self.round + 1 < self.rounds:
            self.round += 1
            self._deal_round()
        else:
            self.outcome = {**info, "remaining": remaining}

    # -- helpers of the transitions ----------------------------------------------------------
    def _draw(self, seat: int, count: int) -> int:
        """Move up to ``count`` cards from the top of the own stack to the hand."""
        count = min(count, len(self.stacks[seat]))
        hand = self.hands[seat]
        for _ in range(count):
            insort(hand, self._pop_stack(seat, seen=True))
        return count

    def _pop_stack(self, seat: int, seen: bool) -> int:
        """Take the top card of a stack, keeping the owner's knowledge of its bottom right."""
        stack = self.stacks[seat]
        code = stack.pop(0)
        groups = self.groups[seat]
        if groups and len(stack) < sum(r for _, r in groups):
            candidates, left = groups[0]
            if seen:
                rest = list(candidates)
                rest.remove(code)
                candidates = tuple(rest)
            if left > 1:
                groups[0] = (candidates, left - 1)
            else:
                known = self.box_known[seat]
                known.extend(candidates)  # all its other cards left unseen
                known.sort()
                del groups[0]
        return code

    @property
    def layout(self) -> Layout:
        """The layout as a new dict ``(x, y) -> code``."""
        return {(k % WIDE - OFF, k // WIDE - OFF): code for k, code in self.grid.items()}

    @property
    def frontier(self) -> dict[Cell, int]:
        """Every empty cell next to the layout that some code fits, with its fit mask."""
        return {(k % WIDE - OFF, k // WIDE - OFF): mask for k, mask in self.front.items()}

    def set_layout(self, layout: Mapping[Cell, int]) -> None:
        """Replace the layout (the round's start card, or a position built by a test):
        the grid, its fit masks (``front``) and the observation's entries, in dict order."""
        self.layout_json = JsonList()  # the observation's entries with their JSON text
        for (x, y), code in layout.items():
            self.layout_json.add([x, y, NAMES[code]], f'[{x},{y},"{NAMES[code]}"]')
        # the layout by integer cell key (see OFF, WIDE)
        self.grid: dict[int, int] = {
            (y + OFF) * WIDE + x + OFF: code for (x, y), code in layout.items()
        }
        self.front: dict[int, int] = {}  # the frontier by cell key: empty cell -> fit mask
        grid = self.grid
        for key in grid:
            for cell in (key + 1, key - 1, key + WIDE, key - WIDE):
                if cell not in grid and cell not in self.front:
                    mask = _fit_key(grid, cell)
                    if mask:
                        self.front[cell] = mask

    def _refresh_front(self, key: int) -> None:
        """Update the fit masks of the empty cells whose neighbourhood changed at ``key``.

        The walks along a line are written out instead of calling :func:`_axis_key`: this
        runs on every placement, and the calls measured about 1 us more per ``apply``
        (5.4 -> 6.4 us, ``benchmarks/engines.py --quick``, back to back).
        """
        front, grid = self.front, self.grid
        front.pop(key, None)
        get = grid.get
        for step, cross in ((1, WIDE), (WIDE, 1)):
            # the run through key along step (its codes and length), and its two end cells
            run = 1 << grid[key]
            n = 1
            before = key - step
            code = get(before)
            while code is not None:
                run |= 1 << code
                n += 1
                before -= step
                code = get(before)
            after = key + step
            code = get(after)
            while code is not None:
                run |= 1 << code
                n += 1
                after += step
                code = get(after)
            for cell, out in ((before, -step), (after, step)):
                # along step, an end cell joins the run to whatever lies beyond it
                bits, count = run, n
                beyond = cell + out
                code = get(beyond)
                while code is not None:
                    bits |= 1 << code
                    count += 1
                    beyond += out
                    code = get(beyond)
                mask = 0
                if count < MAX_GROUP and bits.bit_count() == count:
                    mask = _JOINABLE[bits]
                    # across: the run the end cell would join on the other axis (inlined
                    # _axis_key; an empty one allows every code)
                    bits = count = 0
                    side = cell - cross
                    code = get(side)
                    while code is not None:
                        bits |= 1 << code
                        count += 1
                        side -= cross
                        code = get(side)
                    side = cell + cross
                    code = get(side)
                    while code is not None:
                        bits |= 1 << code
                        count += 1
                        side += cross
                        code = get(side)
                    if count:
                        ok = count < MAX_GROUP and bits.bit_count() == count
                        mask = mask & _JOINABLE[bits] if ok else 0
                if mask:
                    front[cell] = mask
                else:
                    front.pop(cell, None)

    def _someone_can_play(self) -> bool:
        """Whether a card in some hand or stack fits some frontier cell (hands first: a hand
        card nearly always fits somewhere, and then a few cells decide)."""
        held = 0
        for cards in self.hands:
            for code in cards:
                held |= 1 << code
        masks = self.front.values()
        if any(mask & held for mask in masks):
            return True
        for cards in self.stacks:
            for code in cards:
                held |= 1 << code
        return any(mask & held for mask in masks)

    def _fewest(self) -> list[int]:
        remaining = self.remaining()
        best = min(remaining)
        return [seat for seat, left in enumerate(remaining) if left == best]

    def _log(self, seat: int, kind: str, *values: Any) -> None:
        """Append a public event ``[turn, seat, kind, *values]`` (values per kind: README)."""
        self.log.append([self.turn, seat, kind, *values])

    def _round_score(self) -> list[int]:
        """This round's score per seat: cards left, or the discard pile in solo."""
        return [len(self.discard)] if self.solo else self.remaining()

    def remaining(self) -> list[int]:
        """Cards each seat still holds (hand + stack)."""
        return [len(h) + len(s) for h, s in zip(self.hands, self.stacks, strict=True)]

    # -- views -------------------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        active = self.active
        groups, known = self.groups[seat], self.box_known[seat]
        obs: dict[str, Any] = {
            "game": "space-five",
            "mode": "solo" if self.solo else "standard",
            "seat": seat,
            "num_players": self.players,
            "to_move": None if self.phase is _OVER else active,
            "active_seat": active,
            "phase": _PHASE_TEXT(self.phase),
            "round": self.round,
            "rounds": self.rounds,
            "turn": self.turn,
            "turns_without_play": self.turns_without_play,
            "layout": self.layout_json.copy(),
            "hand": [*map(_NAME, self.hands[seat])],
            "hand_sizes": [*map(len, self.hands)],
            "stack_sizes": [*map(len, self.stacks)],
            "pending": {
                "placed": len(self.placed),  # the last entries of layout are this play's
                "exchange_picked": [*map(_NAME, self.picked)] if seat == active else [],
                "exchange_count": len(self.picked),
                "bonus_left": self.bonus_left,
            },
            "box_size": len(self.box),
            # what this seat remembers of hidden cards: its exchanged cards still at the
            # bottom of its stack ([candidates, how many left] per exchange, oldest first)
            # and its own hand cards it put in the box
            # (sorted: the order inside an exchange is hidden)
            "own_stack_bottom": [[_names(cs), left] for cs, left in groups] if groups else [],
            "own_in_box": [*map(_NAME, known)],
            "events": self.log.since(seat),
        }
        if self.solo:
            obs["discard_pile"] = [NAMES[c] for c in self.discard]
        if self.outcome is not None:
            obs["result"] = self._result_view()
        return obs

    def _result_view(self) -> dict[str, Any]:
        assert self.outcome is not None
        result = self.result()
        return {
            "reason": self.outcome["reason"],
            "winners": result.detail["winners"],
            "remaining": result.detail["remaining"],
            "ranking": result.ranks,
        }

    def result(self) -> Result:
        scores = self.round_scores if self.outcome else [*self.round_scores, self._round_score()]
        totals = [sum(col) for col in zip(*scores, strict=True)]
        unfinished = {"reason": "unfinished", "winners": [], "remaining": self.remaining()}
        last = self.outcome or unfinished
        detail: dict[str, Any] = {
            "end": last.get("cap") or last["reason"],
            "remaining": last["remaining"],
            "round_scores": self.round_scores,
            "round_ends": self.round_ends,
        }
        if self.solo:
            detail.update(
                score_order="low",
                winners=[0],
                solo_score=totals[0],
                solo_note="score = cards left on the discard pile; lower is better",
                solo_utility=1 - totals[0] / (CODES * COPIES),
            )
            return Result([float(totals[0])], [1], detail)
        if self.rounds == 1:
            # the player who went out ranks first; the others by cards left
            out = last["winners"] if last["reason"] == "out_of_cards" else []
            keys = [(seat in out, -total) for seat, total in enumerate(totals)]
        else:
            keys = [(False, -total) for total in totals]
            detail["totals"] = totals
        ranks = ranks_from_scores(keys)
        detail["winners"] = [seat for seat, rank in enumerate(ranks) if rank == 1]
        return Result([float(-t) for t in totals], ranks, detail)

    def describe(self, action: Action) -> str:
        seat = f"seat {self.active}"
        kind = action.get("type")
        if kind == "place":
            return f"{seat} places {action['card']} at ({action['x']}, {action['y']})"
        if kind == "done":
            bonus = _play_bonus_keys(self.grid, self.placed_keys)
            return f"{seat} ends the play with {len(self.placed)} card(s), bonus {bonus}"
        if kind == "exchange":
            return f"{seat} starts an exchange"
        if kind == "exchange_pick":
            return f"{seat} picks {action['card']} to exchange"
        if kind == "exchange_confirm":
            return f"{seat} exchanges {len(self.picked)} card(s)"
        if kind == "bonus_discard":
            what = action.get("card") or f"the top of the {action['source'].replace('_', ' ')}"
            return f"{seat} discards {what} to the box"
        if kind == "bonus_stop":
            return f"{seat} gives up {self.bonus_left} bonus discard(s)"
        if kind == "solo_discard":
            return f"{seat} discards {action['card']} onto the discard pile"
        return f"{seat}: {action!r}"

    def render(self, seat: int | None) -> str:
        """Text picture of the table, at most 100 columns; ``seat``'s own hand is shown, every
        other hand, every stack and the box only by size (``None``: every hand)."""

        def who(s: int) -> str:
            return f"seat {s} (you)" if s == seat else f"seat {s}"

        if self.outcome is not None:
            doing = "game over"
        else:
            doing = f"{who(self.active)} to act: {self._doing(seat in (None, self.active))}"
        lines = [f"Space Five - round {self.round + 1} of {self.rounds}, turn {self.turn}", doing]
        lines.append("Layout (x to the right, y downward; * = placed this turn):")
        lines += render_layout(self.layout, set(self.placed))
        for s in range(self.players):
            hand = self.hands[s]
            if seat in (None, s):
                shown = f"hand {' '.join(NAMES[c] for c in hand) or '-'}"
            else:
                shown = f"hand {len(hand)} card(s), hidden"
            lines.append(f"{who(s)}: {shown}; stack {len(self.stacks[s])} card(s), face down")
        lines.append(f"box (out of the game): {len(self.box)} card(s), face down")
        if self.solo:
            pile = " ".join(NAMES[c] for c in self.discard) or "-"
            lines += textwrap.wrap(f"discard pile (face up): {pile}", 100)
        if self.outcome is not None:
            view = self._result_view()
            left = ", ".join(f"seat {s} {n}" for s, n in enumerate(view["remaining"]))
            lines.append(f"result: {view['reason'].replace('_', ' ')}; cards left: {left}")
        return "\n".join(lines)

    def _doing(self, own: bool) -> str:
        """What the active player is in the middle of, in words; the cards picked for an
        exchange are named only to their owner (``own``), the others see how many."""
        if self.phase is _PLACING:
            return f"placing cards ({len(self.placed)} placed)"
        if self.phase is _EXCHANGE_SELECT:
            if not own:
                return f"picking cards to exchange ({len(self.picked)} picked)"
            picked = " ".join(NAMES[c] for c in self.picked) or "none yet"  # at most 5
            return f"picking cards to exchange (picked: {picked})"
        if self.phase is _BONUS:
            return f"bonus discards ({self.bonus_left} left)"
        if self.phase is _SOLO_DISCARD:
            return "no play of 3 cards: discarding down to 2"
        return "play or exchange"

    # -- hidden information -----------------------------------------------------------------
    def determinize(self, seat: int, rng: random.Random) -> SpaceFiveState:
        """Redeal everything ``seat`` cannot see; re-seed the internal RNG from ``rng``.

        Fixed: the layout, the discard pile, the seat's own hand, its exchanged cards still
        known to lie at the bottom of its stack (re-shuffled inside each exchange, and split
        between stack and box when some left unseen) and its own cards known in the box.
        Every other hidden card (other hands, the rest of every stack, the box) is redealt
        from the pool of unseen cards. Other seats' private knowledge is dropped in the twin.
        """
        twin = self.clone()
        twin._reseed(rng)
        counts = [0] * CODES
        for cards in (*twin.stacks, twin.box, *(h for s, h in enumerate(twin.hands) if s != seat)):
            for code in cards:
                counts[code] += 1
        known_box = list(twin.box_known[seat])
        kept: list[int] = []  # the seat's known stack bottom, top to bottom
        for candidates, left in twin.groups[seat]:
            group = list(candidates)
            rng.shuffle(group)
            kept += group[:left]
            known_box += group[left:]
        for code in (*kept, *known_box):
            counts[code] -= 1
        pool = [code for code in range(CODES) for _ in range(counts[code])]
        rng.shuffle(pool)

        def take(count: int) -> list[int]:
            taken = pool[-count:] if count else []
            del pool[len(pool) - count :]
            return taken

        for other in range(self.players):
            twin.groups[other] = twin.groups[other] if other == seat else []
            twin.box_known[other] = twin.box_known[other] if other == seat else []
            if other != seat:
                twin.hands[other] = sorted(take(len(self.hands[other])))
            top = len(self.stacks[other]) - (len(kept) if other == seat else 0)
            twin.stacks[other] = take(top) + (kept if other == seat else [])
        twin.box = known_box + pool
        if self.active != seat and self.picked:
            twin.picked = rng.sample(twin.hands[self.active], len(self.picked))
        return twin


# -- pure helpers ----------------------------------------------------------------------------


def deal_counts(players: int, options: Mapping[str, Any]) -> list[int]:
    """Cards dealt to each seat's stack, from the player count and the variant options."""
    rest = CODES * COPIES - 1
    if players == 1:
        if options["young"] or options["deal_counts"] or options["rounds"] != 1:
            raise OptionError("solo takes no young, deal_counts or rounds option")
        return [rest]
    given = options["deal_counts"]
    if options["young"]:
        if given:
            raise OptionError("choose either young or deal_counts, not both")
        return [YOUNG_DEAL] * players
    if not given:
        return [rest // players] * players
    limit = rest // players
    if len(given) != players or not all(
        isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= limit for n in given
    ):
        raise OptionError(
            f"deal_counts must list {players} integers between 1 and {limit}, got {given!r}"
        )
    return list(given)


def _names(codes: Iterable[int]) -> list[str]:
    return [*map(_NAME, sorted(codes))]


_NAME = NAMES.__getitem__


def _distinct(cards: Iterable[int]) -> list[int]:
    return sorted(set(cards))


class _PlaceActions(dict[tuple[int, int, int], Action]):
    """(card, y, x) -> the shared, read-only ``place`` action, built on first use."""

    def __missing__(self, key: tuple[int, int, int]) -> Action:
        if len(self) > 200_000:  # a bound for very long runs; entries are rebuilt on demand
            self.clear()
        code, y, x = key
        action = self[key] = {"type": "place", "card": NAMES[code], "x": x, "y": y}
        return action


_PLACE = _PlaceActions()


class _PlaceItems(dict[int, Action]):
    """``code << CELL_BITS | key`` -> the shared ``place`` action (see :data:`_PLACE`)."""

    def __missing__(self, item: int) -> Action:
        if len(self) > 200_000:
            self.clear()
        key = item & CELL_MASK
        action = self[item] = _PLACE[item >> CELL_BITS, key // WIDE - OFF, key % WIDE - OFF]
        return action


_PLACE_ITEM = _PlaceItems()


class _ShiftedCodes(dict[int, tuple[int, ...]]):
    """A code mask -> its codes, each shifted to the top of a sort item, ascending."""

    def __missing__(self, mask: int) -> tuple[int, ...]:
        codes = self[mask] = tuple(c << CELL_BITS for c in range(CODES) if mask >> c & 1)
        return codes


_SHIFTED_CODES = _ShiftedCodes()


class _Joinable(dict[int, int]):
    """Cache of :func:`~engines.space_five.geometry.joinable` (a dict lookup is cheaper
    than a cached call)."""

    def __missing__(self, bits: int) -> int:
        mask = self[bits] = joinable(bits)
        return mask


_JOINABLE = _Joinable()


def _axis_key(get: Callable[[int], int | None], key: int, step: int) -> int:
    """``geometry._axis_mask`` on integer cell keys: ``step`` is 1 (H) or ``WIDE`` (V)."""
    bits = n = 0
    cell = key - step
    code = get(cell)
    while code is not None:
        bits |= 1 << code
        n += 1
        cell -= step
        code = get(cell)
    cell = key + step
    code = get(cell)
    while code is not None:
        bits |= 1 << code
        n += 1
        cell += step
        code = get(cell)
    if n >= MAX_GROUP or bits.bit_count() != n:
        return 0
    return _JOINABLE[bits]


def _fit_key(grid: dict[int, int], key: int) -> int:
    """:func:`~engines.space_five.geometry.fit_mask` on integer cell keys."""
    get = grid.get
    mask = _axis_key(get, key, 1)
    return mask & _axis_key(get, key, WIDE) if mask else 0


def _placing_keys(
    grid: dict[int, int], placed: list[int], masks: Mapping[int, int] | None = None
) -> list[tuple[int, int]]:
    """:func:`~engines.space_five.geometry.placing_cells` on integer cell keys."""
    first = placed[0]
    if len(placed) == 1:
        steps: tuple[int, ...] = STEPS
    else:
        steps = (1,) if first // WIDE == placed[1] // WIDE else (WIDE,)
    out = []
    for step in steps:
        before = first - step
        while before in grid:
            before -= step
        after = first + step
        while after in grid:
            after += step
        alone = before == first - step and after == first + step
        for cell, beyond in ((before, before - step), (after, after + step)):
            if alone and beyond not in grid:
                continue
            mask = _fit_key(grid, cell) if masks is None else masks.get(cell, 0)
            if mask:
                out.append((cell, mask))
    return out


def _can_extend_keys(grid: dict[int, int], placed: list[int], hand: list[int], need: int) -> bool:
    """Whether ``need`` more legal placements from ``hand`` can follow (depth-first)."""
    if need <= 0:
        return True
    if need > len(hand):
        return False
    if need == 1:  # the last card: any fitting hand card at any next cell will do
        hand_mask = 0
        for code in hand:
            hand_mask |= 1 << code
        return any(mask & hand_mask for _, mask in _placing_keys(grid, placed))
    codes = _distinct(hand)
    for cell, mask in _placing_keys(grid, placed):
        for code in codes:
            if mask >> code & 1:
                grid[cell] = code
                placed.append(cell)
                hand.remove(code)
                ok = _can_extend_keys(grid, placed, hand, need - 1)
                hand.append(code)
                placed.pop()
                del grid[cell]
                if ok:
                    return True
    return False


def _play_bonus_keys(grid: dict[int, int], placed: list[int]) -> int:
    """:func:`~engines.space_five.geometry.play_bonus` on integer cell keys.

    The placed cards lie in one line: the run along it holds all of them, and each crosses
    its own perpendicular run holding it alone (with one card, both runs hold it alone).
    """
    first = placed[0]
    if len(placed) == 1:
        runs = [(first, 1, 1), (first, WIDE, 1)]
    else:
        line, cross = (1, WIDE) if first // WIDE == placed[1] // WIDE else (WIDE, 1)
        runs = [(first, line, len(placed))]
        runs += [(key, cross, 1) for key in placed]
    total = 0
    for key, step, fresh in runs:
        before = key - step
        while before in grid:
            before -= step
        after = key + step
        while after in grid:
            after += step
        length = (after - before) // step - 1
        if length == MAX_GROUP - 1:
            total += BONUS_FOURTH
        elif length == MAX_GROUP:
            total += BONUS_FIFTH if fresh == 1 else BONUS_BOTH
    return total


def render_layout(layout: Layout, highlight: set[Cell] | None = None) -> list[str]:
    """The layout as text rows (x to the right, y downward); new cards marked with ``*``."""
    xs = [x for x, _ in layout]
    ys = [y for _, y in layout]
    marks = highlight or set()
    # four columns a cell, three when that would be wider than 100 columns
    width = 4 if 6 + 4 * (max(xs) - min(xs) + 1) <= 100 else 3
    header = "x =   " + "".join(f"{x:>{width}}" for x in range(min(xs), max(xs) + 1))
    rows = [header]
    for y in range(min(ys), max(ys) + 1):
        cells = []
        for x in range(min(xs), max(xs) + 1):
            code = layout.get((x, y))
            text = " ." if code is None else NAMES[code]
            cells.append(f"{text}{'*' if (x, y) in marks else ' '}".rjust(width))
        rows.append(f"y{y:>4} " + "".join(cells))
    return rows
