"""What runs on a Dask worker: a long-lived trio referee with warm bot pools.

:class:`RefereePlugin` is a Dask ``WorkerPlugin`` registered once per league run. Its
``setup`` starts a :class:`WorkerReferee` on every worker (and on any worker that joins
later): one thread running a trio loop that hosts the league's bots
(:func:`~arena.game.hosting.hosting`: a temporary folder, a watchdog, one pool per bot, as
:func:`~arena.league.pooled.league_table` sets them up for every executor; quick answers
polled for as in-process: :func:`~arena.game.botproc.answer_spin`).
It first starts and handshakes one process of every bot (the pre-flight check; the
processes stay in the pools, warm). Then :func:`play_blocks` (a Dask task of one or more
rotation blocks, sized by the client to the work) plays games on those pools, block after
block, so bot processes are reused across blocks and tasks. ``teardown`` (the plugin
removed at the end of the league, or the worker closing) cancels a block in flight and
closes every pool: ``bye``, then the process-group kill. A worker killed outright leaves
its bots to the watchdog, which kills their groups when the worker's end of its pipe closes.

Nothing here writes to the results folder: a block's records, transcripts and the bots'
stderr go back to the client as each block ends (:class:`PlayedBlock`, pickled: an event,
and the task's result).
"""

from __future__ import annotations

import asyncio
import contextlib
import pickle
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import trio
from distributed import WorkerPlugin, get_worker

from arena.config import BotSpec, LeagueConfig
from arena.errors import BotStartup, ClusterError
from arena.game.botproc import BotPool, StderrLog, answer_spin
from arena.game.hosting import hosting
from arena.game.spec import GameSpec
from arena.game.table import Played, Table, Transcript
from arena.league.pooled import league_table
from arena.protocol import visible
from arena.record import GameRecord


@dataclass
class PlayedBlock:
    """A finished block as a worker sends it back to the client."""

    worker: str
    records: list[GameRecord]
    transcripts: list[list[Transcript | None]]  # per game, per seat (with --transcripts)
    logs: dict[str, bytes]  # each bot's stderr read since the worker's last block
    readies: list[tuple[str, dict[str, Any]]]  # each bot process's ``ready``, per game
    disqualified: dict[str, str] = field(default_factory=dict)  # bot -> last start failure
    seconds: float = 0.0  # the block's wall time on the worker


class ShippedLog(StderrLog):
    """A bot's stderr kept in memory until the next block takes it to the client.

    It keeps at most ``cap + 1`` bytes between two blocks: when anything was dropped, the
    client's own capped log then overflows too and writes its "cap reached" line.
    """

    def __init__(self, cap: int) -> None:
        super().__init__(None, cap)
        self.pending = bytearray()

    def write(self, chunk: bytes | bytearray) -> None:
        room = max(0, self.cap + 1 - len(self.pending))
        self.pending += chunk[:room]

    def take(self) -> bytes:
        taken = bytes(self.pending)
        self.pending.clear()
        return taken


