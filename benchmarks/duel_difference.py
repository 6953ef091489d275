"""The per-seed difference between two ISMCTS duels on the same seeds.

    python benchmarks/ismcts_duel.py good-boy --seeds 30 --flags "... --iterations 200" \\
        2> a.log
    python benchmarks/ismcts_duel.py good-boy --seeds 30 --flags "... --iterations 800" \\
        2> b.log
    python benchmarks/duel_difference.py a.log b.log

``ismcts_duel.py`` prints on stderr its running score after each seed (two games, one per
seat order, the same deal for both duels). This reads both logs, takes each seed's points,
and prints the two scores over the seeds both duels played and the mean difference per game
(second minus first) with its standard error over those seeds: a paired comparison, which
the shared deals make tighter than the difference of the two scores' own errors.
"""

from __future__ import annotations

import argparse
import re
import statistics
from pathlib import Path

_SEED_LINE = re.compile(r"seed (\d+): ([\d.]+) of (\d+)")


def seed_points(log: Path) -> dict[int, float]:
    """Each seed's points (of 2) from a duel's running-score lines."""
    points: dict[int, float] = {}
    before = 0.0
    for line in log.read_text(encoding="utf-8").splitlines():
        if match := _SEED_LINE.match(line):
            total = float(match[2])
            points[int(match[1])] = total - before
            before = total
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    args = parser.parse_args()
    first, second = seed_points(args.first), seed_points(args.second)
    seeds = sorted(first.keys() & second.keys())
    if len(seeds) < 2:
        raise SystemExit("fewer than two seeds in both logs")
    games = 2 * len(seeds)
    gains = [(second[seed] - first[seed]) / 2 for seed in seeds]
    mean = statistics.mean(gains)
    error = statistics.stdev(gains) / len(seeds) ** 0.5
    print(
        f"{len(seeds)} seeds in both ({games} games each): {args.first.name} "
        f"{sum(first[s] for s in seeds) / games:.3f}, {args.second.name} "
        f"{sum(second[s] for s in seeds) / games:.3f}; second minus first {mean:+.3f} ± "
        f"{error:.3f} a game (standard error over seeds)"
    )


if __name__ == "__main__":
    main()
