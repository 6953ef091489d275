"""A control group per bot process: memory and processes limited and CPU time counted for
all its processes together, and a freezer that stops all of them outside the bot's turn.

The referee finds where it may make groups (:func:`place`, once per process) and names one
group per bot process (:meth:`Place.group`); the bot's keeper (:mod:`arena.game.keeper`)
makes it from the :meth:`Group.spec` it is given on its command line, moves the bot into
it between its ``fork`` and the bot's ``exec``, and removes it when everything of the bot
has ended. The referee freezes and thaws the group with one write to its freezer file
(:meth:`Group.freeze`, :meth:`Group.thaw`) and reads from it whether the kernel killed one
of the bot's processes for its memory (:meth:`Group.memory_kills`).

Where groups are made:

* cgroup v2 (one unified hierarchy) where its ``memory`` and ``pids`` controllers can be
  given to a group the referee may create: as root, ``<cgroup2 mount>/arena``; otherwise a
  delegated group (a systemd scope run with ``Delegate=yes``) holding the referee alone,
  which moves itself into a leaf ``referee-<pid>`` beside ``arena`` (the kernel gives
  controllers only to groups without processes of their own).
* cgroup v1 where the ``memory`` and ``pids`` controllers are mounted and writable, below
  the referee's own group of each: ``<its group>/arena``.

The freezer is cgroup v2's ``cgroup.freeze`` wherever a cgroup2 file system is mounted
(also beside v1 controllers: it needs no controller, and it costs about 1 µs a write),
else the v1 ``freezer`` controller (several hundred µs a freeze and thaw).

Each group is named ``<referee pid>-<n>``; a group whose referee is gone (killed with
SIGKILL) is removed by the next referee that looks (:func:`place`). Plain standard library:
the keeper runs under ``python -I -S``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time

PARENT = "arena"  # the folder of the arena's groups in each hierarchy
DEFAULT_PROCESSES = 256  # pids.max when a league leaves ``processes`` at 0 (threads count)
_V1_NEEDED = ("memory", "pids")


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """(root, mount point, file system type, super options) of each mounted cgroup."""
    found = []
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as info:
            for line in info:
                left, _, right = line.partition(" - ")
                fields, kind = left.split(), right.split()
                if len(fields) > 4 and len(kind) > 2 and kind[0] in ("cgroup", "cgroup2"):
                    point = fields[4].replace("\\040", " ")
                    found.append((fields[3], point, kind[0], set(kind[2].split(","))))
    except OSError:
        pass
    return found


def _own_groups() -> dict[str, str]:
    """This process's group in each hierarchy: by v1 controller, and ``""`` for cgroup v2."""
    own: dict[str, str] = {}
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as groups:
            for line in groups:
                number, controllers, path = line.rstrip("\n").split(":", 2)
                if number == "0" and not controllers:
                    own[""] = path
                for controller in controllers.split(","):
                    if controller:
                        own[controller] = path
    except (OSError, ValueError):
        pass
    return own


def _folder(root: str, point: str, path: str) -> str | None:
    """The folder of group ``path`` in a hierarchy mounted at ``point`` from ``root``."""
    if root != "/" and not (path == root or path.startswith(root.rstrip("/") + "/")):
        return None
    inside = path[len(root) :] if root != "/" else path
    return os.path.normpath(point + "/" + inside.lstrip("/"))


def _write(path: str, value: str | bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, value.encode() if isinstance(value, str) else value)
    finally:
        os.close(fd)


def _read(path: str) -> str:
    with open(path, encoding="ascii") as handle:
        return handle.read()


