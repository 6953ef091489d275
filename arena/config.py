"""League files (TOML) -> validated, frozen dataclasses.

The one format of a league: a user's league file (:func:`load`) and the ``league.toml`` a
run stores in its results folder (:meth:`LeagueConfig.to_toml`, read back by
:func:`read_back`) are read by the same code.

Every error is a :class:`~arena.errors.ConfigError` whose message names the file, the key and
what would be valid. ``docs/leagues.md`` documents the schema.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import secrets
import shlex
import shutil
import sys
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import engines
from arena.errors import ConfigError
from arena.heats import Stage, check_stages, table_sizes
from arena.words import counted
from engines.base import Engine, OptionError

MODES = ("round-robin", "gauntlet", "sprt", "swiss", "knockout")
SEEDINGS = ("file", "random")
HUMAN = "human"  # cmd = "human": a person at the terminal plays this seat
POLICIES = ("forfeit", "random")


@dataclass(frozen=True)
class Limits:
    """Clocks and caps (``[limits]``); the resource caps may be overridden per bot."""

    # the clock, the same for every bot of a league
    move_ms: int = 1000  # per decision
    bank_ms: int = 10_000  # overage bank per game (start-up is not charged to it); 0 = none
    startup_ms: int = 10_000  # hello -> ready
    bye_ms: int = 1000  # grace to exit after bye before the process group is killed
    grace_ms: int = 0  # overruns of move_ms shorter than this are forgiven ...
    grace_count: int = 0  # ... this many times per game (the slack rule)
    max_start_failures: int = 3  # failed starts before a bot is disqualified
    # per process (league defaults; a bot's own ``limits`` table may override them)
    line_bytes: int = 1 << 20  # longest protocol line a bot may write
    stderr_bytes: int = 1 << 20  # stderr kept per bot in logs/<bot>.log
    memory_mb: int = 2048  # address space
    cpu_s: int = 3600  # CPU seconds over the life of one process
    file_mb: int = 64  # largest file a bot may write
    open_files: int = 256
    disk_mb: int = 64  # the bot's folder: its private /tmp under the sandbox, else checked
    processes: int = 0  # RLIMIT_NPROC (counts all of the user's processes); 0 = not set


RESOURCE_KEYS = (
    "line_bytes",
    "stderr_bytes",
    "memory_mb",
    "cpu_s",
    "file_mb",
    "open_files",
    "disk_mb",
    "processes",
)
_ZERO_ALLOWED = ("bank_ms", "grace_ms", "grace_count", "processes")
SANDBOXES = ("auto", "bwrap", "none")


@dataclass(frozen=True)
class Policy:
    """What the referee does on each verdict class (``[policy]``): forfeit or random."""

    timeout: str = "random"
    illegal: str = "forfeit"
    protocol: str = "forfeit"
    crash: str = "forfeit"
    startup: str = "forfeit"
    memory: str = "forfeit"

    def for_verdict(self, verdict: str) -> str:
        value: str = getattr(self, verdict)
        return value


@dataclass(frozen=True)
class BotSpec:
    """One competitor: a unique name and the command that starts it."""

    name: str
    cmd: tuple[str, ...]
    limits: Limits = Limits()  # the league's, with this bot's overrides applied
    overrides: Mapping[str, int] = field(default_factory=dict)
    sandbox: str = "auto"  # see arena.game.sandbox
    ponder: bool = False  # may compute outside its turns (else frozen: arena.game.cgroup)
    hidden: tuple[str, ...] = ()  # paths the sandbox keeps out of view (LeagueConfig.hiding)

    @property
    def is_human(self) -> bool:
        """A person at the terminal (``cmd = "human"``), not a program."""
        return self.cmd == (HUMAN,)

    def argv(self) -> list[str]:
        """The command to execute; a leading ``python``/``python3`` means this interpreter."""
        head, *rest = self.cmd
        if head in ("python", "python3"):
            head = sys.executable
        return [head, *rest]


@dataclass(frozen=True)
class SprtSpec:
    """The sequential test of ``mode = "sprt"``: candidate against opponent."""

    candidate: str
    opponent: str
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    max_blocks: int = 1000
    fillers: tuple[str, ...] = ()


@dataclass(frozen=True)
class KnockoutSpec:
    """The heats of ``mode = "knockout"`` (``[knockout]``): each stage's table size and how
    many of each heat go on (the last stage repeats), the extra blocks a tie may play, and
    how the field is seeded (``file``: its order of bots; ``random``: a draw from the seed)."""

    stages: tuple[Stage, ...]
    tiebreak_blocks: int = 1
    seeding: str = "file"


@dataclass(frozen=True)
class LeagueConfig:
    """A validated league file."""

    name: str
    engine: str
    engine_version: str
    players: tuple[int, ...]
    mode: str
    rounds: int
    seed: int
    options: Mapping[str, Any]
    limits: Limits
    policy: Policy
    bots: tuple[BotSpec, ...]
    candidate: str | None = None
    sprt: SprtSpec | None = None
    knockout: KnockoutSpec | None = None
    sandbox: str = "auto"
    ponder: bool = False  # bots may compute during other seats' turns (a fair clock: no)
    source: str = field(default="", compare=False)
    # the file gives no seed: ``seed`` was drawn at random (a resumed league takes the one
    # its folder keeps instead: arena.league.driver.with_stored_seed)
    seed_drawn: bool = field(default=False, compare=False)
    # the results folder's secret its bots' seeds come from (arena.league.secret.keyed)
    bot_key: bytes = field(default=b"", compare=False, repr=False)
    # what the file says that has no effect, one line each (``arena run`` prints them)
    warnings: tuple[str, ...] = field(default=(), compare=False)
    # False: a stored ``league.toml`` that leaves out part of its schedule (its bots, table
    # sizes, mode, rounds or seed), as only other tools write one (:func:`read_back`): its
    # games are not checked against a schedule
    scheduled: bool = field(default=True, compare=False)
    # False: a stored ``league.toml`` that does not name its engine, engine version or
    # options: the rules of its games are not checked against them
    rules_known: bool = field(default=True, compare=False)

    @property
    def people(self) -> tuple[str, ...]:
        """The names of the seats played by a person (``cmd = "human"``)."""
        return tuple(b.name for b in self.bots if b.is_human)

    def hiding(self, folder: Path) -> LeagueConfig:
        """This league with ``folder`` (its results) and its league file (``source``, when
        it was read from one) kept out of every sandboxed bot's view: a bot's own folder is
        shown whole, and either may be inside it."""
        league_file = (os.path.abspath(self.source),) if os.path.isfile(self.source) else ()
        hidden = (os.path.abspath(folder), *league_file)
        return replace(self, bots=tuple(replace(bot, hidden=hidden) for bot in self.bots))

    def to_toml(self) -> dict[str, Any]:
        """The resolved config, as written to ``league.toml``."""
        data: dict[str, Any] = {
            "name": self.name,
            "engine": self.engine,
            "engine_version": self.engine_version,
            "players": list(self.players),
            "mode": self.mode,
            "rounds": self.rounds,
            "seed": self.seed,
            "options": dict(self.options),
            "limits": {f.name: getattr(self.limits, f.name) for f in fields(Limits)},
            "policy": {f.name: getattr(self.policy, f.name) for f in fields(Policy)},
            "bots": [bot_entry(b) for b in self.bots],
            "sandbox": self.sandbox,
            "ponder": self.ponder,
        }
        if self.candidate is not None:
            data["candidate"] = self.candidate
        if self.sprt is not None:
            sprt = {f.name: getattr(self.sprt, f.name) for f in fields(SprtSpec)}
            sprt["fillers"] = list(self.sprt.fillers)
            data["sprt"] = sprt
        if self.knockout is not None:
            data["knockout"] = {
                "stages": [{"table": s.table, "advance": s.advance} for s in self.knockout.stages],
                "tiebreak_blocks": self.knockout.tiebreak_blocks,
                "seeding": self.knockout.seeding,
            }
        return data


def bot_entry(bot: BotSpec) -> dict[str, Any]:
    """A bot as ``league.toml`` and ``bots.toml`` keep it: its command, and its own limits if
    it has any."""
    entry: dict[str, Any] = {"name": bot.name, "cmd": shlex.join(bot.cmd)}
    if bot.overrides:
        entry["limits"] = dict(bot.overrides)
    return entry


_TOP_KEYS = {
    "sandbox",
    "ponder",
    "name",
    "engine",
    "players",
    "mode",
    "rounds",
    "seed",
    "options",
    "limits",
    "policy",
    "bots",
    "candidate",
    "sprt",
    "knockout",
    "engine_version",
}


class _Reader:
    """Typed access to one TOML table with errors that name the file and key."""

    def __init__(self, source: str, table: Mapping[str, Any], prefix: str = "") -> None:
        self.source = source
        self.table = table
        self.prefix = prefix

    def line(self, key: str, message: str) -> str:
        """``message`` about ``key``, naming the file and the key."""
        shown = key if key.isprintable() else repr(key)  # one line, whatever the key holds
        return f"{self.source}: {self.prefix}{shown}: {message}"

    def fail(self, key: str, message: str) -> ConfigError:
        return ConfigError(self.line(key, message))

    def check_keys(self, allowed: set[str]) -> None:
        for key in self.table:
            if key not in allowed:
                valid = ", ".join(sorted(allowed))
                raise self.fail(key, f"unknown key; valid keys here: {valid}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if key not in self.table:
            if default is ...:
                raise self.fail(key, "missing required key")
            return default
        value = self.table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(key, f"expected {_kind_names(kinds)}, got {spelled(value)}")
        if not isinstance(value, kinds):
            raise self.fail(key, f"expected {_kind_names(kinds)}, got {spelled(value)}")
        return value

    def positive_int(self, key: str, default: int, minimum: int = 1) -> int:
        value: int = self.get(key, int, default)
        if value < minimum:
            raise self.fail(key, f"must be at least {minimum}, got {value}")
        if value > 10**9:
            raise self.fail(key, f"must be at most {10**9}, got {value}")
        return value


def spelled(value: Any) -> str:
    """``value`` as a league file spells it, on one line: ``true``, ``"two"``, ``[1, "a"]``,
    ``{move_ms = 5}`` (Python's spelling, ``True`` or ``'two'``, is not what the user wrote)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):  # a TOML basic string, escapes and all, on one line
        return "".join(map(_escaped, json.dumps(value, ensure_ascii=False)))
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, list):
        return f"[{', '.join(map(spelled, value))}]"
    if isinstance(value, dict):
        return f"{{{spelled_pairs(value)}}}"
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return repr(value)  # integers and finite floats


