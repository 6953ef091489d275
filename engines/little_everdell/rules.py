"""Rules of My Lil' Everdell (spec: docs/rules/little-everdell.md).

Participants are numbered 0..n-1 clockwise. The bots are seats 0..b-1; an automa (Prince
Periwinkle or Princess Coltsfoot), when present, is participant ``b`` and is played by the
engine itself, so it is never ``to_move``.

A turn is split into atomic decisions kept on a stack (top = last): ``place`` → its
sub-decisions (``choose``, ``copy``, ``garden``) → ``buy`` → the buy's ``choose`` picks →
the automatic end-of-turn parade check. Automatic steps (``gain``, ``end_turn``) sit on the
same stack and are run by :meth:`LittleEverdellState._advance` until a decision is on top.

Chance (spec section 6), all from the state's one ``random.Random``: one shuffle of the 54
uids at setup; each round ``k`` calls ``randint(1, 6)`` for ``die_1..die_k``; one
``randint(1, 8)`` per automa d8 roll (rerolls included). The deck is stored with its top at
the END of the list (``deck.pop()`` draws).
"""

from __future__ import annotations

import math
import random
import textwrap
from collections.abc import Mapping
from typing import Any

from engines.base import Action, EventLog, GameState, Result, ranks_from_scores
from engines.little_everdell.data import (
    CARD_OF,
    COLOURS,
    CONSTRUCTION,
    CRITTER,
    DIE_FACES,
    FRIENDS,
    MAIN_DECK,
    MEADOW_SLOTS,
    PARADE_STACK,
    PARADE_STACK_SOLO,
    PARADES,
    RESOURCES,
    ROUNDS,
    TOP_SPACES,
    Card,
    Gain,
)

# -- constants --------------------------------------------------------------------------------
PRINCE, PRINCESS = "prince", "princess"
TURNS_PER_ROUND = 3  # published [R]: every seat takes exactly 3 turns a round
MAX_DICE = 4

#: Pending-decision kinds as shown in the observation.
PENDING_NAMES = {
    "place": "place",
    "buy": "buy",
    "choose": "choose_resource",
    "copy": "copy_die",
    "garden": "activate_green",
}

# Shared, read-only action objects (legal lists are built from these without allocation).
TOP_ACTIONS: tuple[Action, ...] = tuple({"type": "place", "space": s} for s in TOP_SPACES)
DIE_SPACES: tuple[str, ...] = tuple(f"die_{i}" for i in range(1, MAX_DICE + 1))
DIE_ACTIONS: tuple[Action, ...] = tuple({"type": "place", "space": s} for s in DIE_SPACES)
RED_ACTIONS: dict[str, Action] = {
    uid: {"type": "place", "space": "card", "card": uid}
    for uid, card in CARD_OF.items()
    if card.colour == "red"
}
CHOOSE_ACTIONS: tuple[Action, ...] = tuple(
    {"type": "choose_resource", "resource": r} for r in RESOURCES
)
COPY_ACTIONS: tuple[Action, ...] = tuple(
    {"type": "copy_die", "die": i} for i in range(1, MAX_DICE + 1)
)
GARDEN_ACTIONS: dict[str, Action] = {
    uid: {"type": "activate_green", "card": uid}
    for uid, card in CARD_OF.items()
    if card.colour == "green"
}
BUY_ACTIONS: tuple[Action, ...] = tuple(
    {"type": "buy", "slot": s} for s in range(1, MEADOW_SLOTS + 1)
)
PASS_ACTION: Action = {"type": "pass"}

_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
_RESOURCE_INDEX = {r: i for i, r in enumerate(RESOURCES)}
_DIE_INDEX = {s: i for i, s in enumerate(DIE_SPACES)}
_GREEN = frozenset(GARDEN_ACTIONS)
_RED = frozenset(RED_ACTIONS)
_POINTS = {uid: card.points for uid, card in CARD_OF.items()}
_COLOUR_OF = {uid: _COLOUR_INDEX[card.colour] for uid, card in CARD_OF.items()}
_IS_CONSTRUCTION = {uid: int(card.is_construction) for uid, card in CARD_OF.items()}
#: uid -> (card kind, gain) of a blue on-buy card.
_ON_BUY = {
    uid: (card.ability.kind, card.ability.gain)
    for uid, card in CARD_OF.items()
    if card.ability.code == "on_buy"
}
_JUGGLERS = frozenset(uid for uid, card in CARD_OF.items() if card.ability.code == "on_parade")
#: uid -> (colour index counted, or -1 for parade tokens; points each) of purple end bonuses.
_END_BONUS = {
    uid: (_COLOUR_INDEX.get(card.ability.colour, -1), card.ability.n)
    for uid, card in CARD_OF.items()
    if card.ability.code in ("end_per", "end_per_parade")
}

