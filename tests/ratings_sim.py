"""Synthetic ``games.jsonl`` records from known true ratings, for ratings tests and benchmarks.

Finishing orders are drawn from the Plackett–Luce model by sorting ``strength + Gumbel
noise``; every pairwise outcome inside such a game then follows Bradley–Terry exactly, so
both models are consistent for these data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from arena.stats.mle import ELO_PER_NAT


def simulate_league(
    elos: Sequence[float],
    *,
    players: int | Sequence[int],
    blocks: int,
    seed: int,
    seat_advantage: float = 0.0,
    tie_step: float = 0.0,
    engine: str = "sim",
    names: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """Records of ``blocks`` rotation blocks among bots of true Elo ``elos``.

    Each block picks ``players`` distinct bots at random (a size drawn from the sequence if
    one is given) and plays one game per seat rotation. ``seat_advantage`` (Elo) helps the
    first seat; ``tie_step`` > 0 rounds performances to that many Elo so ties happen.
    """
    rng = np.random.default_rng(seed)
    strength = np.asarray(elos, dtype=np.float64) / ELO_PER_NAT
    labels = list(names) if names is not None else [f"bot{i:02d}" for i in range(len(elos))]
    sizes = [players] if isinstance(players, int) else list(players)
    records: list[dict[str, Any]] = []
    for block in range(blocks):
        k = int(rng.choice(sizes))
        table = rng.choice(len(labels), size=k, replace=False)
        game_seed = int(rng.integers(2**31))
        bonus = np.zeros(k)
        bonus[0] = seat_advantage / ELO_PER_NAT
        for rotation in range(k):
            seating = np.roll(table, rotation)
            perf = strength[seating] + bonus + rng.gumbel(size=k)
            if tie_step:
                perf = np.floor(perf * ELO_PER_NAT / tie_step)
            ranks = [1 + int((perf > v).sum()) for v in perf]
            records.append(
                {
                    "id": f"sim/t{k}/b{block}/r{rotation}",
                    "league": "sim",
                    "engine": engine,
                    "engine_version": "1",
                    "options": {},
                    "seed": game_seed,
                    "players": k,
                    "table": k,
                    "block": block,
                    "rotation": rotation,
                    "seating": [labels[b] for b in seating],
                    "moves": [],
                    "scores": [round(float(p) * 10) for p in perf],
                    "ranks": ranks,
                    "detail": {},
                    "verdicts": [{} for _ in range(k)],
                    "forfeit": [False] * k,
                    "decisions": [10] * k,
                    "think_ms": [float(rng.uniform(1, 20)) for _ in range(k)],
                    "wall_ms": 1.0,
                }
            )
    return records
