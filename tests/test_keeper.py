"""The keeper's view of its children (the rest of the keeper is tested through real bots in
``test_containment.py`` and ``test_hostile.py``)."""

from __future__ import annotations

import builtins
import os
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from arena.game import keeper


@pytest.fixture
def sleepers() -> Iterator[list[subprocess.Popen[bytes]]]:
    started = [subprocess.Popen(["sleep", "30"]) for _ in range(3)]
    yield started
    for process in started:
        process.kill()
        process.wait()


def without_children_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a kernel without ``/proc/<pid>/task/<tid>/children``."""
    real_open = builtins.open

    def open_but_children(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).endswith("/children"):
            raise FileNotFoundError(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", open_but_children)


@pytest.mark.parametrize("children_file", [True, False], ids=["children file", "scan"])
def test_children_are_the_live_ones_either_way(
    sleepers: list[subprocess.Popen[bytes]],
    monkeypatch: pytest.MonkeyPatch,
    children_file: bool,
) -> None:
    if not children_file:
        without_children_files(monkeypatch)
    mine = {process.pid for process in sleepers}
    assert mine <= set(keeper._children(os.getpid()))
    sleepers[0].kill()  # exited, not yet reaped: a zombie is no process to kill
    deadline = time.monotonic() + 5
    while sleepers[0].pid in keeper._children(os.getpid()) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert mine - {sleepers[0].pid} <= set(keeper._children(os.getpid()))
    assert sleepers[0].pid not in keeper._children(os.getpid())
