"""Writing the files of a results folder so that a kill or a full disk never leaves one cut
short: whole files replaced at once, lines appended once, data fsync'd before it counts."""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomli_w

from arena.errors import ResultsError


def write_toml(path: Path, data: Mapping[str, Any], *, rewrite: str | None = None) -> None:
    """Write a TOML file whole or not at all (no partial file is left behind on failure);
    ``rewrite``: see :func:`os_reason`."""
    try:
        write_whole(path, tomli_w.dumps(dict(data)).encode("utf-8"))
    except OSError as exc:
        raise ResultsError(f"{path}: cannot write: {os_reason(exc, rewrite)}") from None


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: beside it, then renamed over it, so a
    full disk never leaves a file cut short in place of a good one; raises the OSError.

    A symlink keeps pointing where it did: the file it leads to is the one replaced. A path
    that is neither a file nor a folder (a named pipe, a device) is written into as it
    stands, as a shell's ``>`` would: renaming over it would replace it with a file.
    """
    if _is_special(path):
        with path.open("wb") as handle:
            handle.write(data)
        return
    path = Path(os.path.realpath(path))
    partial = path.with_name(path.name + ".tmp")
    try:
        partial.write_bytes(data)
        os.replace(partial, path)
    except BaseException:  # a full disk, or a Ctrl-C in the middle
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise


def _is_special(path: Path) -> bool:
    """Whether ``path`` (followed to the end of its symlinks) is there and is neither a
    regular file nor a folder; an OSError other than its absence is raised."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def os_reason(exc: OSError, rewrite: str | None = None) -> str:
    """Why a file could not be read or written, in words. A full disk also says what to do
    once space is freed: while games remain to be stored, run again to resume; when every
    game is stored and only a file made from them failed (the standings, a report), what
    ``rewrite`` says (``"write it with: arena report FOLDER"``)."""
    if exc.errno in (errno.EMFILE, errno.ENFILE):  # the referee's own descriptors
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        return (
            f"{exc.strerror}: allow the referee more (ulimit -n is {soft}) or lower --jobs, "
            "and run again to resume"
        )
    if exc.errno != errno.ENOSPC:
        return exc.strerror or str(exc)
    if rewrite is None:
        return "no space left on the device; free some space and run again to resume"
    stored = "every game is stored; only this file was not written"
    return f"no space left on the device; free some space and {rewrite} ({stored})"


def end_last_line(path: Path) -> None:
    """Give the games file's last line, a whole game record, the newline it lacks: each line is
    one write, so only a power cut leaves one, and the run repairing the folder holds its lock
    (no other run may be writing that line)."""
    with path.open("ab") as handle:
        handle.write(b"\n")
        handle.flush()
        os.fsync(handle.fileno())


def append_once(path: Path, data: bytes) -> None:
    """Append ``data`` to the file ``path`` and fsync it, unless the file already ends with
    ``data`` (the same move, tried before: nothing is lost, as the bytes are there). A write
    that fails leaves the file as it was, not with part of ``data``."""
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        size = os.fstat(fd).st_size
        if size >= len(data) and os.pread(fd, len(data), size - len(data)) == data:
            return
        try:
            written = 0
            while written < len(data):
                written += os.write(fd, data[written:])
            os.fsync(fd)
        except OSError:
            os.ftruncate(fd, size)
            raise
    finally:
        os.close(fd)


def write_synced(path: Path, data: bytes) -> None:
    """Write a new file ``path`` holding ``data`` and fsync it."""
    with path.open("xb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def sync_folder(path: Path) -> None:
    """fsync a folder: the names created or renamed in it are on disk."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
