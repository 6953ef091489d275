"""A greedy heuristic bot for little-everdell (My Lil' Everdell).

Every decision is scored one step ahead with a points-equivalent value:

* a card is worth its printed points plus an estimate of its ability over the rounds left
  (green production per harvest, brown at once, blue per future purchase or parade, red per
  future use, purple from the end bonus it would score now) plus the parade tokens it would
  complete now and a little for progress towards the others;
* resources are valued by what they can buy: the *potential* of a resource count is the best
  of "buy nothing" and "buy meadow card c" (card value less the resources paid), with
  leftover resources worth a bit more than the 1/2 point they exchange for at the end;
* a placement, die copy, Gardener activation or resource pick is worth the point tokens it
  gives plus the change of potential, so the bot gathers what lets it buy the best card.

Run it as ``python -m bots.little_everdell_greedy``. Deterministic: it draws no random numbers
(ties go to the earliest legal action).
"""

from __future__ import annotations

from typing import Any

from arena.sdk import GameInfo, run
from engines.little_everdell.public import (
    CARD_OF,
    DIE_FACES,
    PARADES,
    RESOURCES,
    ROUNDS,
    TOP_SPACES,
    Card,
    Gain,
    discounts,
    effective_cost,
    parade_qualifies,
)

Action = dict[str, Any]
Res = tuple[int, int, int]

RESOURCE_VALUE = 0.6  # a held resource: more than its 1/2 point at the end, it may buy
ANY_VALUE = 0.7
TOP_SPACE_VALUE = 0.6  # what a friend earns on a top space (the cost of using it elsewhere)


