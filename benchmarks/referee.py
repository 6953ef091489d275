"""Referee overhead: arena decisions per second against the blocking-pipe loop and raw round
trips.

    python benchmarks/referee.py            # full: every engine, jobs 1 2 4, 3 trials (~7 min)
    python benchmarks/referee.py --quick    # smoke test (~15 s)
    python benchmarks/referee.py --engines space-five --jobs 1 --profile

For each engine this measures, interleaved in the same run (the machine is shared and noisy):

(a) **raw**: a trio parent exchanging a real ``act`` line of the engine (mean size of an
    index-0 game) with ``benchmarks/trivial_bot.py``, ``jobs`` such pairs at once;
(b) **loop** (jobs 1 only): ``benchmarks/blocking_loop.py``, the 30-line script with blocking
    pipes a user could write instead of the arena, same engine calls and encoding;
(c) **arena**: ``arena.league.runner.run_league`` playing the engine with that same trivial bot in
    every seat, ``jobs`` games at once; decisions are counted from ``games.jsonl``.

The target (issue 19) is arena/loop >= 0.9 at jobs = 1. The CPU time of this process per
decision is shown for the loop and the arena, so that what the arena spends to be fast
(polling for quick answers at jobs 1) is in the table too. Each cell is the best of
``--trials`` interleaved trials (timeit-style: other processes on the machine only ever
slow a trial down).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python benchmarks/<name>.py`, Python puts benchmarks/ first on sys.path, where
# benchmarks/engines.py would shadow the `engines` package: put the checkout root there
# instead (the helpers are then imported as `benchmarks._bench`).
_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import cProfile  # noqa: E402
import dataclasses  # noqa: E402
import math  # noqa: E402
import pstats  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from benchmarks import _bench  # noqa: E402
from benchmarks.blocking_loop import blocking_loop  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short smoke run (< 30 s)")
    parser.add_argument("--engines", nargs="*", help="engine names (default: all)")
    parser.add_argument("--players", type=int, default=2, help="seats per game (default 2)")
    parser.add_argument("--jobs", type=int, nargs="*", help="concurrency levels (default 1 2 4)")
    parser.add_argument("--trials", type=int, help="interleaved trials per cell (default 3)")
    parser.add_argument("--decisions", type=int, help="decisions per arena trial")
    parser.add_argument(
        "--profile", action="store_true", help="cProfile one jobs=1 arena run per engine"
    )
    parser.add_argument(
        "--fair-clock",
        action="store_true",
        help="only: decisions/s with ponder = false (bots frozen outside their turns) vs true",
    )
    args = parser.parse_args()
    if args.fair_clock:
        _fair_clock(args.engines, args.players, args.trials or 5, args.decisions or 3000)
        return

    jobs_levels = args.jobs or ([1] if args.quick else [1, 2, 4])
    trials = args.trials or (1 if args.quick else 3)
    decisions = args.decisions or (800 if args.quick else 12_000)
    raw_seconds = 0.2 if args.quick else 1.0

    print("# Referee overhead: arena decisions/s vs raw pipe round trips/s")
    print(f"\n{_bench.machine_line()}")
    print(f"best of {trials} interleaved trials per cell, ~{decisions} decisions per arena trial")
    started = time.perf_counter()
    rows = []
    for name, engine in _bench.load_engines(args.engines).items():
        players = min(max(args.players, engine.min_players), engine.max_players)
        game = _bench.index_zero_game(engine, players)
        max_jobs = max(jobs_levels)
        rounds = _bench.rounds_for(decisions, game.decisions, players, 16 * max_jobs)
        config = _bench.trivial_league(name, players, rounds)
        raw_one: list[float] = []
        for jobs in jobs_levels:
            cells: dict[str, list[float]] = {key: [] for key in _CELLS}
            for _ in range(trials):
                cells["raw"].append(_bench.ping_pong(game.sample, raw_seconds, jobs))
                if jobs == 1:
                    rate, cpu = _loop_rate(name, players, decisions)
                    cells["loop"].append(rate)
                    cells["loop cpu"].append(-cpu)
                cells["transport"].append(_transport(config, game.sample, raw_seconds, jobs))
                run = _bench.run_timed_league(config, jobs)
                cells["arena cpu"].append(-run.steady_cpu_s / run.steady_decisions * 1e6)
                cells["arena"].append(run.decisions_per_s)
                cells["wall"].append(run.decisions / run.wall_s)
            # timeit-style: interference from other processes only ever slows a trial down,
            # so the fastest of the interleaved trials is the least disturbed measurement
            med = {key: max(values) if values else math.nan for key, values in cells.items()}
            if jobs == 1:
                raw_one = cells["raw"]
            raw_rate, arena_rate = med["raw"], med["arena"]
            ratio = arena_rate / raw_rate
            rows.append(
                {
                    "engine": name,
                    "seats": players,
                    "act bytes": game.mean_size,
                    "dec/game": game.decisions,
                    "jobs": jobs,
                    "raw RT/s": round(raw_rate),
                    "transport RT/s": round(med["transport"]) if med["transport"] else "n/a",
                    "loop dec/s": round(med["loop"]) if jobs == 1 else "",
                    "arena dec/s": round(arena_rate),
                    "arena/loop": arena_rate / med["loop"] if jobs == 1 else "",
                    "target": _verdict(arena_rate, med["loop"]) if jobs == 1 else "",
                    "loop CPU µs/dec": -med["loop cpu"] if jobs == 1 else "",
                    "arena CPU µs/dec": -med["arena cpu"],
                    "arena/raw": ratio,
                    "vs raw j=1": arena_rate / max(raw_one),
                    "incl. start-up": med["wall"] / raw_rate,
                    "µs/dec over raw": 1e6 / arena_rate - 1e6 / raw_rate,
                }
            )
            print(
                f"  {name} jobs={jobs}: raw {raw_rate:.0f}/s arena {arena_rate:.0f}/s "
                f"({ratio:.2f})",
                file=sys.stderr,
            )
        if args.profile:
            _profile(config)

    _bench.print_table(rows, "Arena decisions/s vs the blocking loop (target >= 0.9 at jobs=1)")
    print(_LEGEND)
    print(f"\ntotal time {time.perf_counter() - started:.0f} s; {_bench.machine_line()}")


_CELLS = ("raw", "loop", "loop cpu", "transport", "arena", "arena cpu", "wall")


def _loop_rate(engine: str, players: int, decisions: int) -> tuple[float, float]:
    """Decisions/s of the blocking-pipe loop (benchmarks/blocking_loop.py), ~``decisions``,
    and its CPU time per decision in µs."""
    games = 4
    while True:
        cpu_before = _cpu_s()
        played, seconds = blocking_loop(engine, players, games)
        if played >= decisions or seconds > 5:
            return played / seconds, (_cpu_s() - cpu_before) / played * 1e6
        games = max(games + 1, round(games * decisions / max(played, 1)))


def _verdict(arena_rate: float, loop_rate: float) -> str:
    """Issue 19's target: the arena plays at least 0.9 of the blocking loop's decisions/s."""
    return "met" if arena_rate >= 0.9 * loop_rate else "MISSED"


def _cpu_s() -> float:
    """This process's CPU time (user + system) so far: the referee's or the loop's own,
    not the bots'."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


