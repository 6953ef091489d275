"""A cheap in-process duel: ISMCTS with given flags against the engine's greedy bot.

    python benchmarks/ismcts_duel.py space-five --seeds 20 --flags "--playout random
        --depth 30 --guide greedy --confidence 1"

Two seats, both seat orders per seed (seeds 1000, 1001, ...), played on the referee's own
loop in one process (``arena.game.local``): no subprocesses, so a duel costs only the
bots' thinking. The ISMCTS bot is told ``--move-ms`` (default 200) as its ``time_ms``, so
with the default ``--time-share`` it searches up to 150 ms of wall time per decision, as in
a league at ``move_ms = 200``; ``--iterations`` in the flags gives a fixed budget instead
(the same games under any load). Prints ISMCTS's score against greedy (a win 1, a tie 1/2)
with its standard error, the mean score margin, and the iterations per search; on stderr
the running score after each seed. For choosing flags before a league; the league, not
this, is the measurement.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import shlex  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import engines  # noqa: E402
from arena.game.local import play_local  # noqa: E402
from arena.sdk import GameInfo  # noqa: E402
from bots import ismcts  # noqa: E402
from engines.base import Action  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--flags", default="", help="bots.ismcts flags (one string)")
    parser.add_argument("--seeds", type=int, default=20, help="seeds, two games each")
    parser.add_argument("--move-ms", type=int, default=200, help="time_ms told to ISMCTS")
    args = parser.parse_args()
    engine = engines.get(args.engine)
    flags, _ = ismcts.parse(shlex.split(args.flags))
    search = ismcts.make_choose(flags)
    greedy = ismcts.load_greedy(engine)
    iterations: list[int] = []

    def timed(observation: dict[str, Any], legal: list[Action], game: GameInfo) -> int:
        game.time_ms = args.move_ms
        before = len(game.memory.get("searches", []))
        index = search(observation, legal, game)
        searches = game.memory.get("searches", [])
        if len(searches) > before:
            iterations.append(searches[-1][0])
        return index

    scores: list[float] = []
    margins: list[float] = []
    started = time.monotonic()
    for seed in range(1000, 1000 + args.seeds):
        for seat in (0, 1):
            seats = [timed, greedy] if seat == 0 else [greedy, timed]
            record = play_local(engine.name, seats, seed)
            own, other = record.seats[seat], record.seats[1 - seat]
            scores.append(1.0 if own.rank < other.rank else 0.5 if own.rank == other.rank else 0.0)
            margins.append(own.score - other.score)
        print(
            f"seed {seed}: {sum(scores):g} of {len(scores)}, {time.monotonic() - started:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    error = statistics.pstdev(scores) / len(scores) ** 0.5
    print(
        f"{engine.name} [{args.flags}] move_ms {args.move_ms}: ISMCTS scores "
        f"{statistics.mean(scores):.3f} ± {error:.3f} against greedy over {len(scores)} games, "
        f"margin {statistics.mean(margins):+.2f} points, "
        f"{statistics.mean(iterations) if iterations else 0:.1f} iterations/search, "
        f"{time.monotonic() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
