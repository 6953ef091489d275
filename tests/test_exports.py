"""Pin the public surfaces that bots, engines and other tools build on."""

from __future__ import annotations

import engines
import engines.base
import engines.testing
from arena import errors, protocol


def test_engine_contract_exports() -> None:
    assert sorted(engines.base.__all__) == [
        "Action",
        "Engine",
        "EngineBase",
        "EngineError",
        "EventLog",
        "GameState",
        "IllegalAction",
        "OptionError",
        "OptionSpec",
        "Result",
        "State",
        "declared_fields",
        "derive_rng",
        "ranks_from_scores",
        "resolve_options",
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


def test_error_tree_matches_the_verdict_classes() -> None:
    faults = [
        errors.BotTimeout,
        errors.BotIllegal,
        errors.BotProtocolError,
        errors.BotCrash,
        errors.BotStartup,
    ]
    assert tuple(f.verdict for f in faults) == errors.VERDICTS
    assert all(issubclass(f, errors.BotFault) for f in faults)
    assert issubclass(errors.ConfigError, errors.UserError)
    assert issubclass(errors.ResultsError, errors.UserError)
    assert not issubclass(errors.BotFault, errors.UserError)


def test_protocol_version() -> None:
    assert protocol.PROTOCOL_VERSION == 1
    assert protocol.hello("e", "1", {}, {})["protocol"] == 1
