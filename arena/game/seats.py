"""The seam between the referee and a player: a :class:`Seat`.

The referee talks only to seats. :class:`ProcessSeat` speaks protocol v1 to a bot
subprocess; :class:`FunctionSeat` calls a Python ``choose`` function in-process, so the
referee, league and ratings can be tested without processes.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import trio

from arena import protocol
from arena.config import Limits
from arena.errors import (
    BotCrash,
    BotIllegal,
    BotMemory,
    BotProtocolError,
    BotStartup,
    BotTimeout,
)
from arena.game.botproc import BotPool, BotProcess
from arena.protocol import Params
from arena.sdk import Choose, GameInfo
from engines.base import Engine, State

Action = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Answer:
    """A seat's answer to one decision."""

    index: int  # into the legal list
    seconds: float  # the time it took, as the referee measured it
    note: str = ""  # the bot's optional note, already cut to protocol.MAX_NOTE_CHARS


class Seat(Protocol):
    """One player of one game, as the referee sees it."""

    name: str

    async def start(
        self, game: str, seat: int, players: int, seed: int, params: Params | None = None
    ) -> None: ...

    async def act(
        self,
        game: str,
        step: int,
        observation: dict[str, Any],
        legal: list[Action],
        time_ms: int,
        bank_ms: int,
    ) -> Answer:
        """The chosen index, the seconds taken and the note; raises a
        :class:`~arena.errors.BotFault`."""
        ...

    async def substituted(self, game: str, step: int, action: Action, reason: str) -> None: ...

    async def end(self, game: str, result: dict[str, Any], observation: dict[str, Any]) -> None: ...


@runtime_checkable
class Watcher(Protocol):
    """A seat that runs in the referee's process and may look at the live game state.

    The human seat is one: it draws the table with the engine's ``render(seat)``, which
    shows only what that seat may know. The referee calls ``watch`` once, before ``start``.
    """

    def watch(self, game: str, state: State) -> None: ...


class ProcessSeat:
    """A seat played by a bot subprocess over protocol v1."""

    def __init__(self, bot: BotProcess, record: bool = False) -> None:
        self.bot = bot
        self.name = bot.spec.name
        self.think_times: list[float] = []
        # with ``record``: every line of this game, starting with the process's handshake
        self.transcript: list[tuple[str, bytes]] | None = None
        if record:
            hello, ready = bot.hello_lines
            self.transcript = [("to", hello), ("from", ready)]
        bot.transcript = self.transcript

    async def start(
        self, game: str, seat: int, players: int, seed: int, params: Params | None = None
    ) -> None:
        message = protocol.start(game, seat, players, seed, params)
        await self.bot.send(protocol.encode(message))

    async def act(
        self,
        game: str,
        step: int,
        observation: dict[str, Any],
        legal: list[Action],
        time_ms: int,
        bank_ms: int,
    ) -> Answer:
        message = protocol.encode(protocol.act(game, step, observation, legal, time_ms, bank_ms))
        limit_s = (time_ms + bank_ms) / 1000
        started = time.perf_counter()
        deadline = trio.current_time() + limit_s
        try:
            answer = protocol.decode(await self.bot.ask(message, deadline))
            # An answer naming an earlier step is a late answer to a timed-out request, or
            # one the bot wrote twice: a line nobody asked for, so the process is not reused.
            while answer.get("step", step) != step:
                protocol.check_stale(answer, step)
                self.bot.broken = True
                answer = protocol.decode(await self.bot.read_line(deadline))
            index = protocol.chosen_index(answer, legal)
            note = protocol.chosen_note(answer)
        except BotTimeout:
            raise BotTimeout(f"no answer within {limit_s * 1000:.0f} ms") from None
        except BotCrash as crash:  # say how the process ended, when it did
            ended = await self.bot.exit_words()
            if self.bot.memory_killed():
                memory = self.bot.limits.memory_mb
                raise BotMemory(f"{crash}: killed for using more than {memory} MB") from None
            raise BotCrash(f"{crash}: {ended}" if ended else str(crash)) from None
        except (BotProtocolError, BotIllegal):  # a fault: the process is not reused
            self.bot.broken = True
            raise
        elapsed = time.perf_counter() - started
        self.think_times.append(elapsed)
        return Answer(index, elapsed, note)

    async def substituted(self, game: str, step: int, action: Action, reason: str) -> None:
        await self.bot.send(protocol.encode(protocol.substituted(game, step, action, reason)))

    async def end(self, game: str, result: dict[str, Any], observation: dict[str, Any]) -> None:
        await self.bot.send(protocol.encode(protocol.end(game, result, observation)))
        self.bot.check_disk()  # a bot that filled its folder is charged with this game
        self.bot.check_memory()  # so is one whose processes outgrew its memory


