"""A policy learned in the PettingZoo export, entered into arena leagues as a bot.

The smallest "train, then compete" example (docs/bridges.md): in
``arena.bridges.pettingzoo``, every seat plays epsilon-greedily on a table of values, one
per action id of the engine's fixed numbering; each value is the mean final reward (-1 to
1) of the games in which the id was chosen. The same table then plays in the arena::

    python -m bots.pz_values train cat-yard --players 2 --games 3000 --out values.json
    python -m bots.pz_values play values.json      # a bot: the league's cmd

As a bot it picks, among the legal actions, the one whose id has the highest value (an
id never tried counts as 0; ties go to the first in the legal list), reading the ids with
``engines.encoding`` from the observation the referee sends: the same ids as in training.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import numpy as np

import engines
from arena.sdk import GameInfo, run
from engines.base import legal_ids, utility


def train(game: str, players: int, games: int, seed: int = 1, epsilon: float = 0.2) -> list[float]:
    """The value of every action id after ``games`` self-play games in the PettingZoo
    export (seeds ``seed``, ``seed + 1``, ...)."""
    from arena.bridges.pettingzoo import env

    made = env(game, players)
    count = made.encoding.num_actions
    total, times = np.zeros(count), np.zeros(count)
    rng = random.Random(seed)
    for number in range(games):
        made.reset(seed=seed + number)
        chosen: dict[str, list[int]] = {agent: [] for agent in made.agents}
        for agent in made.agent_iter():
            observation, _, termination, truncation, _ = made.last()
            if termination or truncation:
                made.step(None)
                continue
            ids = np.flatnonzero(observation["action_mask"])
            if rng.random() < epsilon:
                pick = int(ids[rng.randrange(len(ids))])
            else:
                values = np.divide(
                    total[ids], times[ids], out=np.zeros(len(ids)), where=times[ids] > 0
                )
                pick = int(ids[int(np.argmax(values))])
            chosen[agent].append(pick)
            made.step(pick)
        assert made.state is not None
        result = made.state.result()
        for seat, picks in enumerate(chosen.values()):
            total[picks] += 2 * utility(result, seat) - 1  # the env's reward of the seat
            times[picks] += 1
    return [float(v) for v in np.divide(total, times, out=np.zeros(count), where=times > 0)]


class Policy:
    """The greedy policy of a value table, as an arena ``choose`` function."""

    def __init__(self, values: list[float]) -> None:
        self.values = values

    def __call__(
        self, observation: dict[str, Any], legal: list[dict[str, Any]], game: GameInfo
    ) -> int:
        encoding = engines.encoding(game.engine, game.players, game.options)
        ids = legal_ids(encoding, observation, legal)
        best = max(range(len(ids)), key=lambda index: (self.values[ids[index]], -index))
        return best


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bots.pz_values", description=__doc__.splitlines()[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    learn = commands.add_parser("train", help="learn a value table in the PettingZoo export")
    learn.add_argument("engine")
    learn.add_argument("--players", type=int, default=2)
    learn.add_argument("--games", type=int, default=3000)
    learn.add_argument("--seed", type=int, default=1)
    learn.add_argument("--out", type=Path, required=True)
    play = commands.add_parser("play", help="play a value table as an arena bot")
    play.add_argument("values", type=Path)
    args = parser.parse_args()
    if args.command == "train":
        values = train(args.engine, args.players, args.games, args.seed)
        args.out.write_text(json.dumps({"engine": args.engine, "values": values}))
        print(f"{args.out}: {sum(1 for v in values if v)} action ids valued")
    else:
        table = json.loads(args.values.read_text())
        run(Policy(table["values"]), name=f"pz-values-{table['engine']}", version="1")


if __name__ == "__main__":
    main()