def _escaped(char: str) -> str:
    """``char``, or its TOML escape when it does not print (U+0085 and U+2028 end a line)."""
    if char.isprintable():
        return char
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def spelled_pairs(table: Mapping[str, Any]) -> str:
    """The keys and values of ``table`` as a league file spells them, on one line:
    ``young = false, variant = "standard"``."""
    return ", ".join(f"{_spelled_key(key)} = {spelled(item)}" for key, item in table.items())


def _spelled_key(key: str) -> str:
    bare = key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key)
    return key if bare else spelled(key)


def _kind_names(kinds: tuple[type, ...]) -> str:
    names = {int: "an integer", str: "a string", float: "a number", list: "a list"}
    names.update({dict: "a table", bool: "true or false"})
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def read_toml_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A TOML file's tables, or one :class:`ConfigError` line naming the file."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # a byte-order mark is dropped
    except FileNotFoundError:
        raise ConfigError(f"{source}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{source}: cannot read: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{source}: not valid TOML: arrays or tables nested too deeply") from None


def load(path: str | os.PathLike[str]) -> LeagueConfig:
    """Read and validate a league file."""
    source = str(path)
    data = read_toml_file(path)
    default_name = Path(path).stem[:MAX_NAME]
    base = Path(path).resolve().parent
    return parse(data, source=source, default_name=default_name, base=base)


