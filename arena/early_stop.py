"""A Ctrl-C while the ``arena`` command is still starting (importing its modules, before the
command runs and turns a Ctrl-C into its own stop line) ends it as any stopped command
ends: ``arena: stopped`` on stderr and exit status 130, no traceback.

``arena.cli`` imports this module before anything else; it imports nothing new itself, so
start-up is no slower.
"""

from __future__ import annotations

import os
import sys
from types import TracebackType

_STOPPED_EXIT = 130  # as arena.cli.STOPPED_EXIT, which is not imported yet when this is needed


def _stop_quietly(
    kind: type[BaseException], value: BaseException, traceback: TracebackType | None
) -> None:
    if not issubclass(kind, KeyboardInterrupt):
        _previous(kind, value, traceback)
        return
    sys.stderr.write("arena: stopped\n")
    sys.stderr.flush()
    os._exit(_STOPPED_EXIT)  # the interpreter would otherwise end itself by SIGINT


_previous = sys.excepthook
sys.excepthook = _stop_quietly
