"""One finished game as a type: :class:`GameRecord`, with one :class:`SeatRecord` per seat.

The referee builds it, the results folder stores it as one line of ``games.jsonl`` (its JSON
form, below), and the ratings, the sequential test and every tool read its attributes.

The JSON form keeps the per-seat values in parallel lists, one entry per seat::

    {"format": 3, "id": "t0-b0-r1", "engine": "space-five", "engine_version": "4",
     "options": {...}, "seed": 176127441126959, "table": 0, "block": 0, "rotation": 1,
     "players": 2, "seating": ["greedy", "random"], "scores": [0, -25], "ranks": [1, 2],
     "forfeit": [null, "crash"], "verdicts": [{}, {"timeout": 1}], "notes": [[], ["..."]],
     "decisions": [69, 50], "think_ms": [38.2, 8.4], "think_us": [[412, ...], [130, ...]],
     "bot_notes": [[], [[1, "eval +2"]]], "moves": [3, 0, ...], "detail": {...},
     "wall_ms": 78.3}

``forfeit`` names why a seat forfeited (:data:`FORFEITS`) or is ``null``; ``think_us`` is
each decision's think time and ``bot_notes`` the ``(step, note)`` pairs a bot sent.

**One declaration.** Each attribute of the two classes says how it is saved,
``Annotated[type, Stored(KIND)]`` (:mod:`arena.codec`): its key (the attribute's name unless
given) and its kind. The writer (:meth:`GameRecord.to_dict`), the strict reader of one line
(:meth:`GameRecord.from_dict`, which says what is wrong) and the column reader of many lines
(:func:`well_formed_rows`, which ``arena standings`` reads a results folder with) are derived
from these declarations, in the order they are declared; they are one check, run on a column
of one line or of thousands.

**Older lines** are upgraded to the current :data:`FORMAT` before they are read, one format
at a time (:data:`_UPGRADES`): format 2 lines lack ``think_us`` and ``bot_notes``; lines
written before the ``format`` key existed (format 1) may lack every key but ``id``,
``engine``, ``seed``, ``seating``, ``scores`` and ``ranks``, and their ``forfeit`` is a flag,
read as the last verdict class recorded for that seat.

A new field is one line (its attribute, with its kind) plus its migration: :data:`FORMAT`
one higher and an upgrade that gives the older lines its value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import chain, repeat
from operator import attrgetter, itemgetter
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    NamedTuple,
    cast,
    get_args,
    get_type_hints,
)

import orjson

import engines
from arena import protocol
from arena.codec import (
    COUNT,
    INTEGER,
    NUMBER,
    OBJECT,
    TEXT,
    Counts,
    Kind,
    ListOf,
    OneOf,
    Pair,
    Scalar,
    Stored,
    shown,
)
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
"""A game in its JSON form (``GameRecord.to_dict()``, or a line that :func:`well_formed_rows`
took): what reading many games at once works on."""

Forfeit = Literal[
    "timeout", "illegal", "protocol", "crash", "startup", "memory", "disqualified", "resign"
]
"""Why a seat forfeited: the verdict class of the fault that ended its game,
``disqualified``: the bot failed to start too often and was not started again, or
``resign``: the person at a human seat gave up."""

FORFEITS: tuple[str, ...] = get_args(Forfeit)
assert FORFEITS[: len(VERDICTS)] == VERDICTS

_RANK = Scalar(frozenset({int}), "an integer", lowest=1, called="a rank")
_TURN = Scalar(
    frozenset({int}), "an integer", lowest=NOT_ASKED, called=f"microseconds or {NOT_ASKED}"
)
_FORFEIT = OneOf(frozenset({None, *FORFEITS}), f"null or one of {', '.join(FORFEITS)}")
_NOTE = Pair(COUNT, TEXT, "a [step, text] pair")


@dataclass(frozen=True)
class SeatRecord:
    """What one seat of a finished game did."""

    bot: Annotated[str, Stored(TEXT, "seating")]
    score: Annotated[float, Stored(NUMBER, "scores")]
    rank: Annotated[int, Stored(_RANK, "ranks")]
    forfeit: Annotated[Forfeit | None, Stored(_FORFEIT)] = None
    verdicts: Annotated[Mapping[str, int], Stored(Counts(COUNT))] = field(default_factory=dict)
    notes: Annotated[tuple[str, ...], Stored(ListOf(TEXT))] = ()
    decisions: Annotated[int, Stored(COUNT)] = 0
    think_ms: Annotated[float, Stored(NUMBER)] = 0.0
    think_us: Annotated[tuple[int, ...], Stored(ListOf(_TURN))] = ()
    bot_notes: Annotated[tuple[tuple[int, str], ...], Stored(ListOf(_NOTE))] = ()

    @property
    def faults(self) -> int:
        return sum(self.verdicts.values())


class PerSeat:
    """How :attr:`GameRecord.seats` is saved: the number of seats under ``players``, then each
    :class:`SeatRecord` attribute as a list with one entry per seat."""


PER_SEAT = PerSeat()


@dataclass(frozen=True)
class GameRecord:
    """One finished game: what was played (engine, seed, seating, moves) and how it ended."""

    id: Annotated[str, Stored(TEXT)]
    engine: Annotated[str, Stored(TEXT)]
    engine_version: Annotated[str, Stored(TEXT)]
    options: Annotated[Mapping[str, Any], Stored(OBJECT)]
    seed: Annotated[int, Stored(INTEGER)]
    table: Annotated[int, Stored(INTEGER)]
    block: Annotated[int, Stored(INTEGER)]
    rotation: Annotated[int, Stored(INTEGER)]
    seats: Annotated[tuple[SeatRecord, ...], PER_SEAT]
    moves: Annotated[tuple[int, ...], Stored(ListOf(COUNT))] = ()
    detail: Annotated[Mapping[str, Any], Stored(OBJECT)] = field(default_factory=dict)
    wall_ms: Annotated[float, Stored(NUMBER)] = 0.0

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

    def to_dict(self) -> GameRow:
        """The JSON form (see the module docstring)."""
        return _to_dict(self)

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
    def from_checked(cls, row: GameRow) -> GameRecord:
        """The record of a row that :func:`well_formed_rows` took (it is not checked again)."""
        return _record(row)

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """A record from its JSON form (any format this arena wrote; ``data`` is left as it
        is); raise :class:`RecordError` saying what is wrong."""
        if not isinstance(data, dict):
            raise RecordError(f"expected a JSON object, got {_preview(orjson.dumps(data))}")
        if not _is_current(data.get("format")):
            data = dict(data)
            _upgrade(data)
        problem = _problem([data])
        if problem is not None:
            raise RecordError(problem)
        return _record(data)


def not_replayable(step: int, index: int) -> str:
    """Why a stored game stops replaying at its move ``step`` (counted from 0), whose stored
    action index ``index`` the replay cannot play: the move counted from 1, as the game
    viewer counts it, its step, as ``--show`` and the protocol count, and the stored value."""
    return (
        f"move {step + 1} (step {step}, stored index {index}) is not legal in the replay: "
        "the stored line is damaged or was edited"
    )


# --------------------------------------------------------------------------- the declaration


class _Field(NamedTuple):
    attr: str
    key: str
    kind: Kind | None
    """None for :attr:`GameRecord.seats` (:data:`PER_SEAT`)."""


def _declared(cls: type) -> list[_Field]:
    """The fields of ``cls`` in their order, each as its annotation declares it saved."""
    hints = get_type_hints(cls, include_extras=True)
    declared = []
    for attribute in fields(cls):
        (how,) = [m for m in hints[attribute.name].__metadata__ if isinstance(m, Stored | PerSeat)]
        if isinstance(how, PerSeat):
            declared.append(_Field(attribute.name, "players", None))
        else:
            declared.append(_Field(attribute.name, how.key or attribute.name, how.kind))
    return declared


_FIELDS = _declared(GameRecord)
_SEAT_DECLARED = _declared(SeatRecord)
_SEAT_FIELDS = [(key, kind) for _, key, kind in _SEAT_DECLARED if kind is not None]
assert len(_SEAT_FIELDS) == len(_SEAT_DECLARED)
_SEATING = _SEAT_FIELDS[0][0]
_PLAYERS = next(key for _, key, kind in _FIELDS if kind is None)

# What the reader and the writer take from the declarations, in the order they take it:
# the game's keys (the seats as one entry), each with its kind (None for the seats), and the
# seats' keys, each with its kind.
_GAME_WRITES = [(key, None if kind is None else kind.write) for _, key, kind in _FIELDS]
_GAME_READS = [None if kind is None else kind.read for _, _, kind in _FIELDS]
_SEAT_WRITES = [(key, kind.write) for key, kind in _SEAT_FIELDS]
_SEAT_READS = [kind.read for _, kind in _SEAT_FIELDS]
_game_values = attrgetter(*(attr for attr, _, _ in _FIELDS))
_seat_values = attrgetter(*(attr for attr, _, _ in _SEAT_DECLARED))
_game_keys = itemgetter(*(key for _, key, _ in _FIELDS))
_seat_keys = itemgetter(*(key for key, _ in _SEAT_FIELDS))


def _to_dict(record: GameRecord) -> GameRow:
    seats = record.seats
    row: GameRow = {"format": FORMAT}
    for (key, write), value in zip(_GAME_WRITES, _game_values(record), strict=True):
        if key != _PLAYERS:
            row[key] = value if write is None else write(value)
            continue
        row[key] = len(seats)
        columns = zip(*map(_seat_values, seats), strict=True) if seats else repeat(())
        for (seat_key, seat_write), values in zip(_SEAT_WRITES, columns, strict=False):
            row[seat_key] = list(values) if seat_write is None else list(map(seat_write, values))
    return row


# --------------------------------------------------------------------------- reading

# A results folder can hold 100,000s of lines: they are checked a column at a time (the same
# key of every line of a chunk), a few C-level passes per key. A line is checked the same way,
# as a column of one line.


def well_formed_rows(rows: list[Any]) -> bool:
    """True when every row (a parsed line) is a game in any format this arena wrote, checked
    column by column; each row is then the current JSON form of its record (a row of an
    older format is upgraded in place). False says only that some row is not: check those
    one by one (:meth:`GameRecord.from_dict`)."""
    if not rows:
        return True
    if not _DICT.issuperset(map(type, rows)):
        return False
    formats = list(map(dict.get, rows, repeat("format")))
    if not (_INT.issuperset(map(type, formats)) and _CURRENT.issuperset(formats)):
        try:
            for row, version in zip(rows, formats, strict=True):
                if not _is_current(version):
                    _upgrade(row)
        except RecordError:
            return False
    return _problem(rows) is None


def _problem(rows: list[dict[str, Any]]) -> str | None:
    """What is wrong with the first row that is not a current-format game, or None."""
    try:
        seating = list(map(itemgetter(_SEATING), rows))
        games = zip(*map(_game_keys, rows), strict=True)
        seats = zip(*map(_seat_keys, rows), strict=True)
    except KeyError:
        return f"no {_missing(rows)!r}"
    problem = _not_lists(_SEATING, seating)
    if problem is not None:
        return problem
    sizes = list(map(len, seating))
    if min(sizes) < 1:
        return f"{_SEATING!r} is empty"
    for (key, kind), column in zip(_FIELDS_CHECKED, games, strict=True):
        if kind is not None:
            problem = kind.problem(column)
            if problem is not None:
                return f"{key!r}: {problem}"
            continue
        problem = INTEGER.problem(column)
        if problem is not None:
            return f"{key!r}: {problem}"
        if list(column) != sizes:
            given, seated = next((p, s) for p, s in zip(column, sizes, strict=True) if p != s)
            return f"{key!r} is {given}, {_SEATING!r} has {seated}"
        per_seat = list(seats)
        lists = list(chain.from_iterable(per_seat))  # every per-seat list of every row
        if not (
            _LIST.issuperset(map(type, lists)) and list(map(len, lists)) == sizes * len(per_seat)
        ):
            return next(
                filter(None, map(_seat_lists_problem, _SEAT_FIELDS, per_seat, repeat(sizes)))
            )
        for (seat_key, seat_kind), seat_column in zip(_SEAT_FIELDS, per_seat, strict=True):
            problem = seat_kind.problem(list(chain.from_iterable(seat_column)))
            if problem is not None:
                return f"{seat_key!r}: {problem}"
    return None


def _seat_lists_problem(
    field: tuple[str, Kind], column: Sequence[Any], sizes: list[int]
) -> str | None:
    """What is wrong with a per-seat key's lists (they must have one entry a seat), or None."""
    key = field[0]
    problem = _not_lists(key, column)
    if problem is not None:
        return problem
    if list(map(len, column)) != sizes:
        given, seated = next((len(v), s) for v, s in zip(column, sizes, strict=True) if len(v) != s)
        return f"{key!r} has {given} entries for {seated} seats"
    return None


