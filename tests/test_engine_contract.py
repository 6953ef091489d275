"""One parametrized contract test over every registered engine and player count."""

from __future__ import annotations

import pytest

import engines
from engines.base import OptionError, resolve_options
from engines.testing import check_contract

CASES = [
    (name, players)
    for name in engines.names()
    for players in range(engines.get(name).min_players, engines.get(name).max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_engine_contract(name: str, players: int) -> None:
    check_contract(engines.get(name), players)


@pytest.mark.parametrize("name", engines.names())
def test_engine_metadata(name: str) -> None:
    engine = engines.get(name)
    assert engine.name == name
    assert engine.title and engine.version
    assert 1 <= engine.min_players <= engine.max_players
    defaults = resolve_options(engine.option_specs(), {})
    assert set(defaults) == set(engine.option_specs())


@pytest.mark.parametrize("name", engines.names())
def test_new_game_without_check_plays_the_defaults(name: str) -> None:
    """A Python caller who skips ``check`` gets the defaults, the same game as checked."""
    engine = engines.get(name)
    players = engine.min_players if engine.min_players > 1 else 2
    bare = engine.new_game(players, 5, {})
    checked = engine.new_game(players, 5, engine.check(players, {}))
    assert bare.observation(0) == checked.observation(0)
    assert bare.legal_actions() == checked.legal_actions()


def test_new_game_with_a_bad_option_refuses_as_check_does() -> None:
    engine = engines.get("space-five")
    with pytest.raises(OptionError, match="unknown option 'roundz'"):
        engine.new_game(2, 5, {"roundz": 3})
