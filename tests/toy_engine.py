"""A tiny engine for referee and league tests: players take 1 or 2 from a shared pile.

Each seat also holds a secret number dealt from the seed (hidden from the others). Whoever
takes the last counter wins; everyone else shares second place.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import Action, GameState, OptionSpec, Result, derive_rng, resolve_options


class ToyState(GameState):
    def __init__(self, players: int, seed: int, pile: int) -> None:
        super().__init__()
        self.players = players
        self.pile = pile
        self.turn = 0
        self.winner: int | None = None
        rng = derive_rng(seed, "deal")
        self.secrets = [rng.randrange(100) for _ in range(players)]

    def to_move(self) -> int | None:
        return None if self.winner is not None else self.turn

    def _legal(self) -> list[Action]:
        return [{"type": "take", "n": n} for n in (1, 2) if n <= self.pile]

    def _play(self, action: Action) -> None:
        self.pile -= action["n"]
        if self.pile == 0:
            self.winner = self.turn
        self.turn = (self.turn + 1) % self.players

    def observation(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "pile": self.pile, "secret": self.secrets[seat]}

    def result(self) -> Result:
        scores = [1.0 if seat == self.winner else 0.0 for seat in range(self.players)]
        return Result(scores, [1 if s else 2 for s in scores])

    def determinize(self, seat: int, rng: random.Random) -> ToyState:
        twin = self.clone()
        assert isinstance(twin, ToyState)
        for other in range(self.players):
            if other != seat:
                twin.secrets[other] = rng.randrange(100)
        return twin

    def describe(self, action: Action) -> str:
        return f"seat {self.turn} takes {action['n']}"

    def render(self, seat: int | None) -> str:
        return f"pile: {self.pile}"


class ToyEngine:
    name = "toy"
    title = "Toy pile"
    version = "1"
    min_players = 2
    max_players = 4

    def option_specs(self) -> Mapping[str, OptionSpec]:
        return {"pile": OptionSpec(21, "counters in the pile", int, minimum=1, maximum=1000)}

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> ToyState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"toy takes 2..4 players, got {players}")
        return ToyState(players, seed, resolve_options(self.option_specs(), options)["pile"])

    def sample_state(
        self,
        players: int,
        options: Mapping[str, Any],
        seat: int,
        observations: Sequence[dict[str, Any]],
        rng: random.Random,
    ) -> ToyState:
        """The pile and the seat's secret as observed; the other secrets drawn at random."""
        state = ToyState(players, 0, observations[-1]["pile"])
        state.turn = seat
        state.secrets = [rng.randrange(100) for _ in range(players)]
        state.secrets[seat] = observations[-1]["secret"]
        return state


ENGINE = ToyEngine()
