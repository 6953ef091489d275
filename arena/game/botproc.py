"""Bot subprocesses: start, handshake, request/answer under deadlines, and a certain end.

Every bot process goes through :func:`host_bot`, which owns its process group: the process
is started in a new session (so its pid is its group id), its stderr is drained into a
capped log, and on every exit path (normal end, error, cancellation, Ctrl-C) the shielded
clean-up says ``bye``, waits a short grace, kills the whole group and reaps the process
before anything is re-raised. Nothing else in the arena starts processes.

:class:`BotProcess` is the running bot as the referee uses it; :class:`BotPool` keeps idle
processes of one bot for reuse across games.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from arena import protocol
from arena.config import BotSpec, Limits
from arena.errors import (
    BotCrash,
    BotDisqualified,
    BotFault,
    BotProtocolError,
    BotStartup,
    BotTimeout,
)
from arena.game.watchdog import Watchdog

_CHUNK = 1 << 16


class LineReader:
    """Read ``\\n``-terminated lines from a stream, never holding more than one capped line."""

    def __init__(self, stream: trio.abc.ReceiveStream, max_line: int) -> None:
        self._stream = stream
        self._buffer = bytearray()
        self._scanned = 0  # bytes of the buffer known to hold no newline
        self._max_line = max_line

    def pending(self) -> bool:
        return b"\n" in self._buffer

    async def readline(self) -> bytes:
        """The next line without its newline; :class:`BotCrash` at end of stream."""
        while True:
            end = self._buffer.find(b"\n", self._scanned)
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                self._scanned = 0
                return line
            self._scanned = len(self._buffer)
            if self._scanned > self._max_line:
                self._buffer.clear()
                self._scanned = 0
                raise BotProtocolError(f"line longer than {self._max_line} bytes")
            chunk = await self._stream.receive_some(_CHUNK)
            if not chunk:
                raise BotCrash("closed its output (the process exited or closed stdout)")
            self._buffer += chunk


@dataclass
class StderrLog:
    """One bot's capped stderr log, shared by all its processes."""

    path: Path | None
    cap: int
    written: int = 0
    dropped: int = 0

    def write(self, chunk: bytes | bytearray) -> None:
        if self.path is None:
            return
        kept = chunk[: max(0, self.cap - self.written)]
        overflow = len(chunk) - len(kept)
        first_overflow = overflow > 0 and self.dropped == 0
        if kept or first_overflow:
            with self.path.open("ab") as handle:
                handle.write(kept)
                if first_overflow:  # said once, even when a chunk ends exactly at the cap
                    handle.write(b"\n[arena: stderr cap reached; further output dropped]\n")
        self.written += len(kept)
        self.dropped += overflow


def _resource_limits(limits: Limits) -> list[tuple[int, int]]:
    """The rlimits a bot process gets, as (resource, soft = hard) pairs."""
    mib = 1 << 20
    pairs = [
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_AS, limits.memory_mb * mib),
        (resource.RLIMIT_CPU, limits.cpu_s),
        (resource.RLIMIT_FSIZE, limits.file_mb * mib),
        (resource.RLIMIT_NOFILE, limits.open_files),
    ]
    if limits.processes:
        pairs.append((resource.RLIMIT_NPROC, limits.processes))
    return pairs


def _child_setup(rlimits: list[tuple[int, int]]) -> Callable[[], None]:
    """What runs in the child before exec: the resource limits.

    (Not ``PR_SET_PDEATHSIG``: trio forks from a worker thread, and that signal fires when
    the forking *thread* exits. :mod:`arena.game.watchdog` ties bots to the referee instead.)
    """

    def setup() -> None:
        for which, value in rlimits:
            _, hard = resource.getrlimit(which)
            ceiling = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (ceiling, ceiling))

    return setup


