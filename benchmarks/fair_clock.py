"""The fair clock (``ponder = false``): a busy bot's think time beside an opponent that
leaves CPU-spinning children, against its time beside a quiet opponent.

    python benchmarks/fair_clock.py [--games 6] [--spinners 4]

``benchmarks/busy_bot.py`` (a fixed computation per move) plays the toy engine at
``--jobs 1`` against ``tests/hostile/spin_between.py`` (children spinning in sessions of
their own, an instant answer) and against the SDK random bot, with the fair clock on
(the default) and off (``ponder = true``), interleaved; the script prints the median of the
busy bot's think times (``think_us`` of its seats) in each case and their ratio to the
quiet one. Target: within 20 % with the fair clock on.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the repository, not benchmarks/ (whose engines.py is a script)

import trio  # noqa: E402

import engines  # noqa: E402
from arena import config  # noqa: E402
from arena.league.reading import read_games  # noqa: E402
from arena.league.runner import run_league  # noqa: E402

BUSY = ROOT / "benchmarks" / "busy_bot.py"
SPINNER = ROOT / "tests" / "hostile" / "spin_between.py"


def league(folder: Path, opponent: str, ponder: bool, games: int) -> config.LeagueConfig:
    lines = ['name = "fair"', 'engine = "toy"', "players = 2", f"rounds = {games // 2}"]
    lines += [f"ponder = {'true' if ponder else 'false'}", "[options]", "pile = 40"]
    lines += ["[limits]", "move_ms = 5000", "bank_ms = 5000"]
    lines += ["[[bots]]", 'name = "busy"', f'cmd = "python {BUSY}"']
    lines += ["[[bots]]", 'name = "opponent"', f'cmd = "{opponent}"']
    path = folder / "league.toml"
    path.write_text("\n".join(lines) + "\n")
    return config.load(path)


def think_ms(folder: Path) -> list[float]:
    times = []
    for record in read_games(folder):
        seat = record.seating.index("busy")
        times += [us / 1000 for us in record.seats[seat].think_us if us >= 0]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--spinners", type=int, default=4)
    parser.add_argument("--trials", type=int, default=2)
    args = parser.parse_args()
    engines.register("toy", "tests.toy_engine")
    opponents = {
        "quiet": "python -m bots.random",
        "spinning": f"python {SPINNER} --spinners {args.spinners}",
    }
    times: dict[tuple[str, bool], list[float]] = {}
    with tempfile.TemporaryDirectory() as work:
        for trial in range(args.trials):
            for ponder in (False, True):
                for name, command in opponents.items():
                    folder = Path(work) / f"{name}-{ponder}-{trial}"
                    folder.mkdir()
                    setup = league(folder, command, ponder, args.games)
                    trio.run(partial(run_league, setup, folder / "out", jobs=1))
                    times.setdefault((name, ponder), []).extend(think_ms(folder / "out"))
    for ponder in (False, True):
        quiet = statistics.median(times["quiet", ponder])
        spinning = statistics.median(times["spinning", ponder])
        clock = "ponder = true (off)" if ponder else "fair clock (on)"
        print(
            f"{clock:20s} busy bot's median think: beside a quiet opponent {quiet:6.1f} ms, "
            f"beside {args.spinners} spinners {spinning:6.1f} ms: x{spinning / quiet:.2f}"
        )


if __name__ == "__main__":
    main()
