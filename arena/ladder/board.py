"""The leaderboard: the arena's own standings of the ladder's results folder, the numbers
``arena standings DIR`` prints there (the games of its ``league.toml``: the house bots and
the live versions), with what the database knows beside them (owner, version, status)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.ladder.db import LadderDB
from arena.league.layout import LEAGUE
from arena.league.standings import rate_folder

TREND_S = 3600.0  # the trend is the change of rating over the last hour


@dataclass
class Row:
    rank: int
    bot: str
    owner: str
    version: int
    player: str  # the name in the games: bot@version, or a house bot's
    elo: float
    low: float | None
    high: float | None
    games: int
    score_pct: float
    status: str
    trend: float | None
    changed: float

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "bot": self.bot,
            "owner": self.owner,
            "version": self.version,
            "player": self.player,
            "elo": round(self.elo, 1),
            "low": None if self.low is None else round(self.low, 1),
            "high": None if self.high is None else round(self.high, 1),
            "games": self.games,
            "score_pct": round(self.score_pct, 1),
            "status": self.status,
            "trend": None if self.trend is None else round(self.trend, 1),
            "changed": self.changed,
        }


@dataclass
class Board:
    rows: list[Row] = field(default_factory=list)
    at: float = 0.0
    notes: tuple[str, ...] = ()


def make_board(folder: Path, db: LadderDB, houses: tuple[str, ...]) -> Board:
    """Rate the folder and join the rows with the database (call it in a worker thread)."""
    if not (folder / LEAGUE).is_file():
        return Board(at=time.time())
    table = rate_folder(folder)  # what arena standings prints: the same numbers
    now = time.time()
    live = {s.player: s for s in db.live()}
    bots = {bot.name: bot for bot in db.bots()}
    rows = []
    for standing in table.rows:
        submission = live.get(standing.bot)
        if submission is not None:
            bot = bots[submission.bot_name]
            owner, version, status = bot.owner_name, submission.version, bot.status
            name, changed = bot.name, submission.changed
        else:
            owner, version, name, changed = "house", 0, standing.bot, 0.0
            status = "house" if standing.bot in houses else "gone"
        before = db.rating_before(standing.bot, now - TREND_S)
        rows.append(
            Row(
                rank=standing.rank,
                bot=name,
                owner=owner,
                version=version,
                player=standing.bot,
                elo=standing.elo,
                low=standing.elo_low,
                high=standing.elo_high,
                games=standing.games,
                score_pct=standing.score_pct,
                status=status,
                trend=None if before is None else standing.elo - before,
                changed=changed,
            )
        )
    db.add_ratings(now, [(row.player, row.elo, row.games) for row in rows])
    return Board(rows, now, table.notes)
