"""``arena tune``: its games/s against ``arena run`` of the same bots, and the games SPSA and
Optuna need to come within a stated distance of the synthetic bot's known optimum.

    python benchmarks/tune.py            # 5 pairs of 300-game runs, 1200-game searches
    python benchmarks/tune.py --quick    # smoke test: 120 and 240 games

1. **Throughput** (target: a tune plays at least 0.9 of ``arena run``'s games/s): a tune of
   the cat-yard greedy bot's four weights (two seats), against ``run_league`` (what
   ``arena run`` plays) of the very same games: each block with the values the tune gave
   it, read from its journal. The difference is the tuner's own cost (SPSA, the journal).
   Run in adjacent pairs, the median of their ratios reported (the machine is shared and
   its load drifts).
2. **Search**: ``bots/synthetic.py`` on the toy pile (2 seats, 2 parameters, start
   (-3, -3), optimum (3, -2)): the games each method had played when its current answer
   (SPSA: θ; Optuna: the best trial so far) first came within ``DISTANCE`` of the optimum,
   and where it ended.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Mapping  # noqa: E402
from dataclasses import replace  # noqa: E402

import trio  # noqa: E402
from tabulate import tabulate  # noqa: E402

import engines  # noqa: E402
from arena.config import LeagueConfig  # noqa: E402
from arena.league.feeds import BlockFeed  # noqa: E402
from arena.league.runner import run_league  # noqa: E402
from arena.tune import config as tune_config  # noqa: E402
from arena.tune.feed import parameter_block  # noqa: E402
from arena.tune.journal import Step, Trial, read_steps  # noqa: E402
from arena.tune.run import Player, run_tune  # noqa: E402

DISTANCE = 1.5
OPTIMUM = (3.0, -2.0)
CAT_YARD = _ROOT / "configs" / "tune-cat-yard.toml"
SYNTHETIC = """
engine = "toy"
players = 2
seed = {seed}
sandbox = "none"
[options]
pile = 21
[[bots]]
name = "syn"
cmd = "python -m bots.synthetic --width 4 --greedy tests.toy_greedy --optimum x=3.0,y=-2.0"
[tune]
bot = "syn"
games = {games}
method = "{method}"
confirm_games = 0
trial_blocks = 2
[tune.params.x]
start = -3.0
min = -10.0
max = 10.0
c_end = 1.0
r_end = 0.1
[tune.params.y]
start = -3.0
min = -10.0
max = 10.0
c_end = 1.0
r_end = 0.1
"""


def quiet(line: str) -> None:
    del line


class Replay(BlockFeed):
    """A tune's blocks with the values its journal says they were played with, and nothing
    else: the same games as the tune, as a plain league plays them."""

    def __init__(
        self, config: LeagueConfig, known: Mapping[tuple[str, ...], int], steps: list[Step]
    ) -> None:
        blocks = (
            parameter_block(config, known, s.k, {"greedy+": s.plus, "greedy-": s.minus})
            for s in steps
        )
        super().__init__(blocks, len(steps) * config.players[0])


def throughput(games: int, jobs: int, repeats: int) -> list[list[object]]:
    """The tune against a league of the very games it played (each block with the values
    the tune gave it, from its journal): the difference is the tuner's own cost. Run in
    adjacent pairs (the machine's load drifts); the ratio of each pair, then their median."""
    tune = tune_config.load(CAT_YARD)
    tune = replace(tune, iterations=games // 2, confirm_games=0)
    league = tune.versions("greedy+", "greedy-", games // 2, tune.league.seed)
    steps: list[Step] = []

    def timed(play: Callable[[Path], object]) -> float:
        with tempfile.TemporaryDirectory() as folder:
            began = time.perf_counter()
            play(Path(folder))
            took = time.perf_counter() - began
            if not steps:
                steps.extend(e for e in read_steps(Path(folder)) if isinstance(e, Step))
        return games / took

    def replay(folder: Path) -> object:
        def feed(config: LeagueConfig, known: Mapping[tuple[str, ...], int]) -> BlockFeed:
            return Replay(config, known, steps)

        return trio.run(lambda: run_league(league, folder, jobs=jobs, feed=feed))

    rows: list[list[object]] = []
    for i in range(repeats):
        tuned = timed(lambda folder: run_tune(tune, folder, Player(jobs), say=quiet))
        plain = timed(replay)
        rows.append([i + 1, games, f"{plain:.1f}", f"{tuned:.1f}", f"{tuned / plain:.2f}"])
    ratios = sorted(float(str(row[-1])) for row in rows)
    rows.append(["median", "", "", "", f"{ratios[len(ratios) // 2]:.2f}"])
    return rows


def search(method: str, games: int, jobs: int, seed: int) -> list[object]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.toml"
        path.write_text(SYNTHETIC.format(seed=seed, games=games, method=method))
        tune = tune_config.load(path)
        outcome = run_tune(tune, Path(folder) / "out", Player(jobs), say=quiet)
        entries = read_steps(Path(folder) / "out")
    reached = None
    best: tuple[float, float] | None = None
    best_score = -1.0
    for entry in entries:
        if isinstance(entry, Step):
            point = (entry.after[0], entry.after[1])
            played = (entry.k + 1) * tune.seats
        else:
            assert isinstance(entry, Trial)
            if entry.score > best_score:
                best_score, best = entry.score, (float(entry.values["x"]), float(entry.values["y"]))
            point = best if best is not None else (-3.0, -3.0)
            played = (entry.k + 1) * tune.trial_blocks * tune.seats
        if reached is None and math.dist(point, OPTIMUM) < DISTANCE:
            reached = played
    final = math.dist((float(outcome.values["x"]), float(outcome.values["y"])), OPTIMUM)
    return [method, seed, games, reached if reached is not None else f"> {games}", f"{final:.2f}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip-search", action="store_true", help="only the throughput")
    parser.add_argument("--repeats", type=int, default=5, help="pairs of throughput runs")
    args = parser.parse_args()
    engines.register("toy", "tests.toy_engine")
    games = 120 if args.quick else 300
    print(f"throughput: cat-yard greedy, 2 seats, {games} games, jobs {args.jobs}")
    rows = throughput(games, args.jobs, args.repeats)
    headers = ["pair", "games", "arena run games/s", "arena tune games/s", "ratio"]
    print(tabulate(rows, headers=headers))
    if args.skip_search:
        return
    budget = 240 if args.quick else 1200
    print(f"\nsearch: synthetic bot, 2 parameters, within {DISTANCE} of the optimum")
    rows = [search(m, budget, args.jobs, seed) for m in ("spsa", "optuna") for seed in (1, 2)]
    print(tabulate(rows, headers=["method", "seed", "budget", "games to reach", "final distance"]))


if __name__ == "__main__":
    main()
