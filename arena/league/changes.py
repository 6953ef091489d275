"""What changed between the league whose games a results folder stores and the league run
now, that makes the stored games incomparable with new ones: its rules (engine, options,
seed, mode, clock, caps, policy), a bot's command, own caps or files. The results folder
(:mod:`arena.league.results`) refuses a run on any of them.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Mapping
from dataclasses import asdict
from functools import cache, partial
from typing import Any

from arena.config import RESOURCE_KEYS, BotSpec, LeagueConfig, Limits, bot_entry
from arena.game.spec import block_seed
from arena.league.championship import CHAMPIONSHIPS
from arena.league.fingerprint import changes
from arena.record import GameRecord
from arena.words import counted

# Config keys whose change makes stored games incomparable with new ones.
_IDENTITY_KEYS = ("engine", "engine_version", "options", "seed", "mode", "field", "knockout")
# So does a change of the clock, caps ([limits], a bot's own limits) or [policy], but for
# two limits that cannot change a game: bye_ms acts once the games of a process are over,
# stderr_bytes only caps the log. (sandbox may change too: what a bot can reach, not its
# games' rules; "auto" already differs from machine to machine.)
_FREE_LIMITS = ("bye_ms", "stderr_bytes")


def incomparable(
    stored: LeagueConfig,
    new: LeagueConfig,
    replay: frozenset[str] = frozenset(),
    recorded: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[str]:
    """What changed between the league of a stored ``league.toml`` and the league run now
    that makes their games incomparable: a key of the league, its clock, caps or policy, or
    a bot's command or own caps (not of the bots in ``replay``, whose games are played
    again). ``recorded`` (``bots.toml``) has the command and caps of bots no longer in
    ``stored`` whose games are stored."""
    then, now = _identity(stored), _identity(new)
    changes = [
        f"{key}: {then[key]!r} -> {now[key]!r}" for key in _IDENTITY_KEYS if then[key] != now[key]
    ]
    old_rules, new_rules = _rules(stored), _rules(new)
    changes += _changed(old_rules, new_rules)
    same = {key for key, value in new_rules.items() if old_rules.get(key) == value}
    old_bots = played_with(stored, recorded or {})
    for spec in new.bots:
        name, cmd = spec.name, bot_entry(spec)["cmd"]
        if name not in old_bots or name in replay:
            continue
        old = old_bots[name]
        same_cmd = _runs_thesame_bot(old["cmd"], cmd)
        said = [] if same_cmd else _changed({"command": old["cmd"]}, {"command": cmd})
        before, after = _caps(stored.limits, old), _caps(spec.limits, {})
        said += _changed(before, {key: after[key] for key in after if key in same})
        changes += [
            f"bot {name!r} {change} (or --replay-bot {name} to play its games again)"
            for change in said
        ]
    return changes


def _identity(league: LeagueConfig) -> dict[str, Any]:
    """The values of :data:`_IDENTITY_KEYS` in ``league``, as ``league.toml`` holds them."""
    return {
        "engine": league.engine,
        "engine_version": league.engine_version,
        "options": dict(league.options),
        "seed": league.seed,
        "mode": league.mode,
        # a Swiss or knockout league pairs its field by the results so far: another field
        # (or order of it, or other knockout stages) pairs every round anew
        "field": [bot.name for bot in league.bots] if league.mode in CHAMPIONSHIPS else None,
        "knockout": league.to_toml().get("knockout"),
    }


def played_with(
    league: LeagueConfig | None, recorded: Mapping[str, Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Each bot's command and own limits (``cmd``, ``limits`` if it has its own) as its
    stored games were played: the field of ``league.toml``, and the bots removed from it
    since, as ``bots.toml`` keeps them (an entry written before it kept them has none)."""
    setups = {name: _setup(entry) for name, entry in recorded.items() if "cmd" in entry}
    bots = league.bots if league is not None else ()
    return setups | {bot.name: _setup(bot_entry(bot)) for bot in bots}


def _setup(bot: Mapping[str, Any]) -> dict[str, Any]:
    """A bot's command and own limits, from its entry in ``league.toml`` or ``bots.toml``."""
    return {key: bot[key] for key in ("cmd", "limits") if key in bot}


def _rules(league: LeagueConfig) -> dict[str, Any]:
    """The clock, caps and policy a league's games are played under, as ``limits.KEY`` and
    ``policy.KEY`` (a key an older ``league.toml`` lacks is read at its default)."""
    limits, policy = asdict(league.limits), asdict(league.policy)
    rules = {f"limits.{key}": value for key, value in limits.items() if key not in _FREE_LIMITS}
    return rules | {f"policy.{key}": value for key, value in policy.items()}


def _caps(league_limits: Limits, bot: Mapping[str, Any]) -> dict[str, Any]:
    """The caps a bot's processes run under, as ``limits.KEY``: the league's, overridden by
    the bot's own ``limits`` (of its entry in ``bots.toml``, or ``{}``: already in them)."""
    limits = {**asdict(league_limits), **bot.get("limits", {})}
    return {f"limits.{key}": limits[key] for key in RESOURCE_KEYS if key not in _FREE_LIMITS}


