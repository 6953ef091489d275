"""The system calls a sandboxed bot is refused, as a seccomp filter for bubblewrap.

A root referee's bot keeps one capability, ``CAP_DAC_READ_SEARCH``, to read what is in its
view whatever the files' permissions (:mod:`arena.game.sandbox`). The same capability lets
``open_by_handle_at(2)`` open any file of a file system by its handle, such as inode 2, the
root of the file system behind ``/usr``: outside every mount the sandbox made, the whole
host in view for reading. So the filter makes that call fail with ``EPERM``; the filter
holds in the bot and in everything it starts, and cannot be removed.

The filter is classic BPF over ``struct seccomp_data`` (``nr`` at offset 0, ``arch`` at
offset 4), written out here rather than taken from libseccomp, which has no wheel: for each
architecture a Linux machine of this kind may run code of (the native one and its 32-bit
compatible ones), the call's number there is refused; every other call is allowed.
"""

from __future__ import annotations

import errno
import os
import struct

# linux/audit.h: AUDIT_ARCH_* (the machine, 64-bit and little-endian flags)
_X86_64 = 0xC000003E
_I386 = 0x40000003
_AARCH64 = 0xC00000B7
_ARM = 0x40000028
_RISCV64 = 0xC00000F3
_X32_BIT = 0x40000000  # x86-64's x32 calls: the x86-64 number with this bit set

# open_by_handle_at's number on each architecture (its kernel's syscall table)
REFUSED: dict[int, tuple[int, ...]] = {
    _X86_64: (304, _X32_BIT | 304),
    _I386: (342,),
    _AARCH64: (265,),
    _ARM: (371,),
    _RISCV64: (265,),
}

# The architectures whose code each machine runs (``os.uname().machine``)
_RUNS: dict[str, tuple[int, ...]] = {
    "x86_64": (_X86_64, _I386),
    "aarch64": (_AARCH64, _ARM),
    "riscv64": (_RISCV64,),
}

# linux/filter.h and linux/seccomp.h
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
_REFUSE = 0x00050000 | errno.EPERM  # SECCOMP_RET_ERRNO with EPERM


def program(machine: str | None = None) -> bytes | None:
    """The filter for ``machine`` (default: this one) as bubblewrap's ``--seccomp`` reads
    it, or None for a machine whose numbers are not known here."""
    archs = _RUNS.get(machine or os.uname().machine)
    if archs is None:
        return None
    # Jumps only go forward: the refusal is the last instruction, and each architecture's
    # block (load the number, test each refused one, else allow) is skipped by its test.
    code: list[list[int]] = [[_LD_W_ABS, 0, 0, 4]]  # A = arch
    refusing: list[int] = []  # the tests that jump to the refusal
    for arch in archs:
        numbers = REFUSED[arch]
        code.append([_JEQ_K, 0, len(numbers) + 2, arch])  # not this one: to the next test
        code.append([_LD_W_ABS, 0, 0, 0])  # A = nr
        for number in numbers:
            refusing.append(len(code))
            code.append([_JEQ_K, 0, 0, number])
        code.append([_RET_K, 0, 0, _ALLOW])
    code.append([_RET_K, 0, 0, _ALLOW])  # an architecture not named: nothing of ours runs
    code.append([_RET_K, 0, 0, _REFUSE])
    for at in refusing:
        code[at][1] = len(code) - 1 - (at + 1)
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in code)