SCHEDULE_KEYS = ("bots", "players", "mode", "rounds", "seed")
RULE_KEYS = ("engine", "engine_version", "options")


def read_back(data: Mapping[str, Any], *, source: str, default_name: str) -> LeagueConfig:
    """A stored ``league.toml`` (:meth:`LeagueConfig.to_toml` wrote it) read back.

    It is read by :func:`parse`, as a league file is, with every check of what the file
    holds, but as the league was played, not as it would be played here now: the engine
    version and resolved options are the stored ones (the engine need not be installed), a
    bot's command is taken as written (its files need not be there any more), and a file
    that leaves out part of its schedule (:data:`SCHEDULE_KEYS`; written by another tool) is
    read with ``scheduled = False``, one that does not name its engine (then ``""``), engine
    version or options (:data:`RULE_KEYS`) with ``rules_known = False``. A field of the
    wrong type is a :class:`ConfigError`.
    """
    return parse(data, source=source, default_name=default_name, stored=True)


def parse(
    data: Mapping[str, Any],
    *,
    source: str = "<config>",
    default_name: str = "league",
    base: Path | None = None,
    stored: bool = False,
) -> LeagueConfig:
    """Validate an already-parsed league table; bot paths are relative to ``base``.

    ``stored``: see :func:`read_back`.
    """
    top = _Reader(source, data)
    top.check_keys(_TOP_KEYS)
    name = top.get("name", str, default_name)
    if not name or "/" in name or name.startswith(".") or not name.isprintable():
        raise top.fail("name", f"must be a plain folder name, got {spelled(name)}")
    if len(name) > MAX_NAME:
        raise top.fail("name", f"is {len(name)} characters long; at most {MAX_NAME}")

    engine_name = top.get("engine", str, "" if stored else ...)
    engine = None if stored else _engine(top, engine_name)
    scheduled = not stored or all(key in data for key in SCHEDULE_KEYS)

    if engine is not None:
        players = _players(top, default_players(engine))
    else:
        players = _players(top, 2) if "players" in data else ()
    mode = top.get("mode", str, "round-robin")
    if mode not in MODES:
        raise top.fail("mode", f"unknown mode {mode!r}; valid modes: {', '.join(MODES)}")
    rounds = top.positive_int("rounds", 1)
    seed = top.get("seed", int, None)
    if seed is not None and not 0 <= seed < 2**63:
        raise top.fail("seed", f"must be between 0 and 2**63-1, got {seed}")

    options = top.get("options", dict, {})
    try:
        options = options if engine is None else check_game(engine, players, options)
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None

    limits = _limits(_Reader(source, top.get("limits", dict, {}), "limits."))
    policy = _policy(_Reader(source, top.get("policy", dict, {}), "policy."))
    sandbox = top.get("sandbox", str, "auto")
    if sandbox not in SANDBOXES:
        raise top.fail("sandbox", f"must be one of {', '.join(SANDBOXES)}, got {spelled(sandbox)}")
    if sandbox == "bwrap" and not stored and shutil.which("bwrap") is None:
        raise top.fail(
            "sandbox",
            "'bwrap' needs bubblewrap, which is not installed (apt-get install "
            'bubblewrap), or set sandbox = "none"',
        )
    ponder = top.get("ponder", bool, False)
    if stored and "bots" not in data:
        bots: tuple[BotSpec, ...] = ()
    else:
        bots = _bots(top, limits, sandbox, ponder, None if stored else base or Path.cwd())
    names = [b.name for b in bots]

    candidate = top.get("candidate", str, None)
    if candidate is not None and candidate not in names:
        raise top.fail("candidate", f"no bot named {candidate!r}; bots: {', '.join(names)}")
    if candidate is not None and mode != "gauntlet":
        where = " (an SPRT league names its candidate in [sprt])" if mode == "sprt" else ""
        raise top.fail("candidate", f'only allowed with mode = "gauntlet"{where}')
    if mode == "gauntlet" and candidate is None:
        raise top.fail("candidate", "mode 'gauntlet' needs candidate = \"<bot name>\"")

    sprt = None
    warnings: list[str] = []
    if mode == "sprt":
        if len(players) != 1:
            raise top.fail("players", "an SPRT league plays one table size")
        sprt = _sprt(_Reader(source, top.get("sprt", dict), "sprt."), names, players[0])
        if "rounds" in data:
            warnings.append(top.line("rounds", _SPRT_ROUNDS))
    elif "sprt" in data:
        raise top.fail("sprt", 'only allowed with mode = "sprt"')
    knockout = None
    if mode == "knockout":
        reader = _Reader(source, top.get("knockout", dict), "knockout.")
        knockout = _knockout(reader, len(bots), players, scheduled)
        if "rounds" in data:
            warnings.append(top.line("rounds", _KNOCKOUT_ROUNDS))
    elif "knockout" in data:
        raise top.fail("knockout", 'only allowed with mode = "knockout"')
    if mode == "swiss" and len(players) != 1:
        raise top.fail("players", "a Swiss league plays one table size")

    needed = max(players, default=0) if scheduled else 0
    if mode in ("round-robin", "swiss") and len(bots) < needed:
        raise top.fail(
            "bots",
            f"{counted(len(bots), 'bot')} cannot fill a table of {needed} seats; add bots",
        )
    if mode == "gauntlet" and len(bots) < needed:
        raise top.fail("bots", f"a gauntlet with {needed} seats needs at least {needed} bots")
    return LeagueConfig(
        name=name,
        engine=engine_name,
        engine_version=top.get("engine_version", str, "") if engine is None else engine.version,
        players=players,
        mode=mode,
        rounds=rounds,
        seed=(0 if stored else secrets.randbits(63)) if seed is None else seed,
        seed_drawn=seed is None and not stored,
        options=options,
        limits=limits,
        policy=policy,
        bots=bots,
        candidate=candidate,
        sprt=sprt,
        knockout=knockout,
        sandbox=sandbox,
        ponder=ponder,
        source=source,
        warnings=tuple(warnings),
        scheduled=scheduled,
        rules_known=not stored or all(key in data for key in RULE_KEYS),
    )


