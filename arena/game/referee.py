"""Play ONE game: an engine state and one :class:`~arena.game.seats.Seat` per seat.

The referee keeps each seat's clock (per-decision limit plus an overage bank), turns every
fault into a verdict and applies the league's policy: ``random`` plays a seeded random legal
action for that decision (the bot is told with ``substituted``); ``forfeit`` hands the seat
to the seeded random policy for the rest of the game and ranks it last (a resignation is
always a forfeit). It records moves as
indices into the legal lists, so a stored game replays from its seed alone, and beside them
each turn's think time and the notes bots sent with their actions.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from arena.config import Limits, Policy
from arena.errors import BotDisqualified, BotFault, Resigned
from arena.game.seats import Seat, Watcher
from arena.game.spec import GameSpec, bot_seed
from arena.record import NOT_ASKED, NOTES_BUDGET, Forfeit, GameRecord, SeatRecord
from engines.base import Action, Engine, State, derive_rng


@dataclass(frozen=True)
class Step:
    """What a step hook is shown: the live ``state`` just before decision ``number`` (by
    ``seat``, choosing ``action``) is applied; once more at the end with ``seat`` and
    ``action`` None. ``number`` is the protocol's ``step``. The hook must not change ``state``.
    """

    state: State
    number: int
    seat: int | None = None
    action: Action | None = None


StepHook = Callable[[Step], None]


@dataclass
class SeatClock:
    """Per-seat bookkeeping of one game."""

    bank_ms: float
    decisions: int = 0
    think_s: float = 0.0
    verdicts: dict[str, int] = field(default_factory=dict)
    forfeit: Forfeit | None = None
    notes: list[str] = field(default_factory=list)
    graces: int = 0
    turns_us: list[int] = field(default_factory=list)  # per turn: think time, or NOT_ASKED
    said: list[tuple[int, str]] = field(default_factory=list)  # the bot's notes, by step
    said_chars: int = 0

    def spend(self, elapsed_s: float, limits: Limits) -> None:
        """Book one answered decision: an overrun comes out of the bank, unless the slack
        rule forgives it (shorter than ``grace_ms``, at most ``grace_count`` per game)."""
        self.decisions += 1
        self.think_s += elapsed_s
        self.turns_us[-1] = round(elapsed_s * 1_000_000)
        overrun = elapsed_s * 1000 - limits.move_ms
        if overrun <= 0:
            return
        if overrun < limits.grace_ms and self.graces < limits.grace_count:
            self.graces += 1
        else:
            self.bank_ms = max(0.0, self.bank_ms - overrun)

    def keep_note(self, step: int, note: str) -> None:
        """Keep a bot's note until the first one beyond the game's :data:`NOTES_BUDGET`."""
        if not note:
            return
        self.said_chars += len(note)
        if self.said_chars <= NOTES_BUDGET:
            self.said.append((step, note))

    def fault(self, fault: BotFault, step: int) -> None:
        self.verdicts[fault.verdict] = self.verdicts.get(fault.verdict, 0) + 1
        if len(self.notes) < 5:
            self.notes.append(f"step {step}: {fault.verdict}: {fault}"[:300])

    def forfeit_for(self, fault: BotFault) -> None:
        """The seat is out of this game because of ``fault``."""
        if isinstance(fault, BotDisqualified):
            self.forfeit = "disqualified"
        else:
            self.forfeit = cast(Forfeit, fault.verdict)


def forfeit_ranks(ranks: Sequence[int], forfeited: Sequence[str | None]) -> list[int]:
    """Ranks with every forfeited seat (a reason in ``forfeited``) placed last, sharing last
    place among themselves."""
    if all(reason is None for reason in forfeited):
        return list(ranks)
    playing = [i for i, reason in enumerate(forfeited) if reason is None]
    adjusted = [0] * len(ranks)
    for i in playing:
        adjusted[i] = 1 + sum(1 for j in playing if ranks[j] < ranks[i])
    for i, reason in enumerate(forfeited):
        if reason is not None:
            adjusted[i] = len(playing) + 1
    return adjusted


def forfeited_seats(ranks: Sequence[int], final: Sequence[int]) -> list[int]:
    """The seats :func:`forfeit_ranks` placed last, read back from the engine's ``ranks``
    and the ``final`` ones: when it changed anything, exactly those sharing the last final
    rank (every seat that played on ranks above them). Empty when it changed nothing: then
    the engine's ranks stand, whoever forfeited."""
    if list(ranks) == list(final):
        return []
    last = max(final)
    return [seat for seat, rank in enumerate(final) if rank == last]


