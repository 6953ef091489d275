"""Play a league on a Dask cluster: a local one (``--workers N``) or an existing one.

The client (this process) is the only writer of the results folder. It opens the folder with
the driver every player shares (:class:`~arena.league.driver.LeagueDriver`: resume, lock,
repair, the feed, the count), registers a
:class:`~arena.league.worker.RefereePlugin` that gives every worker warm bot pools, checks
that every bot started on every worker (pre-flight), then submits the missing rotation
blocks in schedule order as Dask tasks of about a second of work each
(:mod:`arena.league.tasksize`), two per worker in flight. Each block comes back whole as
soon as it ends (an event; the task's result repeats it), and its games are appended and
fsync'd before they count. A task lost with its worker is played again by Dask elsewhere,
and the client stores each block once, so nothing is lost or stored twice. Ctrl-C (or
SIGTERM) cancels the futures and removes the plugin, which closes every pool on every
worker (the signal policy: :mod:`arena.league.stopping`). The games are the
ones ``--jobs 1`` plays: same ids, seeds, seats.
"""

from __future__ import annotations

import contextlib
import logging
import pickle
import queue
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.config import LeagueConfig
from arena.errors import ClusterError
from arena.game.botproc import StderrLog
from arena.game.spec import GameSpec
from arena.league.driver import WAIT_S, FeedMaker, LeagueDriver, LeagueOutcome, ProgressHook
from arena.league.layout import Warn
from arena.league.stopping import (
    Stopped,
    ctrl_c_kept_from_children,
    stops_deferred,
    stops_ignored,
    stops_raised,
)
from arena.league.tasksize import TASK_S, TaskSizer, split
from arena.record import GameRecord
from arena.words import counted

if TYPE_CHECKING:
    from distributed import Client, Future

    from arena.league.worker import PlayedBlock

INSTALL_HINT = "the Dask extra is not installed: pip install -e '.[cluster]' in the arena's clone"
CONNECT_TIMEOUT_S = 10
CLOSE_TIMEOUT_S = 30  # for the workers to close their pools (plus the bots' bye_ms)
TASKS_PER_WORKER = 2  # in flight per worker: one playing, one waiting for it
POLL_S = 0.2  # the client's wait for a block, between looks at the signals
WORKERS_EVERY_S = 2.0  # how often the client counts the cluster's workers (joined, lost)


