"""How often identical bots look superior: the likelihood of superiority under the null.

    python benchmarks/los_calibration.py --leagues 300 --blocks 30 100

Simulates leagues of ``--bots`` bots of one true strength (``tests/ratings_sim.py``: each
block one table of the given size, every seat rotation played, finishing orders from
strength + Gumbel noise), computes the standings with ``--resamples`` bootstrap resamples,
and collects ``los[a][b]`` for every pair; the last column is the share of leagues with at
least one pair in a tail. With no true difference a calibrated LOS is about
uniform: each tail (LOS at least 95 %, at most 5 %) should hold about 5 % of the pairs, so a
field of many bots shows some such pairs by chance alone. Seeded: the same numbers every time.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python benchmarks/los_calibration.py`, Python puts benchmarks/ first on sys.path,
# where benchmarks/engines.py would hide the engines package: the repository's root goes there.
_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402

import numpy as np  # noqa: E402

from arena.stats.ratings import compute_standings  # noqa: E402
from tests.ratings_sim import simulate_league  # noqa: E402


def null_los(seats: int, blocks: int, args: argparse.Namespace) -> list[list[float]]:
    """LOS of every pair of equal bots, per league, over ``args.leagues`` simulated leagues."""
    found = []
    for league in range(args.leagues):
        records = simulate_league(
            [1500.0] * args.bots, players=seats, blocks=blocks, seed=5000 + league
        )
        standings = compute_standings(
            records, model=args.model, bootstrap=args.resamples, seed=league
        )
        names = sorted(standings.los)
        found.append([standings.los[a][b] for i, a in enumerate(names) for b in names[i + 1 :]])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, nargs="+", default=[30, 100])
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--leagues", type=int, default=300)
    parser.add_argument("--resamples", type=int, default=400)
    parser.add_argument("--model", choices=["bt", "pl"], default="bt")
    args = parser.parse_args()
    print(
        f"{args.leagues} leagues of {args.bots} equal bots, {args.resamples} resamples, "
        f"model {args.model}; a calibrated LOS puts about 5 % of pairs in each tail\n"
    )
    print("| seats | blocks | pairs | LOS ≥ 95 % | LOS ≤ 5 % | both tails | leagues with one |")
    print("|---|---|---|---|---|---|---|")
    for blocks in args.blocks:
        for seats in args.seats:
            los = np.array(null_los(seats, blocks, args))  # (leagues, pairs)
            high, low = los >= 0.95, los <= 0.05
            some = float(np.mean((high | low).any(axis=1)))  # leagues with a pair in a tail
            print(
                f"| {seats} | {blocks} | {los.size} | {high.mean():.1%} | {low.mean():.1%} "
                f"| {high.mean() + low.mean():.1%} | {some:.0%} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
