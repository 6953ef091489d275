"""Hostile bot: before ``ready`` creates empty files in its folder (no bytes: a size limit
alone never stops it) until the file system refuses, at most ``--most``, then plays well.
Says ``inodes: made=<n> refused=<why>`` on stderr and removes them again."""

import argparse
import os
import sys

from _common import serve

parser = argparse.ArgumentParser()
parser.add_argument("--most", type=int, default=20000)
args, _marker = parser.parse_known_args()


def fill(message: object) -> None:
    made, refused = 0, "never"
    while made < args.most:
        try:
            os.close(os.open(f"empty-{made}", os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError as exc:
            refused = exc.strerror or str(exc)
            break
        made += 1
    for number in range(made):
        os.unlink(f"empty-{number}")
    sys.stderr.write(f"inodes: made={made} refused={refused}\n")
    sys.stderr.flush()


serve(on_hello=fill)
