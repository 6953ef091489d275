"""Tabletop Arena: a tournament referee for tabletop-game bots.

The public Python API (``tests/test_exports.py`` pins it)::

    from pathlib import Path

    import trio, arena

    league = arena.load_league("configs/demo.toml")
    outcome = trio.run(lambda: arena.run_league(league, Path("results/demo"), jobs=2))
    standings = arena.rate_folder("results/demo")           # as `arena standings` rates it
    print(arena.render_standings(standings, "table"))        # and prints it
    games = arena.read_games("results/demo")                 # GameRecords
    record = arena.play_local("space-five", [choose_a, choose_b], seed=7)

Names are imported on first use, so ``import arena.sdk`` in a bot stays cheap.
"""

from __future__ import annotations

import importlib

# typing is not imported here: a Ctrl-C before arena.cli imports arena.early_stop prints a
# traceback, so the package, the first module the command loads, imports nothing slow
TYPE_CHECKING = False

__version__ = "0.1.0"

# public name -> (module, attribute)
_EXPORTS: dict[str, tuple[str, str]] = {
    "ArenaError": ("arena.errors", "ArenaError"),
    "ConfigError": ("arena.errors", "ConfigError"),
    "GameRecord": ("arena.record", "GameRecord"),
    "LeagueConfig": ("arena.config", "LeagueConfig"),
    "LeagueOutcome": ("arena.league.driver", "LeagueOutcome"),
    "RecordError": ("arena.errors", "RecordError"),
    "ResultsError": ("arena.errors", "ResultsError"),
    "SeatRecord": ("arena.record", "SeatRecord"),
    "Standings": ("arena.stats.ratings", "Standings"),
    "UserError": ("arena.errors", "UserError"),
    "compute_standings": ("arena.stats.ratings", "compute_standings"),
    "load_league": ("arena.config", "load"),
    "play_local": ("arena.game.local", "play_local"),
    "rate_folder": ("arena.league.standings", "rate_folder"),
    "read_games": ("arena.league.reading", "read_games"),
    "render_standings": ("arena.show.tables", "render"),
    "run_league": ("arena.league.runner", "run_league"),
}

__all__ = [
    "ArenaError",
    "ConfigError",
    "GameRecord",
    "LeagueConfig",
    "LeagueOutcome",
    "RecordError",
    "ResultsError",
    "SeatRecord",
    "Standings",
    "UserError",
    "__version__",
    "compute_standings",
    "load_league",
    "play_local",
    "rate_folder",
    "read_games",
    "render_standings",
    "run_league",
]

if TYPE_CHECKING:
    from typing import Any

    from arena.config import LeagueConfig
    from arena.config import load as load_league
    from arena.errors import ArenaError, ConfigError, RecordError, ResultsError, UserError
    from arena.game.local import play_local
    from arena.league.driver import LeagueOutcome
    from arena.league.reading import read_games
    from arena.league.runner import run_league
    from arena.league.standings import rate_folder
    from arena.record import GameRecord, SeatRecord
    from arena.show.tables import render as render_standings
    from arena.stats.ratings import Standings, compute_standings


def __getattr__(name: str) -> Any:
    try:
        module, attribute = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'arena' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value
