"""Time the standings on a large synthetic league.

    python benchmarks/ratings.py                       # 100 000 games, 4 seats, 20 bots
    python benchmarks/ratings.py --model pl --bootstrap 200

Prints the time to read the games.jsonl text (``GameRecord.from_json`` of every line: the
floor any standings command pays), one fit without intervals, and the full standings with bootstrap
intervals, each also as a ratio to the reading time measured in the same run.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python benchmarks/ratings.py`, Python puts benchmarks/ first on sys.path, where
# benchmarks/engines.py would shadow the `engines` package: put the checkout root there.
_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from arena.record import GameRecord  # noqa: E402
from arena.stats.ratings import compute_standings  # noqa: E402
from tests.ratings_sim import simulate_league  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--model", default="bt", choices=["bt", "pl"])
    args = parser.parse_args()

    elos = list(np.linspace(1200.0, 1800.0, args.bots))
    records = simulate_league(
        elos, players=args.players, blocks=args.games // args.players, seed=1, seat_advantage=30
    )
    text = b"".join(rec.to_json() for rec in records)
    print(f"{len(records)} games, {args.players} seats, {args.bots} bots, model {args.model}")

    start = time.perf_counter()
    parsed = [GameRecord.from_json(line) for line in text.splitlines()]
    read = time.perf_counter() - start
    print(f"read games.jsonl text:           {read:6.2f} s   (1.0x)")

    start = time.perf_counter()
    compute_standings(parsed, model=args.model, bootstrap=0)
    single = time.perf_counter() - start
    print(f"standings, no intervals:         {single:6.2f} s   ({single / read:.1f}x)")

    start = time.perf_counter()
    standings = compute_standings(parsed, model=args.model, bootstrap=args.bootstrap)
    full = time.perf_counter() - start
    print(f"standings, {args.bootstrap} resamples:       {full:6.2f} s   ({full / read:.1f}x)")
    print(f"read + standings with intervals: {read + full:6.2f} s")
    widest = max((row.plus_minus or 0.0) for row in standings.rows)
    print(f"widest 95% interval: ±{widest:.1f} Elo over {standings.units} blocks")


if __name__ == "__main__":
    main()
