"""``Forked``: work in a forked copy of this process, its result read back from a file; a
failing copy gives no result, a caller that stops first leaves no copy and no file."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import pytest

from arena import forked
from arena.forked import Forked
from tests.conftest import reaped

pytestmark = pytest.mark.skipif(not forked._CAN_FORK, reason="Forked forks only on Linux")


def _write(text: bytes) -> forked.Work:
    def work(out: IO[bytes]) -> None:
        out.write(text)

    return work


def test_the_copy_writes_and_the_caller_reads(forked_pids: list[int]) -> None:
    parent = os.getpid()

    def work(out: IO[bytes]) -> None:
        out.write(b"from %d, not %d" % (os.getpid(), parent))

    with Forked(work) as copy:
        assert copy.started
        out = copy.result()
        assert out is not None
        assert out.read() == b"from %d, not %d" % (forked_pids[0], parent)
    assert reaped(forked_pids[0])


def test_a_failing_copy_gives_no_result(
    forked_pids: list[int], capfd: pytest.CaptureFixture[str]
) -> None:
    def work(out: IO[bytes]) -> None:
        out.write(b"half")
        raise RuntimeError("the copy fails")

    with Forked(work) as copy:
        assert copy.result() is None
    assert reaped(forked_pids[0])
    assert capfd.readouterr() == ("", "")  # and says nothing


def test_a_caller_that_stops_leaves_no_copy_and_no_file(
    forked_pids: list[int], tmp_path: Path
) -> None:
    os.mkfifo(tmp_path / "never")

    def work(out: IO[bytes]) -> None:
        (tmp_path / "never").read_bytes()  # waits for a writer that never comes

    with pytest.raises(KeyboardInterrupt), Forked(work) as copy:
        assert copy.started
        raise KeyboardInterrupt  # as Ctrl-C would, while the copy still works
    assert reaped(forked_pids[0])
    assert copy._out is None  # closed: an unnamed file, nothing left on disk


def test_no_process_to_be_had_is_no_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    def failing_fork() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", failing_fork)
    with Forked(_write(b"x")) as copy:
        assert not copy.started
        assert copy.result() is None


def test_no_second_core_on_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked.threading, "active_count", lambda: 1)
    monkeypatch.setattr(forked, "cores", lambda: 2)
    monkeypatch.setattr(forked, "_load", lambda: 1.2)  # an idle machine's lagging average
    monkeypatch.setattr(forked, "_runnable_now", lambda: 1)  # this process alone
    assert forked.second_core()
    monkeypatch.setattr(forked, "_runnable_now", lambda: 2)  # another task on the other CPU
    assert not forked.second_core()
    monkeypatch.setattr(forked, "cores", lambda: 4)
    assert forked.second_core()
    monkeypatch.setattr(forked, "_runnable_now", lambda: 1)
    monkeypatch.setattr(forked, "_load", lambda: 3.6)  # busy all minute, idle this moment
    assert not forked.second_core()


def test_runnable_now_counts_this_process_and_a_busy_one() -> None:
    """``_runnable_now`` reads the kernel's count of runnable tasks: at least this one, and
    one more while another process spins."""
    if not os.path.exists("/proc/loadavg"):
        pytest.skip("no /proc/loadavg on this system")
    assert forked._runnable_now() >= 1
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.2)  # it is running by now
        assert forked._runnable_now() >= 2
    finally:
        spinner.kill()
        spinner.wait()


def test_no_second_core_beside_another_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "cores", lambda: 2)
    monkeypatch.setattr(forked, "_load", lambda: 0.0)
    monkeypatch.setattr(forked, "_runnable_now", lambda: 1)
    alone = threading.active_count() == 1  # other tests may have left idle threads behind
    assert forked.second_core() == alone
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not forked.second_core()
    finally:
        release.set()
        other.join()
    assert forked.second_core() == alone
