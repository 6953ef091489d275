"""Feeds of blocks: which blocks a league run plays next (:class:`BlockFeed`), and the
sequential test that stops when it decides (:class:`SprtFeed`, ``mode = "sprt"``).

A feed is what a caller of the driver (:class:`~arena.league.driver.LeagueDriver`) supplies
to choose the games: a ladder, a tuner or a Swiss round makes its own feed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from arena.config import LeagueConfig
from arena.game.spec import GameSpec
from arena.league.championship import (
    championship_games,
    heat_block,
    knockout_event,
    swiss_event,
)
from arena.league.layout import Warn
from arena.league.schedule import game_count, iter_blocks
from arena.record import GameRecord
from arena.stats.sprt import Sprt, out_of_budget


class BlockFeed:
    """Which blocks to play, and what is told when each one is done.

    The driver iterates the feed for the next block (a list of
    :class:`~arena.game.spec.GameSpec`, the games of one rotation block: its games are
    handed back together) and calls :meth:`block_done` with each block's records once every
    game of it is stored (games already stored count too), in the order blocks complete. A
    feed may make its next blocks from those results, and may never end: the run ends when
    the iteration does, when :attr:`stop_reason` is set (no new block is begun; the games in
    flight are stored), or on a stop (Ctrl-C). An empty block means "none ready yet": the
    driver asks again after :data:`~arena.league.driver.WAIT_S` (the Dask player: at once
    when a block in flight is done).
    """

    def __init__(self, blocks: Iterable[list[GameSpec]], total: int) -> None:
        self._blocks = iter(blocks)
        self.total = total  # games if every block is played
        self.stop_reason = ""

    @classmethod
    def for_config(
        cls, config: LeagueConfig, known: Mapping[tuple[str, ...], int] | None = None
    ) -> BlockFeed:
        """Every block of a round-robin or gauntlet league (made as they are played)."""
        return cls(iter_blocks(config, config.rounds, known), game_count(config))

    def __iter__(self) -> Iterator[list[GameSpec]]:
        for block in self._blocks:
            if self.stop_reason:
                return
            yield block

    def block_done(self, games: list[GameRecord]) -> None:
        """Called with each complete block (in any order)."""


SPRT_WINDOW = 16
"""Blocks a sequential test lets be handed out ahead of the ones it has taken: the most it
plays past its decision."""


class SprtFeed(BlockFeed):
    """Blocks of candidate vs opponent until the sequential test decides (``mode = sprt``).

    Blocks are handed to the test in schedule order, whatever order they finish in, so the
    decision does not depend on ``jobs``; games already in flight when it is reached, and
    the rest of their blocks, are still stored (none at ``jobs = 1``: a block's first game
    waits for the slot its predecessor frees once the test has taken it). No block more than
    :attr:`window` past the first one the test has not taken is handed out, so whichever
    player plays it (a Dask cluster hands out many blocks at once), every block played is
    at most ``window`` past the block that decided. Its table keeps
    the number its stored games give it, as any table does (``known``): a swapped candidate
    and opponent is a new table, not stored ids reused.
    """

    def __init__(
        self,
        config: LeagueConfig,
        echo: Warn | None,
        known: Mapping[tuple[str, ...], int] | None = None,
    ) -> None:
        assert config.sprt is not None, "an SPRT feed needs a [sprt] table"
        spec = config.sprt
        blocks = iter_blocks(config, spec.max_blocks, known)
        super().__init__(blocks, spec.max_blocks * config.players[0])
        self.test = Sprt(spec.elo0, spec.elo1, spec.alpha, spec.beta, spec.candidate, spec.opponent)
        caution = self.test.caution()
        if caution is not None and echo is not None:  # once, before the first block
            echo(f"warning: {caution}")
        self.max_blocks = spec.max_blocks
        self.window = SPRT_WINDOW
        self._echo = echo
        self._finished: dict[int, list[GameRecord]] = {}
        self._next = 0

    def __iter__(self) -> Iterator[list[GameSpec]]:
        for index, block in enumerate(self._blocks):
            while index >= self._next + self.window and not self.stop_reason:
                yield []  # none ready until the test has taken more blocks
            if self.stop_reason:
                return
            yield block

    def block_done(self, games: list[GameRecord]) -> None:
        self._finished[games[0].block] = games
        while self._next in self._finished and not self.stop_reason:
            self.test.add_block(self._finished.pop(self._next))
            self._next += 1
            if self._echo is not None:
                self._echo(self.test.status_line())
            if self.test.decision:
                self.stop_reason = (
                    f"stopped at the decision: {self.test.status_line()}. {self.test.verdict()}"
                )
            elif self._next >= self.max_blocks:
                self.stop_reason = f"{self.test.status_line()}. {out_of_budget(self.max_blocks)}"


class ChampionshipFeed(BlockFeed):
    """The blocks of a Swiss or knockout league, each round (stage, tie-break) once the one
    before is complete: made from the stored results it hears of (:meth:`block_done`) and
    the seed alone, so a resumed run is handed the blocks an uninterrupted one was."""

    def __init__(self, config: LeagueConfig) -> None:
        super().__init__((), championship_games(config))
        self.config = config
        self._games: dict[tuple[int, int], list[GameRecord]] = {}
        self._handed: set[tuple[int, int]] = set()
        self._changed = True
        self._pending: list[list[GameSpec]] | None = []

    def block_done(self, games: list[GameRecord]) -> None:
        self._games[(games[0].table, games[0].block)] = games
        self._changed = True

    def __iter__(self) -> Iterator[list[GameSpec]]:
        while not self.stop_reason:
            if self._changed:
                self._changed = False
                self._pending = self._to_play()
            if self._pending is None:
                return
            fresh = [b for b in self._pending if (b[0].table, b[0].block) not in self._handed]
            if not fresh:
                yield []  # the round's blocks are in flight
                continue
            for block in fresh:
                self._handed.add((block[0].table, block[0].block))
                if self._tiebreak(block[0]):
                    self.total += len(block)  # the count grows by the blocks a tie adds
                yield block

    def _tiebreak(self, game: GameSpec) -> bool:
        """Is this a knockout heat's tie-break block (not counted in :attr:`total` at first)?"""
        knockout = self.config.knockout
        return knockout is not None and game.block % (1 + knockout.tiebreak_blocks) != 0

    def _to_play(self) -> list[list[GameSpec]] | None:
        """The blocks the event waits for now (None: it is over)."""
        if self.config.mode == "swiss":
            swiss = swiss_event(self.config, self._games)
            if swiss.finished:
                return None
            last = swiss.rounds[-1]
            return [b for b, r in zip(last.blocks, last.results, strict=True) if r is None]
        knockout = knockout_event(self.config, self._games)
        if knockout.finished:
            return None
        return [heat_block(self.config, heat, n) for heat, n in knockout.bracket.to_play]
