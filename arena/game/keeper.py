"""The keeper: a small parent that starts one bot and makes sure nothing of it survives.

The referee never forks with ``preexec_fn`` (unsafe in a threaded process such as a Dask
worker). It starts this module instead, with a plain ``exec`` (imported from its folder
rather than run as a script, so that its bytecode is cached: ``arena.game.botproc``)::

    python -I -S -c '...; import keeper; keeper.main(sys.argv)' <its folder> \\
        '<resource limits>' '<control group>' -- <bot command...>

The limits are ``resource:value`` pairs joined by commas (``4:0,9:1048576``), each applied
as both soft and hard limit (plain text: the keeper starts without importing ``json``,
about 8 ms of CPU on every bot start). The control group is a
:meth:`arena.game.cgroup.Group.spec`, or empty for none: the keeper makes the group before
it forks, its child moves itself into it before the bot's ``exec``, and the keeper removes
it once every process of the bot has ended (thawing it first: the referee freezes it
outside the bot's turns). A group that cannot be made ends the start with
:data:`NO_GROUP` and a line on stderr; a bot that ended because the kernel killed a process
of its group for its memory makes the keeper exit with :data:`MEMORY_KILLED`.

The keeper marks itself a child subreaper (``PR_SET_CHILD_SUBREAPER``), so every orphaned
descendant of the bot, including one that called ``setsid()`` to leave the bot's process
group, is re-parented to the keeper rather than to init. It forks once: the child applies
the resource limits and executes the bot, keeping the keeper's session and process group and
inheriting stdin, stdout and stderr; the keeper itself lets go of stdin and stdout.

When the bot's own process exits, or the keeper gets SIGTERM, SIGHUP or SIGINT, the keeper
kills every descendant it has (killing one re-parents that one's children to the keeper, so
it repeats until none is left), then exits with the bot's status (or by the bot's signal),
saying :data:`LEFT_BEHIND` on stderr if the bot had exited by itself and left processes
running (after giving them 0.2 s to end by themselves). The bot's pipes close with the last
descendant: the referee sees end of file within moments of the bot exiting, whatever its
children did.

Plain standard library, no ``arena`` imports: it runs under ``python -I -S`` for a fast start
(``_signal`` rather than ``signal``, whose enums import the ``enum`` module).
"""

from __future__ import annotations

import _signal as signal
import ctypes
import os
import resource
import sys
import time

if __package__:  # imported as arena.game.keeper (the referee reads its constants)
    from arena.game import cgroup
else:  # started for a bot: the keeper's folder is on sys.path
    import cgroup  # type: ignore[no-redef]

PR_SET_CHILD_SUBREAPER = 36
ENDING = {signal.SIGTERM, signal.SIGHUP, signal.SIGINT}
EXEC_FAILED = 127
NO_GROUP = 125  # the bot's control group could not be made or joined
MEMORY_KILLED = 124  # the kernel killed the bot's process for its group's memory
# said on stderr (the bot's log) when the bot exited by itself and left processes running
LEFT_BEHIND = b"[arena: the bot exited but left processes running; the keeper killed them]\n"


def _set_limits(limits: list[list[int]]) -> None:
    for which, value in limits:
        _, hard = resource.getrlimit(which)
        ceiling = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (ceiling, ceiling))


def _children(me: int) -> list[int]:
    """Live processes whose parent is ``me``. The kernel lists a task's children in
    ``/proc/<pid>/task/<tid>/children`` (the keeper has one task); where it does not (the
    file is optional), every process is a candidate: a scan of /proc."""
    try:
        with open(f"/proc/{me}/task/{me}/children", "rb") as handle:
            candidates = handle.read().split()
    except OSError:
        candidates = [entry.encode() for entry in os.listdir("/proc") if entry.isdigit()]
    return [int(pid) for pid in candidates if _live_parent(pid) == me]


def _live_parent(pid: bytes) -> int | None:
    """The parent of process ``pid``; None once it has exited (a zombie) or is gone."""
    try:
        with open(b"/proc/%s/stat" % pid, "rb") as handle:
            stat = handle.read()
    except OSError:
        return None  # gone meanwhile
    # the command name is in parentheses and may itself contain ') '
    fields = stat[stat.rfind(b")") + 2 :].split()
    return None if fields[0] == b"Z" else int(fields[1])


def _reap() -> tuple[list[tuple[int, int]], bool]:
    """Every exited child (pid, status) collected without blocking; and whether any is left."""
    reaped: list[tuple[int, int]] = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return reaped, False
        if pid == 0:
            return reaped, True
        reaped.append((pid, status))


def _kill_descendants() -> int:
    """SIGKILL every child, reap, repeat: each round re-parents the next layer to us.

    Returns how many processes were killed.
    """
    me = os.getpid()
    killed = 0
    while True:
        for pid in _children(me):
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
        _, left = _reap()
        if not left:
            return killed
        # a child seen too late for this round (re-parented after the scan) is found in the
        # next one; the timeout covers a SIGCHLD that was already consumed
        signal.sigtimedwait({signal.SIGCHLD}, 0.05)


def _let_settle(seconds: float = 0.2) -> None:
    """Give what the bot left a moment to exit by itself (bubblewrap's own processes do)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        _, any_left = _reap()
        if not any_left:
            return
        signal.sigtimedwait({signal.SIGCHLD}, left)


def _exit_like(status: int | None) -> None:
    if status is None:
        os._exit(1)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {number})
        os.kill(os.getpid(), number)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def main(argv: list[str]) -> None:
    limits = [[int(n) for n in pair.split(":")] for pair in argv[1].split(",") if pair]
    group = argv[2]
    command = argv[4:]
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    watched = {signal.SIGCHLD, *ENDING}
    signal.pthread_sigmask(signal.SIG_BLOCK, watched)
    folders = _make_group(group) if group else []
    bot = os.fork()
    if bot == 0:
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, set())
            if folders:
                cgroup.join(folders)
            _set_limits(limits)
            os.execvp(command[0], command)
        except OSError as exc:
            os.write(2, f"arena: cannot start {command[0]!r}: {exc.strerror}\n".encode())
        os._exit(EXEC_FAILED)
    # let go of the bot's input and output: they must close with the bot's last process
    # (stderr stays open for the report below; the referee reads it to the end)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(null, fd)
    os.close(null)
    status = None
    while status is None:
        reaped, _ = _reap()
        status = next((code for pid, code in reaped if pid == bot), None)
        if status is None and signal.sigwaitinfo(watched).si_signo in ENDING:
            break
    if group:
        cgroup.thaw(group)  # a process frozen by the v1 freezer dies only once thawed
    if status is not None:
        _let_settle()
    if _kill_descendants() and status is not None:
        os.write(2, LEFT_BEHIND)
    if folders:
        if status is not None and cgroup.memory_kills(group):
            status = MEMORY_KILLED << 8  # told by the exit status: the group goes next
        cgroup.remove(folders, wait_s=1.0)
    _exit_like(status)


def _make_group(spec: str) -> list[str]:
    """Make the bot's control group; on failure say so and exit (nothing started yet)."""
    try:
        return cgroup.make(spec)
    except OSError as exc:
        cgroup.remove(cgroup.parse(spec)[0])
        os.write(2, f"arena: cannot make the bot's control group: {exc}\n".encode())
        os._exit(NO_GROUP)


if __name__ == "__main__":
    main(sys.argv)
