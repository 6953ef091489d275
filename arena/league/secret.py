"""The secret that bots' seeds are derived from, kept in the results folder.

A bot is given a seed for its own randomness at the start of each game. Were it derived
from the game's seed alone (itself derived from the league's), a bot could search for the
league's seed that gives the seeds it saw, and with it deal every game itself: every hidden
card. So each results folder keeps a secret of 128 random bits (:data:`FILE`, readable by
its owner alone, hidden from sandboxed bots with the rest of the folder), made by the
folder's first run and used by every run on it; a bot's seed is an HMAC of the game's seed
and its seat under it (:func:`arena.game.spec.bot_seed`). Replays need no bot's seed (a
game is re-played from its own seed and moves), and ``replay-seat`` sends a bot the lines
its transcript holds, its seed among them: both stay exact.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from dataclasses import replace
from pathlib import Path

from arena.config import LeagueConfig
from arena.errors import ResultsError

FILE = "bot-seeds.key"
BITS = 128


def folder_key(folder: Path) -> bytes:
    """The folder's secret, made (and on disk) the first time it is asked for."""
    path = folder / FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read(path)
    except OSError as exc:
        raise ResultsError(f"{path}: cannot write: {exc.strerror}") from None
    key = new_key()
    try:
        os.write(fd, key.hex().encode() + b"\n")
        os.fsync(fd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            path.unlink()
        raise ResultsError(f"{path}: cannot write: {exc.strerror}") from None
    finally:
        os.close(fd)
    return key


def new_key() -> bytes:
    """A new secret: :data:`BITS` bits from the system's randomness."""
    return secrets.token_bytes(BITS // 8)


def _read(path: Path) -> bytes:
    try:
        key = bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError) as exc:
        raise ResultsError(
            f"{path}: not a secret of {BITS} bits ({exc}); the bots of this folder's games "
            "were seeded from it: restore it, or run with --fresh"
        ) from None
    if len(key) * 8 < BITS:
        raise ResultsError(f"{path}: not a secret of {BITS} bits; restore it or run with --fresh")
    return key


def keyed(config: LeagueConfig, folder: Path) -> LeagueConfig:
    """``config`` whose games seed their bots from ``folder``'s secret."""
    return replace(config, bot_key=folder_key(folder))