_FIELDS_CHECKED = [(key, kind) for _, key, kind in _FIELDS]


def _missing(rows: list[dict[str, Any]]) -> str:
    """The first key (as checked) that a row lacks."""
    keys = [_SEATING, *(key for key, _ in _FIELDS_CHECKED), *(key for key, _ in _SEAT_FIELDS)]
    return next(key for row in rows for key in keys if key not in row)


def _not_lists(key: str, column: Sequence[Any]) -> str | None:
    if _LIST.issuperset(map(type, column)):
        return None
    wrong = next(value for value in column if type(value) is not list)
    return f"{key!r}: expected a list, got {shown(wrong)}"


def _record(row: GameRow) -> GameRecord:
    """The record of a checked current-format row."""
    per_seat = [
        values if read is None else list(map(read, values))
        for read, values in zip(_SEAT_READS, _seat_keys(row), strict=True)
    ]
    values: list[Any] = [
        value if read is None else read(value)
        for read, value in zip(_GAME_READS, _game_keys(row), strict=True)
    ]
    values[_SEATS_AT] = tuple(map(SeatRecord, *per_seat))
    return GameRecord(*values)


_SEATS_AT = [kind for _, _, kind in _FIELDS].index(None)


_INT = frozenset({int})
_LIST = frozenset({list})
_DICT = frozenset({dict})
_CURRENT = frozenset({FORMAT})


