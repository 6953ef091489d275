"""Bot subprocesses: start, handshake, request/answer under deadlines, and a certain end.

Every bot process goes through :func:`host_bot`, which owns its process group: the bot is
started under its keeper (:mod:`arena.game.keeper`, which applies the resource limits with a
plain ``exec``, no ``preexec_fn``, and kills every descendant of the bot, even one that left
its process group) in a new session (so the keeper's pid is the group id), optionally inside
the sandbox (:mod:`arena.game.sandbox`), its stderr is drained into a capped log, and on
every exit path (normal end, error, cancellation, Ctrl-C) the shielded clean-up says ``bye``,
waits a short grace, has the keeper end everything, kills the whole group and reaps the
process before anything is re-raised. Nothing else in the arena starts bot processes.

:class:`BotProcess` is the running bot as the referee uses it; :class:`BotPool` keeps idle
processes of one bot for reuse across games; all pools of a referee share one cap on idle
processes (:class:`IdleProcesses`), so a large field never exhausts the referee's descriptors.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections import OrderedDict, deque
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
    BotMemory,
    BotProtocolError,
    BotStartup,
    BotTimeout,
    ResourceShortage,
)
from arena.forked import cores
from arena.game import cgroup, keeper, sandbox
from arena.game.environment import bot_environment
from arena.game.watchdog import Watchdog

_CHUNK = 1 << 16
_SPIN_YIELD_EVERY = 32  # a polled-for answer passes a checkpoint this often, as others do
_CONTENDED_YIELD_S = 50e-6  # a sched_yield this slow gave the core away: stop polling


class LineReader:
    """Read ``\\n``-terminated lines from a stream, never holding more than one capped line."""

    def __init__(self, stream: trio.abc.ReceiveStream, max_line: int) -> None:
        self._stream = stream
        # a pipe is read straight from its descriptor (see _receive); other streams as streams
        self._fd = stream.fileno() if isinstance(stream, trio.lowlevel.FdStream) else None
        self._buffer = bytearray()
        self._scanned = 0  # bytes of the buffer known to hold no newline
        self._max_line = max_line

    def pending(self) -> bool:
        return b"\n" in self._buffer

    async def readline(self) -> bytes:
        """The next line without its newline; :class:`BotCrash` at end of stream."""
        while (line := self._take()) is None:
            chunk = await self._receive()
            if not chunk:
                raise BotCrash("closed its output (the process exited or closed stdout)")
            self._buffer += chunk
        return line

    def line_now(self) -> bytes | None:
        """The next line if it is buffered or already waiting in the pipe, else None.

        Never waits and never yields to trio: a spinning referee calls it in a loop (see
        :meth:`BotProcess.ask`). Faults as :meth:`readline`.
        """
        while (line := self._take()) is None:
            if self._fd is None:
                return None
            try:
                chunk = os.read(self._fd, _CHUNK)
            except BlockingIOError:
                return None
            except OSError as exc:
                if exc.errno == errno.EBADF:
                    raise trio.ClosedResourceError("the bot's output was already closed") from None
                raise trio.BrokenResourceError from exc
            if not chunk:
                raise BotCrash("closed its output (the process exited or closed stdout)")
            self._buffer += chunk
        return line

    def _take(self) -> bytes | None:
        """A complete line from the buffer, or None; a line over the cap is a protocol fault."""
        end = self._buffer.find(b"\n", self._scanned)
        if end > self._max_line:  # a whole line over the cap, come in one read
            del self._buffer[: end + 1]
            self._scanned = 0
            raise BotProtocolError(f"line longer than {self._max_line} bytes")
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
        return None

    async def _receive(self) -> bytes | bytearray:
        """The next chunk, with one trip through trio's scheduler per chunk.

        ``FdStream.receive_some`` yields once before it reads and once more while it waits:
        two scheduler rounds per answer, on the referee's hot path. Here the read is tried
        first and the wait is the only yield; a chunk that was already waiting still passes
        a checkpoint, so a bot that floods lines cannot keep the referee from its deadlines.
        """
        if self._fd is None:
            return await self._stream.receive_some(_CHUNK)
        waited = False
        while True:
            try:
                chunk = os.read(self._fd, _CHUNK)
            except BlockingIOError:
                await trio.lowlevel.wait_readable(self._fd)
                waited = True
                continue
            except OSError as exc:
                if exc.errno == errno.EBADF:
                    raise trio.ClosedResourceError("the bot's output was already closed") from None
                raise trio.BrokenResourceError from exc
            if not waited:
                await trio.lowlevel.checkpoint()
            return chunk


async def _write_fd(fd: int, message: bytes | memoryview) -> None:
    """Write all of ``message`` to a non-blocking pipe, waiting only when it is full."""
    view = memoryview(message)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            await trio.lowlevel.wait_writable(fd)
        except OSError as exc:
            if exc.errno == errno.EBADF:
                raise trio.ClosedResourceError("the bot's input was already closed") from None
            raise trio.BrokenResourceError from exc


STDERR_TAIL_LINES = 10  # the last lines of a bot's stderr shown under a fault
STDERR_TAIL_WIDTH = 200  # characters of each such line
_TAIL_BYTES = 4096  # what a log keeps in memory of the last bytes written


@dataclass
class StderrLog:
    """One bot's capped stderr log, shared by all its processes.

    Writing it never raises: a full disk or a shortage of descriptors loses log lines
    (counted in ``dropped``, the reason kept in ``failure``), never the referee. The last
    bytes written are kept in memory too, with or without a file (and past the cap): they
    are what :meth:`last_lines` shows under a fault.
    """

    path: Path | None
    cap: int
    written: int = 0
    dropped: int = 0
    failure: str = ""
    recent: bytearray = field(default_factory=bytearray, repr=False)

    def write(self, chunk: bytes | bytearray) -> None:
        self.recent += chunk
        del self.recent[:-_TAIL_BYTES]
        if self.path is None:
            return
        kept = chunk[: max(0, self.cap - self.written)] if not self.failure else b""
        overflow = len(chunk) - len(kept)
        first_overflow = overflow > 0 and self.dropped == 0 and not self.failure
        if kept or first_overflow:
            try:
                with self.path.open("ab") as handle:
                    handle.write(kept)
                    if first_overflow:  # said once, even when a chunk ends exactly at the cap
                        handle.write(b"\n[arena: stderr cap reached; further output dropped]\n")
            except OSError as exc:
                self.failure = f"cannot write {self.path}: {exc.strerror or exc}"
                kept, overflow = b"", len(chunk)
        self.written += len(kept)
        self.dropped += overflow

    def last_lines(self) -> list[str]:
        """What the bot last wrote to stderr, to show under a fault: a heading and at most
        :data:`STDERR_TAIL_LINES` lines, each cut to :data:`STDERR_TAIL_WIDTH` characters
        and its control characters made visible; nothing when it wrote nothing.

        A Python traceback is shown from its first line (a long one with its end, the
        middle left out), once: the heading counts the identical ones it wrote before."""
        text = self.recent.decode("utf-8", errors="replace")
        lines = [line for line in text.splitlines() if line.strip()]
        cut_off = len(self.recent) == _TAIL_BYTES  # most likely: it wrote more before
        if cut_off and lines:
            del lines[0]  # most likely the end of a line whose start is no longer kept
        heading = "last lines the bot wrote to stderr:"
        start = _last_traceback(lines)
        if start is None:
            tail = lines[-STDERR_TAIL_LINES:]
        else:
            tail = lines[start:]  # a bot started again and again writes the same one
            times = sum(lines[i : i + len(tail)] == tail for i in range(start + 1))
            if times > 1:
                least = "at least " if cut_off else ""
                heading = (
                    f"last lines the bot wrote to stderr (the last of {least}{times} identical "
                    "tracebacks):"
                )
        shown = [f"| {protocol.visible(line[:STDERR_TAIL_WIDTH])}" for line in tail]
        if start is not None and len(tail) > STDERR_TAIL_LINES:  # its first line, then its end
            end = tail[2 - STDERR_TAIL_LINES :]
            frame = next((i for i, line in enumerate(end) if line.startswith(_FRAME)), 0)
            kept = len(end) - frame  # from a frame's first line on
            shown = [shown[0], f"  ({len(tail) - 1 - kept} lines left out)", *shown[-kept:]]
        return [heading, *shown] if shown else []


_TRACEBACK = "Traceback (most recent call last):"
_FRAME = '  File "'
_CHAINED = (
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
)


def _last_traceback(lines: list[str]) -> int | None:
    """Where the last Python traceback in ``lines`` begins (a chained one: its first
    part), or None when they hold none."""
    starts = [i for i, line in enumerate(lines) if line.startswith(_TRACEBACK)]
    if not starts:
        return None
    start = starts.pop()
    while starts and start > 0 and lines[start - 1] in _CHAINED:
        start = starts.pop()
    return start


def _resource_limits(limits: Limits, grouped: bool = False) -> list[tuple[int, int]]:
    """The rlimits a bot process gets, as (resource, soft = hard) pairs. In a control group
    (``grouped``) its memory is the group's to count: no address-space limit."""
    mib = 1 << 20
    pairs = [(resource.RLIMIT_CORE, 0)]
    if not grouped:
        pairs.append((resource.RLIMIT_AS, limits.memory_mb * mib))
    pairs += [
        (resource.RLIMIT_CPU, limits.cpu_s),
        (resource.RLIMIT_FSIZE, limits.file_mb * mib),
        (resource.RLIMIT_NOFILE, limits.open_files),
    ]
    if limits.processes:
        pairs.append((resource.RLIMIT_NPROC, limits.processes))
    return pairs


