"""Ladder files: a league file (engine, players, options, limits, sandbox, house bots) plus a
``[ladder]`` table (``docs/ladder.md`` documents every key)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from arena import config as league_config
from arena.config import LeagueConfig
from arena.errors import ConfigError

REGISTRATION = ("tokens", "open")
_PLACEHOLDERS = [
    {"name": f"ladder-placeholder-{i}", "cmd": "python -m bots.random"} for i in range(16)
]  # more than any table's seats
MAX_BOT_NAME = 48  # characters; a version adds ``@N`` and names stay within MAX_NAME


@dataclass(frozen=True)
class LadderSettings:
    """The ``[ladder]`` table."""

    placement_blocks: int = 4  # rotation blocks a new version plays before continuous play
    check_games: int = 1  # games per seat of the check (arena check-bot) of a submission
    max_upload_kb: int = 2048  # one upload, as sent
    max_files: int = 200  # entries of an unpacked archive
    max_unpacked_mb: int = 20  # bytes of an unpacked archive
    submissions_per_hour: int = 10  # per participant
    quota_mb: int = 50  # stored uploads per participant
    build_s: int = 120  # time limit of a bot.toml build command
    registration: str = "tokens"  # "tokens": the organiser hands them out; "open": a form
    refresh_s: float = 5.0  # the leaderboard is recomputed at most this often


@dataclass(frozen=True)
class Ladder:
    """A validated ladder file: the league its games are played by, and its settings."""

    league: LeagueConfig  # its bots are the house bots (perhaps none)
    settings: LadderSettings
    source: str


def load(path: str | Path) -> Ladder:
    source = str(path)
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise ConfigError(f"{source}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{source}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    table = dict(data)
    raw = table.pop("ladder", {})
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: ladder: must be a table ([ladder])")
    settings = _settings(source, raw)
    for key in ("mode", "rounds", "candidate", "sprt"):
        if key in table:
            raise ConfigError(f"{source}: {key}: a ladder chooses its own games; remove it")
    # the league reader wants a field that fills a table: placeholders, dropped below
    houses = table.get("bots", [])
    if not isinstance(houses, list):
        raise ConfigError(f"{source}: bots: a list of [[bots]] tables (the house bots)")
    table["bots"] = [*houses, *_PLACEHOLDERS]
    base = Path(path).resolve().parent
    league = league_config.parse(table, source=source, default_name=Path(path).stem, base=base)
    league = replace(league, bots=league.bots[: len(houses)])
    for bot in league.bots:
        if "@" in bot.name:
            raise ConfigError(f"{source}: bots: {bot.name!r}: '@' is kept for versions")
    return Ladder(league, settings, source)


def _settings(source: str, raw: dict[str, Any]) -> LadderSettings:
    known = {f.name: f for f in fields(LadderSettings)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            raise ConfigError(
                f"{source}: ladder.{key}: unknown key; valid keys: {', '.join(sorted(known))}"
            )
        default = getattr(LadderSettings(), key)
        if isinstance(default, str):
            if value not in REGISTRATION:
                raise ConfigError(
                    f"{source}: ladder.{key}: must be one of {', '.join(REGISTRATION)}"
                )
        elif isinstance(default, float):
            if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
                raise ConfigError(f"{source}: ladder.{key}: must be a positive number")
            value = float(value)
        elif not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ConfigError(f"{source}: ladder.{key}: must be a positive integer")
        values[key] = value
    return LadderSettings(**values)


def check_bot_name(name: str, houses: tuple[str, ...]) -> str:
    """A participant's bot name, or the reason it cannot be one (an empty string: fine).
    Any printable text is allowed (pages escape it); not '/', '@', spaces at its ends."""
    if not name:
        return "a bot needs a name"
    if len(name) > MAX_BOT_NAME:
        return f"a bot name has at most {MAX_BOT_NAME} characters"
    if not name.isprintable() or "/" in name or "@" in name or name.strip() != name:
        return "a bot name is printable text without '/', '@' or spaces at its ends"
    if name in houses:
        return f"{name!r} is a house bot's name"
    return ""
