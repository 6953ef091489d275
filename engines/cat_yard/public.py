"""What a bot may import from the Cat Yard engine: the bait cards and cat tiles by id as
tables, and the payment rule.

This is the engine's declared public module (its ``public`` part, :mod:`engines.parts`):
a bot imports these names from here and nothing from the engine's other modules, whose
helpers may change with the rules. A name stays here, with its meaning, across versions
of the engine; the engine's README says what each table holds.
"""

from __future__ import annotations

from engines.cat_yard.rules import (
    BAIT_IDS,
    BAIT_MASK,
    CAT_ABILITY,
    CAT_COST,
    CAT_POINTS,
    CAT_WILD,
    IS_DOG,
    can_pay,
)

__all__ = [
    "BAIT_IDS",
    "BAIT_MASK",
    "CAT_ABILITY",
    "CAT_COST",
    "CAT_POINTS",
    "CAT_WILD",
    "IS_DOG",
    "can_pay",
]