def _engine(top: _Reader, name: str) -> Engine:
    try:
        return load_engine(name)
    except ConfigError as exc:
        raise top.fail("engine", str(exc)) from None


_SPRT_ROUNDS = (
    "has no effect in an SPRT league, which plays blocks until its test decides "
    "(at most sprt.max_blocks); remove it"
)


_KNOCKOUT_ROUNDS = (
    "has no effect in a knockout, which plays its heats down to a final table; remove it"
)


def _knockout(
    reader: _Reader, field_size: int, players: tuple[int, ...], scheduled: bool
) -> KnockoutSpec:
    """The ``[knockout]`` table, checked against the field and the league's table sizes."""
    reader.check_keys({"stages", "tiebreak_blocks", "seeding"})
    stages = []
    for i, entry in enumerate(reader.get("stages", list)):
        if not isinstance(entry, dict):
            raise reader.fail(f"stages[{i}]", "each stage is a table {table = 4, advance = 2}")
        stage = _Reader(reader.source, entry, f"knockout.stages[{i}].")
        stage.check_keys({"table", "advance"})
        stages.append(Stage(stage.get("table", int), stage.get("advance", int, 1)))
    problem = check_stages(stages)
    if problem is not None:
        raise reader.fail("stages", problem)
    seeding = reader.get("seeding", str, "file")
    if seeding not in SEEDINGS:
        raise reader.fail(
            "seeding", f"must be one of {', '.join(SEEDINGS)}, got {spelled(seeding)}"
        )
    spec = KnockoutSpec(tuple(stages), reader.positive_int("tiebreak_blocks", 1, 0), seeding)
    if scheduled:
        if field_size < 2:
            raise reader.fail("stages", "a knockout needs at least 2 bots")
        for number, sizes in enumerate(table_sizes(field_size, stages), start=1):
            for size in sorted(set(sizes) - set(players)):
                raise reader.fail(
                    "stages",
                    f"stage {number} of a field of {field_size} seats a table of {size}, "
                    f"which players = {spelled(list(players))} does not list; add {size} "
                    "to players (every table size of every stage)",
                )
    return spec


