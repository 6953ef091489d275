"""The bubblewrap sandbox a bot runs in, and what ``sandbox = "auto"`` turns into.

A sandboxed bot sees a minimal file system: the system's programs and libraries read-only
(``/usr`` and its ``/bin``, ``/lib`` links, a few files of ``/etc``: the dynamic linker's,
the time zone, the TLS certificates, never ``/etc/ssl/private``), the interpreter that runs
the arena, the bot's own folder and the Python packages it is started from (read-only), and
a private, size-bounded, writable ``/tmp`` that is its working directory, ``HOME`` and
``TMPDIR``. Nothing else of the host: no home folders, no other bots, no results folder
nor league file (covered where they lie inside a shown folder). It has its own pid, network
(no interface but its own loopback, which bubblewrap brings up), IPC and UTS namespaces
(its host name is ``arena``). When the referee runs as root the bot
runs as a user and group of its own (drawn for each process, so that ``processes`` counts
that process and its descendants alone) with one capability, to read (never write) whatever
is in its view, so that a bot folder only root may read still works, under a seccomp filter
(:mod:`arena.game.seccomp`) refusing the one call that would take that right past its view
(no filter for this machine: no capability either). Otherwise it runs as
the referee's user in a user namespace of its own, in which it cannot create another where
bubblewrap has ``--disable-userns`` (0.8 and later); a root referee's bot, in none, may
create one. ``docs/robustness.md`` lists it all.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import secrets
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from arena.config import python_module
from arena.errors import ConfigError
from arena.game import seccomp

# A root referee runs each bot process as a user of its own, drawn from the ids systemd's
# allocation (its UIDS-GIDS.md) leaves unused: no system account, regular user, dynamic
# service user or container range. Two processes share one only by chance (about n**2 / 2**29
# for n processes at once), and then only their process count: each has its own pid
# namespace and /tmp, and neither may write anything in view.
BOT_IDS = range(0x7000_0000, 0x7FFE_0000)
HOME = "/tmp"  # the bot's working directory, HOME and TMPDIR inside the sandbox
HOSTNAME = "arena"  # the machine's name inside the sandbox
_SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    # certificates and openssl.cnf (node reads it at start-up), never all of /etc/ssl: a root
    # referee's bot may read whatever is in view, and /etc/ssl/private holds private keys
    "/etc/ssl/certs",
    "/etc/ssl/openssl.cnf",
)
_warned: list[str] = []
_trials: list[subprocess.Popen[bytes]] = []  # a trial run begun by start_check, not yet read
_reason: list[str] = []  # unusable_reason's answer, once known
TRIAL_TIMEOUT_S = 30


def start_check() -> None:
    """Begin :func:`unusable_reason`'s trial run of bubblewrap now and return at once.

    ``arena run`` calls this as soon as it has read the league file: the trial (a sandbox
    around ``true``, 20-50 ms) then runs while the league's own code is imported, and the
    first :func:`unusable_reason` only reads its answer. Call :func:`unusable_reason` before
    the process ends, so that the trial is waited for.
    """
    if _trials or _reason or _missing_tool():
        return
    with contextlib.suppress(OSError):  # unusable_reason tries again and says why
        _trials.append(_start_trial())


def unusable_reason() -> str:
    """Empty when bubblewrap can sandbox a bot on this machine, else why it cannot."""
    if not _reason:
        _reason.append(_find_reason())
    return _reason[0]


def _find_reason() -> str:
    missing = _missing_tool()
    if missing:
        return missing
    try:
        trial = _trials.pop() if _trials else _start_trial()
    except OSError as exc:
        return f"bubblewrap does not run here ({exc})"
    try:
        _, said = trial.communicate(timeout=TRIAL_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        trial.kill()
        trial.communicate()
        return f"bubblewrap does not run here ({exc})"
    if trial.returncode != 0:
        lines = said.decode(errors="replace").strip().splitlines()
        return f"bubblewrap cannot create a sandbox here ({lines[-1] if lines else 'no message'})"
    return ""


def _missing_tool() -> str:
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed (apt-get install bubblewrap)"
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        return "setpriv (util-linux) is missing: a root referee needs it to drop root for each bot"
    return ""


def _start_trial() -> subprocess.Popen[bytes]:
    with refusals() as refused:  # a bubblewrap or kernel that cannot take it fails here
        return subprocess.Popen(
            wrap(["true"], disk_mb=1, packages=(), refused=refused),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            pass_fds=() if refused is None else (refused,),
        )


@contextlib.contextmanager
def refusals(memory: bool = False) -> Iterator[int | None]:
    """For one bubblewrap start: a descriptor from which it reads the seccomp filter of the
    calls a bot is refused (:mod:`arena.game.seccomp`; ``memory``: also those that make
    memory outside its processes, for a bot without a control group), closed on leaving
    (the child keeps its copy); None on a machine whose call numbers are not known here."""
    code = seccomp.program(memory=memory)
    if code is None:
        yield None
        return
    read, write = os.pipe()
    try:
        os.write(write, code)  # a few hundred bytes: far below a pipe's capacity
        os.close(write)
        yield read
    finally:
        os.close(read)


def resolve(requested: str) -> str:
    """``"bwrap"`` or ``"none"`` for a requested ``sandbox`` value.

    ``"auto"`` falls back to ``"none"`` with a warning (once per process) where bubblewrap
    cannot run; an explicit ``"bwrap"`` that cannot run is the organiser's error.
    """
    if requested == "none":
        return "none"
    reason = unusable_reason()
    if not reason:
        return "bwrap"
    if requested == "bwrap":
        raise ConfigError(f'sandbox = "bwrap": {reason}; or set sandbox = "none"')
    if not _warned:
        _warned.append(reason)
        sys.stderr.write(
            f"arena: warning: {reason}: bots run WITHOUT the sandbox (only process groups and "
            'resource limits confine them); set sandbox = "none" to silence this\n'
        )
    return "none"


def wrap(
    argv: list[str],
    *,
    disk_mb: int,
    packages: tuple[str, ...],
    hidden: tuple[str, ...] = (),
    refused: int | None = None,
) -> list[str]:
    """``argv`` inside the sandbox. ``packages``: folders to show read-only at their paths;
    ``hidden``: folders and files that stay out of view even inside a shown one (the league's
    results folder and its league file beside a bot's script; see :func:`_covers`);
    ``refused``: the descriptor of :func:`refusals`, inherited by bubblewrap (without one, a
    root referee's bot does not get the capability the filter makes safe)."""
    system: list[str] = ["--ro-bind", "/usr", "/usr"]
    for path in _SYSTEM_LINKS:
        if os.path.islink(path):
            system += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            system += ["--ro-bind", path, path]
    # each folder of /etc made first: bubblewrap would make a missing one root's alone (0700)
    for folder in sorted({str(Path(path).parent) for path in _ETC}):
        system += ["--perms", "0755", "--dir", folder]
    for path in _ETC:
        system += ["--ro-bind-try", path, path]
    shown = _shown(argv, packages)
    # /tmp is mounted before anything shown below it, parents before children
    early = [path for path in shown if not _below(path, HOME)]
    late = [path for path in shown if _below(path, HOME)]
    binds = [_binds(paths) for paths in (early, late)]
    covers = _covers(hidden, shown)
    namespaces = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
    namespaces += ["--hostname", HOSTNAME]  # else the new UTS namespace keeps the host's name
    namespaces.append("--unshare-cgroup-try")
    if refused is not None:
        namespaces += ["--seccomp", str(refused)]
    if os.geteuid() == 0:
        # root: no user namespace (it would map the bot back to root); drop to a user of its
        # own inside, keeping only the right to read what is in view (a bot's folder may be
        # root's own), and that only under the filter refusing open_by_handle_at, through
        # which the same right reads the whole file system behind any mount in view
        user = _bot_id()
        reads = refused is not None
        kept = ",+dac_read_search" if reads else ""
        command = [
            *_inode_cap(disk_mb),
            "setpriv",
            f"--reuid={user}",
            f"--regid={user}",
            "--clear-groups",
            f"--inh-caps=-all{kept}",
            *(["--ambient-caps=+dac_read_search"] if reads else []),
            f"--bounding-set=-all{kept}",
            "--",
            *argv,
        ]
        inodes = ["CAP_SYS_ADMIN"] if _inode_cap(disk_mb) else []  # dropped by setpriv
        for capability in ("CAP_SETUID", "CAP_SETGID", *inodes, *["CAP_DAC_READ_SEARCH"] * reads):
            namespaces += ["--cap-add", capability]
    else:
        command = argv
        namespaces.append("--unshare-user")
        if _can_disable_userns():
            namespaces.append("--disable-userns")
    return [
        "bwrap",
        *system,
        *binds[0],
        "--dev", "/dev",
        "--proc", "/proc",
        *(_proc_covers() if os.geteuid() == 0 else []),
        "--perms", "1777", "--size", str(disk_mb << 20), "--tmpfs", HOME,
        *binds[1],
        *covers,
        "--chdir", HOME,
        *namespaces,
        "--die-with-parent",
        "--",
        *command,
    ]  # fmt: skip


INODE_BYTES = 4096  # the private /tmp holds one file (or folder) per this many bytes of disk_mb


def inodes(disk_mb: int) -> int:
    """How many files and folders the private ``/tmp`` of ``disk_mb`` may hold."""
    return max(64, (disk_mb << 20) // INODE_BYTES)


def _inode_cap(disk_mb: int) -> list[str]:
    """For a root referee: the command prefix that caps the inodes of the bot's ``/tmp``
    (bubblewrap sets only its size), a remount run before ``setpriv`` drops the right to
    mount; nothing where ``sh`` or ``mount`` is missing."""
    shell, mount = shutil.which("sh"), shutil.which("mount")
    if shell is None or mount is None:
        return []
    remount = f'{mount} -o remount,nr_inodes={inodes(disk_mb)} {HOME} && exec "$@"'
    return [shell, "-c", remount, "arena"]


@functools.cache
def _proc_covers() -> list[str]:
    """Flags that keep out of view the files and folders of ``/proc`` an ordinary user may
    not read (``slabinfo``, ``timer_list``, ``vmallocinfo``, ``kpage*``, ``kmsg``, some of
    ``/proc/sys``): a root referee's bot reads whatever is in view (its one capability).
    A file is covered by the null device (which a bot cannot open: binds are ``nodev``), a
    folder by an empty one. Found once, on the host's ``/proc``."""
    flags: list[str] = []
    for top, folders, files in os.walk("/proc"):
        if top == "/proc":  # not the processes' folders: the sandbox has its own
            folders[:] = [name for name in folders if name in ("sys", "tty", "driver", "fs")]
        if top == "/proc/sys":  # nor its network's: its own namespace's, not the host's
            folders[:] = [name for name in folders if name != "net"]
        for name in sorted(folders):
            path = os.path.join(top, name)
            if _hidden_from_others(path):
                flags += ["--perms", "0555", "--tmpfs", path]
        folders[:] = [name for name in folders if not _hidden_from_others(os.path.join(top, name))]
        for name in sorted(files):
            path = os.path.join(top, name)
            if _hidden_from_others(path):
                flags += ["--ro-bind", "/dev/null", path]
    return flags


def _hidden_from_others(path: str) -> bool:
    """Whether a user who is neither its owner nor in its group may not read ``path``."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    if stat.S_ISLNK(mode):
        return False
    needed = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    return mode & needed != needed


@functools.cache
def _can_disable_userns() -> bool:
    """Whether this bubblewrap has ``--disable-userns`` (0.8 and later), asked once.

    Without it a bot in its own user namespace may create more inside (``unshare -Ur``),
    each giving it every capability there: new mounts and namespaces, and kernel code an
    unprivileged process does not otherwise reach. Older bubblewraps still run, without it.
    """
    try:
        said = subprocess.run(
            ["bwrap", "--help"],
            capture_output=True,
            text=True,
            timeout=TRIAL_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--disable-userns" in said.stdout


def _bot_id() -> int:
    """A user (and group) id for one bot process of a root referee, new at every start.

    The kernel counts ``processes`` (RLIMIT_NPROC) per user: were every bot one user, one bot
    that forks up to the limit would leave every other bot on the machine unable to start.
    Drawn from the system's randomness, which forked referees (Dask workers) do not share.
    """
    return BOT_IDS[secrets.randbelow(len(BOT_IDS))]


def _shown(argv: list[str], packages: tuple[str, ...]) -> list[str]:
    """The host paths a bot needs, outside ``/usr``: interpreter, program, its own folder
    (its script's), files named on its command line, packages."""
    wanted = {sys.prefix, sys.base_prefix, sys.exec_prefix, *packages}
    program = shutil.which(argv[0]) if argv else None
    if program is not None:
        wanted.add(str(Path(program).parent))
        wanted.add(str(Path(program).resolve().parent))
    # the bot's own folder: that of its script, the first file named by a full path; any
    # other file so named is shown alone (a folder named on the command line is not shown)
    named = [arg for arg in argv[1:] if os.path.isabs(arg) and os.path.isfile(arg)]
    if named:
        wanted.add(str(Path(named[0]).parent))
        wanted.update(named[1:])
    existing = {os.path.normpath(path) for path in wanted if path and os.path.exists(path)}
    # a folder inside another shown one is shown already; /usr is shown whole
    kept = [
        path
        for path in existing
        if not _below(path, "/usr")
        and not any(other != path and _below(path, other) for other in existing)
    ]
    return sorted(kept, key=lambda path: (path.count("/"), path))


def _covers(hidden: tuple[str, ...], shown: list[str]) -> list[str]:
    """What covers each of ``hidden`` that lies inside a ``shown`` folder, at its path in
    view (a folder is shown at the path it was named by, perhaps through a symbolic link):
    an empty folder in place of a folder; in place of a file, the null device, which a bot
    cannot open (a bind is mounted ``nodev``). One inside another hidden one is covered with
    it already."""
    paths = [os.path.realpath(path) for path in hidden]
    flags: list[str] = []
    for path in paths:
        if any(other != path and _below(path, other) for other in paths):
            continue
        for folder in shown:
            real = os.path.realpath(folder)
            if path == real or not _below(path, real):
                continue
            cover = folder + path[len(real) :]
            if os.path.isfile(path):
                flags += ["--ro-bind", "/dev/null", cover]
            else:
                flags += ["--perms", "0555", "--tmpfs", cover]
    return flags


def _binds(paths: list[str]) -> list[str]:
    """Read-only binds of ``paths``, each parent folder made first so nobody may pass it
    (bubblewrap would make them accessible to root only)."""
    made = {"/", HOME, "/usr"}
    flags: list[str] = []
    for path in paths:
        for parent in reversed(Path(path).parents):
            if str(parent) not in made:
                made.add(str(parent))
                flags += ["--perms", "0755", "--dir", str(parent)]
        flags += ["--ro-bind", path, path]
    return flags


def _below(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def python_packages(argv: list[str], cwd: str) -> tuple[str, ...]:
    """The Python package folders a bot may import: the one ``-m pkg.mod`` starts, and
    ``arena`` and ``engines`` (the SDK), from the working directory (first on the bot's
    ``PYTHONPATH``) and from wherever this interpreter finds them."""
    names = {"arena", "engines"}
    module = python_module(argv)
    if module is not None:
        names.add(module.split(".")[0])
    found = set()
    for name in names:
        for candidate in (Path(cwd) / name, Path(cwd) / f"{name}.py"):
            if candidate.exists():
                found.add(os.path.abspath(candidate))
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.submodule_search_locations:
            found.update(map(os.path.abspath, spec.submodule_search_locations))
        elif spec is not None and spec.origin and os.path.isabs(spec.origin):
            found.add(os.path.abspath(spec.origin))
    return tuple(sorted(found))
