"""The static data a bot needs to read Cat Yard observations (sent once, in ``hello``)."""

from __future__ import annotations

from typing import Any

from engines.cat_yard.data import ABILITIES, SYMBOLS
from engines.cat_yard.rules import static_tables


def catalog() -> dict[str, Any]:
    """Bait cards and cat tiles by id, the bait symbols and the ability kinds."""
    return {"symbols": list(SYMBOLS), "abilities": list(ABILITIES), **static_tables()}
