"""The leaderboard: the arena's own standings of the ladder's results folder, the numbers
``arena standings DIR`` prints there (the games of its ``league.toml``: the house bots and
the live versions), with what the database knows beside them (owner, version, status)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import compress
from pathlib import Path
from typing import Any

from arena.ladder.db import LadderDB
from arena.league.layout import LEAGUE
from arena.league.reading import iter_game_batches
from arena.league.results import read_league
from arena.league.schedule import Shape, rules_of
from arena.record import GameRow
from arena.stats.ratings import GameColumns, Standings, standings_of_rows

TREND_S = 3600.0  # the trend is the change of rating over the last hour


def rate_folder(folder: Path) -> Standings:
    """The standings ``arena standings`` prints for ``folder`` (its defaults: Bradley-Terry,
    maximum likelihood, the pool mean at 1500, the same bootstrap)."""
    league = read_league(folder)
    shape = Shape.of(league)

    def scheduled(rows: list[GameRow]) -> tuple[GameColumns, int]:
        if shape is None:
            return GameColumns.of(rows), 0
        keys = ("seating", "block", "rotation", "seed")
        held = [shape.plays_row(rules_of(row), *map(row.__getitem__, keys)) for row in rows]
        return GameColumns.of(list(compress(rows, held))), held.count(False)

    def columns(batches: Iterable[tuple[GameColumns, int]]) -> Iterator[GameColumns]:
        for games, _ in batches:
            yield games

    return standings_of_rows(columns(iter_game_batches(folder, None, scheduled)))


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
    table = rate_folder(folder)
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
