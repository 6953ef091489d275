"""The static data a bot needs to read If It Fits observations (sent once, in ``hello``)."""

from __future__ import annotations

from typing import Any

from engines.if_it_fits.data import CARDS, TOY_KINDS


def catalog() -> dict[str, Any]:
    """Every card by id: kind, open edges (N E S W, ``#`` = wall), toys, specials, sprays."""
    return {
        "toy_kinds": list(TOY_KINDS),
        "cards": {
            card.id: {
                "kind": card.kind,
                "edges": card.edges,
                "toys": list(card.toys),
                "special": card.special,
                "spray": card.spray,
            }
            for card in CARDS
        },
    }
