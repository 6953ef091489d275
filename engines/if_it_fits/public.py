"""What a bot may import from the If It Fits engine: the cards and the layout geometry (slots,
rotations, open edges).

This is the engine's declared public module (its ``public`` part, :mod:`engines.parts`):
a bot imports these names from here and nothing from the engine's other modules, whose
helpers may change with the rules. A name stays here, with its meaning, across versions
of the engine; the engine's README says what each table holds.
"""

from __future__ import annotations

from engines.if_it_fits.data import (
    CARDS,
    SPECIAL_TOY_VALUE,
    SPRAY_PENALTY,
    TOY_KINDS,
    Card,
)
from engines.if_it_fits.geometry import (
    ALL_OPEN,
    DIRECTIONS,
    E,
    W,
    edge_mask,
    rotate,
    slot_code,
    slot_xy,
)

__all__ = [
    "ALL_OPEN",
    "CARDS",
    "DIRECTIONS",
    "SPECIAL_TOY_VALUE",
    "SPRAY_PENALTY",
    "TOY_KINDS",
    "Card",
    "E",
    "W",
    "edge_mask",
    "rotate",
    "slot_code",
    "slot_xy",
]
