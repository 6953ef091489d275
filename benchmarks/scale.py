"""Scaling out: games/s in-process (--jobs 1) against a local Dask cluster (--workers 1, 2).

    python benchmarks/scale.py              # full: 1,000-game space-five league (~3 min)
    python benchmarks/scale.py --quick      # smoke test: 100 games, 1 trial
    python benchmarks/scale.py --games 2000 --trials 3

The same league (space-five, 2 seats, one table of ``benchmarks/trivial_bot.py``) is played
three ways, interleaved trial by trial, each from nothing to its last fsync:

- ``jobs 1``: ``arena.league.runner.run_league`` with one game at a time (the embedded
  default, the baseline every ratio is taken against);
- ``workers 1`` and ``workers 2``: ``arena.league.cluster.run_cluster_league`` on a new
  ``LocalCluster`` of one-thread worker processes, ``--jobs 1`` per worker: cluster start,
  the pre-flight handshakes, every block, the pools' close and the cluster's shutdown.

twice: with trivial bots (the referee-bound case) and with bots that sleep 5 ms per decision
(fewer games: about 1 s per game). ``whole s`` is the entire call; ``start s`` runs to the
first stored block; ``steady games/s`` counts the games after it. ``overhead ms/block`` is
what a block costs a worker beyond the in-process baseline: steady s/block at ``workers 1``
minus steady s/block at ``jobs 1``. ``CPU ms/game`` is the CPU time of the whole run (this
process, which also hosts a local cluster's scheduler, and every process it started and
waited for: workers, bots) per game; ``cluster CPU ms/block`` is what the cluster path costs
in CPU per block beyond the in-process run (the ``workers 1`` run's CPU minus the ``jobs 1``
run's, per block played). The best of ``--trials`` runs is kept per cell (interference on
this shared machine only ever slows a run down); the target lines also give each trial's
ratio against the in-process run of the same trial.

Targets (issues 14 and 39): ``workers 2`` >= 1.5x ``jobs 1`` and ``workers 1`` >= 0.9x on the
1,000-game league of trivial bots, whole run included.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python benchmarks/<name>.py`, Python puts benchmarks/ first on sys.path, where
# benchmarks/engines.py would shadow the `engines` package: put the checkout root there.
_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import resource  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

# A local cluster's worker processes are spawned, and each imports the main module again:
# the arena (and the benchmark helpers, which import the in-process runner) is imported
# inside the functions, so that a worker imports what it would under `arena run`, whose
# main module imports little (importing it all here added 0.14 s to each worker's start).
if TYPE_CHECKING:
    from arena import config as arena_config

ENGINE = "space-five"
PLAYERS = 2


@dataclass
class Timed:
    """One run of the league."""

    games: int
    whole_s: float  # the whole call
    start_s: float  # call to the first stored block
    steady_s: float  # first stored block to the last
    first_games: int  # games stored with the first block
    cpu_s: float  # CPU of this process and of its waited-for children during the run

    @property
    def cpu_ms_per_game(self) -> float:
        return self.cpu_s * 1000 / self.games

    @property
    def games_per_s(self) -> float:
        return self.games / self.whole_s

    @property
    def steady_games_per_s(self) -> float:
        steady = self.games - self.first_games
        return steady / self.steady_s if self.steady_s > 0 else float("nan")


def league(games: int, think_ms: int) -> arena_config.LeagueConfig:
    from arena import config as arena_config
    from benchmarks import _bench

    command = f"{_bench.TRIVIAL_CMD} {think_ms}" if think_ms else _bench.TRIVIAL_CMD
    rounds = max(1, games // PLAYERS)
    data = {
        "name": f"scale-{think_ms}ms",
        "engine": ENGINE,
        "players": [PLAYERS],
        "rounds": rounds,
        "seed": 1,
        "bots": [{"name": f"trivial-{i}", "cmd": command} for i in range(PLAYERS)],
    }
    return arena_config.parse(data, source="<benchmark scale>")


def cpu_s() -> float:
    """CPU time so far of this process and of every child process it has waited for."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def run_once(config: arena_config.LeagueConfig, workers: int) -> Timed:
    """Play ``config`` in a temporary folder: in-process (workers = 0) or on a local cluster."""
    import trio

    from arena.league.cluster import run_cluster_league
    from arena.league.runner import run_league

    stamps: list[float] = []
    counts: list[int] = []

    def progress(done: int, total: int) -> None:
        stamps.append(time.perf_counter())
        counts.append(done)

    with tempfile.TemporaryDirectory(prefix="arena-scale-") as tmp:
        out = Path(tmp) / config.name
        cpu_started = cpu_s()
        started = time.perf_counter()
        if workers:
            outcome = run_cluster_league(
                config, out, jobs=1, workers=workers, fresh=True, progress=progress
            )
        else:
            outcome = trio.run(
                lambda: run_league(config, out, jobs=1, fresh=True, progress=progress)
            )
        whole = time.perf_counter() - started
        cpu = cpu_s() - cpu_started
    assert outcome.played == outcome.scheduled, outcome
    first = PLAYERS  # one block: the cluster stores a block at once, in-process game by game
    return Timed(
        games=outcome.played,
        whole_s=whole,
        start_s=stamps[first - 1] - started,
        steady_s=stamps[-1] - stamps[first - 1],
        first_games=counts[first - 1],
        cpu_s=cpu,
    )


