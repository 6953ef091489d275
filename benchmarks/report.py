"""Time the HTML report of a 10,000-game league and measure its size.

    python benchmarks/report.py                 # 10 000 games, 8 bots, 12 viewers
    python benchmarks/report.py --quick         # 1 000 games (a smoke test)

The league is real Space Five games: 40 deals played by seeded random play (seed and moves,
so every game replays), reused under many seatings to reach the game count. Prints the wall
and CPU time of the standings (``compute_standings``, what ``arena standings`` pays: the
baseline) and of the report built from them, their ratio, and the page's size in kilobytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python benchmarks/report.py`, Python puts benchmarks/ first on sys.path, where
# benchmarks/engines.py would shadow the `engines` package: put the checkout root there.
_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import itertools  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

import engines  # noqa: E402
from arena.record import GameRecord, SeatRecord  # noqa: E402
from arena.show.html.report import build_report  # noqa: E402
from arena.stats.ratings import compute_standings  # noqa: E402

ENGINE = "space-five"
DEALS = 40


def _deals(count: int) -> list[tuple[int, tuple[int, ...], tuple[float, ...], tuple[int, ...]]]:
    """``(seed, moves, scores, ranks)`` of ``count`` random two-seat games."""
    engine = engines.get(ENGINE)
    found = []
    for seed in range(count):
        state = engine.new_game(2, seed, engine.check(2, {}))
        rng = random.Random(seed)
        moves = []
        while state.to_move() is not None:
            legal = state.legal_actions()
            moves.append(rng.randrange(len(legal)))
            state.apply(legal[moves[-1]])
        result = state.result()
        found.append((seed, tuple(moves), tuple(result.scores), tuple(result.ranks)))
    return found


def league(games: int, bots: int) -> list[GameRecord]:
    """``games`` records: round-robin pairs, two rotations per block, deals reused."""
    deals = _deals(DEALS)
    names = [f"bot-{i}" for i in range(bots)]
    pairs = list(itertools.combinations(names, 2))
    rng = random.Random(0)
    records = []
    for block in range(games // 2):
        pair = pairs[block % len(pairs)]
        seed, moves, scores, ranks = deals[rng.randrange(DEALS)]
        for rotation in range(2):
            seating = pair if rotation == 0 else pair[::-1]
            seats = tuple(
                SeatRecord(bot, scores[s], ranks[s], decisions=len(moves) // 2, think_ms=3.0)
                for s, bot in enumerate(seating)
            )
            records.append(
                GameRecord(
                    f"t{block % len(pairs)}-b{block}-r{rotation}",
                    ENGINE,
                    engines.get(ENGINE).version,
                    {"rounds": 1, "young": False, "deal_counts": []},
                    seed,
                    block % len(pairs),
                    block,
                    rotation,
                    seats,
                    moves,
                )
            )
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--viewers", type=int, default=12)
    parser.add_argument("--quick", action="store_true", help="1 000 games")
    args = parser.parse_args()
    games = 1_000 if args.quick else args.games
    records = league(games, args.bots)
    meta = {
        "name": "bench",
        "engine": ENGINE,
        "engine_version": engines.get(ENGINE).version,
        "mode": "round-robin",
        "players": [2],
        "bots": [{"name": f"bot-{i}", "cmd": "python -m bots.random"} for i in range(args.bots)],
    }
    started, cpu = time.perf_counter(), time.process_time()
    standings = compute_standings(records)
    standings_s = time.perf_counter() - started
    standings_cpu = time.process_time() - cpu
    started, cpu = time.perf_counter(), time.process_time()
    page = build_report(Path("bench"), meta, records, standings, games=args.viewers)
    report_s = time.perf_counter() - started
    report_cpu = time.process_time() - cpu
    print("| games | bots | viewers | standings s (CPU s) | report s (CPU s) | ratio | KB |")
    print("|---|---|---|---|---|---|---|")
    print(
        f"| {len(records)} | {args.bots} | {args.viewers} "
        f"| {standings_s:.2f} ({standings_cpu:.2f}) | {report_s:.2f} ({report_cpu:.2f}) "
        f"| {report_s / standings_s:.1f} | {len(page.encode()) / 1024:.0f} |"
    )


if __name__ == "__main__":
    main()