#: uid -> (kind index: 0 critter, 1 construction; printed cost), for the buy legality check.
_KIND_COST = {uid: (int(card.kind == CONSTRUCTION), card.cost) for uid, card in CARD_OF.items()}
assert all(max(cost) <= 3 for _, cost in _KIND_COST.values())  # the buy test clamps at 3
#: uid -> (kind index, resource index) of a blue discount card.
_DISCOUNT = {
    uid: (int(card.ability.kind == CONSTRUCTION), card.ability.resource)
    for uid, card in CARD_OF.items()
    if card.ability.code == "discount"
}

Pending = tuple[Any, ...]  # (kind, seat, *args)

#: (berry, twig, resin held, at most 3 each[, discounts: critter berry, twig, resin,
#: construction berry, twig, resin]) -> the uids those resources pay for (``_affordable``).
_AFFORD: dict[tuple[int, ...], frozenset[str]] = {}


def _affordable(key: tuple[int, ...]) -> frozenset[str]:
    """The cards a player can buy with resources ``key[:3]`` (none negative) and the
    discounts ``key[3:]`` (none if absent): res >= max(0, cost - discount) per resource,
    i.e. ``can_pay(res, effective_cost(card, discounts(cards)))``."""
    b, t, r = key[:3]
    disc = key[3:] or (0,) * 6
    return frozenset(
        uid
        for uid, (k, (cb, ct, cr)) in _KIND_COST.items()
        if b >= cb - disc[3 * k] and t >= ct - disc[3 * k + 1] and r >= cr - disc[3 * k + 2]
    )


# -- players ----------------------------------------------------------------------------------
class Player:
    """One participant's public holdings (bots and automa alike)."""

    __slots__ = ("cards", "friends", "paraded", "parades", "red_used", "res", "tokens", "view")

    def __init__(self) -> None:
        self.res = [0, 0, 0]  # berry, twig, resin
        self.tokens = 0  # point tokens collected during play
        self.cards: list[str] = []  # uids in acquisition order
        self.parades: dict[str, int] = {}
        self.red_used: list[str] = []  # own red cards holding a friend this round
        self.friends = FRIENDS
        # The observation's view of this participant (see ``view_json``), None = stale.
        # The rules clear it at every change; clear it yourself after editing by hand.
        self.view: dict[str, Any] | None = None
        # (cards, len(cards)) at the last parade check: cards only grow, parades and parade
        # stacks only shrink, so the same cards cannot qualify for anything new.
        self.paraded: tuple[list[str], int] | None = None

    def copy(self) -> Player:
        other = Player.__new__(Player)
        other.res = self.res[:]
        other.tokens = self.tokens
        other.cards = self.cards[:]
        other.parades = dict(self.parades)
        other.red_used = self.red_used[:]
        other.friends = self.friends
        other.view = self.view  # never mutated once built: safe to share
        other.paraded = None
        return other

    def to_json(self, seat: int, automa: str | None) -> dict[str, Any]:
        """The public view of this participant (``automa``: its name, None for a bot)."""
        return {
            "automa": automa,
            "resources": self.res[:],
            "point_tokens": self.tokens,
            "cards": self.cards[:],
            "parades": dict(self.parades),
            "red_spaces_used": self.red_used[:],
            "friends_left": self.friends,
            "points": score_total(self),
        }

    def view_json(self, automa: str | None) -> dict[str, Any]:
        """:meth:`to_json`, built once per change of this participant and then shared by
        the observations (callers must not mutate it)."""
        view = self.view
        if view is None:
            view = self.view = self.to_json(0, automa)
        return view