def load_engine(name: str) -> Engine:
    """The engine called ``name``; an unknown name is a :class:`ConfigError` listing the
    valid ones."""
    try:
        return engines.get(name)
    except engines.UnknownEngine as exc:
        raise ConfigError(str(exc)) from None


def default_players(engine: Engine) -> int:
    """The table size used when none is given: 2, or the engine's only size."""
    return min(max(2, engine.min_players), engine.max_players)


def check_game(
    engine: Engine, players: Iterable[int], options: Mapping[str, Any]
) -> dict[str, Any]:
    """``options`` resolved (defaults filled in) for tables of each size in ``players``.

    The one check of player counts and options behind ``arena run`` (the league file),
    ``arena play`` and ``arena check-bot``; raises :class:`ConfigError` ``players: ...`` or
    ``options: ...``.
    """
    resolved: dict[str, Any] = {}
    for count in players:
        if not engine.min_players <= count <= engine.max_players:
            raise ConfigError(
                f"players: {count} is outside this engine's range "
                f"{engine.min_players}..{engine.max_players}"
            )
        try:
            resolved = engine.check(count, options)
        except OptionError as exc:
            raise ConfigError(f"options: {exc}") from None
    return resolved


def _players(top: _Reader, default: int) -> tuple[int, ...]:
    value = top.get("players", (int, list), default)
    counts = value if isinstance(value, list) else [value]
    if not counts:
        raise top.fail("players", "must name at least one table size")
    for count in counts:
        if isinstance(count, bool) or not isinstance(count, int):
            raise top.fail("players", f"expected integers, got {spelled(count)}")
    if len(set(counts)) != len(counts):
        raise top.fail("players", "a table size is listed twice")
    return tuple(counts)


