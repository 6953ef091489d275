"""The process layer under pressure: exact disqualification under concurrent starts, bots
started from a worker thread without ``preexec_fn``, the cap on idle processes, and the
referee's own descriptor limits (never a verdict against a bot)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from typing import Any, cast

import pytest
import trio

from arena import protocol
from arena.config import BotSpec, Limits
from arena.errors import BotStartup
from arena.game import botproc
from arena.game.botproc import BotPool, BotProcess, IdleProcesses, StderrLog, control_groups
from arena.game.watchdog import Watchdog
from arena.league.reading import read_games
from arena.record import GameRecord
from tests.conftest import ROOT, processes_left, wait_until

HOSTILE = ROOT / "tests" / "hostile"
HELLO = protocol.encode(protocol.hello("toy", "1", {}, {"move_ms": 1000, "bank_ms": 1000}))


def test_concurrent_starts_disqualify_exactly_at_the_limit(tmp_path: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    spec = BotSpec(
        "crasher",
        (sys.executable, str(HOSTILE / "crash_at_start.py"), marker),
        Limits(max_start_failures=3),
        sandbox="none",
    )
    faults: list[str] = []

    async def run() -> BotPool:
        with Watchdog() as guard:
            async with trio.open_nursery() as hosts:
                pool = BotPool(spec, HELLO, tmp_path, StderrLog(None, 0), hosts, guard)

                async def ask() -> None:
                    try:
                        await pool.acquire()
                    except BotStartup as fault:
                        faults.append(str(fault))

                async with trio.open_nursery() as games:  # eight games want it at once
                    for _ in range(8):
                        games.start_soon(ask)
                pool.close_all()
        return pool

    pool = trio.run(run)
    assert pool.start_failures == 3
    assert len(faults) == 8
    assert sum("exit status 3" in fault for fault in faults) == 3
    assert faults.count("disqualified after 3 failed starts") == 5
    assert processes_left(marker, tmp_path) == []


def test_bots_start_from_a_worker_thread_without_preexec_fn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, in_repo: Path
) -> None:
    """As in a Dask worker: trio runs in a thread; no process start may use preexec_fn."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    options: list[dict[str, Any]] = []
    real_init = subprocess.Popen.__init__

    def spying_init(self: subprocess.Popen[bytes], *args: Any, **kwargs: Any) -> None:
        options.append(kwargs)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", spying_init)
    spec = BotSpec("random", ("python", "-m", "bots.random", marker), Limits())
    answers: list[dict[str, Any]] = []

    async def run() -> None:
        with Watchdog() as guard:
            async with trio.open_nursery() as hosts:
                pool = BotPool(spec, HELLO, tmp_path, StderrLog(None, 0), hosts, guard)
                bot = await pool.acquire()
                answers.append(bot.ready)
                pool.release(bot)
                pool.close_all()

    worker = threading.Thread(target=trio.run, args=(run,))
    worker.start()
    worker.join(60)
    assert not worker.is_alive()
    assert answers and answers[0]["name"] == "random"
    assert len(options) >= 2  # the watchdog and the bot's keeper, at least
    assert all(kwargs.get("preexec_fn") is None for kwargs in options)
    assert processes_left(marker, tmp_path) == []


class FakeProcess:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_idle_processes_beyond_the_cap_close_least_recently_used() -> None:
    idle = IdleProcesses(cap=3)
    shelves: list[list[BotProcess]] = [[], []]
    fakes = [FakeProcess() for _ in range(5)]
    for number, fake in enumerate(fakes):
        idle.put(cast(BotProcess, fake), shelves[number % 2])
    assert len(idle) == 3
    assert [fake.closed for fake in fakes] == [True, True, False, False, False]
    assert idle.take(shelves[0]) is cast(BotProcess, fakes[4])  # most recent of its shelf
    idle.put(cast(BotProcess, fakes[4]), shelves[0])
    idle.put(cast(BotProcess, FakeProcess()), shelves[1])  # evicts fakes[2], now the oldest
    assert fakes[2].closed and not fakes[3].closed and not fakes[4].closed
    idle.shed()
    assert len(idle) == 0 and all(fake.closed for fake in fakes)
    assert shelves == [[], []]


def test_idle_processes_are_bounded_by_free_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """A large field keeps a process of a bot per game at a seed: the idle ones must not
    fill the memory (one per 64 MB free), whatever the descriptors allow."""
    monkeypatch.setattr(botproc, "raise_open_files_limit", lambda: 1 << 20)
    monkeypatch.setattr(botproc, "_free_memory", lambda: 2 << 30)  # 2 GiB free
    assert botproc.idle_cap() == 32
    monkeypatch.setattr(botproc, "_free_memory", lambda: 100 << 20)
    assert botproc.idle_cap() == 4  # never fewer than a game's seats
    monkeypatch.setattr(botproc, "_free_memory", lambda: 1 << 50)
    assert botproc.idle_cap() == (1 << 20) // 16  # the descriptors' bound