async def play_game(
    engine: Engine,
    options: Mapping[str, Any],
    spec: GameSpec,
    seats: Sequence[Seat],
    limits: Limits,
    policy: Policy,
    on_step: StepHook | None = None,
) -> GameRecord:
    """Play ``spec`` with ``seats[i]`` in seat ``i``; return its record."""
    started = time.perf_counter()
    players = spec.players
    state = engine.new_game(players, spec.seed, dict(options))
    fallback = [derive_rng(spec.seed, "fallback", seat) for seat in range(players)]
    clocks = [SeatClock(float(limits.bank_ms)) for _ in range(players)]
    moves: list[int] = []

    for position, (player, clock) in enumerate(zip(seats, clocks, strict=True)):
        if isinstance(player, Watcher):
            player.watch(spec.id, state)
        try:
            params = spec.params_of(spec.seating[position])
            seed = bot_seed(spec.seed, position, spec.key)
            await player.start(spec.id, position, players, seed, params)
        except BotFault as fault:
            clock.fault(fault, 0)
            clock.forfeit_for(fault)

    while (seat := state.to_move()) is not None:
        legal = state.legal_actions()
        clock = clocks[seat]
        step = len(moves)
        index = -1
        clock.turns_us.append(NOT_ASKED)
        if clock.forfeit is None:
            try:
                answer = await seats[seat].act(
                    spec.id,
                    step,
                    state.observation(seat),
                    legal,
                    limits.move_ms,
                    int(clock.bank_ms),
                )
                index = answer.index
                clock.spend(answer.seconds, limits)
                clock.keep_note(step, answer.note)
            except BotFault as fault:
                clock.fault(fault, step)
                if fault.verdict == "timeout":
                    clock.bank_ms = 0.0  # the decision used its own time and the whole bank
                if isinstance(fault, Resigned) or policy.for_verdict(fault.verdict) == "forfeit":
                    clock.forfeit_for(fault)
                else:
                    index = fallback[seat].randrange(len(legal))
                    told = seats[seat].substituted(spec.id, step, legal[index], fault.verdict)
                    if (failed := await _notify(clock, step, told)) is not None:
                        clock.forfeit_for(failed)
        if index < 0:
            index = fallback[seat].randrange(len(legal))
        if on_step is not None:
            on_step(Step(state, step, seat, legal[index]))
        moves.append(index)
        state.apply_index(index)

    if on_step is not None:
        on_step(Step(state, len(moves)))
    result = state.result()
    ranks = forfeit_ranks(result.ranks, [clock.forfeit for clock in clocks])
    summary = {"scores": list(result.scores), "ranks": ranks}
    for seat, player in enumerate(seats):
        if clocks[seat].forfeit is None:
            told = player.end(spec.id, summary, state.observation(seat))
            await _notify(clocks[seat], len(moves), told)

    return GameRecord(
        id=spec.id,
        engine=engine.name,
        engine_version=engine.version,
        options=dict(options),
        seed=spec.seed,
        table=spec.table,
        block=spec.block,
        rotation=spec.rotation,
        seats=tuple(
            SeatRecord(
                bot=bot,
                score=score,
                rank=rank,
                forfeit=clock.forfeit,
                verdicts=clock.verdicts,
                notes=tuple(clock.notes),
                decisions=clock.decisions,
                think_ms=round(clock.think_s * 1000, 3),
                think_us=tuple(clock.turns_us),
                bot_notes=tuple(clock.said),
            )
            for bot, score, rank, clock in zip(
                spec.seating, result.scores, ranks, clocks, strict=True
            )
        ),
        moves=tuple(moves),
        detail=result.detail,
        wall_ms=round((time.perf_counter() - started) * 1000, 3),
    )


async def _notify(clock: SeatClock, step: int, notification: Awaitable[None]) -> BotFault | None:
    """Deliver a message that needs no answer; a fault is recorded and returned."""
    try:
        await notification
    except BotFault as fault:
        clock.fault(fault, step)
        return fault
    return None
