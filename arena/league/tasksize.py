"""How many rotation blocks one Dask task plays: as many as fill its target duration.

A task costs the cluster a round trip through the scheduler whatever it holds (tens of
milliseconds of CPU spread over the client, the scheduler and a worker), while a block of
fast bots is a few milliseconds of work: one block per task spends more on Dask than on the
games. :class:`TaskSizer` learns how long a block takes on a worker from the blocks already
finished and gives tasks of about :data:`TASK_S` seconds.
"""

from __future__ import annotations

import math
from typing import TypeVar

T = TypeVar("T")

TASK_S = 1.0
"""The target wall time of one task on a worker."""

MOST_BLOCKS = 256
"""Never more blocks in one task (a task's result is held whole by Dask until it is read)."""


class TaskSizer:
    """Blocks per task: ``blocks`` when given, else learnt to last about ``task_s``.

    Until a block has finished, a task holds one block (the first results come back soon and
    the size is learnt from them); then as many as the mean block time so far fits in
    ``task_s``, between 1 and :data:`MOST_BLOCKS`.
    """

    def __init__(self, *, task_s: float = TASK_S, blocks: int | None = None) -> None:
        self.task_s = task_s
        self.fixed = blocks
        self._seconds = 0.0
        self._blocks = 0

    def heard(self, seconds: float) -> None:
        """A block finished on a worker in ``seconds``."""
        self._seconds += max(0.0, seconds)
        self._blocks += 1

    def blocks(self) -> int:
        """Blocks for the next task."""
        if self.fixed is not None:
            return max(1, self.fixed)
        if not self._blocks:
            return 1
        mean = self._seconds / self._blocks
        if mean <= 0:
            return MOST_BLOCKS
        return max(1, min(MOST_BLOCKS, math.floor(self.task_s / mean)))


def split(blocks: list[T], tasks: int) -> list[list[T]]:
    """``blocks`` dealt into at most ``tasks`` runs of nearly equal length, in order."""
    if not blocks:
        return []
    count = max(1, min(tasks, len(blocks)))
    size, extra = divmod(len(blocks), count)
    out: list[list[T]] = []
    start = 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        out.append(blocks[start:end])
        start = end
    return out
