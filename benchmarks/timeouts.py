"""Referee-caused timeouts: many short-clock games at ``jobs`` = 2 x cores.

Quick bots (the SDK random bot) answer in well under a millisecond, so with ``move_ms`` = 50
and a bank of 1-100 ms every timeout is the referee's (or the machine's) fault, never the
bot's. The same games are then played with generous clocks as the baseline; the script
prints the timeouts of both runs and the throughput ratio. Target: zero timeouts.

Run: ``python benchmarks/timeouts.py [--games-per-pair N] [--bank-ms 1,50,100]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the repository, not benchmarks/ (whose engines.py is a script)

import trio  # noqa: E402

import engines  # noqa: E402
from arena import config  # noqa: E402
from arena.league.reading import read_games  # noqa: E402
from arena.league.runner import run_league  # noqa: E402

BOTS = 6


def league(folder: Path, rounds: int, move_ms: int, bank_ms: int) -> config.LeagueConfig:
    lines = ['name = "timeouts"', 'engine = "toy"', "players = [2, 3]", f"rounds = {rounds}"]
    lines += ["[options]", "pile = 40", "[limits]", f"move_ms = {move_ms}", f"bank_ms = {bank_ms}"]
    lines += ["startup_ms = 10000"]
    for i in range(BOTS):
        lines += ["[[bots]]", f'name = "r{i}"', 'cmd = "python -m bots.random"']
    path = folder / f"league-{move_ms}-{bank_ms}.toml"
    path.write_text("\n".join(lines) + "\n")
    return config.load(path)


def measure(
    folder: Path, rounds: int, move_ms: int, bank_ms: int, jobs: int
) -> tuple[int, int, int, float]:
    """(games, decisions, timeouts, seconds) of one run."""
    cfg = league(folder, rounds, move_ms, bank_ms)
    out = folder / f"out-{move_ms}-{bank_ms}"
    started = time.perf_counter()
    trio.run(lambda: run_league(cfg, out, jobs=jobs))
    seconds = time.perf_counter() - started
    games = read_games(out)
    timeouts = sum(v.get("timeout", 0) for g in games for v in (s.verdicts for s in g.seats))
    decisions = sum(len(g.moves) for g in games)
    return len(games), decisions, timeouts, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rotation blocks per table")
    parser.add_argument("--move-ms", type=int, default=50)
    parser.add_argument("--bank-ms", default="1,50,100", help="comma-separated bank sizes")
    parser.add_argument("--jobs", type=int, default=2 * (os.cpu_count() or 1))
    args = parser.parse_args(argv)
    engines.register("toy", "tests.toy_engine")
    os.chdir(ROOT)
    total_timeouts = 0
    with tempfile.TemporaryDirectory(prefix="arena-timeouts-") as tmp:
        base = measure(Path(tmp), args.rounds, 5000, 10000, args.jobs)
        print(
            f"jobs={args.jobs} baseline (move 5000 ms, bank 10000 ms): {base[0]} games, "
            f"{base[1]} decisions, {base[2]} timeouts, {base[0] / base[3]:.1f} games/s"
        )
        for bank in (int(b) for b in args.bank_ms.split(",")):
            games, decisions, timeouts, seconds = measure(
                Path(tmp), args.rounds, args.move_ms, bank, args.jobs
            )
            total_timeouts += timeouts
            print(
                f"jobs={args.jobs} move {args.move_ms} ms, bank {bank} ms: {games} games, "
                f"{decisions} decisions, {timeouts} timeouts, {games / seconds:.1f} games/s "
                f"({(games / seconds) / (base[0] / base[3]):.2f}x baseline)"
            )
    print("OK: no timeouts" if total_timeouts == 0 else f"FAIL: {total_timeouts} timeouts")
    return 0 if total_timeouts == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
