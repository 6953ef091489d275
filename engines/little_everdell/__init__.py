"""My Lil' Everdell: worker placement and tableau building for 1-4 bots (1 = solo vs automa).

See README.md in this package for the rules summary, options, observation and actions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import OptionError, OptionSpec, SampleMemo, State, derive_rng, resolve_options
from engines.little_everdell import sampling
from engines.little_everdell.rules import PRINCE, PRINCESS, LittleEverdellState

__all__ = ["ENGINE", "LittleEverdellEngine", "LittleEverdellState"]

_SEAT_LISTS = ("start_bonus", "start_captain", "start_fort")


_SAMPLES = SampleMemo()  # sample_state's rebuilt table (see SampleMemo)


class LittleEverdellEngine:
    name = "little-everdell"
    title = "My Lil' Everdell (Moje małe Everdell)"
    version = "3"
    min_players = 1
    max_players = 4

    def option_specs(self) -> Mapping[str, OptionSpec]:
        return {
            "opponent": OptionSpec(
                "auto",
                "automa: auto (Prince when solo, none otherwise), prince (solo, or joining "
                "2-3 bots), princess (solo only), none (2-4 bots)",
                kind=str,
                choices=("auto", PRINCE, PRINCESS, "none"),
            ),
            "start_bonus": OptionSpec(
                [], "seats starting with 1 berry, 1 twig, 1 resin (young-player handicap)", list
            ),
            "start_captain": OptionSpec([], "seats starting with a Captain card", list),
            "start_fort": OptionSpec([], "seats starting with a Fort card", list),
            "automa_first": OptionSpec(False, "solo challenge: automa first every round", bool),
            "automa_captain_fort": OptionSpec(
                False, "challenge: the automa starts with a Captain and a Fort", bool
            ),
            "automa_instant_parades": OptionSpec(
                False, "challenge: the automa takes parades right after each card", bool
            ),
        }

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> LittleEverdellState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"little-everdell needs 1 to 4 players, got {players}")
        opts = resolve_options(self.option_specs(), options)
        automa = _automa(players, opts["opponent"])
        if automa is None and (opts["automa_captain_fort"] or opts["automa_instant_parades"]):
            raise OptionError("automa challenges need an automa (solo or opponent='prince')")
        if opts["automa_first"] and players != 1:
            raise OptionError("option 'automa_first' is a solo challenge (1 player only)")
        seats = {name: _seat_set(name, opts[name], players) for name in _SEAT_LISTS}
        return LittleEverdellState(
            players,
            derive_rng(seed, "little-everdell"),
            automa=automa,
            automa_first=opts["automa_first"],
            automa_captain_fort=opts["automa_captain_fort"],
            instant_parades=opts["automa_instant_parades"],
            start_bonus=seats["start_bonus"],
            start_captain=seats["start_captain"],
            start_fort=seats["start_fort"],
        )

    def sample_state(
        self,
        players: int,
        options: Mapping[str, Any],
        seat: int,
        observations: Sequence[dict[str, Any]],
        rng: random.Random,
    ) -> State:
        """A state consistent with what ``seat`` observed (see ``sampling.py``); the table is
        rebuilt once per list of observations, each call draws the hidden parts afresh."""
        return _SAMPLES.sample(
            seat,
            observations,
            rng,
            lambda: sampling.sample_state(
                self.new_game(players, 0, options), seat, observations, rng
            ),
        )


def _automa(players: int, opponent: str) -> str | None:
    """Which automa plays, from the player count and the ``opponent`` option."""
    if players == 1:
        if opponent == "none":
            raise OptionError("a 1-player game needs an automa: opponent 'prince' or 'princess'")
        return PRINCESS if opponent == PRINCESS else PRINCE
    if opponent == PRINCESS:
        raise OptionError("Princess Coltsfoot plays only solo (1 player)")
    if opponent == PRINCE and players > 3:
        raise OptionError("the Prince joins games of 2 or 3 players only")
    return PRINCE if opponent == PRINCE else None


def _seat_set(name: str, value: list[Any], players: int) -> frozenset[int]:
    seats = frozenset(value)
    valid = all(isinstance(s, int) and not isinstance(s, bool) for s in value)
    if not valid or len(seats) != len(value) or not seats <= set(range(players)):
        raise OptionError(f"option {name!r} must list distinct seats 0..{players - 1}, got {value}")
    return seats


ENGINE = LittleEverdellEngine()
