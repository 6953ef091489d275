"""The standings of a results folder, as ``arena standings DIR`` prints them and the report
shows them: :func:`rate_folder`.

The folder's ``league.toml`` says which stored games are rated: those of the league it
describes (its bots, table sizes and rounds, played by its rules: engine, engine version
and options). Other stored games (of removed bots, or of an earlier league in the same
folder) are counted in a note, not rated, and the league's bots without a rated game are
named in another. ``bots=`` narrows the games rated to those among some bots (a ladder's
current versions, say), with a note on how many it left out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Iterator, Sequence
from itertools import compress
from operator import itemgetter
from pathlib import Path

from arena.config import LeagueConfig
from arena.league.layout import LEAGUE, Warn
from arena.league.reading import iter_game_batches
from arena.league.results import read_league
from arena.league.schedule import Rules, Shape, record_rules, rules_of
from arena.record import GameRecord, GameRow
from arena.stats.ratings import DEFAULT_PRIOR, GameColumns, Standings, rows_of, standings_of_rows
from arena.words import counted

__all__ = ["rate_folder", "rated_games"]


def rate_folder(
    folder: Path | str,
    *,
    model: str = "bt",
    method: str = "ml",
    anchor: tuple[str, float] | None = None,
    bootstrap: int = 1000,
    seed: int = 0,
    prior: float = DEFAULT_PRIOR,
    bots: Collection[str] | None = None,
    games: Iterable[GameRecord] | None = None,
    warn: Warn | None = None,
) -> Standings:
    """The standings of the league stored in ``folder``: exactly what ``arena standings``
    prints (``arena.show.tables.render(standings, fmt)``, the warnings under the table
    included) and the report shows.

    ``model``, ``method``, ``anchor``, ``bootstrap``, ``seed``, ``prior``: as
    :func:`~arena.stats.ratings.compute_standings` takes them; ``bots``: rate only the games
    whose every seat is one of these bots (None: every bot of the league); ``games``: the
    folder's stored games if the caller has read them already (``read_games(folder)``), else
    they are read here, a batch of rows at a time (faster); ``warn`` hears of each line of
    ``games.jsonl`` that is skipped (not a game, or a second copy of one). A folder that is
    not a results folder is a :class:`~arena.errors.ResultsError`.
    """
    folder = Path(folder)
    choice = _Choice.of(read_league(folder), bots)
    if games is None:
        batches = iter_game_batches(folder, warn, choice.columns)
    else:
        batches = map(choice.columns, rows_of(games))
    standings = standings_of_rows(
        choice.counted(batches),
        model=model,
        method=method,
        anchor=anchor,
        bootstrap=bootstrap,
        seed=seed,
        prior=prior,
    )
    return choice.noted(standings)


def rated_games(
    folder: Path | str, games: Iterable[GameRecord], *, bots: Collection[str] | None = None
) -> list[GameRecord]:
    """The games of ``games`` (stored in ``folder``) that :func:`rate_folder` rates."""
    choice = _Choice.of(read_league(Path(folder)), bots)
    return [game for game in games if choice.rates(record_rules(game), *_where(game))]


class _Choice:
    """Which stored games are rated: the league's (when ``league.toml`` describes a
    schedule), among ``bots`` (when given); and how many were not."""

    def __init__(
        self, shape: Shape | None, names: Sequence[str], bots: Collection[str] | None
    ) -> None:
        self.names = names
        """The league's bots."""
        self.shape = shape
        self.bots = None if bots is None else frozenset(bots)
        self.outside = 0
        """Stored games that are not the league's."""
        self.unasked = 0
        """Games of the league with a bot outside ``bots``."""

    @classmethod
    def of(cls, league: LeagueConfig, bots: Collection[str] | None) -> _Choice:
        return cls(Shape.of(league), [bot.name for bot in league.bots], bots)

    def rates(
        self, rules: Rules, seating: Sequence[str], block: int, rotation: int, seed: int
    ) -> bool:
        """Is this game (its rules, seating, block, rotation and seed) rated?"""
        if self.shape is not None and not self.shape.plays_row(
            rules, seating, block, rotation, seed
        ):
            return False
        return self.bots is None or self.bots.issuperset(seating)

    def columns(self, rows: list[GameRow]) -> tuple[GameColumns, int, int]:
        """The batch's rated games, taken apart; how many were not the league's, and how
        many had a bot outside ``bots`` (it may run in a forked copy: it changes nothing)."""
        league = rows
        if self.shape is not None:
            plays = self.shape.plays_row
            league = list(compress(rows, [plays(rules_of(row), *_keys(row)) for row in rows]))
        asked = league
        if self.bots is not None:
            asked = list(compress(league, map(self.bots.issuperset, map(_SEATING, league))))
        return GameColumns.of(asked), len(rows) - len(league), len(league) - len(asked)

    def counted(self, batches: Iterable[tuple[GameColumns, int, int]]) -> Iterator[GameColumns]:
        """The rated games of each batch, counting the others."""
        for games, outside, unasked in batches:
            self.outside += outside
            self.unasked += unasked
            yield games

    def noted(self, standings: Standings) -> Standings:
        """``standings`` with a note on the stored games not rated, if any, and one on the
        league's bots without a rated game."""
        notes = list(standings.notes)
        if self.outside:
            verb = "is" if self.outside == 1 else "are"
            notes.append(
                f"{counted(self.outside, 'stored game')} {verb} not part of the league in "
                f"{LEAGUE} (removed bots, sizes or rounds; another engine, version or "
                f"options) and {verb} not rated."
            )
        if self.unasked:
            has, verb = ("has", "is") if self.unasked == 1 else ("have", "are")
            notes.append(
                f"{counted(self.unasked, 'game')} of the league {has} a bot that is not rated "
                f"here and {verb} left out."
            )
        rated = {row.bot for row in standings.rows}
        never = [
            name
            for name in self.names
            if name not in rated and (self.bots is None or name in self.bots)
        ]
        if never:
            notes.append(f"Never played: {', '.join(never)} (in {LEAGUE}, without a stored game).")
        return dataclasses.replace(standings, notes=tuple(notes))


def _keys(row: GameRow) -> tuple[Sequence[str], int, int, int]:
    return row["seating"], row["block"], row["rotation"], row["seed"]


_SEATING = itemgetter("seating")


def _where(game: GameRecord) -> tuple[Sequence[str], int, int, int]:
    return game.seating, game.block, game.rotation, game.seed
