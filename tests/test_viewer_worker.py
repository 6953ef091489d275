"""The report's second process for game viewers: the same pages with it or without it, and
a worker that fails, dies or cannot draw a game only costs time."""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Iterator
from typing import Any

import pytest

from arena.errors import UserError
from arena.forked import cores
from arena.game.local import play_local
from arena.record import GameRecord
from arena.show.html.viewer import data_block
from arena.show.html.viewer_worker import ViewerWorker, data_blocks
from engines.base import Action

pytestmark = pytest.mark.skipif(
    cores() < 2,
    reason="the viewer worker is only started on a machine with two cores or more",
)


def _first(observation: dict[str, Any], legal: list[Action], game: Any) -> int:
    return 0


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    """Five short Space Five games, each with its own id."""
    return [
        dataclasses.replace(play_local("space-five", [_first, _first], seed), id=f"g{seed}")
        for seed in range(5)
    ]


@pytest.fixture
def worker() -> Iterator[ViewerWorker]:
    started = ViewerWorker.start("space-five")
    assert started is not None
    with contextlib.closing(started):
        yield started


def test_the_blocks_are_those_drawn_here(records: list[GameRecord], worker: ViewerWorker) -> None:
    expected = [data_block(record) for record in records]
    assert data_blocks(records, worker) == expected
    assert data_blocks(records[:2], worker) == expected[:2]  # it keeps serving requests
    assert data_blocks(records[:1], worker) == expected[:1]  # nothing for it to draw


def test_a_worker_that_died_costs_only_time(
    records: list[GameRecord], worker: ViewerWorker
) -> None:
    process = worker._process
    assert process is not None
    process.kill()
    process.wait()
    assert data_blocks(records, worker) == [data_block(record) for record in records]


def test_a_game_the_worker_cannot_draw_is_the_usual_error_in_its_place(
    records: list[GameRecord], worker: ViewerWorker
) -> None:
    broken = dataclasses.replace(records[1], moves=(10_000, *records[1].moves[1:]))
    unplayable = r"move 1 \(step 0, stored index 10000\) is not legal in the replay"
    with pytest.raises(UserError, match=unplayable):
        data_block(broken)
    first, problem, third = data_blocks([records[0], broken, records[2]], worker)
    assert [first, third] == [data_block(records[0]), data_block(records[2])]
    assert isinstance(problem, UserError)
    assert str(problem) == (
        f"game {broken.id}: move 1 (step 0, stored index 10000) is not legal in the replay: "
        "the stored line is damaged or was edited"
    )
    assert data_blocks(records[:2], worker) == [data_block(r) for r in records[:2]]


def test_closing_ends_and_reaps_the_worker(worker: ViewerWorker) -> None:
    process = worker._process
    assert process is not None
    worker.close()
    assert process.returncode is not None  # waited for: no zombie left
    assert not worker.ask([])  # a closed worker takes nothing more


def test_no_worker_on_one_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert ViewerWorker.start("space-five") is None
