"""Checks every engine must pass, usable without pytest (``AssertionError`` on a failure).

    >>> import engines
    >>> from engines.testing import check_contract
    >>> check_contract(engines.get("cat-yard"), 2, seeds=range(1))

- :func:`new_game`: a game from a player count, a seed and partial options (checked first).
- :func:`random_playout`: a seeded random game, checking the per-step contract.
- :func:`check_contract`: ends, JSON-ready, deterministic, replayable, strict apply, no
  leaks through ``determinize``, clones independent of their original.
- :func:`check_clone_independent`: 20 moves on a clone leave the original's full render,
  observations and legal list as they were.
- :func:`perft`: the number of legal action sequences to a depth (known answers).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from engines.base import Encoding, Engine, GameState, IllegalAction, State, declared_fields

S = TypeVar("S", bound=State, covariant=True)


class _Factory(Protocol[S]):
    """An engine as :func:`new_game` needs it (typed by the state it makes)."""

    def check(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]: ...
    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> S: ...


__all__ = [
    "check_clone_independent",
    "check_contract",
    "new_game",
    "perft",
    "random_playout",
]


def new_game(
    engine: _Factory[S], players: int, seed: int, options: Mapping[str, Any] | None = None
) -> S:
    """``engine.new_game`` with the options resolved by ``engine.check`` first (typed by
    the engine: pass the engine's own class instance to get its state type)."""
    return engine.new_game(players, seed, engine.check(players, dict(options or {})))


def random_playout(
    engine: Engine,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    max_steps: int = 20_000,
    max_legal: int = 2_000,
    each_step: Callable[[State], None] | None = None,
) -> tuple[State, list[int]]:
    """Play a seeded random game, checking the per-step contract; return state and moves.

    ``each_step`` is called with the state before each action.
    """
    state = new_game(engine, players, seed, options)
    rng = random.Random(seed * 7919 + players)
    moves: list[int] = []
    while (seat := state.to_move()) is not None:
        assert 0 <= seat < players, f"seat {seat} to move in a game of {players}"
        assert len(moves) < max_steps, f"game did not end in {max_steps} steps"
        legal = state.legal_actions()
        assert legal, "empty legal list while a seat is to move"
        assert len(legal) <= max_legal, f"legal list of {len(legal)} actions"
        if each_step is not None:
            each_step(state)
        index = rng.randrange(len(legal))
        moves.append(index)
        state.apply(legal[index])
    return state, moves


def perft(state: State, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` (shorter if the game ends)."""
    if depth == 0 or state.to_move() is None:
        return 1
    total = 0
    for index in range(len(state.legal_actions())):
        child = state.clone()
        child.apply_index(index)
        total += perft(child, depth - 1)
    return total


def check_clone_independent(state: State, rng: random.Random, moves: int = 20) -> None:
    """Play up to ``moves`` random moves on a clone; the original must not change.

    Compares the original's full render (``render(None)``: hidden parts included), every
    seat's observation and the legal list before and after. For a :class:`GameState`, also
    checks that the state's attributes are exactly the declared fields (none left out of
    ``SHARED``/``COPIED``/``COPIED_ITEMS``/``COPIED_GRIDS``).
    """
    if isinstance(state, GameState):
        undeclared = set(vars(state)) ^ set(declared_fields(type(state)))
        assert not undeclared, f"fields not declared for clone(): {sorted(undeclared)}"
    seats = range(len(state.result().ranks))
    before = (
        state.render(None),
        [state.observation(seat) for seat in seats],
        [dict(action) for action in state.legal_actions()],
    )
    twin = state.clone()
    for _ in range(moves):
        if twin.to_move() is None:
            break
        twin.apply_index(rng.randrange(len(twin.legal_actions())))
    after = (
        state.render(None),
        [state.observation(seat) for seat in seats],
        state.legal_actions(),
    )
    assert after[0] == before[0], "moves on a clone changed the original's render"
    assert after[1] == before[1], "moves on a clone changed the original's observations"
    assert after[2] == before[2], "moves on a clone changed the original's legal list"


def _encoding(engine: Engine, players: int, options: Mapping[str, Any] | None) -> Encoding | None:
    """The engine's :class:`~engines.base.Encoding`, or None for an engine without one."""
    import engines

    if engine.name not in engines.names():
        return None
    if getattr(engine, "encoding", None) is None and engines.parts_of(engine.name).encoding is None:
        return None
    return engines.encoding(engine.name, players, options)


def _json_roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _raises_illegal(state: State, action: dict[str, Any]) -> bool:
    try:
        state.apply(action)
    except IllegalAction:
        return True
    return False


def check_contract(
    engine: Engine,
    players: int,
    options: Mapping[str, Any] | None = None,
    seeds: range = range(4),
) -> None:
    """Ends, JSON-ready, deterministic, clone-independent, no leaks, replayable, strict apply.

    The leak check covers the engine's observation tensor too (``encoding.py``, when the
    engine has one): a determinized twin must give each seat the same tensor."""
    encoding = _encoding(engine, players, options)
    for seed in seeds:
        rng = random.Random(seed)

        def per_step(state: State, rng: random.Random = rng) -> None:
            legal = state.legal_actions()
            assert _json_roundtrip(legal) == legal, "legal list is not JSON-ready"
            seat = state.to_move()
            assert seat is not None
            obs = state.observation(seat)
            assert _json_roundtrip(obs) == obs, "observation is not JSON-ready"
            if rng.random() < 0.15:
                for viewer in range(players):
                    before = state.observation(viewer)
                    twin = state.determinize(viewer, rng)
                    assert twin.observation(viewer) == before, f"leak for seat {viewer}"
                    if encoding is not None:
                        tensors = (
                            encoding.tensor(before),
                            encoding.tensor(twin.observation(viewer)),
                        )
                        assert (tensors[0] == tensors[1]).all(), f"tensor leak for seat {viewer}"
                    assert twin.legal_actions() == legal or twin.to_move() != viewer
                    assert state.observation(viewer) == before, "determinize changed the state"
                check_clone_independent(state, rng)

        state, moves = random_playout(engine, players, seed, options, each_step=per_step)
        result = state.result()
        assert len(result.scores) == players and len(result.ranks) == players
        assert min(result.ranks) == 1
        assert all(1 <= r <= players for r in result.ranks)
        assert _json_roundtrip(result.to_json()) == result.to_json()
        assert result.detail.get("end") not in (None, "unfinished"), "detail['end'] is not set"
        assert isinstance(state.render(None), str)
        for viewer in range(players):
            assert _json_roundtrip(state.observation(viewer)) == state.observation(viewer)

        replay = new_game(engine, players, seed, options)
        for index in moves:
            replay.apply_index(index)
        assert replay.to_move() is None
        assert replay.result() == result, "seed + moves did not replay to the same result"

        assert _raises_illegal(state, {"type": "no-such-action"}), "apply after the end"
        fresh = new_game(engine, players, seed, options)
        assert _raises_illegal(fresh, {"type": "no-such-action"}), "apply of a bad action"
        assert isinstance(fresh.describe(fresh.legal_actions()[0]), str)
        assert isinstance(fresh.render(fresh.to_move()), str)
