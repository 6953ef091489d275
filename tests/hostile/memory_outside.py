"""Hostile bot: at its first ``act`` holds memory outside its address space: ``--mb`` MB in
System V shared memory segments (each attached, filled and detached again: the segment
stays, and no address space holds it) and as much in ``memfd`` files written, never
mapped. Says on stderr ``outside: shm=<MB held|errno name> memfd=<MB held|errno name>
ids=<segment ids>``; then plays well, holding it all."""

import argparse
import ctypes
import errno
import os
import sys

from _common import Message, play_first, serve

IPC_PRIVATE, IPC_CREAT = 0, 0o1000
SEGMENT_MB = 16
parser = argparse.ArgumentParser()
parser.add_argument("--mb", type=int, default=160)
args, _marker = parser.parse_known_args()
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.shmdt.argtypes = [ctypes.c_void_p]
held: list[int] = []  # memfd descriptors, kept open


def fill_shm(ids: list[int]) -> str:
    for _ in range(args.mb // SEGMENT_MB):
        segment = libc.shmget(IPC_PRIVATE, SEGMENT_MB << 20, IPC_CREAT | 0o600)
        if segment < 0:
            return errno.errorcode[ctypes.get_errno()]
        ids.append(segment)
        address = libc.shmat(segment, None, 0)
        if address in (None, ctypes.c_void_p(-1).value):
            return errno.errorcode[ctypes.get_errno()]
        ctypes.memset(address, 1, SEGMENT_MB << 20)
        libc.shmdt(ctypes.c_void_p(address))
    return str(len(ids) * SEGMENT_MB)


def fill_memfd() -> str:
    chunk = b"\1" * (1 << 20)
    for _ in range(args.mb // SEGMENT_MB):
        try:
            fd = os.memfd_create("hold")
            for _ in range(SEGMENT_MB):
                os.write(fd, chunk)
        except OSError as exc:
            return errno.errorcode.get(exc.errno or 0, str(exc))
        held.append(fd)
    return str(len(held) * SEGMENT_MB)


def hold(message: Message, acts: int) -> Message:
    if acts > 1:
        return play_first(message, acts)
    ids: list[int] = []
    shm = fill_shm(ids)
    memfd = fill_memfd()
    sys.stderr.write(f"outside: shm={shm} memfd={memfd} ids={','.join(map(str, ids))}\n")
    sys.stderr.flush()
    return play_first(message, acts)


serve(hold)
