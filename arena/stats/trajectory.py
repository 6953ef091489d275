"""Rating over games: online Elo replayed game by game, for a picture of how ratings moved.

The rule is the standings' online method (``method="online"`` in
:mod:`arena.stats.ratings`): each game's pairs move both bots by
``K / (k - 1) * (actual - expected)`` from their ratings before the game. Solo games have
no opponent at the table and do not move the ratings here.
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.record import GameRecord
from arena.stats.ratings import BASE_RATING, ONLINE_K


def online_elo(records: Iterable[GameRecord]) -> dict[str, list[tuple[int, float]]]:
    """For each bot, ``(games played so far by the league, rating after it)`` per game."""
    ratings: dict[str, float] = {}
    paths: dict[str, list[tuple[int, float]]] = {}
    for number, record in enumerate(records, start=1):
        bots, ranks = record.seating, record.ranks
        seats = len(bots)
        if seats < 2:
            continue
        before = [ratings.setdefault(bot, BASE_RATING) for bot in bots]
        delta = [0.0] * seats
        k = ONLINE_K / (seats - 1)
        for i in range(seats):
            for j in range(i + 1, seats):
                actual = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                expected = 1.0 / (1.0 + 10.0 ** ((before[j] - before[i]) / 400.0))
                delta[i] += k * (actual - expected)
                delta[j] -= k * (actual - expected)
        for seat, bot in enumerate(bots):
            if bot in ratings and bots.index(bot) == seat:
                ratings[bot] = before[seat] + sum(
                    delta[s] for s, other in enumerate(bots) if other == bot
                )
                paths.setdefault(bot, []).append((number, ratings[bot]))
    return paths