# -- the state --------------------------------------------------------------------------------
class LittleEverdellState(GameState):
    """A game of My Lil' Everdell in progress."""

    SHARED = (
        "bots",
        "automa",
        "automa_seat",
        "n",
        "solo",
        "instant_parades",
        "k",
        "round",
        "first",
        "turn",
        "over",
        "_top_view",
        "_stacks_view",
        "_view",
    )
    COPIED = ("deck", "meadow", "princess_slots", "dice", "dice_occ", "stack", "log")
    COPIED_ITEMS = ("players", "stacks", "top")

    def __init__(
        self,
        bots: int,
        seed: int,
        automa: str | None = None,
        automa_first: bool = False,
        automa_captain_fort: bool = False,
        instant_parades: bool = False,
        start_bonus: frozenset[int] = frozenset(),
        start_captain: frozenset[int] = frozenset(),
        start_fort: frozenset[int] = frozenset(),
    ) -> None:
        super().__init__(seed, "little-everdell")
        self.bots = bots
        self.automa = automa
        self.automa_seat: int | None = bots if automa else None
        self.n = bots + (1 if automa else 0)
        self.solo = bots == 1
        self.instant_parades = instant_parades
        self.k = 2 if self.solo else self.n  # dice in use (spec 2.2)
        self.players = [Player() for _ in range(self.n)]
        stack_values = PARADE_STACK_SOLO if self.solo else PARADE_STACK
        self.stacks: dict[str, list[int]] = {pid: list(stack_values) for pid in PARADES}
        # Setup (spec 3): one shuffle; top of the shuffled list = first card dealt.
        order = list(MAIN_DECK)
        self.rng.shuffle(order)
        self.deck = order[::-1]
        self.meadow: list[str | None] = [self.deck.pop() for _ in range(MEADOW_SLOTS)]
        self.princess_slots: list[int] = []  # 0-based slots holding a Coltsfoot friend
        self.dice: list[int] = []
        self.dice_occ: list[int | None] = [None] * self.k
        self.top: dict[str, list[int]] = {s: [] for s in TOP_SPACES}
        # Observation pieces built once per change (None = stale), shared, never mutated.
        self._top_view: dict[str, list[int]] | None = None
        self._stacks_view: dict[str, list[int]] | None = None
        # The last observation's table parts (every key but "seat" and "events"),
        # refreshed by comparison at each observation; shared by clones.
        self._view: dict[str, Any] | None = None
        self._deal_handicaps(start_bonus, start_captain, start_fort, automa_captain_fort)
        self.round = 1
        self.first = bots if (self.solo and automa_first) else 0  # the solo automa is seat 1
        self.turn = 0  # turns started this round
        self.over = False
        self.stack: list[Pending] = []
        # events as dicts; a bot's view starts with its own last action (the automa never
        # acts, so only the bots have a mark)
        self.log = EventLog(bots)
        self._start_round()
        self._advance()

    def _deal_handicaps(
        self,
        bonus: frozenset[int],
        captain: frozenset[int],
        fort: frozenset[int],
        automa_captain_fort: bool,
    ) -> None:
        """Young-player handicaps (spec 9.1) and the automa's Captain/Fort challenge (9.6)."""
        copies = {"captain": 0, "fort": 0}

        def give(seat: int, slug: str) -> None:
            copies[slug] += 1
            self.players[seat].cards.append(f"{slug}#{copies[slug]}")
            self.players[seat].view = None

        for seat in range(self.bots):
            if seat in bonus:
                self.players[seat].res = [1, 1, 1]
                self.players[seat].view = None
            if seat in captain:
                give(seat, "captain")
            if seat in fort:
                give(seat, "fort")
        if automa_captain_fort and self.automa_seat is not None:
            give(self.automa_seat, "captain")
            give(self.automa_seat, "fort")

    # -- contract ---------------------------------------------------------------------------
    def to_move(self) -> int | None:
        if self.over:
            return None
        seat: int = self.stack[-1][1]
        return seat

    def _legal(self) -> list[Action]:
        top = self.stack[-1]
        kind, seat = top[0], top[1]
        player = self.players[seat]
        if kind == "place":
            legal = list(TOP_ACTIONS)
            legal += [DIE_ACTIONS[i] for i, occ in enumerate(self.dice_occ) if occ is None]
            legal += [
                RED_ACTIONS[u] for u in player.cards if u in _RED and u not in player.red_used
            ]
            return legal
        if kind == "buy":
            b, t, r = player.res
            legal = []
            if b >= 0 and t >= 0 and r >= 0:
                # No cost asks for more than 3 of a resource: more pays the same cards.
                key: tuple[int, ...] = (b if b < 3 else 3, t if t < 3 else 3, r if r < 3 else 3)
                cards = player.cards
                if not _DISCOUNT.keys().isdisjoint(cards):
                    disc = [0] * 6  # per card kind, per resource
                    for uid in cards:
                        if uid in _DISCOUNT:
                            k, resource = _DISCOUNT[uid]
                            disc[3 * k + resource] += 1
                    key += tuple(disc)
                afford = _AFFORD.get(key)
                if afford is None:
                    afford = _AFFORD[key] = _affordable(key)
                legal = [BUY_ACTIONS[slot] for slot, uid in enumerate(self.meadow) if uid in afford]
            legal.append(PASS_ACTION)
            return legal
        if kind == "choose":
            return list(CHOOSE_ACTIONS)
        if kind == "copy":
            return list(COPY_ACTIONS[: self.k])
        picked = top[3]  # garden
        return [GARDEN_ACTIONS[u] for u in player.cards if u in _GREEN and u not in picked]

    def _play(self, action: Action) -> None:
        top = self.stack.pop()
        kind, seat = top[0], top[1]
        self.log.mark(seat)
        event = {"seat": seat, **action}
        self.log.append(event)
        player = self.players[seat]
        if kind == "place":
            self._place(seat, action)
        elif kind == "buy":
            if action["type"] == "buy":
                event["card"] = self._buy(seat, action["slot"] - 1)
        elif kind == "choose":
            player.res[_RESOURCE_INDEX[action["resource"]]] += 1
            player.view = None
        elif kind == "copy":
            self._gain(seat, DIE_FACES[self.dice[action["die"] - 1]])
        else:  # garden
            uid = action["card"]
            if top[2] > 1:
                self.stack.append(("garden", seat, top[2] - 1, (*top[3], uid)))
            self._gain(seat, CARD_OF[uid].ability.gain)
        self._advance()

    # -- transitions ------------------------------------------------------------------------
    def _advance(self) -> None:
        """Run automatic steps (gains, parade checks, automa turns, round ends) until a
        decision is pending or the game is over."""
        stack = self.stack
        while True:
            if stack:
                top = stack[-1]
                if top[0] == "gain":
                    stack.pop()
                    self._gain(top[1], top[2])
                elif top[0] == "end_turn":
                    stack.pop()
                    self._parade_check(top[1])
                else:
                    return
            elif self.over:
                return
            elif self.turn == TURNS_PER_ROUND * self.n:
                self._end_round()
            else:
                seat = (self.first + self.turn) % self.n
                self.turn += 1
                if seat == self.automa_seat:
                    self._automa_turn(seat)
                else:
                    stack += [("end_turn", seat), ("buy", seat), ("place", seat)]

    def _gain(self, seat: int, gain: Gain) -> None:
        """Fixed goods at once; each any-resource pick becomes a ``choose`` decision."""
        player = self.players[seat]
        player.view = None
        res = player.res
        res[0] += gain.berry
        res[1] += gain.twig
        res[2] += gain.resin
        player.tokens += gain.points
        for _ in range(gain.any):
            self.stack.append(("choose", seat))

    def _place(self, seat: int, action: Action) -> None:
        player = self.players[seat]
        player.view = None
        player.friends -= 1
        space = action["space"]
        if space in TOP_SPACES:
            self.top[space].append(seat)
            self._top_view = None
            self._gain(seat, TOP_SPACES[space])
        elif space == "card":
            uid = action["card"]
            player.red_used.append(uid)
            ability = CARD_OF[uid].ability
            if ability.code == "copy_die":
                self.stack.append(("copy", seat))
            elif ability.code == "activate_green":
                greens = sum(1 for u in player.cards if u in _GREEN)
                if greens:
                    self.stack.append(("garden", seat, min(ability.n, greens), ()))
            else:
                self._gain(seat, ability.gain)
        else:
            die = _DIE_INDEX[space]
            self.dice_occ[die] = seat
            self._gain(seat, DIE_FACES[self.dice[die]])

    def _buy(self, seat: int, slot: int) -> str:
        """Spec 5.2: pay, take, refill, own effect, then other blue on-buy triggers."""
        player = self.players[seat]
        uid = self.meadow[slot]
        assert uid is not None
        card = CARD_OF[uid]
        cards = player.cards
        # effective_cost(card, discounts(cards)), with the flat discount table.
        k, (b, t, r) = _KIND_COST[uid]
        for other in cards:
            if other in _DISCOUNT:
                dk, resource = _DISCOUNT[other]
                if dk == k:
                    if resource == 0:
                        b -= 1
                    elif resource == 1:
                        t -= 1
                    else:
                        r -= 1
        player.view = None
        res = player.res
        res[0] -= max(0, b)
        res[1] -= max(0, t)
        res[2] -= max(0, r)
        if not _ON_BUY.keys().isdisjoint(cards):
            for other in reversed(cards):
                if other in _ON_BUY:
                    kind, gain = _ON_BUY[other]
                    if kind == card.kind:
                        self.stack.append(("gain", seat, gain))
        cards.append(uid)
        self.meadow[slot] = self.deck.pop() if self.deck else None
        if card.ability.code == "gain" and card.colour in ("green", "brown"):
            self._gain(seat, card.ability.gain)
        elif card.ability.code == "colors_now":
            self._gain(seat, Gain(points=len(colours_of(player.cards))))
        return uid

    def _parade_check(self, seat: int) -> None:
        """Spec 5.3: take the top token of every parade now qualified for (fixed order)."""
        player = self.players[seat]
        cards = player.cards
        paraded = player.paraded
        if paraded is not None and paraded[0] is cards and paraded[1] == len(cards):
            return
        player.paraded = (cards, len(cards))
        for pid, ok in zip(PARADES, parade_qualifies(cards), strict=True):
            stack = self.stacks[pid]
            if ok and stack and pid not in player.parades:
                value = stack.pop(0)
                self._stacks_view = None
                player.parades[pid] = value
                player.view = None
                self.log.append({"seat": seat, "type": "parade", "parade": pid, "value": value})
                if seat != self.automa_seat:
                    jugglers = sum(1 for u in player.cards if u in _JUGGLERS)
                    player.tokens += 2 * jugglers

    def _automa_turn(self, seat: int) -> None:
        """Spec 9.3 (Prince) / 9.4 (Princess): the automa places and takes a free card."""
        player = self.players[seat]
        player.view = None
        meadow = self.meadow
        event: dict[str, Any] = {"seat": seat, "type": "automa", "automa": self.automa}
        if self.automa == PRINCE:
            free = next((i for i, occ in enumerate(self.dice_occ) if occ is None), None)
            if free is None:
                self.top["top_berry"].append(seat)
                self._top_view = None
                event["space"] = "top_berry"
            else:
                self.dice_occ[free] = seat
                event["space"] = DIE_SPACES[free]
            player.friends -= 1
        if any(uid is not None for uid in meadow):
            rolls = self._roll_d8()
            slot = rolls[-1] - 1
            uid = meadow[slot]
            assert uid is not None
            player.cards.append(uid)
            if self.automa == PRINCE:
                meadow[slot] = self.deck.pop() if self.deck else None
            else:
                meadow[slot] = None
                self.princess_slots.append(slot)
                player.friends -= 1
            event.update(d8=rolls, slot=slot + 1, card=uid)
        self.log.append(event)
        if self.instant_parades:
            self._parade_check(seat)

    def _roll_d8(self) -> list[int]:
        """Roll the automa's d8 until it names a slot holding a card (one RNG call a roll)."""
        rolls = [self.rng.randint(1, 8)]
        while self.meadow[rolls[-1] - 1] is None:
            rolls.append(self.rng.randint(1, 8))
        return rolls

    def _start_round(self) -> None:
        """Round steps 1 and 2: roll the dice, then queue the harvest in turn order."""
        self.dice = [self.rng.randint(1, 6) for _ in range(self.k)]
        self.log.append(
            {"type": "round", "round": self.round, "first_player": self.first, "dice": self.dice[:]}
        )
        harvest: list[Pending] = []
        for i in range(self.n):
            seat = (self.first + i) % self.n
            if seat != self.automa_seat:
                cards = self.players[seat].cards
                harvest += [("gain", seat, CARD_OF[u].ability.gain) for u in cards if u in _GREEN]
        self.stack += reversed(harvest)

    def _end_round(self) -> None:
        """Round steps 4 and 5: automa parade check, return home, pass the sun."""
        if self.automa_seat is not None and not self.instant_parades:
            self._parade_check(self.automa_seat)
        self.dice_occ = [None] * self.k
        for occupants in self.top.values():
            occupants.clear()
        self._top_view = None
        for player in self.players:
            player.red_used.clear()
            player.friends = FRIENDS
            player.view = None
        for slot in sorted(self.princess_slots):
            self.meadow[slot] = self.deck.pop() if self.deck else None
        self.princess_slots.clear()
        self.log.append({"type": "return_home", "round": self.round})
        if self.round == ROUNDS:
            self.over = True
            self.log.append({"type": "game_over"})
            return
        self.round += 1
        self.turn = 0
        if not self.solo:
            self.first = (self.first - 1) % self.n
        self._start_round()

    # -- views ------------------------------------------------------------------------------
    def forget(self) -> None:
        """Also the cached observation parts (the top spaces, the parade stacks)."""
        super().forget()
        self._top_view = self._stacks_view = None

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know: everything but the deck order (spec section 7).

        Its parts are shared with other observations (the ``players`` entries,
        ``top_spaces`` and ``parade_stacks`` are built once per change, the other lists
        once per change seen by an observation): do not mutate the result.
        """
        top_view = self._top_view
        if top_view is None:
            top_view = self._top_view = {space: occ[:] for space, occ in self.top.items()}
        stacks_view = self._stacks_view
        if stacks_view is None:
            stacks_view = self._stacks_view = {pid: st[:] for pid, st in self.stacks.items()}
        automa_seat = self.automa_seat
        players = [
            player.view or player.view_json(self.automa if i == automa_seat else None)
            for i, player in enumerate(self.players)
        ]
        view = self._view
        if view is None:
            view = self._view = self._new_view()
        else:
            # The table's lists, copied only when they changed since the last observation
            # (whose copies stay as they were: they may be in observations handed out).
            if view["dice"] != self.dice:
                view["dice"] = self.dice[:]
            if view["dice_occupied"] != self.dice_occ:
                view["dice_occupied"] = self.dice_occ[:]
            if view["meadow"] != self.meadow:
                view["meadow"] = self.meadow[:]
        obs = view.copy()
        obs["seat"] = seat
        stack = self.stack
        if not self.over:
            top = stack[-1]
            obs["to_move"] = top[1]
            pending = {"kind": PENDING_NAMES[top[0]], "seat": top[1]}
            if top[0] == "garden":
                pending["picks_left"] = top[2]
                pending["picked"] = list(top[3])
            obs["pending"] = pending
        obs["round"] = self.round
        obs["turn"] = self.turn
        obs["first_player"] = self.first
        obs["top_spaces"] = top_view
        if self.princess_slots:
            obs["princess_slots"] = [s + 1 for s in sorted(self.princess_slots)]
        obs["deck_count"] = len(self.deck)
        obs["parade_stacks"] = stacks_view
        obs["players"] = players
        if len(stack) > 1:
            obs["queue"] = [_pending_json(item) for item in stack[:-1]]
        obs["events"] = self.log.since(seat)
        return obs

    def _new_view(self) -> dict[str, Any]:
        """The observation's keys in order, with the table's lists copied."""
        return {
            "seat": 0,
            "to_move": None,
            "round": 0,
            "turn": 0,
            "turns_per_round": TURNS_PER_ROUND * self.n,
            "first_player": 0,
            "automa_seat": self.automa_seat,
            "pending": None,
            "dice": self.dice[:],
            "dice_occupied": self.dice_occ[:],
            "top_spaces": {},
            "meadow": self.meadow[:],
            "princess_slots": [],
            "deck_count": 0,
            "parade_stacks": {},
            "players": [],
            "queue": [],
            "events": [],
        }

    def result(self) -> Result:
        parts = [score_parts(p) for p in self.players]
        keys = [(part["total"], part["cards"]) for part in parts[: self.bots]]
        detail: dict[str, Any] = {
            "end": "last_round" if self.over else "unfinished",
            "breakdown": parts,
        }
        if self.automa_seat is not None:
            automa_total = parts[self.automa_seat]["total"]
            detail["automa"] = {
                "name": self.automa,
                "seat": self.automa_seat,
                "score": automa_total,
            }
            if self.solo:
                won = parts[0]["total"] >= automa_total  # ties go to the bot [R]
                detail["winner"] = "bot" if won else "automa"
                detail["bot_won"] = won
                margin = parts[0]["total"] - automa_total + 0.5  # ties go to the bot
                detail["solo_utility"] = 1 / (1 + math.exp(-margin / 4))
            else:  # the Prince ranked like a player; bots ahead of him on a full tie
                all_keys = [(*key, 1) for key in keys]
                all_keys.append((automa_total, parts[self.automa_seat]["cards"], 0))
                detail["ranks_with_automa"] = ranks_from_scores(all_keys)
        return Result(
            scores=[float(part["total"]) for part in parts[: self.bots]],
            ranks=ranks_from_scores(keys),
            detail=detail,
        )

    def determinize(self, seat: int, rng: random.Random) -> LittleEverdellState:
        """Reshuffle the hidden deck order and re-seed future dice and d8 rolls."""
        other = self.clone()
        rng.shuffle(other.deck)
        other._reseed(rng)
        return other

    def describe(self, action: Action) -> str:
        seat = self.to_move()
        who = f"seat {seat}"
        kind = action.get("type")
        if kind == "place":
            space = action["space"]
            if space == "card":
                return f"{who} places a friend on its {card_label(action['card'])}"
            if space in TOP_SPACES:
                return f"{who} places a friend on {space} (+1 {space[4:]})"
            face = self.dice[_DIE_INDEX[space]]
            return f"{who} places a friend on {space} (face {face}: {gain_text(DIE_FACES[face])})"
        if kind == "buy":
            uid = self.meadow[action["slot"] - 1]
            return f"{who} buys {card_label(uid or '?')} from slot {action['slot']}"
        if kind == "pass":
            return f"{who} buys nothing"
        if kind == "choose_resource":
            return f"{who} takes a {action['resource']}"
        if kind == "copy_die":
            face = self.dice[action["die"] - 1]
            return f"{who} copies die_{action['die']} ({gain_text(DIE_FACES[face])})"
        if kind == "activate_green":
            return f"{who} activates {card_label(action['card'])}"
        return f"{who}: {action!r}"

    def render(self, seat: int | None) -> str:
        """Text picture of the table, at most 100 columns; ``seat`` is marked "you".

        Only the deck order is hidden (its size is shown); ``None`` also shows the next cards.
        """
        acting = "game over" if self.over else f"{_who(self.to_move(), seat)} to move"
        lines = [
            f"My Lil' Everdell - round {self.round} of {ROUNDS}, turn {self.turn} of "
            f"{TURNS_PER_ROUND * self.n}; first player {_who(self.first, seat)}; {acting}",
            "Resource dice:",
        ]
        for i, face in enumerate(self.dice):
            occupant = self.dice_occ[i]
            taken = "free" if occupant is None else f"friend of {_who(occupant, seat)}"
            lines.append(f"  {DIE_SPACES[i]}: face {face} = {gain_text(DIE_FACES[face])} ({taken})")
        top = "; ".join(
            f"{space}: {', '.join(_who(s, seat) for s in occ) or '-'}"
            for space, occ in self.top.items()
        )
        lines += _wrap(f"Top spaces (+1 of their resource; friends there): {top}")
        lines.append("Meadow (buy at most one card a turn):")
        for slot, uid in enumerate(self.meadow, start=1):
            mark = " (a Coltsfoot friend sits here)" if slot - 1 in self.princess_slots else ""
            if uid is None:
                text = "empty"
            else:
                card = CARD_OF[uid]
                text = f"{card_label(uid)} cost {cost_text(card)}: {ability_text(card)}"
            lines += textwrap.wrap(f"  slot {slot}: {text}{mark}", 100, subsequent_indent="    ")
        hidden = "" if seat is None else ", face down (order hidden)"
        lines.append(f"Deck: {len(self.deck)} cards{hidden}")
        if seat is None and self.deck:
            lines.append("  next: " + ", ".join(reversed(self.deck[-5:])))
        lines.append("Parade tokens left, per goal:")
        lines += _wrap(
            "   ".join(
                f"{_PARADE_WORDS[pid]}: {' '.join(map(str, stack)) or 'none'}"
                for pid, stack in self.stacks.items()
            ),
            "  ",
        )
        for i, player in enumerate(self.players):
            name = _who(i, seat) + (f" (automa {self.automa})" if i == self.automa_seat else "")
            res = ", ".join(f"{r} {n}" for r, n in zip(RESOURCES, player.res, strict=True))
            lines += _wrap(
                f"{name}: {res}; point tokens {player.tokens}; friends to place "
                f"{player.friends}; {score_parts(player)['total']} points so far"
            )
            if player.parades:
                won = ", ".join(f"{_PARADE_WORDS[p]} ({v})" for p, v in player.parades.items())
                lines += _wrap(f"parades: {won}", "  ")
            lines += _wrap("cards: " + (", ".join(map(card_label, player.cards)) or "-"), "  ")
        return "\n".join(lines)


_PARADE_WORDS = {
    "constructions": "5 constructions",
    "critters": "5 critters",
    "colors": "all 5 colours",
    "same_color": "3 of one colour",
}


def _who(seat: int | None, viewer: int | None) -> str:
    return "you" if seat == viewer and seat is not None else f"seat {seat}"


def _wrap(text: str, indent: str = "") -> list[str]:
    """``text`` in lines of at most 100 columns; later lines indented two more spaces."""
    return textwrap.wrap(
        text, 100, initial_indent=indent, subsequent_indent=indent + "  ", break_on_hyphens=False
    )


# -- pure helpers -----------------------------------------------------------------------------
def discounts(cards: list[str]) -> dict[str, list[int]]:
    """Per card kind, how much each resource is discounted by own blue cards (spec 5.2)."""
    disc = {CRITTER: [0, 0, 0], CONSTRUCTION: [0, 0, 0]}
    for uid in cards:
        ability = CARD_OF[uid].ability
        if ability.code == "discount":
            disc[ability.kind][ability.resource] += 1
    return disc


def effective_cost(card: Card, disc: Mapping[str, list[int]]) -> tuple[int, int, int]:
    """The printed cost less stacking discounts, floor 0."""
    d = disc[card.kind]
    b, t, r = card.cost
    return (max(0, b - d[0]), max(0, t - d[1]), max(0, r - d[2]))


def can_pay(res: list[int], cost: tuple[int, int, int]) -> bool:
    return res[0] >= cost[0] and res[1] >= cost[1] and res[2] >= cost[2]


def colours_of(cards: list[str]) -> set[str]:
    return {CARD_OF[uid].colour for uid in cards}


def parade_qualifies(cards: list[str]) -> tuple[bool, bool, bool, bool]:
    """Requirements of the four parades, in ``PARADES`` order (spec 2.4)."""
    constructions = 0
    by_colour = [0] * len(COLOURS)
    for uid in cards:
        constructions += _IS_CONSTRUCTION[uid]
        by_colour[_COLOUR_OF[uid]] += 1
    critters = len(cards) - constructions
    return (
        constructions >= 5,
        critters >= 5,
        all(by_colour),
        max(by_colour[1:]) >= 3,  # green never counts
    )


def _purple(player: Player) -> int:
    """The purple end bonuses of ``player``'s cards (spec section 8)."""
    cards = player.cards
    purple = 0
    if not _END_BONUS.keys().isdisjoint(cards):
        colours = list(map(_COLOUR_OF.__getitem__, cards))
        for uid in cards:
            if uid in _END_BONUS:
                colour, n = _END_BONUS[uid]
                purple += n * (len(player.parades) if colour < 0 else colours.count(colour))
    return purple