def _limits(reader: _Reader, base: Limits | None = None, keys: Sequence[str] = ()) -> Limits:
    """Read a limits table over ``base``; only ``keys`` are allowed (default: all)."""
    allowed = tuple(keys) or tuple(f.name for f in fields(Limits))
    reader.check_keys(set(allowed))
    defaults = base or Limits()
    values = {
        key: reader.positive_int(
            key, getattr(defaults, key), minimum=0 if key in _ZERO_ALLOWED else 1
        )
        for key in allowed
    }
    return replace(defaults, **values)


def _policy(reader: _Reader) -> Policy:
    reader.check_keys({f.name for f in fields(Policy)})
    defaults = Policy()
    values: dict[str, str] = {}
    for f in fields(Policy):
        value = reader.get(f.name, str, getattr(defaults, f.name))
        if value not in POLICIES:
            valid = ", ".join(POLICIES)
            raise reader.fail(f.name, f"must be one of {valid}, got {spelled(value)}")
        values[f.name] = value
    return Policy(**values)


def _bots(
    top: _Reader, limits: Limits, sandbox: str, ponder: bool, base: Path | None
) -> tuple[BotSpec, ...]:
    """The ``[[bots]]``; ``base`` None: stored commands, taken as written (not checked)."""
    raw = top.get("bots", list)
    bots: list[BotSpec] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise top.fail(f"bots[{i}]", "each bot is a table with name and cmd ([[bots]])")
        reader = _Reader(top.source, entry, f"bots[{i}].")
        reader.check_keys({"name", "cmd", "limits"})
        name = reader.get("name", str)
        if not name or not name.isprintable() or "/" in name or name.strip() != name:
            raise reader.fail("name", f"must be a printable name without '/', got {spelled(name)}")
        if len(name) > MAX_NAME:
            raise reader.fail("name", f"is {len(name)} characters long; at most {MAX_NAME}")
        if name in seen:
            raise reader.fail("name", f"duplicate bot name {name!r}; names must be unique")
        seen.add(name)
        raw_cmd = reader.get("cmd", str)
        human = raw_cmd.strip() == HUMAN
        if human:
            cmd: tuple[str, ...] = (HUMAN,)
        elif base is None:
            cmd = _split_stored(raw_cmd, reader)
        else:
            cmd = parse_command(raw_cmd, reader.fail, base)
        own = reader.get("limits", dict, {})
        own_reader = _Reader(top.source, own, f"bots[{i}].limits.")
        own_limits = _limits(own_reader, limits, RESOURCE_KEYS)
        overrides = {key: getattr(own_limits, key) for key in own}
        bots.append(BotSpec(name, cmd, own_limits, overrides, sandbox, ponder))
    if not bots and base is not None:
        raise top.fail("bots", "the field is empty; add [[bots]] entries")
    return tuple(bots)


