"""One finished game as a type: :class:`GameRecord`, with one :class:`SeatRecord` per seat.

The referee builds it, the results folder stores it as one line of ``games.jsonl`` (its JSON
form, below), and the ratings, the sequential test and every tool read its attributes.

The JSON form keeps the per-seat values in parallel lists, one entry per seat::

    {"format": 3, "id": "t0-b0-r1", "engine": "space-five", "engine_version": "4",
     "options": {...}, "seed": 176127441126959, "players": 2, "table": 0, "block": 0,
     "rotation": 1, "seating": ["greedy", "random"], "moves": [3, 0, ...],
     "scores": [0, -25], "ranks": [1, 2], "detail": {...},
     "verdicts": [{}, {"timeout": 1}], "forfeit": [null, "crash"], "notes": [[], ["..."]],
     "decisions": [69, 50], "think_ms": [38.2, 8.4], "think_us": [[412, ...], [130, ...]],
     "bot_notes": [[], [[1, "eval +2"]]], "wall_ms": 78.3}

``forfeit`` names why a seat forfeited (:data:`FORFEITS`) or is ``null``; ``think_us`` is
each decision's think time and ``bot_notes`` the ``(step, note)`` pairs a bot sent. Format 2
lines (without those two) still load, as do lines written before the ``format`` key existed
(format 1): their ``forfeit`` is a boolean, read as the last verdict class recorded for that
seat, and keys they lack take neutral values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast, get_args

import orjson

import engines
from arena import protocol
from arena.errors import VERDICTS, RecordError
from engines.base import OptionError

if TYPE_CHECKING:
    from engines.base import Engine, State

FORMAT = 3
NOTES_BUDGET = 2000
"""Characters of bot notes kept per seat and game; later notes are dropped."""
NOT_ASKED = -1
"""A ``think_us`` entry for a turn the referee played for the seat."""

GameRow = dict[str, Any]
"""A game in its JSON form (``GameRecord.to_dict()``, or a line that
:func:`well_formed_rows` accepted): what reading many games at once works on."""

Forfeit = Literal["timeout", "illegal", "protocol", "crash", "startup", "disqualified", "resign"]
"""Why a seat forfeited: the verdict class of the fault that ended its game,
``disqualified``: the bot failed to start too often and was not started again, or
``resign``: the person at a human seat gave up."""

FORFEITS: tuple[str, ...] = get_args(Forfeit)
assert FORFEITS[: len(VERDICTS)] == VERDICTS


@dataclass(frozen=True)
class SeatRecord:
    """What one seat of a finished game did."""

    bot: str
    score: float
    rank: int
    forfeit: Forfeit | None = None
    verdicts: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    decisions: int = 0
    think_ms: float = 0.0
    think_us: tuple[int, ...] = ()
    bot_notes: tuple[tuple[int, str], ...] = ()

    @property
    def faults(self) -> int:
        return sum(self.verdicts.values())


@dataclass(frozen=True)
class GameRecord:
    """One finished game: what was played (engine, seed, seating, moves) and how it ended."""

    id: str
    engine: str
    engine_version: str
    options: Mapping[str, Any]
    seed: int
    table: int
    block: int
    rotation: int
    seats: tuple[SeatRecord, ...]
    moves: tuple[int, ...] = ()
    detail: Mapping[str, Any] = field(default_factory=dict)
    wall_ms: float = 0.0

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def seating(self) -> tuple[str, ...]:
        """Bot name per seat."""
        return tuple(seat.bot for seat in self.seats)

    @property
    def scores(self) -> tuple[float, ...]:
        return tuple(seat.score for seat in self.seats)

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(seat.rank for seat in self.seats)

    def rules(self) -> Engine:
        """The engine this game was played with, to replay it; one this arena does not
        have is a :class:`RecordError` naming the game."""
        try:
            return engines.get(self.engine)
        except engines.UnknownEngine as exc:
            raise RecordError(f"game {self.id}: {exc}") from None

    def first_state(self) -> State:
        """The game before its first move, dealt again from its seed by :meth:`rules`, with
        its options as the engine checks them (defaults filled in, as ``arena run`` resolves
        a league's); options the engine refuses are a :class:`RecordError` naming the game."""
        engine = self.rules()
        try:
            options = engine.check(self.players, self.options)
        except OptionError as exc:
            raise RecordError(
                f"game {self.id}: the stored options are not valid for this engine: {exc}"
            ) from None
        return engine.new_game(self.players, self.seed, options)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (see the module docstring)."""
        seats = self.seats
        return {
            "format": FORMAT,
            "id": self.id,
            "engine": self.engine,
            "engine_version": self.engine_version,
            "options": dict(self.options),
            "seed": self.seed,
            "players": len(seats),
            "table": self.table,
            "block": self.block,
            "rotation": self.rotation,
            "seating": [s.bot for s in seats],
            "moves": list(self.moves),
            "scores": [s.score for s in seats],
            "ranks": [s.rank for s in seats],
            "detail": dict(self.detail),
            "verdicts": [dict(s.verdicts) for s in seats],
            "forfeit": [s.forfeit for s in seats],
            "notes": [list(s.notes) for s in seats],
            "decisions": [s.decisions for s in seats],
            "think_ms": [s.think_ms for s in seats],
            "think_us": [list(s.think_us) for s in seats],
            "bot_notes": [[list(note) for note in s.bot_notes] for s in seats],
            "wall_ms": self.wall_ms,
        }

    def to_json(self) -> bytes:
        """One ``games.jsonl`` line: compact JSON ending in ``\\n``."""
        return protocol.encode(self.to_dict())

    @classmethod
    def from_json(cls, line: bytes | str) -> GameRecord:
        """Parse one ``games.jsonl`` line; raise :class:`RecordError` if it is not a game."""
        try:
            data = orjson.loads(line)
        except (ValueError, UnicodeDecodeError):
            raise RecordError(f"not JSON: {_preview(line)}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """A record from its JSON form (format 1, 2 or 3); raise :class:`RecordError`."""
        if not isinstance(data, dict):
            raise RecordError(f"expected a JSON object, got {_preview(orjson.dumps(data))}")
        record = _well_formed(data)
        return record if record is not None else _Reader(data).record()


def not_replayable(step: int, index: int) -> str:
    """Why a stored game stops replaying at its move ``step`` (counted from 0), whose stored
    action index ``index`` the replay cannot play: the move counted from 1, as the game
    viewer counts it, its step, as ``--show`` and the protocol count, and the stored value."""
    return (
        f"move {step + 1} (step {step}, stored index {index}) is not legal in the replay: "
        "the stored line is damaged or was edited"
    )


# --------------------------------------------------------------------------- reading

# A results folder can hold 100,000s of lines, so a line is read in two steps:
# :func:`_well_formed` accepts a format 2 or 3 line in a few C-level passes (``type`` sets,
# ``min``, ``isfinite``) and builds the record; only a line it does not accept (format 1, or
# a damaged line) goes to :class:`_Reader`, which checks key by key and says what is wrong.
# ``_well_formed`` accepts nothing that ``_Reader`` would refuse (tests/test_record.py holds
# the two to the same answers).

_SCALAR_KEYS = (
    ("id", str),
    ("engine", str),
    ("engine_version", str),
    ("options", dict),
    ("seed", int),
    ("table", int),
    ("block", int),
    ("rotation", int),
    ("detail", dict),
    ("moves", list),
)
_SEAT_KEYS = ("seating", "scores", "ranks", "forfeit", "verdicts", "notes", "decisions", "think_ms")
_SEAT_KEYS_3 = ("think_us", "bot_notes")  # new in format 3
_INT = frozenset({int})
_NUMBER = frozenset({int, float})
_STR = frozenset({str})
_DICT = frozenset({dict})
_LIST = frozenset({list})
_FORFEIT_OR_NONE = frozenset({None, *get_args(Forfeit)})


def _well_formed(data: dict[str, Any]) -> GameRecord | None:
    """The record of a well-formed format 2 or 3 line, or None (then ask :class:`_Reader`)."""
    try:
        version = data["format"]
        if type(version) is not int or version not in (2, FORMAT):
            return None
        for key, kind in _SCALAR_KEYS:
            if type(data[key]) is not kind:
                return None
        keys = _SEAT_KEYS + _SEAT_KEYS_3 if version == FORMAT else _SEAT_KEYS
        columns = [data[key] for key in keys]
        seating, scores, ranks, forfeits, verdicts, notes, decisions, think = columns[:8]
        players = len(seating)
        if players == 0 or data["players"] != players or type(data["players"]) is not int:
            return None
        if any(type(column) is not list or len(column) != players for column in columns):
            return None
        moves, wall_ms = data["moves"], data["wall_ms"]
        if not (
            _STR.issuperset(map(type, seating))
            and _NUMBER.issuperset(map(type, scores))
            and _NUMBER.issuperset(map(type, think))
            and type(wall_ms) in _NUMBER
            and all(map(math.isfinite, (*scores, *think, wall_ms)))
            and _INT.issuperset(map(type, ranks))
            and min(ranks) >= 1
            and _INT.issuperset(map(type, decisions))
            and min(decisions) >= 0
            and _INT.issuperset(map(type, moves))
            and min(moves, default=0) >= 0
            and _FORFEIT_OR_NONE.issuperset(forfeits)
            and all(_well_formed_seat(v, n) for v, n in zip(verdicts, notes, strict=True))
        ):
            return None
        if version == FORMAT:
            if not all(map(_well_formed_turns, columns[8])):
                return None
            said = [_well_formed_notes(seat_notes) for seat_notes in columns[9]]
            if None in said:
                return None
            turns = [tuple(seat_turns) for seat_turns in columns[8]]
        else:
            turns, said = [()] * players, [()] * players
    except (KeyError, TypeError):
        return None
    notes = [tuple(seat_notes) for seat_notes in notes]
    per_seat = (seating, scores, ranks, forfeits, verdicts, notes, decisions, think, turns, said)
    return GameRecord(
        id=data["id"],
        engine=data["engine"],
        engine_version=data["engine_version"],
        options=data["options"],
        seed=data["seed"],
        table=data["table"],
        block=data["block"],
        rotation=data["rotation"],
        seats=tuple(map(SeatRecord, *per_seat)),
        moves=tuple(moves),
        detail=data["detail"],
        wall_ms=wall_ms,
    )


def well_formed_rows(rows: list[Any]) -> bool:
    """True when every row is a well-formed format 2 or 3 line (what ``from_dict`` takes
    without :class:`_Reader`), checked column by column: a few C-level passes per key over
    thousands of rows instead of a dozen calls per row. False says only that some row is
    not: check those one by one (:meth:`GameRecord.from_dict`).

    A row accepted here is the JSON form of its record: every value the record holds is the
    row's own (a list where the record has a tuple; a format 2 row has no ``think_us`` and
    ``bot_notes``, whose record has none).
    """
    if not rows:
        return True
    try:
        if not _DICT.issuperset(map(type, rows)):
            return False
        formats, players, wall_ms, *columns = zip(*map(_ROW_KEYS, rows), strict=True)
        scalars, per_seat = columns[: len(_SCALAR_KEYS)], columns[len(_SCALAR_KEYS) :]
        if not (
            _INT.issuperset(map(type, formats))
            and _FORMATS.issuperset(formats)
            and all(
                frozenset({kind}).issuperset(map(type, column))
                for (_, kind), column in zip(_SCALAR_KEYS, scalars, strict=True)
            )
            and _INT.issuperset(map(type, players))
            and min(players) >= 1
            and _LIST.issuperset(map(type, chain.from_iterable(per_seat)))
            and list(map(len, chain.from_iterable(per_seat))) == list(players) * len(per_seat)
        ):
            return False
        seating, scores, ranks, forfeits, verdicts, notes, decisions, think = (
            list(chain.from_iterable(column)) for column in per_seat
        )
        moves = list(chain.from_iterable(scalars[_MOVES]))
        numbers = [*scores, *think, *wall_ms]
        return (
            _STR.issuperset(map(type, seating))
            and _NUMBER.issuperset(map(type, numbers))
            # a sum is finite only if every number is (inf and nan stay); else look closer
            and (math.isfinite(sum(numbers)) or all(map(math.isfinite, numbers)))
            and _INT.issuperset(map(type, ranks))
            and min(ranks) >= 1
            and _INT.issuperset(map(type, decisions))
            and min(decisions) >= 0
            and _INT.issuperset(map(type, moves))
            and min(moves, default=0) >= 0
            and _FORFEIT_OR_NONE.issuperset(forfeits)
            and _DICT.issuperset(map(type, verdicts))
            and (not any(verdicts) or _counts_ok(chain.from_iterable(map(dict.values, verdicts))))
            and _LIST.issuperset(map(type, notes))
            and (not any(notes) or _STR.issuperset(map(type, chain.from_iterable(notes))))
            and _format_3_ok(
                [row for row, version in zip(rows, formats, strict=True) if version == 3]
            )
        )
    except (KeyError, TypeError, ValueError):
        return False


def _format_3_ok(rows: list[dict[str, Any]]) -> bool:
    """The keys format 3 added, for its rows: each turn's think time and the bots' notes."""
    if not rows:
        return True
    sizes = [len(row["seating"]) for row in rows]
    by_game = list(chain.from_iterable(zip(*map(_ROW_KEYS_3, rows), strict=True)))
    if not (_LIST.issuperset(map(type, by_game)) and list(map(len, by_game)) == sizes * 2):
        return False
    by_seat = list(chain.from_iterable(by_game))  # every seat's turns, then every seat's notes
    if not _LIST.issuperset(map(type, by_seat)):
        return False
    seats = sum(sizes)
    times = list(chain.from_iterable(by_seat[:seats]))
    notes = list(chain.from_iterable(by_seat[seats:]))
    if not (
        _INT.issuperset(map(type, times))
        and min(times, default=0) >= NOT_ASKED
        and _LIST.issuperset(map(type, notes))
    ):
        return False
    if not notes:
        return True
    if set(map(len, notes)) != {2}:
        return False
    steps, texts = zip(*notes, strict=True)
    return (
        _INT.issuperset(map(type, steps)) and min(steps) >= 0 and _STR.issuperset(map(type, texts))
    )


def _counts_ok(counts: Iterable[Any]) -> bool:
    values = list(counts)
    return _INT.issuperset(map(type, values)) and min(values, default=0) >= 0


_ROW_KEYS = itemgetter(
    "format", "players", "wall_ms", *(key for key, _ in _SCALAR_KEYS), *_SEAT_KEYS
)
_ROW_KEYS_3 = itemgetter(*_SEAT_KEYS_3)
_MOVES = [key for key, _ in _SCALAR_KEYS].index("moves")
_FORMATS = frozenset({2, FORMAT})


def _well_formed_seat(verdicts: Any, notes: Any) -> bool:
    return (
        type(verdicts) is dict
        and _INT.issuperset(map(type, verdicts.values()))
        and min(verdicts.values(), default=0) >= 0
        and type(notes) is list
        and _STR.issuperset(map(type, notes))
    )


def _well_formed_turns(turns: Any) -> bool:
    return (
        type(turns) is list
        and _INT.issuperset(map(type, turns))
        and min(turns, default=0) >= NOT_ASKED
    )


def _well_formed_notes(notes: Any) -> tuple[tuple[int, str], ...] | None:
    if type(notes) is not list:
        return None
    said = []
    for note in notes:
        if not (
            type(note) is list
            and len(note) == 2
            and type(note[0]) is int
            and note[0] >= 0
            and type(note[1]) is str
        ):
            return None
        said.append((note[0], note[1]))
    return tuple(said)


T = TypeVar("T")


class _Missing(Enum):
    MISSING = "missing"


MISSING = _Missing.MISSING


class _Reader:
    """Checks one parsed line key by key; every problem becomes a :class:`RecordError`."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        version = data.get("format", 1)
        if version not in (1, 2, FORMAT) or isinstance(version, bool):
            raise RecordError(f"unknown record format {version!r} (this arena reads 1 to 3)")
        self.version: int = version

    def record(self) -> GameRecord:
        seating = self.get("seating", _strings)
        players = len(seating)
        if players == 0:
            raise RecordError("'seating' is empty")
        if "players" in self.data and self.data["players"] != players:
            raise RecordError(f"'players' is {self.data['players']!r}, 'seating' has {players}")
        scores = self.seat_list("scores", _numbers, players)
        ranks = self.seat_list("ranks", _ranks, players)
        no_verdicts: dict[str, int] = {}
        no_notes: tuple[str, ...] = ()
        verdicts = self.seat_list("verdicts", _each(_verdicts), players, default=no_verdicts)
        notes = self.seat_list("notes", _each(_strings), players, default=no_notes)
        decisions = self.seat_list("decisions", _counts, players, default=0)
        think = self.seat_list("think_ms", _numbers, players, default=0.0)
        no_turns: tuple[int, ...] = ()
        no_said: tuple[tuple[int, str], ...] = ()
        turns = self.seat_list("think_us", _each(_turns), players, default=no_turns)
        said = self.seat_list("bot_notes", _each(_said), players, default=no_said)
        if self.version == 1:
            flags = self.seat_list("forfeit", _each(_flag), players, default=False)
            forfeits = [
                _old_forfeit(v) if f else None for f, v in zip(flags, verdicts, strict=True)
            ]
        else:
            forfeits = self.seat_list("forfeit", _each(_forfeit), players)
        per_seat = (seating, scores, ranks, forfeits, verdicts, notes, decisions, think)
        seats = tuple(SeatRecord(*values) for values in zip(*per_seat, turns, said, strict=True))
        return GameRecord(
            id=self.get("id", _string),
            engine=self.get("engine", _string),
            engine_version=self.get("engine_version", _string, "?"),
            options=self.get("options", _object, {}),
            seed=self.get("seed", _integer),
            table=self.get("table", _integer, 0),
            block=self.get("block", _integer, 0),
            rotation=self.get("rotation", _integer, 0),
            seats=seats,
            moves=tuple(self.get("moves", _moves, ())),
            detail=self.get("detail", _object, {}),
            wall_ms=self.get("wall_ms", _number, 0.0),
        )

    def may_lack(self, key: str) -> bool:
        """Whether this line's format may leave ``key`` out (it came in a later format)."""
        return self.version < _SINCE.get(key, 2)

    def get(self, key: str, check: Callable[[Any], T], default: T | _Missing = MISSING) -> T:
        if key not in self.data:
            if self.may_lack(key) and not isinstance(default, _Missing):
                return default
            raise RecordError(f"no {key!r}")
        try:
            return check(self.data[key])
        except (TypeError, ValueError) as exc:
            raise RecordError(f"{key!r}: {exc}") from None

    def seat_list(
        self,
        key: str,
        check: Callable[[list[Any]], list[T]],
        players: int,
        default: T | _Missing = MISSING,
    ) -> list[T]:
        """A per-seat list: ``check`` validates the whole list (one entry per seat)."""
        if key not in self.data and self.may_lack(key) and not isinstance(default, _Missing):
            return [default] * players
        values = self.get(key, _list)
        if len(values) != players:
            raise RecordError(f"{key!r} has {len(values)} entries for {players} seats")
        try:
            return check(values)
        except (TypeError, ValueError) as exc:
            raise RecordError(f"{key!r}: {exc}") from None