def _is_current(version: Any) -> bool:
    return type(version) is int and version == FORMAT


def _preview(line: bytes | str, limit: int = 60) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.strip()
    return repr(text[:limit] + ("..." if len(text) > limit else ""))


# --------------------------------------------------------------------------- older formats


def _upgrade(row: dict[str, Any]) -> None:
    """``row`` (a line of any format) made a line of the current format, in place; a format
    this arena does not know is a :class:`RecordError`. An upgrade fills in what a format
    lacked and leaves the checking to the reader."""
    version = row.get("format", 1)
    if not (type(version) is int and 1 <= version <= FORMAT):
        raise RecordError(f"unknown record format {version!r} (this arena reads 1 to {FORMAT})")
    for older in range(version, FORMAT):
        _UPGRADES[older](row)
    row["format"] = FORMAT


def _seats_of(row: dict[str, Any]) -> int:
    seating = row.get(_SEATING)
    return len(seating) if type(seating) is list else 0


def _from_format_1(row: dict[str, Any]) -> None:
    """Format 1 (lines without ``format``) to 2: the keys it may lack, and forfeit reasons."""
    players = _seats_of(row)
    game = {"engine_version": "?", "options": {}, "players": players, "table": 0, "block": 0}
    game |= {"rotation": 0, "moves": [], "detail": {}, "wall_ms": 0.0}
    for key, value in game.items():
        row.setdefault(key, value)
    per_seat: dict[str, Callable[[], Any]] = {
        "verdicts": dict,
        "notes": list,
        "decisions": int,
        "think_ms": float,
    }
    for key, empty in per_seat.items():
        if key not in row:
            row[key] = [empty() for _ in range(players)]
    flags = row.get("forfeit", [False] * players)
    if not (type(flags) is list and {bool}.issuperset(map(type, flags))):
        raise RecordError(f"'forfeit': expected true or false for each seat, got {shown(flags)}")
    verdicts = row["verdicts"] if type(row["verdicts"]) is list else []
    row["forfeit"] = [
        _last_verdict(seat) if flag else None
        for flag, seat in zip(flags, chain(verdicts, repeat({})), strict=False)
    ]


def _last_verdict(verdicts: Any) -> Forfeit:
    """The reason a format-1 seat forfeited: the last verdict class it got (its final fault)."""
    last = list(verdicts)[-1] if type(verdicts) is dict and verdicts else "crash"
    return cast(Forfeit, last) if last in FORFEITS else "crash"


def _from_format_2(row: dict[str, Any]) -> None:
    """Format 2 to 3: no think time per turn (``think_us``), no bot notes (``bot_notes``)."""
    players = _seats_of(row)
    for key in ("think_us", "bot_notes"):
        if key not in row:
            row[key] = [[] for _ in range(players)]


_UPGRADES: dict[int, Callable[[dict[str, Any]], None]] = {1: _from_format_1, 2: _from_format_2}
"""Format -> the upgrade of its lines to the next format."""
assert sorted(_UPGRADES) == list(range(1, FORMAT))
