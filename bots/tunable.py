"""A bundled bot's heuristic weights as parameters ``arena tune`` can tune (docs/tuning.md).

A bot declares its weights as a frozen dataclass of numbers with their defaults; the
command line sets them for every game (``--NAME VALUE``, :func:`from_argv`), and a game's
``params`` (the protocol's ``start``) override them for that game (:func:`given`). Copy
this to make your own bot tunable.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from typing import Any, TypeVar

W = TypeVar("W")


def given(weights: W, params: Mapping[str, float | int]) -> W:
    """``weights`` with a game's ``params`` (names that are not weights are ignored)."""
    if not params:
        return weights
    kinds = {f.name: type(getattr(weights, f.name)) for f in fields(weights)}  # type: ignore[arg-type]
    changed: dict[str, Any] = {k: kinds[k](v) for k, v in params.items() if k in kinds}
    return replace(weights, **changed)  # type: ignore[type-var]


def from_argv(defaults: W, argv: Sequence[str] | None = None) -> W:
    """The weights the command line sets (``--NAME VALUE``), the defaults otherwise; other
    arguments are left alone."""
    parser = argparse.ArgumentParser(add_help=False)
    for f in fields(defaults):  # type: ignore[arg-type]
        value = getattr(defaults, f.name)
        parser.add_argument(f"--{f.name}", type=type(value), default=value)
    known, _ = parser.parse_known_args(argv)
    return replace(defaults, **vars(known))  # type: ignore[type-var]
