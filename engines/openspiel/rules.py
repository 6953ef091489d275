"""Any OpenSpiel game as an arena engine: one :class:`OpenSpielEngine` per engine name.

The name is ``openspiel:`` and OpenSpiel's own game string, parameters included
(``openspiel:leduc_poker(players=3)``). The engine has no ``[options]``: OpenSpiel's
parameters are part of the name. The player count comes from the league (a ``players``
parameter in the name fixes it).

A state wraps one ``pyspiel.State``:

- **Actions** are ``{"id": <OpenSpiel action id>, "name": <its action string>}``, in
  OpenSpiel's legal order.
- **Observations** carry the seat's ``observation`` string and ``observation_tensor``,
  its ``information_state`` string when the game has one, who is ``to_move`` (``None``
  once the game is over) and, in a game of perfect information only, the whole
  ``history`` of action ids (chance outcomes included: nothing is hidden there).
- **Chance** is drawn from the state's seeded :class:`random.Random`: one ``random()`` per
  chance node, mapped onto OpenSpiel's outcome list in its order, so a seed and the chosen
  actions replay a game exactly, and every rotation of a block (one seed) gets the same
  outcomes at the same chance nodes.
- **Simultaneous** games are played turn by turn (OpenSpiel's own
  ``load_game_as_turn_based``); the later seats of a round do not see the earlier moves.
- **determinize** uses OpenSpiel's ``resample_from_infostate``; a game of perfect
  information needs none (only future chance is redrawn); an imperfect-information game
  without it raises :class:`~engines.base.EngineError` saying so.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pyspiel

from engines.base import (
    Action,
    CannotSample,
    EngineBase,
    GameState,
    OptionError,
    OptionSpec,
    Result,
    ranks_from_scores,
)
from engines.openspiel.encoding import OpenSpielEncoding
from engines.parts import Parts

PREFIX = "openspiel:"
CHANCE = int(pyspiel.PlayerId.CHANCE)
PERFECT = pyspiel.GameType.Information.PERFECT_INFORMATION
SIMULTANEOUS = pyspiel.GameType.Dynamics.SIMULTANEOUS
SEQUENTIAL = pyspiel.GameType.Dynamics.SEQUENTIAL
EXPLICIT = (
    pyspiel.GameType.ChanceMode.DETERMINISTIC,
    pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence file descriptor 2 around a call that may fail: OpenSpiel writes each error
    to stderr itself before raising it, and the arena says it once, in its own words."""
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _why(exc: Exception) -> str:
    """OpenSpiel's error message, one line, without its trailing list of nothing."""
    return " ".join(str(exc).split()).removesuffix(" Available parameters are:")


