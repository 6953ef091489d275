"""What a bot process starts with: its scrubbed environment and its ``PYTHONPATH``.

Free of trio, so that the league layer (fingerprints: which files a bot's code is) can ask
where a bot's Python looks without loading the referee.
"""

from __future__ import annotations

import os


def python_path() -> list[str]:
    """The bot's ``PYTHONPATH``: the arena's folder first, then the referee's own entries,
    each made absolute (a bot runs in a folder of its own, where ``.`` means another place;
    and the sandbox shows each entry at its full path)."""
    entries = filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))
    return [os.getcwd(), *map(os.path.abspath, entries)]


def bot_environment(home: str) -> dict[str, str]:
    """A scrubbed environment: only what a program needs to start.

    The folder the arena was started from is put on ``PYTHONPATH``, so ``python -m
    bots.<name>`` works from a checkout even though each bot runs in its own folder.
    """
    keep = ("PATH", "LANG", "LC_ALL", "TZ", "VIRTUAL_ENV", "SYSTEMROOT")
    env = {key: os.environ[key] for key in keep if key in os.environ}
    env["PYTHONPATH"] = os.pathsep.join(python_path())
    env["HOME"] = home
    env["TMPDIR"] = home
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env
