"""The static data a bot needs to read Good Boy observations (sent once, in ``hello``)."""

from __future__ import annotations

from typing import Any

from engines.good_boy.data import CARDS, DICE, TARGET_POINTS
from engines.good_boy.rules import KINDS


def catalog() -> dict[str, Any]:
    """Item kinds (the order of every count list), the dice faces and the dog cards by id."""
    return {
        "kinds": list(KINDS),
        "dice": [[list(face) for face in die] for die in DICE],
        "dogs": {
            str(cid): {"breed": breed, "points": points, "needs": [needs.get(k, 0) for k in KINDS]}
            for cid, breed, points, needs, _source in CARDS
        },
        "target_points": TARGET_POINTS,
    }