class FunctionSeat:
    """A seat played in-process by a ``choose(observation, legal, game)`` function.

    ``choose`` may raise a :class:`~arena.errors.BotFault` to stand in for a misbehaving bot.
    """

    def __init__(self, name: str, choose: Choose, engine: str = "", options: Any = None) -> None:
        self.name = name
        self._choose = choose
        self._engine = engine
        self._options = dict(options or {})
        self._games: dict[str, GameInfo] = {}

    async def start(
        self, game: str, seat: int, players: int, seed: int, params: Params | None = None
    ) -> None:
        self._games[game] = GameInfo(
            engine=self._engine,
            options=self._options,
            game=game,
            seat=seat,
            players=players,
            seed=seed,
            rng=random.Random(seed),
            params=dict(params or {}),
        )

    async def act(
        self,
        game: str,
        step: int,
        observation: dict[str, Any],
        legal: list[Action],
        time_ms: int,
        bank_ms: int,
    ) -> Answer:
        info = self._games[game]
        info.step, info.time_ms, info.bank_ms, info.note = step, time_ms, bank_ms, ""
        started = time.perf_counter()
        choice = self._choose(observation, legal, info)
        elapsed = time.perf_counter() - started
        message: dict[str, Any] = (
            {"type": "action", "index": choice}
            if isinstance(choice, int)
            else {"type": "action", "action": choice}
        )
        message["note"] = info.note
        return Answer(protocol.chosen_index(message, legal), elapsed, protocol.chosen_note(message))

    async def substituted(self, game: str, step: int, action: Action, reason: str) -> None:
        return None

    async def end(self, game: str, result: dict[str, Any], observation: dict[str, Any]) -> None:
        self._games.pop(game, None)


class FailedSeat:
    """A seat whose bot could not be started: it forfeits at the start of the game."""

    def __init__(self, name: str, fault: BotStartup) -> None:
        self.name = name
        self._fault = fault

    async def start(
        self, game: str, seat: int, players: int, seed: int, params: Params | None = None
    ) -> None:
        raise self._fault

    async def act(
        self,
        game: str,
        step: int,
        observation: dict[str, Any],
        legal: list[dict[str, Any]],
        time_ms: int,
        bank_ms: int,
    ) -> Answer:
        raise self._fault

    async def substituted(self, game: str, step: int, action: dict[str, Any], reason: str) -> None:
        raise self._fault

    async def end(self, game: str, result: dict[str, Any], observation: dict[str, Any]) -> None:
        raise self._fault


def hello_line(engine: Engine, options: Mapping[str, Any], limits: Limits) -> bytes:
    """The ``hello`` every bot of a game gets: engine, options, the clock, static data."""
    clock = {"move_ms": limits.move_ms, "bank_ms": limits.bank_ms}
    message = protocol.hello(engine.name, engine.version, dict(options), clock, engine.catalog())
    return protocol.encode(message)


async def take_seats(pools: Sequence[BotPool], *, seed: int, record: bool = False) -> list[Seat]:
    """One seat per pool, in order, for a game of ``seed``: a pooled process that has not
    played that seed (the same deal), or a forfeit if it cannot start."""
    seats: list[Seat] = []
    for pool in pools:
        try:
            seats.append(ProcessSeat(await pool.acquire(seed), record=record))
        except BotStartup as fault:
            seats.append(FailedSeat(pool.spec.name, fault))
    return seats


def give_back(
    seats: Sequence[Seat], pools: Sequence[BotPool | None], *, seed: int, finished: bool
) -> None:
    """Return each seat's process to its pool after a game of ``seed``, which it will never
    be seated at again.

    A game cut off mid-way leaves a question unanswered: its processes are never reused.
    """
    for seat, pool in zip(seats, pools, strict=False):
        if isinstance(seat, ProcessSeat) and pool is not None:
            seat.bot.broken = seat.bot.broken or not finished
            pool.release(seat.bot, seed)