# The format that made a key required; format 1 lines may lack every key beside the core.
_SINCE = {"think_us": 3, "bot_notes": 3}


def _preview(line: bytes | str, limit: int = 60) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.strip()
    return repr(text[:limit] + ("..." if len(text) > limit else ""))


def _old_forfeit(verdicts: Mapping[str, int]) -> Forfeit:
    """The reason a format-1 seat forfeited: the last verdict class it got (its final fault)."""
    last = list(verdicts)[-1] if verdicts else "crash"
    return cast(Forfeit, last) if last in FORFEITS else "crash"


def _typed(kind: type | tuple[type, ...], name: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, kind):
            raise TypeError(f"expected {name}, got {orjson.dumps(value).decode()[:40]}")
        return value

    return check


_string: Callable[[Any], str] = _typed(str, "a string")
_integer: Callable[[Any], int] = _typed(int, "an integer")
_list: Callable[[Any], list[Any]] = _typed(list, "a list")
_object: Callable[[Any], dict[str, Any]] = _typed(dict, "an object")


# Whole lists are checked with C-level passes (``set(map(type, ...))`` against _INT and
# _NUMBER, ``min``): a results folder of 100,000 games is read element by element otherwise.
# ``type(True)`` is ``bool``, so booleans are refused where numbers are expected.


