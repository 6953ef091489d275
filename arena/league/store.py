"""The results directory (contract)::

    results/<league>/
      league.toml      the resolved config that produced the games (tomli-w)
      games.jsonl      one line per finished game, appended, flushed and fsync'd as it ends
      standings.toml   written after a run; always recomputable from games.jsonl
      logs/<bot>.log   capped stderr per bot
      transcripts/<game>/seat<k>.jsonl   with --transcripts: every line each seat sent and got
      .lock            held while a run writes here

A line cut short by a kill is repaired (dropped) when the folder is opened for writing; a
game already stored is never played again. A complete line that is not a game record is
skipped with a warning naming its line number.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import tomllib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import tomli_w

from arena.errors import RecordError, ResultsError
from arena.record import GameRecord

GAMES = "games.jsonl"
LEAGUE = "league.toml"
STANDINGS = "standings.toml"
LOCK = ".lock"
TRANSCRIPTS = "transcripts"

# Config keys whose change makes stored games incomparable with new ones.
_IDENTITY_KEYS = ("engine", "engine_version", "options", "seed", "mode")


Warn = Callable[[str], None]


def read_games(folder: Path, warn: Warn | None = None) -> list[GameRecord]:
    """Every game stored in ``folder``; ``warn`` hears of each line that is not one."""
    return list(iter_games(folder, warn))


def iter_games(folder: Path, warn: Warn | None = None) -> Iterator[GameRecord]:
    """:func:`read_games` as a stream: one record in memory at a time (standings of a large
    league read it this way)."""
    path = folder / GAMES
    for number, entry in scan_games(path):
        if isinstance(entry, GameRecord):
            yield entry
        elif warn is not None:
            warn(f"warning: {path} line {number} skipped: not a game record ({entry})")


def scan_games(path: Path) -> Iterator[tuple[int, GameRecord | RecordError]]:
    """Each complete line of a games file with its number (from 1): its record, or why it is
    not one. A last line without its newline (cut off by a kill) is not a line yet."""
    if not path.exists():
        return
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.endswith(b"\n"):
                return
            try:
                yield number, GameRecord.from_json(line)
            except RecordError as problem:
                yield number, problem


def read_league(folder: Path) -> dict[str, Any]:
    path = folder / LEAGUE
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise ResultsError(f"{folder}: not a results folder (no {LEAGUE})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ResultsError(f"{path}: damaged: {exc}") from None


def write_standings_file(folder: Path, standings: Mapping[str, Any]) -> None:
    """Write ``standings.toml`` (atomically: a reader never sees half a file)."""
    write_toml(folder / STANDINGS, standings)


def write_toml(path: Path, data: Mapping[str, Any]) -> None:
    partial = path.with_suffix(".tmp")
    partial.write_bytes(tomli_w.dumps(dict(data)).encode("utf-8"))
    os.replace(partial, path)


def incomparable(stored: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """What changed between two resolved configs that makes their games incomparable."""
    changes = [
        f"{key}: {stored.get(key)!r} -> {new.get(key)!r}"
        for key in _IDENTITY_KEYS
        if stored.get(key) != new.get(key)
    ]
    old_cmds = {b["name"]: b["cmd"] for b in stored.get("bots", [])}
    for bot in new.get("bots", []):
        old = old_cmds.get(bot["name"])
        if old is not None and old != bot["cmd"]:
            changes.append(f"bot {bot['name']!r} command: {old!r} -> {bot['cmd']!r}")
    return changes


class ResultsDir:
    """A results folder opened for writing by one run (holds the lock until closed)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock: IO[bytes] | None = None
        self._games: IO[bytes] | None = None

    def open(
        self, league: Mapping[str, Any], *, fresh: bool, warn: Warn | None = None
    ) -> list[GameRecord]:
        """Lock the folder, check or write ``league.toml``, repair the games file.

        Returns the games already stored (``warn`` hears of lines that are not games).
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        league_path = self.folder / LEAGUE
        if fresh:
            for name in (GAMES, STANDINGS):
                (self.folder / name).unlink(missing_ok=True)
            for name in ("logs", TRANSCRIPTS):
                shutil.rmtree(self.folder / name, ignore_errors=True)
        elif league_path.exists() and (self.folder / GAMES).exists():
            changes = incomparable(read_league(self.folder), league)
            if changes:
                self.close()
                raise ResultsError(
                    f"{self.folder} holds games of a different league ({'; '.join(changes)}); "
                    "use --fresh to discard them or --out to write elsewhere"
                )
        write_toml(league_path, league)
        self._repair()
        (self.folder / "logs").mkdir(exist_ok=True)
        self._games = (self.folder / GAMES).open("ab")
        return read_games(self.folder, warn)

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

    def _repair(self) -> None:
        """Drop a line cut off by a kill."""
        path = self.folder / GAMES
        if not path.exists():
            return
        data = path.read_bytes()
        keep_until = data.rfind(b"\n") + 1
        if keep_until != len(data):
            with path.open("r+b") as handle:
                handle.truncate(keep_until)
                handle.flush()
                os.fsync(handle.fileno())

    def append(self, record: GameRecord) -> None:
        """Write one finished game as a whole line and hand it to the operating system.

        Call :meth:`sync` next: the game is durable once that returns.
        """
        assert self._games is not None, "open() first"
        self._games.write(record.to_json())  # one compact JSON line
        self._games.flush()

    def sync(self) -> None:
        """Wait until every appended game is on disk (fsync; may block: run it in a thread)."""
        assert self._games is not None, "open() first"
        os.fsync(self._games.fileno())

    def write_transcript(self, game: str, seat: int, lines: list[tuple[str, bytes]]) -> None:
        """``transcripts/<game>/seat<k>.jsonl``: each line a seat sent ("from") or got ("to")."""
        folder = self.folder / TRANSCRIPTS / game
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / f"seat{seat}.jsonl").open("w", encoding="utf-8") as handle:
            for direction, line in lines:
                text = line.decode("utf-8", "replace").rstrip("\n")
                handle.write(json.dumps({"dir": direction, "line": text}) + "\n")

    def log_path(self, bot: str) -> Path:
        return self.folder / "logs" / f"{bot}.log"

    def close(self) -> None:
        if self._games is not None:
            self._games.close()
            self._games = None
        if self._lock is not None:
            self._lock.close()
            self._lock = None
