"""``arena ladder token|list|retire|ban``: the organiser's commands on a ladder's folder
(they open its database directly: the server need not run, and may)."""

from __future__ import annotations

from pathlib import Path

from arena.errors import UserError
from arena.ladder.app import issue_token
from arena.ladder.db import DB_FILE, LadderDB
from arena.ladder.settings import check_bot_name


def open_db(folder: Path, *, create: bool = False) -> LadderDB:
    if not create and not (folder / DB_FILE).is_file():
        raise UserError(f"{folder}: no ladder here (no {DB_FILE}; arena serve makes it)")
    return LadderDB(folder)


def make_token(folder: Path, name: str, *, organiser: bool) -> str:
    wrong = check_bot_name(name, ())
    if wrong:
        raise UserError(f"participant name {name!r}: {wrong.replace('a bot name', 'a name')}")
    db = open_db(folder, create=True)
    try:
        return issue_token(db, name, organiser=organiser)
    finally:
        db.close()


def listing(folder: Path) -> list[str]:
    db = open_db(folder)
    try:
        lines = []
        for who in db.participants():
            role = " (organiser)" if who.organiser else ""
            banned = " BANNED" if who.banned else ""
            lines.append(f"participant {who.name}{role}{banned}")
            for bot in (b for b in db.bots() if b.owner == who.id):
                versions = db.submissions_of(bot.id)
                last = versions[0] if versions else None
                state = f"v{last.version} {last.state}" if last else "no version"
                lines.append(
                    f"  bot {bot.name}: {bot.status}, {len(versions)} version(s), last {state}"
                )
        return lines
    finally:
        db.close()


def set_status(folder: Path, name: str, status: str) -> str:
    """Retire or ban the bot ``name``, or ban the participant ``name`` (and their bots)."""
    db = open_db(folder)
    try:
        bot = db.bot_named(name)
        if bot is not None:
            db.set_bot_status(bot.id, status)
            return f"bot {name}: {status}"
        who = db.participant_named(name)
        if who is not None and status == "banned":
            db.ban_participant(who.id)
            return f"participant {name} and their bots: banned"
        raise UserError(
            f"{folder}: no bot named {name!r}" + (" or participant" if status == "banned" else "")
        )
    finally:
        db.close()
