"""Space Five (Piątka z kosmosu, Reiner Knizia / Muduko 2024) for 1-4 players.

``ENGINE`` is the registered engine; rules live in :mod:`engines.space_five.rules`,
the data table in :mod:`engines.space_five.data`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Engine, EngineBase, OptionSpec
from engines.parts import Parts
from engines.space_five.catalog import catalog
from engines.space_five.data import value
from engines.space_five.rules import SpaceFiveState, deal_counts

__all__ = ["ENGINE", "SpaceFiveEngine", "SpaceFiveState"]


class SpaceFiveEngine(EngineBase):
    """Factory of Space Five games; 1 player is the solo mode."""

    name = "space-five"
    title = "Space Five (Piątka z kosmosu)"
    version = "4"
    min_players = 1
    max_players = 4
    parts = Parts(
        guide="engines.space_five.guide",
        picture="engines.space_five.svg",
        data="engines.space_five.data",
        sampling="engines.space_five.sampling",
        public="engines.space_five.public",
        greedy="bots.space_five_greedy",
        encoding="engines.space_five.encoding",
    )

    def option_specs(self) -> Mapping[str, OptionSpec]:
        return {
            "rounds": OptionSpec(
                default=value("default_rounds"),
                help="rounds played on fresh shuffles; lowest total of cards left wins",
                minimum=1,
                maximum=value("max_rounds"),
            ),
            "young": OptionSpec(
                default=False,
                help="young-player deal: 15 cards per player (2-4 players)",
                kind=bool,
            ),
            "deal_counts": OptionSpec(
                default=[],
                help="handicap: cards dealt to each seat, e.g. [49, 30]; [] = equal split",
                kind=list,
            ),
        }

    def catalog(self) -> dict[str, Any]:
        """Static data for bots, sent once in ``hello`` (see the README)."""
        return catalog()

    def check_more(self, players: int, options: Mapping[str, Any]) -> None:
        deal_counts(players, options)  # raises OptionError for a deal that does not fit

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> SpaceFiveState:
        return SpaceFiveState(players, seed, self.resolved(players, options))


ENGINE: Engine = SpaceFiveEngine()
