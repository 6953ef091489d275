"""Play games in-process with Python ``choose`` functions: no subprocesses, no clock.

For tests, quick heuristic comparisons and engine benchmarks::

    python -m arena.game.local space-five bots.space_five_greedy bots.random --games 200

plays seat-rotated blocks (the same seed under every rotation) and prints each bot's mean
rank, win share and mean score.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import engines
from arena.sdk import Choose, GameInfo
from engines.base import Result


def play_local(
    engine_name: str,
    policies: Sequence[Choose],
    seed: int,
    options: Mapping[str, Any] | None = None,
    bot_seeds: Sequence[int] | None = None,
) -> Result:
    """Play one game with ``policies[i]`` in seat ``i``; return its result."""
    engine = engines.get(engine_name)
    players = len(policies)
    opts = engine.check(players, dict(options or {}))
    state = engine.new_game(players, seed, opts)
    seeds = list(bot_seeds) if bot_seeds is not None else [seed * 31 + i for i in range(players)]
    infos = [
        GameInfo(
            engine=engine_name,
            options=opts,
            game=f"local-{seed}",
            seat=i,
            players=players,
            seed=seeds[i],
            rng=random.Random(seeds[i]),
        )
        for i in range(players)
    ]
    while (seat := state.to_move()) is not None:
        legal = state.legal_actions()
        info = infos[seat]
        info.step += 1
        choice = policies[seat](state.observation(seat), legal, info)
        state.apply(legal[choice] if isinstance(choice, int) else choice)
    return state.result()


def _load(module_name: str) -> Choose:
    module = importlib.import_module(module_name)
    choose: Choose = module.choose
    return choose


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("bots", nargs="+", help="modules with a choose() function, one per seat")
    parser.add_argument("--games", type=int, default=100, help="blocks to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], help="k=v (JSON value)")
    args = parser.parse_args(argv)

    options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    names = list(args.bots)
    policies = [_load(n) for n in names]
    players = len(names)
    ranks: dict[str, list[int]] = {n: [] for n in set(names)}
    scores: dict[str, list[float]] = {n: [] for n in set(names)}
    for block in range(args.games):
        for rotation in range(players):
            seating = names[rotation:] + names[:rotation]
            pols = policies[rotation:] + policies[:rotation]
            result = play_local(args.engine, pols, args.seed * 100_003 + block, options)
            for seat, name in enumerate(seating):
                ranks[name].append(result.ranks[seat])
                scores[name].append(result.scores[seat])
    for name in sorted(ranks):
        r, s = ranks[name], scores[name]
        wins = sum(1 for x in r if x == 1) / len(r)
        print(
            f"{name:32s} games {len(r):5d}  mean rank {sum(r) / len(r):.3f}  "
            f"win share {wins:.3f}  mean score {sum(s) / len(s):.2f}"
        )


if __name__ == "__main__":
    main()
