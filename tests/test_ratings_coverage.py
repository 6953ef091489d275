"""Recovery of known ratings and coverage of the 95% bootstrap intervals."""

from __future__ import annotations

import numpy as np
import pytest

from arena.stats.ratings import compute_standings
from tests.ratings_sim import simulate_league

TRUE = [1300.0, 1420.0, 1500.0, 1560.0, 1720.0]


def coverage(
    players: int, leagues: int, blocks: int, resamples: int, model: str = "bt"
) -> tuple[float, float]:
    """Share of (league, bot) intervals containing the true rating, and the worst error."""
    truth = np.array(TRUE) - np.mean(TRUE) + 1500.0
    hits, worst = [], 0.0
    for league in range(leagues):
        records = simulate_league(TRUE, players=players, blocks=blocks, seed=1000 + league)
        standings = compute_standings(records, model=model, bootstrap=resamples, seed=league)
        for row in standings.rows:
            true = truth[int(row.bot[3:])]
            assert row.elo_low is not None and row.elo_high is not None
            hits.append(row.elo_low <= true <= row.elo_high)
            worst = max(worst, abs(row.elo - true))
    return float(np.mean(hits)), worst


@pytest.mark.parametrize("players", [2, 3, 4])
def test_recovers_true_ratings(players: int) -> None:
    records = simulate_league(TRUE, players=players, blocks=2000, seed=players)
    standings = compute_standings(records, bootstrap=100)
    truth = np.array(TRUE) - np.mean(TRUE) + 1500.0
    for row in standings.rows:
        assert row.elo == pytest.approx(truth[int(row.bot[3:])], abs=20.0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_intervals_cover_quickly(players: int) -> None:
    # 30 leagues x 5 bots = 150 intervals: a smoke test of the slow check below
    share, _ = coverage(players, leagues=30, blocks=100, resamples=200)
    assert 0.88 <= share <= 0.99


@pytest.mark.slow
@pytest.mark.parametrize("model", ["bt", "pl"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_intervals_cover_200_leagues(players: int, model: str) -> None:
    share, _ = coverage(players, leagues=200, blocks=100, resamples=1000, model=model)
    print(f"coverage {model} {players} players: {share:.3f}")
    assert 0.90 <= share <= 0.98
