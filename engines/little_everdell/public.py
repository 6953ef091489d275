"""What a bot may import from the Little Everdell engine: the cards, dice, parades and spaces,
and the cost and parade rules.

This is the engine's declared public module (its ``public`` part, :mod:`engines.parts`):
a bot imports these names from here and nothing from the engine's other modules, whose
helpers may change with the rules. A name stays here, with its meaning, across versions
of the engine; the engine's README says what each table holds.
"""

from __future__ import annotations

from engines.little_everdell.data import (
    CARD_OF,
    DIE_FACES,
    PARADES,
    RESOURCES,
    ROUNDS,
    TOP_SPACES,
    Card,
    Gain,
)
from engines.little_everdell.rules import (
    discounts,
    effective_cost,
    parade_qualifies,
)

__all__ = [
    "CARD_OF",
    "DIE_FACES",
    "PARADES",
    "RESOURCES",
    "ROUNDS",
    "TOP_SPACES",
    "Card",
    "Gain",
    "discounts",
    "effective_cost",
    "parade_qualifies",
]
