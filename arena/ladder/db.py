"""The ladder's database: participants, bots, submissions and rating history, in SQLite
beside the results folder (``ladder.db``, WAL, every commit synced).

One declared schema (:data:`SCHEMA`) and one migration path (:data:`MIGRATIONS`, applied in
order from the version the file records in ``PRAGMA user_version``). The games are not here:
``games.jsonl`` is their one source of truth.

States of a submission: ``received`` (stored under its hash, acknowledged) -> ``checking``
-> ``accepted`` or ``rejected``; an accepted version becomes ``superseded`` when its bot's
next version is accepted. A server killed while a submission is ``checking`` checks it again
when it starts (:meth:`LadderDB.unfinished`).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ResultsError, UserError

DB_FILE = "ladder.db"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE participants (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL,
    organiser INTEGER NOT NULL DEFAULT 0,
    banned INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    owner INTEGER NOT NULL REFERENCES participants(id),
    status TEXT NOT NULL DEFAULT 'new',  -- new | active | retired | banned
    changed REAL NOT NULL
);
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    bot INTEGER NOT NULL REFERENCES bots(id),
    version INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    filename TEXT NOT NULL,
    cmd TEXT NOT NULL DEFAULT '',
    folder TEXT NOT NULL DEFAULT '',  -- the accepted version's folder (its command's base)
    state TEXT NOT NULL,  -- received | checking | accepted | rejected | superseded
    reason TEXT NOT NULL DEFAULT '',
    log TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    changed REAL NOT NULL,
    UNIQUE (bot, version)
);
CREATE INDEX submissions_by_state ON submissions (state);
CREATE TABLE ratings (
    at REAL NOT NULL,
    player TEXT NOT NULL,  -- the name its games give it: bot@version, or a house bot's
    elo REAL NOT NULL,
    games INTEGER NOT NULL
);
CREATE INDEX ratings_by_player ON ratings (player, at);
"""

MIGRATIONS: tuple[str, ...] = (SCHEMA,)  # MIGRATIONS[n] takes a file from version n to n+1


@dataclass(frozen=True)
class Participant:
    id: int
    name: str
    token_hash: str
    organiser: bool
    banned: bool


@dataclass(frozen=True)
class Bot:
    id: int
    name: str
    owner: int
    owner_name: str
    status: str
    changed: float


@dataclass(frozen=True)
class Submission:
    id: int
    bot: int
    bot_name: str
    owner: int
    version: int
    sha256: str
    bytes: int
    filename: str
    cmd: str
    folder: str
    state: str
    reason: str
    log: str
    created: float
    changed: float

    @property
    def player(self) -> str:
        """The name this version's games give it."""
        return player_name(self.bot_name, self.version)


def player_name(bot: str, version: int) -> str:
    """A submitted bot's version as its games name it: ``name@version``."""
    return f"{bot}@{version}"


_SUBMISSION = """
SELECT s.id, s.bot, b.name, b.owner, s.version, s.sha256, s.bytes, s.filename, s.cmd,
       s.folder, s.state, s.reason, s.log, s.created, s.changed
FROM submissions s JOIN bots b ON b.id = s.bot
"""
_BOT = """
SELECT b.id, b.name, b.owner, p.name, b.status, b.changed
FROM bots b JOIN participants p ON p.id = b.owner
"""


