"""The system calls a sandboxed bot is refused, as a seccomp filter for bubblewrap.

A root referee's bot keeps one capability, ``CAP_DAC_READ_SEARCH``, to read what is in its
view whatever the files' permissions (:mod:`arena.game.sandbox`). The same capability lets
``open_by_handle_at(2)`` open any file of a file system by its handle, such as inode 2, the
root of the file system behind ``/usr``: outside every mount the sandbox made, the whole
host in view for reading. So the filter makes that call fail with ``EPERM``.

It also refuses a new user namespace (``unshare`` or ``clone`` with ``CLONE_NEWUSER``:
``EPERM``), in which a bot would hold every capability and reach kernel code an unprivileged
process does not (bubblewrap's ``--disable-userns`` cannot do this for a root referee's bot,
which runs in no user namespace). ``clone3`` passes its flags in memory, which a filter
cannot read, so it fails with ``ENOSYS``, as on a kernel without it: the C library then
starts threads and processes with ``clone``. The filter holds in the bot and in everything
it starts, and cannot be removed.

It refuses ``io_uring_setup`` (``EPERM``) too: the operations of an io_uring run in the
kernel without system calls a filter could see. And where the bot has no control group
(:mod:`arena.game.cgroup`) to count the memory it holds outside its processes, it refuses
the calls that make such memory (:data:`MEMORY_CALLS`: System V shared memory, message
queues and semaphores, POSIX message queues, ``memfd_create``; ``EPERM``).

The filter is classic BPF over ``struct seccomp_data`` (``nr`` at offset 0, ``arch`` at 4,
the low half of the first argument at 16 on these little-endian machines), written out here
rather than taken from libseccomp, which has no wheel. For each architecture a machine runs
code of (its own and its 32-bit compatible ones) it knows the calls' numbers; every other
call is allowed.
"""

from __future__ import annotations

import errno
import os
import struct
from typing import NamedTuple


class Calls(NamedTuple):
    """The numbers of the filtered calls on one architecture (its kernel's syscall table)."""

    open_by_handle_at: int
    unshare: int
    clone: int
    clone3: int


_X32_BIT = 0x40000000  # x86-64's x32 calls: the x86-64 number with this bit set
_X86_64_CALLS = Calls(open_by_handle_at=304, unshare=272, clone=56, clone3=435)
_GENERIC_CALLS = Calls(open_by_handle_at=265, unshare=97, clone=220, clone3=435)

# linux/audit.h AUDIT_ARCH_* -> the calls' numbers there (x86-64's hold its x32 calls too)
CALLS: dict[int, tuple[Calls, ...]] = {
    0xC000003E: (_X86_64_CALLS, Calls(*(_X32_BIT | n for n in _X86_64_CALLS))),  # x86-64
    0x40000003: (Calls(open_by_handle_at=342, unshare=310, clone=120, clone3=435),),  # i386
    0xC00000B7: (_GENERIC_CALLS,),  # AArch64
    0x40000028: (Calls(open_by_handle_at=371, unshare=337, clone=120, clone3=435),),  # Arm
    0xC00000F3: (_GENERIC_CALLS,),  # RISC-V 64
}

IO_URING_SETUP = 425  # the same number on every architecture (and x32's with its bit)

# what makes memory no process's address space holds: shmget, semget, msgget, mq_open,
# memfd_create (i386 also the old ipc multiplexer, 117), by architecture
MEMORY_CALLS: dict[int, tuple[int, ...]] = {
    0xC000003E: (29, 64, 68, 240, 319, *(_X32_BIT | n for n in (29, 64, 68, 240, 319))),
    0x40000003: (395, 393, 399, 277, 356, 117),  # i386
    0xC00000B7: (194, 190, 186, 180, 279),  # AArch64
    0x40000028: (307, 299, 303, 274, 385),  # Arm
    0xC00000F3: (194, 190, 186, 180, 279),  # RISC-V 64
}

# the architectures whose code each machine runs (``os.uname().machine``)
_RUNS: dict[str, tuple[int, ...]] = {
    "x86_64": (0xC000003E, 0x40000003),
    "aarch64": (0xC00000B7, 0x40000028),
    "riscv64": (0xC00000F3,),
}

CLONE_NEWUSER = 0x10000000

# linux/filter.h and linux/seccomp.h
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
_REFUSE = 0x00050000 | errno.EPERM  # SECCOMP_RET_ERRNO
_NO_SUCH_CALL = 0x00050000 | errno.ENOSYS

# the shared ends the tests jump to, after every architecture's block
_FLAGS, _NOSYS, _REFUSED = "flags", "nosys", "refused"


def program(machine: str | None = None, memory: bool = False) -> bytes | None:
    """The filter for ``machine`` (default: this one) as bubblewrap's ``--seccomp`` reads
    it, or None for a machine whose numbers are not known here; ``memory``: refuse the
    :data:`MEMORY_CALLS` too (the bot has no control group)."""
    archs = _RUNS.get(machine or os.uname().machine)
    if archs is None:
        return None
    # (code, jump if true, jump if false, k); a jump is a label (str) or a count to skip
    code: list[tuple[int, int | str, int | str, int]] = [(_LD_W_ABS, 0, 0, 4)]  # A = arch
    for arch in archs:
        tests: list[tuple[int, int | str, int | str, int]] = [(_LD_W_ABS, 0, 0, 0)]  # A = nr
        for calls in CALLS[arch]:
            tests.append((_JEQ_K, _REFUSED, 0, calls.open_by_handle_at))
            tests.append((_JEQ_K, _FLAGS, 0, calls.unshare))
            tests.append((_JEQ_K, _FLAGS, 0, calls.clone))
            tests.append((_JEQ_K, _NOSYS, 0, calls.clone3))
        x32 = arch == 0xC000003E
        for number in (IO_URING_SETUP, *([_X32_BIT | IO_URING_SETUP] * x32)):
            tests.append((_JEQ_K, _REFUSED, 0, number))
        for number in MEMORY_CALLS[arch] if memory else ():
            tests.append((_JEQ_K, _REFUSED, 0, number))
        tests.append((_RET_K, 0, 0, _ALLOW))
        code.append((_JEQ_K, 0, len(tests), arch))  # another architecture: skip this block
        code += tests
    code.append((_RET_K, 0, 0, _ALLOW))  # an architecture not named: nothing of ours runs
    ends = {_FLAGS: len(code), _NOSYS: len(code) + 3, _REFUSED: len(code) + 4}
    code += [
        (_LD_W_ABS, 0, 0, 16),  # A = the flags (unshare's and clone's first argument)
        (_JSET_K, 2, 0, CLONE_NEWUSER),  # to the refusal
        (_RET_K, 0, 0, _ALLOW),
        (_RET_K, 0, 0, _NO_SUCH_CALL),
        (_RET_K, 0, 0, _REFUSE),
    ]

    def offset(at: int, jump: int | str) -> int:
        return jump if isinstance(jump, int) else ends[jump] - at - 1

    return b"".join(
        struct.pack("=HBBI", op, offset(at, true), offset(at, false), k)
        for at, (op, true, false, k) in enumerate(code)
    )
