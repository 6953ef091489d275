"""stdout and stderr that outlive their reader.

A command's output may be piped to a reader that leaves before the end (``| head -1``,
quitting ``less``). The work does not depend on that reader (a league's results go to its
folder), so once a write finds the pipe closed, the stream drops what it is given instead of
failing the work that writes.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer


class _ReaderMayLeave(io.FileIO):
    """The descriptor of a standard stream, whose writes succeed once its reader has gone:
    the descriptor is then pointed at ``/dev/null``, so every later write to it (this
    stream's, the interpreter's own at exit) is dropped quietly."""

    def write(self, data: ReadableBuffer, /) -> int:
        try:
            return super().write(data)
        except BrokenPipeError:
            _point_at_null(self.fileno())
            return memoryview(data).nbytes


def _point_at_null(fd: int) -> None:
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def _outliving_its_reader(stream: TextIO) -> TextIO:
    """``stream`` rebuilt over :class:`_ReaderMayLeave`, with its encoding and buffering; a
    stream that is not a descriptor's (a test's capture) is returned as it is."""
    if not isinstance(stream, io.TextIOWrapper):
        return stream
    try:
        fd = stream.fileno()
    except (OSError, ValueError):
        return stream
    stream.flush()
    return io.TextIOWrapper(
        io.BufferedWriter(_ReaderMayLeave(fd, "wb", closefd=False)),
        encoding=stream.encoding,
        errors=stream.errors,
        line_buffering=stream.line_buffering,
        write_through=stream.write_through,
    )


@contextlib.contextmanager
def readers_may_leave() -> Iterator[None]:
    """Within: ``sys.stdout`` and ``sys.stderr`` drop what they are given once their reader
    has gone, instead of raising :class:`BrokenPipeError`."""
    kept = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = map(_outliving_its_reader, kept)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout, sys.stderr = kept
