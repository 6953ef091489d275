"""A league's table on warm bot pools: the seam every executor shares.

The in-process runner (:mod:`arena.league.runner`) and a Dask worker
(:mod:`arena.league.worker`) both play a league's games the same way::

    async with hosting() as host:
        table = league_table(config, host)
        records = [(await table.play(spec)).record for spec in block]

The pools live as long as the host: bot processes are reused game after game, block after
block.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import engines
from arena.config import BotSpec, LeagueConfig
from arena.game.botproc import BotPool, StderrLog
from arena.game.hosting import BotHost
from arena.game.placeholders import filled, placeholders
from arena.game.seats import hello_line
from arena.game.spec import SeatParams
from arena.game.table import PersonSeats, Table


def league_table(
    config: LeagueConfig,
    host: BotHost,
    logs: Callable[[BotSpec], StderrLog] | None = None,
    *,
    transcripts: bool = False,
    people: PersonSeats | None = None,
) -> Table:
    """A table for ``config``'s games: its engine, options, clock and policy, and a pool in
    ``host`` for each of its bots (stderr to ``logs(bot)``, default: dropped; with
    ``transcripts`` every seat records the lines it sent and got). The seats of people
    (``cmd = "human"``) have no pool: ``people`` makes them."""
    engine = engines.get(config.engine)
    hello = hello_line(engine, config.options, config.limits)
    pools = {
        bot.name: host.pool(bot, hello, logs(bot) if logs is not None else None)
        for bot in config.bots
        if not bot.is_human
    }
    variants = _Variants(config, host, hello, logs)
    return Table(
        engine, config.options, config.limits, config.policy, pools, transcripts, people, variants
    )


class _Variants:
    """The pools of bots whose command has ``{name}`` placeholders, one per set of values
    a game gives them (:mod:`arena.game.placeholders`), made as games ask for them."""

    def __init__(
        self,
        config: LeagueConfig,
        host: BotHost,
        hello: bytes,
        logs: Callable[[BotSpec], StderrLog] | None,
    ) -> None:
        self._bots = {bot.name: bot for bot in config.bots if placeholders(bot.cmd)}
        self._host = host
        self._hello = hello
        self._logs = logs
        self._pools: dict[tuple[str, SeatParams], BotPool] = {}

    def __call__(self, name: str, params: SeatParams) -> BotPool | None:
        bot = self._bots.get(name)
        if bot is None:
            return None
        pool = self._pools.get((name, params))
        if pool is None:
            started = replace(bot, cmd=filled(bot.cmd, dict(params)))
            log = self._logs(bot) if self._logs is not None else None
            pool = self._pools[(name, params)] = self._host.pool(started, self._hello, log)
        return pool
