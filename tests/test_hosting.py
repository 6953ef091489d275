"""One hosting recipe: every process a host started is gone, and its folder removed, when the
``async with`` block is left, however it is left."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
import trio

import engines
from arena.config import BotSpec, Limits, parse_command
from arena.game.botproc import BotProcess, StderrLog
from arena.game.hosting import hosting
from arena.game.seats import hello_line
from tests.conftest import processes_with


@pytest.mark.parametrize("leave_by", ["error", "cancel"])
def test_host_ends_pools_and_single_processes(leave_by: str, in_repo: Path) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    bot = BotSpec("r", parse_command(f"python -m bots.random {marker}"))
    hello = hello_line(engines.get("space-five"), {}, Limits())
    bots: list[BotProcess] = []
    folders: list[Path] = []
    running: list[int] = []

    async def main() -> None:
        with trio.CancelScope() as scope:
            async with hosting() as host:
                folders.append(host.workroot)
                bots.append(await host.pool(bot, hello).acquire())
                bots.append(await host.start(bot, hello, StderrLog(None, 0)))
                running.append(len(processes_with(marker)))
                if leave_by == "error":
                    raise RuntimeError("the caller failed")
                scope.cancel()
                await trio.sleep_forever()

    if leave_by == "error":
        with pytest.raises(RuntimeError, match="the caller failed"):
            trio.run(main)
    else:
        trio.run(main)
    assert running == [2]
    assert processes_with(marker) == []
    assert all(process.exit_code() is not None for process in bots)
    assert not folders[0].exists()


def test_bots_whose_names_make_the_same_folder_name_get_folders_of_their_own(
    in_repo: Path,
) -> None:
    """``ann smith`` and ``ann_smith`` would both be ``ann_smith-1``: one bot's end would
    remove the other's working folder, and each would be charged for both one's files."""
    command = parse_command("python -m bots.random")
    twins = [BotSpec(name, command, sandbox="none") for name in ("ann smith", "ann_smith")]
    hello = hello_line(engines.get("space-five"), {}, Limits())
    folders: list[Path | None] = []

    async def main() -> None:
        async with hosting() as host:
            for bot in twins:
                folders.append((await host.pool(bot, hello).acquire()).workdir)

    trio.run(main)
    assert None not in folders and len(set(folders)) == 2
