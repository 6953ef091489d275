"""``arena check-bot``: a compliance check for bot authors.

It starts the bot, checks the handshake, plays a few games with the bot in every seat
against the random bot, and reports every problem in plain words with response-time
percentiles. Compliant means: it started, and no game recorded any verdict against it.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

import engines
from arena.config import BotSpec, Limits, Policy, parse_command
from arena.errors import BotStartup
from arena.game.botproc import ENDED_CLEANLY, BotPool, BotProcess, StderrLog
from arena.game.referee import play_game
from arena.game.seats import ProcessSeat, give_back, hello_line, take_seats
from arena.game.spec import GameSpec
from arena.game.watchdog import Watchdog
from arena.league.schedule import block_seed

# every fault ends the bot's game: the first one is the finding, and a hung bot is not
# waited for again and again
STRICT = Policy(timeout="forfeit")

EXPLAIN = {
    "timeout": "did not answer within the decision limit plus its bank",
    "illegal": "chose an action that is not in the legal list",
    "protocol": "wrote a line that is not a valid protocol message",
    "crash": "exited, or closed its input or output, during a game",
    "startup": "did not start, or did not answer 'hello' with 'ready' in time",
}


@dataclass
class CheckReport:
    """What the check found."""

    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    think_ms: list[float] = field(default_factory=list)
    processes: list[BotProcess] = field(default_factory=list)  # every process of the bot

    @property
    def compliant(self) -> bool:
        return not self.problems


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of ``values`` (which must not be empty)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


async def check_bot(
    command: str,
    engine_name: str,
    *,
    players: int,
    games_per_seat: int,
    seed: int,
    limits: Limits,
    say: Callable[[str], None],
) -> CheckReport:
    """Run the check; ``say`` receives each report line as it is known."""
    report = CheckReport()

    def note(line: str, problem: bool = False) -> None:
        report.lines.append(line)
        if problem:
            report.problems.append(line)
        say(line)

    engine = engines.get(engine_name)
    options = engine.check(players, {})
    hello = hello_line(engine, options, limits)
    candidate = BotSpec("candidate", parse_command(command), limits)
    opponent = BotSpec("random", parse_command("python -m bots.random"), limits)
    with tempfile.TemporaryDirectory(prefix="arena-check-") as work, Watchdog() as guard:
        workroot = Path(work)
        log = StderrLog(workroot / "candidate.log", limits.stderr_bytes)
        async with trio.open_nursery() as hosts:
            mine = BotPool(candidate, hello, workroot, log, hosts, guard)
            theirs = BotPool(opponent, hello, workroot, StderrLog(None, 0), hosts, guard)
            try:
                bot = await mine.acquire()
            except BotStartup as fault:
                note(f"FAIL  start-up: {EXPLAIN['startup']}: {fault}", problem=True)
            else:
                name, version = bot.ready.get("name", "?"), bot.ready.get("version", "?")
                note(
                    f"ok    start-up: 'ready' after {bot.startup_s * 1000:.0f} ms "
                    f"(name {name!r}, version {version!r})"
                )
                report.processes.append(bot)
                mine.release(bot)
                games = [
                    (seat, number) for seat in range(players) for number in range(games_per_seat)
                ]
                try:
                    for seat, number in games:
                        spec = GameSpec(
                            id=f"check-s{seat}-g{number}",
                            table=0,
                            block=number,
                            rotation=seat,
                            seed=block_seed(seed, players, number),
                            seating=tuple(
                                "candidate" if i == seat else f"random-{i}" for i in range(players)
                            ),
                        )
                        await _one_game(
                            engine, options, spec, seat, limits, (mine, theirs), report, note
                        )
                finally:
                    mine.close_all()
                    theirs.close_all()
        # the processes have ended now: how did they go?
        for ending in sorted({p.ending for p in report.processes} - {ENDED_CLEANLY, ""}):
            if "fault" not in ending:
                note(f"FAIL  exit: {ending}", problem=True)
        if log.dropped:
            note(
                f"FAIL  stderr: wrote {log.written + log.dropped} bytes to stderr; only the "
                f"first {log.cap} are kept in a league's log",
                problem=True,
            )
        if report.problems:
            _stderr_tail(log, note)
    if report.think_ms:
        values = report.think_ms
        note(
            f"time  {len(values)} decisions: p50 {percentile(values, 0.5):.1f} ms, "
            f"p90 {percentile(values, 0.9):.1f} ms, p99 {percentile(values, 0.99):.1f} ms, "
            f"max {max(values):.1f} ms (limit {limits.move_ms} ms + bank {limits.bank_ms} ms)"
        )
    count = len(report.problems)
    note("bot is compliant" if report.compliant else f"bot is NOT compliant: {count} problem(s)")
    return report


async def _one_game(
    engine: engines.Engine,
    options: dict[str, object],
    spec: GameSpec,
    seat: int,
    limits: Limits,
    pools: tuple[BotPool, BotPool],
    report: CheckReport,
    note: Callable[..., None],
) -> None:
    """One game with the candidate in ``seat``; its verdicts become problems."""
    mine, theirs = pools
    players = spec.players
    seat_pools = [mine if position == seat else theirs for position in range(players)]
    seats = await take_seats(seat_pools)
    finished = False
    try:
        record = await play_game(engine, options, spec, seats, limits, STRICT)
        finished = True
    finally:
        give_back(seats, seat_pools, finished=finished)
    mine_seat = seats[seat]
    if isinstance(mine_seat, ProcessSeat):
        report.think_ms += [t * 1000 for t in mine_seat.think_times]
        if mine_seat.bot not in report.processes:
            report.processes.append(mine_seat.bot)
    played = record.seats[seat]
    if not played.verdicts:
        note(
            f"ok    game {spec.id}: seat {seat} of {players}, {played.decisions} "
            f"decisions, rank {played.rank}"
        )
        return
    for kind, count in played.verdicts.items():
        note(f"FAIL  game {spec.id}: {kind} x{count}: {EXPLAIN.get(kind, kind)}", problem=True)
    for line in played.notes:
        note(f"      {line}")


def _stderr_tail(log: StderrLog, note: Callable[..., None], lines: int = 10) -> None:
    if log.path is None or not log.path.exists():
        return
    tail = log.path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
    if tail:
        note("      last lines the bot wrote to stderr:")
        for line in tail:
            note(f"      | {line[:200]}")
