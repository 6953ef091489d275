"""Synthetic ``games.jsonl`` records from known true ratings, for ratings tests and benchmarks.

Finishing orders are drawn from the Plackett–Luce model by sorting ``strength + Gumbel
noise``; every pairwise outcome inside such a game then follows Bradley–Terry exactly, so
both models are consistent for these data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from arena.record import Forfeit, GameRecord, SeatRecord
from arena.stats.mle import ELO_PER_NAT


def game(
    seating: Sequence[str],
    ranks: Sequence[int],
    *,
    scores: Sequence[float] | None = None,
    id: str = "g",
    engine: str = "sim",
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    table: int = 0,
    block: int = 0,
    rotation: int = 0,
    detail: Mapping[str, Any] | None = None,
    decisions: int = 10,
    think_ms: Sequence[float] | None = None,
) -> GameRecord:
    """A finished game with the given seating and places (scores default to 0)."""
    k = len(seating)
    return GameRecord(
        id=id,
        engine=engine,
        engine_version="1",
        options=dict(options or {}),
        seed=seed,
        table=table,
        block=block,
        rotation=rotation,
        seats=tuple(
            SeatRecord(bot=bot, score=score, rank=rank, decisions=decisions, think_ms=think)
            for bot, score, rank, think in zip(
                seating,
                scores if scores is not None else [0.0] * k,
                ranks,
                think_ms if think_ms is not None else [0.0] * k,
                strict=True,
            )
        ),
        detail=dict(detail or {}),
        wall_ms=1.0,
    )


def with_ranks(record: GameRecord, ranks: Sequence[int]) -> GameRecord:
    """``record`` with other places."""
    seats = tuple(
        dataclasses.replace(seat, rank=rank) for seat, rank in zip(record.seats, ranks, strict=True)
    )
    return dataclasses.replace(record, seats=seats)


def with_faults(
    record: GameRecord, seat: int, verdicts: Mapping[str, int], forfeit: Forfeit | None = None
) -> GameRecord:
    """``record`` with verdicts (and a forfeit) for one seat."""
    seats = list(record.seats)
    seats[seat] = dataclasses.replace(seats[seat], verdicts=dict(verdicts), forfeit=forfeit)
    return dataclasses.replace(record, seats=tuple(seats))


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
) -> list[GameRecord]:
    """Records of ``blocks`` rotation blocks among bots of true Elo ``elos``.

    Each block picks ``players`` distinct bots at random (a size drawn from the sequence if
    one is given) and plays one game per seat rotation. ``seat_advantage`` (Elo) helps the
    first seat; ``tie_step`` > 0 rounds performances to that many Elo so ties happen.
    """
    rng = np.random.default_rng(seed)
    strength = np.asarray(elos, dtype=np.float64) / ELO_PER_NAT
    labels = list(names) if names is not None else [f"bot{i:02d}" for i in range(len(elos))]
    sizes = [players] if isinstance(players, int) else list(players)
    records: list[GameRecord] = []
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
                game(
                    [labels[b] for b in seating],
                    ranks,
                    scores=[round(float(p) * 10) for p in perf],
                    id=f"sim/t{k}/b{block}/r{rotation}",
                    engine=engine,
                    seed=game_seed,
                    table=k,
                    block=block,
                    rotation=rotation,
                    think_ms=[float(rng.uniform(1, 20)) for _ in range(k)],
                )
            )
    return records


def block_points(
    strength: Mapping[str, float], table: Sequence[str], rng: np.random.Generator
) -> tuple[float, ...]:
    """One rotation block of ``table`` among bots of true Elo ``strength`` (the model of
    :func:`simulate_league`, no seat advantage): each player's points over its games,
    ``k - rank`` a game, as a Swiss or knockout league counts them."""
    k = len(table)
    elo = np.array([strength[name] for name in table]) / ELO_PER_NAT
    points = np.zeros(k)
    for _ in range(k):
        perf = elo + rng.gumbel(size=k)
        points += (perf[:, None] > perf[None, :]).sum(axis=1)  # k - rank: players beaten
    return tuple(float(p) for p in points)