def raise_open_files_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit; return the limit.

    Each bot process costs the referee about four descriptors (three pipes and a pidfd): a
    large field at a high ``jobs`` needs more than the usual soft limit of 1024.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


_PLACES: list[cgroup.Place | None] = []  # where this process makes control groups, once known


# a fair clock lets a bot read what it is sent between its turns (a game's start, its end,
# a substituted move): it becomes restless, and is frozen after each answer, once it used
# more CPU than this plus this share of the time between its answer and its next question
REST_CPU_S = 0.005
REST_SHARE = 0.02
REST_CHECK_S = 0.02  # the mean time between two such reads of a bot's CPU time
SANDBOX_PROCESSES = 2  # bubblewrap and the init of its pid namespace, in the bot's group


def control_groups() -> cgroup.Place | None:
    """Where this referee makes its bots' control groups, looked for once per process;
    None where it may make none (said once on stderr, as the sandbox's fallback is)."""
    if not _PLACES:
        found = cgroup.find()
        if isinstance(found, str):
            sys.stderr.write(
                f"arena: warning: no control group per bot ({found}): memory_mb limits each "
                "process's address space alone, and a bot is stopped outside its turn only "
                "through its process group\n"
            )
        _PLACES.append(None if isinstance(found, str) else found)
    return _PLACES[0]


