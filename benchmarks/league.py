"""League scale: games/s at jobs 1 2 4, referee memory over 20,000 games, process reuse.

    python benchmarks/league.py             # full: 20,000-game league and the rest (~3 min)
    python benchmarks/league.py --quick     # smoke test (< 30 s): 600 games
    python benchmarks/league.py --engine space-five --games 5000

Everything runs the real stack (``arena.league.runner.run_league`` writing ``games.jsonl`` in a
temporary folder) with ``benchmarks/trivial_bot.py`` in every seat:

1. **games/s at jobs 1, 2, 4**, each next to the limit set by raw pipe round trips measured
   just before it (raw RT/s of that concurrency / decisions per game);
2. **memory**: the referee's resident set (VmRSS of this process) sampled after 2,000 and
   after 20,000 finished games of one league (target: growth below 20 %);
3. **process reuse**: seconds per game on pooled, reused bot processes (``run_league``,
   jobs = 1) against a fresh process per seat for every game (``arena.tools.match.play_match``,
   which starts, handshakes and ends one process per seat for one game).
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
import time  # noqa: E402
from typing import Any  # noqa: E402

import trio  # noqa: E402

from benchmarks import _bench  # noqa: E402

# The cheapest engine per game first: a 20,000-game league should take minutes, not hours.
_PREFERRED = ("little-everdell", "space-five", "if-it-fits", "good-boy", "cat-yard")


def _pick_engine(wanted: str | None) -> str:
    if wanted:
        _bench.load_engines([wanted])
        return wanted
    loaded = _bench.load_engines([name for name in _PREFERRED])
    return next(name for name in _PREFERRED if name in loaded)


def _fresh_games(config: Any, count: int) -> float:
    """Mean seconds per game when every seat gets a freshly started process."""
    import engines
    from arena.tools.match import play_match

    engine = engines.get(config.engine)

    async def one(seed: int) -> None:
        await play_match(engine, config.bots, seed, config.options, config.limits, config.policy)

    trio.run(one, 0)  # warm-up
    started = time.perf_counter()
    for seed in range(1, count + 1):
        trio.run(one, seed)
    return (time.perf_counter() - started) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short smoke run (< 30 s)")
    parser.add_argument("--engine", help="engine (default: the cheapest per game that loads)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, help="games of the memory league (default 20000)")
    parser.add_argument("--rate-games", type=int, help="games per jobs level (default 2000)")
    parser.add_argument("--jobs", type=int, nargs="*", help="jobs levels (default 1 2 4)")
    parser.add_argument("--memory-jobs", type=int, default=2, help="jobs of the memory league")
    parser.add_argument("--fresh-games", type=int, help="games on fresh processes (default 40)")
    args = parser.parse_args()

    games = args.games or (600 if args.quick else 20_000)
    rate_games = args.rate_games or (120 if args.quick else 2_000)
    fresh_count = args.fresh_games or (4 if args.quick else 40)
    jobs_levels = args.jobs or [1, 2, 4]
    raw_seconds = 0.3 if args.quick else 1.0
    name = _pick_engine(args.engine)
    engine = _bench.load_engines([name])[name]
    players = min(max(args.players, engine.min_players), engine.max_players)
    game = _bench.index_zero_game(engine, players)

    print("# League scale: games/s, referee memory, process reuse")
    print(f"\n{_bench.machine_line()}")
    print(
        f"engine {name}, {players} seats, trivial bots: {game.decisions} decisions/game, "
        f"act lines {game.mean_size} bytes on average"
    )
    started = time.perf_counter()

    # 1. games/s at each jobs level, next to the raw round-trip limit measured just before
    rows = []
    per_game_reused = float("nan")
    config = _bench.trivial_league(name, players, max(1, rate_games // players), name="rate")
    for jobs in jobs_levels:
        raw = _bench.ping_pong(game.sample, raw_seconds, jobs)
        run = _bench.run_timed_league(config, jobs)
        limit = raw / game.decisions
        if jobs == 1:
            per_game_reused = 1 / run.games_per_s
        rows.append(
            {
                "jobs": jobs,
                "games": run.games,
                "games/s": run.games_per_s,
                "decisions/s": run.decisions_per_s,
                "raw RT/s": round(raw),
                "limit games/s": limit,
                "games/s / limit": run.games_per_s / limit,
                "wall s": run.wall_s,
            }
        )
        print(f"  jobs={jobs}: {run.games_per_s:.1f} games/s", file=sys.stderr)
    _bench.print_table(rows, f"Games per second ({name}, {players} seats, trivial bots)")
    print("\nlimit games/s = raw RT/s (same concurrency, measured just before) / decisions/game")

    # 2. referee memory over one long league
    early = max(1, games // 10)
    marks = sorted({early, games // 4, games // 2, games})
    config = _bench.trivial_league(name, players, max(1, games // players), name="memory")
    before = _bench.rss_kib()
    run = _bench.run_timed_league(config, args.memory_jobs, sample_at=marks)
    growth = run.samples[games] / run.samples[early] - 1
    rows = [{"games done": 0, "referee RSS MiB": before / 1024, "vs first mark": ""}]
    rows += [
        {
            "games done": mark,
            "referee RSS MiB": run.samples[mark] / 1024,
            "vs first mark": f"{run.samples[mark] / run.samples[early] - 1:+.1%}",
        }
        for mark in marks
        if mark in run.samples
    ]
    title = f"Referee memory over a {run.games}-game league (jobs={args.memory_jobs})"
    _bench.print_table(rows, title)
    verdict = "met" if growth < 0.20 else "MISSED"
    print(
        f"\ngrowth from {early} to {games} games: {growth:+.1%} (target < +20%: {verdict}); "
        f"{run.games_per_s:.1f} games/s, {run.decisions_per_s:.0f} decisions/s, "
        f"{run.wall_s:.0f} s"
    )

    # 3. reused processes against a fresh process per seat and game
    fresh: list[float] = []  # empty if the measurement failed
    try:
        fresh.append(_fresh_games(config, fresh_count))
    except Exception as exc:  # the match API is being reworked: report, don't stop
        print(f"fresh-process measurement failed: {type(exc).__name__}: {exc}", file=sys.stderr)
    if fresh:
        per_game_fresh = fresh[0]
        rows = [
            {"bot processes": "reused (run_league, jobs=1)", "ms/game": per_game_reused * 1e3},
            {
                "bot processes": f"fresh per seat and game (play_match, {fresh_count} games)",
                "ms/game": per_game_fresh * 1e3,
            },
            {
                "bot processes": "overhead of a fresh start, per game",
                "ms/game": (per_game_fresh - per_game_reused) * 1e3,
            },
        ]
        _bench.print_table(rows, "Reused vs fresh bot processes")
        print(
            f"\nfresh/reused = {per_game_fresh / per_game_reused:.1f}x; the overhead is "
            f"{(per_game_fresh - per_game_reused) / players * 1e3:.0f} ms per process "
            f"(spawn, interpreter start, hello/ready, bye and reaping)"
        )
    print(f"\ntotal time {time.perf_counter() - started:.0f} s; {_bench.machine_line()}")


if __name__ == "__main__":
    main()