def _split_stored(cmd: str, reader: _Reader) -> tuple[str, ...]:
    """A stored bot command, split as a shell would (it was checked when it was run)."""
    try:
        argv = tuple(shlex.split(cmd))
    except ValueError as exc:
        raise reader.fail("cmd", f"cannot split command {cmd!r}: {exc}") from None
    if not argv:
        raise reader.fail("cmd", "empty command")
    return argv


MAX_NAME = 64  # characters in a league or bot name (they become file and folder names)
MAX_COMMAND = 4096  # characters in a bot command
SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".rb", ".pl", ".lua", ".jar")
_INLINE_FLAGS = ("-m", "-c", "-e", "--eval")  # their value is a module or code, not a path
_PYTHON_FLAGS = frozenset("bBdEhiIOPqsSuvVx")  # Python's options that take no value
# ... and those that take one: a setting, not a path (the script follows)
_PYTHON_SETTINGS = ("-W", "-X", "--check-hash-based-pycs")


def python_module(argv: Sequence[str]) -> str | None:
    """The module a Python command line runs with ``-m`` (``python -u -m bots.random``), or
    None: no ``-m`` among the interpreter's own options, or options it cannot read surely."""
    args = iter(argv[1:])
    for arg in args:
        if arg in _PYTHON_SETTINGS:
            next(args, None)
            continue
        if arg.startswith(("-W", "-X")):
            continue
        flags = arg[1:].partition("m")
        if arg.startswith("-") and not arg.startswith("--") and set(flags[0]) <= _PYTHON_FLAGS:
            if not flags[1]:
                if flags[0]:
                    continue  # flags alone: -u, -IS
                return None  # "-" alone: the program comes from standard input
            return flags[2] or next(args, None)  # -m NAME, -mNAME, -um NAME
        return None  # a script, -c, or an option not known here
    return None


def parse_command(cmd: str, fail: Any = None, base: Path | None = None) -> tuple[str, ...]:
    """Split a bot command as a shell would and check the files it names.

    The program must exist (on ``PATH``, or as a path) and be executable; the script it runs
    (its first argument that is neither an option nor an option's value, when that argument
    names a file: it contains ``/`` or ends in a script suffix such as ``.py``) must exist
    and be readable. Relative paths are resolved against ``base`` (the league file's folder;
    default: the current folder) and made absolute when they exist, because every bot runs
    in a private working directory.
    """

    def error(message: str) -> ConfigError:
        return fail("cmd", message) if fail else ConfigError(message)

    if len(cmd) > MAX_COMMAND:
        raise error(f"the command is {len(cmd)} characters long; at most {MAX_COMMAND}")
    try:
        argv = shlex.split(cmd)
    except ValueError as exc:
        raise error(f"cannot split command {cmd!r}: {exc}") from None
    if not argv:
        raise error("empty command")
    folder = base if base is not None else Path.cwd()
    program = argv[0]
    if "/" in program:
        path = _named_file(folder, program, error, "program")
        if not os.access(path, os.X_OK):
            raise error(f"{program!r} is not executable (chmod +x, or run it with its interpreter)")
        resolved = [str(path)]
    else:
        if program not in ("python", "python3") and shutil.which(program) is None:
            raise error(f"command not found: {program!r} (in {cmd!r})")
        resolved = [program]
    inline = False
    script_seen = False
    for arg in argv[1:]:
        positional = not inline and not arg.startswith("-")
        inline = arg in _INLINE_FLAGS or arg in _PYTHON_SETTINGS
        if not positional or not _looks_like_path(arg):
            resolved.append(arg)
        elif not script_seen:  # the script the program runs: it must be there
            resolved.append(str(_named_file(folder, arg, error, "script")))
        else:  # a later path (data, an output file): absolute when it exists
            resolved.append(_absolute_if_there(folder, arg))
        script_seen = script_seen or positional or arg in _INLINE_FLAGS
    return tuple(resolved)


