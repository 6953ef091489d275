"""The five games as OpenSpiel games, playing the engines themselves::

    import pyspiel
    import arena.bridges.openspiel  # registers arena_cat_yard, arena_good_boy, ...

    game = pyspiel.load_game("arena_cat_yard", {"players": 3, "options": '{"target": 15}'})
    state = game.new_initial_state()

Parameters: ``players`` (in the engine's range; default 2), ``options`` (the engine's
options as a JSON object, checked by the engine) and ``seed`` (default 0): the states of
one game object take their seeds, one per new game, from a generator seeded by it.
``game.new_initial_state_for_seed(s)`` starts the arena's game of seed ``s`` (the same
deal).

How the engines map onto OpenSpiel:

- **Chance** is sampled (``ChanceMode.SAMPLED_STOCHASTIC``): an engine draws its deals,
  dice and reshuffles from its own seeded generator inside ``apply``, as in the arena, so
  a state has no chance nodes. The hidden parts are not in any observation.
- **Actions** are the engine's fixed numbering (``engines.encoding``): ``num_distinct_
  actions`` ids, ``legal_actions()`` the ids of the legal list, ascending;
  ``action_to_string`` the protocol's action (JSON) while it is legal.
- **Observation** string and tensor of a seat: its protocol observation (compact JSON)
  and the engine's observation tensor (layout in its README). **Information state**: the
  seat's current observation after a digest (SHA-1) of every observation the seat was sent
  at its own decisions (the protocol's view: each carries the events since the seat last
  acted), so two histories the seat can tell apart give two strings. Its tensor is the
  observation tensor: the engines' observations keep what a seat remembers of hidden
  cards (e.g. Space Five's ``own_stack_bottom``), so it summarises the history, but it
  is not a perfect-recall encoding of it.
- **Returns** come at the end: ``2 * utility - 1`` per seat (``engines.base.utility``;
  zero-sum with two or more seats).
- ``resample_from_infostate(player, sampler)`` draws a state from the engine's
  ``sample_state`` (the seat's observations), seeded from ``sampler``; the seat's
  information state is kept, the other seats' start afresh in the sample.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

import engines
from arena.bridges import need
from engines.base import Action, Encoding, Engine, IllegalAction, State, legal_ids, utility

pyspiel = need("pyspiel", "openspiel", "open-spiel")

__all__ = ["GAMES", "MAX_GAME_LENGTH", "short_name"]

#: the most actions a game may take (engines.testing's play-outs assert each game ends
#: within 20,000 steps; every engine ends on its own caps)
MAX_GAME_LENGTH = 20_000


def short_name(engine: str) -> str:
    """OpenSpiel's name of an engine: ``cat-yard`` -> ``arena_cat_yard``."""
    return "arena_" + engine.replace("-", "_")


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class _Table:
    """A state's Python side: the engine's state and what each seat was shown.

    OpenSpiel clones a Python state by deep-copying its attributes; this one copies itself
    with the engine's fast ``clone`` and shares the game. The engine's state is made on
    first use, so the fresh state OpenSpiel makes before copying draws no seed."""

    def __init__(self, game: ArenaGame, seed: int | None = None) -> None:
        self.game = game
        self._state: State | None = None
        self._seed = seed
        players = game.players
        self.seen: list[list[dict[str, Any]]] = [[] for _ in range(players)]
        self.digests = [""] * players
        self._ids: dict[int, int] | None = None  # action id -> index in the legal list
        self._views: dict[int, dict[str, Any]] = {}  # seat -> its observation, until a move

    @property
    def state(self) -> State:
        if self._state is None:
            game = self.game
            seed = game.seeds.getrandbits(31) if self._seed is None else self._seed
            self._state = game.engine.new_game(game.players, seed, game.options)
        return self._state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        twin = _Table.__new__(_Table)
        twin.game = self.game
        twin._state = self.state.clone()
        twin._seed = None
        twin.seen = [seen[:] for seen in self.seen]
        twin.digests = self.digests[:]
        twin._ids = self._ids
        twin._views = self._views.copy()
        return twin

    def observation(self, seat: int) -> dict[str, Any]:
        """``seat``'s observation now (made once per move: OpenSpiel asks for each seat's
        strings and tensors separately)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.state.observation(seat)
        return view

    def ids(self) -> dict[int, int]:
        """The legal actions' ids (to their index in the legal list) of the seat to move."""
        if self._ids is None:
            state = self.state
            seat = state.to_move()
            if seat is None:
                self._ids = {}
            else:
                observation = self.observation(seat)
                found = legal_ids(self.game.encoding, observation, state.legal_actions())
                self._ids = {action_id: index for index, action_id in enumerate(found)}
        return self._ids

    def apply(self, action_id: int) -> None:
        state = self.state
        seat = state.to_move()
        index = self.ids().get(action_id)
        if seat is None or index is None:
            raise IllegalAction(seat, action_id, "no legal action has this id")
        observation = self.observation(seat)
        self.seen[seat].append(observation)
        text = self.digests[seat] + _compact(observation)
        self.digests[seat] = hashlib.sha1(text.encode()).hexdigest()
        self._ids = None
        self._views = {}
        state.apply_index(index)

    def action(self, action_id: int) -> Action | None:
        """The legal action with this id, or None."""
        index = self.ids().get(action_id)
        return None if index is None else self.state.legal_actions()[index]


