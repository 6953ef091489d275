"""One ad-hoc game between bot commands (``arena play``), outside any league."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import trio

import engines
from arena.config import BotSpec, Limits, Policy
from arena.game.botproc import BotPool, StderrLog
from arena.game.referee import StepHook, play_game
from arena.game.seats import hello_line, take_seats
from arena.game.spec import GameSpec
from arena.game.watchdog import Watchdog
from arena.record import GameRecord


async def play_match(
    engine_name: str,
    bots: Sequence[BotSpec],
    seed: int,
    options: Mapping[str, Any],
    limits: Limits,
    policy: Policy,
    on_step: StepHook | None = None,
) -> GameRecord:
    """Start one process per seat, play one game, end every process; return the record."""
    engine = engines.get(engine_name)
    hello = hello_line(engine, options, limits)
    spec = GameSpec(
        id=f"play-{seed}",
        table=0,
        block=0,
        rotation=0,
        seed=seed,
        seating=tuple(bot.name for bot in bots),
    )
    with tempfile.TemporaryDirectory(prefix="arena-play-") as workroot, Watchdog() as guard:
        async with trio.open_nursery() as hosts:
            pools = [
                BotPool(bot, hello, Path(workroot), StderrLog(None, 0), hosts, guard)
                for bot in bots
            ]
            try:
                seats = await take_seats(pools)
                return await play_game(engine, options, spec, seats, limits, policy, on_step)
            finally:
                for pool in pools:
                    pool.close_all()
