"""Group commit: one fsync covers the games written before it started; failures reach
every game it was to cover; a cancelled game hands the fsync to the next."""

from __future__ import annotations

import threading

import trio
import trio.testing

from arena.errors import ResultsError
from arena.league.groupsync import GroupSync


class Disk:
    """A stand-in for ``ResultsDir.sync`` that counts its calls and can be held."""

    def __init__(self) -> None:
        self.calls = 0
        self.release = threading.Event()
        self.release.set()
        self.entered = threading.Event()
        self.fail = False

    def sync(self) -> None:
        self.calls += 1
        self.entered.set()
        assert self.release.wait(timeout=60), "the test never released the fsync"
        if self.fail:
            self.fail = False  # only this one: a later fsync would succeed
            raise ResultsError("games.jsonl: cannot store games: disk full")


def test_games_written_during_an_fsync_share_the_next_one() -> None:
    disk = Disk()
    group = GroupSync(disk.sync, every_s=0.0)
    on_disk: list[int] = []

    async def game(number: int) -> None:
        await group.synced()
        on_disk.append(number)

    async def main() -> None:
        disk.release.clear()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(game, 0)
            await trio.to_thread.run_sync(disk.entered.wait)  # game 0's fsync is running
            for number in range(1, 6):
                nursery.start_soon(game, number)
            await trio.testing.wait_all_tasks_blocked()
            assert on_disk == []
            disk.release.set()

    trio.run(main)
    assert sorted(on_disk) == list(range(6))
    assert disk.calls == 2  # game 0's, then one for the five written while it ran


def test_fsyncs_are_spaced_by_every_s() -> None:
    disk = Disk()
    clock = trio.testing.MockClock(autojump_threshold=0)
    group = GroupSync(disk.sync, every_s=0.05)
    started: list[float] = []

    async def main() -> None:
        for _ in range(3):
            before = disk.calls
            await group.synced()
            assert disk.calls == before + 1
            started.append(trio.current_time())

    trio.run(main, clock=clock)
    assert started[1] - started[0] >= 0.05 and started[2] - started[1] >= 0.05


def test_hurry_wakes_a_spaced_fsync_and_drops_the_spacing() -> None:
    """Once no game is left to start, the last games count without waiting out the spacing:
    the fsync already waiting starts at once, and so does every later one."""
    disk = Disk()
    group = GroupSync(disk.sync, every_s=60.0)
    done: list[int] = []

    async def game(number: int) -> None:
        await group.synced()
        done.append(number)

    async def main() -> None:
        with trio.fail_after(10):  # a spacing not dropped waits 60 s
            await group.synced()  # the first fsync: nothing to wait for
            async with trio.open_nursery() as nursery:
                nursery.start_soon(game, 1)
                await trio.testing.wait_all_tasks_blocked()
                assert done == [] and disk.calls == 1  # waiting out the spacing
                group.hurry()
            assert done == [1] and disk.calls == 2
            await group.synced()  # right after the last one: no spacing any more
            assert disk.calls == 3

    trio.run(main)


def test_a_failed_fsync_fails_every_game_it_covered() -> None:
    disk = Disk()
    disk.fail = True
    group = GroupSync(disk.sync, every_s=0.0)
    failures: list[str] = []

    async def game() -> None:
        try:
            await group.synced()
        except ResultsError as exc:
            failures.append(str(exc))

    async def main() -> None:
        disk.release.clear()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(game)
            await trio.to_thread.run_sync(disk.entered.wait)
            for _ in range(2):
                nursery.start_soon(game)
            await trio.testing.wait_all_tasks_blocked()
            disk.release.set()

    trio.run(main)
    # the two written during the failed fsync are not counted as stored by a later one
    assert failures == ["games.jsonl: cannot store games: disk full"] * 3
    assert disk.calls == 1


def test_a_cancelled_game_hands_the_fsync_on() -> None:
    disk = Disk()
    clock = trio.testing.MockClock()
    group = GroupSync(disk.sync, every_s=10.0)
    stored: list[str] = []

    async def game(name: str, scopes: list[trio.CancelScope]) -> None:
        with trio.CancelScope() as scope:
            scopes.append(scope)
            await group.synced()
            stored.append(name)

    async def main() -> None:
        await group.synced()  # the first fsync, at once; the next may start 10 s after it
        leader: list[trio.CancelScope] = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(game, "leader", leader)
            await trio.testing.wait_all_tasks_blocked()  # it waits to run the next fsync
            nursery.start_soon(game, "follower", [])
            await trio.testing.wait_all_tasks_blocked()  # it waits for the leader's
            leader[0].cancel()
            await trio.testing.wait_all_tasks_blocked()  # the follower waits in its place
            assert disk.calls == 1
            clock.jump(10)

    trio.run(main, clock=clock)
    assert stored == ["follower"] and disk.calls == 2


def test_the_first_fsync_starts_at_once() -> None:
    disk = Disk()
    group = GroupSync(disk.sync)

    async def main() -> None:
        await group.synced()
        assert trio.current_time() == 0 and disk.calls == 1

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
