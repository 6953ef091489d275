"""My Lil' Everdell: worker placement and tableau building for 1-4 bots (1 = solo vs automa).

See README.md in this package for the rules summary, options, observation and actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Engine, EngineBase, OptionError, OptionSpec
from engines.little_everdell.catalog import catalog
from engines.little_everdell.rules import PRINCE, PRINCESS, LittleEverdellState
from engines.parts import Parts

__all__ = ["ENGINE", "LittleEverdellEngine", "LittleEverdellState"]

_SEAT_LISTS = ("start_bonus", "start_captain", "start_fort")


class LittleEverdellEngine(EngineBase):
    name = "little-everdell"
    title = "My Lil' Everdell (Moje małe Everdell)"
    version = "4"
    min_players = 1
    max_players = 4
    parts = Parts(
        guide="engines.little_everdell.guide",
        picture="engines.little_everdell.svg",
        data="engines.little_everdell.data",
        sampling="engines.little_everdell.sampling",
        public="engines.little_everdell.public",
        greedy="bots.little_everdell_greedy",
        encoding="engines.little_everdell.encoding",
    )

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

    def catalog(self) -> dict[str, Any]:
        """Static data for bots, sent once in ``hello`` (see the README)."""
        return catalog()

    def check_more(self, players: int, options: Mapping[str, Any]) -> None:
        opponent = options["opponent"]
        if players == 1 and opponent == "none":
            raise OptionError("a 1-player game needs an automa: opponent 'prince' or 'princess'")
        if players > 1 and opponent == PRINCESS:
            raise OptionError("Princess Coltsfoot plays only solo (1 player)")
        if opponent == PRINCE and players > 3:
            raise OptionError("the Prince joins games of 2 or 3 players only")
        automa = _automa(players, opponent)
        if automa is None and (options["automa_captain_fort"] or options["automa_instant_parades"]):
            raise OptionError("automa challenges need an automa (solo or opponent='prince')")
        if options["automa_first"] and players != 1:
            raise OptionError("option 'automa_first' is a solo challenge (1 player only)")
        for name in _SEAT_LISTS:
            _seat_set(name, options[name], players)

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> LittleEverdellState:
        options = self.resolved(players, options)
        seats = {name: _seat_set(name, options[name], players) for name in _SEAT_LISTS}
        return LittleEverdellState(
            players,
            seed,
            automa=_automa(players, options["opponent"]),
            automa_first=options["automa_first"],
            automa_captain_fort=options["automa_captain_fort"],
            instant_parades=options["automa_instant_parades"],
            start_bonus=seats["start_bonus"],
            start_captain=seats["start_captain"],
            start_fort=seats["start_fort"],
        )


def _automa(players: int, opponent: str) -> str | None:
    """Which automa plays, from the player count and the (checked) ``opponent`` option."""
    if players == 1:
        return PRINCESS if opponent == PRINCESS else PRINCE
    return PRINCE if opponent == PRINCE else None


def _seat_set(name: str, value: list[Any], players: int) -> frozenset[int]:
    seats = frozenset(value)
    valid = all(isinstance(s, int) and not isinstance(s, bool) for s in value)
    if not valid or len(seats) != len(value) or not seats <= set(range(players)):
        raise OptionError(f"option {name!r} must list distinct seats 0..{players - 1}, got {value}")
    return seats


ENGINE: Engine = LittleEverdellEngine()