class LadderDB:
    """The database of one ladder folder. Every write is one transaction, synced on commit."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / DB_FILE
        self._local = threading.local()  # one connection per thread (WAL: they may overlap)
        self._all: list[sqlite3.Connection] = []
        self._guard = threading.Lock()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise ResultsError(f"{self.path}: cannot open the ladder database: {exc}") from None

    @property
    def _db(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute("PRAGMA synchronous = FULL")  # a commit survives power loss
            connection.execute("PRAGMA foreign_keys = ON")
            connection.execute("PRAGMA busy_timeout = 10000")
            self._local.connection = connection
            with self._guard:
                self._all.append(connection)
        return connection

    def _migrate(self) -> None:
        (version,) = self._db.execute("PRAGMA user_version").fetchone()
        if version > len(MIGRATIONS):
            raise ResultsError(
                f"{self.path}: written by a newer arena (schema {version}); upgrade arena"
            )
        for number in range(version, len(MIGRATIONS)):
            with self.transaction():
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {number + 1}")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        with self._guard:
            for connection in self._all:
                connection.close()
            self._all.clear()
        self._local = threading.local()

    # --- meta
    def get_meta(self, key: str, default: str = "") -> str:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else default

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # --- participants
    def add_participant(self, name: str, token_hash: str, *, organiser: bool = False) -> int:
        with self.transaction() as db:
            if db.execute("SELECT 1 FROM participants WHERE name = ?", (name,)).fetchone():
                raise UserError(f"a participant named {name!r} exists already")
            cursor = db.execute(
                "INSERT INTO participants (name, token_hash, organiser, created) "
                "VALUES (?, ?, ?, ?)",
                (name, token_hash, int(organiser), time.time()),
            )
            return int(cursor.lastrowid or 0)

    def participant(self, id_: int) -> Participant | None:
        row = self._db.execute(
            "SELECT id, name, token_hash, organiser, banned FROM participants WHERE id = ?", (id_,)
        ).fetchone()
        return (
            None if row is None else Participant(row[0], row[1], row[2], bool(row[3]), bool(row[4]))
        )

    def participant_named(self, name: str) -> Participant | None:
        row = self._db.execute("SELECT id FROM participants WHERE name = ?", (name,)).fetchone()
        return None if row is None else self.participant(row[0])

    def participants(self) -> list[Participant]:
        rows = self._db.execute("SELECT id FROM participants ORDER BY id").fetchall()
        return [p for (id_,) in rows if (p := self.participant(id_)) is not None]

    def ban_participant(self, id_: int) -> None:
        with self.transaction() as db:
            db.execute("UPDATE participants SET banned = 1 WHERE id = ?", (id_,))
            db.execute(
                "UPDATE bots SET status = 'banned', changed = ? WHERE owner = ?", (time.time(), id_)
            )

    # --- bots
    def bot_named(self, name: str) -> Bot | None:
        row = self._db.execute(_BOT + " WHERE b.name = ?", (name,)).fetchone()
        return None if row is None else Bot(*row)

    def bots(self) -> list[Bot]:
        return [Bot(*row) for row in self._db.execute(_BOT + " ORDER BY b.id")]

    def set_bot_status(self, bot: int, status: str) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE bots SET status = ?, changed = ? WHERE id = ?", (status, time.time(), bot)
            )

    # --- submissions
    def add_submission(
        self,
        owner: int,
        bot_name: str,
        *,
        sha256: str,
        size: int,
        filename: str,
        cmd: str,
    ) -> Submission:
        """Record a stored upload as a new version of ``bot_name`` (made if new, which
        ``owner`` then owns); refuses another participant's bot."""
        now = time.time()
        with self.transaction() as db:
            row = db.execute("SELECT id, owner, status FROM bots WHERE name = ?", (bot_name,))
            found = row.fetchone()
            if found is None:
                cursor = db.execute(
                    "INSERT INTO bots (name, owner, status, changed) VALUES (?, ?, 'new', ?)",
                    (bot_name, owner, now),
                )
                bot = int(cursor.lastrowid or 0)
            else:
                bot, bot_owner, status = found
                if bot_owner != owner:
                    raise PermissionError(f"the bot {bot_name!r} belongs to another participant")
                if status == "banned":
                    raise PermissionError(f"the bot {bot_name!r} is banned")
            (last,) = db.execute(
                "SELECT COALESCE(MAX(version), 0) FROM submissions WHERE bot = ?", (bot,)
            ).fetchone()
            cursor = db.execute(
                "INSERT INTO submissions (bot, version, sha256, bytes, filename, cmd, state, "
                "created, changed) VALUES (?, ?, ?, ?, ?, ?, 'received', ?, ?)",
                (bot, last + 1, sha256, size, filename, cmd, now, now),
            )
            id_ = int(cursor.lastrowid or 0)
        found_submission = self.submission(id_)
        assert found_submission is not None
        return found_submission

    def submission(self, id_: int) -> Submission | None:
        row = self._db.execute(_SUBMISSION + " WHERE s.id = ?", (id_,)).fetchone()
        return None if row is None else Submission(*row)

    def submissions_of(self, bot: int) -> list[Submission]:
        rows = self._db.execute(_SUBMISSION + " WHERE s.bot = ? ORDER BY s.version DESC", (bot,))
        return [Submission(*row) for row in rows]

    def unfinished(self) -> list[Submission]:
        """Submissions not yet judged, oldest first (``checking``: the server stopped mid-check)."""
        rows = self._db.execute(
            _SUBMISSION + " WHERE s.state IN ('received', 'checking') ORDER BY s.id"
        )
        return [Submission(*row) for row in rows]

    def recent_submissions(self, owner: int, since: float) -> list[Submission]:
        rows = self._db.execute(
            _SUBMISSION + " WHERE b.owner = ? AND s.created >= ? ORDER BY s.id", (owner, since)
        )
        return [Submission(*row) for row in rows]

    def stored_bytes(self, owner: int) -> int:
        (total,) = self._db.execute(
            "SELECT COALESCE(SUM(s.bytes), 0) FROM submissions s JOIN bots b ON b.id = s.bot "
            "WHERE b.owner = ?",
            (owner,),
        ).fetchone()
        return int(total)

    def set_state(self, id_: int, state: str, *, reason: str = "", log: str | None = None) -> None:
        with self.transaction() as db:
            if log is None:
                db.execute(
                    "UPDATE submissions SET state = ?, reason = ?, changed = ? WHERE id = ?",
                    (state, reason, time.time(), id_),
                )
            else:
                db.execute(
                    "UPDATE submissions SET state = ?, reason = ?, log = ?, changed = ? "
                    "WHERE id = ?",
                    (state, reason, log, time.time(), id_),
                )

    def accept(self, id_: int, log: str, cmd: str, folder: str) -> None:
        """Accept a checked version: it replaces its bot's previous one, which is kept as
        history (``superseded``); a retired bot that submits again is active again. A
        version whose check ends after a later version's was accepted is history at once."""
        now = time.time()
        with self.transaction() as db:
            bot, version = db.execute(
                "SELECT bot, version FROM submissions WHERE id = ?", (id_,)
            ).fetchone()
            (newer,) = db.execute(
                "SELECT COUNT(*) FROM submissions WHERE bot = ? AND version > ? "
                "AND state IN ('accepted', 'superseded')",
                (bot, version),
            ).fetchone()
            state = "superseded" if newer else "accepted"
            if not newer:
                db.execute(
                    "UPDATE submissions SET state = 'superseded', changed = ? "
                    "WHERE bot = ? AND state = 'accepted'",
                    (now, bot),
                )
            db.execute(
                "UPDATE submissions SET state = ?, reason = '', log = ?, cmd = ?, "
                "folder = ?, changed = ? WHERE id = ?",
                (state, log, cmd, folder, now, id_),
            )
            db.execute(
                "UPDATE bots SET status = 'active', changed = ? "
                "WHERE id = ? AND status != 'banned'",
                (now, bot),
            )

    def live(self) -> list[Submission]:
        """The current version of every active bot, in the order they were accepted."""
        rows = self._db.execute(
            _SUBMISSION + " WHERE s.state = 'accepted' AND b.status = 'active' ORDER BY s.id"
        )
        return [Submission(*row) for row in rows]

    # --- rating history
    def add_ratings(self, at: float, rows: list[tuple[str, float, int]]) -> None:
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO ratings (at, player, elo, games) VALUES (?, ?, ?, ?)",
                [(at, player, elo, games) for player, elo, games in rows],
            )

    def rating_history(self, player: str, most: int = 200) -> list[tuple[float, float, int]]:
        rows = self._db.execute(
            "SELECT at, elo, games FROM ratings WHERE player = ? ORDER BY at DESC LIMIT ?",
            (player, most),
        ).fetchall()
        return [(float(a), float(e), int(g)) for a, e, g in reversed(rows)]

    def rating_before(self, player: str, at: float) -> float | None:
        row = self._db.execute(
            "SELECT elo FROM ratings WHERE player = ? AND at <= ? ORDER BY at DESC LIMIT 1",
            (player, at),
        ).fetchone()
        if row is None:
            row = self._db.execute(
                "SELECT elo FROM ratings WHERE player = ? ORDER BY at LIMIT 1", (player,)
            ).fetchone()
        return None if row is None else float(row[0])