class ArenaObserver:
    """OpenSpiel's Python observer of one seat: the engine's observation tensor, and the
    observation string (or, for perfect recall, the information-state string)."""

    def __init__(self, encoding: Encoding, perfect_recall: bool) -> None:
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoding.size, np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, length, _ in encoding.slices:
            self.dict[name] = self.tensor[at : at + length]
            at += length

    def set_from(self, state: ArenaState, player: int) -> None:
        self.tensor[:] = self.encoding.tensor(state.table.observation(player))

    def string_from(self, state: ArenaState, player: int) -> str:
        table = state.table
        text = _compact(table.observation(player))
        if self.perfect_recall:
            return f"seat {player} history {table.digests[player] or '-'} now {text}"
        return text


class ArenaState(pyspiel.State):  # type: ignore[name-defined]
    """One game of an arena engine, as an OpenSpiel state (see the module doc)."""

    def __init__(self, game: ArenaGame, seed: int | None = None) -> None:
        super().__init__(game)
        self.table = _Table(game, seed)

    def current_player(self) -> int:
        seat = self.table.state.to_move()
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.table.state.to_move():
            return []
        return sorted(self.table.ids())

    def _apply_action(self, action: int) -> None:
        self.table.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        found = self.table.action(int(action)) if player == self.table.state.to_move() else None
        return _compact(found) if found is not None else f"action {action}"

    def is_terminal(self) -> bool:
        return self.table.state.to_move() is None

    def returns(self) -> list[float]:
        state = self.table.state
        players = self.table.game.players
        if state.to_move() is not None:
            return [0.0] * players
        result = state.result()
        return [2.0 * utility(result, seat) - 1.0 for seat in range(players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ArenaState:
        """A state the seat cannot tell from this one, drawn by the engine's
        ``sample_state`` from the seat's observations (seeded from ``probability_sampler``,
        a callable giving a float in [0, 1) as OpenSpiel's samplers do)."""
        table = self.table
        game = table.game
        seen = [*table.seen[player_id], table.observation(player_id)]
        rng = random.Random(int(probability_sampler() * 2**53))
        sample = game.engine.sample_state(game.players, game.options, player_id, seen, rng)
        twin = ArenaState(game)
        twin.table._state = sample
        twin.table.seen[player_id] = table.seen[player_id][:]
        twin.table.digests[player_id] = table.digests[player_id]
        return twin

    def __str__(self) -> str:
        return self.table.state.render(None)


class ArenaGame(pyspiel.Game):  # type: ignore[name-defined]
    """An arena engine as an OpenSpiel game, for a player count and options (one subclass
    per engine, naming it in :attr:`engine_name`: OpenSpiel keeps a class as the maker of
    a registered game)."""

    engine_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        engine_name = self.engine_name
        spec = GAMES[engine_name]
        given = dict(params or {})
        self.engine: Engine = engines.get(engine_name)
        self.players = int(given.get("players", spec.default_players))
        self.options = self.engine.check(self.players, json.loads(given.get("options", "{}")))
        self.encoding = engines.encoding(engine_name, self.players, self.options)
        self.seeds = random.Random(int(given.get("seed", 0)))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None if spec.engine_solo else 0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(spec.game_type, info, given)

    def new_initial_state(self) -> ArenaState:
        """A new game, its seed the next of this game object's seeds."""
        return ArenaState(self)

    def new_initial_state_for_seed(self, seed: int) -> ArenaState:
        """The arena's game of ``seed``: the same deal as a league's game of that seed."""
        return ArenaState(self, seed)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> ArenaObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only a seat's own view (public and its private parts) is offered")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ArenaObserver(self.encoding, perfect_recall)


@dataclass(frozen=True)
class GameSpec:
    """One engine's registration: its OpenSpiel game type and default player count."""

    engine: str
    game_type: Any
    default_players: int
    engine_solo: bool  # a solo game is possible: general-sum (no utility sum)


def _game_type(engine: Engine, default_players: int) -> Any:
    solo = engine.min_players == 1
    return pyspiel.GameType(
        short_name=short_name(engine.name),
        long_name=f"{engine.title} (Tabletop Arena engine {engine.name} {engine.version})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.GENERAL_SUM if solo else pyspiel.GameType.Utility.ZERO_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=engine.max_players,
        min_num_players=engine.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": default_players, "options": "{}", "seed": 0},
    )


def _register() -> dict[str, GameSpec]:
    specs = {}
    for name in engines.names():
        engine = engines.get(name)
        default = max(2, engine.min_players)
        spec = GameSpec(name, _game_type(engine, default), default, engine.min_players == 1)
        specs[name] = spec
        # a class, not a closure: a registered closure crashes the interpreter at exit
        maker = type(f"ArenaGame_{name.replace('-', '_')}", (ArenaGame,), {"engine_name": name})
        if short_name(name) not in pyspiel.registered_names():
            pyspiel.register_game(spec.game_type, maker)
    return specs


#: every registered engine's OpenSpiel registration, by engine name
GAMES: dict[str, GameSpec] = {}
GAMES.update(_register())
