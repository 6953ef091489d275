"""The fixed action numbering and observation tensor of an OpenSpiel game: OpenSpiel's own
(its action ids, ``num_distinct_actions`` of them, and its ``observation_tensor``), in the
shape of ``engines.base.Encoding`` (the export bridges' contract). Made by
``OpenSpielEngine.encoding(players, options)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


class OpenSpielEncoding:
    """OpenSpiel's numbering and tensor for one table of an ``openspiel:`` engine."""

    def __init__(self, game: Any) -> None:
        self.num_actions = int(game.num_distinct_actions())
        shape = list(game.observation_tensor_shape()) if _has_tensor(game) else []
        self.size = math.prod(shape) if shape else 0
        self.slices: Sequence[tuple[str, int, str]] = [
            (
                "observation_tensor",
                self.size,
                f"OpenSpiel's observation_tensor(seat) of shape {shape}, flattened",
            )
        ]

    def action_id(self, observation: Mapping[str, Any], action: Mapping[str, Any]) -> int:
        """OpenSpiel's action id (the action's ``id``)."""
        return int(action["id"])

    def tensor(self, observation: Mapping[str, Any]) -> Any:
        return np.asarray(observation.get("observation_tensor", ()), dtype=np.float32)


def _has_tensor(game: Any) -> bool:
    return bool(game.get_type().provides_observation_tensor)
