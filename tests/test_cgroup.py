"""Control groups (arena/game/cgroup.py) as this machine allows them: made, frozen, and
removed, also those a referee killed outright left behind. Skipped where the referee may
make none (not root, no delegated cgroup v2)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.game import cgroup
from arena.game.botproc import control_groups

pytestmark = pytest.mark.skipif(
    control_groups() is None, reason="no control group per bot here (not root, no delegation)"
)


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def parents(place: cgroup.Place) -> list[str]:
    return list(dict.fromkeys([*place.limits.values(), *([place.freezer] * bool(place.freezer))]))


def test_the_groups_of_a_referee_that_is_gone_are_removed_by_the_next() -> None:
    place = control_groups()
    assert place is not None
    pid = dead_pid()
    stale = [os.path.join(parent, f"{pid}-7") for parent in parents(place)]
    for folder in stale:
        os.mkdir(folder)
    mine = [os.path.join(parent, f"{os.getpid()}-999999") for parent in parents(place)]
    for folder in mine:
        os.mkdir(folder)
    try:
        found = cgroup.find()
        assert isinstance(found, cgroup.Place)
        assert [os.path.exists(folder) for folder in stale] == [False] * len(stale)
        assert all(os.path.exists(folder) for folder in mine)  # a live referee's: kept
    finally:
        cgroup.remove(stale + mine)


def spin_in(group: cgroup.Group) -> subprocess.Popen[bytes]:
    folders = cgroup.make(group.spec())
    code = "import sys; sys.stdout.write('x'); sys.stdout.flush()\nwhile True: pass"
    script = f"import sys; sys.path.insert(0, {os.path.dirname(cgroup.__file__)!r}); import cgroup"
    script += f"; cgroup.join({folders!r}); exec({code!r})"
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdout.read(1) == b"x"
    return process


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


@pytest.mark.parametrize("version", [1, 2])
def test_a_frozen_group_gets_no_cpu_and_is_removed_after_its_process(version: int) -> None:
    """Each freezer this machine has: cgroup v2's ``cgroup.freeze`` (where a cgroup2 file
    system is mounted: it needs no controller) and the v1 ``freezer`` controller."""
    place = control_groups()
    assert place is not None
    v2 = bool(place.freezer) and os.path.exists(place.freezer + "/cgroup.freeze")
    if version == 2 and not v2:
        pytest.skip("no cgroup2 freezer here")
    if version == 1:
        found = cgroup._v1_place()
        if isinstance(found, str) or not found.freezer:
            pytest.skip(f"no v1 freezer here ({found})")
        place = found
    group = place.group(64, 8)
    process = spin_in(group)
    try:
        group.freeze()
        time.sleep(0.1)  # the freezer stops the tasks soon after the write
        before = cpu_ticks(process.pid)
        time.sleep(0.3)
        assert cpu_ticks(process.pid) - before <= 1  # at most one tick of 10 ms
        group.thaw()
        time.sleep(0.3)
        assert cpu_ticks(process.pid) > before
    finally:
        group.thaw()
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert cgroup.remove(group.folders, wait_s=1.0)
    assert not any(os.path.exists(folder) for folder in group.folders)
