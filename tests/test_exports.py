"""Pin the public surfaces that bots, engines and other tools build on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import arena
import engines
import engines.base
import engines.openspiel
import engines.testing
from arena import errors, protocol


def test_public_api_of_arena() -> None:
    assert arena.__all__ == [
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
    for name in arena.__all__:
        assert getattr(arena, name) is not None
    assert sorted(arena._EXPORTS) == sorted(set(arena.__all__) - {"__version__"})
    assert arena.load_league is arena.config.load
    assert issubclass(arena.RecordError, arena.ResultsError)


def test_read_games_takes_a_folder_as_a_string_too(tmp_path: Path) -> None:
    from tests.ratings_sim import simulate_league

    records = simulate_league([1400.0, 1600.0], players=2, blocks=2, seed=1)
    (tmp_path / "games.jsonl").write_bytes(b"".join(r.to_json() for r in records))
    assert arena.read_games(str(tmp_path)) == arena.read_games(tmp_path) == records


def test_a_bot_importing_the_sdk_loads_no_referee() -> None:
    """The API is imported on first use: ``import arena.sdk`` (every Python bot) stays cheap."""
    code = "import sys, arena.sdk; print(sorted(m for m in sys.modules if m.startswith('arena')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['arena', 'arena.errors', 'arena.protocol', 'arena.sdk']"


def test_engine_contract_exports() -> None:
    assert sorted(engines.base.__all__) == [
        "Action",
        "ActionKey",
        "CannotSample",
        "Encoding",
        "Engine",
        "EngineBase",
        "EngineError",
        "EventLog",
        "GameState",
        "IllegalAction",
        "JsonList",
        "OptionError",
        "OptionSpec",
        "Result",
        "State",
        "action_key",
        "action_of_id",
        "declared_fields",
        "derive_rng",
        "legal_ids",
        "ranks_from_scores",
        "resolve_options",
        "utility",
    ]
    assert sorted(engines.testing.__all__) == [
        "check_clone_independent",
        "check_contract",
        "new_game",
        "perft",
        "random_playout",
    ]
    assert engines.names() == [
        "cat-yard",
        "good-boy",
        "if-it-fits",
        "little-everdell",
        "space-five",
    ]
    assert engines.families() == {"openspiel": engines.openspiel.SUMMARY}


def test_error_tree_matches_the_verdict_classes() -> None:
    faults = [
        errors.BotTimeout,
        errors.BotIllegal,
        errors.BotProtocolError,
        errors.BotCrash,
        errors.BotStartup,
        errors.BotMemory,
    ]
    assert tuple(f.verdict for f in faults) == errors.VERDICTS
    assert all(issubclass(f, errors.BotFault) for f in faults)
    assert issubclass(errors.ConfigError, errors.UserError)
    assert issubclass(errors.ResultsError, errors.UserError)
    assert not issubclass(errors.BotFault, errors.UserError)


def test_protocol_version() -> None:
    assert protocol.PROTOCOL_VERSION == 1
    assert protocol.hello("e", "1", {}, {})["protocol"] == 1
