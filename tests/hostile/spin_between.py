"""Hostile bot: before ``ready`` starts a child that leaves its session (``setsid``) and
spins the CPU forever, then plays the first legal action at once. At each ``act`` it says
on stderr how much CPU its child used since its own last answer, and how long that was:
``between: cpu_ms=<n> wall_ms=<n>``. Outside its turns the child should get nothing."""

import argparse
import os
import sys
import time

from _common import Message, play_first, serve

parser = argparse.ArgumentParser()
parser.add_argument("--spinners", type=int, default=1)  # more: children spinning beside it
args, _marker = parser.parse_known_args()

TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")
child = 0
answered: tuple[float, float] | None = None  # (child cpu, wall) at its last answer


def spinner() -> None:
    os.setsid()
    while True:
        pass


def child_cpu_ms() -> float:
    with open(f"/proc/{child}/stat", "rb") as stat:
        fields = stat.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * TICK_MS  # utime + stime, in ticks


def on_hello(message: Message) -> None:
    global child
    child = os.fork()
    if child == 0:
        spinner()
    for _ in range(args.spinners - 1):
        if os.fork() == 0:
            spinner()


def on_act(message: Message, acts: int) -> Message:
    global answered
    now = (child_cpu_ms(), time.monotonic() * 1000)
    if answered is not None:
        cpu, wall = now[0] - answered[0], now[1] - answered[1]
        sys.stderr.write(f"between: cpu_ms={cpu:.0f} wall_ms={wall:.0f}\n")
        sys.stderr.flush()
    answer = play_first(message, acts)
    answered = (child_cpu_ms(), time.monotonic() * 1000)
    return answer


serve(on_act, on_hello=on_hello)