_LEGEND = """
raw RT/s: trivial trio parent <-> trivial bot, `jobs` pairs at once, the same act line;
loop dec/s: benchmarks/blocking_loop.py, the blocking-pipe script a user could write instead
  (same engine calls and encoding, no clock, store or concurrency); target arena/loop >= 0.9;
transport RT/s: the same exchange through arena.game.botproc (host_bot + BotProcess.ask,
  polling for the answer as run_league does at that jobs: botproc.answer_spin);
arena dec/s: run_league with trivial bots, from the first finished game to the last;
loop / arena CPU µs/dec: CPU time of this process (not the bots') per decision, the fewest
  of the trials; the arena's over the same span as arena dec/s (store included), and at
  jobs=1 it includes the polling for answers;
arena/raw: the share of a bare trio round trip reached (issue 10's target was >= 0.6);
vs raw j=1: arena dec/s against one raw pipe (what extra jobs buy);
incl. start-up: arena/raw over the whole run_league call (spawn, store, bye);
µs/dec over raw: the referee's own cost per decision beyond one raw round trip."""


def _transport(config: Any, message: bytes, seconds: float, jobs: int) -> float:
    try:
        return _bench.transport_ping_pong(config, message, seconds, jobs)
    except Exception as exc:  # arena.game.botproc is being reworked: report, don't stop
        print(f"transport measurement failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 0.0


def _fair_clock(engines: list[str] | None, players: int, trials: int, decisions: int) -> None:
    """Decisions/s of run_league at jobs=1 with the fair clock (``ponder = false``, the
    default: each bot frozen after its answer, thawed for its next question) against
    without it (``ponder = true``), interleaved; medians and their ratio."""
    print("# The fair clock's cost: arena decisions/s, ponder = false vs true (jobs=1)")
    print(f"\n{_bench.machine_line()}; {trials} interleaved trials, ~{decisions} decisions")
    for name, engine in _bench.load_engines(engines).items():
        seats = min(max(players, engine.min_players), engine.max_players)
        game = _bench.index_zero_game(engine, seats)
        rounds = _bench.rounds_for(decisions, game.decisions, seats, 16)
        fair = _bench.trivial_league(name, seats, rounds)
        free = dataclasses.replace(
            fair, bots=tuple(dataclasses.replace(bot, ponder=True) for bot in fair.bots)
        )
        rates: dict[str, list[float]] = {"fair": [], "ponder": []}
        for trial in range(trials):  # each first in every other trial: no bias of order
            for kind in ("fair", "ponder")[:: 1 if trial % 2 else -1]:
                config = fair if kind == "fair" else free
                rates[kind].append(_bench.run_timed_league(config, 1).decisions_per_s)
        on, off = statistics.median(rates["fair"]), statistics.median(rates["ponder"])
        print(f"  {name}: fair clock {on:.0f}/s, ponder {off:.0f}/s: x{on / off:.3f}")


def _profile(config: _bench.arena_config.LeagueConfig) -> None:
    """cProfile one jobs=1 run of ``config`` and print where the referee's time goes."""
    profiler = cProfile.Profile()
    profiler.enable()
    run = _bench.run_timed_league(config, 1)
    profiler.disable()
    print(f"\n## cProfile: {config.engine}, jobs=1, {run.decisions} decisions, {run.wall_s:.2f} s")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