def _command(
    spec: BotSpec, mode: str, refused: int | None, group: cgroup.Group | None = None
) -> list[str]:
    """The bot's command, under the sandbox if ``mode`` says so (``refused``: the descriptor
    of :func:`sandbox.refusals`), under its keeper, which makes its control ``group``."""
    argv = spec.argv()
    if mode == "bwrap":
        # of the folders on PYTHONPATH only the packages a Python bot imports from there
        # (the SDK, its own -m package): not the rest of them, whatever else they hold
        shown = sandbox.python_packages(argv, os.getcwd())
        argv = sandbox.wrap(
            argv,
            disk_mb=spec.limits.disk_mb,
            packages=shown,
            hidden=spec.hidden,
            refused=refused,
        )
    pairs = _resource_limits(spec.limits, grouped=group is not None)
    limits = ",".join(f"{which}:{value}" for which, value in pairs)
    made = group.spec() if group is not None else ""
    return [sys.executable, "-I", "-S", "-c", _KEEPER, _KEEPER_FOLDER, limits, made, "--", *argv]


# The keeper is imported, not run as a script: Python compiles a script on every start, and a
# module once (its cached bytecode; -I ignores PYTHONDONTWRITEBYTECODE). About 5 ms a start.
_KEEPER = "import sys; sys.path.insert(0, sys.argv.pop(1)); import keeper; keeper.main(sys.argv)"
_KEEPER_FOLDER = os.path.dirname(keeper.__file__)


