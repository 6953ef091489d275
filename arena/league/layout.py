"""The results folder's layout (contract)::

    results/<league>/
      league.toml      the resolved config that produced the games (tomli-w)
      games.jsonl      one line per finished game, appended, flushed and fsync'd as it ends
      standings.toml   written after a run; always recomputable from games.jsonl
      bots.toml        each bot with stored games: its command, own limits and fingerprint
      logs/<bot>.log   capped stderr per bot
      transcripts/<game>/seat<k>.jsonl   with --transcripts: every line each seat sent and got
      games.damaged.jsonl    lines of games.jsonl that were not (new) games, moved by a run
      games.replaced.jsonl   games of bots replayed with --replay-bot, moved by a run
      report.html      the HTML report (arena run, arena report)
      view-<game>.html a game's page (arena view)
      .lock            held while a run writes here

Reading it: :mod:`arena.league.reading` (the games), :mod:`arena.league.results` (a run's
writer, ``league.toml``), :mod:`arena.league.fingerprint` (``bots.toml``),
:mod:`arena.league.transcripts`; every file is written by :mod:`arena.league.atomic`'s means.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

GAMES = "games.jsonl"
LEAGUE = "league.toml"
STANDINGS = "standings.toml"
LOCK = ".lock"
TRANSCRIPTS = "transcripts"
PARTIAL_TRANSCRIPT = ".partial-"  # a transcript folder being written, beside its place
BOTS = "bots.toml"
DAMAGED = "games.damaged.jsonl"
REPLACED = "games.replaced.jsonl"
REPORT = "report.html"  # written by arena run / arena report
VIEW = "view-{game}.html"  # written by arena view


Warn = Callable[[str], None]


def bot_log(folder: Path, bot: str) -> Path:
    """Where the league in ``folder`` keeps what ``bot`` wrote to stderr (capped)."""
    return folder / "logs" / f"{bot}.log"
