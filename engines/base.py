"""The engine contract shared by every game and by the referee.

An :class:`Engine` makes :class:`State` objects; a state says who moves, lists the legal
actions (plain JSON objects), applies one, and builds per-seat observations. Chance lives
inside the state: a :class:`random.Random` seeded by ``new_game`` and consumed in a fixed
order, so a seed plus the chosen actions replays a game exactly.

:class:`EngineBase` gives every engine the same :meth:`~EngineBase.check` of a player count
and options. :class:`GameState` is the shared bookkeeping every state builds on: the history
of chosen action indices, the checked doors :meth:`~GameState.apply` and
:meth:`~GameState.apply_index`, the seeded RNG, and a :meth:`~GameState.clone` driven by
the fields each game declares. :class:`EventLog` keeps the public events and, per seat,
where its next observation starts. A game writes only :meth:`~GameState._legal` (its
candidate generator), :meth:`~GameState._play` (its transition) and the
observation/result/determinize/describe/render methods.

Nothing here imports the referee; the referee never imports a game's rules.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, cast, runtime_checkable

from engines.parts import Parts

Action = dict[str, Any]

__all__ = [
    "Action",
    "ActionKey",
    "CannotSample",
    "Encoding",
    "Engine",
    "EngineBase",
    "EngineError",
    "EventLog",
    "GameState",
    "IllegalAction",
    "JsonList",
    "OptionError",
    "OptionSpec",
    "Result",
    "State",
    "action_key",
    "action_of_id",
    "declared_fields",
    "derive_rng",
    "legal_ids",
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


class CannotSample(EngineError):
    """The engine cannot draw a state from what a seat knows (``sample_state``,
    ``determinize``): a hosted game without the means to (an OpenSpiel game without
    ``resample_from_infostate``). A search bot refuses such a game with this message."""


class OptionError(EngineError):
    """An engine option that is unknown or has a bad value."""


_KIND_WORDS: dict[type, str] = {bool: "true or false", str: "a string", list: "a list"}


def _spelled(value: Any) -> str:
    """An option's value as JSON and TOML write it (``true``, ``"x"``, ``[1, 2]``)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


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
        """Return ``value`` if it is valid for this option, else raise :class:`OptionError`
        (its value written as the league file and ``--option`` write it: ``true``, ``"x"``)."""
        if self.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"option {name!r} must be an integer, got {_spelled(value)}")
        if self.kind is not int and not isinstance(value, self.kind):
            kind = _KIND_WORDS.get(self.kind, f"a {self.kind.__name__}")
            raise OptionError(f"option {name!r} must be {kind}, got {_spelled(value)}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(_spelled, self.choices))
            raise OptionError(f"option {name!r} must be one of {allowed}, got {_spelled(value)}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {name!r} must be >= {self.minimum}, got {value}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {name!r} must be <= {self.maximum}, got {value}")
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
    (score breakdowns, an automa's score). Every engine sets ``detail["end"]``: why the game
    ended, a snake_case word its README lists, or ``"unfinished"`` for a game not over.
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
    """A random generator determined by ``seed`` and labels, the same on every platform.

    Without labels it is ``random.Random(seed)`` (cat-yard and space-five deal from it).
    """
    if not labels:
        return random.Random(seed)
    text = ":".join(str(part) for part in (seed, *labels))
    return random.Random(text)


class EventLog(list[Any]):
    """The public events of a game, and where each seat's next observation starts.

    An observation carries "the events since this seat last acted": the engine calls
    :meth:`mark` when a seat acts (before logging its action to show the seat its own
    action back, after it to leave it out; each engine's README says which) and puts
    :meth:`since` into the observation. Events are never changed once logged. The events
    every seat has been shown are dropped in batches (``trim_at`` of them at a time), so the
    log stays about a round long and a clone copies little. It is a list of the events still
    kept: ``log.append(event)`` logs one. A test that reads the whole history sets
    ``trim_at = 0`` (keep everything).
    """

    __slots__ = ("base", "marks", "trim_at")

    def __init__(self, seats: int) -> None:
        super().__init__()
        self.base = 0  # the number of events dropped so far (the index of self[0])
        self.marks = [0] * seats  # per seat: the index of the first event it has not seen
        self.trim_at = 32

    def mark(self, seat: int) -> None:
        """``seat``'s next observation starts with the next event logged."""
        marks = self.marks
        marks[seat] = self.base + len(self)
        if len(self) >= self.trim_at > 0:  # else fewer than trim_at events can have been seen
            seen = min(marks) - self.base
            if seen >= self.trim_at:
                del self[:seen]
                self.base += seen

    def since(self, seat: int) -> list[Any]:
        """The events logged since ``seat``'s mark (a new list; do not change the events)."""
        return self[self.marks[seat] - self.base :]

    def copy(self) -> EventLog:
        twin = EventLog.__new__(EventLog)
        twin.extend(self)
        twin.base = self.base
        twin.marks = self.marks[:]
        twin.trim_at = self.trim_at
        return twin


class JsonList(list[Any]):
    """A list that keeps its own compact JSON text, for an observation part that grows by
    appending (a layout).

    The state adds each item with its text (:meth:`add`) and puts copies into observations;
    the referee's encoder (``arena.protocol.encode``) writes the kept :attr:`json_text`
    instead of walking the items again. Everything else sees a plain list. The text must be
    exactly what orjson writes for the items (compact, no spaces: ``[0,-1,"B2"]``); any other
    change of the list forgets it (``json_text = None``: encoded item by item).
    """

    __slots__ = ("json_text",)

    def __init__(self, items: Iterable[Any] = (), json_text: str | None = None) -> None:
        super().__init__(items)
        self.json_text = "[]" if json_text is None and not self else json_text

    def add(self, item: Any, text: str) -> None:
        """Append ``item``, whose compact JSON is ``text``."""
        list.append(self, item)
        old = self.json_text
        if old is not None:
            self.json_text = f"{old[:-1]},{text}]" if len(self) > 1 else f"[{text}]"

    def copy(self) -> JsonList:
        twin = _new_list(JsonList)  # without __init__: this runs on every observation
        _extend(twin, self)
        twin.json_text = self.json_text
        return twin


_new_list = list.__new__
_extend = list.extend


def _forgetting(name: str) -> Callable[..., Any]:
    """``list.<name>`` that first drops a :class:`JsonList`'s text."""
    change = getattr(list, name)

    def forget(self: JsonList, *args: Any, **kwargs: Any) -> Any:
        self.json_text = None
        return change(self, *args, **kwargs)

    forget.__name__ = forget.__qualname__ = name
    return forget


for _name in (
    "append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
    "__setitem__", "__delitem__", "__iadd__", "__imul__",
):  # fmt: skip
    setattr(JsonList, _name, _forgetting(_name))


@runtime_checkable
class State(Protocol):
    """One game in progress, as the referee and the bots' tools see it."""

    def to_move(self) -> int | None: ...
    def legal_actions(self) -> list[Action]: ...
    def apply(self, action: Action) -> None: ...
    def apply_index(self, index: int) -> None: ...
    def observation(self, seat: int) -> dict[str, Any]: ...
    def result(self) -> Result: ...
    def clone(self) -> State: ...
    def determinize(self, seat: int, rng: random.Random) -> State: ...
    def describe(self, action: Action) -> str: ...
    def render(self, seat: int | None) -> str: ...


class Engine(Protocol):
    """A rules engine: metadata, declared options, and a factory of states.

    :meth:`check` validates a player count and options once (for a league file, a command
    line) and returns the resolved options; :meth:`new_game` takes only such resolved
    options and does not check them again.
    """

    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    parts: Parts  # the optional parts it has (engines.parts)

    def option_specs(self) -> Mapping[str, OptionSpec]: ...
    def catalog(self) -> dict[str, Any]:
        """Static game data (card tables...) as JSON, sent to every bot once in ``hello``."""
        ...

    def check(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]: ...
    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> State: ...
    def sample_state(
        self,
        players: int,
        options: Mapping[str, Any],
        seat: int,
        observations: Sequence[dict[str, Any]],
        rng: random.Random,
    ) -> State: ...


class EngineBase:
    """What every engine shares: :meth:`check` from the metadata and the option specs, and
    :meth:`sample_state` around the game's :meth:`rebuild_sample`.

    A game sets the metadata, writes :meth:`option_specs`, :meth:`new_game` and
    :meth:`rebuild_sample`, and overrides :meth:`check_more` when options depend on each
    other or on the player count.
    """

    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    parts: Parts = Parts()  # none: a game declares the ones it has

    def option_specs(self) -> Mapping[str, OptionSpec]:
        return {}

    def catalog(self) -> dict[str, Any]:
        """Static game data for bots, sent once in ``hello``: none unless a game says."""
        return {}

    def check(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The resolved options for a game of ``players``; else :class:`OptionError`."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"the number of players must be an integer, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.name} takes {self.min_players}-{self.max_players} players, got {players}"
            )
        resolved = resolve_options(self.option_specs(), options)
        self.check_more(players, resolved)
        return resolved

    def check_more(self, players: int, options: Mapping[str, Any]) -> None:
        """Checks between resolved options and the player count (raise OptionError)."""

    def resolved(self, players: int, options: Mapping[str, Any]) -> Mapping[str, Any]:
        """For :meth:`new_game`: ``options`` as they are when every declared option is
        there (what :meth:`check` returned), else :meth:`check`'s resolution of them, so a
        caller who skipped ``check`` (``new_game(players, seed, {})``) gets the defaults."""
        if all(name in options for name in self.option_specs()):
            return options
        return self.check(players, options)

    def sample_state(
        self,
        players: int,
        options: Mapping[str, Any],
        seat: int,
        observations: Sequence[dict[str, Any]],
        rng: random.Random,
    ) -> State:
        """A state consistent with what ``seat`` observed: the table is rebuilt by
        :meth:`rebuild_sample` once per list of observations (:class:`SampleMemo`, one per
        engine object), and each call draws the hidden parts afresh."""
        memo: SampleMemo | None = self.__dict__.get("_sample_memo")
        if memo is None:
            memo = self.__dict__["_sample_memo"] = SampleMemo()
        return memo.sample(
            seat,
            observations,
            rng,
            lambda: self.rebuild_sample(players, options, seat, observations, rng),
        )

    def rebuild_sample(
        self,
        players: int,
        options: Mapping[str, Any],
        seat: int,
        observations: Sequence[dict[str, Any]],
        rng: random.Random,
    ) -> State:
        """The game's part of :meth:`sample_state`: a full state rebuilt from
        ``observations`` (the last is the current one), hidden parts drawn from ``rng``
        (each engine's ``sampling.py`` says how).

        By default a fresh table (seed 0, these options) is filled by
        ``sample_state(new_game, seat, observations, rng)`` of the engine's declared
        ``sampling`` part (:class:`~engines.parts.Parts`); an engine without one overrides
        this or :meth:`sample_state`, else a search bot cannot play it."""
        sampling = self.parts.module("sampling")
        if sampling is None:
            raise EngineError(
                f"engine {self.name} declares no sampling part: a search bot cannot play it"
            )
        fresh = cast(Engine, self).new_game(players, 0, options)
        state: State = sampling.sample_state(fresh, seat, observations, rng)
        return state


class GameState:
    """Bookkeeping shared by every engine's state.

    Subclasses implement :meth:`to_move`, :meth:`_legal`, :meth:`_play`, and the
    observation, result, determinize, describe and render methods. :meth:`apply` and
    :meth:`apply_index` are the checked doors.

    **Copies.** A game declares every attribute its states hold in exactly one of four
    class tuples, and :meth:`clone` copies by them: ``SHARED`` (immutable values, or
    caches that are never changed once built), ``COPIED`` (``value.copy()``: flat lists,
    dicts, sets, or objects with their own ``copy``), ``COPIED_ITEMS`` (a list or dict
    whose items are copied with ``item.copy()``, e.g. a list of lists), ``COPIED_GRIDS``
    (a list of lists whose items are copied with ``item.copy()``: three levels). An
    attribute not declared makes :meth:`clone` raise, so a new field cannot be silently
    shared between a state and its clone.

    **Chance.** The constructor seeds the state's RNG once (``derive_rng(seed, *labels)``);
    the game draws from :attr:`rng` in a fixed, documented order. A clone shares the RNG
    until either side draws from it (copy on write: copying a Mersenne Twister costs more
    than the rest of a clone).
    """

    SHARED: ClassVar[tuple[str, ...]] = ()
    COPIED: ClassVar[tuple[str, ...]] = ()
    COPIED_ITEMS: ClassVar[tuple[str, ...]] = ()
    COPIED_GRIDS: ClassVar[tuple[str, ...]] = ()
    # the bookkeeping of this class, copied by clone() itself
    _BASE_FIELDS: ClassVar[tuple[str, ...]] = ("_moves", "_legal_cache", "_rng", "_rng_shared")

    _moves: tuple[Any, ...]  # the chosen indices as a chain (index, previous chain); () = none
    _legal_cache: list[Action] | None
    _rng: random.Random
    _rng_shared: bool  # _rng may belong to a clone too: copy it before drawing
    log: EventLog  # every game's public events (declared by the game: COPIED)

    def __init__(self, seed: int, *labels: str | int) -> None:
        """Start the bookkeeping; the state's RNG is ``derive_rng(seed, *labels)``."""
        self._moves = ()
        self._legal_cache = None
        self._rng = derive_rng(seed, *labels)
        self._rng_shared = False

    # -- what a game writes -------------------------------------------------------------
    def to_move(self) -> int | None:
        raise NotImplementedError

    def _legal(self) -> list[Action]:
        """The legal actions now, complete and in a deterministic order."""
        raise NotImplementedError

    def _play(self, action: Action) -> None:
        """Apply a legal action (already checked) and run any chance that follows."""
        raise NotImplementedError

    # -- chance ---------------------------------------------------------------------------
    @property
    def rng(self) -> random.Random:
        """The state's RNG, to draw one chance event from (do not keep a reference)."""
        if self._rng_shared:
            own = random.Random()
            own.setstate(self._rng.getstate())
            self._rng = own
            self._rng_shared = False
        return self._rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng
        self._rng_shared = False

    def resume(self, events: Iterable[Any], rng: random.Random) -> None:
        """The last step of rebuilding a state from what a seat observed (an engine's
        ``sampling`` part, after it set the fields): the state's ``log`` starts afresh
        with ``events`` (the latest observation's), future chance is drawn from ``rng``
        (one 64-bit draw), and what was computed from the old fields is dropped
        (:meth:`forget`)."""
        log = EventLog(len(self.log.marks))
        log.extend(events)
        self.log = log
        self.rng = random.Random(rng.getrandbits(64))
        self.forget()

    def forget(self) -> None:
        """Drop what was computed from the fields, after they were set from outside the
        rules (:meth:`resume`): the legal list; a game with caches of its own (parts of
        its observation) overrides this to drop them too."""
        self._legal_cache = None

    def _reseed(self, rng: random.Random) -> None:
        """For :meth:`determinize`: future chance re-drawn from ``rng`` (one 64-bit draw);
        the legal list is recomputed (hidden cards may change it)."""
        self.rng = random.Random(rng.getrandbits(64))
        self._legal_cache = None

    # -- shared bookkeeping -------------------------------------------------------------
    @property
    def history(self) -> list[int]:
        """The indices chosen so far, into each step's legal list (a new list)."""
        out = []
        moves = self._moves
        while moves:
            out.append(moves[0])
            moves = moves[1]
        out.reverse()
        return out

    @property
    def step(self) -> int:
        """The number of actions applied so far."""
        count = 0
        moves = self._moves
        while moves:
            count += 1
            moves = moves[1]
        return count

    def legal_actions(self) -> list[Action]:
        """The legal list (cached until the next action; treat it as read-only).

        A cached list is never one of a finished game: the cache is dropped by every
        action and only filled while someone is to move."""
        legal = self._legal_cache
        if legal is None:
            if self.to_move() is None:
                return []
            legal = self._legal_cache = self._legal()
        return legal

    def apply(self, action: Action) -> None:
        """Apply ``action`` if it is in the legal list; else raise :class:`IllegalAction`."""
        legal = self._legal_cache or self.legal_actions()
        try:
            index = legal.index(action)
        except ValueError:
            seat = self.to_move()
            reason = "not a legal action" if seat is not None else "the game is over"
            raise IllegalAction(seat, action, reason) from None
        self._legal_cache = None
        self._moves = (index, self._moves)
        self._play(legal[index])

    def apply_index(self, index: int) -> None:
        """Apply the action at ``index`` of the legal list."""
        legal = self._legal_cache or self.legal_actions()
        if not 0 <= index < len(legal):
            raise IllegalAction(self.to_move(), index, "action index out of range")
        self._legal_cache = None
        self._moves = (index, self._moves)
        self._play(legal[index])

    # -- copies ---------------------------------------------------------------------------
    def clone(self) -> Self:
        """An independent copy, made by the declared fields (see the class docstring)."""
        copier = _COPIERS.get(type(self)) or _copier(type(self))
        return copier(self)


# per state class: its clone function, written out field by field from the declarations
_COPIERS: dict[type, Callable[[Any], Any]] = {}


def _copier(cls: type[GameState]) -> Callable[[Any], Any]:
    """Compile ``cls``'s clone: one statement per declared copied field instead of a loop
    over the declarations on every call (the copy is a search's most frequent operation)."""
    names = [*declared_fields(cls, unique=False)]
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise TypeError(f"{cls.__name__} declares {', '.join(twice)} more than once")
    lines = [
        "def clone(self):",
        "    mine = self.__dict__",
        f"    if len(mine) != {len(names)}:",
        "        raise TypeError(undeclared(cls, mine))",
        "    self._rng_shared = True  # the RNG is shared until one side draws",
        "    copy = mine.copy()  # one block copy, then the copied fields replaced",
    ]
    lines += [f"    copy[{name!r}] = mine[{name!r}].copy()" for name in cls.COPIED]
    lines += [f"    copy[{name!r}] = copy_items(mine[{name!r}])" for name in cls.COPIED_ITEMS]
    lines += [
        f"    copy[{name!r}] = [[item.copy() for item in row] for row in mine[{name!r}]]"
        for name in cls.COPIED_GRIDS
    ]
    lines += ["    twin = new(cls)", "    twin.__dict__ = copy", "    return twin"]
    scope: dict[str, Any] = {
        "cls": cls,
        "new": cls.__new__,
        "undeclared": _undeclared,
        "copy_items": _copy_items,
    }
    exec("\n".join(lines), scope)  # the source holds only the declared identifiers
    copier: Callable[[Any], Any] = scope["clone"]
    _COPIERS[cls] = copier
    return copier


def _copy_items(value: list[Any] | dict[Any, Any]) -> list[Any] | dict[Any, Any]:
    if type(value) is dict:
        return {key: item.copy() for key, item in value.items()}
    return [item.copy() for item in value]


def declared_fields(cls: type[GameState], unique: bool = True) -> Sequence[str]:
    """Every attribute ``cls`` declares for :meth:`GameState.clone` (sorted when unique)."""
    names = (*cls._BASE_FIELDS, *cls.SHARED, *cls.COPIED, *cls.COPIED_ITEMS, *cls.COPIED_GRIDS)
    return sorted(set(names)) if unique else names


def _undeclared(cls: type[GameState], attributes: Mapping[str, Any]) -> str:
    declared = set(declared_fields(cls))
    extra = sorted(set(attributes) - declared)
    missing = sorted(declared - set(attributes))
    return (
        f"{cls.__name__}.clone: attributes not declared in SHARED, COPIED, COPIED_ITEMS or "
        "COPIED_GRIDS: "
        f"{extra or '-'}; declared but not set: {missing or '-'}"
    )


# -- what search needs ------------------------------------------------------------------

ActionKey = tuple[Any, ...]


def action_key(action: Action) -> ActionKey:
    """A canonical hashable key of an action: equal actions give equal keys.

    The key is the action's items sorted by name, lists and objects inside turned into
    tuples the same way, so it does not depend on the order the keys were written in.

    >>> action_key({"y": 1, "type": "place", "x": 0})
    (('type', 'place'), ('x', 0), ('y', 1))
    """
    items = [
        (name, value if type(value) in _PLAIN else _frozen(value)) for name, value in action.items()
    ]
    items.sort()
    return tuple(items)


_PLAIN = frozenset({int, str, float, bool, type(None)})  # values that are their own key


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


# -- what learning libraries need (the bridges in arena/bridges) ------------------------


class Encoding(Protocol):
    """A fixed numbering of the actions and a tensor of the observations, for one table
    (a player count and resolved options): ``engines.encoding(name, players, options)``,
    made by the engine's ``encoding.py``.

    ``num_actions`` is how many distinct action ids the table can have; ``action_id`` maps
    a legal action to its id in ``range(num_actions)``, given the observation of the seat
    to move (ids are unique within every legal list; the legal list itself keeps its
    meaning). The way back is :func:`action_of_id`. ``tensor`` turns one observation (the
    dict the protocol sends) into a flat float32 vector of ``size`` numbers; ``slices``
    names its parts in order (``(name, length, meaning)``; each engine's README lists
    them), so the tensor shows nothing the observation does not.
    """

    num_actions: int
    size: int
    slices: Sequence[tuple[str, int, str]]

    def action_id(self, observation: Mapping[str, Any], action: Action) -> int: ...
    def tensor(self, observation: Mapping[str, Any]) -> Any: ...


def legal_ids(
    encoding: Encoding, observation: Mapping[str, Any], legal: Sequence[Action]
) -> list[int]:
    """The ids of a legal list, in its order."""
    return [encoding.action_id(observation, action) for action in legal]


def action_of_id(
    encoding: Encoding, observation: Mapping[str, Any], legal: Sequence[Action], action_id: int
) -> Action:
    """The legal action whose id is ``action_id``; else :class:`IllegalAction`."""
    for action in legal:
        if encoding.action_id(observation, action) == action_id:
            return action
    raise IllegalAction(observation.get("seat"), action_id, "no legal action has this id")
