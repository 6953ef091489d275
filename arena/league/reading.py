"""Reading ``games.jsonl``: every game once, a record at a time or in batches of rows.

Reading warns of every line that is not a game record or repeats a game already read
(naming its line number) and never counts it (:func:`checked_games`).
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import IO, Any, TypeVar

import orjson

from arena.collector import collector_paused
from arena.errors import RecordError, ResultsError
from arena.forked import Forked, second_core
from arena.league.atomic import os_reason
from arena.league.layout import GAMES, Warn
from arena.record import GameRecord, GameRow, well_formed_rows


def read_games(folder: Path | str, warn: Warn | None = None) -> list[GameRecord]:
    """Every game stored in ``folder``, each once; ``warn`` hears of each line skipped."""
    with collector_paused():
        return list(iter_games(folder, warn))


def iter_games(folder: Path | str, warn: Warn | None = None) -> Iterator[GameRecord]:
    """:func:`read_games` as a stream: a chunk of lines in memory at a time, checked as
    :func:`iter_game_rows` checks them."""
    for rows in iter_game_rows(Path(folder), warn):
        yield from map(GameRecord.from_checked, rows)


def iter_game_rows(folder: Path, warn: Warn | None = None) -> Iterator[list[GameRow]]:
    """:func:`iter_games` in batches of rows (JSON forms, :data:`~arena.record.GameRow`):
    the same games in the same order, the same warnings, in a fraction of the time.

    Lines are read a chunk at a time; a chunk whose lines are all well-formed new games
    (most chunks: :func:`~arena.record.well_formed_rows` checks them column by column) is
    taken as parsed; any other chunk is read line by line as :func:`iter_games` does.
    """
    path = folder / GAMES
    if not path.exists():
        return
    with open_to_read(path) as handle:
        yield from _RowReader(warn, path).batches(handle)


def iter_game_batches(
    folder: Path, warn: Warn | None, prepare: Callable[[list[GameRow]], Prepared]
) -> Iterator[Prepared]:
    """``prepare(rows)`` of every batch of :func:`iter_game_rows`, in order.

    On a machine with a second core, a large file's second half is read and prepared by a
    forked copy of this process (:class:`~arena.forked.Forked`; what ``prepare`` returns must
    pickle) while this one reads the first. Its batches are taken only if every line of that
    half was a well-formed game seen nowhere else (any other line stops the copy); otherwise
    this process reads the half itself, with the warnings and line numbers of one reader.
    """
    path = folder / GAMES
    if not path.exists():
        return
    with open_to_read(path) as handle:
        reader = _RowReader(warn, path)
        split = _split_point(handle)  # None for a small file: no copy is worth its start
        if split is None or not second_core():
            yield from map(prepare, reader.batches(handle))
            return
        file = os.fstat(handle.fileno())
        same = (file.st_dev, file.st_ino)
        with Forked(partial(_prepare_rest, path, same, split, prepare)) as copy:
            yield from map(prepare, reader.batches(handle, split))
            out = copy.result()
            ids_at = _new_ids_end(out, reader.seen) if out is not None else None
            if out is not None and ids_at is not None:
                out.seek(0)
                while out.tell() < ids_at:
                    yield pickle.load(out)  # written by the copy, just now
                return
        handle.seek(split)
        yield from map(prepare, reader.batches(handle))


Prepared = TypeVar("Prepared")

SPLIT_MIN_BYTES = 8 << 20
"""Size of ``games.jsonl`` (about 16,000 games) from which :func:`iter_game_batches` reads the
second half in a forked copy (reading 4 MiB takes about 0.1 s: not worth a process)."""


def _split_point(handle: IO[bytes]) -> int | None:
    """The start of the first line after the middle of a large file, or None."""
    size = os.fstat(handle.fileno()).st_size
    if size < SPLIT_MIN_BYTES:
        return None
    handle.seek(size // 2)
    handle.readline()
    split = handle.tell()
    handle.seek(0)
    return split if split < size else None


class _Unclean(Exception):
    """A line of the copy's half that is not a new game: the caller reads the half itself."""