class OpenSpielEngine(EngineBase):
    """The engine for one OpenSpiel game string (see the module docstring)."""

    parts = Parts(
        guide="engines.openspiel.guide",
        picture="engines.openspiel.svg",
        data="engines.openspiel.data",
        sampling="engines.openspiel.sampling",
    )

    def __init__(self, name: str) -> None:
        spec = name.removeprefix(PREFIX)
        try:
            with _quiet():
                params = dict(pyspiel.game_parameters_from_string(spec))
        except pyspiel.SpielError as exc:
            raise ValueError(f"{name}: OpenSpiel cannot read it: {_why(exc)}") from None
        short = params.pop("name")
        if short not in pyspiel.registered_names():
            raise ValueError(
                f"{name}: OpenSpiel has no game {short!r} "
                "(its names: python -c 'import pyspiel; print(pyspiel.registered_names())')"
            )
        self.name = name
        self._short = short
        self._params = params
        game = self._load(params)
        kind = game.get_type()
        if kind.dynamics not in (SEQUENTIAL, SIMULTANEOUS) or kind.chance_mode not in EXPLICIT:
            raise ValueError(
                f"{name}: only sequential or simultaneous games with explicit chance can be "
                f"hosted ({kind.dynamics.name}, {kind.chance_mode.name})"
            )
        self.title = f"{kind.long_name} (OpenSpiel)"
        self.version = importlib.metadata.version("open_spiel")
        self.perfect = kind.information == PERFECT
        # what OpenSpiel builds for a seat (asked once: get_type() makes a new object)
        self.strings = kind.provides_observation_string
        self.infostates = kind.provides_information_state_string
        self.tensors = kind.provides_observation_tensor
        if "players" in params or "players" not in kind.parameter_specification:
            self.min_players = self.max_players = game.num_players()
        else:
            self.min_players, self.max_players = kind.min_num_players, kind.max_num_players
        self._games: dict[int, Any] = {game.num_players(): game}
        self._resamples: bool | None = None  # learnt on first use

    def _load(self, params: Mapping[str, Any]) -> Any:
        try:
            with _quiet():
                game = pyspiel.load_game(self._short, dict(params))
        except pyspiel.SpielError as exc:
            raise ValueError(f"{self.name}: OpenSpiel refuses it: {_why(exc)}") from None
        if game.get_type().dynamics == SIMULTANEOUS:
            game = pyspiel.convert_to_turn_based(game)
        return game

    def game(self, players: int) -> Any:
        """The ``pyspiel.Game`` of ``players`` seats (loaded once)."""
        game = self._games.get(players)
        if game is None:
            try:
                game = self._games[players] = self._load({**self._params, "players": players})
            except ValueError as exc:
                raise OptionError(str(exc)) from None
        return game

    def option_specs(self) -> Mapping[str, OptionSpec]:
        return {}

    def check(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        if options:
            raise OptionError(
                f"{self.name} takes no options: OpenSpiel's parameters go into the engine "
                f"name, as in openspiel:{self._short}({next(iter(options))}=...)"
            )
        return super().check(players, options)

    def check_more(self, players: int, options: Mapping[str, Any]) -> None:
        self.game(players)

    def catalog(self) -> dict[str, Any]:
        """The game's facts as OpenSpiel states them (sent to every bot in ``hello``)."""
        game = next(iter(self._games.values()))
        return {
            "openspiel": {
                "game": self._short,
                "parameters": dict(game.get_parameters()),
                "num_distinct_actions": game.num_distinct_actions(),
                "observation_tensor_shape": list(game.observation_tensor_shape())
                if game.get_type().provides_observation_tensor
                else [],
                "max_game_length": game.max_game_length(),
                "perfect_information": self.perfect,
            }
        }

    def encoding(self, players: int, options: Mapping[str, Any]) -> OpenSpielEncoding:
        """OpenSpiel's action ids and observation tensor for a table of ``players``
        (``engines.base.Encoding``; see :mod:`.encoding`)."""
        return OpenSpielEncoding(self.game(players))

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> OpenSpielState:
        return OpenSpielState(self, self.game(players), seed)

    def resamples(self, state: Any, seat: int) -> bool:
        """Whether OpenSpiel's ``resample_from_infostate`` works for this game (tried once:
        OpenSpiel says so only by failing)."""
        if self._resamples is None:
            try:
                with _quiet():
                    state.resample_from_infostate(seat, random.Random(0).random)
                self._resamples = True
            except pyspiel.SpielError:
                self._resamples = False
        return self._resamples


def _draw(outcomes: Sequence[tuple[int, float]], uniform: float) -> int:
    """The chance outcome that ``uniform`` (in [0, 1)) falls on, in OpenSpiel's order."""
    for action, probability in outcomes:
        uniform -= probability
        if uniform < 0:
            return int(action)
    return int(outcomes[-1][0])  # the probabilities summed to a little under 1


class OpenSpielState(GameState):
    """One OpenSpiel game in progress (see the module docstring)."""

    SHARED = ("engine", "game", "_state")  # _state: cloned by clone() below

    def __init__(self, engine: OpenSpielEngine, game: Any, seed: int) -> None:
        super().__init__(seed)
        self.engine = engine
        self.game = game
        self._state = game.new_initial_state()
        self._chance()

    @classmethod
    def wrap(cls, engine: OpenSpielEngine, state: Any, rng: random.Random) -> OpenSpielState:
        """A state around ``state`` (a ``pyspiel.State`` of ``engine``), future chance
        drawn from a generator seeded by ``rng``."""
        self = cls.__new__(cls)
        GameState.__init__(self, 0)
        self._reseed(rng)
        self.engine = engine
        self.game = state.get_game()
        self._state = state
        self._chance()
        return self

    @property
    def spiel(self) -> Any:
        """The wrapped ``pyspiel.State`` (do not change it)."""
        return self._state

    def clone(self) -> OpenSpielState:
        twin = super().clone()
        twin._state = self._state.clone()
        return twin

    def _chance(self) -> None:
        state = self._state
        while state.is_chance_node():
            state.apply_action(_draw(state.chance_outcomes(), self.rng.random()))

    def to_move(self) -> int | None:
        if self._state.is_terminal():
            return None
        return int(self._state.current_player())

    def _legal(self) -> list[Action]:
        state = self._state
        seat = state.current_player()
        return [{"id": a, "name": state.action_to_string(seat, a)} for a in state.legal_actions()]

    def _play(self, action: Action) -> None:
        self._state.apply_action(action["id"])
        self._chance()

    def observation(self, seat: int) -> dict[str, Any]:
        state, engine = self._state, self.engine
        view: dict[str, Any] = {"seat": seat, "to_move": self.to_move()}
        if engine.strings:
            view["observation"] = state.observation_string(seat)
        if engine.infostates:
            view["information_state"] = state.information_state_string(seat)
            view.setdefault("observation", view["information_state"])
        if engine.tensors:
            view["observation_tensor"] = list(state.observation_tensor(seat))
        if engine.perfect:
            view["history"] = list(state.history())
        return view

    def result(self) -> Result:
        state = self._state
        returns = [float(r) for r in state.returns()]
        over = state.is_terminal()
        chance = [int(step.action) for step in state.full_history() if step.player == CHANCE]
        return Result(
            scores=returns,
            ranks=ranks_from_scores(returns),
            detail={"end": "terminal" if over else "unfinished", "chance": chance},
        )

    def determinize(self, seat: int, rng: random.Random) -> OpenSpielState:
        state = self._state
        if self.engine.perfect or state.is_terminal():
            twin = self.clone()
            twin._reseed(rng)  # only future chance is unknown
            return twin
        if not self.engine.resamples(state, seat):
            raise CannotSample(
                f"{self.engine.name}: OpenSpiel offers no resample_from_infostate for this "
                "game, so a seat's hidden information cannot be redrawn"
            )
        drawn = state.resample_from_infostate(seat, rng.random)
        twin = OpenSpielState.wrap(self.engine, drawn, rng)
        twin._moves = self._moves
        return twin

    def describe(self, action: Action) -> str:
        return f"seat {self.to_move()}: {action['name']}"

    def render(self, seat: int | None) -> str:
        if seat is None:
            return str(self._state)
        return str(self.observation(seat).get("observation", ""))
