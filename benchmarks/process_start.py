"""What containment costs at process start: a bot's ``hello`` → ``ready`` handshake as the
referee does it, plain and under each layer.

    python benchmarks/process_start.py [--runs 15]

Starts ``benchmarks/trivial_bot.py`` through :func:`arena.game.botproc.host_bot` with
``sandbox = "none"`` (the keeper only) and ``"auto"`` (the keeper and bubblewrap, where it
works), and the same bot by ``subprocess`` without either, and prints the median start-up
(launch to ``ready``) of each and its ratio to the plain start. A process is started once and
reused for many games, so this is paid once per process, not per game.

Where the referee may make control groups (``arena.game.cgroup``), each arena kind is
measured with its group ("+ cgroup", the default) and without (as where none can be made),
and the cost of the group is printed as the ratio of their medians.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as `python benchmarks/<name>.py`, Python puts benchmarks/ first on sys.path, where
# benchmarks/engines.py would hide the engines package: put the repository there instead.
_ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == _ROOT / "benchmarks":
    sys.path[0] = str(_ROOT)

import argparse  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import trio  # noqa: E402

from arena import protocol  # noqa: E402
from arena.config import BotSpec, Limits  # noqa: E402
from arena.game import botproc  # noqa: E402
from arena.game.botproc import BotProcess, StderrLog, host_bot  # noqa: E402
from arena.game.sandbox import unusable_reason  # noqa: E402

BOT = Path(__file__).with_name("trivial_bot.py")
HELLO = protocol.encode(protocol.hello("toy", "1", {}, {"move_ms": 1000, "bank_ms": 1000}))


def plain_start() -> float:
    started = time.perf_counter()
    with subprocess.Popen(
        [sys.executable, str(BOT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as bot:
        assert bot.stdin is not None and bot.stdout is not None
        bot.stdin.write(HELLO)
        bot.stdin.flush()
        bot.stdout.readline()
        elapsed = time.perf_counter() - started
        bot.stdin.close()
    return elapsed


async def arena_start(sandbox: str, folder: Path, place: object) -> float:
    botproc._PLACES[:] = [place]  # type: ignore[list-item]  # with or without its group
    spec = BotSpec("trivial", (sys.executable, str(BOT)), Limits(), sandbox=sandbox)
    async with trio.open_nursery() as nursery:
        bot = await nursery.start(host_bot, spec, HELLO, folder, StderrLog(None, 0))
        assert isinstance(bot, BotProcess), bot
        bot.close()
    return bot.startup_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    place = botproc.control_groups()
    kinds = ["none"] + ([] if unusable_reason() else ["auto"])
    grouped = [(kind, None) for kind in kinds] + [(kind, place) for kind in kinds if place]
    times: dict[tuple[str, bool], list[float]] = {("plain", False): []}
    times.update({(kind, bool(group)): [] for kind, group in grouped})
    with tempfile.TemporaryDirectory() as work:
        for run in range(args.runs):  # interleaved: a busy moment hurts every kind alike
            times["plain", False].append(plain_start())
            for kind, group in grouped:
                folder = Path(work) / f"{kind}-{bool(group)}-{run}"
                times[kind, bool(group)].append(trio.run(arena_start, kind, folder, group))
    base = statistics.median(times["plain", False])
    names = {"plain": "plain subprocess", "none": "keeper", "auto": "keeper + bubblewrap"}
    for (kind, with_group), values in times.items():
        median = statistics.median(values)
        name = names[kind] + (" + cgroup" if with_group else "")
        print(f"{name:32s} median {median * 1000:6.1f} ms  x{median / base:.2f}")
    for kind in kinds if place else []:
        cost = statistics.median(times[kind, True]) / statistics.median(times[kind, False])
        print(f"its control group costs {names[kind]} x{cost:.3f} at the median")


if __name__ == "__main__":
    main()
