"""Play games in-process with Python ``choose`` functions: no subprocesses, no clock.

For tests, quick heuristic comparisons and engine benchmarks::

    python -m arena.game.local space-five bots.space_five_greedy bots.random --games 200

plays seat-rotated blocks with a league's seeds (the same seed under every rotation) on the
referee's own loop, each bot a :class:`~arena.game.seats.FunctionSeat`, and prints each
bot's mean rank, win share and mean score. A ``choose`` function sees exactly what a bot
process would: the observation, the legal list, and a ``GameInfo`` whose ``step`` is the
protocol's step and whose seed is the one ``start`` would send.
"""

from __future__ import annotations

import argparse
import importlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

import trio

import engines
from arena.config import Limits, Policy, check_game, load_engine
from arena.errors import ConfigError
from arena.game.referee import play_game
from arena.game.seats import FunctionSeat
from arena.game.spec import GameSpec, block_games, block_seed
from arena.record import GameRecord
from arena.sdk import Choose
from engines.base import Engine


def play_local(
    engine_name: str,
    policies: Sequence[Choose],
    seed: int,
    options: Mapping[str, Any] | None = None,
) -> GameRecord:
    """Play one game with ``policies[i]`` in seat ``i``; return its record."""
    engine = engines.get(engine_name)
    resolved = check_game(engine, [len(policies)], options or {})
    names = tuple(f"seat{i}" for i in range(len(policies)))
    spec = GameSpec(f"local-{seed}", 0, 0, 0, seed, names)
    choosers = dict(zip(names, policies, strict=True))
    return trio.run(play_specs, engine, resolved, [spec], choosers)[0]


async def play_specs(
    engine: Engine,
    options: Mapping[str, Any],
    specs: Sequence[GameSpec],
    choosers: Mapping[str, Choose],
) -> list[GameRecord]:
    """Play ``specs`` one after another, each seat played by ``choosers[bot name]``."""
    records = []
    for spec in specs:
        seats = [FunctionSeat(name, choosers[name], engine.name, options) for name in spec.seating]
        records.append(await play_game(engine, options, spec, seats, Limits(), Policy()))
    return records


def _load(module_name: str) -> Choose:
    """The ``choose`` function of a module; a :class:`ConfigError` in one line for a file
    name, a module that is not there, or one without ``choose``."""
    if module_name.endswith(".py") or "/" in module_name:
        dotted = module_name.removesuffix(".py").strip("/").replace("/", ".")
        raise ConfigError(f"{module_name!r}: give a module name ({dotted}), not a file name")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not (module_name + ".").startswith(exc.name + "."):
            raise  # the module is there but imports something that is not: its own bug
        raise ConfigError(
            f"no module {module_name!r} here: run in the folder that holds it, "
            "or give its dotted name (bots.random)"
        ) from None
    choose = getattr(module, "choose", None)
    if not callable(choose):
        raise ConfigError(
            f"module {module_name!r} has no choose(observation, legal, game) function: "
            "this plays Python choose functions only (other bots: arena play, a league)"
        )
    return cast(Choose, choose)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m arena.game.local", description=__doc__.splitlines()[0]
    )
    parser.add_argument("engine")
    parser.add_argument(
        "bots", nargs="+", help="modules with a choose() function (mybot, bots.random), one a seat"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=100,
        help="rotation blocks to play (default %(default)s); a block is one game per seat, "
        "each bot in each seat once, so with 2 bots --games 50 plays 100 games",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], help="k=v (JSON value)")
    args = parser.parse_args(argv)

    given: dict[str, Any] = {}
    for pair in args.option:
        key, sep, raw = pair.partition("=")
        bad = f"--option {pair!r}: expected KEY=VALUE with a JSON value"
        if not sep:
            parser.error(bad)
        try:
            given[key] = json.loads(raw)
        except ValueError:
            parser.error(bad)
    try:
        engine = load_engine(args.engine)
        options = check_game(engine, [len(args.bots)], given)
    except ConfigError as exc:
        parser.error(str(exc))
    names = tuple(args.bots)  # a module named twice is one bot in two seats
    try:
        choosers = {name: _load(name) for name in names}
    except ConfigError as exc:
        parser.error(str(exc))
    specs = [
        spec
        for block in range(args.games)
        for spec in block_games(0, names, block, block_seed(args.seed, len(names), block))
    ]
    records = trio.run(play_specs, engine, options, specs, choosers)
    for name in sorted(choosers):
        seats = [seat for record in records for seat in record.seats if seat.bot == name]
        ranks = [seat.rank for seat in seats]
        wins = sum(1 for rank in ranks if rank == 1) / len(ranks)
        mean_score = sum(seat.score for seat in seats) / len(seats)
        print(
            f"{name:32s} games {len(ranks):5d}  mean rank {sum(ranks) / len(ranks):.3f}  "
            f"win share {wins:.3f}  mean score {mean_score:.2f}"
        )


if __name__ == "__main__":
    main()
