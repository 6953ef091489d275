"""One parametrized contract test over every registered engine and player count."""

from __future__ import annotations

import pytest

import engines
from engines.base import resolve_options
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