class View:
    """The bot's reading of one observation."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.obs = obs
        self.me = obs["players"][obs["seat"]]
        self.cards: list[str] = self.me["cards"]
        berry, twig, resin = self.me["resources"]
        self.res: Res = (berry, twig, resin)
        self.round: int = obs["round"]
        # Harvests still to come and turns still to come for this seat (rough).
        self.harvests_left = ROUNDS - self.round
        self.turns_left = self.me["friends_left"] + 3 * self.harvests_left
        self.disc = discounts(self.cards)
        self.dice: list[int] = obs["dice"]
        self.stacks: dict[str, list[int]] = obs["parade_stacks"]
        self.meadow = [
            (CARD_OF[uid], effective_cost(CARD_OF[uid], self.disc))
            for uid in obs["meadow"]
            if uid is not None
        ]
        self.card_values = [self.card_value(card) for card, _ in self.meadow]

    # -- card values --------------------------------------------------------------------------
    def gain_value(self, gain: Gain) -> float:
        return gain.points + RESOURCE_VALUE * sum(gain.resources) + ANY_VALUE * gain.any

    def card_value(self, card: Card) -> float:
        return card.points + self.ability_value(card) + self.parade_value(card)

    def ability_value(self, card: Card) -> float:
        ability = card.ability
        code = ability.code
        future_buys = min(self.turns_left, 8) * 0.35
        if code == "gain" and card.colour == "green":
            return self.gain_value(ability.gain) * (1 + self.harvests_left)
        if code == "gain" and card.colour == "brown":
            return self.gain_value(ability.gain)
        if code == "gain":  # red: per future use, over a top space
            return self.red_uses() * max(0.0, self.gain_value(ability.gain) - TOP_SPACE_VALUE)
        if code == "colors_now":
            return float(len({CARD_OF[u].colour for u in self.cards} | {card.colour}))
        if code in ("discount", "on_buy"):
            return RESOURCE_VALUE * future_buys * 0.5
        if code == "on_parade":
            return 2.0 * min(2, 4 - len(self.me["parades"])) * 0.6
        if code == "copy_die":
            best = max((self.gain_value(DIE_FACES[f]) for f in self.dice), default=1.2)
            return self.red_uses() * max(0.0, best - TOP_SPACE_VALUE)
        if code == "activate_green":
            greens = sum(1 for u in self.cards if CARD_OF[u].colour == "green")
            return self.red_uses() * max(0.0, RESOURCE_VALUE * min(2, greens) - TOP_SPACE_VALUE)
        if code == "end_per":
            have = sum(1 for u in self.cards if CARD_OF[u].colour == ability.colour)
            return ability.n * (have + 0.3 * self.harvests_left)
        if code == "end_per_parade":
            return ability.n * (len(self.me["parades"]) + 0.4 * self.harvests_left)
        return 0.0

    def red_uses(self) -> float:
        return self.harvests_left + (0.5 if self.me["friends_left"] > 1 else 0.0)

    def parade_value(self, card: Card) -> float:
        """The top tokens of the parades that adding ``card`` would complete now."""
        before = parade_qualifies(self.cards)
        after = parade_qualifies([*self.cards, f"{card.slug}#1"])
        return sum(
            self.stacks[pid][0]
            for pid, was, now in zip(PARADES, before, after, strict=True)
            if now and not was and self.stacks[pid] and pid not in self.me["parades"]
        )

    # -- potential of resources ---------------------------------------------------------------
    def potential(self, res: Res) -> float:
        """Best of keeping the resources and buying one affordable meadow card with them
        (now or on a later turn: either way they are worth what they can buy soon)."""
        best = RESOURCE_VALUE * sum(res)
        for (_, cost), value in zip(self.meadow, self.card_values, strict=True):
            if res[0] >= cost[0] and res[1] >= cost[1] and res[2] >= cost[2]:
                best = max(best, value + RESOURCE_VALUE * (sum(res) - sum(cost)))
        return best

    def gain_score(self, gain: Gain) -> float:
        """Points plus the potential after the gain (any-resource picks chosen greedily)."""
        res = _add(self.res, gain.resources)
        for _ in range(gain.any):
            res = max((_add(res, unit) for unit in _UNITS), key=self.potential)
        return gain.points + self.potential(res)


_UNITS: tuple[Res, ...] = ((1, 0, 0), (0, 1, 0), (0, 0, 1))


def _add(a: Res, b: Res) -> Res:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _place_gain(view: View, action: Action) -> Gain:
    space = action["space"]
    if space in TOP_SPACES:
        return TOP_SPACES[space]
    if space == "card":
        ability = CARD_OF[action["card"]].ability
        if ability.code == "copy_die":
            return max((DIE_FACES[f] for f in view.dice), key=lambda g: view.gain_score(g))
        if ability.code == "activate_green":
            greens = [CARD_OF[u].ability.gain for u in view.cards if CARD_OF[u].colour == "green"]
            greens.sort(key=lambda g: view.gain_score(g), reverse=True)
            return _sum_gains(greens[: ability.n])
        return ability.gain
    return DIE_FACES[view.dice[int(space[4:]) - 1]]


def _sum_gains(gains: list[Gain]) -> Gain:
    return Gain(
        berry=sum(g.berry for g in gains),
        twig=sum(g.twig for g in gains),
        resin=sum(g.resin for g in gains),
        points=sum(g.points for g in gains),
        any=sum(g.any for g in gains),
    )


def score_action(view: View, action: Action) -> float:
    """Points-equivalent value of one legal action for the seat to move."""
    kind = action["type"]
    if kind == "place":
        return view.gain_score(_place_gain(view, action))
    if kind == "buy":
        uid = view.obs["meadow"][action["slot"] - 1]
        card = CARD_OF[uid]
        cost = effective_cost(card, view.disc)
        return view.card_value(card) + RESOURCE_VALUE * (sum(view.res) - sum(cost))
    if kind == "pass":
        return RESOURCE_VALUE * sum(view.res)
    if kind == "choose_resource":
        unit = _UNITS[RESOURCES.index(action["resource"])]
        return view.potential(_add(view.res, unit))
    if kind == "copy_die":
        return view.gain_score(DIE_FACES[view.dice[action["die"] - 1]])
    if kind == "activate_green":
        return view.gain_score(CARD_OF[action["card"]].ability.gain)
    return 0.0


def choose(observation: dict[str, Any], legal: list[Action], game: GameInfo) -> int:
    view = View(observation)
    scores = [score_action(view, action) for action in legal]
    return max(range(len(legal)), key=lambda i: (scores[i], -i))


if __name__ == "__main__":
    run(choose, name="little-everdell-greedy", version="2")
