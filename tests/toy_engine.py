"""A tiny engine for referee and league tests: players take 1 or 2 from a shared pile.

Each seat also holds a secret number dealt from the seed (hidden from the others). Whoever
takes the last counter wins; everyone else shares second place. It is the template that
``docs/adding-a-game.md`` walks through: a whole engine on the shared base in one file,
with only the required parts (no guide, picture, data, sampling module, public module or
greedy bot: ``engines.parts``), so the tests also show every command working without them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import Action, Engine, EngineBase, EventLog, GameState, OptionSpec, Result


class ToyState(GameState):
    """One game: the pile, whose turn it is, the secrets and the public events."""

    SHARED = ("players", "pile", "turn", "winner")
    COPIED = ("secrets", "log")

    def __init__(self, players: int, seed: int, pile: int) -> None:
        super().__init__(seed, "deal")
        self.players = players
        self.pile = pile
        self.turn = 0
        self.winner: int | None = None
        self.secrets = [self.rng.randrange(100) for _ in range(players)]
        self.log = EventLog(players)

    def to_move(self) -> int | None:
        return None if self.winner is not None else self.turn

    def _legal(self) -> list[Action]:
        return [{"type": "take", "n": n} for n in (1, 2) if n <= self.pile]

    def _play(self, action: Action) -> None:
        self.log.mark(self.turn)  # the seat's next view starts after its own action
        self.log.append([self.turn, action["n"]])
        self.pile -= action["n"]
        if self.pile == 0:
            self.winner = self.turn
        self.turn = (self.turn + 1) % self.players

    def observation(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "pile": self.pile,
            "secret": self.secrets[seat],
            "events": self.log.since(seat),
        }

    def result(self) -> Result:
        scores = [1.0 if seat == self.winner else 0.0 for seat in range(self.players)]
        end = "unfinished" if self.winner is None else "last_taken"
        return Result(scores, [1 if s else 2 for s in scores], {"end": end})

    def determinize(self, seat: int, rng: random.Random) -> ToyState:
        twin = self.clone()
        for other in range(self.players):
            if other != seat:
                twin.secrets[other] = rng.randrange(100)
        twin._reseed(rng)
        return twin

    def describe(self, action: Action) -> str:
        return f"seat {self.turn} takes {action['n']}"

    def render(self, seat: int | None) -> str:
        return f"pile: {self.pile}"


class ToyEngine(EngineBase):
    name = "toy"
    title = "Toy pile"
    version = "1"
    min_players = 2
    max_players = 4

    def option_specs(self) -> Mapping[str, OptionSpec]:
        return {"pile": OptionSpec(21, "counters in the pile", int, minimum=1, maximum=1000)}

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> ToyState:
        return ToyState(players, seed, self.resolved(players, options)["pile"])

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


ENGINE: Engine = ToyEngine()
