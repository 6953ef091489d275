"""Play a league on a Dask cluster: a local one (``--workers N``) or an existing one.

The client (this process) is the only writer of the results folder. It opens the folder with
the driver every player shares (:class:`~arena.league.driver.LeagueDriver`: resume, lock,
repair, the feed, the count), registers a
:class:`~arena.league.worker.RefereePlugin` that gives every worker warm bot pools, checks
that every bot started on every worker (pre-flight), then submits the missing rotation
blocks as Dask tasks, a few per worker at a time, in schedule order. Each finished block's
games are appended and fsync'd before they count; a block lost with its worker is played
again by Dask elsewhere, and only whole blocks ever come back, so nothing is lost or stored
twice. Ctrl-C (or SIGTERM) cancels the futures and removes the plugin, which closes every
pool on every worker (the signal policy: :mod:`arena.league.stopping`). The games are the
ones ``--jobs 1`` plays: same ids, seeds, seats.
"""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.config import LeagueConfig
from arena.errors import ClusterError
from arena.game.botproc import StderrLog
from arena.league.driver import WAIT_S, FeedMaker, LeagueDriver, LeagueOutcome, ProgressHook
from arena.league.layout import Warn
from arena.league.stopping import (
    Stopped,
    ctrl_c_kept_from_children,
    stops_deferred,
    stops_ignored,
    stops_raised,
)
from arena.record import GameRecord
from arena.words import counted

if TYPE_CHECKING:
    from distributed import Client, Future

    from arena.league.worker import PlayedBlock

INSTALL_HINT = "the Dask extra is not installed: pip install -e '.[cluster]' in the arena's clone"
CONNECT_TIMEOUT_S = 10
CLOSE_TIMEOUT_S = 30  # for the workers to close their pools (plus the bots' bye_ms)
BLOCKS_PER_WORKER = 3  # submitted ahead, so a worker never waits for the client


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
) -> LeagueOutcome:
    """Play every missing game of ``config`` into ``folder`` on a Dask cluster.

    ``workers``: start a local cluster of that many one-thread worker processes; else
    ``scheduler``: the address of a running scheduler. ``jobs`` is games at once per worker;
    the other arguments are :func:`~arena.league.runner.run_league`'s. Call it from the main
    thread (it handles SIGINT and SIGTERM).
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
    )
    run = _DaskPlayer(driver)
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

    def __init__(self, driver: LeagueDriver) -> None:
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
        self.plugin = f"arena-referee-{uuid.uuid4().hex[:12]}"

    def play(self, client: Client, jobs: int) -> None:
        from distributed import KilledWorker, as_completed

        from arena.league.worker import RefereePlugin

        in_flight: set[Future] = set()
        try:
            plugin = RefereePlugin(self.config, jobs, self.transcripts)
            client.register_plugin(plugin, name=self.plugin)
            self._check_preflight(client)
            workers = len(client.scheduler_info()["workers"])
            if self.say is not None:
                self.say(cluster_line(client))
            finished = as_completed(with_results=True)
            for _ in range(BLOCKS_PER_WORKER * max(1, workers)):
                if not self._submit_next(client, finished, in_flight):
                    break
            for future, played in finished:
                in_flight.discard(future)
                with stops_deferred():  # a stop counts every game it leaves in the file
                    self._store_block(played)
                self._submit_next(client, finished, in_flight)
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
                f"a block was lost with every worker that tried it ({exc}); see the workers' logs"
            ) from None
        finally:
            with stops_ignored():
                if in_flight:
                    client.cancel(list(in_flight))
                self._remove_plugin(client)
        self.driver.finish({})  # (each block brings the bots disqualified on its worker)

    def _remove_plugin(self, client: Client) -> None:
        """Remove the plugin, which closes every pool on every worker (the pre-flight too, if
        it still runs), and wait for the workers to say so: a bounded wait."""
        bye_s = max(bot.limits.bye_ms for bot in self.config.bots) / 1000
        try:
            client.sync(
                client._unregister_worker_plugin,
                self.plugin,
                callback_timeout=CLOSE_TIMEOUT_S + bye_s,
            )
        except TimeoutError:  # (an OSError: first)
            if self.say is not None:
                self.say(
                    f"warning: the workers did not report their bots closed within "
                    f"{CLOSE_TIMEOUT_S + bye_s:g} s: see the workers' logs"
                )
        # ValueError: stopped before it was registered; OSError: the scheduler is gone (its
        # workers then close, and their plugins close the pools)
        except (ValueError, OSError):
            pass

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

    def _submit_next(self, client: Client, finished: Any, in_flight: set[Future]) -> bool:
        """Submit the next block with a game still to play; False when there is none (yet:
        a feed with none ready is asked again once a block in flight is done, or after
        :data:`~arena.league.driver.WAIT_S` when none is)."""
        from arena.league.worker import play_block

        for block in self.blocks:
            if not block:  # the feed has none ready yet
                if in_flight:
                    return False
                time.sleep(WAIT_S)
                continue
            key = f"{self.plugin}-{block[0].id}"
            future = client.submit(play_block, self.plugin, block, key=key, pure=False)
            in_flight.add(future)
            finished.add(future)
            return True
        return False

    def _store_block(self, played: PlayedBlock) -> None:
        """Append a finished block's games, make them durable, then count them."""
        self.store.check_ready(played.readies)  # before its games are in the file
        for record, lines in zip(played.records, played.transcripts, strict=False):
            self.store.write_transcripts(record.id, lines)  # before its game: see the method
        for record in played.records:
            self.store.append(record)
        self.store.sync()
        for bot, data in played.logs.items():
            self.logs[bot].write(data)
        self.outcome.disqualified.update(played.disqualified)
        for record in played.records:
            self.driver.count(record)
            self.driver.collect(record)
