"""Rules of If It Fits (Adrie Drent, Jolly Dutch 2021) as an arena engine.

Spec: ``docs/rules/if-it-fits.md``. A turn is split into atomic decisions (phases):

* ``turn``        -- ``draw_and_play`` | ``sleeping_cat`` (x, y) | ``pass`` (only if neither)
* ``select_card`` -- ``select_card`` (card) for each hand card
* ``place_box``   -- ``place_box`` (x, y, rot) | ``discard`` (only with ``edge_matching``)
* ``princess``    -- ``princess`` (cat) for each rival cat in the layout | ``princess_discard``
* ``place_cat``   -- ``place_cat`` (x, y) for each legal seam | ``no_cat``

Chance: one RNG from ``derive_rng(seed, "deal")``, used twice at setup (shuffle the start cards
sorted by id, then the draw deck sorted by id) and never again.

Geometry lives in :mod:`engines.if_it_fits.geometry`; card data in :mod:`engines.if_it_fits.data`.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping
from itertools import chain
from operator import attrgetter
from typing import Any

from engines.base import (
    Action,
    EngineBase,
    EventLog,
    GameState,
    IllegalAction,
    JsonList,
    OptionSpec,
    Result,
    ranks_from_scores,
)
from engines.if_it_fits import data
from engines.if_it_fits.catalog import catalog
from engines.if_it_fits.geometry import (
    Box,
    E,
    Layout,
    N,
    S,
    W,
    edge_mask,
    rotate,
    slot_code,
    slot_xy,
)
from engines.if_it_fits.picture import draw_layout
from engines.parts import Parts

# -- constants ---------------------------------------------------------------------------

TURN = "turn"
SELECT = "select_card"
PLACE_BOX = "place_box"
PRINCESS = "princess"
PLACE_CAT = "place_cat"
OVER = "over"

TIE_RULES = ("all_score", "none_score")

# Per card index (the order of data.CARDS): id, kind, printed open mask and contents.
CARD_IDS: tuple[str, ...] = tuple(card.id for card in data.CARDS)
INDEX: dict[str, int] = {card_id: i for i, card_id in enumerate(CARD_IDS)}
KINDS: tuple[str, ...] = tuple(card.kind for card in data.CARDS)
MASKS: tuple[int, ...] = tuple(edge_mask(card.edges) for card in data.CARDS)
SYMMETRIC: tuple[bool, ...] = tuple(rotate(m, 1) == m for m in MASKS)
BOX_TYPES = (data.BOX, data.SPECIAL, data.START)
DECK_CARDS: tuple[int, ...] = tuple(
    i for i, kind in enumerate(KINDS) if kind in (data.BOX, data.SPECIAL, data.PRINCESS)
)
START_CARDS: tuple[int, ...] = tuple(i for i, kind in enumerate(KINDS) if kind == data.START)
FIRST_CAT = KINDS.index(data.CAT)


def cat_owner(card: int) -> int:
    """The seat whose colour cat card ``card`` is."""
    return (card - FIRST_CAT) // data.CATS_PER_SEAT


# Shared, read-only action objects (legal lists are built from these, never copied).
DRAW: Action = {"type": "draw_and_play"}
PASS: Action = {"type": "pass"}
DISCARD: Action = {"type": "discard"}
PRINCESS_DISCARD: Action = {"type": "princess_discard"}
NO_CAT: Action = {"type": "no_cat"}
SELECT_ACTIONS: tuple[Action, ...] = tuple({"type": SELECT, "card": c} for c in CARD_IDS)
PRINCESS_ACTIONS: tuple[Action, ...] = tuple({"type": PRINCESS, "cat": c} for c in CARD_IDS)


class _SlotActions(dict[int, tuple[Action, Action, Action, Action]]):
    """Slot code -> the actions naming that slot: place_box rot 0 and rot 1, sleeping_cat,
    and place_cat on the seam between this slot and its East neighbour (built on first use,
    shared, read-only). ``ROT0``, ``BOTH_ROTS`` and ``SLEEPING`` are views of the same
    objects, so legal lists are built with C-level ``map`` lookups."""

    def __missing__(self, code: int) -> tuple[Action, Action, Action, Action]:
        x, y = slot_xy(code)
        found = self[code] = (
            {"type": PLACE_BOX, "x": x, "y": y, "rot": 0},
            {"type": PLACE_BOX, "x": x, "y": y, "rot": 1},
            {"type": "sleeping_cat", "x": x, "y": y},
            {"type": PLACE_CAT, "x": x, "y": y},
        )
        _ROT0[code], _BOTH[code], _SLEEPING[code] = found[0], found[:2], found[2]
        return found


class _View(dict[int, Any]):
    """One element of :data:`_SLOT_ACTIONS` per slot code, filled on first use."""

    def __missing__(self, code: int) -> Any:
        _SLOT_ACTIONS[code]
        return self[code]


_SLOT_ACTIONS = _SlotActions()
_ROT0: dict[int, Action] = _View()
_BOTH: dict[int, tuple[Action, Action]] = _View()
_SLEEPING: dict[int, Action] = _View()


def _slot_actions(code: int) -> tuple[Action, Action, Action, Action]:
    return _SLOT_ACTIONS[code]


def _slot_json(code: int) -> list[int]:
    x, y = slot_xy(code)
    return [x, y]


class _SlotXY(dict[int, tuple[int, int]]):
    """Slot code -> (x, y), filled on first use."""

    def __missing__(self, code: int) -> tuple[int, int]:
        xy = self[code] = slot_xy(code)
        return xy


_XY = _SlotXY()


def _entry(card: int, code: int, rot: int) -> list[Any]:
    """A layout entry of the observation: ``[x, y, card id, rot]`` (rot 0 for cats and
    Princesses; edges and contents are the card's row of ``data.CARDS``, turned by rot)."""
    x, y = _XY[code]
    return [x, y, CARD_IDS[card], rot]


def _entry_text(entry: list[Any]) -> str:
    """The compact JSON of a layout entry (card ids are letters and digits)."""
    x, y, card_id, rot = entry
    return f'[{x},{y},"{card_id}",{rot}]'


def _entries(entries: list[list[Any]]) -> JsonList:
    """The layout entries as a :class:`JsonList` that keeps their JSON text."""
    return JsonList(entries, f"[{','.join(map(_entry_text, entries))}]")


# -- options -----------------------------------------------------------------------------

OPTION_SPECS: dict[str, OptionSpec] = {
    "tie_rule": OptionSpec(
        "all_score",
        "tied cat majority: all_score = every tied leader scores the box; "
        "none_score = nobody does (designed, spec §9.6)",
        kind=str,
        choices=TIE_RULES,
    ),
    "edge_matching": OptionSpec(
        False,
        "a box card's edges must equal the facing edges of its neighbours (designed, §8)",
        kind=bool,
    ),
    "short_deck": OptionSpec(
        False,
        "2/3 players: remove the 24/12 box cards nearest the deck bottom; "
        "no effect with 4-5 players (designed, §8)",
        kind=bool,
    ),
}


# -- the state ---------------------------------------------------------------------------


class IfItFitsState(GameState):
    """One game of If It Fits."""

    SHARED = ("players", "options", "current", "phase", "pending", "pending_slot", "_boxes_view")
    COPIED = (
        "layout",
        "slot_card",
        "entries",
        "entry_at",
        "awake",
        "seam_princess",
        "cat_place",
        "deck",
        "removed",
        "discard",
        "seams",
        "log",
    )
    COPIED_ITEMS = ("supply", "hands")

    def __init__(self, players: int, seed: int, options: Mapping[str, Any]) -> None:
        super().__init__(seed, "deal")
        self.players = players
        self.options = dict(options)  # never changed: clones share it
        self.layout = Layout(players)
        self.slot_card: dict[int, int] = {}  # slot -> card index (box, sleeping cat, Princess)
        # observation view of the layout, append-only: [x, y, card, rot] per slot (a Princess
        # that takes a sleeping cat's place replaces its entry with a new list)
        self.entries = JsonList()
        self.entry_at: dict[int, int] = {}  # slot -> index in entries
        self.awake: dict[int, int] = {}  # seam (its western slot) -> awake cat
        self.seam_princess: dict[int, int] = {}  # seam -> Princess lying there
        self.cat_place: dict[int, tuple[bool, int]] = {}  # cat in layout -> (awake?, code)
        self.supply: list[list[int]] = [
            list(
                range(FIRST_CAT + s * data.CATS_PER_SEAT, FIRST_CAT + (s + 1) * data.CATS_PER_SEAT)
            )
            for s in range(players)
        ]
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.deck: list[int] = []  # the top card is the LAST element
        self.removed: list[int] = []  # short_deck: out of the game, face down
        self.discard: list[int] = []
        self.current = 0
        self.phase = TURN
        self.pending: int | None = None  # card being resolved this turn
        self.pending_slot: int | None = None
        self.seams: list[int] = []  # legal seams in phase place_cat
        # public log: [seat, type, *arguments]; a seat's view starts after its own decision
        self.log = EventLog(players)
        self._boxes_view: JsonList | None = None
        self._deal()

    def _deal(self) -> None:
        """Setup chance: shuffle start cards (RNG call 1), then the deck (call 2); deal 2 each."""
        starts = list(START_CARDS)
        self.rng.shuffle(starts)
        for y, card in enumerate(starts[: self.players]):
            self.lay(card, slot_code(0, y), 0)
        deck = list(DECK_CARDS)
        self.rng.shuffle(deck)  # deck[0] is the top, as in the spec
        remove = data.SHORT_DECK_REMOVED.get(self.players, 0) if self.options["short_deck"] else 0
        if remove:
            boxes_from_bottom = [c for c in reversed(deck) if KINDS[c] == data.BOX][:remove]
            self.removed = sorted(boxes_from_bottom)
            gone = set(boxes_from_bottom)
            deck = [c for c in deck if c not in gone]
        self.deck = deck[::-1]
        for _ in range(data.HAND_SIZE):
            for hand in self.hands:
                insort(hand, self.deck.pop())

    # -- contract ----------------------------------------------------------------------
    def to_move(self) -> int | None:
        return None if self.phase == OVER else self.current

    def _legal(self) -> list[Action]:
        phase, seat = self.phase, self.current
        if phase == TURN:
            legal: list[Action] = [DRAW] if self.hands[seat] or self.deck else []
            if self.supply[seat]:
                legal.extend(map(_SLEEPING.__getitem__, self.layout.sleeping_slots()))
            return legal or [PASS]
        if phase == SELECT:
            return [SELECT_ACTIONS[c] for c in self.hands[seat]]
        if phase == PLACE_BOX:
            return self._box_placements()
        if phase == PRINCESS:
            targets = sorted(c for c in self.cat_place if cat_owner(c) != seat)
            return [PRINCESS_ACTIONS[c] for c in targets] or [PRINCESS_DISCARD]
        return [*(_slot_actions(s)[3] for s in self.seams), NO_CAT]

    def _box_placements(self) -> list[Action]:
        assert self.pending is not None
        card = self.pending
        slots = self.layout.frontier_slots()
        if self.options["edge_matching"]:
            rots = (0,) if SYMMETRIC[card] else (0, 1)
            matches = self.layout.matches
            legal = [
                _slot_actions(c)[r]
                for c in slots
                for r in rots
                if matches(c, rotate(MASKS[card], r))
            ]
            return legal or [DISCARD]
        if SYMMETRIC[card]:
            return list(map(_ROT0.__getitem__, slots))
        return list(chain.from_iterable(map(_BOTH.__getitem__, slots)))

    def _play(self, action: Action) -> None:
        seat, pending = self.current, self.pending
        kind = action.get("type")
        event: list[Any] = [seat, kind]
        if kind == "draw_and_play":
            event.append(bool(self.deck))
            if self.deck:
                insort(self.hands[seat], self.deck.pop())
            self.phase = SELECT
        elif kind == "sleeping_cat":
            cat = self.supply[seat].pop(0)
            code = slot_code(action["x"], action["y"])
            self.lay(cat, code, 0)
            self.cat_place[cat] = (False, code)
            self.count_cat(code, seat, +1)
            event += (CARD_IDS[cat], action["x"], action["y"])
            self._end_turn()
        elif kind == SELECT:
            card = INDEX[action["card"]]
            self.hands[seat].remove(card)
            self.pending = card
            self.phase = PRINCESS if KINDS[card] == data.PRINCESS else PLACE_BOX
            event.append(action["card"])
        elif kind == PLACE_BOX:
            assert pending is not None
            event += (CARD_IDS[pending], action["x"], action["y"], action["rot"])
            self._place_box(action["x"], action["y"], action["rot"])
        elif kind == PLACE_CAT:
            cat = self.supply[seat].pop(0)
            code = slot_code(action["x"], action["y"])
            self.awake[code] = cat
            self.cat_place[cat] = (True, code)
            self.count_cat(code, seat, +1)
            event += (CARD_IDS[cat], action["x"], action["y"])
            self._end_turn()
        elif kind == PRINCESS:
            assert pending is not None
            event += (CARD_IDS[pending], action["cat"])
            self._princess(INDEX[action["cat"]])
            self._end_turn()
        elif kind in ("discard", "princess_discard"):
            assert pending is not None
            event.append(CARD_IDS[pending])
            self.discard.append(pending)
            self._end_turn()
        elif kind in ("no_cat", "pass"):
            self._end_turn()
        else:
            raise IllegalAction(seat, action, "unknown action type")
        self.log.append(event)
        self.log.mark(seat)

    # -- transitions -------------------------------------------------------------------
    def lay(self, card: int, code: int, rot: int) -> Box:
        """Put ``card`` (box-type or sleeping cat) into the layout at ``code``."""
        mask = rotate(MASKS[card], rot)
        row = data.CARDS[card]
        box = self.layout.place(code, mask, row.toys, row.special, row.spray)
        self.slot_card[code] = card
        self.entry_at[code] = len(self.entries)
        entry = _entry(card, code, rot)
        self.entries.add(entry, _entry_text(entry))
        self._boxes_view = None
        return box

    def _place_box(self, x: int, y: int, rot: int) -> None:
        seat, card = self.current, self.pending
        assert card is not None
        code = slot_code(x, y)
        box = self.lay(card, code, rot)
        self.pending_slot = code
        self.seams = self.cat_seams(seat, code, box) if self.supply[seat] else []
        if self.seams:
            self.phase = PLACE_CAT
        else:
            self._end_turn()

    def cat_seams(self, seat: int, code: int, box: Box) -> list[int]:
        """Seams beside the card just laid at ``code`` where ``seat`` may put an awake cat."""
        cats = box.cats
        if not cats[seat] and any(cats):
            return []  # a rival's box (spec §3.6 rule 4)
        mask, masks = self.layout.open[code], self.layout.open
        seams = []
        for bit, step, facing, seam in ((W, -1, E, code - 1), (E, 1, W, code)):
            near = code + step
            near_card = self.slot_card.get(near)
            if (
                near_card is not None
                and KINDS[near_card] in BOX_TYPES
                and mask & bit
                and masks[near] & facing
            ):
                seams.append(seam)
        return seams

    def count_cat(self, code: int, seat: int, delta: int) -> None:
        box = self.layout.own_box(code)
        box.cats[seat] += delta
        self._boxes_view = None

    def _princess(self, cat: int) -> None:
        """Send ``cat`` back to its owner; the pending Princess takes its exact place."""
        princess = self.pending
        assert princess is not None
        awake, code = self.cat_place.pop(cat)
        owner = cat_owner(cat)
        insort(self.supply[owner], cat)
        self.count_cat(code, owner, -1)
        if awake:
            del self.awake[code]
            self.seam_princess[code] = princess
        else:
            self.slot_card[code] = princess
            entries = self.entries[:]
            entries[self.entry_at[code]] = _entry(princess, code, 0)
            self.entries = _entries(entries)

    def _end_turn(self) -> None:
        self.pending = self.pending_slot = None
        self.seams = []
        if not self.deck and not any(self.hands):
            self.phase = OVER
        else:
            self.current = (self.current + 1) % self.players
            self.phase = TURN

    # -- observation -------------------------------------------------------------------
    def forget(self) -> None:
        """Also the cached boxes part of the observation."""
        super().forget()
        self._boxes_view = None

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` knows: the whole public table plus its own hand, nothing else."""
        pending = self.pending
        return {
            "seat": seat,
            "to_move": self.to_move(),
            "num_players": self.players,
            "phase": self.phase,
            "options": dict(self.options),
            "deck_size": len(self.deck),
            "removed": len(self.removed),
            "discard": [*map(_CARD_ID, self.discard)],
            "hand": [*map(_CARD_ID, self.hands[seat])],
            "hand_sizes": [*map(len, self.hands)],
            "cat_supply": [*map(len, self.supply)],
            "layout": self.entries.copy(),
            "awake_cats": _seam_view(self.awake) if self.awake else [],
            "seam_princesses": _seam_view(self.seam_princess) if self.seam_princess else [],
            "boxes": self._boxes(),
            "pending": None
            if pending is None
            else {
                "card": CARD_IDS[pending],
                "slot": None if self.pending_slot is None else [*_XY[self.pending_slot]],
            },
            "events": self.log.since(seat),
        }

    def _boxes(self) -> list[list[Any]]:
        """Derived box summaries (cached per box; rebuilt only for boxes that changed)."""
        view = self._boxes_view
        if view is None:
            entry_at = self.entry_at
            boxes = sorted(self.layout.boxes.values(), key=_FIRST)
            for box in boxes:
                if box.json is None:
                    _box_json(box, entry_at)
            view = self._boxes_view = JsonList(
                [box.json for box in boxes], f"[{','.join([box.text for box in boxes])}]"
            )
        return view.copy()

    # -- scoring -----------------------------------------------------------------------
    def result(self) -> Result:
        """Scores by box (spec §7); valid at any time, final once the game is over."""
        scores = [0] * self.players
        penalties = [0] * self.players
        parts: list[dict[str, Any]] = []
        for box in sorted(self.layout.boxes.values(), key=lambda b: b.first):
            winners = box_winners(box.cats, self.options["tie_rule"])
            if not winners:
                continue
            value = box_value(box)
            for seat in winners:
                scores[seat] += value
                penalties[seat] += box.spray
            parts.append(
                {
                    "slot": _slot_json(box.first),
                    "value": value,
                    "spray": box.spray,
                    "to": winners,
                }
            )
        ranks = final_ranks(scores, penalties)
        detail = {
            "penalties": penalties,
            "boxes_scored": parts,
            "end": "hands_empty" if self.phase == OVER else "unfinished",
        }
        return Result([float(s) for s in scores], ranks, detail)

    # -- hidden information ------------------------------------------------------------
    def determinize(self, seat: int, rng: random.Random) -> IfItFitsState:
        """Redeal everything ``seat`` cannot see: other hands, deck order, removed cards."""
        twin = self.clone()
        others = [s for s in range(self.players) if s != seat]
        pool = [*self.deck, *self.removed, *(c for s in others for c in self.hands[s])]
        rng.shuffle(pool)
        # short_deck removes only box cards: take the first box cards of the shuffled pool
        removed = [c for c in pool if KINDS[c] == data.BOX][: len(self.removed)]
        gone = set(removed)
        rest = [c for c in pool if c not in gone]
        twin.removed = sorted(removed)
        for s in others:
            size = len(self.hands[s])
            twin.hands[s] = sorted(rest[:size])
            rest = rest[size:]
        twin.deck = rest
        twin._reseed(rng)
        return twin

    # -- text --------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        seat = self.current
        kind = action.get("type")
        where = f"({action.get('x')}, {action.get('y')})"
        if kind == "draw_and_play":
            return f"seat {seat} draws a card" if self.deck else f"seat {seat} plays from hand"
        if kind == "sleeping_cat":
            return f"seat {seat} lays a sleeping cat at {where}"
        if kind == SELECT:
            return f"seat {seat} chooses {action.get('card')}"
        if kind == PLACE_BOX:
            card = CARD_IDS[self.pending] if self.pending is not None else "a card"
            return f"seat {seat} places {card} at {where} rot {action.get('rot')}"
        if kind == PLACE_CAT:
            return f"seat {seat} puts an awake cat on the seam east of {where}"
        if kind == PRINCESS:
            return f"seat {seat} sends {action.get('cat')} home with the Princess"
        if kind in ("discard", "princess_discard"):
            return f"seat {seat} discards the card"
        if kind == "no_cat":
            return f"seat {seat} places no cat"
        return f"seat {seat} passes"

    def render(self, seat: int | None) -> str:
        cards = {
            code: _picture_cell(card, self.layout.open[code])
            for code, card in self.slot_card.items()
        }
        seams = {code: f"C{cat_owner(cat)}" for code, cat in self.awake.items()}
        seams.update((code, "Pr") for code in self.seam_princess)

        def who(s: int) -> str:
            return f"seat {s} (you)" if s == seat else f"seat {s}"

        doing = "game over" if self.phase == OVER else f"{who(self.current)} to move"
        lines = [
            draw_layout(cards, seams),
            f"{doing}; deck {len(self.deck)} cards, face down; discard pile {len(self.discard)}",
        ]
        for s, hand in enumerate(self.hands):
            if seat is None or seat == s:
                shown = " ".join(CARD_IDS[c] for c in hand) or "empty"
            else:
                shown = f"{len(hand)} card(s), hidden"
            lines.append(f"{who(s)}: hand {shown}; cats in supply {len(self.supply[s])}")
            if seat == s:
                lines += [f"    {_card_words(card)}" for card in hand]
        if self.pending is not None:
            lines.append(f"being played: {_card_words(self.pending)}")
        for box in sorted(self.layout.boxes.values(), key=_first):
            if any(box.cats):
                x, y = _slot_json(box.first)
                cats = ", ".join(f"{who(s)} {n}" for s, n in enumerate(box.cats) if n)
                closed = "closed" if box.open_sides == 0 else "open"
                lines.append(f"box at ({x}, {y}), {closed}: worth {box_value(box)}; cats: {cats}")
        return "\n".join(lines)


# -- pure helpers ------------------------------------------------------------------------


def box_value(box: Box) -> int:
    """Top toy count + 2 per special toy - 1 per spray bottle (spec §7.2)."""
    return max(box.toys) + data.SPECIAL_TOY_VALUE * box.special - data.SPRAY_PENALTY * box.spray


def final_ranks(scores: list[int], penalties: list[int]) -> list[int]:
    """Higher score first; ties broken by fewer penalty (spray) points; then shared (§7.3)."""
    return ranks_from_scores([(s, -p) for s, p in zip(scores, penalties, strict=True)])


def box_winners(cats: list[int], tie_rule: str) -> list[int]:
    """Seats that score a box with these cat counts (majority, ties per ``tie_rule``)."""
    most = max(cats)
    if most == 0:
        return []
    leaders = [seat for seat, count in enumerate(cats) if count == most]
    if len(leaders) > 1 and tie_rule == "none_score":
        return []
    return leaders


def _picture_cell(card: int, mask: int) -> tuple[str, str, int]:
    """Label, second line and open mask of a layout card for :func:`draw_layout`."""
    kind = KINDS[card]
    if kind == data.CAT:
        return f"zz{cat_owner(card)}", CARD_IDS[card], mask
    if kind == data.PRINCESS:
        return CARD_IDS[card], "", mask
    row = data.CARDS[card]
    letters = "".join(k * n for k, n in zip("ymfp", row.toys, strict=True))
    return row.id, letters + "*" * row.special + "!" * row.spray, mask


def _card_words(card: int) -> str:
    """A hand card for a person: its toys, and its open sides at each rotation."""
    if KINDS[card] == data.PRINCESS:
        return f"{CARD_IDS[card]} (a Princess: sends a rival's cat in the layout back home)"
    if KINDS[card] not in BOX_TYPES:
        return CARD_IDS[card]
    _label, toys, mask = _picture_cell(card, MASKS[card])

    def sides(open_mask: int) -> str:
        return "".join(
            name for bit, name in ((N, "N"), (E, "E"), (S, "S"), (W, "W")) if bit & open_mask
        )

    turned = "" if SYMMETRIC[card] else f", rot 1 (turned) open {sides(rotate(mask, 1)) or 'none'}"
    return f"{CARD_IDS[card]} (toys {toys or 'none'}; rot 0 open {sides(mask) or 'none'}{turned})"


def _first(box: Box) -> int:
    return box.first


def _seam_view(seams: dict[int, int]) -> list[list[Any]]:
    """``[x, y, card id]`` per seam (cats awake, Princesses there), by seam."""
    return [[*_XY[s], CARD_IDS[c]] for s, c in sorted(seams.items())]


_CARD_ID = CARD_IDS.__getitem__
_FIRST = attrgetter("first")


def _box_json(box: Box, entry_at: Mapping[int, int]) -> None:
    """Cache ``[layout indices of its cards, open sides, cats per seat]`` and its JSON text on
    ``box``: the contents are the sum of the member cards' rows in ``data.CARDS`` (sleeping
    cats and Princesses are empty)."""
    cards = sorted([entry_at[code] for code in box.members])
    box.json = [cards, box.open_sides, box.cats[:]]
    box.text = f"[[{','.join(map(str, cards))}],{box.open_sides},[{','.join(map(str, box.cats))}]]"


class IfItFitsEngine(EngineBase):
    """The engine object registered as ``if-it-fits``."""

    name = "if-it-fits"
    title = "If It Fits (Jolly Dutch)"
    version = "2"
    min_players = 2
    max_players = 5
    parts = Parts(
        guide="engines.if_it_fits.guide",
        picture="engines.if_it_fits.svg",
        data="engines.if_it_fits.data",
        sampling="engines.if_it_fits.sampling",
        public="engines.if_it_fits.public",
        greedy="bots.if_it_fits_greedy",
        encoding="engines.if_it_fits.encoding",
    )

    def option_specs(self) -> Mapping[str, OptionSpec]:
        return OPTION_SPECS

    def catalog(self) -> dict[str, Any]:
        """Static data for bots, sent once in ``hello`` (see the README)."""
        return catalog()

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> IfItFitsState:
        return IfItFitsState(players, seed, self.resolved(players, options))