class WorkerReferee:
    """A trio loop in its own thread, hosting the league's bot pools on this worker."""

    def __init__(self, config: LeagueConfig, jobs: int, transcripts: bool, worker: str) -> None:
        self.config = config
        self.jobs = max(1, jobs)
        self.transcripts = transcripts
        self.worker = worker
        self.failures: dict[str, str] = {}  # bot -> why it could not start (pre-flight)
        self.logs = {bot.name: ShippedLog(bot.limits.stderr_bytes) for bot in config.bots}
        self._table: Table  # set when the loop starts (league_table in _main)
        self._blocks: set[trio.CancelScope] = set()
        self._lock = threading.Lock()  # orders close() against start() and the loop's token
        self._closed = False
        self._token: trio.lowlevel.TrioToken | None = None  # set once the loop runs
        self._running = trio.CancelScope()  # the pre-flight and the wait for close()
        self._ready = threading.Event()
        self._crash: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="arena-referee", daemon=True)

    def start(self) -> None:
        """Start the loop and wait for the pre-flight handshakes (blocks: call in a thread).

        Closed first (the plugin removed while its ``setup`` waited), it starts nothing;
        closed during the pre-flight, it returns once the bots are gone.
        """
        with self._lock:
            if self._closed:
                return
            self._thread.start()
        self._ready.wait()
        if self._crash is not None:
            raise ClusterError(f"worker {self.worker}: the referee did not start: {self._crash}")

    def close(self) -> None:
        """Cancel the pre-flight or a block in flight, close every pool and wait for the bots
        to be gone. Safe at any moment, from any thread but the loop's: before the loop
        started, during the pre-flight, after it, after the loop ended."""
        with self._lock:
            self._closed = True
            token = self._token
            started = self._thread.ident is not None
        if token is not None:
            with contextlib.suppress(trio.RunFinishedError):  # it ended on its own
                trio.from_thread.run_sync(self._running.cancel, trio_token=token)
        if started:
            self._thread.join()

    def play_blocks(
        self, blocks: Sequence[Sequence[GameSpec]], ahead: Callable[[str, bytes], None]
    ) -> list[tuple[str, bytes]]:
        """Play ``blocks`` one after another (from a Dask task's thread) in one call into the
        loop (a call per block made a trivial bot's game 5-8 % slower). Each block is
        pickled once as it ends (a :class:`PlayedBlock`, with its first game's id);
        ``ahead`` hears of each block but the last at once, on the loop's thread; all of
        them are returned."""
        if self.failures:
            bot, reason = next(iter(self.failures.items()))
            raise ClusterError(cannot_start(self.worker, bot, reason))
        assert self._token is not None, "start() first"
        return trio.from_thread.run(
            self._play_blocks, [list(specs) for specs in blocks], ahead, trio_token=self._token
        )

    def take_logs(self) -> dict[str, bytes]:
        """What each bot wrote to stderr on this worker since the last take (bots that
        wrote nothing are left out)."""
        return {name: data for name, log in self.logs.items() if (data := log.take())}

    def _run(self) -> None:
        try:
            trio.run(self._main)
        except BaseException as exc:  # reported by start(); the thread must not die silently
            self._crash = exc
        finally:
            self._ready.set()

    async def _main(self) -> None:
        if not self._publish_token(trio.lowlevel.current_trio_token()):
            return  # closed between start() and now: no bot is started
        # polls for quick answers as the in-process referee does (one game at a time, a
        # core to spare): parking in epoll and being woken made a trivial bot's game take
        # 45 % longer here than in-process
        async with hosting(spin_s=answer_spin(self.jobs)) as host:
            self._table = league_table(self.config, host, self._log, transcripts=self.transcripts)
            try:
                with self._running:  # cancelled by close(), even before it is entered
                    await self._preflight()
                    self._ready.set()
                    await trio.sleep_forever()
            finally:
                for scope in self._blocks:
                    scope.cancel()

    def _publish_token(self, token: trio.lowlevel.TrioToken) -> bool:
        """Let close() reach the loop from now on; False when close() came first."""
        with self._lock:
            if self._closed:
                return False
            self._token = token
            return True

    def _log(self, bot: BotSpec) -> StderrLog:
        return self.logs[bot.name]

    async def _preflight(self) -> None:
        """Start and handshake one process of every bot, at once; keep them warm."""

        async def check(pool: BotPool) -> None:
            try:
                pool.release(await pool.acquire(None), None)  # it played no game
            except BotStartup as fault:
                self.failures[pool.spec.name] = str(fault)

        async with trio.open_nursery() as nursery:
            for pool in self._table.pools.values():
                nursery.start_soon(check, pool)

    async def _play_blocks(
        self, blocks: list[list[GameSpec]], ahead: Callable[[str, bytes], None]
    ) -> list[tuple[str, bytes]]:
        played: list[tuple[str, bytes]] = []
        for index, specs in enumerate(blocks):
            data = pickle.dumps(await self._play_block(specs), protocol=pickle.HIGHEST_PROTOCOL)
            if index < len(blocks) - 1:
                ahead(specs[0].id, data)
            played.append((specs[0].id, data))
        return played

    async def _play_block(self, specs: list[GameSpec]) -> PlayedBlock:
        started = time.perf_counter()
        played: list[Played | None] = [None] * len(specs)
        slots = trio.CapacityLimiter(self.jobs)
        self._table.warm(specs, self.jobs)  # a block's seats at one seed: a process each

        async def play(index: int, spec: GameSpec) -> None:
            async with slots:
                played[index] = await self._table.play(spec)

        with trio.CancelScope() as scope:
            self._blocks.add(scope)
            try:
                async with trio.open_nursery() as games:
                    for index, spec in enumerate(specs):
                        games.start_soon(play, index, spec)
            finally:
                self._blocks.discard(scope)
        if scope.cancelled_caught:
            raise ClusterError(f"worker {self.worker}: the league ended during a block")
        games_done = [game for game in played if game is not None]
        return PlayedBlock(
            worker=self.worker,
            records=[game.record for game in games_done],
            transcripts=[game.transcripts() for game in games_done] if self.transcripts else [],
            logs=self.take_logs(),
            readies=[answer for game in games_done for answer in game.readies()],
            disqualified={
                name: pool.last_failure
                for name, pool in self._table.pools.items()
                if pool.disqualified
            },
            seconds=time.perf_counter() - started,
        )


