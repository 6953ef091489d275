"""One finished game as a type: :class:`GameRecord`, with one :class:`SeatRecord` per seat.

The referee builds it, the results folder stores it as one line of ``games.jsonl`` (its JSON
form, below), and the ratings, the sequential test and every tool read its attributes.

The JSON form keeps the per-seat values in parallel lists, one entry per seat::

    {"format": 2, "id": "t0-b0-r1", "engine": "space-five", "engine_version": "2",
     "options": {...}, "seed": 176127441126959, "players": 2, "table": 0, "block": 0,
     "rotation": 1, "seating": ["greedy", "random"], "moves": [3, 0, ...],
     "scores": [0, -25], "ranks": [1, 2], "detail": {...},
     "verdicts": [{}, {"timeout": 1}], "forfeit": [null, "crash"], "notes": [[], ["..."]],
     "decisions": [69, 50], "think_ms": [38.2, 8.4], "wall_ms": 78.3}

``forfeit`` names why a seat forfeited (:data:`FORFEITS`) or is ``null``. Lines written
before the ``format`` key existed (format 1) still load: their ``forfeit`` is a boolean, read
as the last verdict class recorded for that seat, and keys they lack take neutral values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, TypeVar, cast, get_args

import orjson

from arena import protocol
from arena.errors import VERDICTS, RecordError

FORMAT = 2

Forfeit = Literal["timeout", "illegal", "protocol", "crash", "startup", "disqualified"]
"""Why a seat forfeited: the verdict class of the fault that ended its game, or
``disqualified``: the bot failed to start too often and was not started again."""

FORFEITS: tuple[str, ...] = get_args(Forfeit)
assert FORFEITS[:-1] == VERDICTS


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
        """A record from its JSON form (format 1 or 2); raise :class:`RecordError`."""
        if not isinstance(data, dict):
            raise RecordError(f"expected a JSON object, got {_preview(orjson.dumps(data))}")
        return _Reader(data).record()


# --------------------------------------------------------------------------- reading

T = TypeVar("T")


class _Missing(Enum):
    MISSING = "missing"


MISSING = _Missing.MISSING


class _Reader:
    """Checks one parsed line key by key; every problem becomes a :class:`RecordError`."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        version = data.get("format", 1)
        if version not in (1, FORMAT) or isinstance(version, bool):
            raise RecordError(f"unknown record format {version!r} (this arena reads 1 and 2)")
        self.old = version == 1  # format 1: keys beside the core may be missing

    def record(self) -> GameRecord:
        seating = self.get("seating", _strings)
        players = len(seating)
        if players == 0:
            raise RecordError("'seating' is empty")
        if "players" in self.data and self.data["players"] != players:
            raise RecordError(f"'players' is {self.data['players']!r}, 'seating' has {players}")
        scores = self.seat_list("scores", _number, players)
        ranks = self.seat_list("ranks", _rank, players)
        no_verdicts: dict[str, int] = {}
        no_notes: tuple[str, ...] = ()
        verdicts = self.seat_list("verdicts", _verdicts, players, default=no_verdicts)
        notes = self.seat_list("notes", _strings, players, default=no_notes)
        decisions = self.seat_list("decisions", _count, players, default=0)
        think = self.seat_list("think_ms", _number, players, default=0.0)
        if self.old:
            flags = self.seat_list("forfeit", _flag, players, default=False)
            forfeits = [
                _old_forfeit(v) if f else None for f, v in zip(flags, verdicts, strict=True)
            ]
        else:
            forfeits = self.seat_list("forfeit", _forfeit, players)
        seats = tuple(
            SeatRecord(*values)
            for values in zip(
                seating, scores, ranks, forfeits, verdicts, notes, decisions, think, strict=True
            )
        )
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
            moves=tuple(self.get("moves", _counts, ())),
            detail=self.get("detail", _object, {}),
            wall_ms=self.get("wall_ms", _number, 0.0),
        )

    def get(self, key: str, check: Callable[[Any], T], default: T | _Missing = MISSING) -> T:
        if key not in self.data:
            if self.old and not isinstance(default, _Missing):
                return default
            raise RecordError(f"no {key!r}")
        try:
            return check(self.data[key])
        except (TypeError, ValueError) as exc:
            raise RecordError(f"{key!r}: {exc}") from None

    def seat_list(
        self, key: str, check: Callable[[Any], T], players: int, default: T | _Missing = MISSING
    ) -> list[T]:
        if key not in self.data and self.old and not isinstance(default, _Missing):
            return [default] * players
        values = self.get(key, _list)
        if len(values) != players:
            raise RecordError(f"{key!r} has {len(values)} entries for {players} seats")
        try:
            return [check(value) for value in values]
        except (TypeError, ValueError) as exc:
            raise RecordError(f"{key!r}: {exc}") from None


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


def _number(value: Any) -> float:
    number: float = _typed((int, float), "a number")(value)
    if not math.isfinite(number):
        raise ValueError(f"expected a finite number, got {number}")
    return number


def _count(value: Any) -> int:
    number = _integer(value)
    if number < 0:
        raise ValueError(f"expected a count, got {number}")
    return number


def _rank(value: Any) -> int:
    number = _integer(value)
    if number < 1:
        raise ValueError(f"expected a rank (1 or more), got {number}")
    return number


def _counts(value: Any) -> list[int]:
    return [_count(item) for item in _list(value)]


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(_string(item) for item in _list(value))


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
    return {_string(kind): _count(count) for kind, count in _object(value).items()}
