"""A results folder opened by one run (:class:`ResultsDir`), and its ``league.toml`` and
``standings.toml`` (the layout: :mod:`arena.league.layout`).

A run repairs the folder when it opens it: lines of ``games.jsonl`` that are not (new) games,
and a last line cut short by a kill, are moved to the side file (a last line that lacks only
its newline, a whole record, gets it and is kept), so the folder ends consistent; a game
already stored is never played again. A stored game whose id the league now gives to another
game (or that another engine, version or options played) is moved aside too
(:meth:`ResultsDir.set_aside`), before that game is played: every id is in ``games.jsonl``
once.
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from arena.config import LeagueConfig, read_back
from arena.errors import ConfigError, RecordError, ResultsError
from arena.league.atomic import append_once, end_last_line, os_reason, write_toml
from arena.league.changes import (
    bot_entries,
    changed_bots,
    incomparable,
    played_with,
    same_bot,
    unlike_games,
    unrecorded_files,
)
from arena.league.fingerprint import read_fingerprints, ready_text
from arena.league.layout import (
    BOTS,
    DAMAGED,
    GAMES,
    LEAGUE,
    LOCK,
    REPLACED,
    REPORT,
    STANDINGS,
    TRANSCRIPTS,
    VIEW,
    Warn,
    bot_log,
)
from arena.league.reading import cannot_read, checked_games, open_to_read, read_games, record_of
from arena.league.transcripts import remove_partial_transcripts, write_transcripts
from arena.record import GameRecord
from arena.words import counted

if TYPE_CHECKING:
    from arena.game.table import Transcript


def read_league(folder: Path) -> LeagueConfig:
    """The league whose games ``folder`` stores: its ``league.toml``, read back by the
    league file's own reader (:func:`~arena.config.read_back`). A folder that is none, or a
    file that cannot be read or holds a field of the wrong type, is a :class:`ResultsError`
    naming it and why."""
    if not folder.exists():
        raise ResultsError(f"{folder}: no such folder")
    if not folder.is_dir():
        raise ResultsError(f"{folder}: not a folder")
    path = folder / LEAGUE
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise ResultsError(f"{folder}: not a results folder (no {LEAGUE})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{path}: damaged: {exc}") from None
    except OSError as exc:
        raise cannot_read(path, exc) from None
    try:
        return read_back(data, source=str(path), default_name=folder.name)
    except ConfigError as exc:
        wrong = str(exc).removeprefix(f"{path}: ")
        raise ResultsError(
            f"{path}: damaged: {wrong}; correct it, or delete it and run the league again "
            "(its stored games are then checked against the league file)"
        ) from None


def write_standings_file(folder: Path, standings: Mapping[str, Any]) -> None:
    """Write ``standings.toml`` of a finished league (atomically: a reader never sees half a
    file)."""
    again = "run again: it plays no game and writes the standings and the report"
    write_toml(folder / STANDINGS, standings, rewrite=again)


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
        league: LeagueConfig,
        *,
        fresh: bool,
        warn: Warn | None = None,
        bots: Mapping[str, Mapping[str, Any]] | None = None,
        replay: frozenset[str] = frozenset(),
    ) -> list[GameRecord]:
        """Lock the folder, repair the games file, check ``league.toml`` against ``league``
        and write it anew.

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
        league: LeagueConfig,
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
        write_toml(league_path, league.to_toml())
        played = {bot for record in stored for bot in record.seating} - replay
        self.expected_ready = {
            name: entry["ready"]
            for name, entry in recorded.items()
            if "ready" in entry and name in played and same_bot(entry, bots.get(name))
        }
        setups = played_with(previous, recorded)
        self.fingerprints = bot_entries(league, bots, recorded, setups, played)
        for name, ready in self.expected_ready.items():
            self.fingerprints[name]["ready"] = ready
        write_toml(self.folder / BOTS, self.fingerprints)
        (self.folder / "logs").mkdir(exist_ok=True)
        remove_partial_transcripts(self.folder)
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
        previous: LeagueConfig | None,
        league: LeagueConfig,
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
        with open_to_read(path) as handle:
            pieces = handle.read().split(b"\n")
        if pieces[-1] and not isinstance(record_of(pieces[-1]), RecordError):
            end_last_line(path)
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
        append_once(self.folder / side, moved)
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
        """:func:`~arena.league.transcripts.write_transcripts` into this folder: call it
        before :meth:`append` stores the game."""
        write_transcripts(self.folder, game, transcripts)

    def log_path(self, bot: str) -> Path:
        return bot_log(self.folder, bot)

    def close(self) -> None:
        if self._games is not None:
            self._games.close()
            self._games = None
        if self._lock is not None:
            self._lock.close()
            self._lock = None
