"""What a saved value is: kinds that check a whole column of JSON values at once, and read
and write one value.

A saved file's format is declared once, as a list of fields, each with its :class:`Kind`
(``Annotated[int, Stored(COUNT)]`` on a record's attribute, see :mod:`arena.record`); its
writer, its strict reader (one line, saying what is wrong) and its column reader (the same
key of thousands of lines in one go) are derived from that list.

A kind checks a column (a list of values) in a few C-level passes (``type`` sets, ``min``,
``isfinite`` of a sum) however many values it holds: ``problem(values)`` is None when every
value is of the kind, else one line saying what was expected and what was found. Booleans
are never numbers here (``type(True)`` is ``bool``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any, NamedTuple

import orjson

__all__ = [
    "COUNT",
    "INTEGER",
    "NUMBER",
    "OBJECT",
    "TEXT",
    "Counts",
    "Kind",
    "ListOf",
    "OneOf",
    "Pair",
    "Scalar",
    "Stored",
    "shown",
]

Convert = Callable[[Any], Any] | None
"""A conversion of one value, or None: the value is taken (or written) as it is."""

_LIST = frozenset({list})
_DICT = frozenset({dict})


class Kind:
    """What a saved value is: ``name`` says it in a message (``"an integer"``); ``read``
    turns a checked JSON value into the record's, ``write`` a record's value into JSON."""

    name: str
    read: Convert = None
    write: Convert = None

    def problem(self, values: Sequence[Any]) -> str | None:
        """None when every value of the column is of this kind, else what is wrong."""
        raise NotImplementedError

    def _expected(self, values: Sequence[Any], good: Callable[[Any], bool]) -> str:
        """The message for the first value of ``values`` that is not ``good``."""
        return f"expected {self.name}, got {shown(next(v for v in values if not good(v)))}"


class Scalar(Kind):
    """A JSON value of one of ``types`` (an object is taken whole); a number may need to be
    at least ``lowest`` (it is then ``called`` so) and finite."""

    def __init__(
        self,
        types: frozenset[type],
        name: str,
        *,
        lowest: int | None = None,
        called: str = "",
        finite: bool = False,
        write: Convert = None,
    ) -> None:
        self.types, self.name = types, name
        self.lowest, self.called, self.finite = lowest, called, finite
        self.write = write

    def problem(self, values: Sequence[Any]) -> str | None:
        types = self.types
        if not types.issuperset(map(type, values)):
            return self._expected(values, lambda v: type(v) in types)
        # a sum is finite only if every number is (inf and nan stay); else look closer
        if self.finite and not (math.isfinite(sum(values)) or all(map(math.isfinite, values))):
            return f"expected finite numbers, got {next(v for v in values if not math.isfinite(v))}"
        if self.lowest is not None and values and min(values) < self.lowest:
            return f"expected {self.called} (at least {self.lowest}), got {min(values)}"
        return None


class OneOf(Kind):
    """One of a few JSON scalars (strings, null)."""

    def __init__(self, choices: frozenset[Any], name: str) -> None:
        self.choices, self.name = choices, name

    def problem(self, values: Sequence[Any]) -> str | None:
        choices = self.choices
        try:
            if choices.issuperset(values):
                return None
        except TypeError:  # a list or an object among them: not one of the choices
            pass
        return self._expected(values, lambda v: type(v) not in (list, dict) and v in choices)


class ListOf(Kind):
    """A JSON list of values of one kind; a tuple in the record."""

    name = "a list"

    def __init__(self, item: Kind) -> None:
        self.item = item
        self.read = tuple if item.read is None else _each(item.read, tuple)
        self.write = list if item.write is None else _each(item.write, list)

    def problem(self, values: Sequence[Any]) -> str | None:
        if not _LIST.issuperset(map(type, values)):
            return self._expected(values, lambda v: type(v) is list)
        return self.item.problem(list(chain.from_iterable(values)))


class Pair(Kind):
    """A JSON list of two values, each of its own kind; a 2-tuple in the record."""

    read = tuple
    write = list

    def __init__(self, first: Kind, second: Kind, name: str) -> None:
        self.first, self.second, self.name = first, second, name

    def problem(self, values: Sequence[Any]) -> str | None:
        if not (_LIST.issuperset(map(type, values)) and {2}.issuperset(map(len, values))):
            return self._expected(values, lambda v: type(v) is list and len(v) == 2)
        if not values:
            return None
        firsts, seconds = zip(*values, strict=True)
        return self.first.problem(list(firsts)) or self.second.problem(list(seconds))


class Counts(Kind):
    """A JSON object counting things by name, its values of one kind; a dict in the record."""

    name = "an object"
    write = dict

    def __init__(self, count: Kind) -> None:
        self.count = count

    def problem(self, values: Sequence[Any]) -> str | None:
        if not _DICT.issuperset(map(type, values)):
            return self._expected(values, lambda v: type(v) is dict)
        if not any(values):  # most often: nothing counted
            return None
        return self.count.problem(list(chain.from_iterable(map(dict.values, values))))


class Stored(NamedTuple):
    """How a record's attribute is saved: its kind, under ``key`` (default: the attribute's
    name). Written as ``Annotated[type, Stored(KIND)]`` on the attribute."""

    kind: Kind
    key: str = ""


def _each(convert: Callable[[Any], Any], into: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda values: into(map(convert, values))


def shown(value: Any, limit: int = 40) -> str:
    """``value`` as JSON, cut to ``limit`` characters: what a message quotes of it."""
    try:
        return orjson.dumps(value).decode()[:limit]
    except TypeError:  # not JSON (a record built in Python): as Python shows it
        return repr(value)[:limit]


TEXT = Scalar(frozenset({str}), "a string")
INTEGER = Scalar(frozenset({int}), "an integer")
COUNT = Scalar(frozenset({int}), "an integer", lowest=0, called="a count")
NUMBER = Scalar(frozenset({int, float}), "a number", finite=True)
OBJECT = Scalar(frozenset({dict}), "an object", write=dict)
"""A JSON object taken whole (a game's options, its detail)."""
