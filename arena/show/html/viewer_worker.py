"""Game viewers drawn in a second process, on another core, while this one draws others.

A report's viewers replay each picked game and draw every step (:mod:`viewer`): the
largest part of writing a report, and plain Python, so one process draws them on one core.
:meth:`ViewerWorker.start` starts a second interpreter (``python -m
arena.show.html.viewer_worker``) that imports the drawing code at once and then waits;
``arena run`` starts it before its league, so its start-up overlaps the referee's, and
``arena report`` before it reads the folder. :func:`data_blocks` then hands it every
other game and draws the rest itself.

The worker is a convenience, never a dependency: on a single core there is none, and a
worker that cannot start, dies or answers something unexpected only costs time, because
the games it did not deliver are drawn here. The pages are the same either way.

The pipe protocol: the worker reads one line per request, a JSON list of stored games
(:meth:`GameRecord.to_dict`); it draws them all, then writes one JSON line per game, in
order: the game's data block (a string), or ``null`` when drawing failed (drawn again here,
where the failure is reported properly). It ends at the end of its input. It runs in its
own session, so Ctrl-C at the terminal reaches only the arena, which ends it.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import orjson

import engines
from arena.errors import UserError
from arena.forked import cores
from arena.record import GameRecord
from arena.show.html.viewer import data_block

_PACKAGE_ROOT = str(Path(__file__).resolve().parents[3])  # the folder holding ``arena``


class ViewerWorker:
    """A worker process; :meth:`close` it when done (``contextlib.closing``)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self._process: subprocess.Popen[bytes] | None = process

    @classmethod
    def start(cls, engine: str) -> ViewerWorker | None:
        """A worker that draws games of ``engine`` (it imports that engine's drawing code
        at once), or None on a machine where this process has one core (or no process could
        be started)."""
        if cores() < 2:
            return None
        path = os.pathsep.join(filter(None, (_PACKAGE_ROOT, os.environ.get("PYTHONPATH"))))
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", "arena.show.html.viewer_worker", engine],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env={**os.environ, "PYTHONPATH": path},
                start_new_session=True,
            )
        except OSError:
            return None
        return cls(process)

    def ask(self, records: Sequence[GameRecord]) -> bool:
        """Send the worker ``records`` to draw; False if it cannot take them."""
        process = self._process
        if process is None or process.stdin is None:
            return False
        request = orjson.dumps([record.to_dict() for record in records]) + b"\n"
        try:
            process.stdin.write(request)
            process.stdin.flush()
        except OSError:  # it has ended
            self.close()
            return False
        return True

    def answers(self, count: int) -> list[str | None]:
        """The data blocks of the last request, in order (None for each it did not draw)."""
        process = self._process
        blocks: list[str | None] = [None] * count
        if process is None or process.stdout is None:
            return blocks
        for index in range(count):
            line = process.stdout.readline()
            try:
                block = orjson.loads(line)
            except orjson.JSONDecodeError:  # it ended, or wrote something else: done with it
                self.close()
                return blocks
            blocks[index] = block if isinstance(block, str) else None
        return blocks

    def close(self) -> None:
        """End the worker (its input closed, then killed if it lingers) and reap it."""
        process, self._process = self._process, None
        if process is None:
            return
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def data_blocks(
    records: Sequence[GameRecord], worker: ViewerWorker | None
) -> list[str | UserError]:
    """Each record's viewer data block (:func:`~arena.show.html.viewer.data_block`), or the
    error that says why it cannot be drawn (a game whose moves do not replay): with a
    worker, every other one drawn there while this process draws the rest."""
    theirs = list(records[1::2])
    if worker is None or not theirs or not worker.ask(theirs):
        return [_drawn(record) for record in records]
    mine = [_drawn(record) for record in records[::2]]
    answered = worker.answers(len(theirs))
    drawn = [block or _drawn(record) for record, block in zip(theirs, answered, strict=True)]
    return [(mine if index % 2 == 0 else drawn)[index // 2] for index in range(len(records))]


def _drawn(record: GameRecord) -> str | UserError:
    """The record's data block, or why it cannot be drawn."""
    try:
        return data_block(record)
    except UserError as problem:
        return problem


def main() -> None:
    """The worker: import the drawing code of the engines named on the command line, then
    draw each request's games and answer, until the input ends."""
    for name in sys.argv[1:]:
        with contextlib.suppress(KeyError):  # an unknown engine fails in the caller
            engines.get(name)
            engines.picture(name)
    for line in sys.stdin.buffer:
        answers = []
        for data in orjson.loads(line):
            try:
                answers.append(orjson.dumps(data_block(GameRecord.from_dict(data))))
            except Exception:  # drawn again by the caller, where the failure is reported
                answers.append(b"null")
        sys.stdout.buffer.write(b"\n".join(answers) + b"\n")
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
