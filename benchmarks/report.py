"""Time the HTML report of a 10,000-game league and measure its size.

    python benchmarks/report.py                 # 10 000 games, 8 bots, 12 viewers
    python benchmarks/report.py --quick         # 1 000 games (a smoke test)
    python benchmarks/report.py --folder DIR    # keep the league's results folder in DIR

The league is real Space Five games: 40 deals played by seeded random play (seed and moves,
so every game replays), reused under many seatings to reach the game count, each decision
with a think time (lognormal, a different median per bot) as a format 3 record stores it.
The script writes the results folder (``league.toml``, ``games.jsonl``, ``bots.toml``) and
runs the two commands a user would, each in its own process: ``arena standings DIR`` (read
the folder and rate it: the baseline) and ``arena report DIR`` (read, rate, draw, write).
It prints their wall and CPU seconds, the ratio, and the sizes of ``games.jsonl`` and of
the report; then what the time per decision costs the folder: the size of ``games.jsonl``
and the CPU time of reading it (``read_games``, best of 3) beside the same games written
without ``think_us`` and ``bot_notes`` (format 2).
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
import os  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import orjson  # noqa: E402

import engines  # noqa: E402
from arena.league.atomic import write_toml  # noqa: E402
from arena.league.reading import read_games  # noqa: E402
from arena.record import GameRecord, SeatRecord  # noqa: E402

ENGINE = "space-five"
DEALS = 40

Deal = tuple[int, tuple[int, ...], tuple[int, ...], tuple[float, ...], tuple[int, ...]]


def _deals(count: int) -> list[Deal]:
    """``(seed, moves, seat of each move, scores, ranks)`` of ``count`` random 2-seat games."""
    engine = engines.get(ENGINE)
    found = []
    for seed in range(count):
        state = engine.new_game(2, seed, engine.check(2, {}))
        rng = random.Random(seed)
        moves, movers = [], []
        while (seat := state.to_move()) is not None:
            legal = state.legal_actions()
            moves.append(rng.randrange(len(legal)))
            movers.append(seat)
            state.apply(legal[moves[-1]])
        result = state.result()
        found.append((seed, tuple(moves), tuple(movers), tuple(result.scores), tuple(result.ranks)))
    return found


def league(games: int, bots: int) -> list[GameRecord]:
    """``games`` records: round-robin pairs, two rotations per block, deals reused."""
    deals = _deals(DEALS)
    names = [f"bot-{i}" for i in range(bots)]
    median_us = {name: 150 * (i + 1) for i, name in enumerate(names)}
    pairs = list(itertools.combinations(names, 2))
    rng = random.Random(0)
    records = []
    for block in range(games // 2):
        pair = pairs[block % len(pairs)]
        seed, moves, movers, scores, ranks = deals[rng.randrange(DEALS)]
        for rotation in range(2):
            seating = pair if rotation == 0 else pair[::-1]
            seats = []
            for s, bot in enumerate(seating):
                turns = movers.count(s)
                think_us = tuple(
                    round(median_us[bot] * rng.lognormvariate(0, 0.6)) for _ in range(turns)
                )
                seats.append(
                    SeatRecord(
                        bot,
                        scores[s],
                        ranks[s],
                        decisions=turns,
                        think_ms=sum(think_us) / 1000,
                        think_us=think_us,
                    )
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
                    tuple(seats),
                    moves,
                )
            )
    return records


def write_folder(folder: Path, records: list[GameRecord], bots: int) -> None:
    """A results folder as ``arena run`` leaves it (without logs)."""
    folder.mkdir(parents=True, exist_ok=True)
    meta = {
        "name": "bench",
        "engine": ENGINE,
        "engine_version": engines.get(ENGINE).version,
        "mode": "round-robin",
        "players": [2],
        "seed": 0,
        "bots": [{"name": f"bot-{i}", "cmd": "python -m bots.random"} for i in range(bots)],
    }
    write_toml(folder / "league.toml", meta)
    fingerprint = {"executable": sys.executable, "files": {}, "ready": "random 1"}
    write_toml(folder / "bots.toml", {f"bot-{i}": fingerprint for i in range(bots)})
    with (folder / "games.jsonl").open("wb") as games:
        games.writelines(record.to_json() for record in records)


def timed(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``python -m arena ARGS`` in a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "arena", *args], check=True, cwd=_ROOT, stdout=subprocess.DEVNULL
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def format_2_copy(folder: Path, target: Path) -> None:
    """The same games without the keys format 3 added."""
    target.mkdir()
    (target / "league.toml").write_bytes((folder / "league.toml").read_bytes())
    with (folder / "games.jsonl").open("rb") as lines, (target / "games.jsonl").open("wb") as out:
        for line in lines:
            data = orjson.loads(line)
            del data["think_us"], data["bot_notes"]
            out.write(orjson.dumps(data | {"format": 2}) + b"\n")


def reading(folder: Path) -> float:
    """CPU seconds of ``read_games`` (best of 3)."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        read_games(folder)
        best = min(best, time.process_time() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--bots", type=int, default=8)
    parser.add_argument("--viewers", type=int, default=12)
    parser.add_argument("--quick", action="store_true", help="1 000 games")
    parser.add_argument("--folder", type=Path, help="write the league here and keep it")
    args = parser.parse_args()
    games = 1_000 if args.quick else args.games
    with tempfile.TemporaryDirectory(prefix="arena-bench-report-") as work:
        folder = args.folder or Path(work) / "bench"
        write_folder(folder, league(games, args.bots), args.bots)
        standings_s, standings_cpu = timed(["standings", str(folder)])
        report = folder / "report.html"
        report_s, report_cpu = timed(
            ["report", str(folder), "--games", str(args.viewers), "-o", str(report)]
        )
        games_mb = os.path.getsize(folder / "games.jsonl") / 1e6
        report_kb = os.path.getsize(report) / 1024
        old = Path(work) / "format-2"
        format_2_copy(folder, old)
        old_mb = os.path.getsize(old / "games.jsonl") / 1e6
        read_s, old_read_s = reading(folder), reading(old)
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(
        "| games | bots | viewers | games.jsonl MB | `arena standings` s (CPU s) "
        "| `arena report` s (CPU s) | ratio | report KB |"
    )
    print("|---|---|---|---|---|---|---|---|")
    print(
        f"| {games} | {args.bots} | {args.viewers} | {games_mb:.1f} "
        f"| {standings_s:.2f} ({standings_cpu:.2f}) | {report_s:.2f} ({report_cpu:.2f}) "
        f"| {report_s / standings_s:.1f} | {report_kb:.0f} |"
    )
    print(
        f"\ngames.jsonl with a time per decision (format 3): {games_mb:.1f} MB, read in "
        f"{read_s:.2f} CPU s; the same games without (format 2): {old_mb:.1f} MB, "
        f"{old_read_s:.2f} CPU s ({read_s / old_read_s:.2f}x)"
    )


if __name__ == "__main__":
    main()
