"""The confirmation league: the tuned values against the start values on fresh deals, and
the Elo difference it measures (with a 95 % interval and the likelihood of superiority)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena.config import LeagueConfig
from arena.league.feeds import BlockFeed
from arena.record import GameRecord
from arena.tune.feed import parameter_block


class ConfirmFeed(BlockFeed):
    """Every block of the one-table league ``config``, each bot given its values."""

    def __init__(
        self,
        config: LeagueConfig,
        known: Mapping[tuple[str, ...], int],
        params: Mapping[str, Mapping[str, float | int]],
    ) -> None:
        blocks = (parameter_block(config, known, b, params) for b in range(config.rounds))
        super().__init__(blocks, config.rounds * config.players[0])


@dataclass(frozen=True)
class Difference:
    """How the tuned bot did against the start values: per game +1 ahead, -1 behind."""

    games: int
    wins: int
    draws: int
    losses: int
    elo: float
    low: float  # the 95 % interval of ``elo`` (blocks as the unit: their games share a deal)
    high: float
    los: float  # likelihood of superiority: P(tuned is stronger)

    def line(self) -> str:
        return (
            f"tuned vs start: {self.elo:+.1f} Elo (95 % interval {self.low:+.1f} .. "
            f"{self.high:+.1f}), LOS {self.los * 100:.1f} %, over {self.games} games "
            f"(+{self.wins} ={self.draws} -{self.losses})"
        )


def score_to_elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def difference(records: Sequence[GameRecord], tuned: str, start: str) -> Difference:
    """The Elo difference of ``tuned`` over ``start`` in ``records`` (their blocks)."""
    blocks: dict[int, list[float]] = {}
    wins = draws = losses = 0
    for record in records:
        rank = {seat.bot: seat.rank for seat in record.seats}
        if rank[tuned] < rank[start]:
            outcome, wins = 1.0, wins + 1
        elif rank[tuned] > rank[start]:
            outcome, losses = 0.0, losses + 1
        else:
            outcome, draws = 0.5, draws + 1
        blocks.setdefault(record.block, []).append(outcome)
    means = [sum(v) / len(v) for v in blocks.values()]
    n = len(means)
    mean = sum(means) / n if n else 0.5
    var = sum((m - mean) ** 2 for m in means) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n) if n else 0.0
    los = 0.5 if se == 0 else 0.5 * (1 + math.erf((mean - 0.5) / (se * math.sqrt(2))))
    if se == 0 and n:
        los = 1.0 if mean > 0.5 else 0.0 if mean < 0.5 else 0.5
    return Difference(
        games=len(records),
        wins=wins,
        draws=draws,
        losses=losses,
        elo=score_to_elo(mean),
        low=score_to_elo(mean - 1.96 * se),
        high=score_to_elo(mean + 1.96 * se),
        los=los,
    )