def _prepare_rest(
    path: Path,
    same: tuple[int, int],
    start: int,
    prepare: Callable[[list[GameRow]], Any],
    out: IO[bytes],
) -> None:
    """In the forked copy: the prepared batches from ``start`` on, pickled one after another,
    then the list of their games' ids and where it starts (8 bytes). ``same``: the device and
    inode of the file the caller reads (a run may have replaced it since)."""

    def unclean(line: str) -> None:
        raise _Unclean(line)

    reader = _RowReader(unclean, path)
    with path.open("rb") as handle:
        file = os.fstat(handle.fileno())
        if (file.st_dev, file.st_ino) != same:
            raise _Unclean(f"{path} was replaced")
        handle.seek(start)
        for rows in reader.batches(handle):
            pickle.dump(prepare(rows), out, protocol=pickle.HIGHEST_PROTOCOL)
    ids_at = out.tell()
    pickle.dump(list(reader.seen), out, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(ids_at.to_bytes(8, "little"))


def _new_ids_end(out: IO[bytes], seen: dict[str, int]) -> int | None:
    """Where the copy's batches end, if none of its games is one of ``seen``; else None."""
    out.seek(-8, os.SEEK_END)
    ids_at = int.from_bytes(out.read(8), "little")
    out.seek(ids_at)
    ids: list[str] = pickle.load(out)  # written by the copy, just now
    return ids_at if seen.keys().isdisjoint(ids) else None


class _RowReader:
    """Batches of rows from a games file, its line numbers, and the ids already read."""

    def __init__(self, warn: Warn | None, path: Path) -> None:
        self.warn = warn
        self.path = path
        self.seen: dict[str, int] = {}
        self.first = 1  # the number of the next chunk's first line

    def batches(self, handle: IO[bytes], stop: int | None = None) -> Iterator[list[GameRow]]:
        """The lines from where ``handle`` is to ``stop`` (the start of a line) or the end."""
        seen, path, warn = self.seen, self.path, self.warn
        while True:
            lines = handle.readlines(_CHUNK_BYTES)
            if stop is not None and (end := handle.tell()) > stop:
                while end > stop:  # readlines reads a line past its hint: give back what is
                    end -= len(lines.pop())  # past ``stop``
                handle.seek(end)
            if not lines:
                return
            if not lines[-1].endswith(b"\n"):  # cut off by a kill: not a line yet
                lines.pop()
            first = self.first
            self.first += len(lines)
            rows = _parsed(lines)
            if rows is not None and well_formed_rows(rows):
                ids = list(map(itemgetter("id"), rows))
                if len(set(ids)) == len(ids) and seen.keys().isdisjoint(ids):
                    seen.update(zip(ids, range(first, first + len(ids)), strict=True))
                    yield rows
                    continue
            batch: list[GameRow] = []
            for number, line in enumerate(lines, start=first):
                entry = _checked(number, record_of(line), seen)
                if isinstance(entry, GameRecord):
                    batch.append(entry.to_dict())
                elif warn is not None:
                    warn(f"warning: {path} line {number} skipped: {entry}")
            yield batch


_CHUNK_BYTES = 1 << 16


def _parsed(lines: list[bytes]) -> list[Any] | None:
    """Every line parsed, or None if one is not JSON."""
    try:
        return list(map(orjson.loads, lines))
    except ValueError:
        return None


def record_of(line: bytes) -> GameRecord | RecordError:
    try:
        return GameRecord.from_json(line)
    except RecordError as problem:
        return problem


def checked_games(path: Path) -> Iterator[tuple[int, GameRecord | str]]:
    """:func:`scan_games`, with a second line of an already-read game as a problem too."""
    seen: dict[str, int] = {}
    for number, entry in scan_games(path):
        yield number, _checked(number, entry, seen)


def _checked(
    number: int, entry: GameRecord | RecordError, seen: dict[str, int]
) -> GameRecord | str:
    """The record of line ``number``, or why it is not counted (``seen``: id -> line)."""
    if isinstance(entry, RecordError):
        return f"not a game record ({entry})"
    if entry.id in seen:
        return f"a second copy of game {entry.id} (line {seen[entry.id]})"
    seen[entry.id] = number
    return entry


def scan_games(path: Path) -> Iterator[tuple[int, GameRecord | RecordError]]:
    """Each complete line of a games file with its number (from 1): its record, or why it is
    not one. A last line without its newline (cut off by a kill) is not a line yet."""
    if not path.exists():
        return
    with open_to_read(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.endswith(b"\n"):
                return
            yield number, record_of(line)


def open_to_read(path: Path) -> IO[bytes]:
    """A file of the results folder opened to read; one that cannot be (unreadable, a
    folder) is a :class:`ResultsError` naming it and why."""
    try:
        return path.open("rb")
    except OSError as exc:
        raise cannot_read(path, exc) from None


def cannot_read(path: Path, exc: OSError) -> ResultsError:
    return ResultsError(f"{path}: cannot read: {os_reason(exc)}")
