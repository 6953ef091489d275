"""Blocks per Dask task (arena/league/tasksize.py) and the sequential test's window."""

from __future__ import annotations

from pathlib import Path

from arena import config
from arena.league.feeds import SPRT_WINDOW, SprtFeed
from arena.league.tasksize import MOST_BLOCKS, TaskSizer, split


def test_a_task_holds_one_block_until_one_is_timed_then_what_fills_its_time() -> None:
    sizer = TaskSizer(task_s=1.0)
    assert sizer.blocks() == 1
    sizer.heard(0.02)
    sizer.heard(0.06)
    assert sizer.blocks() == 25  # mean 40 ms
    sizer.heard(3.0)  # a block longer than a task: one block a task
    assert sizer.blocks() == 1
    fast = TaskSizer(task_s=1.0)
    fast.heard(0.0)
    assert fast.blocks() == MOST_BLOCKS
    assert TaskSizer(blocks=7).blocks() == 7


def test_ready_blocks_are_shared_evenly_in_order() -> None:
    assert split(list(range(7)), 3) == [[0, 1, 2], [3, 4], [5, 6]]
    assert split([0, 1], 4) == [[0], [1]]
    assert split([], 4) == []


def test_a_sequential_test_hands_out_at_most_its_window_ahead(tmp_path: Path) -> None:
    bots = "".join(f'[[bots]]\nname = "{name}"\ncmd = "python -m bots.random"\n' for name in "ab")
    path = tmp_path / "league.toml"
    path.write_text(
        'name = "s"\nengine = "little-everdell"\nmode = "sprt"\nplayers = 2\nseed = 5\n'
        '[sprt]\ncandidate = "a"\nopponent = "b"\nmax_blocks = 100\n' + bots
    )
    feed = SprtFeed(config.load(path), None)
    blocks = iter(feed)
    handed = [next(blocks) for _ in range(SPRT_WINDOW)]
    assert all(handed) and [block[0].block for block in handed] == list(range(SPRT_WINDOW))
    assert next(blocks) == []  # none until the test takes block 0
    assert next(blocks) == []
