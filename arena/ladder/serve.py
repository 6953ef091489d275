"""``arena serve``: one process, one trio loop: the web server (hypercorn), the checks of
new submissions, the leaderboard's ratings and the games.

Ctrl-C or SIGTERM cancels the loop: the games in flight are dropped (their blocks are
finished when the ladder starts again), every stored game is synced, every bot process
ends, and the command exits 130. A submission caught mid-check is checked again at the
next start; nothing acknowledged is lost (an upload is on disk, synced, and in the
database, itself synced, before its client hears of it).
"""

from __future__ import annotations

import secrets
import signal
from collections.abc import Callable
from pathlib import Path

import trio

from arena.errors import ConfigError
from arena.ladder.app import LadderApp, LadderState
from arena.ladder.board import make_board
from arena.ladder.checks import judge
from arena.ladder.db import LadderDB, Submission
from arena.ladder.matchmaking import Matchmaker
from arena.ladder.player import Cluster, LadderPlayer
from arena.ladder.settings import Ladder
from arena.ladder.uploads import remove_partial_uploads
from arena.league.driver import with_stored_seed

Say = Callable[[str], None]


def require_server() -> None:
    """One clear line when the ``[ladder]`` extra is not installed."""
    try:
        import hypercorn  # noqa: F401
        import openskill  # noqa: F401
    except ImportError:
        raise ConfigError(
            "arena serve needs the ladder extra: pip install 'tabletop-arena[ladder]'"
        ) from None


class Wake:
    """A wake-up call for a loop that otherwise looks again every ``every_s``."""

    def __init__(self) -> None:
        self.event = trio.Event()

    def __call__(self) -> None:
        self.event.set()

    async def wait(self, every_s: float) -> None:
        with trio.move_on_after(every_s):
            await self.event.wait()
        self.event = trio.Event()


async def serve(
    ladder: Ladder,
    folder: Path,
    *,
    host: str,
    port: int,
    jobs: int,
    say: Say,
    cluster: Cluster | None = None,
) -> bool:
    """Run the ladder until stopped; True when stopped by Ctrl-C or SIGTERM. With
    ``cluster``, the games are played on Dask workers (``jobs`` at once on each)."""
    from hypercorn.config import Config
    from hypercorn.trio import serve as hypercorn_serve

    folder = folder.resolve()  # the bots' paths: the same on a Dask worker
    db = LadderDB(folder)
    try:
        remove_partial_uploads(folder)
        secret = db.get_meta("secret")
        if not secret:
            secret = secrets.token_hex(32)
            db.set_meta("secret", secret)
        league = with_stored_seed(ladder.league, folder, fresh=False)
        ladder = Ladder(league, ladder.settings, ladder.source)
        matchmaker = Matchmaker(league.players, ladder.settings.placement_blocks, league.seed)
        player = LadderPlayer(league, folder, db, matchmaker, jobs=jobs, say=say, cluster=cluster)
        checks = Wake()
        state = LadderState(ladder, folder, db, player, bytes.fromhex(secret), checks)
        config = Config()
        config.bind = [f"{host}:{port}"]
        config.accesslog = None
        config.errorlog = None
        config.graceful_timeout = 1.0
        stopped = False
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with trio.open_nursery() as nursery:

                async def stop_on_signal() -> None:
                    nonlocal stopped
                    async for _ in signals:
                        stopped = True
                        nursery.cancel_scope.cancel()
                        return

                nursery.start_soon(stop_on_signal)
                nursery.start_soon(player.run)
                # checks beside the games: half the jobs (a check plays games too)
                nursery.start_soon(check_loop, state, checks, max(1, jobs // 2))
                nursery.start_soon(board_loop, state)
                binds = await nursery.start(
                    lambda task_status: hypercorn_serve(
                        LadderApp(state),  # type: ignore[arg-type]  # plain ASGI, untyped
                        config,
                        task_status=task_status,
                    )
                )
                say(f"ladder {league.name}: serving on {' '.join(binds)}; results in {folder}")
        return stopped
    finally:
        db.close()


async def check_loop(state: LadderState, wake: Wake, at_once: int) -> None:
    """Judge every submission not yet judged, oldest first, ``at_once`` at a time."""
    db = state.db
    limiter = trio.CapacityLimiter(at_once)
    judging: set[int] = set()

    async def judge_one(submission: Submission) -> None:
        try:
            async with limiter:
                db.set_state(submission.id, "checking")
                verdict = await judge(
                    state.folder,
                    state.ladder,
                    submission.sha256,
                    submission.filename,
                    submission.cmd,
                )
                if verdict.accepted:
                    db.accept(submission.id, verdict.log, verdict.cmd, verdict.folder)
                    state.player.notify()
                else:
                    reason, log = verdict.reason, verdict.log
                    db.set_state(submission.id, "rejected", reason=reason, log=log)
        finally:
            judging.discard(submission.id)

    async with trio.open_nursery() as checks:
        while True:
            for submission in db.unfinished():
                if submission.id in judging:
                    continue
                bot = db.bot_named(submission.bot_name)
                if bot is not None and bot.status == "banned":
                    db.set_state(submission.id, "rejected", reason="the bot is banned")
                    continue
                judging.add(submission.id)
                checks.start_soon(judge_one, submission)
            await wake.wait(2.0)


RATING_SHARE = 0.1  # the leaderboard's re-rating takes at most this share of a core


async def board_loop(state: LadderState) -> None:
    """Rate the folder again whenever games were stored: at most every ``refresh_s``, and
    at most :data:`RATING_SHARE` of the time (the games share the machine: measured with
    ``benchmarks/ladder.py``, re-rating every 5 s cost the ladder a fifth of its games/s)."""
    seen: tuple[int, int] = (-1, -1)
    while True:
        count = (state.player.stored_games, len(state.db.live()))
        took = 0.0
        if count != seen:
            started = trio.current_time()
            state.board = await trio.to_thread.run_sync(
                make_board, state.folder, state.db, state.player.houses
            )
            took = trio.current_time() - started
            seen = count
        await trio.sleep(max(state.ladder.settings.refresh_s, took / RATING_SHARE))
