"""A heuristic bot for cat-yard: lure the best cat it can, gather with a dog-risk stop rule.

Decisions, from the observation only (every table in cat-yard is public except the order
of the bait deck and the cat stack):

* Lure whenever a lure is legal, the cat with the most points first, paying with the
  cards that are worth least (fewest symbols, least wanted by the yard).
* Before the main action: draw abilities (more cards), a rotation or swap that makes a
  lure possible now (or clearly improves the arrow card), otherwise gather.
* Gathering: reveal again while the expected gain beats the expected loss. The chance of a
  dog is computed from the unseen cards (all 55 minus the cushions, the discard pile and the
  revealed cards), so the bot counts dogs as they are discarded.
* Placing: greedy, one card at a time, keeping the cushion that scores best.
* After the main action: more lures, then protection of a well-filled cushion, a yard
  discard of a big cat an opponent could take next, then ``end_turn``.

Deterministic (no randomness at all). Run it as ``python -m bots.cat_yard_greedy``.

Its heuristic weights are parameters (``arena tune`` can tune them, docs/tuning.md): the
flags ``--ignore_dog_weight``, ``--protect_min_cards``, ``--weak_card``, ``--reveal_gain``
set them for every game, and a game's ``params`` (the protocol's ``start``) override them
for that game. The defaults are the values the bot always played with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.sdk import GameInfo, run
from bots.tunable import from_argv, given
from engines.cat_yard.public import (
    BAIT_IDS,
    BAIT_MASK,
    CAT_ABILITY,
    CAT_COST,
    CAT_POINTS,
    CAT_WILD,
    IS_DOG,
    can_pay,
)

Action = dict[str, Any]
Obs = dict[str, Any]


@dataclass(frozen=True)
class Weights:
    """The heuristic's numbers (its tunable parameters), with the defaults it plays."""

    ignore_dog_weight: float = 0.25  # an unused ignore_dog tile makes a dog this much as bad
    protect_min_cards: int = 3  # protect a cushion holding at least this many cards
    weak_card: float = 1.5  # a cushion card worth less than this may be replaced by a reveal
    reveal_gain: float = 1.0  # the gain of one more revealed card when there is room for it


DEFAULTS = Weights()


def choose(obs: Obs, legal: list[Action], game: GameInfo, weights: Weights = DEFAULTS) -> int:
    """The index of the chosen action in ``legal``."""
    by_type: dict[str, list[int]] = {}
    for i, action in enumerate(legal):
        by_type.setdefault(action["type"], []).append(i)
    view = _View(obs, given(weights, game.params))
    phase = obs["phase"]
    if phase == "DOG":
        return by_type.get("ignore_dog", by_type["accept_dog"])[0]
    if phase == "GATHER_DECIDE":
        return by_type["reveal" if view.keep_revealing() else "stop"][0]
    if phase == "PLACE":
        return max(range(len(legal)), key=lambda i: view.place_score(legal[i]))
    if phase == "DRAW_PLACE":
        return by_type["place_drawn"][0]
    if "lure" in by_type:
        return max(by_type["lure"], key=lambda i: view.lure_score(legal[i]))
    for i in by_type.get("ability", []):
        if view.ability_helps(legal[i], phase):
            return i
    for i in by_type.get("swap", []):
        if view.swap_helps(legal[i]["target"]):
            return i
    return by_type["gather" if phase == "START" else "end_turn"][0]