def folder_bytes(folder: Path) -> int:
    """Bytes of the files under ``folder`` (what a bot without the sandbox wrote there)."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_blocks * 512
    return total


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
    seeds: set[int] = field(default_factory=set)  # of the games it played: never dealt again
    hello_lines: tuple[bytes, bytes] = (b"", b"")  # the handshake as sent and answered
    transcript: list[tuple[str, bytes]] | None = None  # ("to"|"from", line) while recording
    ending: str = ""  # how the process ended, once it has
    workdir: Path | None = None  # its folder on the host, when it runs without the sandbox
    group: cgroup.Group | None = None  # its control group, where the referee may make one
    fair: bool = False  # no computing outside its turns (the league's ponder = false)
    frozen: bool = False
    restless: bool = False  # used CPU outside its turns: frozen after each answer from now on
    _rested_at: tuple[int, float] | None = None  # (group CPU µs, time) at its last answer
    _next_check: float = 0.0  # when its CPU time is next read after an answer
    spin_s: float = 0.0  # poll this long for a quick answer before parking (see ask)
    _closed: trio.Event = field(default_factory=trio.Event)
    _latency_s: float = 0.0  # running mean of answer times, while polled for
    _asked_at: float = 0.0
    _unyielded: int = 0  # answers taken by polling since the last checkpoint

    async def exit_words(self) -> str:
        """How the process ended, for a crash's message ("killed by SIGSEGV", "exit status
        0"), waiting a moment for it (its output closed: the exit follows); "" while it
        lives on (it closed its output only)."""
        code = await _exit_code(self.process)
        if code is None:
            return ""
        return _exit_status(code, sandboxed=self.workdir is None)

    async def send(self, message: bytes, deadline: float | None = None) -> None:
        """Send a line; the bot must take it by ``deadline`` (default: within move_ms).

        A line the pipe can take at once goes straight in, without a trip through trio's
        scheduler; only a full pipe is waited on.
        """
        rest = self._write_now(message)
        if not rest:
            return
        if deadline is None:
            deadline = trio.current_time() + self.limits.move_ms / 1000
        frozen = self.frozen  # a full pipe: a frozen bot may read it, for this line only
        self.thaw()
        with trio.CancelScope(deadline=deadline):
            await self._write_rest(rest)
            if frozen:
                self.freeze()
            return
        self.broken = True  # the deadline passed: the scope caught its own cancellation
        raise BotTimeout("did not read its input within the time limit")

    async def read_line(self, deadline: float) -> bytes:
        """The next line from the bot, by ``deadline`` (trio clock) or :class:`BotTimeout`."""
        self.thaw()
        line = await self._finish(memoryview(b""), deadline)
        if self.fair:
            self._rest()
        return line

    async def ask(self, message: bytes, deadline: float) -> bytes:
        """Send ``message`` and return the next line; both must happen by ``deadline``.

        This is the referee's hot path. The question goes straight to the pipe
        (``FdStream.send_all`` would first yield to the scheduler). A process whose
        ``spin_s`` is set and whose recent answers came within it is then polled for its
        answer (:meth:`_spin`) before the task parks in trio: for a quick bot the exchange
        costs neither a scheduler round nor a cancel scope, and the referee's core never
        falls idle and has to be woken. Otherwise one cancel scope covers the rest of the
        question, if the pipe was full, and the answer; the wait is the one checkpoint.
        """
        if self.frozen:
            self.thaw()
        elif self._rested_at is not None:
            self._check_rest()
        self._asked_at = time.perf_counter()
        rest = self._write_now(message)
        if (
            not rest
            and self.spin_s > 0.0
            and self._latency_s < self.spin_s
            and (line := self._spin(deadline)) is not None
        ):
            if self.fair:
                self._rest()
            self._unyielded += 1
            if self._unyielded >= _SPIN_YIELD_EVERY:
                self._unyielded = 0
                await trio.lowlevel.checkpoint()
            return line
        line = await self._finish(rest, deadline)
        if self.fair:
            self._rest()
        return line

    def _rest(self) -> None:
        """After an answer, with a fair clock: freeze the bot, or, where its group tells its
        CPU time, note it, and freeze it only once it has used CPU outside its turns
        (:meth:`_check_rest`). A bot waiting for its next question uses none, and freezing
        it costs two wake-ups per turn (the freezer wakes a sleeping process to stop it).
        The CPU time is read after answers picked at random, about one per
        :data:`REST_CHECK_S` of the bot's (a bot cannot tell which: computing outside its
        turns for longer than a few of them is found)."""
        group = self.group
        if self.restless or group is None or not group.counts_cpu:
            self.freeze()
            return
        now = time.perf_counter()
        if now >= self._next_check:  # reading a group's CPU time costs about 50 µs
            self._next_check = now + random.uniform(0.0, 2 * REST_CHECK_S)
            self._rested_at = (group.cpu_us(), now)

    def _check_rest(self) -> None:
        """Before a question: did the bot compute since its last answer? More than
        :data:`REST_CPU_S` plus :data:`REST_SHARE` of the time between, and it is
        restless: frozen after each answer from now on."""
        assert self.group is not None and self._rested_at is not None
        used_us, answered = self._rested_at
        self._rested_at = None
        between = time.perf_counter() - answered
        now_us = self.group.cpu_us()
        if used_us < 0 or now_us < 0:  # not read (no descriptor to spare): no judgement
            return
        used = (now_us - used_us) / 1e6
        if used > REST_CPU_S + REST_SHARE * between:
            self.restless = True

    def freeze(self) -> None:
        """Stop every process of the bot until :meth:`thaw`: its control group's freezer,
        else a SIGSTOP to its process group (which a child in a session of its own leaves)."""
        if self.frozen:
            return
        group = self.group
        if group is not None and group.freezer:
            group.freeze()
            self.frozen = group.frozen
            return
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGSTOP)
            self.frozen = True

    def thaw(self) -> None:
        if not self.frozen:
            return
        self.frozen = False
        group = self.group
        if group is not None and group.freezer:
            group.thaw()
            return
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGCONT)

    def _write_now(self, message: bytes) -> memoryview:
        """Write what the pipe takes of ``message`` without waiting; the rest (empty: all of
        it went; all of it when the pipe is full or the stream is not a pipe)."""
        if self.transcript is not None:
            self.transcript.append(("to", message))
        stdin = self.process.stdin
        if not isinstance(stdin, trio.lowlevel.FdStream):
            return memoryview(message)
        try:
            written = os.write(stdin.fileno(), message)
        except BlockingIOError:
            written = 0
        except OSError:
            self.broken = True
            raise BotCrash("stopped reading its input (the process exited?)") from None
        return memoryview(message)[written:]

    async def _finish(self, rest: memoryview, deadline: float) -> bytes:
        """Write the ``rest`` of a question and wait for its answer, by ``deadline``."""
        # a bare scope, not trio.fail_at: its generator-based context manager costs about
        # 7 µs more per question
        with trio.CancelScope(deadline=deadline):
            if rest:
                await self._write_rest(rest)
            line = await self._read()
            self._took(time.perf_counter() - self._asked_at)
            return line
        self.broken = True  # the deadline passed: the scope caught its own cancellation
        raise BotTimeout("no answer within the time limit")

    def _spin(self, deadline: float) -> bytes | None:
        """Poll for the answer to the question just written, for at most ``spin_s`` (never
        past ``deadline``); None if it did not come.

        Between polls the CPU is offered to any other runnable thread. When that offer is
        taken (the yield comes back late) the machine is short of cores and sleeping is the
        better wait: polling stops, and the next few questions are waited on (until the
        running mean of answer times falls back under ``spin_s``: four quick answers).
        """
        limit = self._asked_at + min(self.spin_s, deadline - trio.current_time())
        reader = self.reader
        while (line := self._line_now(reader)) is None:
            now = time.perf_counter()
            if now >= limit:
                return None
            os.sched_yield()
            if time.perf_counter() - now > _CONTENDED_YIELD_S:
                self._latency_s = 2 * self.spin_s
                return None
        self._took(time.perf_counter() - self._asked_at)
        if self.transcript is not None:
            self.transcript.append(("from", line))
        return line

    def _took(self, seconds: float) -> None:
        """Keep the running mean of answer times that decides whether to poll next time."""
        self._latency_s = 0.8 * self._latency_s + 0.2 * seconds

    def _line_now(self, reader: LineReader) -> bytes | None:
        try:
            return reader.line_now()
        except BotFault:
            self.broken = True
            raise

    async def _write_rest(self, message: memoryview) -> None:
        """Write what :meth:`_write_now` left, waiting while the pipe is full."""
        stdin = self.process.stdin
        try:
            assert stdin is not None
            if isinstance(stdin, trio.lowlevel.FdStream):
                await _write_fd(stdin.fileno(), message)
            else:
                await stdin.send_all(message)
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

    def check_disk(self) -> None:
        """Without the sandbox: :class:`BotCrash` if its folder outgrew ``disk_mb`` (checked
        between games; under the sandbox its private ``/tmp`` cannot grow past it)."""
        if self.workdir is None:
            return
        used = folder_bytes(self.workdir)
        if used > self.limits.disk_mb << 20:
            self.broken = True
            raise BotCrash(
                f"wrote {used / (1 << 20):.1f} MB into its folder, over disk_mb = "
                f"{self.limits.disk_mb} (the process is ended and its folder removed)"
            )

    def check_memory(self) -> None:
        """:class:`BotMemory` if the kernel killed a process of its control group for using
        more than ``memory_mb`` (a child, say, while the bot played on): checked after each
        game, which it is charged with; the process is not reused."""
        if self.group is not None and self.group.memory_kills():
            self.broken = True
            raise BotMemory(
                f"a process of the bot was killed for using more than {self.limits.memory_mb} "
                "MB (all its processes together)"
            )

    def exit_code(self) -> int | None:
        return self.process.returncode

    def memory_killed(self) -> bool:
        """Whether it ended because the kernel killed a process of its control group for
        using more than ``memory_mb`` (its keeper says so by its exit status)."""
        return self.group is not None and self.process.returncode == keeper.MEMORY_KILLED


async def _drain(stream: trio.abc.ReceiveStream, log: StderrLog, tail: bytearray) -> None:
    """Copy stderr to the log, keeping its last bytes (where the keeper reports)."""
    while chunk := await stream.receive_some(_CHUNK):
        log.write(chunk)
        tail += chunk
        del tail[: -len(keeper.LEFT_BEHIND) - 32]


_KEEPER_GRACE_S = 5.0  # the keeper ends the bot's processes at once; this only bounds a wait


async def _shutdown(process: trio.Process, bye_ms: int, polite: bool) -> tuple[bool, bool]:
    """Say bye, give a grace period, then end everything and reap. Always completes.

    The keeper gets SIGTERM and kills every descendant of the bot, also those that left its
    process group; then the group is killed, in case the keeper itself was killed. Returns
    whether the process had exited by itself, and whether the group kill found any process.
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
        if not exited:
            process.send_signal(signal.SIGTERM)
            with trio.move_on_after(_KEEPER_GRACE_S):
                await process.wait()
        try:
            os.killpg(process.pid, signal.SIGKILL)  # also any process left in the group
            left_behind = True
        except (ProcessLookupError, PermissionError):
            left_behind = False
        await process.wait()
    return exited, left_behind


