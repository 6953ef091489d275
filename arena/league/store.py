"""The results directory (contract)::

    results/<league>/
      league.toml      the resolved config that produced the games (tomli-w)
      games.jsonl      one line per finished game, appended, flushed and fsync'd as it ends
      standings.toml   written after a run; always recomputable from games.jsonl
      bots.toml        each bot with stored games: its command, own limits and fingerprint
      logs/<bot>.log   capped stderr per bot
      transcripts/<game>/seat<k>.jsonl   with --transcripts: every line each seat sent and got
      games.damaged.jsonl    lines of games.jsonl that were not (new) games, moved by a run
      games.replaced.jsonl   games of bots replayed with --replay-bot, moved by a run
      report.html      the HTML report (arena run, arena report)
      view-<game>.html a game's page (arena view)
      .lock            held while a run writes here

Reading warns of every line of ``games.jsonl`` that is not a game record or repeats a game
already read (naming its line number) and never counts it. A run repairs the folder when it
opens it: such lines, and a last line cut short by a kill, are moved to the side file (a last
line that lacks only its newline, a whole record, gets it and is kept), so the folder ends
consistent; a game already stored is never played again. A stored game whose id
the league now gives to another game (or that another engine, version or options played) is
moved aside too (:meth:`ResultsDir.set_aside`), before that game is played: every id is in
``games.jsonl`` once.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import pickle
import reprlib
import shutil
import stat
import tempfile
import tomllib
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

import orjson
import tomli_w

from arena import protocol
from arena.errors import BotProtocolError, RecordError, ResultsError
from arena.forked import Forked, second_core
from arena.league.changes import (
    bot_entries,
    changed_bots,
    incomparable,
    played_with,
    same_bot,
    unlike_games,
    unrecorded_files,
)
from arena.league.fingerprint import ready_text
from arena.record import GameRecord, GameRow, SeatRecord, well_formed_rows
from arena.words import counted

if TYPE_CHECKING:
    from arena.game.table import Transcript

GAMES = "games.jsonl"
LEAGUE = "league.toml"
STANDINGS = "standings.toml"
LOCK = ".lock"
TRANSCRIPTS = "transcripts"
PARTIAL_TRANSCRIPT = ".partial-"  # a transcript folder being written, beside its place
BOTS = "bots.toml"
DAMAGED = "games.damaged.jsonl"
REPLACED = "games.replaced.jsonl"
REPORT = "report.html"  # written by arena run / arena report
VIEW = "view-{game}.html"  # written by arena view


Warn = Callable[[str], None]


def read_games(folder: Path | str, warn: Warn | None = None) -> list[GameRecord]:
    """Every game stored in ``folder``, each once; ``warn`` hears of each line skipped."""
    return list(iter_games(folder, warn))


def iter_games(folder: Path | str, warn: Warn | None = None) -> Iterator[GameRecord]:
    """:func:`read_games` as a stream: one record in memory at a time (standings of a large
    league read it this way)."""
    path = Path(folder) / GAMES
    for number, entry in checked_games(path):
        if isinstance(entry, GameRecord):
            yield entry
        elif warn is not None:
            warn(f"warning: {path} line {number} skipped: {entry}")


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
    with _open_to_read(path) as handle:
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
    with _open_to_read(path) as handle:
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
                entry = _checked(number, _record(line), seen)
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


def _record(line: bytes) -> GameRecord | RecordError:
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
    with _open_to_read(path) as handle:
        for number, line in enumerate(handle, start=1):
            if not line.endswith(b"\n"):
                return
            yield number, _record(line)


def _open_to_read(path: Path) -> IO[bytes]:
    """A file of the results folder opened to read; one that cannot be (unreadable, a
    folder) is a :class:`ResultsError` naming it and why."""
    try:
        return path.open("rb")
    except OSError as exc:
        raise _cannot_read(path, exc) from None


def _cannot_read(path: Path, exc: OSError) -> ResultsError:
    return ResultsError(f"{path}: cannot read: {os_reason(exc)}")


def read_league(folder: Path) -> dict[str, Any]:
    if not folder.exists():
        raise ResultsError(f"{folder}: no such folder")
    if not folder.is_dir():
        raise ResultsError(f"{folder}: not a folder")
    path = folder / LEAGUE
    try:
        with path.open("rb") as handle:
            league = tomllib.load(handle)
    except FileNotFoundError:
        raise ResultsError(f"{folder}: not a results folder (no {LEAGUE})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{path}: damaged: {exc}") from None
    except OSError as exc:
        raise _cannot_read(path, exc) from None
    wrong = wrong_field(league)
    if wrong is not None:
        raise ResultsError(
            f"{path}: damaged: {wrong}; correct it, or delete it and run the league again "
            "(its stored games are then checked against the league file)"
        )
    return league


class _Kind(NamedTuple):
    """What a field of ``league.toml`` holds: in words, and the test of a value."""

    words: str
    fits: Callable[[Any], bool]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return _is_int(value) or isinstance(value, float)


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_table(value: Any) -> bool:
    return isinstance(value, dict)


def _list_of(fits: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, list) and all(map(fits, value))


def _table_of(fits: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: _is_table(value) and all(map(fits, value.values()))


_STRING = _Kind("a string", _is_str)
_INTEGER = _Kind("an integer", _is_int)
_NUMBER = _Kind("a number", _is_number)
_TABLE = _Kind("a table", _is_table)
_LIMITS = _Kind("a table of integers", _table_of(_is_int))

# The fields of ``league.toml`` that are read back, by what they hold. A top-level field may
# be missing (what reads the file copes); a bot needs its name and command, the test every
# field.
_LEAGUE_FIELDS = {
    "name": _STRING,
    "engine": _STRING,
    "engine_version": _STRING,
    "players": _Kind("a list of integers", _list_of(_is_int)),
    "mode": _STRING,
    "rounds": _INTEGER,
    "seed": _INTEGER,
    "options": _TABLE,
    "limits": _LIMITS,
    "policy": _Kind("a table of strings", _table_of(_is_str)),
    "bots": _Kind("a list of tables", _list_of(_is_table)),
    "sandbox": _STRING,
    "candidate": _STRING,
    "sprt": _TABLE,
}
_BOT_FIELDS = {"name": _STRING, "cmd": _STRING, "limits": _LIMITS}
_SPRT_FIELDS = {
    "candidate": _STRING,
    "opponent": _STRING,
    "elo0": _NUMBER,
    "elo1": _NUMBER,
    "alpha": _NUMBER,
    "beta": _NUMBER,
    "max_blocks": _INTEGER,
    "fillers": _Kind("a list of strings", _list_of(_is_str)),
}


def wrong_field(league: Mapping[str, Any]) -> str | None:
    """The first field of a ``league.toml`` that does not hold what it should, in words
    (``seed = 'x' is not an integer``); None when every field does."""
    return next(_wrong_fields(league), None)


def _wrong_fields(league: Mapping[str, Any]) -> Iterator[str]:
    yield from _wrong(league, _LEAGUE_FIELDS, "", required=())
    for number, bot in enumerate(league.get("bots", [])):
        yield from _wrong(bot, _BOT_FIELDS, f"bots[{number}].", required=("name", "cmd"))
    if "sprt" in league:
        yield from _wrong(league["sprt"], _SPRT_FIELDS, "sprt.", required=tuple(_SPRT_FIELDS))


def _wrong(
    table: Mapping[str, Any], kinds: Mapping[str, _Kind], prefix: str, required: tuple[str, ...]
) -> Iterator[str]:
    """Each key of ``kinds`` that ``table`` holds something else in, or lacks though it is
    ``required``, in words."""
    for key, kind in kinds.items():
        if key not in table:
            if key in required:
                yield f"{prefix}{key} is missing"
        elif not kind.fits(table[key]):
            yield f"{prefix}{key} = {reprlib.repr(table[key])} is not {kind.words}"


def write_standings_file(folder: Path, standings: Mapping[str, Any]) -> None:
    """Write ``standings.toml`` of a finished league (atomically: a reader never sees half a
    file)."""
    again = "run again: it plays no game and writes the standings and the report"
    write_toml(folder / STANDINGS, standings, rewrite=again)


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
    if exc.errno != errno.ENOSPC:
        return exc.strerror or str(exc)
    if rewrite is None:
        return "no space left on the device; free some space and run again to resume"
    stored = "every game is stored; only this file was not written"
    return f"no space left on the device; free some space and {rewrite} ({stored})"


def read_fingerprints(folder: Path) -> dict[str, dict[str, Any]]:
    """``bots.toml``: bot -> fingerprint (empty when there is none yet)."""
    path = folder / BOTS
    try:
        with path.open("rb") as handle:
            recorded = tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise _damaged_bots(folder, str(exc)) from None
    except OSError as exc:
        raise _cannot_read(path, exc) from None
    for name, entry in recorded.items():
        if not _is_table(entry):
            raise _damaged_bots(folder, f"{name} = {reprlib.repr(entry)} is not a table")
        wrong = next(_wrong(entry, _ENTRY_FIELDS, f"{name}.", required=()), None)
        if wrong is not None:
            raise _damaged_bots(folder, wrong)
    return recorded


# What a bot's entry in ``bots.toml`` holds besides its fingerprint (read back to check it).
_ENTRY_FIELDS = {"cmd": _STRING, "limits": _LIMITS}


def _damaged_bots(folder: Path, why: str) -> ResultsError:
    return ResultsError(
        f"{folder / BOTS}: damaged: {why}; delete it (then the stored games' bots go "
        "unchecked: a bot changed since keeps its games) or use --fresh"
    )


def _end_last_line(path: Path) -> None:
    """Give the games file's last line, a whole game record, the newline it lacks: each line is
    one write, so only a power cut leaves one, and the run repairing the folder holds its lock
    (no other run may be writing that line)."""
    with path.open("ab") as handle:
        handle.write(b"\n")
        handle.flush()
        os.fsync(handle.fileno())


def _append_once(path: Path, data: bytes) -> None:
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


def _transcript_bytes(lines: Transcript) -> bytes:
    """A seat transcript as stored: one JSON line per line the seat sent ("from") or got
    ("to"), the line as text."""
    return "".join(
        json.dumps({"dir": direction, "line": line.decode("utf-8", "replace").rstrip("\n")}) + "\n"
        for direction, line in lines
    ).encode("utf-8")


def _write_synced(path: Path, data: bytes) -> None:
    """Write a new file ``path`` holding ``data`` and fsync it."""
    with path.open("xb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _sync_folder(path: Path) -> None:
    """fsync a folder: the names created or renamed in it are on disk."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def complete_transcript(pairs: Sequence[tuple[str, str]], seat: SeatRecord) -> bool:
    """Whether a seat's transcript (its :func:`transcript_entry` pairs) holds the whole game its
    stored record ``seat`` tells of, not one cut short: a seat that played to the end was
    last sent ``end``; one that forfeited was asked at least the decisions it answered."""
    sent = [line for direction, line in pairs if direction == "to"]
    if seat.forfeit is None:  # one line to read, not all: a resume reads every transcript
        return bool(sent) and protocol.decode(sent[-1])["type"] == "end"
    return sum(protocol.decode(line)["type"] == "act" for line in sent) >= seat.decisions


