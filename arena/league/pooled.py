"""Play one game on processes taken from warm bot pools, and give them back.

The seam every executor shares: the in-process runner calls it for each game it schedules,
a Dask worker for each game of the blocks it is given (:mod:`arena.league.worker`).
"""

from __future__ import annotations

from collections.abc import Mapping

from arena.config import LeagueConfig
from arena.game.botproc import BotPool
from arena.game.referee import play_game
from arena.game.seats import ProcessSeat, give_back, take_seats
from arena.game.spec import GameSpec
from arena.record import GameRecord
from engines.base import Engine

Transcript = list[tuple[str, bytes]]  # ("to" | "from", line), as a seat sent and got them


async def play_pooled(
    engine: Engine,
    config: LeagueConfig,
    spec: GameSpec,
    pools: Mapping[str, BotPool],
    *,
    transcripts: bool = False,
) -> tuple[GameRecord, list[Transcript | None]]:
    """Play ``spec`` with a process of each seated bot; its record and per-seat transcripts.

    A game cut off mid-way (cancelled) never returns its processes to the pools.
    """
    seated = [pools[name] for name in spec.seating]
    seats = await take_seats(seated, record=transcripts)
    finished = False
    try:
        record = await play_game(engine, config.options, spec, seats, config.limits, config.policy)
        finished = True
    finally:
        give_back(seats, seated, finished=finished)
    lines = [seat.transcript if isinstance(seat, ProcessSeat) else None for seat in seats]
    return record, lines
