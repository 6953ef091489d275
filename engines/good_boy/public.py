"""What a bot may import from the Good Boy engine: the dog cards, the dice kinds, and what a
dog still misses.

This is the engine's declared public module (its ``public`` part, :mod:`engines.parts`):
a bot imports these names from here and nothing from the engine's other modules, whose
helpers may change with the rules. A name stays here, with its meaning, across versions
of the engine; the engine's README says what each table holds.
"""

from __future__ import annotations

from engines.good_boy.data import DICE
from engines.good_boy.rules import (
    DOGS,
    FACE_SYMBOLS,
    KIND_INDEX,
    KINDS,
    NK,
    missing,
)

__all__ = [
    "DICE",
    "DOGS",
    "FACE_SYMBOLS",
    "KINDS",
    "KIND_INDEX",
    "NK",
    "missing",
]