def _ending(polite: bool, exited: bool, left_behind: bool, bye_ms: int) -> str:
    """How a process ended, in words (see :data:`ENDED_CLEANLY`)."""
    if not polite:
        return "ended by the referee after a fault"
    if not exited:
        return f"did not exit within bye_ms = {bye_ms} ms after 'bye' and was killed"
    if left_behind:
        return "exited after 'bye' but left processes running in its group (killed)"
    return ENDED_CLEANLY


ENDED_CLEANLY = "exited after 'bye'"


async def _startup_problem(
    process: trio.Process, fault: BotFault, limits: Limits, tail: bytearray
) -> str:
    """A plain sentence for a failed handshake, naming the exit status when it exited."""
    if isinstance(fault, BotCrash) and (code := await _exit_code(process)) is not None:
        if code in (keeper.EXEC_FAILED, keeper.NO_GROUP) and b"arena: cannot " in tail:
            said = bytes(tail[tail.rfind(b"arena: cannot ") + 7 :]).decode(errors="replace")
            return protocol.visible(said.strip())  # the keeper's words, or the bot's own
        if code == keeper.MEMORY_KILLED:
            return f"killed before answering 'hello' for using more than {limits.memory_mb} MB"
        return f"exited before answering 'hello' ({_exit_status(code)})"
    if isinstance(fault, BotTimeout):
        return f"no 'ready' within startup_ms = {limits.startup_ms} ms"
    return f"no valid 'ready' ({fault.verdict}: {fault})"


