"""A table: one engine with its options, clock and policy, and a pool of processes per bot.

:meth:`Table.play` seats the bots of a :class:`~arena.game.spec.GameSpec` from their pools,
plays the game and gives the processes back: the one step a league, a cluster worker,
``arena play`` and ``arena check-bot`` share. Pools come from a
:class:`~arena.game.hosting.BotHost`; a table lives as long as its host, game after game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from arena.config import Limits, Policy
from arena.game.botproc import BotPool
from arena.game.referee import StepHook, play_game
from arena.game.seats import ProcessSeat, Seat, give_back, take_seats
from arena.game.spec import GameSpec, SeatParams
from arena.record import GameRecord
from engines.base import Engine

Transcript = list[tuple[str, bytes]]  # ("to" | "from", line), as a seat sent and got them
PersonSeats = Callable[[str, str, GameSpec], Seat]
"""``factory(name, engine, spec)``: the seat of a person (``cmd = "human"``) in one game."""
Variants = Callable[[str, SeatParams], "BotPool | None"]
"""``variants(name, params)``: the pool of bot ``name`` started with ``params`` filled into its
command's placeholders, or None when its command has none (its one pool plays every game)."""


@dataclass(frozen=True)
class Played:
    """A finished game and the seats that played it (their transcripts and think times)."""

    record: GameRecord
    seats: list[Seat]

    def transcripts(self) -> list[Transcript | None]:
        """Per seat: every line it sent and got (tables with ``transcripts``), else None."""
        return [seat.transcript if isinstance(seat, ProcessSeat) else None for seat in self.seats]

    def readies(self) -> list[tuple[str, dict[str, Any]]]:
        """Per bot's seat: the bot and the ``ready`` answer of the process that played it."""
        return [(seat.name, seat.bot.ready) for seat in self.seats if isinstance(seat, ProcessSeat)]


@dataclass
class Table:
    """Plays games of ``engine`` with seats taken from ``pools`` (one per bot name).

    A seated name without a pool is a person's: ``people`` makes their seat for each game.
    """

    engine: Engine
    options: Mapping[str, Any]
    limits: Limits
    policy: Policy
    pools: Mapping[str, BotPool]
    transcripts: bool = False
    people: PersonSeats | None = None
    variants: Variants | None = None

    def pool_of(self, name: str, spec: GameSpec) -> BotPool | None:
        """The pool that seats ``name`` in ``spec``: its own, or the one started with the
        parameters the game gives it (a command with placeholders); None for a person."""
        if spec.params and self.variants is not None:
            params = next((values for bot, values in spec.params if bot == name), None)
            if params is not None and (pool := self.variants(name, params)) is not None:
                return pool
        return self.pools.get(name)

    def warm(self, specs: Iterable[GameSpec], most: int) -> None:
        """Start, in the background, the processes the games ``specs`` hold at once, at
        most ``most`` of one bot, and one per seat a bot has at one seed whatever ``most``
        (a process never plays a seed twice: the k seats of a block are k processes); a
        process already running or starting counts, at a seed unless it played it before."""
        specs = list(specs)
        seated = [(self.pool_of(name, spec), spec.seed) for spec in specs for name in spec.seating]
        wanted = Counter(id(pool) for pool, _ in seated if pool is not None)
        dealt = Counter((id(pool), seed) for pool, seed in seated if pool is not None)
        pools = {id(pool): pool for pool, _ in seated if pool is not None}
        for key, count in wanted.items():
            pools[key].warm(min(most, count))
        for (key, seed), seats in dealt.items():
            pools[key].warm(seats, seed)

    async def play(self, spec: GameSpec, on_step: StepHook | None = None) -> Played:
        """Play ``spec``; a game cut off (cancelled) never gives its processes back for reuse."""
        pools = [self.pool_of(name, spec) for name in spec.seating]
        taken = iter(
            await take_seats([p for p in pools if p], seed=spec.seed, record=self.transcripts)
        )
        seats: list[Seat] = []
        for name, pool in zip(spec.seating, pools, strict=True):
            if pool is not None:
                seats.append(next(taken))
            elif self.people is not None:
                seats.append(self.people(name, self.engine.name, spec))
            else:
                raise KeyError(f"no bot pool and no person seats for {name!r}")
        finished = False
        try:
            record = await play_game(
                self.engine, self.options, spec, seats, self.limits, self.policy, on_step
            )
            finished = True
        finally:
            give_back(seats, pools, seed=spec.seed, finished=finished)
        return Played(record, seats)
