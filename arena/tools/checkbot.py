"""``arena check-bot``: a compliance check for bot authors.

It starts the bot, checks the handshake, plays a few games with the bot in every seat
against the random bot, and reports every problem in plain words with response-time
percentiles. Compliant means: it started, and no game recorded any verdict against it.
"""

from __future__ import annotations

import math
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.config import BotSpec, Limits, Policy, parse_command
from arena.errors import BotStartup
from arena.game.botproc import ENDED_CLEANLY, BotProcess, StderrLog
from arena.game.hosting import hosting
from arena.game.sandbox import resolve as resolve_sandbox
from arena.game.seats import ProcessSeat, hello_line
from arena.game.spec import GameSpec, block_seed
from arena.game.table import Played, Table
from arena.protocol import MAX_NOTE_CHARS, visible
from arena.record import NOTES_BUDGET
from arena.words import counted
from engines.base import Engine

# every fault ends the bot's game: the first one is the finding, and a hung bot is not
# waited for again and again
STRICT = Policy(timeout="forfeit")

EXPLAIN = {
    "timeout": "did not answer within the decision limit plus its bank",
    "illegal": "chose an action that is not in the legal list",
    "protocol": "wrote a line that is not a valid protocol message",
    "crash": "exited, or closed its input or output, during a game",
    "startup": "did not start, or did not answer 'hello' with 'ready' in time",
    "memory": "used more than memory_mb: the kernel killed a process of its control group",
}


@dataclass
class CheckReport:
    """What the check found."""

    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    think_ms: list[float] = field(default_factory=list)
    notes: int = 0  # notes the bot sent with its actions (and the record kept)
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
    engine: Engine,
    options: Mapping[str, Any],
    *,
    players: int,
    games_per_seat: int,
    seed: int,
    limits: Limits,
    say: Callable[[str], None],
    sandbox: str = "auto",
) -> CheckReport:
    """Run the check; ``say`` receives each report line as it is known.

    ``options`` are resolved for ``players`` seats (:func:`arena.config.check_game`)."""
    report = CheckReport()

    def note(line: str, problem: bool = False) -> None:
        line = visible(line)  # many lines quote the bot: its stderr, its ready, its faults
        report.lines.append(line)
        if problem:
            report.problems.append(line)
        say(line)

    hello = hello_line(engine, options, limits)
    candidate = BotSpec("candidate", parse_command(command), limits, sandbox=sandbox)
    opponent = BotSpec("random", parse_command("python -m bots.random"), limits, sandbox=sandbox)
    confined = resolve_sandbox(sandbox) == "bwrap"
    note(f"info  sandbox: {'bubblewrap' if confined else 'none (process group and limits)'}")
    with tempfile.TemporaryDirectory(prefix="arena-check-") as work:
        log = StderrLog(Path(work) / "candidate.log", limits.stderr_bytes)
        async with hosting() as host:
            mine = host.pool(candidate, hello, log)
            theirs = host.pool(opponent, hello)
            pools = {"candidate": mine} | {f"random-{i}": theirs for i in range(players)}
            table = Table(engine, options, limits, STRICT, pools)
            try:
                bot = await mine.acquire(None)  # for no game: the start-up alone
            except BotStartup as fault:
                note(f"FAIL  start-up: {EXPLAIN['startup']}: {fault}", problem=True)
            else:
                name, version = bot.ready.get("name", "?"), bot.ready.get("version", "?")
                note(
                    f"ok    start-up: 'ready' after {bot.startup_s * 1000:.0f} ms "
                    f"(name {name!r}, version {version!r})"
                )
                report.processes.append(bot)
                mine.release(bot, None)
                for seat in range(players):
                    for number in range(games_per_seat):
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
                        _judge(await table.play(spec), seat, report, note)
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
        if confined:
            _sandbox_denials(log, note)
        if report.problems:
            for line in log.last_lines():
                note(f"      {line}")
    if report.think_ms:
        values = report.think_ms
        note(
            f"time  {counted(len(values), 'decision')}: p50 {percentile(values, 0.5):.1f} ms, "
            f"p90 {percentile(values, 0.9):.1f} ms, p99 {percentile(values, 0.99):.1f} ms, "
            f"max {max(values):.1f} ms (limit {limits.move_ms} ms + bank {limits.bank_ms} ms)"
        )
    if report.notes:
        note(
            f"info  notes: {report.notes} kept from its actions (a record keeps "
            f"{MAX_NOTE_CHARS} characters of each, {NOTES_BUDGET} per seat and game)"
        )
    count = len(report.problems)
    note("bot is compliant" if report.compliant else f"bot is NOT compliant: {count} problem(s)")
    return report


def _judge(played: Played, seat: int, report: CheckReport, note: Callable[..., None]) -> None:
    """The candidate's game from ``seat``: its verdicts become problems."""
    record, mine = played.record, played.seats[seat]
    if isinstance(mine, ProcessSeat):
        report.think_ms += [t * 1000 for t in mine.think_times]
        if mine.bot not in report.processes:
            report.processes.append(mine.bot)
    outcome = record.seats[seat]
    report.notes += len(outcome.bot_notes)
    if not outcome.verdicts:
        note(
            f"ok    game {record.id}: seat {seat} of {record.players}, "
            f"{counted(outcome.decisions, 'decision')}, rank {outcome.rank}"
        )
        return
    for kind, count in outcome.verdicts.items():
        note(f"FAIL  game {record.id}: {kind} x{count}: {EXPLAIN.get(kind, kind)}", problem=True)
    for line in outcome.notes:
        note(f"      {line}")


# what a program says when the sandbox hides a file, refuses a write or has no network
# (C library messages, and node's: "ENOENT: no such file or directory", "Cannot find module")
DENIED = re.compile(
    r"permission denied|read-only file system|no space left on device|network is unreachable"
    r"|temporary failure in name resolution|operation not permitted|no such file or directory"
    r"|cannot find module|\b(ENOENT|EACCES|EROFS|ENETUNREACH|EAI_AGAIN)\b",
    re.IGNORECASE,
)


def _sandbox_denials(log: StderrLog, note: Callable[..., None], most: int = 5) -> None:
    """Report the bot's stderr lines that look like the sandbox said no (as far as it shows:
    the sandbox itself logs nothing; a bot that hides its errors hides these too)."""
    if log.path is None or not log.path.exists():
        return
    lines = log.path.read_text(encoding="utf-8", errors="replace").splitlines()
    denied = [line for line in lines if DENIED.search(line)]
    if not denied:
        return
    note(
        f"warn  sandbox: {len(denied)} line(s) of the bot's stderr look like the sandbox "
        "refused something (it shows only the system, the bot's folder and a private /tmp; "
        "no network; see docs/robustness.md):"
    )
    for line in denied[:most]:
        note(f"      | {line[:200]}")
