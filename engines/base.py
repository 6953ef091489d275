"""The engine contract shared by every game and by the referee.

An :class:`Engine` makes :class:`State` objects; a state says who moves, lists the legal
actions (plain JSON objects), applies one, and builds per-seat observations. Chance lives
inside the state: a :class:`random.Random` seeded by ``new_game`` and consumed in a fixed
order, so a seed plus the chosen actions replays a game exactly.

:class:`GameState` is the shared bookkeeping every engine builds on: the step counter, the
history of chosen action indices, and the one checked door :meth:`GameState.apply`. A game
writes only :meth:`~GameState._legal` (its candidate generator), :meth:`~GameState._play`
(its transition) and the observation/result/determinize/describe/render methods.

Nothing here imports the referee; the referee never imports a game's rules.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, Self, runtime_checkable

Action = dict[str, Any]

__all__ = [
    "Action",
    "ActionKey",
    "Engine",
    "EngineError",
    "GameState",
    "IllegalAction",
    "OptionError",
    "OptionSpec",
    "Result",
    "State",
    "action_key",
    "derive_rng",
    "play_random",
    "ranks_from_scores",
    "resolve_options",
    "utility",
]


class EngineError(Exception):
    """Base class of the errors an engine raises."""


class IllegalAction(EngineError):
    """An action that is not in the current legal list (or the game is over)."""

    def __init__(self, seat: int | None, action: Any, reason: str = "not a legal action") -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(f"seat {seat}: {reason}: {action!r}")


class OptionError(EngineError):
    """An engine option that is unknown or has a bad value."""


@dataclass(frozen=True)
class OptionSpec:
    """One declared engine option (a variant), with its default and its checks.

    ``kind`` is one of ``bool``, ``int``, ``str``, ``list`` (a JSON list). ``choices``
    restricts the value; ``minimum``/``maximum`` bound an int.
    """

    default: Any
    help: str
    kind: type = int
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def check(self, name: str, value: Any) -> Any:
        """Return ``value`` if it is valid for this option, else raise :class:`OptionError`."""
        if self.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"option {name!r} must be an integer, got {value!r}")
        if self.kind is not int and not isinstance(value, self.kind):
            raise OptionError(
                f"option {name!r} must be of type {self.kind.__name__}, got {value!r}"
            )
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise OptionError(f"option {name!r} must be one of {allowed}, got {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {name!r} must be >= {self.minimum}, got {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {name!r} must be <= {self.maximum}, got {value!r}")
        return value


def resolve_options(specs: Mapping[str, OptionSpec], given: Mapping[str, Any]) -> dict[str, Any]:
    """Fill defaults and check every given option; unknown names are an :class:`OptionError`."""
    unknown = sorted(set(given) - set(specs))
    if unknown:
        valid = ", ".join(sorted(specs)) or "(none)"
        raise OptionError(f"unknown option {unknown[0]!r}; valid options: {valid}")
    resolved = {name: spec.default for name, spec in specs.items()}
    for name, value in given.items():
        resolved[name] = specs[name].check(name, value)
    return resolved


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game.

    ``scores`` are the game's own points per seat; ``ranks`` are places (1 = best, tied seats
    share a place, the next place skips: 1, 1, 3). ``detail`` is JSON-ready extra information
    (score breakdowns, the end condition, an automa's score).
    """

    scores: list[float]
    ranks: list[int]
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "ranks": list(self.ranks), "detail": self.detail}


def ranks_from_scores(keys: Sequence[Any]) -> list[int]:
    """Competition ranks from per-seat sort keys where a larger key is better.

    Use a tuple key for tie-breaks, e.g. ``(points, dogs)``; equal keys share a rank.

    >>> ranks_from_scores([3, 7, 7, 1])
    [3, 1, 1, 4]
    """
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def derive_rng(seed: int, *labels: str | int) -> random.Random:
    """A random generator determined by ``seed`` and labels, the same on every platform."""
    text = ":".join(str(part) for part in (seed, *labels))
    return random.Random(text)


@runtime_checkable
class State(Protocol):
    """One game in progress, as the referee and the bots' tools see it."""

    def to_move(self) -> int | None: ...
    def legal_actions(self) -> list[Action]: ...
    def apply(self, action: Action) -> None: ...
    def observation(self, seat: int) -> dict[str, Any]: ...
    def result(self) -> Result: ...
    def clone(self) -> State: ...
    def determinize(self, seat: int, rng: random.Random) -> State: ...
    def describe(self, action: Action) -> str: ...
    def render(self, seat: int | None) -> str: ...


class Engine(Protocol):
    """A rules engine: metadata, declared options, and a factory of states."""

    name: str
    title: str
    version: str
    min_players: int
    max_players: int

    def option_specs(self) -> Mapping[str, OptionSpec]: ...
    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> State: ...
    def sample_state(
        self,
        players: int,
        options: Mapping[str, Any],
        seat: int,
        observations: Sequence[dict[str, Any]],
        rng: random.Random,
    ) -> State: ...


