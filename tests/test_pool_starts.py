"""How a pool starts processes: ahead of its games (``warm``), in the background, and a game
that waits takes whichever process comes first, one given back or a fresh one.

The test bot (``tests/hostile/gated_start.py``) leaves a ticket file per process started,
and holds every process but the first before ``ready`` until the test opens the gate, so
each test knows exactly how many processes were started and when one is still starting.
"""

from __future__ import annotations

import dataclasses
import sys
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from arena import protocol
from arena.config import BotSpec, Limits
from arena.errors import BotDisqualified, BotStartup
from arena.game.botproc import BotPool, BotProcess
from arena.game.hosting import BotHost, hosting
from tests.conftest import ROOT, processes_left

HOSTILE = ROOT / "tests" / "hostile"
HELLO = protocol.encode(protocol.hello("toy", "1", {}, {"move_ms": 1000, "bank_ms": 1000}))


def gated(tmp_path: Path, marker: str) -> BotSpec:
    program = (sys.executable, str(HOSTILE / "gated_start.py"), str(tmp_path), marker)
    return BotSpec("gated", program, Limits(startup_ms=60_000), sandbox="none")


def tickets(folder: Path) -> int:
    return len(list(folder.glob("ticket-*")))


async def until(check: Callable[[], bool]) -> None:
    """Wait for a condition outside this process (a file appearing), checked every 10 ms."""
    while not check():
        await trio.sleep(0.01)


def run_pool(tmp_path: Path, spec: BotSpec, body: Callable[[BotPool], Awaitable[None]]) -> None:
    async def main() -> None:
        with trio.fail_after(120):  # a pool that waits for the wrong process never returns
            async with hosting() as host:
                await body(host.pool(spec, HELLO))

    trio.run(main)
    assert processes_left(spec.argv()[-1], tmp_path) == []


def test_a_waiting_game_takes_the_process_given_back_before_the_new_one(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    got: list[BotProcess] = []

    async def body(pool: BotPool) -> None:
        first = await pool.acquire()  # ticket 0: ready at once
        async with trio.open_nursery() as games:

            async def second_game() -> None:
                got.append(await pool.acquire())

            games.start_soon(second_game)
            await until(lambda: tickets(tmp_path) == 2)  # a second process is starting
            pool.release(first)  # ... and the first comes back before it is ready
        assert got == [first]
        pool.release(first)
        (tmp_path / "open").touch()
        # the new process still arrives, idle: two games get the two without a third start
        third = await pool.acquire()
        again = await pool.acquire()
        assert first in (third, again) and third is not again
        assert tickets(tmp_path) == 2

    run_pool(tmp_path, gated(tmp_path, marker), body)


def test_warm_starts_ahead_and_counts_the_processes_already_running(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    (tmp_path / "open").touch()

    async def body(pool: BotPool) -> None:
        pool.warm(2)
        await until(lambda: tickets(tmp_path) == 2)
        one, two = await pool.acquire(), await pool.acquire()
        pool.warm(2)  # both busy: two are running, none is started
        pool.release(one)
        pool.warm(1)
        assert tickets(tmp_path) == 2
        pool.release(two)
        pool.warm(3)  # one more than there are
        await until(lambda: tickets(tmp_path) == 3)
        taken = {await pool.acquire() for _ in range(3)}
        assert len(taken) == 3 and {one, two} < taken
        assert tickets(tmp_path) == 3

    run_pool(tmp_path, gated(tmp_path, marker), body)


def test_a_process_is_never_given_a_seed_it_played(tmp_path: Path) -> None:
    """A game of a seed (one deal) takes only a process that has not played it: a second
    game of that seed, another rotation of its block, gets another process."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    (tmp_path / "open").touch()

    async def body(pool: BotPool) -> None:
        first = await pool.acquire(7)
        pool.release(first, 7)
        second = await pool.acquire(7)  # the same deal: not the process that played it
        assert second is not first and tickets(tmp_path) == 2
        pool.release(second, 7)
        assert await pool.acquire(8) is second  # another deal: the last one given back
        pool.release(second, 8)
        assert first.seeds == {7} and second.seeds == {7, 8}
        pool.warm(2, 8)  # one of the two has not played 8: one start
        pool.warm(1, 9)  # both fit a third deal: none
        await until(lambda: tickets(tmp_path) == 3)
        fitting = {await pool.acquire(8), await pool.acquire(8)}  # the first and the new one
        assert first in fitting and second not in fitting and tickets(tmp_path) == 3
        fresh = await pool.acquire(8)  # the second is idle, but played 8: a fresh start
        assert fresh not in {first, second} | fitting and not fresh.seeds
        assert tickets(tmp_path) == 4

    run_pool(tmp_path, gated(tmp_path, marker), body)


def test_leaving_the_host_ends_a_start_still_waiting_for_ready(tmp_path: Path) -> None:
    """The gate never opens: the second process never says ``ready`` within its 10-minute
    start-up limit, and leaving the host still ends it (not after the limit)."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    spec = dataclasses.replace(gated(tmp_path, marker), limits=Limits(startup_ms=600_000))
    hosts: list[BotHost] = []

    async def main() -> None:
        with trio.fail_after(120):
            async with hosting() as host:
                hosts.append(host)
                pool = host.pool(spec, HELLO)
                pool.release(await pool.acquire())
                pool.warm(2)
                await until(lambda: tickets(tmp_path) == 2)

    trio.run(main)
    assert processes_left(marker, tmp_path) == []
    assert not hosts[0].workroot.exists()


def test_failed_warm_starts_each_go_to_one_game_then_disqualify(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    program = (sys.executable, str(HOSTILE / "crash_at_start.py"), marker)
    spec = BotSpec("crasher", program, Limits(max_start_failures=2), sandbox="none")
    faults: list[BotStartup] = []

    async def body(pool: BotPool) -> None:
        pool.warm(5)  # no more starts than can fail before the bot is disqualified
        await until(lambda: pool.start_failures == 2)
        for _ in range(3):
            try:
                await pool.acquire()
            except BotStartup as fault:
                faults.append(fault)

    run_pool(tmp_path, spec, body)
    assert [type(fault) for fault in faults] == [BotStartup, BotStartup, BotDisqualified]
    assert all("exit status 3" in str(fault) for fault in faults[:2])
