from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

import engines

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session", autouse=True)
def one_secret_for_every_folder() -> Iterator[None]:
    """Every results folder the tests make seeds its bots from one secret (each would draw
    its own, arena.league.secret): tests compare the games of runs in two folders."""
    from arena.league import secret

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(secret, "new_key", lambda: bytes(range(16)))
        yield


def with_test_secret(folder: Path) -> Path:
    """``folder`` (made), holding the tests' one secret for an arena run in another process,
    which the patch above does not reach."""
    from arena.league import secret

    folder.mkdir(parents=True, exist_ok=True)
    (folder / secret.FILE).write_text(secret.new_key().hex() + "\n")
    return folder


@pytest.fixture
def toy_engine() -> Iterator[str]:
    """Registers the tiny test engine as 'toy'."""
    engines.register("toy", "tests.toy_engine")
    yield "toy"
    engines.unregister("toy")


@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from the repository root, as a user would."""
    monkeypatch.chdir(ROOT)
    return ROOT


def run_league_file(folder: Path, text: str, jobs: int = 2) -> Path:
    """``arena run`` (in-process) of the league file ``text``, written in ``folder``; the
    results folder (``folder/out``) of the run, which must have ended well."""
    from click.testing import CliRunner

    from arena.cli import main

    config = folder / "league-file.toml"
    config.write_text(text)
    out = folder / "out"
    result = CliRunner().invoke(main, ["run", str(config), "--out", str(out), "--jobs", str(jobs)])
    assert result.exit_code == 0, result.output
    assert f"report: {out / 'report.html'}" in result.output
    return out


@pytest.fixture(scope="session")
def small_league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real league (Space Five, subprocess bots) run once; its results folder."""
    return run_league_file(
        tmp_path_factory.mktemp("small-league"),
        'name = "small"\nengine = "space-five"\nplayers = [2]\nrounds = 1\nseed = 3\n'
        '[[bots]]\nname = "greedy"\ncmd = "python -m bots.space_five_greedy"\n'
        '[[bots]]\nname = "random"\ncmd = "python -m bots.random"\n',
    )


@pytest.fixture
def forked_pids(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the copies this process forks during the test."""
    forks: list[int] = []
    fork = os.fork

    def recording_fork() -> int:
        pid = fork()
        if pid:
            forks.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recording_fork)
    return forks


def allow_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let :mod:`arena.forked` make copies whatever this machine's cores, load and threads."""
    from arena import forked

    monkeypatch.setattr(forked, "cores", lambda: 2)
    monkeypatch.setattr(forked.threading, "active_count", lambda: 1)  # threads left by others
    monkeypatch.setattr(forked, "_load", lambda: 0.0)  # a quiet machine
    monkeypatch.setattr(forked, "_runnable_now", lambda: 1)  # this process alone, now


def reaped(pid: int) -> bool:
    """True when ``pid`` is no longer a child of this process (it was reaped)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def processes_with(marker: str) -> list[str]:
    """Command lines of running processes whose arguments contain ``marker``."""
    out = subprocess.run(["ps", "-eo", "pid,stat,args"], capture_output=True, text=True).stdout
    return [
        line
        for line in out.splitlines()[1:]
        if marker in line and "ps -eo" not in line and " Z" not in line
    ]


def write_league(folder: Path, text: str) -> Path:
    path = folder / "league.toml"
    path.write_text(text)
    return path


PYTHON = sys.executable

T = TypeVar("T")


def wait_until(check: Callable[[], T], what: str, timeout: float = 60.0) -> T:
    """Wait for ``check()`` to return a true value and return it; fail naming ``what`` if
    that has not happened within ``timeout`` seconds.

    For conditions outside this process (a file growing, a process leaving the table): the
    check is retried every 20 ms, and the wait ends the moment it holds.
    """
    deadline = time.monotonic() + timeout
    while not (value := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.02)
    return value


def processes_left(
    marker: str, folder: Path | None = None, groups: Collection[int] = ()
) -> list[str]:
    """Running processes of one test: arguments containing ``marker``, a working directory
    inside ``folder``, or a process group or session in ``groups`` (zombies excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            stat = (entry / "stat").read_bytes()
            args = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        fields = stat[stat.rfind(b")") + 2 :].split()
        state, group, session = fields[0], int(fields[2]), int(fields[3])
        if state == b"Z":
            continue
        try:
            cwd = os.readlink(entry / "cwd")
        except OSError:
            cwd = ""
        inside = folder is not None and (cwd + "/").startswith(f"{folder}/")
        if marker in args or inside or group in groups or session in groups:
            found.append(f"{entry.name} pgid={group} sid={session} cwd={cwd} {args}")
    return found


def sandbox_missing() -> str:
    """Why the bubblewrap sandbox cannot run here ('' when it can)."""
    from arena.game.sandbox import unusable_reason

    return unusable_reason()


needs_bwrap = pytest.mark.skipif(bool(sandbox_missing()), reason=sandbox_missing() or "-")
