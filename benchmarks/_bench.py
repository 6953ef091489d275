"""Shared pieces of the benchmark scripts (not a benchmark itself).

- :func:`load_engines`: the registered engines, skipping (with a message) any that fails to
  import or to start a game, so a half-finished engine never stops a run.
- :func:`act_message`: a real ``act`` line of an engine, of the mean size the arena sends in
  an index-0 play-out (what the trivial bot makes the referee send).
- :func:`ping_pong`: the physical limit, a raw trio parent exchanging that line with the
  trivial bot; the baseline every referee ratio is taken against, measured in the same run.
- :func:`trivial_league` / :func:`run_timed_league`: the real stack (config parsing, bot
  pools, referee, results store) with the trivial bot in every seat.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio
from tabulate import tabulate

import engines
from arena import config as arena_config
from arena import protocol
from arena.league.runner import run_league
from arena.record import GameRecord
from engines.base import Engine
from engines.testing import new_game

HERE = Path(__file__).resolve().parent
TRIVIAL_BOT = HERE / "trivial_bot.py"
TRIVIAL_CMD = f"python {TRIVIAL_BOT}"


# -- engines ---------------------------------------------------------------------------------


def load_engines(wanted: Sequence[str] | None = None) -> dict[str, Engine]:
    """The engines to measure; one that fails to import or to start a game is skipped."""
    found: dict[str, Engine] = {}
    for name in wanted or engines.names():
        try:
            engine = engines.get(name)
            new_game(engine, max(2, engine.min_players), 1)
        except Exception as exc:
            print(f"skipping engine {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        found[name] = engine
    if not found:
        raise SystemExit("no engine could be loaded")
    return found


def player_counts(engine: Engine) -> list[int]:
    return list(range(engine.min_players, engine.max_players + 1))


@dataclass
class IndexZeroGame:
    """One index-0 play-out of an engine: the ``act`` lines the referee would send."""

    decisions: int
    sizes: list[int]
    sample: bytes  # the act line whose size is closest to the mean

    @property
    def mean_size(self) -> int:
        return round(sum(self.sizes) / len(self.sizes))


def index_zero_game(engine: Engine, players: int, seed: int = 1) -> IndexZeroGame:
    """Play the engine as the trivial bot does (always index 0), encoding each act line."""
    state = new_game(engine, players, seed)
    lines: list[bytes] = []
    while (seat := state.to_move()) is not None:
        legal = state.legal_actions()
        message = protocol.act("t0-b0-r0", len(lines), state.observation(seat), legal, 1000, 10000)
        lines.append(protocol.encode(message))
        state.apply(legal[0])
    sizes = [len(line) for line in lines]
    mean = sum(sizes) / len(sizes)
    sample = min(lines, key=lambda line: abs(len(line) - mean))
    return IndexZeroGame(len(lines), sizes, sample)


def act_message(engine: Engine, players: int) -> bytes:
    """A real act line of mean size (step field intact, so the bot echoes it)."""
    return index_zero_game(engine, players).sample


# -- the physical limit: a raw trio ping-pong with the trivial bot -----------------------------


async def _read_line(stream: trio.abc.ReceiveStream, buffer: bytearray) -> bytes:
    while (end := buffer.find(b"\n")) < 0:
        chunk = await stream.receive_some(1 << 16)
        if not chunk:
            raise RuntimeError("the trivial bot closed its output")
        buffer += chunk
    line = bytes(buffer[:end])
    del buffer[: end + 1]
    return line


async def _one_pair(message: bytes, seconds: float, counts: list[int], index: int) -> None:
    process = await trio.lowlevel.open_process(
        [sys.executable, str(TRIVIAL_BOT)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdin is not None and process.stdout is not None
    send, stream = process.stdin.send_all, process.stdout
    buffer = bytearray()
    try:
        await send(protocol.encode(protocol.hello("bench", "1", {}, {})))
        await _read_line(stream, buffer)
        for _ in range(50):  # warm up the pipes and the bot's code paths
            await send(message)
            await _read_line(stream, buffer)
        done = 0
        deadline = time.perf_counter() + seconds
        while True:
            for _ in range(64):
                await send(message)
                await _read_line(stream, buffer)
            done += 64
            if time.perf_counter() >= deadline:
                break
        counts[index] = done
    finally:
        with trio.CancelScope(shield=True):
            await process.stdin.aclose()
            await process.wait()


def ping_pong(message: bytes, seconds: float, pairs: int = 1) -> float:
    """Round trips per second of ``pairs`` parallel parent<->trivial-bot exchanges of ``message``.

    Each pair times its own loop for ``seconds``; the rate is the total over ``seconds`` (the
    start-up of the processes is not counted).
    """

    async def main() -> float:
        counts = [0] * pairs
        async with trio.open_nursery() as nursery:
            for index in range(pairs):
                nursery.start_soon(_one_pair, message, seconds, counts, index)
        return sum(counts) / seconds

    return trio.run(main)


def transport_ping_pong(
    config: arena_config.LeagueConfig, message: bytes, seconds: float, pairs: int = 1
) -> float:
    """Like :func:`ping_pong`, through the arena's own transport (``BotProcess.ask``).

    The bot is started by ``arena.game.botproc.host_bot`` exactly as a league starts it (limits,
    new session, stderr drain). Raises whatever a changed ``botproc`` API raises; callers
    report that instead of stopping.
    """
    from arena.game import botproc

    hello = protocol.encode(protocol.hello(config.engine, "1", {}, {}))

    async def one(workdir: Path, counts: list[int], index: int) -> None:
        async with trio.open_nursery() as nursery:
            bot = await nursery.start(
                botproc.host_bot,
                config.bots[0],
                hello,
                workdir,
                botproc.StderrLog(None, 0),
                None,
                None,
                botproc.answer_spin(pairs),
            )
            if not isinstance(bot, botproc.BotProcess):
                raise RuntimeError(f"the trivial bot did not start: {bot}")
            for _ in range(50):
                await bot.ask(message, trio.current_time() + 10)
            done = 0
            deadline = time.perf_counter() + seconds
            while time.perf_counter() < deadline:
                for _ in range(64):
                    await bot.ask(message, trio.current_time() + 10)
                done += 64
            counts[index] = done
            bot.close()

    async def main() -> float:
        counts = [0] * pairs
        with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
            async with trio.open_nursery() as nursery:
                for index in range(pairs):
                    nursery.start_soon(one, Path(tmp) / f"bot-{index}", counts, index)
        return sum(counts) / seconds

    return trio.run(main)


# -- the real stack: a league of trivial bots ---------------------------------------------------


def trivial_league(
    engine: str,
    players: int,
    rounds: int,
    *,
    name: str = "bench",
    bots: int | None = None,
    seed: int = 1,
    limits: dict[str, int] | None = None,
) -> arena_config.LeagueConfig:
    """A round-robin league config with ``bots`` trivial bots (default: one table)."""
    count = bots if bots is not None else players
    data: dict[str, Any] = {
        "name": name,
        "engine": engine,
        "players": [players],
        "rounds": rounds,
        "seed": seed,
        "bots": [{"name": f"trivial-{i}", "cmd": TRIVIAL_CMD} for i in range(count)],
    }
    if limits:
        data["limits"] = limits
    return arena_config.parse(data, source=f"<benchmark {name}>")


@dataclass
class LeagueRun:
    """What one timed league run produced."""

    games: int
    decisions: int
    wall_s: float  # whole run_league call: spawn, play, store, shutdown
    steady_s: float  # from the first finished game to the last one
    steady_decisions: int  # decisions of the games finished after the first one
    samples: dict[int, int] = field(default_factory=dict)  # games done -> referee RSS (KiB)
    records: list[GameRecord] = field(default_factory=list)

    @property
    def decisions_per_s(self) -> float:
        if self.steady_s > 0 and self.steady_decisions > 0:
            return self.steady_decisions / self.steady_s
        return self.decisions / self.wall_s

    @property
    def games_per_s(self) -> float:
        if self.steady_s > 0 and self.games > 1:
            return (self.games - 1) / self.steady_s
        return self.games / self.wall_s


def run_timed_league(
    config: arena_config.LeagueConfig,
    jobs: int,
    *,
    sample_at: Iterable[int] = (),
    keep_records: bool = False,
    folder: Path | None = None,
) -> LeagueRun:
    """Run ``config`` with ``run_league`` in a temporary folder; time it, sample the RSS."""
    marks = set(sample_at)
    stamps = [0.0, 0.0]  # first and last finished game (no per-game list: RSS is measured)
    samples: dict[int, int] = {}

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if not stamps[0]:
            stamps[0] = now
        stamps[1] = now
        if done in marks:
            samples[done] = rss_kib()

    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        out = folder if folder is not None else Path(tmp) / config.name
        started = time.perf_counter()
        trio.run(lambda: run_league(config, out, jobs=jobs, fresh=True, progress=progress))
        wall = time.perf_counter() - started
        games = decisions = first = 0
        records: list[GameRecord] = []
        with (out / "games.jsonl").open("rb") as handle:
            for line in handle:  # streamed: 20,000 records held at once would cost ~100 MiB
                record = GameRecord.from_json(line)
                count = sum(s.decisions for s in record.seats)
                first = first if games else count
                games += 1
                decisions += count
                if keep_records:
                    records.append(record)
    steady_s = stamps[1] - stamps[0]
    return LeagueRun(
        games=games,
        decisions=decisions,
        wall_s=wall,
        steady_s=steady_s,
        steady_decisions=decisions - first,
        samples=samples,
        records=records,
    )


def rounds_for(decisions: int, per_game: int, players: int, minimum_games: int) -> int:
    """Blocks needed for about ``decisions`` decisions (a block is ``players`` games)."""
    games = max(minimum_games, math.ceil(decisions / max(1, per_game)))
    return max(1, math.ceil(games / players))


# -- small utilities ---------------------------------------------------------------------------


def rss_kib() -> int:
    """The resident set size of this process now (KiB), from /proc; else the peak RSS."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def machine_line() -> str:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (math.nan,) * 3
    return (
        f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, trio {trio.__version__}"
    )


def print_table(rows: list[dict[str, Any]], title: str) -> None:
    print(f"\n## {title}\n")
    print(tabulate(rows, headers="keys", tablefmt="github", floatfmt=".2f"))
    sys.stdout.flush()


def timed(function: Callable[[], Any]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started