def transcript_pairs(path: Path) -> list[tuple[str, str]] | None:
    """The ``(direction, line)`` pairs of a stored seat transcript, or None when it is missing
    or damaged (unreadable, a line that is not a :func:`transcript_entry`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    pairs = list(map(transcript_entry, text.splitlines()))
    return None if None in pairs else cast(list[tuple[str, str]], pairs)


def transcript_entry(text: str) -> tuple[str, str] | None:
    """``(direction, line)`` of one transcript line; None for a damaged one (a line "to" the
    bot must be a protocol message; a bot's own line may be anything it wrote)."""
    try:
        entry = json.loads(text)
    except ValueError:
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("line"), str):
        return None
    direction, line = entry.get("dir"), entry["line"]
    if direction == "to":
        try:
            protocol.decode(line)
        except BotProtocolError:
            return None
    elif direction != "from":
        return None
    return direction, line


def has_complete_transcripts(folder: Path, record: GameRecord, people: Collection[str]) -> bool:
    """Whether every seat of a stored game played by a bot (not one of ``people``) has its
    complete transcript in ``folder`` (:func:`complete_transcript`)."""
    for position, seat in enumerate(record.seats):
        if seat.bot in people:
            continue
        pairs = transcript_pairs(folder / TRANSCRIPTS / record.id / f"seat{position}.jsonl")
        if pairs is None or not complete_transcript(pairs, seat):
            return False
    return True