def _numbers(values: list[Any]) -> list[float]:
    if not _NUMBER.issuperset(map(type, values)):
        raise TypeError(f"expected numbers, got {_shown(values)}")
    if not all(map(math.isfinite, values)):
        raise ValueError(f"expected finite numbers, got {_shown(values)}")
    return values


def _integers_from(lowest: int, name: str) -> Callable[[list[Any]], list[int]]:
    def check(values: list[Any]) -> list[int]:
        if not _INT.issuperset(map(type, values)):
            raise TypeError(f"expected an integer for each entry, got {_shown(values)}")
        if values and min(values) < lowest:
            raise ValueError(f"expected a {name} (at least {lowest}), got {_shown(values)}")
        return values

    return check


_counts = _integers_from(0, "count")
_ranks = _integers_from(1, "rank")


def _moves(value: Any) -> list[int]:
    return _counts(_list(value))


def _number(value: Any) -> float:
    return _numbers([value])[0]


def _each(check: Callable[[Any], T]) -> Callable[[list[Any]], list[T]]:
    """A list check from a check of one entry."""
    return lambda values: [check(value) for value in values]


def _shown(value: Any) -> str:
    return orjson.dumps(value).decode()[:40]


def _strings(value: Any) -> tuple[str, ...]:
    values = _list(value)
    if not frozenset({str}).issuperset(map(type, values)):
        raise TypeError(f"expected strings, got {_shown(values)}")
    return tuple(values)


def _turns(value: Any) -> tuple[int, ...]:
    values = _list(value)
    if not _INT.issuperset(map(type, values)):
        raise TypeError(f"expected integers, got {_shown(values)}")
    if values and min(values) < NOT_ASKED:
        raise ValueError(f"expected microseconds or {NOT_ASKED}, got {_shown(values)}")
    return tuple(values)


def _said(value: Any) -> tuple[tuple[int, str], ...]:
    said = _well_formed_notes(_list(value))
    if said is None:
        raise TypeError(f"expected [step, text] pairs, got {_shown(value)}")
    return said


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _forfeit(value: Any) -> Forfeit | None:
    if value is None:
        return None
    if value not in FORFEITS:
        raise ValueError(f"expected null or one of {', '.join(FORFEITS)}, got {value!r}")
    return cast(Forfeit, value)


def _verdicts(value: Any) -> dict[str, int]:
    verdicts = _object(value)
    _counts(list(verdicts.values()))
    return verdicts