class _View:
    """The bot's reading of one observation."""

    def __init__(self, obs: Obs, weights: Weights = DEFAULTS) -> None:
        self.obs = obs
        self.weights = weights
        self.seat: int = obs["seat"]
        me = obs["players"][self.seat]  # [position, points, [[cat, used], ...]]
        self.pos: int = me[0]
        self.cushions: list[list[int]] = [[c or 0 for c in fields] for fields in obs["cushions"]]
        self.mine = self.cushions[self.pos]
        self.unused = [c for c, used in me[2] if not used]
        self.wilds = sorted(CAT_WILD[c] for c in self.unused if CAT_WILD[c])
        self.yard = [c for c in obs["yard"] if c]
        self.demand = [0.0] * 4
        for cat in self.yard:
            for k in CAT_COST[cat]:
                self.demand[k] += CAT_POINTS[cat] / len(CAT_COST[cat])

    # -- evaluation -------------------------------------------------------------------------
    def card_value(self, card: int) -> float:
        """How useful a bait card is: the yard's demand for its best symbol, plus flexibility."""
        if not card:
            return 0.0
        mask = BAIT_MASK[card]
        best = max(self.demand[k] for k in range(4) if mask >> k & 1)
        return 1.0 + best + 0.3 * (bin(mask).count("1") - 1)

    def best_lure(self, fields: Sequence[int]) -> int:
        """Points of the best yard cat these cushion cards (plus my wild tiles) could pay."""
        masks = tuple(sorted([BAIT_MASK[c] for c in fields if c] + self.wilds))
        best = 0
        for cat in self.yard:
            cost = CAT_COST[cat]
            if CAT_POINTS[cat] > best and len(cost) <= len(masks) and can_pay(cost, masks):
                best = CAT_POINTS[cat]
        return best

    def cushion_score(self, fields: Sequence[int]) -> float:
        return 3.0 * self.best_lure(fields) + sum(self.card_value(c) for c in fields)

    def lure_score(self, action: Action) -> float:
        cat = self.obs["yard"][action["slot"]]
        spent = sum(self.card_value(self.mine[f]) for f in action["fields"])
        return 100.0 * CAT_POINTS[cat] - spent - 5.0 * len(action["wilds"])

    def place_score(self, action: Action) -> float:
        if action["type"] == "done":
            return self.cushion_score(self.mine) - 0.01
        after = list(self.mine)
        after[action["field"]] = action["card"]
        # Keep the least useful card on the arrow field: it can be swapped away.
        arrow_penalty = 0.05 * self.card_value(action["card"]) if action["field"] == 0 else 0
        return self.cushion_score(after) - arrow_penalty

    def dog_chance(self) -> float:
        """The chance that the next card revealed is a dog, from the unseen cards."""
        obs = self.obs
        seen = {c for cushion in self.cushions for c in cushion if c}
        seen.update(obs["revealed"])
        if obs["deck_count"]:
            seen.update(obs["discard"])
            unseen = [c for c in BAIT_IDS if c not in seen]
        else:  # the next reveal reshuffles the discard pile
            unseen = list(obs["discard"])
        if not unseen:
            return 0.0
        return sum(1 for c in unseen if IS_DOG[c]) / len(unseen)

    def keep_revealing(self) -> bool:
        """Reveal again when the expected gain beats the expected loss of the revealed cards."""
        revealed = self.obs["revealed"]
        empty = sum(1 for c in self.mine if not c)
        weak = sum(1 for c in self.mine if c and self.card_value(c) < self.weights.weak_card)
        room = empty + weak
        kept = min(len(revealed), room)
        gain = self.weights.reveal_gain if len(revealed) < room else 0.1
        p = self.dog_chance()
        if any(CAT_ABILITY[c] == "ignore_dog" for c in self.unused):
            p *= self.weights.ignore_dog_weight
        return (1.0 - p) * gain > p * kept

    def ability_helps(self, action: Action, phase: str) -> bool:
        ability = CAT_ABILITY[action["cat"]]
        if ability in ("draw_1", "draw_2"):
            return True
        if ability in ("rotate_left", "rotate_right"):
            return phase == "START" and self._rotation_gain(ability) > 0
        if ability == "protect":
            filled = sum(1 for c in self.mine if c)
            return phase == "POST" and filled >= self.weights.protect_min_cards
        if phase == "POST" and ability.startswith("yard_discard") and "slots" in action:
            return all(self._threat(self.obs["yard"][s]) for s in action["slots"])
        return False

    def _rotation_gain(self, ability: str) -> int:
        protected = self.obs["protected"]
        free = [p for p in range(4) if not protected[p]]
        if self.pos not in free:
            return 0
        i = free.index(self.pos)
        step = 1 if ability == "rotate_left" else -1
        arriving = self.cushions[free[(i - step) % len(free)]]
        return self.best_lure(arriving) - self.best_lure(self.mine)

    def swap_helps(self, target: int) -> bool:
        after = [self.cushions[target][0], *self.mine[1:]]
        lure_gain = self.best_lure(after) - self.best_lure(self.mine)
        if lure_gain:
            return lure_gain > 0
        return self.card_value(after[0]) > self.card_value(self.mine[0]) + 1.0

    def _threat(self, cat: int) -> bool:
        """Whether an opponent could lure this cat (3+ points) from their cushion now."""
        if CAT_POINTS[cat] < 3:
            return False
        for seat, (position, _points, cats) in enumerate(self.obs["players"]):
            if seat == self.seat:
                continue
            cards = [c for c in self.cushions[position] if c]
            wilds = [CAT_WILD[c] for c, used in cats if CAT_WILD[c] and not used]
            masks = tuple(sorted([BAIT_MASK[c] for c in cards] + wilds))
            if len(masks) >= len(CAT_COST[cat]) and can_pay(CAT_COST[cat], masks):
                return True
        return False


if __name__ == "__main__":
    chosen = from_argv(DEFAULTS)
    run(
        lambda obs, legal, game: choose(obs, legal, game, chosen),
        name="cat-yard-greedy",
        version="2",
    )
