"""What a bot may import from the Space Five engine: the card codes and the layout geometry
(where cards fit, the bonus of a play).

This is the engine's declared public module (its ``public`` part, :mod:`engines.parts`):
a bot imports these names from here and nothing from the engine's other modules, whose
helpers may change with the rules. A name stays here, with its meaning, across versions
of the engine; the engine's README says what each table holds.
"""

from __future__ import annotations

from engines.space_five.geometry import (
    Cell,
    Layout,
    frontier_of,
    placing_cells,
    play_bonus,
)
from engines.space_five.rules import (
    CODE_OF,
)

__all__ = [
    "CODE_OF",
    "Cell",
    "Layout",
    "frontier_of",
    "placing_cells",
    "play_bonus",
]
