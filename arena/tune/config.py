"""Tune files: a league file plus a ``[tune]`` section -> :class:`TuneConfig`.

Every error is a :class:`~arena.errors.ConfigError` of one line naming the file and the key.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arena import config as league_file
from arena.config import MAX_NAME, BotSpec, LeagueConfig, read_toml_file, spelled
from arena.errors import ConfigError
from arena.game.placeholders import placeholders
from arena.tune.spsa import Param
from engines.base import derive_rng

METHODS = ("spsa", "optuna")
_TUNE_KEYS = {
    "bot",
    "games",
    "iterations",
    "method",
    "params",
    "batch",
    "confirm_games",
    "trial_blocks",
}
_PARAM_KEYS = {"start", "min", "max", "c_end", "r_end"}
DEFAULT_BATCH = 8
DEFAULT_CONFIRM_GAMES = 400
DEFAULT_TRIAL_BLOCKS = 4


@dataclass(frozen=True)
class TuneConfig:
    """A validated tune file: the league it plays in and what it tunes."""

    league: LeagueConfig  # as the file gives it (its bots, limits, engine, seed)
    bot: str
    params: tuple[Param, ...]
    iterations: int  # rotation blocks: SPSA's iterations; optuna's trials x trial_blocks
    method: str
    batch: int  # iterations in flight at once: iteration k waits for k - batch's step
    confirm_games: int  # the confirmation league's games (0: none)
    trial_blocks: int = DEFAULT_TRIAL_BLOCKS  # blocks per trial (method = "optuna")

    @property
    def seats(self) -> int:
        return self.league.players[0]

    @property
    def others(self) -> tuple[BotSpec, ...]:
        """The file's bots that sit at every table beside θ+ and θ-."""
        return tuple(b for b in self.league.bots if b.name != self.bot)

    @property
    def tuned(self) -> BotSpec:
        return next(b for b in self.league.bots if b.name == self.bot)

    @property
    def starts(self) -> dict[str, float | int]:
        return {p.name: p.played(p.start) for p in self.params}

    def versions(self, first: str, second: str, rounds: int, seed: int) -> LeagueConfig:
        """The league of one table: the tuned bot twice (as ``first`` and ``second``, each
        game giving them their own parameters) with the file's other bots."""
        bots = (replace(self.tuned, name=first), replace(self.tuned, name=second), *self.others)
        return replace(
            self.league, bots=bots, mode="round-robin", rounds=rounds, seed=seed, seed_drawn=False
        )

    def to_toml(self) -> dict[str, Any]:
        """The ``[tune]`` section as it was resolved (kept with the results)."""
        return {
            "bot": self.bot,
            "iterations": self.iterations,
            "method": self.method,
            "batch": self.batch,
            "confirm_games": self.confirm_games,
            "trial_blocks": self.trial_blocks,
            "params": {
                p.name: {
                    "start": p.start,
                    "min": p.min,
                    "max": p.max,
                    "integer": p.integer,
                    "c_end": p.c_end,
                    "r_end": p.r_end,
                }
                for p in self.params
            },
        }


def plus_name(bot: str) -> str:
    return f"{bot}+"


def minus_name(bot: str) -> str:
    return f"{bot}-"


def confirm_seed(seed: int) -> int:
    """The confirmation league's seed: derived from the tune's, and never its deals."""
    return derive_rng(seed, "confirm").getrandbits(62)


def load(path: str | Path) -> TuneConfig:
    """Read and validate a tune file."""
    source = str(path)
    data = read_toml_file(path)
    return parse(data, source=source, base=Path(path).resolve().parent, name=Path(path).stem)


