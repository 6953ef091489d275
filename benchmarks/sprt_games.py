"""How many games an SPRT league needs: the arena's own test on simulated two-game blocks.

    python benchmarks/sprt_games.py 0 20 --blocks 5000 --runs 400

For true differences of elo0, halfway, elo1 and twice elo1, runs ``--runs`` tests
(:class:`arena.stats.sprt.Sprt`, alpha = beta = 0.05) on two-game blocks whose games the
candidate wins, draws (``--draws``) or loses with the expected score of that difference,
each up to ``--blocks`` blocks, and prints the share of runs that accept H1, accept H0 or end
undecided, and the median and 90th percentile of games played (an undecided run counts its
whole budget). Seeded: the same numbers every time.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python benchmarks/sprt_games.py`, Python puts benchmarks/ first on sys.path, where
# benchmarks/engines.py would hide the engines package: the repository's root goes there.
_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402

import numpy as np  # noqa: E402

from arena.stats.sprt import Sprt, expected_score  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("elo0", type=float)
    parser.add_argument("elo1", type=float)
    parser.add_argument("--blocks", type=int, default=5000, help="budget per run (max_blocks)")
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--draws", type=float, default=0.2, help="share of drawn games")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print("| true difference | H1 | H0 | undecided | games: median | games: 90th percentile |")
    print("|---|---|---|---|---|---|")
    for true in (args.elo0, (args.elo0 + args.elo1) / 2, args.elo1, 2 * args.elo1):
        win = expected_score(true) - args.draws / 2
        odds = [win, args.draws, 1 - win - args.draws]
        verdicts, games = [], []
        for _ in range(args.runs):
            test = Sprt(args.elo0, args.elo1, 0.05, 0.05, "new", "old")
            blocks = rng.choice([1.0, 0.5, 0.0], size=(args.blocks, 2), p=odds).mean(axis=1)
            for score in blocks.tolist():
                test.add_score(score, games=2)
                if test.decision:
                    break
            verdicts.append(test.decision or "none")
            games.append(test.games)
        shares = [np.mean([v == kind for v in verdicts]) for kind in ("H1", "H0", "none")]
        print(
            f"| {true:+g} | "
            + " | ".join(f"{share:.1%}" for share in shares)
            + f" | {np.median(games):,.0f} | {np.percentile(games, 90):,.0f} |"
        )


if __name__ == "__main__":
    main()