def require_dask() -> None:
    """Raise the one-line :class:`ClusterError` saying what to install, when Dask is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(INSTALL_HINT) from None


def run_cluster_league(
    config: LeagueConfig,
    folder: Path,
    *,
    jobs: int,
    workers: int | None = None,
    scheduler: str | None = None,
    fresh: bool = False,
    progress: ProgressHook | None = None,
    say: Warn | None = None,
    transcripts: bool = False,
    replay: frozenset[str] = frozenset(),
    feed: FeedMaker | None = None,
    on_stored: Callable[[GameRecord], None] | None = None,
    task_s: float = TASK_S,
    task_blocks: int | None = None,
    on_open: Callable[[list[GameRecord]], None] | None = None,
) -> LeagueOutcome:
    """Play every missing game of ``config`` into ``folder`` on a Dask cluster.

    ``workers``: start a local cluster of that many one-thread worker processes; else
    ``scheduler``: the address of a running scheduler. ``jobs`` is games at once per worker;
    ``task_s``: the wall time each Dask task aims at (its blocks learnt from the blocks
    finished: :mod:`arena.league.tasksize`); ``task_blocks``: that many blocks per task
    instead. The other arguments are :func:`~arena.league.runner.run_league`'s. Called from
    the main thread, it handles SIGINT and SIGTERM; from another (``arena serve``), the
    stops are the caller's: its ``feed`` ends the run.
    """
    require_dask()
    driver = LeagueDriver(
        config,
        folder,
        fresh=fresh,
        say=say,
        replay=replay,
        transcripts=transcripts,
        progress=progress,
        feed=feed,
        on_stored=on_stored,
        on_open=on_open,
    )
    run = _DaskPlayer(driver, task_s=task_s, task_blocks=task_blocks)
    try:
        with stops_raised():
            try:
                with connect(workers, scheduler) as client:
                    run.play(client, jobs)
            except (KeyboardInterrupt, Stopped):  # while connecting or shutting down
                run.outcome.interrupted = True
    finally:
        driver.close()
    return run.outcome


@contextlib.contextmanager
def connect(workers: int | None, scheduler: str | None) -> Iterator[Client]:
    """A client of a new local cluster (``workers``) or of the scheduler at ``scheduler``."""
    from distributed import Client, LocalCluster

    if workers is not None:
        with contextlib.ExitStack() as started:
            # a Ctrl-C meanwhile stops us once the cluster is entered
            with ctrl_c_kept_from_children():
                cluster = started.enter_context(
                    LocalCluster(
                        n_workers=workers,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=":0",  # any free port: never a clash with 8787
                        silence_logs=logging.ERROR,
                    )
                )
            yield started.enter_context(Client(cluster))
        return
    assert scheduler is not None, "workers or scheduler"
    try:
        client = _bounded_client(scheduler)
    except Exception as exc:  # whatever answered there, it did not let a client connect
        raise ClusterError(
            f"cannot reach the Dask scheduler at {scheduler}: {_connect_failure(exc)}"
        ) from None
    with client:
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
        except TimeoutError:
            raise ClusterError(
                f"the Dask scheduler at {scheduler} has no worker "
                f"(none joined within {CONNECT_TIMEOUT_S} s)"
            ) from None
        yield client


def _bounded_client(scheduler: str) -> Client:
    """A client of the scheduler at ``scheduler``, connected within about CONNECT_TIMEOUT_S.

    Dask's ``timeout`` bounds the connection but not every read of the handshake: a server
    that is not a Dask scheduler (an HTTP one) could keep ``Client()`` waiting for good. Here
    the whole start is bounded, and a client that failed to start is closed (its event-loop
    thread and socket with it).
    """
    from distributed import Client
    from distributed.client import _set_global_client
    from distributed.utils import sync

    class BoundedClient(Client):
        def start(self, **kwargs: Any) -> None:
            self._loop_runner.start()
            if self._set_as_default:  # as Client.start does: as_completed() finds it
                _set_global_client(self)
            try:
                sync(
                    self._loop_runner.loop,
                    self._start,
                    callback_timeout=_start_bound_s(),
                    **kwargs,
                )
            except BaseException:
                self.close()
                self._loop_runner.stop()  # close() leaves it running if _start gave up
                raise

    client: Client = BoundedClient(scheduler, timeout=CONNECT_TIMEOUT_S)
    return client


def _start_bound_s() -> int:
    """The bound on a client's start: Dask's own timeout first, with its clearer message."""
    return CONNECT_TIMEOUT_S + 2


def _connect_failure(exc: Exception) -> str:
    """Why connecting failed, in a few words."""
    if isinstance(exc, TimeoutError):
        return f"no Dask handshake within {_start_bound_s()} s (not a Dask scheduler's port?)"
    if isinstance(exc, OSError | ValueError):
        return str(exc)
    return f"it does not speak Dask's protocol ({type(exc).__name__})"


_SHOWN_WORKERS = 4
"""Workers named in :func:`cluster_line`; the rest are counted."""


def cluster_line(client: Client) -> str:
    """One line naming the cluster a league plays on: its scheduler, workers and dashboard."""
    info = client.scheduler_info()
    workers = sorted(info["workers"])
    more = len(workers) - _SHOWN_WORKERS
    shown = ", ".join(workers[:_SHOWN_WORKERS]) + (f" and {more} more" if more > 0 else "")
    dashboard = f"dashboard {client.dashboard_link}" if client.dashboard_link else "no dashboard"
    return (
        f"playing on the Dask cluster at {info['address']}: "
        f"{counted(len(workers), 'worker')} ({shown}); {dashboard}"
    )


class _DaskPlayer:
    """Plays a driver's blocks as Dask tasks: the client's side of one league run."""

    def __init__(
        self, driver: LeagueDriver, *, task_s: float = TASK_S, task_blocks: int | None = None
    ) -> None:
        self.driver = driver
        self.config = driver.config
        self.store = driver.store
        self.outcome = driver.outcome
        self.say = driver.say
        self.transcripts = driver.transcripts
        self.logs = {
            bot.name: StderrLog(self.store.log_path(bot.name), bot.limits.stderr_bytes)
            for bot in self.config.bots
        }
        self.blocks = driver.blocks()
        self.fed_all = False  # the feed's blocks are all handed out
        self.plugin = f"arena-referee-{uuid.uuid4().hex[:12]}"
        self.sizer = TaskSizer(task_s=task_s, blocks=task_blocks)
        self.inbox: queue.SimpleQueue[tuple[str, bytes] | Future] = queue.SimpleQueue()
        self.tasks: dict[str, tuple[Future, int]] = {}  # in flight, by key: (future, blocks)
        self.stored_blocks: set[str] = set()  # each block stored by this run: its first id
        self._worker_count = 1
        self._workers_asked = -WORKERS_EVERY_S  # never yet

    def play(self, client: Client, jobs: int) -> None:
        from distributed import KilledWorker

        from arena.league.worker import RefereePlugin

        try:
            plugin = RefereePlugin(self.config, jobs, self.transcripts)
            client.register_plugin(plugin, name=self.plugin)
            self._check_preflight(client)
            if self.say is not None:
                self.say(cluster_line(client))
            client.subscribe_topic(self.plugin, self._heard)
            self._fill(client)
            while self.tasks:
                try:
                    item = self.inbox.get(timeout=POLL_S)  # (a signal is handled meanwhile)
                except queue.Empty:
                    continue
                with stops_deferred():  # a stop counts every game it leaves in the file
                    if isinstance(item, tuple):
                        self._store_data(*item)
                    else:
                        self._task_done(item)
                self._fill(client)
        except (KeyboardInterrupt, Stopped):
            self.outcome.interrupted = True
        except ImportError as exc:  # raised where the scheduler or a worker unpickles
            raise ClusterError(
                f"the cluster cannot load the arena ({exc}): install the arena with its "
                "cluster extra, the client's version, on the scheduler and every worker "
                "(docs/scaling.md)"
            ) from None
        except KilledWorker as exc:
            raise ClusterError(
                f"a task was lost with every worker that tried it ({exc}); see the workers' logs"
            ) from None
        finally:
            with stops_ignored():
                with contextlib.suppress(Exception):  # (the scheduler may be gone)
                    client.unsubscribe_topic(self.plugin)
                if self.tasks:
                    client.cancel([future for future, _ in self.tasks.values()])
                self._close_workers(client)
        self.driver.finish({})  # (each block brings the bots disqualified on its worker)

    def _heard(self, event: tuple[float, tuple[str, bytes]]) -> None:
        """A block a worker sent ahead of its task's end (on the client's event loop)."""
        block, data = event[1]
        self.inbox.put((block, data))

    def _fill(self, client: Client) -> None:
        """Submit tasks until every worker has :data:`TASKS_PER_WORKER` (one playing, one
        waiting), each of the sizer's number of blocks, or the feed has none ready (it is
        asked again once something comes back, or after
        :data:`~arena.league.driver.WAIT_S` when nothing is in flight). Blocks that do not
        fill every free slot are shared evenly between the slots."""
        while not self.fed_all:
            free = TASKS_PER_WORKER * self._workers(client) - len(self.tasks)
            if free <= 0:
                return
            ready = self._take(free * self.sizer.blocks())
            if not ready:
                if self.tasks or self.fed_all:
                    return
                time.sleep(WAIT_S)
                continue
            for blocks in split(ready, free):
                self._submit(client, blocks)

    def _workers(self, client: Client) -> int:
        """The cluster's workers, asked of the scheduler at most every
        :data:`WORKERS_EVERY_S` (a round trip: not once per block)."""
        now = time.monotonic()
        if now >= self._workers_asked + WORKERS_EVERY_S:
            self._workers_asked = now
            self._worker_count = max(1, len(client.scheduler_info()["workers"]))
        return self._worker_count

    def _take(self, most: int) -> list[list[GameSpec]]:
        """Up to ``most`` blocks from the feed: fewer when it has none ready or ends."""
        taken: list[list[GameSpec]] = []
        while len(taken) < most:
            block = next(self.blocks, None)
            if block is None:
                self.fed_all = True
                break
            if not block:  # the feed has none ready yet
                break
            taken.append(block)
        return taken

    def _submit(self, client: Client, blocks: list[list[GameSpec]]) -> None:
        from arena.league.worker import play_blocks

        key = f"{self.plugin}-{blocks[0][0].id}"
        future = client.submit(play_blocks, self.plugin, blocks, key=key, pure=False)
        self.tasks[key] = (future, len(blocks))
        future.add_done_callback(self.inbox.put)  # (from another thread)

    def _task_done(self, future: Future) -> None:
        """Store the blocks of a finished task that no event brought yet (or raise its
        error: ``KilledWorker``, the worker's :class:`ClusterError`)."""
        if self.tasks.pop(str(future.key), None) is None:
            return  # cancelled (a stop) or already handled
        for block, data in future.result():
            self._store_data(block, data)

    def _store_data(self, block: str, data: bytes) -> None:
        """Store a pickled :class:`PlayedBlock` (``block``: its first game's id) unless this
        run stored that block already: a task's result repeats the blocks its events
        brought, and a task played again after its worker was lost sends its blocks again
        (that replay's stderr is not kept: its games are not either)."""
        if block in self.stored_blocks:
            return
        self.stored_blocks.add(block)
        played: PlayedBlock = pickle.loads(data)
        for bot, log in played.logs.items():
            self.logs[bot].write(log)
        self.sizer.heard(played.seconds)
        self._store_block(played)

    def _close_workers(self, client: Client) -> None:
        """Have every worker close its bots and hand over their last stderr, then remove the
        plugin; both within one bounded wait (:data:`CLOSE_TIMEOUT_S` and the bots'
        ``bye_ms``), with one warning when the workers did not report within it."""
        bound_s = CLOSE_TIMEOUT_S + max(bot.limits.bye_ms for bot in self.config.bots) / 1000
        deadline = time.monotonic() + bound_s
        closed = self._take_closing_logs(client, bound_s)
        # the plugin's removal is sent even when the time is up (its wait then is short)
        removed = self._remove_plugin(client, max(1.0, deadline - time.monotonic()))
        if not (closed and removed) and self.say is not None:
            self.say(
                f"warning: the workers did not report their bots closed within "
                f"{bound_s:g} s: see the workers' logs"
            )

    def _take_closing_logs(self, client: Client, bound_s: float) -> bool:
        """Close every worker's bots and write what they said on stderr after the last
        block: their last words at ``bye``. A worker that cannot answer (gone, or its
        referee never started) is passed over: removing the plugin closes its bots all the
        same. False when the workers did not answer within ``bound_s``."""
        from arena.league.worker import closing_logs

        try:
            answers: dict[str, Any] = client.sync(
                client._run, closing_logs, self.plugin, on_error="return", callback_timeout=bound_s
            )
        except TimeoutError:  # (an OSError: first)
            return False
        except (ValueError, OSError):  # the scheduler is gone: so are the workers' bots
            return True
        for _, logs in sorted(answers.items()):
            if isinstance(logs, dict):
                for bot, data in logs.items():
                    self.logs[bot].write(data)
        return True

    def _remove_plugin(self, client: Client, bound_s: float) -> bool:
        """Remove the plugin, which closes every pool on every worker (the pre-flight too, if
        it still runs), and wait for the workers to say so, at most ``bound_s``; False when
        they did not."""
        try:
            client.sync(client._unregister_worker_plugin, self.plugin, callback_timeout=bound_s)
        except TimeoutError:  # (an OSError: first)
            return False
        # ValueError: stopped before it was registered; OSError: the scheduler is gone (its
        # workers then close, and their plugins close the pools)
        except (ValueError, OSError):
            pass
        return True

    def _check_preflight(self, client: Client) -> None:
        from arena.league.worker import cannot_start, preflight_failures, preflight_logs

        failures: dict[str, dict[str, str]] = client.run(preflight_failures, self.plugin)
        if any(failures.values()):  # the bots' stderr says why: into logs/, as in-process
            logs: dict[str, dict[str, bytes]] = client.run(preflight_logs, self.plugin)
            for _, bots_logs in sorted(logs.items()):
                for bot, data in bots_logs.items():
                    self.logs[bot].write(data)
        for worker, bots in sorted(failures.items()):
            for bot, reason in sorted(bots.items()):
                raise ClusterError(cannot_start(worker, bot, reason))

    def _store_block(self, played: PlayedBlock) -> None:
        """Append a finished block's games, make them durable, then count them."""
        self.store.check_ready(played.readies)  # before its games are in the file
        for record, lines in zip(played.records, played.transcripts, strict=False):
            self.store.write_transcripts(record.id, lines)  # before its game: see the method
        for record in played.records:
            self.store.append(record)
        self.store.sync()
        self.outcome.disqualified.update(played.disqualified)
        for record in played.records:
            self.driver.count(record)
            self.driver.collect(record)
