"""Which stored games the report embeds a viewer for: a bounded, explained selection.

In order, until ``limit`` games are chosen: every bot's worst loss (the largest gap between
the table's best score and its own, in a game it did not win), the biggest upsets (a winner
rated below a bot it beat, largest Elo gap first), then the first game of each pairing.
Solo games have no loss, upset or pairing: every bot's worst and best solo game by score
stand in for them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

from arena.record import GameRecord
from arena.stats.ratings import Standings

UPSETS = 3


def pick_games(
    records: Sequence[GameRecord], standings: Standings, limit: int
) -> list[tuple[GameRecord, str]]:
    """Up to ``limit`` ``(record, why it was chosen)`` pairs, without repeats (a game
    chosen for two reasons gives both). Ties go to the game first in schedule order (table,
    block, rotation), not in the file's: the same games whatever order they were stored in
    (``--jobs``, ``--workers``)."""
    records = sorted(records, key=lambda r: (r.table, r.block, r.rotation, r.id))
    chosen: dict[str, tuple[GameRecord, str]] = {}

    def take(record: GameRecord, why: str) -> None:
        known = chosen.get(record.id)
        if known is not None:
            chosen[record.id] = (record, f"{known[1]}; {why}")
        elif len(chosen) < limit:
            chosen[record.id] = (record, why)

    elo = {row.bot: row.elo for row in standings.rows}
    for bot in elo:
        loss = _worst_loss(records, bot)
        if loss is not None:
            take(loss, f"worst loss of {bot}")
    for bot in elo:
        for record, why in _solo_extremes(records, bot):
            take(record, why)
    upsets = sorted(
        ((gap, index, why) for index, r in enumerate(records) for gap, why in _upset(r, elo)),
        key=lambda item: (-item[0], item[1]),
    )
    for _, index, why in upsets[:UPSETS]:
        take(records[index], why)
    for a, b in itertools.combinations(elo, 2):
        met = next((r for r in records if a in r.seating and b in r.seating), None)
        if met is not None:
            take(met, f"{a} vs {b}")
    if not chosen:
        for record in records[: min(limit, 3)]:
            take(record, "one of the first games")
    return list(chosen.values())


def _worst_loss(records: Sequence[GameRecord], bot: str) -> GameRecord | None:
    worst: tuple[float, GameRecord] | None = None
    for record in records:
        ranks, scores = record.ranks, record.scores
        for seat, name in enumerate(record.seating):
            if name != bot or ranks[seat] == 1 or len(ranks) < 2:
                continue
            margin = max(scores) - scores[seat]
            if worst is None or margin > worst[0]:
                worst = (margin, record)
    return None if worst is None else worst[1]


def _solo_extremes(records: Sequence[GameRecord], bot: str) -> list[tuple[GameRecord, str]]:
    """``bot``'s worst and best solo game by score (lower is better where the engine says
    so, a forfeit is worst), each with why; none when it played no solo game."""
    games = [record for record in records if record.seating == (bot,)]
    if not games:
        return []
    worst, best = min(games, key=_solo_standing), max(games, key=_solo_standing)
    return [
        (worst, f"worst score of {bot} ({worst.scores[0]:g})"),
        (best, f"best score of {bot} ({best.scores[0]:g})"),
    ]


def _solo_standing(record: GameRecord) -> float:
    """How good a solo game's result is: higher is better, a forfeit lowest of all."""
    if record.seats[0].forfeit is not None:
        return -math.inf
    score = record.scores[0]
    return -score if record.detail.get("score_order") == "low" else score


def _upset(record: GameRecord, elo: Mapping[str, float]) -> list[tuple[float, str]]:
    """``[(Elo gap, description)]`` when a winner is rated below a bot it beat."""
    bots, ranks = record.seating, record.ranks
    winners = [bot for bot, rank in zip(bots, ranks, strict=True) if rank == 1]
    losers = [bot for bot, rank in zip(bots, ranks, strict=True) if rank > 1]
    if not winners or not losers:
        return []
    winner = min(winners, key=lambda bot: elo.get(bot, 0.0))
    loser = max(losers, key=lambda bot: elo.get(bot, 0.0))
    gap = elo.get(loser, 0.0) - elo.get(winner, 0.0)
    if gap <= 0:
        return []
    return [(gap, f"upset: {winner} ({elo[winner]:.0f}) beat {loser} ({elo[loser]:.0f})")]