def score_total(player: Player) -> int:
    """``score_parts(player)["total"]``, without building the parts."""
    return (
        sum(map(_POINTS.__getitem__, player.cards))
        + sum(player.parades.values())
        + player.tokens
        + sum(player.res) // 2
        + _purple(player)
    )


def score_parts(player: Player) -> dict[str, int]:
    """Spec section 8: printed points, parades, tokens, exchange, purple bonuses, total."""
    printed = sum(map(_POINTS.__getitem__, player.cards))
    purple = _purple(player)
    parades = sum(player.parades.values())
    exchange = sum(player.res) // 2
    return {
        "cards": printed,
        "parades": parades,
        "tokens": player.tokens,
        "exchange": exchange,
        "purple": purple,
        "total": printed + parades + player.tokens + exchange + purple,
    }


def _pending_json(item: Pending) -> list[Any]:
    """A queued decision or automatic step as JSON: ``[kind, seat, ...]``; a gain adds
    ``[berry, twig, resin, points, any]``, a garden its picks left and the cards picked."""
    kind, seat, *rest = item
    if kind == "gain":
        gain = rest[0]
        return [kind, seat, [gain.berry, gain.twig, gain.resin, gain.points, gain.any]]
    if kind == "garden":
        return [kind, seat, rest[0], list(rest[1])]
    return [kind, seat]