def measure(
    config: arena_config.LeagueConfig, trials: int, levels: list[int]
) -> dict[int, list[Timed]]:
    """``trials`` interleaved runs per level, in trial order."""
    runs: dict[int, list[Timed]] = {workers: [] for workers in levels}
    for trial in range(trials):
        for workers in levels:
            timed = run_once(config, workers)
            label = f"workers {workers}" if workers else "jobs 1"
            print(
                f"  {config.name} trial {trial + 1}: {label}: {timed.whole_s:.2f} s "
                f"({timed.games_per_s:.1f} games/s)",
                file=sys.stderr,
            )
            runs[workers].append(timed)
    return runs


def best_of(runs: dict[int, list[Timed]]) -> dict[int, Timed]:
    """The fastest whole run per level."""
    return {workers: min(timed, key=lambda t: t.whole_s) for workers, timed in runs.items()}


def trial_ratios(runs: dict[int, list[Timed]], workers: int) -> str:
    """Each trial's speed against the in-process run of the same trial."""
    pairs = zip(runs[workers], runs[0], strict=True)
    return ", ".join(f"{base.whole_s / timed.whole_s:.2f}" for timed, base in pairs)


def table(best: dict[int, Timed]) -> list[dict[str, object]]:
    base = best[0]
    rows: list[dict[str, object]] = []
    for workers, timed in best.items():
        overhead = ""
        if workers == 1:
            per_block = timed.steady_s / ((timed.games - timed.first_games) / PLAYERS)
            per_block_base = base.steady_s / ((base.games - base.first_games) / PLAYERS)
            overhead = f"{(per_block - per_block_base) * 1000:.2f}"
        rows.append(
            {
                "run": f"--workers {workers}" if workers else "--jobs 1 (in-process)",
                "games": timed.games,
                "whole s": timed.whole_s,
                "start s": timed.start_s,
                "games/s (whole run)": timed.games_per_s,
                "vs jobs 1": timed.games_per_s / base.games_per_s,
                "steady games/s": timed.steady_games_per_s,
                "CPU ms/game": timed.cpu_ms_per_game,
                "overhead ms/block": overhead,
            }
        )
    return rows


def cluster_cpu_line(best: dict[int, Timed]) -> str:
    """The cluster path's own CPU per block: the workers-1 run's CPU beyond in-process."""
    blocks = best[1].games / PLAYERS
    extra_ms = (best[1].cpu_s - best[0].cpu_s) * 1000 / blocks
    return (
        f"cluster CPU per block (--workers 1 minus in-process, whole runs): {extra_ms:.1f} ms; "
        f"a block in-process: {best[0].cpu_ms_per_game * PLAYERS:.1f} ms CPU"
    )


def main() -> None:
    from benchmarks import _bench

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke test: 100 games, 1 trial")
    parser.add_argument("--games", type=int, help="games with trivial bots (default 1000)")
    parser.add_argument("--slow-games", type=int, help="games with 5 ms bots (default 60)")
    parser.add_argument("--trials", type=int, help="interleaved trials per cell (default 2)")
    args = parser.parse_args()
    games = args.games or (100 if args.quick else 1000)
    slow_games = args.slow_games or (10 if args.quick else 60)
    trials = args.trials or (1 if args.quick else 2)
    levels = [0, 1, 2]

    started = time.perf_counter()
    import_started = time.perf_counter()
    import distributed  # once per client process; the runs below share it

    import_s = time.perf_counter() - import_started
    print("# Scaling out: in-process referee vs a local Dask cluster")
    print(f"\n{_bench.machine_line()}, distributed {distributed.__version__}")
    print(f"engine {ENGINE}, {PLAYERS} seats, one table, rotation blocks of {PLAYERS} games")
    print(f"importing distributed in the client: {import_s:.2f} s (not in the runs below)")

    trivial_runs = measure(league(games, 0), trials, levels)
    trivial = best_of(trivial_runs)
    _bench.print_table(table(trivial), f"{games} games, trivial bots (best of {trials})")
    print(f"\n{cluster_cpu_line(trivial)}")
    for workers, target in ((2, 1.5), (1, 0.9)):
        ratio = trivial[workers].games_per_s / trivial[0].games_per_s
        verdict = "met" if ratio >= target else f"MISSED by {target / ratio:.2f}x"
        print(
            f"target: --workers {workers} >= {target}x --jobs 1, whole run: "
            f"{ratio:.2f}x best against best ({verdict}); trial by trial "
            f"{trial_ratios(trivial_runs, workers)}; {_bench.machine_line()}"
        )

    slow = best_of(measure(league(slow_games, 5), trials, levels))
    _bench.print_table(table(slow), f"{slow_games} games, bots thinking 5 ms per decision")
    print(f"\n{cluster_cpu_line(slow)}")
    print(f"\ntotal time {time.perf_counter() - started:.0f} s; {_bench.machine_line()}")


if __name__ == "__main__":
    main()