class GameState:
    """Bookkeeping shared by every engine's state.

    Subclasses implement :meth:`to_move`, :meth:`_legal`, :meth:`_play`, and the
    observation, result, determinize, describe and render methods. :meth:`apply` is the one
    checked door; :meth:`apply_unchecked` serves play-outs, search and determinization.
    """

    step: int
    history: list[int]

    def __init__(self) -> None:
        self.step = 0
        self.history = []
        self._legal_cache: list[Action] | None = None

    # -- what a game writes -------------------------------------------------------------
    def to_move(self) -> int | None:
        raise NotImplementedError

    def _legal(self) -> list[Action]:
        """The legal actions now, complete and in a deterministic order."""
        raise NotImplementedError

    def _play(self, action: Action) -> None:
        """Apply a legal action (already checked) and run any chance that follows."""
        raise NotImplementedError

    # -- shared bookkeeping -------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The legal list (cached until the next action; treat it as read-only)."""
        if self.to_move() is None:
            return []
        if self._legal_cache is None:
            self._legal_cache = self._legal()
        return self._legal_cache

    def apply(self, action: Action) -> None:
        """Apply ``action`` if it is in the legal list; else raise :class:`IllegalAction`."""
        seat = self.to_move()
        if seat is None:
            raise IllegalAction(None, action, "the game is over")
        legal = self.legal_actions()
        try:
            index = legal.index(action)
        except ValueError:
            raise IllegalAction(seat, action) from None
        self._commit(index, legal[index])

    def apply_index(self, index: int) -> None:
        """Apply the action at ``index`` of the legal list."""
        seat = self.to_move()
        legal = self.legal_actions()
        if seat is None or not 0 <= index < len(legal):
            raise IllegalAction(seat, index, "action index out of range")
        self._commit(index, legal[index])

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal, without the membership check."""
        self._commit(-1, action)

    def _commit(self, index: int, action: Action) -> None:
        self._legal_cache = None
        self.history.append(index)
        self.step += 1
        self._play(action)

    def clone(self) -> Self:
        """An independent deep copy (override for speed where it matters)."""
        return copy.deepcopy(self)

    def is_over(self) -> bool:
        return self.to_move() is None


def play_random(
    state: State,
    rng: random.Random,
    max_steps: int = 100_000,
    on_step: Callable[[State], None] | None = None,
) -> int:
    """Play uniformly random legal actions until the game ends; return the number of steps.

    Raises :class:`RuntimeError` if the game has not ended after ``max_steps`` (a bug: every
    engine must guarantee an end). ``on_step`` is called with the state before each action.
    """
    steps = 0
    while state.to_move() is not None:
        if steps >= max_steps:
            raise RuntimeError(f"game did not end within {max_steps} steps")
        if on_step is not None:
            on_step(state)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


# -- what search needs ------------------------------------------------------------------

ActionKey = tuple[Any, ...]


def action_key(action: Action) -> ActionKey:
    """A canonical hashable key of an action: equal actions give equal keys.

    The key is the action's items sorted by name, lists and objects inside turned into
    tuples the same way, so it does not depend on the order the keys were written in.

    >>> action_key({"y": 1, "type": "place", "x": 0})
    (('type', 'place'), ('x', 0), ('y', 1))
    """
    return tuple(sorted((name, _frozen(value)) for name, value in action.items()))


def _frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return action_key(value)
    return value


def utility(result: Result, seat: int) -> float:
    """The value of a finished game for ``seat`` on one scale for every engine: 0 to 1.

    With two or more seats it is rank-based: the share of the other seats that ``seat``
    finished ahead of, a tie counting half (alone first = 1, alone last = 0, a shared place
    in between). It is the game's score in the pairwise (Bradley-Terry) sense the standings
    use. A solo game ranks its only seat first whatever happens, so there the engine puts
    the value in ``result.detail["solo_utility"]`` (0 to 1; each engine's README says how
    it is computed); without it a solo game is worth 0.5.
    """
    ranks = result.ranks
    if len(ranks) == 1:
        return float(result.detail.get("solo_utility", 0.5))
    own = ranks[seat]
    beaten = sum(1.0 if own < other else 0.5 if own == other else 0.0 for other in ranks)
    return (beaten - 0.5) / (len(ranks) - 1)


class SampleMemo:
    """A one-entry memo for ``Engine.sample_state``: rebuild the public table once per list
    of observations, then draw each sample with the rebuilt state's ``determinize``.

    A search bot calls ``sample_state`` with the same observations on every iteration of one
    decision; rebuilding the table from the observation is the slow part (a layout, boxes),
    while ``determinize`` redraws exactly the hidden parts the rebuild drew, from the same
    distribution. The memo holds the last observation object itself (observations are never
    mutated), so a new decision or another game never meets a stale entry.
    """

    def __init__(self) -> None:
        self._last: dict[str, Any] | None = None
        self._count = 0
        self._seat = -1
        self._state: State | None = None

    def sample(
        self,
        seat: int,
        observations: Sequence[dict[str, Any]],
        rng: random.Random,
        rebuild: Callable[[], State],
    ) -> State:
        """A fresh sample: ``rebuild()`` when the observations are new, then
        ``determinize(seat, rng)`` of the rebuilt state."""
        last = observations[-1]
        if (
            self._state is None
            or last is not self._last
            or len(observations) != self._count
            or seat != self._seat
        ):
            self._state = rebuild()
            self._last, self._count, self._seat = last, len(observations), seat
        return self._state.determinize(seat, rng)
