"""Leagues on real Dask clusters: same games as --jobs 1, faults, Ctrl-C, pre-flight errors.

No part of Dask is mocked: a ``LocalCluster`` of worker processes, or ``dask scheduler`` and
``dask worker`` started as subprocesses. Every bot command carries a marker unique to the
test, so "no bot process left" looks at this test's bots only.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import os
import pickle
import re
import shutil
import signal
import socketserver
import subprocess
import sys
import threading
import time
import tomllib
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import trio
from click.testing import CliRunner

from arena import config
from arena.errors import ClusterError, ResultsError
from arena.league.reading import read_games
from arena.league.runner import run_league
from tests.conftest import ROOT, processes_with
from tests.test_league import comparable
from tests.test_trust import BOT_SCRIPT

distributed = pytest.importorskip("distributed", reason="the Dask extra is not installed")

from arena.league.worker import RefereePlugin, WorkerReferee  # noqa: E402  (needs Dask)

TEAM = ("a", "b", "c")


def league_text(marker: str, rounds: int = 2, extra_bots: str = "") -> str:
    """little-everdell (the cheapest game), 3 random bots, tables of 2 and 3: 9 games a round."""
    bots = "".join(
        f'[[bots]]\nname = "{name}"\ncmd = "python -m bots.random {marker}-{name}"\n'
        for name in TEAM
    )
    return (
        f'name = "c"\nengine = "little-everdell"\nplayers = [2, 3]\nrounds = {rounds}\nseed = 11\n'
        f"{bots}{extra_bots}"
    )


def load(tmp_path: Path, text: str) -> config.LeagueConfig:
    path = tmp_path / "league-config.toml"
    path.write_text(text)
    return config.load(path)


def reference(tmp_path: Path, league: config.LeagueConfig) -> list[str]:
    trio.run(lambda: run_league(league, tmp_path / "reference", jobs=1))
    return comparable(read_games(tmp_path / "reference"))


def wait_for_games(folder: Path, count: int, timeout_s: float = 120) -> None:
    games = folder / "games.jsonl"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if games.exists() and games.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"fewer than {count} games stored in {folder} after {timeout_s} s")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a local cluster of two one-thread worker processes, run from the repo."""
    here = os.getcwd()
    os.chdir(ROOT)  # the workers start their bots from the folder they were started in
    try:
        with distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster:
            yield cluster.scheduler_address
    finally:
        os.chdir(here)


def test_local_cluster_plays_the_games_of_jobs_1(tmp_path: Path, in_repo: Path) -> None:
    from arena.league.cluster import run_cluster_league

    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker))
    outcome = run_cluster_league(league, tmp_path / "cluster", jobs=1, workers=2, transcripts=True)
    assert outcome.played == outcome.scheduled == 18 and not outcome.interrupted
    stored = read_games(tmp_path / "cluster")
    assert len({r.id for r in stored}) == len(stored) == 18
    for record in stored:  # the workers' transcripts, written by the client
        for seat in range(record.players):
            lines = tmp_path / "cluster" / "transcripts" / record.id / f"seat{seat}.jsonl"
            assert '"dir": "from"' in lines.read_text()
    assert comparable(stored) == reference(tmp_path, league)
    assert processes_with(marker) == []


@pytest.mark.parametrize("task_blocks", [3, 50])
def test_tasks_of_many_blocks_store_the_games_of_jobs_1(
    tmp_path: Path, in_repo: Path, scheduler: str, task_blocks: int
) -> None:
    """Whatever the blocks per task (50: every block of the league in the first tasks),
    each block is stored once, with its bots' stderr once, and the games are those of
    ``--jobs 1``. The bots are deal spies: each says on stderr which games it was dealt."""
    from arena.league.cluster import run_cluster_league
    from tests.test_league import SPY, seeds_dealt

    marker = f"m{uuid.uuid4().hex[:8]}"
    spies = "".join(
        f'[[bots]]\nname = "{name}"\ncmd = "python {SPY} {marker}-{name}"\n' for name in TEAM
    )
    text = f'name = "t"\nengine = "little-everdell"\nplayers = 2\nrounds = 2\nseed = 3\n{spies}'
    league = load(tmp_path, text)
    outcome = run_cluster_league(
        league, tmp_path / "out", jobs=1, scheduler=scheduler, task_blocks=task_blocks
    )
    assert outcome.played == outcome.scheduled == 12
    stored = read_games(tmp_path / "out")
    assert len({r.id for r in stored}) == len(stored) == 12
    logs = {bot: (tmp_path / "out" / "logs" / f"{bot}.log").read_text() for bot in TEAM}
    seeds_dealt(logs, stored)  # every seat of every game said once: no stderr doubled
    assert comparable(stored) == reference(tmp_path, league)
    assert processes_with(marker) == []