def _absolute_if_there(folder: Path, arg: str) -> str:
    try:
        path = folder / arg
        return str(path.resolve()) if path.exists() else arg
    except OSError:  # a name longer than the file system allows is no file
        return arg


def _short(text: str) -> str:
    return repr(text) if len(text) <= 80 else repr(text[:60]) + f"... ({len(text)} characters)"


def _looks_like_path(arg: str) -> bool:
    return "/" in arg or arg.lower().endswith(SCRIPT_SUFFIXES)


def _named_file(folder: Path, name: str, error: Any, role: str) -> Path:
    """The absolute path of a file a command names as its ``role`` (program, script); it
    must exist, be a file and be readable."""
    path = (folder / name).resolve() if not Path(name).is_absolute() else Path(name)
    where = "" if Path(name).is_absolute() else f" (relative to {folder})"
    try:
        exists, folder_named = path.is_file(), path.is_dir()
    except OSError as exc:  # e.g. a name longer than the file system allows
        raise error(f"{_short(name)}: not a usable path: {exc.strerror}") from None
    if folder_named:
        raise error(f"{_short(name)} is a folder, not a {role}{where}")
    if not exists:
        raise error(f"no such file: {_short(name)}{where}")
    if not os.access(path, os.R_OK):
        raise error(f"{_short(name)} is not readable{where}")
    return path


MAX_SPRT_ELO = 2000
"""The largest ``elo0``/``elo1`` in magnitude: 2000 Elo is an expected score of 0.99999;
beyond it the test's hypotheses say nothing a block of games could tell apart."""


def _sprt(reader: _Reader, names: list[str], seats: int) -> SprtSpec:
    reader.check_keys({f.name for f in fields(SprtSpec)})
    candidate = reader.get("candidate", str)
    opponent = reader.get("opponent", str)
    for key, value in (("candidate", candidate), ("opponent", opponent)):
        if value not in names:
            raise reader.fail(key, f"no bot named {value!r}; bots: {', '.join(names)}")
    if candidate == opponent:
        raise reader.fail("opponent", "must differ from the candidate")
    fillers = tuple(reader.get("fillers", list, []))
    for filler in fillers:
        if filler not in names:
            raise reader.fail("fillers", f"no bot named {filler!r}")
        if filler in (candidate, opponent):
            raise reader.fail("fillers", f"{filler!r} already plays as candidate or opponent")
    if len(set(fillers)) != len(fillers):
        raise reader.fail("fillers", "each filler bot may be named once")
    if seats - 2 != len(fillers):
        raise reader.fail("fillers", f"a {seats}-seat game needs {seats - 2} filler bot(s)")

    def number(key: str, default: float) -> float:
        raw = reader.get(key, (int, float), default)
        try:
            value = float(raw)
        except OverflowError:
            raise reader.fail(key, f"must be a finite number, got {raw}") from None
        if not math.isfinite(value):
            raise reader.fail(key, f"must be a finite number, got {raw}")
        return value

    def elo(key: str, default: float) -> float:
        value = number(key, default)
        if not -MAX_SPRT_ELO <= value <= MAX_SPRT_ELO:
            raise reader.fail(
                key, f"must be between -{MAX_SPRT_ELO} and {MAX_SPRT_ELO} Elo, got {value:g}"
            )
        return value

    spec = SprtSpec(
        candidate=candidate,
        opponent=opponent,
        elo0=elo("elo0", 0.0),
        elo1=elo("elo1", 10.0),
        alpha=number("alpha", 0.05),
        beta=number("beta", 0.05),
        max_blocks=reader.positive_int("max_blocks", 1000),
        fillers=fillers,
    )
    if not spec.elo0 < spec.elo1:
        raise reader.fail("elo1", "must be greater than elo0")
    for key in ("alpha", "beta"):
        if not 0 < getattr(spec, key) < 0.5:
            raise reader.fail(key, "must be between 0 and 0.5")
    return spec
