"""A heuristic Good Boy bot: push the luck only while it pays, feed the dog closest to home.

- Roll: with the dog side up (standard game) a roll busts only on a double cat (1/36), so
  it rolls. Once a bust is one cat away (cat side up, or any later roll of the hard
  variant: 11/36), it rolls only while what the hand holds at risk is small next to what a
  roll is expected to bring.
- Assign: one token at a time to the board where it fills a missing need, preferring the
  dog that is closest to completion per point (and not about to be taken by an opponent).
  Tokens no dog wants stay in hand.
- Take ("any" face): the kind the best target still misses. Steal: from the opponent whose
  dog it brings furthest back.
- Claim: the dog worth most.

Run it as ``python -m bots.good_boy_greedy``. Its weights (:class:`Weights`) are parameters
``arena tune`` can tune: flags ``--useful_share``, ``--completion_bonus``,
``--contested_factor``, or a game's ``params``; the defaults are the values it always played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.sdk import GameInfo, run
from bots.tunable import from_argv, given
from engines.good_boy.public import DOGS, KIND_INDEX, KINDS, NK, missing

Action = dict[str, Any]

P_BUST = 11 / 36  # a roll shows at least one cat
GAIN_PER_SAFE_ROLL = 2.8  # expected tokens of a roll without a cat (designed dice)


@dataclass(frozen=True)
class Weights:
    """The heuristic's numbers (its tunable parameters), with the defaults it plays."""

    useful_share: float = 0.5  # rough share of gained tokens some dog wants
    completion_bonus: float = 2.0  # extra weight, in tokens, of a hand that completes a dog
    contested_factor: float = 0.5  # a dog an opponent is closer to is worth this share

    @property
    def risk_limit(self) -> float:
        """Tokens at risk beyond which a roll is not worth it."""
        return (1 - P_BUST) * GAIN_PER_SAFE_ROLL * self.useful_share / P_BUST


DEFAULTS = Weights()


def needs_of(board: int | None) -> list[int]:
    """What the dog on a board (its id, from the observation) needs, per kind."""
    return [0] * NK if board is None else list(DOGS[board].needs)


class View:
    """What the bot derives from one observation."""

    def __init__(self, obs: dict[str, Any], weights: Weights = DEFAULTS) -> None:
        self.obs = obs
        self.weights = weights
        self.me: int = obs["seat"]
        self.players = len(obs["hands"])
        self.hand: list[int] = obs["hands"][self.me]
        self.needs = [needs_of(board) for board in obs["boards"]]
        self.points = [0 if board is None else DOGS[board].points for board in obs["boards"]]
        self.corners: list[list[list[int]]] = obs["corners"]
        # missing[b] = what my corner on board b still lacks for its dog
        self.missing = [
            missing(self.corners[b][self.me], tuple(self.needs[b]))
            if obs["boards"][b] is not None
            else None
            for b in range(len(self.needs))
        ]

    def gap(self, b: int, seat: int) -> int:
        """How many tokens seat's corner on board b lacks."""
        return sum(missing(self.corners[b][seat], tuple(self.needs[b])))

    def contested(self, b: int) -> bool:
        """Whether an opponent is strictly closer than me to the dog on board b."""
        mine = self.gap(b, self.me)
        return any(self.gap(b, q) < mine for q in range(self.players) if q != self.me)

    def board_weight(self, b: int, after: int) -> float:
        """Desirability of feeding board b, which will then still lack ``after`` tokens."""
        weight = self.points[b] / (1 + after)
        return weight * (self.weights.contested_factor if self.contested(b) else 1.0)

    def best_assign(self) -> tuple[int, int] | None:
        """(kind, board) of the most useful token to assign now, or None."""
        best: tuple[float, int, int] | None = None
        for b, lack in enumerate(self.missing):
            if lack is None:
                continue
            for k in range(NK):
                if self.hand[k] and lack[k]:
                    value = self.board_weight(b, sum(lack) - 1)
                    if best is None or value > best[0]:
                        best = (value, k, b)
        return None if best is None else (best[1], best[2])

    def planned(self) -> tuple[int, bool]:
        """Tokens of the hand some dog wants, and whether the hand completes a dog."""
        useful = 0
        completes = False
        for lack in self.missing:
            if lack is None:
                continue
            fill = sum(min(h, m) for h, m in zip(self.hand, lack, strict=True))
            useful = max(useful, fill)
            completes = completes or fill == sum(lack)
        return useful, completes

    def wanted(self, k: int) -> float:
        """How much I want one more token of kind k (beyond the hand)."""
        best = 0.0
        for b, lack in enumerate(self.missing):
            if lack is None:
                continue
            if lack[k] > self.hand[k]:
                after = sum(max(0, m - h) for m, h in zip(lack, self.hand, strict=True)) - 1
                best = max(best, self.board_weight(b, after))
        return best

    def harm(self, k: int, b: int, victim: int) -> float:
        """How much taking a k from victim's corner on board b sets the victim back."""
        if self.corners[b][victim][k] > self.needs[b][k]:
            return 0.0
        return self.points[b] / (1 + self.gap(b, victim))


def should_roll(view: View) -> bool:
    obs = view.obs
    at_risk_now = obs["variant"] == "hard" or obs["sides"][view.me] == "cat"
    if not at_risk_now:
        return True
    useful, completes = view.planned()
    exposed = useful + (view.weights.completion_bonus if completes else 0.0)
    if obs["end_triggered"] and not completes:
        return True  # last turn: tokens left over are worth nothing
    return exposed < view.weights.risk_limit


def choose(
    obs: dict[str, Any], legal: list[Action], game: GameInfo, weights: Weights = DEFAULTS
) -> int:
    view = View(obs, given(weights, game.params))
    kinds = {action["type"] for action in legal}
    if "roll" in kinds:
        if "stop" in kinds and not should_roll(view):
            return legal.index({"type": "stop"})
        return legal.index({"type": "roll"})
    if "claim" in kinds:
        return max(range(len(legal)), key=lambda i: view.points[legal[i]["board"]])
    if "done" in kinds:
        pick = view.best_assign()
        if pick is None:
            return legal.index({"type": "done"})
        k, b = pick
        return legal.index({"type": "assign", "item": KINDS[k], "board": b})

    def value(action: Action) -> float:
        k = KIND_INDEX[action["item"]]
        gain = view.wanted(k)
        if action["type"] == "steal":
            gain += view.harm(k, action["board"], action["from"])
        return gain

    return max(range(len(legal)), key=lambda i: value(legal[i]))


if __name__ == "__main__":
    chosen = from_argv(DEFAULTS)
    run(
        lambda obs, legal, game: choose(obs, legal, game, chosen),
        name="good-boy-greedy",
        version="2",
    )