def test_resume_on_a_cluster_plays_only_what_is_missing(
    tmp_path: Path, in_repo: Path, scheduler: str
) -> None:
    from arena.league.cluster import run_cluster_league

    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, rounds=1))
    trio.run(lambda: run_league(league, tmp_path / "out", jobs=1))
    games = tmp_path / "out" / "games.jsonl"
    lines = games.read_bytes().splitlines(keepends=True)
    games.write_bytes(b"".join(lines[:4]) + lines[4][:20])  # killed mid-write, mid-block
    said: list[str] = []
    again = run_cluster_league(
        league, tmp_path / "out", jobs=2, scheduler=scheduler, say=said.append
    )
    assert again.skipped == 4 and again.played == len(lines) - 4
    line = next(line for line in said if "Dask cluster" in line)  # where the games are played
    assert line.startswith(f"playing on the Dask cluster at {scheduler}: 2 workers (tcp://")
    assert "; dashboard http://" in line
    stored = read_games(tmp_path / "out")
    assert len({r.id for r in stored}) == len(stored) == len(lines)
    assert comparable(stored) == reference(tmp_path, league)
    assert processes_with(marker) == []


def _league_with_script_bot(
    tmp_path: Path, name: str, program: Path, script: str
) -> tuple[str, config.LeagueConfig]:
    """A marker and the test league with one more bot, ``name``: the shell ``script``."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    program.write_text(f"#!/bin/sh\n{script}\n")
    program.chmod(0o755)
    extra = f'[[bots]]\nname = "{name}"\ncmd = "{program} {marker}"\n'
    return marker, load(tmp_path, league_text(marker, extra_bots=extra))


def test_what_bots_say_on_stderr_after_their_last_block_reaches_their_logs(
    tmp_path: Path, in_repo: Path, scheduler: str
) -> None:
    """Every process of a bot says on stderr when it starts and when told ``bye``: the
    worker's blocks carry the first, the end of the league (each worker's bots closed, then
    their stderr taken) the last, as in-process, where the log is the bot's own file."""
    from arena.league.cluster import run_cluster_league

    marker = f"m{uuid.uuid4().hex[:8]}"
    talker = ROOT / "tests" / "hostile" / "last_words.py"
    extra = f'[[bots]]\nname = "talker"\ncmd = "python {talker} {marker}"\n'
    league = load(tmp_path, league_text(marker, extra_bots=extra))
    outcome = run_cluster_league(league, tmp_path / "out", jobs=1, scheduler=scheduler)
    assert outcome.played == outcome.scheduled and not outcome.interrupted
    log = (tmp_path / "out" / "logs" / "talker.log").read_text()
    started = re.findall(r"^started (\w+)$", log, re.MULTILINE)
    last_words = re.findall(r"^last words (\w+)$", log, re.MULTILINE)
    assert started and sorted(last_words) == sorted(started)
    assert processes_with(marker) == []


def test_a_bot_that_cannot_start_on_a_worker_stops_the_league_before_any_game(
    tmp_path: Path, in_repo: Path, scheduler: str
) -> None:
    from arena.league.cluster import run_cluster_league

    program = tmp_path / "vanishing-bot"
    script = "exec python -m bots.random"
    marker, league = _league_with_script_bot(tmp_path, "gone", program, script)
    program.unlink()  # on the client it existed; on the workers it does not
    with pytest.raises(ClusterError) as caught:
        run_cluster_league(league, tmp_path / "out", jobs=1, scheduler=scheduler)
    message = str(caught.value)
    assert message.startswith("worker tcp://127.0.0.1:") and "cannot start bot 'gone'" in message
    assert "No such file or directory" in message and "\n" not in message
    assert read_games(tmp_path / "out") == []
    assert processes_with(marker) == []


