"""Cat Yard: lure cats from a shared yard with bait cards gathered push-your-luck style.

2-4 players. The printed game's title and card data are unknown: the bait cards and cat
tiles are designed (see :mod:`engines.cat_yard.data` and ``README.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Engine, EngineBase, OptionSpec
from engines.cat_yard.catalog import catalog
from engines.cat_yard.data import COUNTS
from engines.cat_yard.rules import CatYardState
from engines.parts import Parts

__all__ = ["ENGINE", "CatYardEngine", "CatYardState"]

_OPTIONS: Mapping[str, OptionSpec] = {
    "target": OptionSpec(
        default=COUNTS["target_points"][0],
        help="points that trigger the end of the game (rulebook: 10; the longer game: 15)",
        kind=int,
        minimum=1,
        maximum=76,
    ),
}


class CatYardEngine(EngineBase):
    """The Cat Yard rules engine (spec: docs/rules/cat-yard.md)."""

    name = "cat-yard"
    title = "Cat Yard (working title; the printed title is unknown)"
    version = "3"
    min_players = 2
    max_players = 4
    parts = Parts(
        guide="engines.cat_yard.guide",
        picture="engines.cat_yard.svg",
        data="engines.cat_yard.data",
        sampling="engines.cat_yard.sampling",
        public="engines.cat_yard.public",
        greedy="bots.cat_yard_greedy",
        encoding="engines.cat_yard.encoding",
    )

    def option_specs(self) -> Mapping[str, OptionSpec]:
        return _OPTIONS

    def catalog(self) -> dict[str, Any]:
        """Static data for bots, sent once in ``hello`` (see the README)."""
        return catalog()

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> CatYardState:
        return CatYardState(players, self.resolved(players, options)["target"], seed)


ENGINE: Engine = CatYardEngine()
