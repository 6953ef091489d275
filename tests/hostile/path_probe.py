"""Hostile bot: before ``ready`` looks at every folder on its ``PYTHONPATH`` (the referee's
own entries are passed on to it): lists each and reads each file ``secret.txt`` in it. Says
on stderr ``path: <folder> lists=<names|errno name>`` and ``path: <file>=<text|errno
name>``; then plays well."""

import errno
import os
import sys

from _common import serve


def probe(message: object) -> None:
    lines = []
    for folder in filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep)):
        try:
            names = ",".join(sorted(os.listdir(folder))) or "-"
        except OSError as exc:
            names = errno.errorcode.get(exc.errno or 0, str(exc))
        lines.append(f"path: {folder} lists={names}")
        secret = os.path.join(folder, "secret.txt")
        try:
            with open(secret) as handle:
                said = handle.read().strip()
        except OSError as exc:
            said = errno.errorcode.get(exc.errno or 0, str(exc))
        lines.append(f"path: {secret}={said}")
    sys.stderr.write("\n".join(lines) + "\n")
    sys.stderr.flush()


serve(on_hello=probe)
