"""The static data a bot needs to read My Lil' Everdell observations (sent in ``hello``)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from engines.little_everdell.data import CARD_TABLE, DIE_FACES, RESOURCES, TOP_SPACES


def catalog() -> dict[str, Any]:
    """Cards by slug (a card uid is ``slug#n``), die faces and top spaces as gains."""
    return {
        "resources": list(RESOURCES),
        "cards": {
            card.slug: {
                "name": card.name,
                "qty": card.qty,
                "colour": card.colour,
                "kind": card.kind,
                "cost": list(card.cost),
                "points": card.points,
                "ability": asdict(card.ability),
            }
            for card in CARD_TABLE
        },
        "die_faces": {str(face): gain.to_json() for face, gain in DIE_FACES.items()},
        "top_spaces": {space: gain.to_json() for space, gain in TOP_SPACES.items()},
    }