def test_a_bot_answering_another_version_on_a_cluster_is_refused(
    tmp_path: Path, in_repo: Path, scheduler: str
) -> None:
    """The workers send back each process's ``ready`` answer: the client records a bot's in
    ``bots.toml`` before its first block is stored, and refuses a bot that answers unlike
    its stored games, as the in-process runner does."""
    from arena.league.cluster import run_cluster_league

    marker = f"m{uuid.uuid4().hex[:8]}"
    (tmp_path / "mybot.py").write_text(BOT_SCRIPT)
    (tmp_path / "version.txt").write_text("1\n")
    extra = f'[[bots]]\nname = "d"\ncmd = "python {tmp_path / "mybot.py"} {marker}-d"\n'
    league = load(tmp_path, league_text(marker, rounds=1, extra_bots=extra))
    run_cluster_league(league, tmp_path / "out", jobs=1, scheduler=scheduler)
    assert tomllib.loads((tmp_path / "out" / "bots.toml").read_text())["d"]["ready"] == "mine 1"
    with_d = [r.id for r in read_games(tmp_path / "out") if "d" in r.seating]

    (tmp_path / "version.txt").write_text("2\n")
    league = load(tmp_path, league_text(marker, rounds=2, extra_bots=extra))
    with pytest.raises(ResultsError, match="bot 'd' now answers ready as 'mine 2', but its stored"):
        run_cluster_league(league, tmp_path / "out", jobs=1, scheduler=scheduler)
    assert [r.id for r in read_games(tmp_path / "out") if "d" in r.seating] == with_d
    assert processes_with(marker) == []


def test_ctrl_c_cancels_the_blocks_and_leaves_no_bot_on_the_workers(
    tmp_path: Path, scheduler: str
) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    cfg = tmp_path / "league.toml"
    cfg.write_text(league_text(marker, rounds=20))
    out = tmp_path / "out"
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(cfg), "--out", str(out), "--jobs", "1"],
        cwd=ROOT,
        env={**os.environ, "ARENA_SCHEDULER": scheduler},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_games(out, 4)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Resume with: arena run" in err and "Traceback" not in err
    assert 4 <= len(read_games(out)) < 180
    assert processes_with(marker) == []


