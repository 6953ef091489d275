"""One ad-hoc game between bot commands (``arena play``), outside any league."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import trio

import engines
from arena import protocol
from arena.botproc import BotPool, StderrLog
from arena.config import BotSpec, Limits, Policy
from arena.errors import BotStartup
from arena.league import FailedSeat
from arena.referee import Record, StepHook, play_game
from arena.schedule import GameSpec
from arena.seats import ProcessSeat, Seat


async def play_match(
    engine_name: str,
    bots: Sequence[BotSpec],
    seed: int,
    options: Mapping[str, Any],
    limits: Limits,
    policy: Policy,
    on_step: StepHook | None = None,
) -> Record:
    """Start one process per seat, play one game, end every process; return the record."""
    engine = engines.get(engine_name)
    hello = protocol.encode(
        protocol.hello(
            engine_name,
            engine.version,
            dict(options),
            {"move_ms": limits.move_ms, "bank_ms": limits.bank_ms},
        )
    )
    spec = GameSpec(
        id=f"play-{seed}",
        table=0,
        block=0,
        rotation=0,
        seed=seed,
        seating=tuple(bot.name for bot in bots),
    )
    with tempfile.TemporaryDirectory(prefix="arena-play-") as workroot:
        async with trio.open_nursery() as hosts:
            pools = [BotPool(bot, hello, Path(workroot), StderrLog(None, 0), hosts) for bot in bots]
            try:
                seats: list[Seat] = []
                for pool in pools:
                    try:
                        seats.append(ProcessSeat(await pool.acquire()))
                    except BotStartup as fault:
                        seats.append(FailedSeat(pool.spec.name, fault))
                return await play_game(engine, options, spec, seats, limits, policy, on_step)
            finally:
                for seat in seats:
                    if isinstance(seat, ProcessSeat):
                        seat.bot.close()
