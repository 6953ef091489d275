"""Hostile bot: before ``ready`` tries what a seccomp filter or file permissions should
refuse a bot: ``io_uring_setup`` (whose operations no filter sees), and reading the
``/proc`` files only root may read (a root referee's bot keeps the capability to read what
is in its view). Says on stderr ``reach: io_uring=<made|errno name>`` and, for each file,
``reach: <path>=<bytes read|errno name>``; then plays well."""

import ctypes
import errno
import os
import sys

from _common import serve

IO_URING_SETUP = 425
PROC = ("/proc/slabinfo", "/proc/timer_list", "/proc/vmallocinfo", "/proc/kpageflags")


def reach(message: object) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    params = ctypes.create_string_buffer(120)  # struct io_uring_params, zeroed
    ring = libc.syscall(IO_URING_SETUP, 4, params)
    said = "made" if ring >= 0 else errno.errorcode[ctypes.get_errno()]
    if ring >= 0:
        os.close(ring)
    lines = [f"reach: io_uring={said}"]
    for path in PROC:
        try:
            with open(path, "rb") as handle:
                lines.append(f"reach: {path}={len(handle.read(4096))}")
        except OSError as exc:
            lines.append(f"reach: {path}={errno.errorcode.get(exc.errno or 0, exc)}")
    sys.stderr.write("\n".join(lines) + "\n")
    sys.stderr.flush()


serve(on_hello=reach)