def _changed(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """``KEY: old -> new`` for each key of ``new`` whose value is not the one in ``old``."""
    return [
        f"{key}: {old.get(key)!r} -> {value!r}"
        for key, value in new.items()
        if old.get(key) != value
    ]


def _runs_thesame_bot(old: str, new: str) -> bool:
    """Whether two commands of ``league.toml`` run the same program with the same arguments:
    the same text, or the same argv once a leading ``python`` or ``python3`` is the arena's
    own interpreter (:meth:`~arena.config.BotSpec.argv`; a change of that interpreter is the
    fingerprint's)."""
    try:
        return old == new or _argv(old) == _argv(new)
    except ValueError:  # a hand-edited command that no longer splits, or an empty one
        return False


def _argv(cmd: str) -> list[str]:
    return BotSpec("", tuple(shlex.split(cmd))).argv()


def unlike_games(stored: list[GameRecord], new: LeagueConfig) -> list[str]:
    """What the stored games themselves say is not of the league ``new`` (for a folder that
    has no ``league.toml``): their engine, and the seed their deals come from."""
    said = [
        f"engine {engine!r}, not {new.engine!r}"
        for engine in sorted({record.engine for record in stored} - {new.engine})
    ]
    seed_of = cache(partial(block_seed, new.seed))  # one seed per table size and block
    dealt = sum(record.seed != seed_of(record.players, record.block) for record in stored)
    if dealt:
        verb = "was" if dealt == 1 else "were"
        said.append(
            f"{dealt:,} of its {counted(len(stored), 'game')} {verb} not dealt from seed {new.seed}"
        )
    return said


def changed_bots(
    stored: list[GameRecord],
    recorded: Mapping[str, Mapping[str, Any]],
    now: Mapping[str, Mapping[str, Any]],
    replay: frozenset[str],
) -> list[str]:
    """A line for each bot with stored games whose fingerprint changed."""
    return [
        f"bot {name!r} changed since its {played} stored games were played "
        f"({', '.join(changes(dict(old), dict(new)))}): run again with "
        f"--replay-bot {name} to play its games again, or --fresh to play every game again"
        for name, played, old, new in _recorded_bots(stored, recorded, now, replay)
        if not same_bot(old, new)
    ]


def unrecorded_files(
    stored: list[GameRecord],
    recorded: Mapping[str, Mapping[str, Any]],
    now: Mapping[str, Mapping[str, Any]],
    replay: frozenset[str],
) -> list[str]:
    """A note for each bot with stored games whose fingerprint names files now that it did
    not record: a folder of an earlier arena, which found a ``python -m`` module only in
    the folder it ran in and on ``PYTHONPATH``, and did not hash the modules it imports
    from its own package. Such a bot is not refused (:func:`same_bot`)."""
    return [
        f"warning: bot {name!r}: its {played} stored games were played before "
        f"bots.toml recorded {', '.join(sorted(set(new['files']) - set(old['files'])))} "
        "(an earlier arena did not fingerprint them); recorded now, so a change from now "
        f"on is noticed, one before cannot be (--replay-bot {name} plays its games again)"
        for name, played, old, new in _recorded_bots(stored, recorded, now, replay)
        if set(new.get("files") or ()) - set(old.get("files") or ()) and same_bot(old, new)
    ]


def _recorded_bots(
    stored: list[GameRecord],
    recorded: Mapping[str, Mapping[str, Any]],
    now: Mapping[str, Mapping[str, Any]],
    replay: frozenset[str],
) -> Iterator[tuple[str, int, Mapping[str, Any], Mapping[str, Any]]]:
    """``(name, games it played, recorded fingerprint, fingerprint now)`` of each bot of
    ``now`` with stored games and a recorded fingerprint, but those in ``replay``."""
    played = _played(stored)
    for name, new in now.items():
        old = recorded.get(name)
        if name not in replay and old is not None and played.get(name):
            yield name, played[name], old, new


def _played(stored: list[GameRecord]) -> dict[str, int]:
    """Bot -> how many stored games it played."""
    played: dict[str, int] = {}
    for record in stored:
        for bot in set(record.seating):
            played[bot] = played.get(bot, 0) + 1
    return played


def bot_entries(
    league: LeagueConfig,
    bots: Mapping[str, Mapping[str, Any]],
    recorded: Mapping[str, Mapping[str, Any]],
    setups: Mapping[str, Mapping[str, Any]],
    played: set[str],
) -> dict[str, dict[str, Any]]:
    """``bots.toml`` for a run of ``league``: each of its bots' command, own limits and
    fingerprint now (``bots``), and the entry (``recorded``) of every bot no longer in it
    that ``played`` stored games, with the command and limits they were played with
    (``setups``): a bot that comes back is checked against its stored games."""
    now = {bot.name: _setup(bot_entry(bot)) for bot in league.bots}
    entries = {name: {**now.get(name, {}), **entry} for name, entry in bots.items()}
    kept = {
        name: {**entry, **setups.get(name, {})}
        for name, entry in recorded.items()
        if name in played and name not in entries
    }
    return entries | kept


def same_bot(old: Mapping[str, Any], new: Mapping[str, Any] | None) -> bool:
    """Whether a bot is the one its recorded fingerprint ``old`` describes: the same
    executable, and each file it recorded still there with the same hash. Files named now
    that it did not record have nothing to compare with, as a bot with no fingerprint has
    nothing: an earlier arena recorded no file for a ``python -m`` module found outside
    the folder it ran in, and none of the modules a bot imports from its own package."""
    if new is None or old.get("executable") != new.get("executable"):
        return False
    files = new.get("files") or {}
    return all(files.get(path) == digest for path, digest in (old.get("files") or {}).items())
