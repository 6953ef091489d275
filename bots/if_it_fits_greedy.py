"""A greedy bot for If It Fits: score the layout after each candidate with the final rule.

Every candidate (a box card at a slot and rotation, a sleeping cat, a Princess target, an
awake cat) is valued as the change of ``my score - best rival score`` if the game were scored
right after it, using the box summaries of the observation (no engine state is rebuilt).
A box placement is also credited with the awake cat it would allow. Cats are the scarce
resource, so a cat is only spent for a gain above a threshold that shrinks as the deck runs
out (cats left in supply at the end score nothing).

Run it as ``python -m bots.if_it_fits_greedy``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arena.sdk import GameInfo, run
from engines.if_it_fits.public import (
    ALL_OPEN,
    CARDS,
    DIRECTIONS,
    SPECIAL_TOY_VALUE,
    SPRAY_PENALTY,
    TOY_KINDS,
    Card,
    E,
    W,
    edge_mask,
    rotate,
    slot_code,
    slot_xy,
)

Action = dict[str, Any]
Slot = tuple[int, int]
_ORIGIN = slot_code(0, 0)
# (edge bit, (dx, dy) to the neighbour, the neighbour's facing edge bit)
NEIGHBOURS = tuple((bit, slot_xy(_ORIGIN + step), facing) for bit, step, facing in DIRECTIONS)
BOX_TYPES = ("box", "special", "start")
CARD = {card.id: card for card in CARDS}  # the engine's card table by id (observations name ids)
MASK = {card.id: edge_mask(card.edges) for card in CARDS}  # printed open mask (rot 0)
CAT_COST_EARLY = 2.0  # gain a cat must bring with a full deck; falls linearly to CAT_COST_LATE
CAT_COST_LATE = 0.25


class View:
    """The observation's layout and boxes, indexed for fast what-if scoring."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.me: int = obs["seat"]
        self.players: int = obs["num_players"]
        self.tie_rule: str = obs["options"]["tie_rule"]
        self.supply: int = obs["cat_supply"][self.me]
        self.deck_size: int = obs["deck_size"]
        self.cells: dict[Slot, tuple[int, bool]] = {}
        slots: list[Slot] = []
        for x, y, card_id, rot in obs["layout"]:
            slots.append((x, y))
            self.cells[(x, y)] = (rotate(MASK[card_id], rot), CARD[card_id].kind in BOX_TYPES)
        self.boxes: list[tuple[list[int], int, int, list[int]]] = []
        self.box_of: dict[Slot, int] = {}
        cards = [CARD[entry[2]] for entry in obs["layout"]]
        for i, (members, _open_sides, cats) in enumerate(obs["boxes"]):
            toys, special, spray = [0] * len(TOY_KINDS), 0, 0
            for index in members:
                card = cards[index]
                toys = [a + b for a, b in zip(toys, card.toys, strict=True)]
                special += card.special
                spray += card.spray
                self.box_of[slots[index]] = i
            self.boxes.append((toys, special, spray, cats))
        self.totals = [0] * self.players
        for toys, special, spray, cats in self.boxes:
            self._add(self.totals, cats, value(toys, special, spray), +1)
        self.base = self.utility(self.totals)

    def _add(self, totals: list[int], cats: list[int], worth: int, sign: int) -> None:
        most = max(cats)
        if most == 0:
            return
        leaders = [s for s, c in enumerate(cats) if c == most]
        if len(leaders) > 1 and self.tie_rule == "none_score":
            return
        for seat in leaders:
            totals[seat] += sign * worth

    def utility(self, totals: list[int]) -> int:
        return totals[self.me] - max(t for s, t in enumerate(totals) if s != self.me)

    def cat_cost(self) -> float:
        share = min(1.0, self.deck_size / 70)
        return CAT_COST_LATE + (CAT_COST_EARLY - CAT_COST_LATE) * share

    def gain(
        self,
        merged: Iterable[int],
        toys: list[int],
        special: int,
        spray: int,
        cats: list[int],
    ) -> int:
        """Utility change if boxes ``merged`` become one box with the given extra contents."""
        totals = self.totals[:]
        toys, cats = toys[:], cats[:]
        for i in set(merged):
            box_toys, box_special, box_spray, box_cats = self.boxes[i]
            self._add(totals, box_cats, value(box_toys, box_special, box_spray), -1)
            toys = [a + b for a, b in zip(toys, box_toys, strict=True)]
            cats = [a + b for a, b in zip(cats, box_cats, strict=True)]
            special += box_special
            spray += box_spray
        self._add(totals, cats, value(toys, special, spray), +1)
        return self.utility(totals) - self.base

    def joined(self, slot: Slot, mask: int) -> tuple[list[int], list[Slot]]:
        """Boxes a card with ``mask`` at ``slot`` joins, and its open E/W box-type neighbours."""
        boxes, seams = [], []
        x, y = slot
        for bit, (dx, dy), facing in NEIGHBOURS:
            near = (x + dx, y + dy)
            cell = self.cells.get(near)
            if cell is not None and mask & bit and cell[0] & facing:
                boxes.append(self.box_of[near])
                if bit in (E, W) and cell[1]:
                    seams.append(near)
        return boxes, seams

    def frontier(self) -> list[Slot]:
        empty = {
            (x + dx, y + dy) for x, y in self.cells for _, (dx, dy), _ in NEIGHBOURS
        } - self.cells.keys()
        return sorted(empty, key=lambda s: (s[1], s[0]))

    # -- candidate values --------------------------------------------------------------
    def box_card(self, card: Card, slot: Slot, rot: int) -> float:
        """Value of placing ``card`` at ``slot``, counting the awake cat it would allow."""
        mask = rotate(MASK[card.id], rot)
        toys = list(card.toys)
        merged, seams = self.joined(slot, mask)
        none = [0] * self.players
        best: float = self.gain(merged, toys, card.special, card.spray, none)
        if seams and self.supply and self.may_add_cat(merged):
            mine = none[:]
            mine[self.me] = 1
            with_cat = self.gain(merged, toys, card.special, card.spray, mine)
            best = max(best, with_cat - self.cat_cost())
        return best

    def may_add_cat(self, merged: Iterable[int]) -> bool:
        cats = [0] * self.players
        for i in set(merged):
            cats = [a + b for a, b in zip(cats, self.boxes[i][3], strict=True)]
        return bool(cats[self.me]) or not any(cats)

    def sleeping_cat(self, slot: Slot) -> float:
        merged, _ = self.joined(slot, ALL_OPEN)
        mine = [0] * self.players
        mine[self.me] = 1
        return self.gain(merged, [0] * len(TOY_KINDS), 0, 0, mine) - self.cat_cost()

    def awake_cat(self, slot: Slot) -> float:
        mine = [0] * self.players
        mine[self.me] = 1
        return self.gain([self.box_of[slot]], [0] * len(TOY_KINDS), 0, 0, mine) - self.cat_cost()

    def princess(self, cat_slot: Slot, owner: int) -> float:
        less = [0] * self.players
        less[owner] = -1
        return self.gain([self.box_of[cat_slot]], [0] * len(TOY_KINDS), 0, 0, less)

    def best_card_play(self, card: Card, targets: dict[str, tuple[Slot, int]]) -> float:
        if card.kind == "princess":
            return max((self.princess(*targets[c]) for c in targets), default=0.0)
        rots = (0,) if rotate(MASK[card.id], 1) == MASK[card.id] else (0, 1)
        return max(self.box_card(card, s, r) for s in self.frontier() for r in rots)


