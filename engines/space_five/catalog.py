"""The static data of Space Five (sent once, in ``hello``): the values of the data table."""

from __future__ import annotations

from typing import Any

from engines.space_five.data import TABLE


def catalog() -> dict[str, Any]:
    """Alien letters and background digits (a card code is letter + digit) and the counts."""
    return {
        key: list(d.value) if isinstance(d.value, tuple) else d.value for key, d in TABLE.items()
    }