def test_a_ctrl_c_while_a_block_is_stored_counts_its_games(
    tmp_path: Path, in_repo: Path, scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C that comes while the client stores a block takes effect once the block is
    stored and counted: the count a stopped run prints is what the folder holds."""
    from arena.league.cluster import run_cluster_league
    from arena.league.results import ResultsDir

    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, rounds=20))
    real_sync = ResultsDir.sync

    def sync(store: ResultsDir) -> None:  # the first block's fsync is where Ctrl-C comes
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.2)
        real_sync(store)

    monkeypatch.setattr(ResultsDir, "sync", sync)
    outcome = run_cluster_league(league, tmp_path / "out", jobs=1, scheduler=scheduler)
    assert outcome.interrupted
    assert outcome.played == len(read_games(tmp_path / "out")) > 0
    assert processes_with(marker) == []


def test_unreachable_scheduler_is_one_line(
    tmp_path: Path, in_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena import cli
    from arena.league import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 1)
    cfg = tmp_path / "league.toml"
    cfg.write_text(league_text("unreachable"))
    result = CliRunner().invoke(
        cli.main, ["run", str(cfg), "--out", str(tmp_path / "o"), "--scheduler", "127.0.0.1:9"]
    )
    assert result.exit_code == 2
    said = [line for line in result.output.splitlines() if "games scheduled" not in line]
    assert said[0].startswith("arena: error: cannot reach the Dask scheduler at 127.0.0.1:9")
    assert len(said) == 1


def test_workers_without_dask_say_what_to_install(tmp_path: Path) -> None:
    cfg = tmp_path / "league.toml"
    cfg.write_text(league_text("nodask"))
    hide_dask = (
        "import sys; sys.modules['distributed'] = None; "  # an import of it now fails
        "from arena.cli import main; main(prog_name='arena')"
    )
    done = subprocess.run(
        [sys.executable, "-c", hide_dask, "run", str(cfg), "--workers", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "arena: error: the Dask extra is not installed: "
        "pip install -e '.[cluster]' in the arena's clone\n"
    )


class DaskProcesses:
    """``dask scheduler`` and ``dask worker`` subprocesses on 127.0.0.1, ended by the test."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.procs: list[subprocess.Popen[bytes]] = []
        self.env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's arena

    def start(self, *args: str) -> subprocess.Popen[bytes]:
        log = (self.folder / f"dask-{len(self.procs)}.log").open("wb")
        proc = subprocess.Popen(
            ["dask", *args],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.procs.append(proc)
        return proc

    def close(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.mark.slow  # three Dask processes and a league long enough to kill one mid-way
@pytest.mark.skipif(shutil.which("dask") is None, reason="the dask command is not installed")
def test_a_worker_killed_mid_task_loses_nothing_and_doubles_nothing(
    tmp_path: Path, in_repo: Path
) -> None:
    """Tasks of 3 blocks: the killed worker's blocks already sent back stay stored, Dask
    plays its tasks again on the other worker, and the client stores each block once."""
    from arena.league.cluster import run_cluster_league

    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, rounds=4))
    dask = DaskProcesses(tmp_path)
    try:
        port_file = tmp_path / "scheduler.json"
        dask.start(
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(port_file),
        )
        workers = [
            dask.start(
                "worker",
                "--scheduler-file",
                str(port_file),
                "--nthreads",
                "1",
                "--no-nanny",
                "--no-dashboard",
                "--name",
                f"w{i}",
            )
            for i in range(2)
        ]
        deadline = time.monotonic() + 60
        while not port_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        with distributed.Client(scheduler_file=str(port_file), timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
            address = client.scheduler.address
        out = tmp_path / "out"

        def kill_mid_task() -> None:
            wait_for_games(out, 9)  # a quarter: every worker is mid-task (tasks of 3 blocks)
            workers[0].send_signal(signal.SIGKILL)

        killer = threading.Thread(target=kill_mid_task, daemon=True)
        killer.start()
        outcome = run_cluster_league(league, out, jobs=1, scheduler=address, task_blocks=3)
        killer.join()
        assert workers[0].wait(timeout=30) == -signal.SIGKILL
        assert not outcome.interrupted and outcome.played == 36
    finally:
        dask.close()
    stored = read_games(out)
    assert len({r.id for r in stored}) == len(stored) == 36
    assert comparable(stored) == reference(tmp_path, league)
    assert processes_with(marker) == []


def test_an_sprt_league_on_a_cluster_stops_where_in_process_stops(
    tmp_path: Path, in_repo: Path, scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It decides as in-process does, and plays at most the feed's window of blocks past the
    decisive one, though tasks of 4 blocks, 4 in flight, would hand out 16 at once."""
    from arena.league import feeds
    from arena.league.cluster import run_cluster_league

    monkeypatch.setattr(feeds, "SPRT_WINDOW", 2)

    marker = f"m{uuid.uuid4().hex[:8]}"
    text = (
        'name = "s"\nengine = "little-everdell"\nmode = "sprt"\nplayers = 2\nseed = 5\n'
        '[sprt]\ncandidate = "a"\nopponent = "b"\nelo0 = 0\nelo1 = 400\nmax_blocks = 60\n'
        + "".join(
            f'[[bots]]\nname = "{name}"\ncmd = "python -m bots.random {marker}-{name}"\n'
            for name in ("a", "b")
        )
    )
    league = load(tmp_path, text)
    lines: list[str] = []
    outcome = run_cluster_league(
        league, tmp_path / "out", jobs=1, scheduler=scheduler, say=lines.append, task_blocks=4
    )
    local = trio.run(lambda: run_league(league, tmp_path / "reference", jobs=1))
    assert outcome.sprt is not None and local.sprt is not None
    assert outcome.stopped_early == local.stopped_early != ""
    assert outcome.sprt.status_line() == local.sprt.status_line() == lines[-1]
    assert (
        lines[0] == f"warning: {outcome.sprt.caution()}"
    )  # [0, 400]: wider than the approximation likes
    assert lines[1].startswith(f"playing on the Dask cluster at {scheduler}: ")
    assert len(lines) == 2 + outcome.sprt.blocks
    assert outcome.sprt.blocks < 60 - 16  # it decided, well before the budget
    played = {record.block for record in read_games(tmp_path / "out")}
    assert max(played) <= outcome.sprt.blocks - 1 + 2
    # games in flight when the test decided are stored too: compare the blocks it used
    used = {
        f"t0-b{block}-r{rotation}" for block in range(outcome.sprt.blocks) for rotation in (0, 1)
    }
    stored = [r for r in read_games(tmp_path / "out") if r.id in used]
    assert comparable(stored) == comparable(
        [r for r in read_games(tmp_path / "reference") if r.id in used]
    )
    assert processes_with(marker) == []


def slow_bot(tmp_path: Path, marker: str, sleep_s: float) -> str:
    """A ``[[bots]]`` entry for a bot that sleeps before it answers ``hello``."""
    program = tmp_path / "slow-bot"
    program.write_text(f"#!/bin/sh\nsleep {sleep_s}\nexec python -m bots.random\n")
    program.chmod(0o755)
    return f'[[bots]]\nname = "slow"\ncmd = "{program} {marker}-slow"\n'


def wait_for_processes(marker: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    listing = ["ps", "-ww", "-eo", "args"]  # whole lines: the marker follows a long path
    while marker not in subprocess.run(listing, capture_output=True, text=True).stdout:
        assert time.monotonic() < deadline, f"no process with {marker} after {timeout_s} s"
        time.sleep(0.05)


def finishes(target: Callable[[], object], timeout_s: float = 15) -> bool:
    """Run ``target`` in a thread: True when it returned within ``timeout_s``."""
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout_s)
    return not thread.is_alive()


def test_a_worker_referee_closed_during_the_preflight_kills_its_bots(
    tmp_path: Path, in_repo: Path
) -> None:
    from arena.league.worker import WorkerReferee

    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, extra_bots=slow_bot(tmp_path, marker, 30)))
    referee = WorkerReferee(league, 1, False, "tcp://127.0.0.1:1")
    starting = threading.Thread(target=referee.start, daemon=True)
    starting.start()
    wait_for_processes(f"{marker}-slow")  # the pre-flight waits for its hello
    assert finishes(referee.close)
    starting.join(15)
    assert not starting.is_alive()
    assert processes_with(marker) == []


def test_a_worker_referee_closed_before_it_started_starts_nothing(
    tmp_path: Path, in_repo: Path
) -> None:
    from arena.league.worker import WorkerReferee

    marker = f"m{uuid.uuid4().hex[:8]}"
    referee = WorkerReferee(load(tmp_path, league_text(marker)), 1, False, "tcp://127.0.0.1:1")
    referee.close()  # the plugin removed while its setup waited for a thread
    assert finishes(referee.start, timeout_s=5)
    assert processes_with(marker) == []


def test_ctrl_c_during_the_preflight_stops_and_leaves_no_bot(
    tmp_path: Path, scheduler: str
) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    cfg = tmp_path / "league.toml"
    cfg.write_text(league_text(marker, extra_bots=slow_bot(tmp_path, marker, 30)))
    out = tmp_path / "out"
    run = [sys.executable, "-m", "arena", "run", str(cfg), "--out", str(out), "--no-report"]
    proc = subprocess.Popen(
        [*run, "--scheduler", scheduler],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_processes(f"{marker}-slow")  # on a worker, in the pre-flight
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "Resume with: arena run" in err and "Traceback" not in err
    assert read_games(out) == []
    assert processes_with(marker) == []


class StuckPlugin(RefereePlugin):
    """A referee whose worker is slow to report its pools closed."""

    async def teardown(self, worker: Any) -> None:
        await super().teardown(worker)
        await asyncio.sleep(20)


def test_the_client_waits_a_bounded_time_for_the_workers_to_close(
    tmp_path: Path, in_repo: Path, scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.league import cluster, worker

    monkeypatch.setattr(cluster, "CLOSE_TIMEOUT_S", 1, raising=False)
    monkeypatch.setattr(worker, "RefereePlugin", StuckPlugin)
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, rounds=1))
    lines: list[str] = []
    started = time.monotonic()
    outcome = cluster.run_cluster_league(
        league, tmp_path / "out", jobs=1, scheduler=scheduler, say=lines.append
    )
    assert outcome.played == 9 and time.monotonic() - started < 20
    assert lines[0].startswith(f"playing on the Dask cluster at {scheduler}: ")
    assert lines[1:] == [
        "warning: the workers did not report their bots closed within 2 s: see the workers' logs"
    ]
    assert processes_with(marker) == []


class SlowToCloseReferee(WorkerReferee):
    """A worker's referee that closes its bots, then takes long to say so."""

    def close(self) -> None:
        super().close()
        time.sleep(20)


class SlowToClosePlugin(RefereePlugin):
    async def setup(self, worker: Any) -> None:
        await super().setup(worker)
        assert self.referee is not None
        self.referee.__class__ = SlowToCloseReferee


def test_workers_slow_to_close_their_bots_cost_one_bounded_wait(
    tmp_path: Path, in_repo: Path, scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Handing over the bots' last stderr and removing the plugin share one bound: a worker
    stuck in closing is waited for once, with one warning."""
    from arena.league import cluster, worker

    monkeypatch.setattr(cluster, "CLOSE_TIMEOUT_S", 3, raising=False)
    monkeypatch.setattr(worker, "RefereePlugin", SlowToClosePlugin)
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, rounds=1))
    lines: list[str] = []
    last_stored: list[float] = []
    outcome = cluster.run_cluster_league(
        league,
        tmp_path / "out",
        jobs=1,
        scheduler=scheduler,
        say=lines.append,
        on_stored=lambda _: last_stored.append(time.monotonic()),
    )
    assert outcome.played == 9
    # the bound (4 s) and at most 1 s more for the removal, not the bound twice
    assert time.monotonic() - last_stored[-1] < 7
    assert lines[1:] == [
        "warning: the workers did not report their bots closed within 4 s: see the workers' logs"
    ]
    assert processes_with(marker) == []


def sigint_ignored_or_blocked(pid: int) -> bool:
    """Whether SIGINT is ignored or blocked in every thread of process ``pid``."""
    threads = Path(f"/proc/{pid}/task").iterdir()
    for status in (thread / "status" for thread in threads):
        masks = dict(line.split(":\t") for line in status.read_text().splitlines())
        if not (int(masks["SigIgn"], 16) | int(masks["SigBlk"], 16)) & 1 << (signal.SIGINT - 1):
            return False
    return True


def test_a_ctrl_c_while_the_local_cluster_starts_stops_the_league(
    tmp_path: Path, in_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psutil
    from distributed import LocalCluster

    from arena.league.cluster import run_cluster_league

    workers_ignore: list[bool] = []

    class InterruptedCluster(LocalCluster):
        def __init__(self, **kwargs: Any) -> None:
            others = set(psutil.Process().children())  # (the module's cluster)
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the workers start
            super().__init__(**kwargs)
            for child in set(psutil.Process().children()) - others:
                with contextlib.suppress(psutil.Error):  # one that ended meanwhile
                    if "spawn_main" in " ".join(child.cmdline()):
                        workers_ignore.append(sigint_ignored_or_blocked(child.pid))

    monkeypatch.setattr(distributed, "LocalCluster", InterruptedCluster)
    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, league_text(marker, rounds=1))
    outcome = run_cluster_league(league, tmp_path / "out", jobs=1, workers=1)
    assert outcome.interrupted and outcome.played == 0
    assert workers_ignore and all(workers_ignore)
    assert processes_with(marker) == []


class Banner(socketserver.BaseRequestHandler):
    """A server that speaks first (as SSH or SMTP do), then waits."""

    def handle(self) -> None:
        self.request.sendall(b"SSH-2.0-OpenSSH_9.2 hello\r\n")
        self.request.recv(1)


class QuietHTTP(http.server.SimpleHTTPRequestHandler):
    """An HTTP server (the scheduler's dashboard port, say) that logs nothing."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.mark.parametrize("handler", [Banner, QuietHTTP])
def test_a_scheduler_address_that_is_not_a_dask_scheduler_is_one_line(
    tmp_path: Path,
    in_repo: Path,
    monkeypatch: pytest.MonkeyPatch,
    handler: type[socketserver.BaseRequestHandler],
) -> None:
    from arena import cli
    from arena.league import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 1)
    cfg = tmp_path / "league.toml"
    cfg.write_text(league_text("notdask"))
    threads = set(threading.enumerate())
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler) as server:
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        address = f"tcp://127.0.0.1:{server.server_address[1]}"
        started = time.monotonic()
        result = CliRunner().invoke(
            cli.main, ["run", str(cfg), "--out", str(tmp_path / "o"), "--scheduler", address]
        )
        took = time.monotonic() - started
        server.shutdown()
    assert result.exit_code == 2 and took < 10, result.output
    said = [line for line in result.output.splitlines() if "games scheduled" not in line]
    assert said[0].startswith(f"arena: error: cannot reach the Dask scheduler at {address}: ")
    assert len(said) == 1
    time.sleep(0.5)  # the server's handler threads end
    assert set(threading.enumerate()) <= threads  # the client's event loop is gone


def test_a_bot_that_fails_the_preflight_has_its_stderr_in_the_logs(
    tmp_path: Path, in_repo: Path, scheduler: str
) -> None:
    from arena.league.cluster import run_cluster_league

    script = "echo 'ghost: no model file' >&2\nexit 1"
    marker, league = _league_with_script_bot(tmp_path, "ghost", tmp_path / "ghost-bot", script)
    with pytest.raises(ClusterError, match="cannot start bot 'ghost'"):
        run_cluster_league(league, tmp_path / "out", jobs=1, scheduler=scheduler)
    assert "ghost: no model file" in (tmp_path / "out" / "logs" / "ghost.log").read_text()
    assert processes_with(marker) == []


def test_a_worker_never_deals_a_process_one_seed_twice(
    tmp_path: Path, in_repo: Path, toy_engine: str
) -> None:
    """A worker's pools keep their processes block after block, as the in-process league's
    do, and never seat one at a seed it played (the other rotations of its block, or the
    same block at another table). Played on a worker's referee without Dask processes."""
    from arena.league.schedule import iter_blocks
    from arena.league.worker import WorkerReferee
    from tests.test_league import seeds_dealt, spy_league_text

    marker = f"m{uuid.uuid4().hex[:8]}"
    league = load(tmp_path, spy_league_text(marker, "abc", rounds=2))
    referee = WorkerReferee(league, 1, False, "tcp://127.0.0.1:1")
    referee.start()
    try:
        blocks = list(iter_blocks(league, league.rounds))
        sent: list[str] = []
        pickled = referee.play_blocks(blocks, lambda block, _: sent.append(block))
    finally:
        referee.close()
    assert sent == [block[0].id for block in blocks[:-1]]  # each but the last, at once
    played = [pickle.loads(data) for _, data in pickled]
    records = [record for block in played for record in block.records]
    assert len(records) == 2 * 3 * 2
    # each block takes the stderr drained so far; the rest is taken once the bots are closed
    shipped = [block.logs for block in played] + [referee.take_logs()]
    logs = {bot: b"".join(taken.get(bot, b"") for taken in shipped).decode() for bot in "abc"}
    dealt = seeds_dealt(logs, records)
    assert all(len(set(seeds)) == len(seeds) for seeds in dealt), dealt
    assert any(len(seeds) > 1 for seeds in dealt)  # processes are still reused
    assert processes_with(marker) == []


def test_a_swiss_league_on_a_cluster_plays_the_pairings_of_in_process(
    tmp_path: Path, in_repo: Path, scheduler: str
) -> None:
    """A round's tables go to the workers together; the next round waits for their results."""
    from arena.league.championship import by_block, swiss_event
    from arena.league.cluster import run_cluster_league

    marker = f"m{uuid.uuid4().hex[:8]}"
    text = 'name = "sw"\nengine = "little-everdell"\nmode = "swiss"\nplayers = 2\nrounds = 2\n'
    text += "seed = 6\n" + "".join(
        f'[[bots]]\nname = "b{i}"\ncmd = "python -m bots.random {marker}-b{i}"\n' for i in range(6)
    )
    league = load(tmp_path, text)
    outcome = run_cluster_league(league, tmp_path / "out", jobs=1, scheduler=scheduler)
    assert outcome.played == outcome.scheduled == 12 and not outcome.interrupted
    stored = read_games(tmp_path / "out")
    assert swiss_event(league, by_block(league, stored)).finished
    assert comparable(stored) == reference(tmp_path, league)
    assert processes_with(marker) == []