async def _exit_code(process: trio.Process) -> int | None:
    """The exit status of a process whose output closed (the exit follows shortly), or None
    if it lives on past half a second (it closed its output only)."""
    with trio.move_on_after(0.5):
        await process.wait()
    return process.returncode


def _exit_status(code: int, *, sandboxed: bool = False) -> str:
    """An exit status in words. In the sandbox a death by signal N reaches the referee as
    status 128 + N (bubblewrap passes its child's status on), so there it is named too."""
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    if sandboxed and code > 128:
        try:
            return f"exit status {code}: killed by {signal.Signals(code - 128).name}"
        except ValueError:
            pass
    return f"exit status {code}"


def _missing_program(program: str) -> str:
    """Why ``program`` cannot be executed ('' when it can), said before the keeper (and the
    sandbox) would only report an exit status."""
    if shutil.which(program) is not None:
        return ""
    if os.sep in program and os.path.exists(program):
        return os.strerror(errno.EACCES)
    return os.strerror(errno.ENOENT)


# the referee's own shortages when starting a process: never the bot's fault
_SHORTAGES = {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.EAGAIN}


def _shortage(spec: BotSpec, exc: OSError) -> ResourceShortage:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    code = errno.errorcode.get(exc.errno or 0, "?")
    return ResourceShortage(
        f"the referee could not start a process for bot {spec.name!r}: {exc.strerror} "
        f"({code}); allow it more (ulimit -n is {soft}; ulimit -u; memory) or lower --jobs"
    )


async def host_bot(
    spec: BotSpec,
    hello: bytes,
    workdir: Path,
    log: StderrLog,
    guard: Watchdog | None = None,
    live: set[BotProcess] | None = None,
    spin_s: float = 0.0,
    *,
    task_status: trio.TaskStatus[BotProcess | BotFault | ResourceShortage] = (
        trio.TASK_STATUS_IGNORED
    ),
) -> None:
    """Run one bot process for as long as it is wanted (``nursery.start`` this).

    Reports through ``task_status`` the handshaken :class:`BotProcess`, the
    :class:`BotFault` that prevented it, or the :class:`ResourceShortage` of the referee
    that did; in every case the process is gone and its folder removed when this returns.
    ``spin_s`` is the process's :attr:`BotProcess.spin_s` once it is ready.
    """
    limits = spec.limits
    missing = _missing_program(spec.argv()[0])
    if missing:
        task_status.started(BotStartup(f"cannot start {spec.argv()[0]!r}: {missing}"))
        return
    place = control_groups()
    group = None
    try:
        mode = sandbox.resolve(spec.sandbox)
        if place is not None:  # bubblewrap's own two processes are in the group too
            extra = SANDBOX_PROCESSES if mode == "bwrap" and limits.processes else 0
            group = place.group(limits.memory_mb, limits.processes + extra)
        workdir.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        refusing = sandbox.refusals(memory=group is None)
        with refusing if mode == "bwrap" else contextlib.nullcontext() as refused:
            process = await trio.lowlevel.open_process(
                _command(spec, mode, refused, group),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=str(workdir),
                env=bot_environment(sandbox.HOME if mode == "bwrap" else str(workdir)),
                start_new_session=True,
                pass_fds=() if refused is None else (refused,),
            )
    except OSError as exc:
        shutil.rmtree(workdir, ignore_errors=True)
        if exc.errno in _SHORTAGES:
            task_status.started(_shortage(spec, exc))
        else:
            task_status.started(BotStartup(f"cannot start {spec.argv()[0]!r}: {exc.strerror}"))
        return
    if guard is not None:
        guard.watch(process.pid)  # its process group id: it leads a new session
    assert process.stdout is not None and process.stderr is not None
    bot = BotProcess(spec, process, LineReader(process.stdout, limits.line_bytes), limits)
    bot.workdir = workdir if mode == "none" else None
    bot.group = group
    bot.fair = not spec.ponder
    polite = True
    tail = bytearray()
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_drain, process.stderr, log, tail)
            try:
                line = await bot.ask(hello, trio.current_time() + limits.startup_ms / 1000)
                bot.ready = protocol.check_ready(protocol.decode(line))
                bot.hello_lines = (hello, line)
            except BotFault as fault:
                polite = False
                startup = BotStartup(await _startup_problem(process, fault, limits, tail))
                task_status.started(startup)
                nursery.cancel_scope.cancel()
                return
            bot.startup_s = time.perf_counter() - started
            bot.spin_s = spin_s
            bot._latency_s = 0.0  # the handshake's time was start-up, not answering
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
        bot.fair = False  # awake for its bye and its end
        bot.thaw()
        exited, left_behind = await _shutdown(process, limits.bye_ms, polite)
        with trio.CancelScope(shield=True):
            with trio.move_on_after(0.5):  # the last of stderr, with the keeper's report
                await _drain(process.stderr, log, tail)
            await process.stdout.aclose()  # its descriptors back at once, not at collection
            await process.stderr.aclose()
            await trio.to_thread.run_sync(shutil.rmtree, workdir, True)
        if group is not None:
            group.close()  # the keeper removed it, unless it was killed
        left_behind = left_behind or keeper.LEFT_BEHIND in tail
        bot.ending = _ending(polite, exited, left_behind, limits.bye_ms)
        if guard is not None:
            guard.forget(process.pid)