class Group:
    """One bot process's control group, as the referee holds it."""

    def __init__(
        self,
        folders: tuple[str, ...],
        writes: tuple[tuple[str, str], ...],
        freezer: str,
        memory: str,
    ) -> None:
        self.folders = folders  # made in this order, removed in the reverse
        self.writes = writes  # (file, value): the limits, written once the folders exist
        self.freezer = freezer  # cgroup.freeze (v2) or freezer.state (v1), or ""
        self.memory = memory  # the folder whose events count memory kills
        self._fd = -1  # the freezer file, open while the group is frozen
        self.frozen = False

    def spec(self) -> str:
        """The group as the keeper's command line carries it (see :func:`make`)."""
        writes = ":".join(f"{path}={value}" for path, value in self.writes)
        return "|".join((":".join(self.folders), writes, self.freezer, self.memory))

    def freeze(self) -> None:
        """Stop every process of the group (they stay stopped until :meth:`thaw`).

        The freezer file stays open while the group is frozen, so that the thaw needs no
        new descriptor (a referee short of them could not thaw the bot it asks next); an
        idle process that was never frozen holds none."""
        if not self.freezer or self.frozen:
            return
        try:
            self._fd = os.open(self.freezer, os.O_WRONLY | os.O_CLOEXEC)
            os.write(self._fd, _FROZEN[self._v2])
            self.frozen = True
        except OSError:  # the group is gone (its processes ended), or no descriptor left
            self._close_fd()

    def thaw(self) -> None:
        if not self.frozen:
            return
        self.frozen = False
        with contextlib.suppress(OSError):  # a group that is gone has nothing to thaw
            os.write(self._fd, _THAWED[self._v2])
        self._close_fd()

    def _close_fd(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    @property
    def _v2(self) -> bool:
        return self.freezer.endswith("cgroup.freeze")

    @property
    def counts_cpu(self) -> bool:
        """Whether :meth:`cpu_us` can tell (a cgroup v2 folder: ``cpu.stat`` is always
        there)."""
        return self._v2

    def cpu_us(self) -> int:
        """CPU time used so far by all the group's processes, in µs (-1 when it cannot
        tell: the group is gone, or the referee is short of descriptors)."""
        try:
            with open(self.freezer[: -len("cgroup.freeze")] + "cpu.stat", "rb") as stat:
                first = stat.readline()  # usage_usec <n>
        except OSError:
            return -1
        return int(first.split()[1]) if first.startswith(b"usage_usec ") else -1

    def memory_kills(self) -> int:
        """How many of the group's processes the kernel has killed for its memory so far."""
        return memory_kills(self.spec())

    def close(self) -> None:
        """Let go of the freezer file and remove the group (its keeper has, unless it was
        killed)."""
        self._close_fd()
        remove(self.folders)


_FROZEN = {True: b"1", False: b"FROZEN"}
_THAWED = {True: b"0", False: b"THAWED"}


class Place:
    """Where this referee makes its bots' groups: a parent folder in each hierarchy."""

    def __init__(self, limits: dict[str, str], version: int, freezer: str) -> None:
        self.limits = limits  # "memory", "pids" -> parent folder
        self.version = version  # of the limits' hierarchy
        self.freezer = freezer  # parent folder in the hierarchy that freezes, or ""
        self._made = 0

    def describe(self) -> str:
        how = "cgroup v2" if self.version == 2 else "cgroup v1"
        frozen = {"": "no freezer"}.get(self.freezer, "")
        if self.freezer:
            frozen = (
                "v2 freezer" if os.path.exists(self.freezer + "/cgroup.freeze") else "v1 freezer"
            )
        return f"{how} ({', '.join(sorted(self.limits))}; {frozen})"

    def group(self, memory_mb: int, processes: int) -> Group:
        """A new group (not made yet: its keeper makes it) with these limits."""
        self._made += 1
        name = f"{os.getpid()}-{self._made}"
        folders: list[str] = []
        writes: list[tuple[str, str]] = []
        memory = self.limits["memory"] + "/" + name
        for parent in dict.fromkeys(self.limits.values()):
            folders.append(parent + "/" + name)
        mem = memory_mb << 20
        pids = self.limits["pids"] + "/" + name
        if self.version == 2:
            writes += [
                (memory + "/memory.max", str(mem)),
                (memory + "/memory.swap.max?", "0"),
                (memory + "/memory.oom.group?", "1"),
                (pids + "/pids.max", str(processes or DEFAULT_PROCESSES)),
            ]
        else:
            writes += [
                (memory + "/memory.limit_in_bytes", str(mem)),
                (memory + "/memory.memsw.limit_in_bytes?", str(mem)),
                (pids + "/pids.max", str(processes or DEFAULT_PROCESSES)),
            ]
        freezer = ""
        if self.freezer:
            folder = self.freezer + "/" + name
            if folder not in folders:
                folders.append(folder)
            v2 = os.path.exists(self.freezer + "/cgroup.freeze")
            freezer = folder + ("/cgroup.freeze" if v2 else "/freezer.state")
        return Group(tuple(folders), tuple(writes), freezer, memory)


def make(spec: str) -> list[str]:
    """Make the group of a :meth:`Group.spec` (the keeper calls this); the folders to join.

    Raises OSError when a folder or a limit cannot be made (a limit file whose name ends in
    ``?`` is optional: it may be missing)."""
    folders, writes, _, _ = parse(spec)
    for folder in folders:
        os.mkdir(folder)
    for path, value in writes:
        optional = path.endswith("?")
        path = path.rstrip("?")
        if optional and not os.path.exists(path):
            continue
        _write(path, value)
    return folders


def memory_kills(spec: str) -> int:
    """How many processes of a spec's group the kernel killed for using more memory than
    the group may (read by the keeper before it removes the group)."""
    memory = parse(spec)[3]
    for name in ("memory.events", "memory.oom_control"):  # v2, v1
        try:
            text = _read(os.path.join(memory, name))
        except OSError:
            continue
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
    return 0


def join(folders: list[str]) -> None:
    """Move the calling process into the group (the keeper's child, before its exec)."""
    for folder in folders:
        _write(folder + "/cgroup.procs", "0")


def thaw(spec: str) -> None:
    """Thaw the group of a spec (the keeper, before it kills what is left: a process frozen
    by the v1 freezer does not die until it is thawed)."""
    freezer = parse(spec)[2]
    if freezer:
        with contextlib.suppress(OSError):
            _write(freezer, "0" if freezer.endswith("cgroup.freeze") else "THAWED")


def remove(folders: tuple[str, ...] | list[str], wait_s: float = 0.0) -> bool:
    """Remove the group's folders (each once empty); whether all are gone. A process killed
    a moment ago may still be leaving it: ``wait_s`` bounds how long that is waited for."""
    deadline = time.monotonic() + wait_s
    gone = True
    for folder in reversed(folders):
        while True:
            try:
                os.rmdir(folder)
                break
            except FileNotFoundError:
                break
            except OSError as exc:
                if exc.errno != errno.EBUSY or time.monotonic() >= deadline:
                    gone = False
                    break
                time.sleep(0.005)
    return gone


def parse(spec: str) -> tuple[list[str], list[tuple[str, str]], str, str]:
    """(folders, limit writes, freezer file, memory folder) of a :meth:`Group.spec`."""
    folders, writes, freezer, memory = spec.split("|")
    pairs = [item.rsplit("=", 1) for item in writes.split(":") if item]
    return [f for f in folders.split(":") if f], [(p, v) for p, v in pairs], freezer, memory


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale(parents: list[str]) -> int:
    """Remove the empty groups of referees that are gone (killed outright); how many."""
    removed = 0
    for parent in parents:
        try:
            names = os.listdir(parent)
        except OSError:
            continue
        for name in names:
            owner = name.removeprefix("referee-").split("-")[0]
            if not owner.isdigit() or _alive(int(owner)):
                continue
            try:
                os.rmdir(os.path.join(parent, name))
                removed += 1
            except OSError:
                pass  # still holds processes, or not ours to remove
    return removed


def _v1_place() -> Place | str:
    own = _own_groups()
    parents: dict[str, str] = {}
    for root, point, kind, options in _mounts():
        if kind != "cgroup":
            continue
        for controller in ("memory", "pids", "freezer"):
            if controller in options and controller in own and controller not in parents:
                folder = _folder(root, point, own[controller])
                if folder is not None:
                    parents[controller] = folder + "/" + PARENT
    missing = [c for c in _V1_NEEDED if c not in parents]
    if missing:
        return f"no cgroup v1 {' or '.join(missing)} controller is mounted"
    for parent in parents.values():
        try:
            os.makedirs(parent, exist_ok=True)
        except OSError as exc:
            return f"cannot make {parent} ({exc.strerror})"
        if not os.access(parent, os.W_OK):
            return f"may not create groups in {parent}"
    freezer = parents.pop("freezer", "")
    return Place(parents, 1, freezer)


def _v2_parent(point: str, own: str) -> str:
    """The parent folder for the arena's groups in a cgroup2 hierarchy, made ready; or
    why there is none (prefixed ``!``)."""
    wanted = "+memory +pids"
    if os.geteuid() == 0:
        top = point
    else:
        top = os.path.normpath(point + "/" + own.lstrip("/"))
        if not os.access(top + "/cgroup.procs", os.W_OK):
            return f"!may not create groups in {top} (not delegated to this user)"
        procs = _read(top + "/cgroup.procs").split()
        if procs and procs != [str(os.getpid())]:
            return f"!{top} holds other processes than the referee (give it a scope of its own)"
        if procs:  # the kernel gives controllers only to groups without processes
            leaf = f"{top}/referee-{os.getpid()}"
            os.makedirs(leaf, exist_ok=True)
            _write(leaf + "/cgroup.procs", "0")
    available = set(_read(top + "/cgroup.controllers").split())
    if not {"memory", "pids"} <= available:
        return f"!the memory and pids controllers are not available in {top}"
    _write(top + "/cgroup.subtree_control", wanted)
    parent = top + "/" + PARENT
    os.makedirs(parent, exist_ok=True)
    _write(parent + "/cgroup.subtree_control", wanted)
    return parent


def _unified() -> tuple[str, str] | None:
    """(mount point, this process's group) of the cgroup2 hierarchy, if one is mounted."""
    own = _own_groups().get("")
    for root, point, kind, _ in _mounts():
        if kind == "cgroup2" and own is not None:
            folder = _folder(root, point, "/")
            if folder is not None:
                return point, own
    return None


def _v2_freezer(unified: tuple[str, str]) -> str:
    """A parent folder for freezing in the cgroup2 hierarchy (no controller needed)."""
    point, own = unified
    top = point if os.geteuid() == 0 else os.path.normpath(point + "/" + own.lstrip("/"))
    parent = top + "/" + PARENT
    try:
        os.makedirs(parent, exist_ok=True)
    except OSError:
        return ""
    return parent if os.access(parent, os.W_OK) else ""


def find() -> Place | str:
    """Where this referee may make its bots' groups, or why it may not (removing on the way
    the groups of referees that are gone)."""
    unified = _unified()
    reason = ""
    place: Place | str = "no control group file system is mounted"
    if unified is not None and os.path.exists(unified[0] + "/cgroup.subtree_control"):
        try:
            parent = _v2_parent(*unified)
        except OSError as exc:
            parent = f"!cannot prepare cgroup v2 ({exc.strerror})"
        if not parent.startswith("!"):
            limits = {"memory": parent, "pids": parent}
            place = Place(limits, 2, parent)
        else:
            reason = parent[1:]
    if not isinstance(place, Place):
        place = _v1_place()
        if isinstance(place, Place) and unified is not None:
            place.freezer = _v2_freezer(unified) or place.freezer
        elif reason and isinstance(place, str):
            place = f"{reason}; {place}"
    if isinstance(place, Place):
        parents = list(place.limits.values()) + ([place.freezer] if place.freezer else [])
        remove_stale(list(dict.fromkeys(parents)))
        trial = place.group(64, 8)
        try:
            make(trial.spec())
        except OSError as exc:
            remove(trial.folders)
            return f"cannot make a control group ({exc.strerror}: {exc.filename})"
        remove(trial.folders)
    return place
