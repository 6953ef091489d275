"""Good Boy (Trefl, 2022): push-your-luck dice and dog collecting for 2-4 players.

See ``README.md`` beside this file for the rules summary, options, observation and actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Engine, EngineBase, OptionSpec
from engines.good_boy import data
from engines.good_boy.catalog import catalog
from engines.good_boy.rules import VARIANTS, GoodBoyState
from engines.parts import Parts

__all__ = ["ENGINE", "GoodBoyEngine", "GoodBoyState"]

_TOTAL_POINTS = sum(points for _id, _breed, points, _needs, _src in data.CARDS)


class GoodBoyEngine(EngineBase):
    """The engine object registered as ``good-boy``."""

    name = "good-boy"
    title = "Good Boy"
    version = "2"
    min_players = 2
    max_players = 4
    parts = Parts(
        guide="engines.good_boy.guide",
        picture="engines.good_boy.svg",
        data="engines.good_boy.data",
        sampling="engines.good_boy.sampling",
        public="engines.good_boy.public",
        greedy="bots.good_boy_greedy",
        encoding="engines.good_boy.encoding",
    )

    def option_specs(self) -> Mapping[str, OptionSpec]:
        return {
            "variant": OptionSpec(
                "standard",
                "standard (dog/cat token: second cat in a turn busts) or hard (no token; "
                "cats ignored on the first roll, any cat on a later roll busts)",
                kind=str,
                choices=VARIANTS,
            ),
            "target_points": OptionSpec(
                data.TARGET_POINTS,
                "points that trigger the end of the game (the round is finished); designed",
                minimum=1,
                maximum=_TOTAL_POINTS,
            ),
            "max_rounds": OptionSpec(
                data.MAX_ROUNDS,
                "safety cap: the game ends after this round whatever the scores; designed",
                minimum=1,
                maximum=1000,
            ),
        }

    def catalog(self) -> dict[str, Any]:
        """Static data for bots, sent once in ``hello`` (see the README)."""
        return catalog()

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> GoodBoyState:
        return GoodBoyState(players, seed, self.resolved(players, options))


ENGINE: Engine = GoodBoyEngine()