ANSWER_SPIN_S = 0.001  # how long a table with a core to spare polls for a quick answer


def answer_spin(jobs: int) -> float:
    """How long a referee playing ``jobs`` games at once polls for each quick answer.

    Only a referee that plays one game at a time and has a second core (where the bot
    thinks) polls: its thread has nothing else to do while it waits, and a core that falls
    idle takes tens of microseconds to wake, more than a quick bot takes to answer. With
    more games at once the thread has other games' answers to handle, so it parks at once.
    """
    return ANSWER_SPIN_S if jobs == 1 and cores() >= 2 else 0.0


IDLE_MEMORY = 64 << 20  # bytes of free memory set aside for each idle bot process


def idle_cap() -> int:
    """How many idle bot processes a referee keeps: what its descriptors and the machine's
    free memory allow.

    Each costs about four descriptors; a quarter of the limit is left to them, the rest to
    running games, results and logs. Each holds its memory too (a Python bot 10-30 MB), and
    a league keeps one process of a bot per game it plays at a seed (a process never plays
    one seed twice): a large field would fill the memory. So at most one per
    :data:`IDLE_MEMORY` of what is free when the league starts; beyond the cap the least
    recently used is ended, and a later game of its bot starts a new one.
    """
    return max(4, min(raise_open_files_limit() // 16, _free_memory() // IDLE_MEMORY))


def _free_memory() -> int:
    """The memory available for new processes (``MemAvailable``), or a generous guess where
    ``/proc/meminfo`` does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) << 10
    except (OSError, ValueError):
        pass
    return 1 << 40


class IdleProcesses:
    """The idle processes of all pools of one referee, least recently used first.

    Beyond ``cap`` the least recently used one is closed, so a field of many bots at a high
    ``jobs`` keeps a bounded number of processes and descriptors.
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._order: OrderedDict[BotProcess, list[BotProcess]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._order)

    def put(self, bot: BotProcess, shelf: list[BotProcess]) -> None:
        """Keep ``bot`` on its pool's ``shelf``, closing the oldest idle one if over the cap."""
        shelf.append(bot)
        self._order[bot] = shelf
        while len(self._order) > self.cap:
            oldest, its_shelf = self._order.popitem(last=False)
            its_shelf.remove(oldest)
            oldest.close()

    def take(self, shelf: list[BotProcess], seed: int | None = None) -> BotProcess | None:
        """The most recently idle process of a pool's ``shelf`` that has not played a game
        of ``seed`` (any, for None), if any."""
        for index in range(len(shelf) - 1, -1, -1):
            if seed is None or seed not in shelf[index].seeds:
                bot = shelf.pop(index)
                del self._order[bot]
                return bot
        return None

    def drop(self, shelf: list[BotProcess]) -> None:
        """Close every process of ``shelf`` (a pool being closed)."""
        for bot in shelf:
            self._order.pop(bot, None)
            bot.close()
        shelf.clear()

    def shed(self) -> None:
        """Close every idle process: the referee is short of descriptors or memory."""
        for bot, shelf in self._order.items():
            shelf.remove(bot)
            bot.close()
        self._order.clear()


_SHARED_IDLE: trio.lowlevel.RunVar[IdleProcesses] = trio.lowlevel.RunVar("arena_idle")


def shared_idle() -> IdleProcesses:
    """The idle processes of this trio run (every pool of a league shares them)."""
    try:
        return _SHARED_IDLE.get()
    except LookupError:
        idle = IdleProcesses(idle_cap())
        _SHARED_IDLE.set(idle)
        return idle


_START_TRIES = 7  # a referee short of resources retries after 0.2 s, 0.4 s ... 6.4 s


class BotPool:
    """Processes of one bot, reused game after game; broken ones are replaced.

    A process never plays two games of one seed: it would be dealt the same deal again,
    which a rotation block plays under every seating (and every table of its size in that
    block), and know what the others hold from the seat it held before. So a league needs
    at least one process of a bot per seat it has at a seed, not one.

    Starts run in the host's nursery, not in the game that asked: a game waiting for a
    process takes whichever fitting one comes first, a process another game gives back or
    a fresh one, and a start nobody waits for any more leaves an idle process for a later
    game. :meth:`warm` starts processes before any game asks. Start-up is not charged to
    any game's clock (see docs/robustness.md, "Time rules"); ``startup_ms`` bounds it.
    """

    def __init__(
        self,
        spec: BotSpec,
        hello: bytes,
        workroot: Path,
        log: StderrLog,
        nursery: trio.Nursery,
        guard: Watchdog | None = None,
        idle: IdleProcesses | None = None,
        spin_s: float = 0.0,
    ) -> None:
        self.spec = spec
        self.spin_s = spin_s
        self._hello = hello
        self._workroot = workroot
        self.log = log
        self._nursery = nursery
        self._guard = guard
        self._idle_all = idle if idle is not None else shared_idle()
        self._idle: list[BotProcess] = []
        self._live: set[BotProcess] = set()
        self._spawned = 0
        self._starts: set[trio.CancelScope] = set()  # one per start in flight
        self._waiting = 0  # games waiting in acquire
        self._faults: deque[BotFault | ResourceShortage] = deque()  # failed starts, undelivered
        self._changed = trio.Event()  # set when a start ends or a process comes back
        self._closed = False
        self.start_failures = 0
        self.last_failure: str = ""

    @property
    def disqualified(self) -> bool:
        """Failed to start ``max_start_failures`` times: no more attempts this league."""
        return self.start_failures >= self.spec.limits.max_start_failures

    def warm(self, count: int, seed: int | None = None) -> None:
        """Start processes in the background until this bot has ``count``, running or
        starting, that have not played a game of ``seed`` (a league starts what its next
        games will hold at once). A process playing a game of ``seed`` still counts: it
        adds the seed to those it played when it comes back (:meth:`release`)."""
        fit = sum(1 for bot in self._live if seed not in bot.seeds)
        for _ in range(count - fit - len(self._starts)):
            if not self._may_start():
                return
            self._start_soon()

    async def acquire(self, seed: int | None = None) -> BotProcess:
        """An idle process that has not played a game of ``seed`` (None: for no game),
        else the first such to come: one given back or a fresh start.

        Raises the :class:`BotStartup` of a failed start (each failure goes to one game;
        ``max_start_failures`` disqualify, exactly, however many games ask at once; then
        :class:`BotDisqualified`) and :class:`~arena.errors.ResourceShortage` when the
        referee itself cannot start a process even after waiting (never counted against
        the bot).
        """
        self._waiting += 1
        try:
            while True:
                bot = self._idle_all.take(self._idle, seed)
                if bot is not None:
                    return bot
                if self._faults:
                    raise self._faults.popleft()
                if self.disqualified:
                    raise BotDisqualified(f"disqualified after {self.start_failures} failed starts")
                if len(self._starts) < self._waiting and self._may_start():
                    self._start_soon()
                await self._changed.wait()
        finally:
            self._waiting -= 1

    def _may_start(self) -> bool:
        """Another start cannot take the failures past the limit (one in flight may fail)."""
        limit = self.spec.limits.max_start_failures
        return not self._closed and self.start_failures + len(self._starts) < limit

    def _start_soon(self) -> None:
        scope = trio.CancelScope()
        self._starts.add(scope)
        self._nursery.start_soon(self._start_into_pool, scope)

    async def _start_into_pool(self, scope: trio.CancelScope) -> None:
        """One start in the background; its process goes to the idle shelf, its failure to
        the next game that asks (a shortage only to a game already waiting)."""
        outcome: BotProcess | BotFault | ResourceShortage | None = None
        try:
            with scope:
                outcome = await self._start()
        finally:
            self._starts.discard(scope)
        if isinstance(outcome, BotProcess):
            if self._closed:
                outcome.close()
            else:
                self._idle_all.put(outcome, self._idle)
        elif isinstance(outcome, BotFault):
            self.start_failures += 1
            self.last_failure = str(outcome)
            self._faults.append(outcome)
        elif isinstance(outcome, ResourceShortage) and self._waiting > len(self._faults):
            self._faults.append(outcome)
        self._wake()

    async def _start(self) -> BotProcess | BotFault | ResourceShortage:
        """One start, retried while the referee is short of descriptors, memory or pids."""
        for attempt in range(_START_TRIES):
            self._spawned += 1
            workdir = self._workroot / f"{_safe(self.spec.name)}-{self._spawned}"
            outcome = await self._nursery.start(
                host_bot,
                self.spec,
                self._hello,
                workdir,
                self.log,
                self._guard,
                self._live,
                self.spin_s,
            )
            if not isinstance(outcome, ResourceShortage) or attempt + 1 == _START_TRIES:
                break
            self._idle_all.shed()  # their descriptors come back as they end
            await trio.sleep(0.2 * 2**attempt)
        return outcome

    def _wake(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def release(self, bot: BotProcess, seed: int | None = None) -> None:
        """Give a process back after a game of ``seed`` (None: it played none), never to be
        seated at that seed again; a broken or exited one is ended instead."""
        if seed is not None:
            bot.seeds.add(seed)
        if bot.broken or bot.exit_code() is not None or bot.reader.pending() or self._closed:
            bot.close()
        else:
            self._idle_all.put(bot, self._idle)
            self._wake()

    def close_all(self) -> None:
        """End every process of this bot, idle, busy or starting: call it when no game runs
        any more."""
        self._closed = True
        for scope in self._starts:
            scope.cancel()
        for bot in self._live:
            bot.close()
        self._idle_all.drop(self._idle)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
