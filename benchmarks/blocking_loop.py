"""The peer a user could write instead of the arena: one blocking-pipe loop, no referee.

    python benchmarks/blocking_loop.py space-five --games 200

It starts one trivial bot per seat with :class:`subprocess.Popen`, then for each game makes
the same engine calls as the referee (``new_game``, ``to_move``, ``legal_actions``,
``observation``, ``apply``) and the same encoding (``arena.protocol``'s ``act`` and
``encode``; ``decode`` of the answer), with blocking ``write``/``readline`` on the pipes.
No clock, no verdicts, no store, no concurrency: what a 30-line script does.
``benchmarks/referee.py`` measures the arena against it in the same run.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402

import engines  # noqa: E402
from arena import protocol  # noqa: E402

TRIVIAL_BOT = Path(__file__).resolve().parent / "trivial_bot.py"


def blocking_loop(engine_name: str, players: int, games: int, seed: int = 1) -> tuple[int, float]:
    """Play ``games`` games; return (decisions, seconds spent playing them)."""
    engine = engines.get(engine_name)
    options = engine.check(players, {})
    bots = [
        subprocess.Popen(
            [sys.executable, str(TRIVIAL_BOT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        for _ in range(players)
    ]
    decisions = 0
    started = time.perf_counter()
    try:
        for game in range(games):
            state = engine.new_game(players, seed + game, options)
            step = 0
            while (seat := state.to_move()) is not None:
                legal = state.legal_actions()
                message = protocol.act(f"g{game}", step, state.observation(seat), legal, 1000, 0)
                bot = bots[seat]
                assert bot.stdin is not None and bot.stdout is not None
                bot.stdin.write(protocol.encode(message))
                bot.stdin.flush()
                answer = protocol.decode(bot.stdout.readline())
                state.apply(legal[answer["index"]])
                step += 1
            decisions += step
        return decisions, time.perf_counter() - started
    finally:
        for bot in bots:
            assert bot.stdin is not None
            bot.stdin.close()
            bot.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    decisions, seconds = blocking_loop(args.engine, args.players, args.games)
    print(f"{args.engine}: {decisions} decisions in {seconds:.2f} s: {decisions / seconds:.0f}/s")


if __name__ == "__main__":
    main()