def bot_log(folder: Path, bot: str) -> Path:
    """Where the league in ``folder`` keeps what ``bot`` wrote to stderr (capped)."""
    return folder / "logs" / f"{bot}.log"


class ResultsDir:
    """A results folder opened for writing by one run (holds the lock until closed)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock: IO[bytes] | None = None
        self._games: IO[bytes] | None = None
        self.expected_ready: dict[str, str] = {}  # bot -> its recorded ``ready`` name/version
        self.fingerprints: dict[str, dict[str, Any]] = {}

    def check_ready(self, answers: Iterable[tuple[str, dict[str, Any]]]) -> None:
        """Refuse a game whose bot answered ``ready`` (name and version) unlike its stored
        games; record in ``bots.toml`` the answer of a bot that has none yet.

        ``answers``: (bot, its ``ready`` answer) of each process of the games about to be
        appended (:meth:`~arena.game.table.Played.readies`). A bot's first answer is on disk
        before any of its games is, so a run killed outright (or stopped by a full disk)
        leaves a folder that a changed bot is refused on; the file is written once per bot
        and run, not per game.
        """
        first: dict[str, str] = {}
        for name, ready in answers:
            now = ready_text(ready)
            before = self.expected_ready.get(name, first.get(name))
            if before is None:
                first[name] = now
            elif before != now:  # refused: the folder keeps ``before``
                raise ResultsError(
                    f"bot {name!r} now answers ready as {now!r}, but its stored games "
                    f"were played as {before!r}: run again with --replay-bot {name} to "
                    "play its games again, or --fresh to play every game again"
                )
        if not first:  # the usual case: every bot's answer is known
            return
        entries = {
            name: entry | {"ready": first[name]} if name in first else entry
            for name, entry in self.fingerprints.items()
        }
        write_toml(self.folder / BOTS, entries)
        self.fingerprints = entries
        self.expected_ready |= first

    def open(
        self,
        league: Mapping[str, Any],
        *,
        fresh: bool,
        warn: Warn | None = None,
        bots: Mapping[str, Mapping[str, Any]] | None = None,
        replay: frozenset[str] = frozenset(),
    ) -> list[GameRecord]:
        """Lock the folder, repair the games file, check or write ``league.toml``.

        ``bots`` are the fingerprints of the league's bots now: a bot with stored games
        whose fingerprint changed is refused, unless it is in ``replay``, whose bots' games
        are moved aside to be played again. Returns the games already stored (``warn``
        hears of lines that are not games). A folder that is refused is left unlocked.
        """
        try:
            return self._open(league, fresh=fresh, warn=warn, bots=bots or {}, replay=replay)
        except OSError as exc:
            self.close()
            reason = os_reason(exc)
            raise ResultsError(f"{self.folder}: cannot write results here: {reason}") from None
        except BaseException:
            self.close()
            raise

    def _open(
        self,
        league: Mapping[str, Any],
        *,
        fresh: bool,
        warn: Warn | None,
        bots: Mapping[str, Mapping[str, Any]],
        replay: frozenset[str],
    ) -> list[GameRecord]:
        if self.folder.exists() and not self.folder.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "not a folder")
        self.folder.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        league_path = self.folder / LEAGUE
        if fresh:
            self._discard_earlier_runs()
        self._repair(warn)
        recorded = read_fingerprints(self.folder)
        stored = read_games(self.folder)
        if stored and warn is not None and not (self.folder / BOTS).exists():
            warn(
                f"warning: {self.folder / BOTS} is missing: the bots of the "
                f"{counted(len(stored), 'stored game')} cannot be checked for changes (a bot "
                "changed since keeps its games; --fresh plays them again)"
            )
        previous = read_league(self.folder) if stored and league_path.exists() else None
        if stored:
            self._check_league(stored, previous, league, replay, recorded)
        changed = changed_bots(stored, recorded, bots, replay)
        if changed:
            raise ResultsError(f"{self.folder}: {'; '.join(changed)}")
        for note in unrecorded_files(stored, recorded, bots, replay):
            if warn is not None:
                warn(note)
        self.replace_bots(set(replay))
        write_toml(league_path, league)
        played = {bot for record in stored for bot in record.seating} - replay
        self.expected_ready = {
            name: entry["ready"]
            for name, entry in recorded.items()
            if "ready" in entry and name in played and same_bot(entry, bots.get(name))
        }
        setups = played_with(previous or {}, recorded)
        self.fingerprints = bot_entries(league, bots, recorded, setups, played)
        for name, ready in self.expected_ready.items():
            self.fingerprints[name]["ready"] = ready
        write_toml(self.folder / BOTS, self.fingerprints)
        (self.folder / "logs").mkdir(exist_ok=True)
        self._remove_partial_transcripts()
        self._games = (self.folder / GAMES).open("ab", buffering=0)
        return read_games(self.folder, warn)

    def _discard_earlier_runs(self) -> None:
        """Delete every file of the games of earlier runs, the games set aside and the pages
        drawn from them too: the folder is left as a first run finds it (``league.toml`` is
        written anew), not a mix of the old league and the new."""
        pages = [path.name for path in self.folder.glob(VIEW.format(game="*"))]
        for name in (GAMES, DAMAGED, REPLACED, STANDINGS, BOTS, REPORT, *pages):
            (self.folder / name).unlink(missing_ok=True)
        for name in ("logs", TRANSCRIPTS):
            shutil.rmtree(self.folder / name, ignore_errors=True)

    def _check_league(
        self,
        stored: list[GameRecord],
        previous: Mapping[str, Any] | None,
        league: Mapping[str, Any],
        replay: frozenset[str],
        recorded: Mapping[str, Mapping[str, Any]],
    ) -> None:
        """Refuse stored games of another league: as ``league.toml`` (``previous``) and
        ``bots.toml`` (``recorded``) say, or, when there is no ``league.toml``, as the games
        themselves say."""
        if previous is not None:
            different = "; ".join(incomparable(previous, league, replay, recorded))
        else:
            unlike = "; ".join(unlike_games(stored, league))
            different = unlike and f"it has no {LEAGUE}, and its games say so: {unlike}"
        if not different:
            return
        raise ResultsError(
            f"{self.folder} holds games of a different league ({different})"
            "; use --fresh to discard them or --out to write elsewhere"
        )

    def _take_lock(self) -> None:
        handle = (self.folder / LOCK).open("wb")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise ResultsError(
                f"{self.folder} is in use by another arena run; wait for it or use --out"
            ) from None
        self._lock = handle

    def _repair(self, warn: Warn | None) -> None:
        """Move every line that is not a new game (and a last line cut short) aside."""
        path = self.folder / GAMES
        if not path.exists():
            return
        with _open_to_read(path) as handle:
            pieces = handle.read().split(b"\n")
        if pieces[-1] and not isinstance(_record(pieces[-1]), RecordError):
            _end_last_line(path)
            pieces.append(b"")
        lines = [piece + b"\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
        problems = dict(checked_games(path))
        if lines and not lines[-1].endswith(b"\n"):
            problems[len(lines)] = "cut short (a run was stopped while storing it)"
        bad = {n: why for n, why in problems.items() if isinstance(why, str)}
        if not bad:
            return
        self._move_aside(DAMAGED, lines, set(bad))
        for number, why in sorted(bad.items()):
            if warn is not None:
                warn(f"warning: {path} line {number}: {why}; moved to {DAMAGED}")

    def _move_aside(self, side: str, lines: list[bytes], numbers: set[int]) -> None:
        """Move the lines ``numbers`` (from 1) of the games file, which holds ``lines``, to
        the side file ``side``: they are on disk there before they leave the games file.

        Lines that end the games file are cut off it in place; any other move writes a new
        copy of the lines kept (it needs as much free space). A move tried again after a
        failure (a full disk) finds its lines already ending the side file and does not
        append them twice.
        """
        moved = b"".join(lines[n - 1].rstrip(b"\n") + b"\n" for n in sorted(numbers))
        _append_once(self.folder / side, moved)
        keep = [line for n, line in enumerate(lines, start=1) if n not in numbers]
        if min(numbers) > len(keep):  # the last lines: no copy of the file is needed
            self._cut_games(sum(map(len, keep)))
        else:
            self._rewrite_games(keep)

    def _cut_games(self, end: int) -> None:
        """Cut the games file off at byte ``end``, in place (the append handle goes on)."""
        with (self.folder / GAMES).open("r+b") as handle:
            handle.truncate(end)
            os.fsync(handle.fileno())

    def _rewrite_games(self, keep: list[bytes]) -> None:
        """Replace the games file by one of the lines ``keep``, whole or not at all."""
        partial = self.folder / (GAMES + ".tmp")
        try:
            with partial.open("wb") as handle:
                handle.write(b"".join(keep))
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(partial, self.folder / GAMES)
        finally:
            partial.unlink(missing_ok=True)
        if self._games is not None:  # it appends to the file just replaced: open the new one
            self._games.close()
            self._games = (self.folder / GAMES).open("ab", buffering=0)

    def replace_bots(self, names: set[str]) -> int:
        """Move every game a bot of ``names`` played to the side file; return how many."""
        if not names:  # the usual case: the file is not read again
            return 0
        moved = self._take_games(REPLACED, lambda record: bool(names & set(record.seating)))
        for _, record in moved:
            shutil.rmtree(self.folder / TRANSCRIPTS / record.id, ignore_errors=True)
        return len(moved)

    def set_aside(self, misplaced: Mapping[str, str], warn: Warn | None = None) -> None:
        """Move the stored games of ``misplaced`` (id -> why: the league gives their ids to
        other games) to the side file of damaged lines, so that those games can be played;
        ``warn`` hears of each."""
        if not misplaced:  # the usual case: the file is not read again
            return
        for number, record in self._take_games(DAMAGED, lambda record: record.id in misplaced):
            if warn is not None:
                warn(
                    f"warning: {self.folder / GAMES} line {number}: game {record.id} is not the "
                    f"league's game of that id ({misplaced[record.id]}); moved to {DAMAGED}, "
                    "and the league's game is played"
                )

    def _take_games(
        self, side: str, take: Callable[[GameRecord], bool]
    ) -> list[tuple[int, GameRecord]]:
        """Move the stored games ``take`` picks to the side file ``side`` (the games file is
        repaired: every line is a game); their line numbers and records."""
        path = self.folder / GAMES
        if not path.exists():
            return []
        lines = [line + b"\n" for line in path.read_bytes().split(b"\n")[:-1]]
        records = enumerate(map(GameRecord.from_json, lines), start=1)
        taken = [(number, record) for number, record in records if take(record)]
        if taken:
            self._move_aside(side, lines, {number for number, _ in taken})
        return taken

    def append(self, record: GameRecord) -> None:
        """Write one finished game as a whole line and hand it to the operating system.

        Call :meth:`sync` next: the game is durable once that returns.
        """
        assert self._games is not None, "open() first"
        line = record.to_json()  # one compact JSON line
        fd = self._games.fileno()
        size = os.fstat(fd).st_size
        try:
            written = 0
            while written < len(line):
                written += os.write(fd, line[written:])
        except OSError as exc:
            os.ftruncate(fd, size)  # no partial line: every game in the file is complete
            raise ResultsError(
                f"{self.folder / GAMES}: cannot store game {record.id}: {os_reason(exc)}"
            ) from None

    def sync(self) -> None:
        """Wait until every appended game is on disk (fsync; may block: run it in a thread)."""
        assert self._games is not None, "open() first"
        try:
            os.fsync(self._games.fileno())
        except OSError as exc:
            reason = os_reason(exc)
            raise ResultsError(f"{self.folder / GAMES}: cannot store games: {reason}") from None

    def write_transcripts(self, game: str, transcripts: Sequence[Transcript | None]) -> None:
        """``transcripts/<game>/seat<k>.jsonl`` for each seat with a transcript, on disk before
        this returns: call it before :meth:`append` stores the game, so that a stored game
        has its whole transcript whatever stops the run (a kill, a full disk, a crash).

        The folder is written beside its place (``transcripts/.partial-*``, removed by the
        next run if a kill leaves it) and renamed into place whole; a folder left there by a
        game of that id that was not stored is replaced.
        """
        if all(lines is None for lines in transcripts):
            return
        parent = self.folder / TRANSCRIPTS
        try:
            parent.mkdir(exist_ok=True)
            writing = Path(tempfile.mkdtemp(prefix=PARTIAL_TRANSCRIPT, dir=parent))
        except OSError as exc:
            raise ResultsError(f"{parent}: cannot write: {os_reason(exc)}") from None
        try:
            for seat, lines in enumerate(transcripts):
                if lines is not None:
                    _write_synced(writing / f"seat{seat}.jsonl", _transcript_bytes(lines))
            _sync_folder(writing)
            shutil.rmtree(parent / game, ignore_errors=True)
            os.rename(writing, parent / game)
            _sync_folder(parent)
        except OSError as exc:
            shutil.rmtree(writing, ignore_errors=True)
            reason = os_reason(exc)
            raise ResultsError(f"{parent / game}: cannot write the transcript: {reason}") from None

    def _remove_partial_transcripts(self) -> None:
        """Remove the transcript folders a killed run was writing (their games not stored)."""
        for writing in (self.folder / TRANSCRIPTS).glob(PARTIAL_TRANSCRIPT + "*"):
            shutil.rmtree(writing, ignore_errors=True)

    def log_path(self, bot: str) -> Path:
        return bot_log(self.folder, bot)

    def close(self) -> None:
        if self._games is not None:
            self._games.close()
            self._games = None
        if self._lock is not None:
            self._lock.close()
            self._lock = None