# ``arena run`` in its own process with a chosen descriptor limit (soft, hard)
DRIVER = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[3]), int(sys.argv[4])))
import engines
engines.register("toy", "tests.toy_engine")
from arena.cli import main
main(["run", sys.argv[1], "--out", sys.argv[2], "--jobs", sys.argv[5]])
"""


def hungry_league(folder: Path, marker: str, bots: int) -> Path:
    lines = ['name = "hungry"', 'engine = "toy"', "players = 2", "[options]", "pile = 5"]
    for number in range(bots):
        lines += ["[[bots]]", f'name = "b{number}"', f'cmd = "python -m bots.random {marker}"']
    path = folder / "league.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def run_with_descriptors(
    tmp_path: Path, bots: int, soft: int, hard: int, jobs: int
) -> tuple[subprocess.CompletedProcess[str], list[GameRecord], str]:
    marker = f"m{uuid.uuid4().hex[:8]}"
    path = hungry_league(tmp_path, marker, bots)
    numbers = [str(soft), str(hard), str(jobs)]
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(path), str(tmp_path / "out"), *numbers],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    records = read_games(tmp_path / "out") if (tmp_path / "out" / "games.jsonl").exists() else []
    assert processes_left(marker) == []
    return done, records, marker


def test_a_low_soft_descriptor_limit_is_raised_to_the_hard_one(tmp_path: Path) -> None:
    """Soft 40 would not hold 8 games of 2 bots at once (about 4 descriptors per process);
    6 bots play 30 games, enough for 8 at once."""
    done, records, _ = run_with_descriptors(tmp_path, bots=6, soft=40, hard=4096, jobs=8)
    assert done.returncode == 0, done.stderr
    assert len(records) == 6 * 5
    assert all(not s.verdicts for r in records for s in r.seats)


@pytest.mark.slow  # 10-13 s: 56 games of 8 bots, whose processes an idle cap of 4 restarts
def test_a_tight_hard_limit_is_never_a_verdict_against_a_bot(tmp_path: Path) -> None:
    """Hard 64: 8 bots each keeping an idle process (two at jobs 2) would need about 16
    processes, 64 descriptors and more; the cap on idle processes (64 // 16 = 4) keeps the
    league within it."""
    done, records, _ = run_with_descriptors(tmp_path, bots=8, soft=64, hard=64, jobs=2)
    assert done.returncode == 0, done.stderr
    assert len(records) == 8 * 7
    assert all(not s.verdicts for r in records for s in r.seats)


def test_more_games_than_descriptors_allow_stop_with_a_clear_line_or_finish(
    tmp_path: Path,
) -> None:
    """Hard 64 cannot hold 8 games of 2 bot processes at once (6 bots play 30 games): starts
    that run short are retried as others end; whatever happens, no bot gets a verdict and
    nothing crashes."""
    done, records, _ = run_with_descriptors(tmp_path, bots=6, soft=64, hard=64, jobs=8)
    assert "Traceback" not in done.stderr
    assert all(not s.verdicts for r in records for s in r.seats), done.stderr
    if done.returncode == 0:
        assert len(records) == 6 * 5
    else:
        assert done.returncode == 2, done.stderr
        # the shortage shows where it strikes: a start, or a write of the results folder
        last = done.stderr.splitlines()[-1]
        assert last.startswith("arena: error: "), done.stderr
        assert "the referee could not start a process" in last or (
            "Too many open files: allow the referee more (ulimit -n is 64)" in last
        ), done.stderr


@pytest.mark.slow  # 13 s: the referee's start retries back off for 12.6 s first
def test_too_few_descriptors_for_one_game_stop_with_a_clear_line(tmp_path: Path) -> None:
    done, records, _ = run_with_descriptors(tmp_path, bots=2, soft=20, hard=20, jobs=1)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "arena: error: the referee could not start a process for bot" in done.stderr
    assert "Too many open files (EMFILE)" in done.stderr
    assert records == []  # no verdict stored against a bot


@pytest.mark.slow
def test_forty_bots_at_jobs_8_with_ulimit_1024(tmp_path: Path) -> None:
    """The report's case: 40 bots, --jobs 8, ulimit -n 1024 (soft = hard)."""
    done, records, _ = run_with_descriptors(tmp_path, bots=40, soft=1024, hard=1024, jobs=8)
    assert done.returncode == 0, done.stderr
    assert len(records) == 40 * 39
    assert all(not s.verdicts for r in records for s in r.seats)


def test_a_referee_killed_outright_leaves_no_bot_and_no_bot_folder(tmp_path: Path) -> None:
    """SIGKILL gives the referee no chance to clean up: its watchdog ends the bots and
    removes their folder (a referee that ends well removes it itself)."""
    temp = tmp_path / "temp"
    temp.mkdir()
    out = tmp_path / "out"
    command = ["run", "configs/demo.toml", "--out", str(out), "--no-report", "--fresh"]
    referee = subprocess.Popen(
        [sys.executable, "-m", "arena", *command],
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(temp)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    games = out / "games.jsonl"
    wait_until(lambda: games.exists() and games.read_bytes().count(b"\n") >= 1, "a game", 60)
    assert list(temp.glob("arena-bots-*")), "the bots' folder is where TMPDIR says"
    referee.kill()
    referee.wait()
    wait_until(lambda: not list(temp.glob("arena-bots-*")), "the bots' folder removed", 10)
    nobody = f"m{uuid.uuid4().hex}"  # no command line has it: processes by folder only
    wait_until(lambda: processes_left(nobody, temp) == [], "no bot process left", 10)
    place = control_groups()
    if place is not None:  # the keepers, ended by the watchdog, removed their groups
        parents = {*place.limits.values(), *([place.freezer] if place.freezer else [])}

        def groups_left() -> list[str]:
            prefix = f"{referee.pid}-"
            return [
                name for parent in parents for name in os.listdir(parent) if name.startswith(prefix)
            ]

        wait_until(lambda: groups_left() == [], "no control group of the referee left", 10)
