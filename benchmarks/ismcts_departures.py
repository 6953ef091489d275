"""How often ISMCTS leaves its guide's move, by iteration budget.

    python benchmarks/ismcts_departures.py good-boy --iterations 50 200 800 --flags "--playout
        greedy --depth 30 --margin 3 --guide greedy --confidence 1"

The decision points are those of ``benchmarks/ismcts_profile.py`` (every fourth of seat 0's
decisions with more than one legal action in greedy-vs-greedy games, here of ``--games``
seeds), with the observations seat 0 had seen. At each, ``bots.ismcts``'s search with the
given flags (which must include ``--guide greedy``) runs each fixed budget (its own random
stream seeded per point, so a run is the same on any machine) and the script counts the
points where it plays another move than its guide, the greedy bot. Read beside the score
against greedy at the same budgets (``benchmarks/ismcts_duel.py``): a search that leaves
greedy's move more often as the budget grows while its score falls is confident in estimates
that are wrong on average.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import random  # noqa: E402
import shlex  # noqa: E402

import engines  # noqa: E402
from arena.sdk import GameInfo  # noqa: E402
from benchmarks.ismcts_profile import decisions  # noqa: E402
from bots import ismcts  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--flags", default="", help="bots.ismcts flags (one string)")
    parser.add_argument("--iterations", type=int, nargs="+", default=[50, 200, 800])
    parser.add_argument("--games", type=int, default=4, help="greedy-vs-greedy seeds")
    args = parser.parse_args()
    engine = engines.get(args.engine)
    points = decisions(engine, range(1, args.games + 1))
    settings = ismcts.parse(shlex.split(args.flags))[0].for_engine(engine.name)
    options = engine.check(2, {})
    print(f"{engine.name}, 2 seats, flags: {args.flags or '(defaults)'}")
    print(f"{len(points)} decision points from {args.games} greedy-vs-greedy games")
    print("| iterations | departures from greedy's move | share |")
    print("|---|---|---|")
    for budget in args.iterations:
        departures = 0
        for number, (seen, legal, _) in enumerate(points):
            game = GameInfo(engine.name, options, "departures", 0, 2, 1, random.Random(number))
            search = ismcts.make_search(settings, seen[-1], legal, game)
            guide = search.first_index  # the greedy bot's move here, as the search sees it
            if search.choose(seen, legal, budget, 0.0) != guide:
                departures += 1
        print(f"| {budget} | {departures} of {len(points)} | {departures / len(points):.2f} |")


if __name__ == "__main__":
    main()