def parse(
    data: Mapping[str, Any], *, source: str = "<tune>", base: Path | None = None, name: str = "tune"
) -> TuneConfig:
    """Validate an already-parsed tune file."""
    rest = dict(data)
    tune = rest.pop("tune", None)
    if tune is None:
        raise ConfigError(f"{source}: no [tune] section: say which bot to tune and its parameters")
    if not isinstance(tune, dict):
        raise ConfigError(f"{source}: tune: expected a table, got {spelled(tune)}")
    for key in ("mode", "rounds", "candidate", "sprt"):
        if key in rest:
            raise ConfigError(
                f"{source}: {key}: not used in a tune file (the tuner chooses the games; "
                "its budget is tune.games)"
            )
    bot = tune.get("bot")
    raw_bots = rest.get("bots")
    twin = None
    if isinstance(bot, str) and isinstance(raw_bots, list):
        # the tuned bot takes two seats (θ+ and θ-): the file's check that its bots fill a
        # table counts it twice
        entry = next((b for b in raw_bots if isinstance(b, dict) and b.get("name") == bot), None)
        if entry is None:
            listed = ", ".join(str(b.get("name")) for b in raw_bots if isinstance(b, dict))
            raise ConfigError(f"{source}: tune.bot: no bot named {bot!r}; bots: {listed}")
        twin = minus_name(bot)
        rest["bots"] = [*raw_bots, {**entry, "name": twin}]
    league = league_file.parse(rest, source=source, default_name=name[:MAX_NAME], base=base)
    league = replace(league, bots=tuple(b for b in league.bots if b.name != twin))
    where = f"{source}: tune."

    def fail(key: str, message: str) -> ConfigError:
        return ConfigError(f"{where}{key}: {message}")

    for key in tune:
        if key not in _TUNE_KEYS:
            raise fail(key, f"unknown key; valid keys here: {', '.join(sorted(_TUNE_KEYS))}")
    names = [b.name for b in league.bots]
    if not isinstance(bot, str):
        raise fail("bot", 'missing: name the bot to tune (bot = "<a bot of this file>")')
    if bot not in names:
        raise fail("bot", f"no bot named {bot!r}; bots: {', '.join(names)}")
    if len(league.players) != 1:
        raise ConfigError(f"{source}: players: a tune plays one table size")
    seats = league.players[0]
    if len(names) - 1 != seats - 2:
        raise ConfigError(
            f"{source}: bots: a tune at tables of {seats} seats seats the tuned bot twice "
            f"(θ+ and θ-) with {seats - 2} other bot(s) of the file; this file has "
            f"{len(names) - 1}"
        )
    if next(b for b in league.bots if b.name == bot).is_human:
        raise fail("bot", "a person cannot be tuned")
    method = tune.get("method", "spsa")
    if method not in METHODS:
        raise fail("method", f"must be one of {', '.join(METHODS)}, got {spelled(method)}")
    raw_params = tune.get("params")
    if not isinstance(raw_params, dict) or not raw_params:
        raise fail("params", "no parameter to tune: add a [tune.params.NAME] table")
    params = tuple(_param(fail, key, value) for key, value in raw_params.items())
    tuned = next(b for b in league.bots if b.name == bot)
    unknown = placeholders(tuned.cmd) - {p.name for p in params}
    if unknown:
        raise ConfigError(
            f"{source}: bots: {bot}'s cmd has placeholder(s) "
            f"{', '.join('{' + u + '}' for u in sorted(unknown))} that no [tune.params] names"
        )
    iterations = _budget(fail, tune, seats)
    batch = _count(fail, tune, "batch", DEFAULT_BATCH, 1)
    confirm = _count(fail, tune, "confirm_games", DEFAULT_CONFIRM_GAMES, 0)
    trial_blocks = _count(fail, tune, "trial_blocks", DEFAULT_TRIAL_BLOCKS, 1)
    if trial_blocks > iterations:
        raise fail("trial_blocks", f"{trial_blocks} blocks per trial exceed the budget")
    return TuneConfig(league, bot, params, iterations, method, batch, confirm, trial_blocks)


def _count(fail: Any, table: Mapping[str, Any], key: str, default: int, minimum: int) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(key, f"expected an integer, got {spelled(value)}")
    if not minimum <= value <= 10**9:
        raise fail(key, f"must be between {minimum} and {10**9}, got {value}")
    return value


def _budget(fail: Any, tune: Mapping[str, Any], seats: int) -> int:
    """Iterations from ``games`` (one rotation block of ``seats`` games each) or ``iterations``."""
    if "games" in tune and "iterations" in tune:
        raise fail("iterations", "give the budget as games or as iterations, not both")
    if "iterations" in tune:
        return _count(fail, tune, "iterations", 0, 1)
    if "games" not in tune:
        raise fail("games", "missing: the budget (games = 4000, or iterations = ...)")
    games = _count(fail, tune, "games", 0, 1)
    if games < seats:
        raise fail("games", f"{games} is fewer than one block of {seats} games")
    return games // seats


def _param(fail: Any, name: str, table: Any) -> Param:
    key = f"params.{name}"
    if not isinstance(table, dict):
        raise fail(key, "expected a table with start, min, max (and c_end, r_end)")
    if placeholders([f"{{{name}}}"]) != {name}:
        raise fail(key, "a parameter name is a letter or _, then letters, digits or _")
    for item in table:
        if item not in _PARAM_KEYS:
            valid = ", ".join(sorted(_PARAM_KEYS))
            raise fail(f"{key}.{item}", f"unknown key; valid keys here: {valid}")
    values: dict[str, float] = {}
    kinds: list[bool] = []
    for item in ("start", "min", "max"):
        if item not in table:
            raise fail(f"{key}.{item}", "missing required key")
        value = table[item]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise fail(f"{key}.{item}", f"expected a number, got {spelled(value)}")
        if not math.isfinite(value):
            raise fail(f"{key}.{item}", f"must be finite, got {spelled(value)}")
        kinds.append(isinstance(value, int))
        values[item] = float(value)
    if len(set(kinds)) != 1:
        raise fail(key, "start, min and max are all integers (an integer parameter) or all floats")
    low, high, start = values["min"], values["max"], values["start"]
    if not low < high:
        raise fail(f"{key}.max", f"must be greater than min ({spelled(table['min'])})")
    if not low <= start <= high:
        raise fail(
            f"{key}.start",
            f"{spelled(table['start'])} is outside its bounds "
            f"{spelled(table['min'])}..{spelled(table['max'])}",
        )
    ends = {}
    defaults = {"c_end": (high - low) / 20, "r_end": 0.002}
    for item, default in defaults.items():
        value = table.get(item, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise fail(f"{key}.{item}", f"expected a number, got {spelled(value)}")
        if not (math.isfinite(value) and value > 0):
            raise fail(f"{key}.{item}", f"must be a positive number, got {spelled(value)}")
        ends[item] = float(value)
    if kinds[0] and ends["c_end"] < 0.5:
        raise fail(
            f"{key}.c_end",
            f"{ends['c_end']:g} rounds θ+ and θ- to the same integer; give at least 0.5",
        )
    return Param(name, start, low, high, kinds[0], ends["c_end"], ends["r_end"])
