"""The five games as PettingZoo AEC environments, playing the engines themselves::

    from arena.bridges.pettingzoo import env

    e = env("cat-yard", players=3, options={"target": 15})
    e.reset(seed=7)  # the deal of the arena's game with seed 7
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else e.action_space(agent).sample(mask)
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (the engine's seats). An observation is
``{"observation": tensor, "action_mask": mask}``: the engine's observation tensor of that
seat (``engines.encoding``; its layout is in the engine's README) and, for the seat to
move, 1 at the ids of its legal actions (all 0 for the others). An action is an id of the
engine's fixed numbering. ``reset(seed=s)`` deals exactly as the arena deals the game with
seed ``s`` (``engine.new_game(players, s, options)``); a reset without a seed continues
the sequence of seeds of the last seeded reset. The reward comes once, at the end:
``2 * utility - 1`` per seat (``engines.base.utility``: rank-based, 1 alone first, -1
alone last; zero-sum with two or more seats). At the end ``info["result"]`` is the
engine's result (scores, ranks, detail); ``e.state`` is the engine's state itself (its
``observation(seat)`` is the protocol's dict). No game is truncated: every
engine ends on its own caps.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

import engines
from arena.bridges import need
from engines.base import Action, IllegalAction, State, action_of_id, legal_ids, utility

need("pettingzoo", "pettingzoo", "pettingzoo")

from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

__all__ = ["ArenaEnv", "env"]


class ArenaEnv(AECEnv):
    """One of the arena's engines as a PettingZoo AEC environment (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.engine = engines.get(game)
        self.options = self.engine.check(players, dict(options or {}))
        self.players = players
        self.encoding = engines.encoding(game, players, self.options)
        self.metadata = {**ArenaEnv.metadata, "name": f"arena_{game.replace('-', '_')}"}  # type: ignore[misc]
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        size, count = self.encoding.size, self.encoding.num_actions
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (count,), np.int8),
            }
        )
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.state: State | None = None
        self._legal: list[Action] = []
        self._ids: list[int] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: with ``seed``, the arena's game of that seed (``options`` is not
        used: the engine's options are fixed by :func:`env`)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(31)
        self.state = self.engine.new_game(self.players, game_seed, self.options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._next()

    def _next(self) -> None:
        """Select the seat to move, with its legal list and ids."""
        state = self._state()
        seat = state.to_move()
        if seat is None:
            self._legal, self._ids = [], []
            return
        self._legal = state.legal_actions()
        self._ids = legal_ids(self.encoding, state.observation(seat), self._legal)
        self.agent_selection = self.possible_agents[seat]

    def _state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state

    def observe(self, agent: str) -> dict[str, Any]:
        state = self._state()
        seat = self.possible_agents.index(agent)
        observation = state.observation(seat)
        mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        if seat == state.to_move():
            mask[self._ids] = 1
        return {"observation": self.encoding.tensor(observation), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(self.possible_agents.index(agent), action, "no action given")
        state = self._state()
        chosen = int(action)
        if chosen not in self._ids:
            raise IllegalAction(state.to_move(), chosen, "action id not in the action mask")
        self._cumulative_rewards[agent] = 0.0
        state.apply(self._legal[self._ids.index(chosen)])
        if state.to_move() is None:
            result = state.result()
            for seat, name in enumerate(self.agents):
                self.rewards[name] = 2.0 * utility(result, seat) - 1.0
                self.terminations[name] = True
                self.infos[name] = {"result": result.to_json()}
            self._accumulate_rewards()
            self._legal, self._ids = [], []
            return
        self._clear_rewards()
        self._next()

    def legal_action(self, action_id: int) -> Action:
        """The legal action (the protocol's dict) of the seat to move with this id."""
        state = self._state()
        seat = state.to_move()
        if seat is None:
            raise IllegalAction(None, action_id, "the game is over")
        return action_of_id(self.encoding, state.observation(seat), self._legal, action_id)

    def render(self) -> str | None:
        state = self._state()
        text = state.render(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.state = None


def env(
    game: str,
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
) -> ArenaEnv:
    """A PettingZoo AEC environment playing engine ``game`` (options checked here)."""
    return ArenaEnv(game, players, options, render_mode)