def cannot_start(worker: str, bot: str, reason: str) -> str:
    """The one line for a bot that cannot start on a worker."""
    return f"worker {worker} cannot start bot {bot!r}: {visible(reason)}"


class RefereePlugin(WorkerPlugin):
    """Gives every worker of the cluster a :class:`WorkerReferee` for one league run."""

    def __init__(self, config: LeagueConfig, jobs: int, transcripts: bool) -> None:
        self.config = config
        self.jobs = jobs
        self.transcripts = transcripts
        self.referee: WorkerReferee | None = None

    async def setup(self, worker: Any) -> None:
        # Dask's sampling profiler takes the GIL every 10 ms to walk every thread's stack.
        # The referee thread wakes on every line a bot writes and then waits for the GIL:
        # with trivial bots, blocks took 6x as long (benchmarks/scale.py). It is paused
        # while a league runs on this worker.
        profiler = worker.periodic_callbacks.get("profile")
        if profiler is not None:
            profiler.stop()
        self.referee = WorkerReferee(self.config, self.jobs, self.transcripts, worker.address)
        # the handshakes take a while: off the worker's event loop, which keeps heartbeating
        await asyncio.to_thread(self.referee.start)

    async def teardown(self, worker: Any) -> None:
        if self.referee is not None:
            await asyncio.to_thread(self.referee.close)
        # (removed from worker.plugins before this runs: any other league still playing?)
        profiler = worker.periodic_callbacks.get("profile")
        others = any(isinstance(plugin, RefereePlugin) for plugin in worker.plugins.values())
        if profiler is not None and not others:
            profiler.start()


def _referee(plugin: str, worker: Any) -> WorkerReferee:
    found = worker.plugins.get(plugin)
    if not isinstance(found, RefereePlugin) or found.referee is None:
        raise ClusterError(f"worker {worker.address}: the league's referee is not running")
    return found.referee


def play_blocks(plugin: str, blocks: list[list[GameSpec]]) -> list[tuple[str, bytes]]:
    """The Dask task: play ``blocks`` one after another on this worker's warm pools.

    Each finished block is pickled once (a :class:`PlayedBlock`) and, but for the last,
    sent to the client at once as an event of topic ``plugin`` (Dask's ``log_event``,
    through the scheduler): the client stores each block as it comes back whole, and a
    worker lost mid-task loses only the blocks it had not finished. The task's result holds
    every block again, so that no block depends on an event arriving. Each block goes with
    its first game's id: the client stores a block once, whichever copy comes first, and
    does not even unpickle the other.
    """
    worker = get_worker()
    referee = _referee(plugin, worker)
    # (log_event is safe from the referee's thread: it hands the message to the worker's loop)
    return referee.play_blocks(blocks, lambda block, data: worker.log_event(plugin, [block, data]))


def preflight_failures(plugin: str, dask_worker: Any) -> dict[str, str]:
    """For ``Client.run``: the bots that could not start on this worker, with the reason."""
    return dict(_referee(plugin, dask_worker).failures)


def preflight_logs(plugin: str, dask_worker: Any) -> dict[str, bytes]:
    """For ``Client.run``: what the bots wrote to stderr on this worker so far (taken)."""
    return _referee(plugin, dask_worker).take_logs()


async def closing_logs(plugin: str, dask_worker: Any) -> dict[str, bytes]:
    """For ``Client.run`` at the end of a league: close this worker's referee (each bot
    told ``bye`` and ended, its stderr read to the end) and take what the bots wrote to
    stderr since the last block, which no block took along."""
    referee = _referee(plugin, dask_worker)
    await asyncio.to_thread(referee.close)  # off the worker's event loop: it heartbeats
    return referee.take_logs()