def _bot_environment(workdir: Path) -> dict[str, str]:
    """A scrubbed environment: only what a program needs to start.

    The folder the arena was started from is put on ``PYTHONPATH``, so ``python -m
    bots.<name>`` works from a checkout even though each bot runs in its own folder.
    """
    keep = ("PATH", "LANG", "LC_ALL", "TZ", "VIRTUAL_ENV", "SYSTEMROOT")
    env = {key: os.environ[key] for key in keep if key in os.environ}
    paths = [os.getcwd(), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["HOME"] = str(workdir)
    env["TMPDIR"] = str(workdir)
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _sandboxed(argv: list[str], workdir: Path) -> list[str]:
    """Wrap a command in bubblewrap: no network, read-only system, a private pid space.

    The sandbox gets a private, empty ``/tmp``; what the bot needs from the real one (a
    checkout, a virtual environment or the bot's own files living there) is bound back
    read-only, and its working directory read-write.
    """
    needed = {os.getcwd(), sys.prefix, sys.base_prefix}
    needed |= {str(Path(arg).parent) for arg in argv if os.path.isabs(arg) and os.path.exists(arg)}
    in_tmp = sorted(path for path in needed if path == "/tmp" or path.startswith("/tmp/"))
    rebinds = [flag for path in in_tmp for flag in ("--ro-bind", path, path)]
    return [
        "bwrap",
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--tmpfs", "/tmp",
        *rebinds,
        "--bind", str(workdir), str(workdir),
        "--chdir", str(workdir),
        "--unshare-all",
        "--",
        *argv,
    ]  # fmt: skip


@dataclass(eq=False)  # identity: processes live in sets
class BotProcess:
    """A running, handshaken bot process."""

    spec: BotSpec
    process: trio.Process
    reader: LineReader
    limits: Limits
    startup_s: float = 0.0
    ready: dict[str, Any] = field(default_factory=dict)
    broken: bool = False  # after any fault: never reused
    games_played: int = 0
    hello_lines: tuple[bytes, bytes] = (b"", b"")  # the handshake as sent and answered
    transcript: list[tuple[str, bytes]] | None = None  # ("to"|"from", line) while recording
    ending: str = ""  # how the process ended, once it has
    _closed: trio.Event = field(default_factory=trio.Event)

    async def send(self, message: bytes, deadline: float | None = None) -> None:
        """Send a line; the bot must take it by ``deadline`` (default: within move_ms)."""
        if deadline is None:
            deadline = trio.current_time() + self.limits.move_ms / 1000
        try:
            with trio.fail_at(deadline):
                await self._write(message)
        except trio.TooSlowError:
            self.broken = True
            raise BotTimeout("did not read its input within the time limit") from None

    async def read_line(self, deadline: float) -> bytes:
        """The next line from the bot, by ``deadline`` (trio clock) or :class:`BotTimeout`."""
        try:
            with trio.fail_at(deadline):
                return await self._read()
        except trio.TooSlowError:
            self.broken = True
            raise BotTimeout("no answer within the time limit") from None

    async def ask(self, message: bytes, deadline: float) -> bytes:
        """Send ``message`` and return the next line; both must happen by ``deadline``.

        One cancel scope for both halves: this is the referee's hot path.
        """
        try:
            with trio.fail_at(deadline):
                await self._write(message)
                return await self._read()
        except trio.TooSlowError:
            self.broken = True
            raise BotTimeout("no answer within the time limit") from None

    async def _write(self, message: bytes) -> None:
        if self.transcript is not None:
            self.transcript.append(("to", message))
        try:
            assert self.process.stdin is not None
            await self.process.stdin.send_all(message)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.broken = True
            raise BotCrash("stopped reading its input (the process exited?)") from None

    async def _read(self) -> bytes:
        try:
            line = await self.reader.readline()
        except BotFault:
            self.broken = True
            raise
        if self.transcript is not None:
            self.transcript.append(("from", line))
        return line

    def close(self) -> None:
        """Ask the host task to say bye and end the process."""
        self._closed.set()

    def exit_code(self) -> int | None:
        return self.process.returncode


async def _drain(stream: trio.abc.ReceiveStream, log: StderrLog) -> None:
    while chunk := await stream.receive_some(_CHUNK):
        log.write(chunk)


async def _shutdown(process: trio.Process, bye_ms: int, polite: bool) -> str:
    """Say bye, give a grace period, then kill the whole group and reap. Always completes.

    Returns how the process ended, in words (see :data:`ENDED_CLEANLY`).
    """
    with trio.CancelScope(shield=True):
        if polite and process.returncode is None and process.stdin is not None:
            with trio.move_on_after(bye_ms / 1000):
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await process.stdin.send_all(protocol.encode(protocol.BYE))
        if process.stdin is not None:
            await process.stdin.aclose()
        if polite:
            with trio.move_on_after(bye_ms / 1000):
                await process.wait()
        exited = process.returncode is not None
        try:
            os.killpg(process.pid, signal.SIGKILL)  # also any child left in the group
            left_behind = True
        except (ProcessLookupError, PermissionError):
            left_behind = False
        await process.wait()
    if not polite:
        return "ended by the referee after a fault"
    if not exited:
        return f"did not exit within bye_ms = {bye_ms} ms after 'bye' and was killed"
    if left_behind:
        return "exited after 'bye' but left processes running in its group (killed)"
    return ENDED_CLEANLY


ENDED_CLEANLY = "exited after 'bye'"


async def _startup_problem(process: trio.Process, fault: BotFault, limits: Limits) -> str:
    """A plain sentence for a failed handshake, naming the exit status when it exited."""
    if isinstance(fault, BotCrash):
        with trio.move_on_after(0.5):  # its output closed: the exit status follows shortly
            await process.wait()
        if process.returncode is not None:
            return f"exited before answering 'hello' ({_exit_status(process.returncode)})"
    if isinstance(fault, BotTimeout):
        return f"no 'ready' within startup_ms = {limits.startup_ms} ms"
    return f"no valid 'ready' ({fault.verdict}: {fault})"


def _exit_status(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


async def host_bot(
    spec: BotSpec,
    hello: bytes,
    workdir: Path,
    log: StderrLog,
    guard: Watchdog | None = None,
    live: set[BotProcess] | None = None,
    *,
    task_status: trio.TaskStatus[BotProcess | BotFault] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Run one bot process for as long as it is wanted (``nursery.start`` this).

    Reports through ``task_status`` either the handshaken :class:`BotProcess` or the
    :class:`BotFault` that prevented it; in both cases the process is gone when this returns.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    limits = spec.limits
    argv = spec.argv() if spec.sandbox == "none" else _sandboxed(spec.argv(), workdir)
    started = time.perf_counter()
    try:
        process = await trio.lowlevel.open_process(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(workdir),
            env=_bot_environment(workdir),
            start_new_session=True,
            preexec_fn=_child_setup(_resource_limits(limits)),
        )
    except OSError as exc:
        task_status.started(BotStartup(f"cannot start {spec.argv()[0]!r}: {exc.strerror}"))
        return
    if guard is not None:
        guard.watch(process.pid)  # its process group id: it leads a new session
    assert process.stdout is not None and process.stderr is not None
    bot = BotProcess(spec, process, LineReader(process.stdout, limits.line_bytes), limits)
    polite = True
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_drain, process.stderr, log)
            try:
                line = await bot.ask(hello, trio.current_time() + limits.startup_ms / 1000)
                bot.ready = protocol.check_ready(protocol.decode(line))
                bot.hello_lines = (hello, line)
            except BotFault as fault:
                polite = False
                startup = BotStartup(await _startup_problem(process, fault, limits))
                task_status.started(startup)
                nursery.cancel_scope.cancel()
                return
            bot.startup_s = time.perf_counter() - started
            if live is not None:
                # registered before it is handed over: a caller cancelled in the hand-over
                # cannot lose it, and BotPool.close_all still ends it
                live.add(bot)
            task_status.started(bot)
            await bot._closed.wait()
            polite = not bot.broken
            nursery.cancel_scope.cancel()
    finally:
        if live is not None:
            live.discard(bot)
        bot.ending = await _shutdown(process, limits.bye_ms, polite)
        if guard is not None:
            guard.forget(process.pid)


class BotPool:
    """Idle processes of one bot, reused game after game; broken ones are replaced."""

    def __init__(
        self,
        spec: BotSpec,
        hello: bytes,
        workroot: Path,
        log: StderrLog,
        nursery: trio.Nursery,
        guard: Watchdog | None = None,
    ) -> None:
        self.spec = spec
        self._hello = hello
        self._workroot = workroot
        self.log = log
        self._nursery = nursery
        self._guard = guard
        self._idle: list[BotProcess] = []
        self._live: set[BotProcess] = set()
        self._spawned = 0
        self.start_failures = 0
        self.last_failure: str = ""

    @property
    def disqualified(self) -> bool:
        """Failed to start ``max_start_failures`` times: no more attempts this league."""
        return self.start_failures >= self.spec.limits.max_start_failures

    async def acquire(self) -> BotProcess:
        """An idle process, or a freshly started one; raises :class:`BotStartup`."""
        if self._idle:
            return self._idle.pop()
        if self.disqualified:
            raise BotDisqualified(f"disqualified after {self.start_failures} failed starts")
        self._spawned += 1
        workdir = self._workroot / f"{_safe(self.spec.name)}-{self._spawned}"
        outcome = await self._nursery.start(
            host_bot, self.spec, self._hello, workdir, self.log, self._guard, self._live
        )
        if isinstance(outcome, BotFault):
            self.start_failures += 1
            self.last_failure = str(outcome)
            raise outcome
        return outcome

    def release(self, bot: BotProcess) -> None:
        """Give a process back after a game; a broken or exited one is ended instead."""
        bot.games_played += 1
        if bot.broken or bot.exit_code() is not None or bot.reader.pending():
            bot.close()
        else:
            self._idle.append(bot)

    def close_all(self) -> None:
        """End every process of this bot, idle or not: call it when no game runs any more."""
        for bot in [*self._live, *self._idle]:
            bot.close()
        self._idle.clear()


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