def value(toys: list[int], special: int, spray: int) -> int:
    """A box's value by the final scoring rule."""
    return max(toys) + SPECIAL_TOY_VALUE * special - SPRAY_PENALTY * spray


def cat_owner(cat_id: str) -> int:
    """The seat of a cat card id ``C<seat>-<k>``."""
    return int(cat_id[1 : cat_id.index("-")])


def rival_cats(obs: dict[str, Any]) -> dict[str, tuple[Slot, int]]:
    """Rival cats in the layout: id -> (a slot of the box holding it, owner)."""
    me = obs["seat"]
    found = {cat: ((x, y), cat_owner(cat)) for x, y, cat in obs["awake_cats"]}
    for x, y, card_id, _rot in obs["layout"]:
        if CARD[card_id].kind == "cat":
            found[card_id] = ((x, y), cat_owner(card_id))
    return {cat: place for cat, place in found.items() if place[1] != me}


def score_action(view: View, obs: dict[str, Any], action: Action) -> float:
    """The greedy value of one legal action."""
    kind = action["type"]
    if kind == "place_box":
        card = CARD[obs["pending"]["card"]]
        return view.box_card(card, (action["x"], action["y"]), action["rot"])
    if kind == "sleeping_cat":
        return view.sleeping_cat((action["x"], action["y"]))
    if kind == "place_cat":
        return view.awake_cat((action["x"], action["y"]))
    if kind == "princess":
        return view.princess(*rival_cats(obs)[action["cat"]])
    if kind == "select_card":
        return view.best_card_play(CARD[action["card"]], rival_cats(obs))
    if kind == "draw_and_play":
        targets = rival_cats(obs)
        plays = [view.best_card_play(CARD[c], targets) for c in obs["hand"]]
        return max(plays, default=0.0)
    return 0.0  # no_cat, pass, discards


def choose(observation: dict[str, Any], legal: list[Action], game: GameInfo) -> int:
    """The legal action of highest greedy value (the first one on ties)."""
    if len(legal) == 1:
        return 0
    view = View(observation)
    values = [score_action(view, observation, action) for action in legal]
    best = max(values)
    return values.index(best)


if __name__ == "__main__":
    run(choose, name="if-it-fits-greedy", version="2")
