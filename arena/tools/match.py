"""One ad-hoc game between bot commands (``arena play``), outside any league."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.config import BotSpec, Limits, Policy
from arena.game.botproc import StderrLog
from arena.game.hosting import hosting
from arena.game.referee import StepHook
from arena.game.seats import Seat, hello_line
from arena.game.spec import GameSpec
from arena.game.table import Table
from arena.record import GameRecord
from engines.base import Engine


async def play_match(
    engine: Engine,
    bots: Sequence[BotSpec],
    seed: int,
    options: Mapping[str, Any],
    limits: Limits,
    policy: Policy,
    on_step: StepHook | None = None,
    person: tuple[int, Seat] | None = None,
    logs: Mapping[str, StderrLog] | None = None,
) -> GameRecord:
    """Start one process per seat, play one game, end every process; return the record.

    ``options`` are resolved ones (:func:`arena.config.check_game`). ``person`` seats
    someone who is not a process (the human seat) at that position; the bots fill the other
    seats in order. ``logs`` take each bot's stderr, by bot name (default: dropped)."""
    names = [bot.name for bot in bots]
    if person is not None:
        names.insert(person[0], person[1].name)
    hello = hello_line(engine, options, limits)
    spec = GameSpec(
        id=f"play-{seed}",
        table=0,
        block=0,
        rotation=0,
        seed=seed,
        seating=tuple(names),
    )
    async with hosting("arena-play-") as host:
        pools = {b.name: host.pool(b, hello, (logs or {}).get(b.name)) for b in bots}
        table = Table(engine, options, limits, policy, pools)
        if person is not None:
            table.people = lambda name, engine, spec: person[1]
        return (await table.play(spec, on_step)).record