def gain_text(gain: Gain) -> str:
    return ", ".join(f"{n} {name}" for name, n in gain.to_json().items())


def cost_text(card: Card) -> str:
    parts = [f"{n} {r}" for r, n in zip(RESOURCES, card.cost, strict=True) if n]
    return "+".join(parts) or "free"


def ability_text(card: Card) -> str:
    """What a card does, in a few words (spec section 2.6 vocabulary)."""
    ability = card.ability
    when = {"green": "each harvest and now", "brown": "now", "red": "a friend here gets"}
    code = ability.code
    if code == "gain":
        return f"{when.get(card.colour, 'gives')} {gain_text(ability.gain)}".replace(
            "any", "any resource"
        )
    if code == "discount":
        return f"your {ability.kind}s cost 1 {RESOURCES[ability.resource]} less"
    if code == "on_buy":
        return f"each {ability.kind} you buy gives {gain_text(ability.gain)}"
    if code == "on_parade":
        return f"each parade token you take gives {ability.n} point tokens"
    if code == "colors_now":
        return "now 1 point token per colour among your cards"
    if code == "copy_die":
        return "a friend here copies any die's face"
    if code == "activate_green":
        return f"a friend here activates {ability.n} of your green cards"
    if code == "end_per":
        return f"at the end {ability.n} point per {ability.colour} card of yours"
    if code == "end_per_parade":
        return f"at the end {ability.n} points per parade token of yours"
    return "points only"


def card_label(uid: str) -> str:
    card = CARD_OF.get(uid)
    if card is None:
        return uid
    return f"{card.name} [{uid}, {card.colour} {card.kind}, {card.points}pt]"
