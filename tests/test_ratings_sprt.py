"""SPRT: decisions on clear cases and error rates near alpha and beta."""

from __future__ import annotations

import numpy as np
import pytest

from arena.record import GameRecord
from arena.stats.sprt import Sprt, expected_score
from tests.ratings_sim import game, simulate_league

ALPHA = BETA = 0.05


def _run(true_elo: float, rng: np.random.Generator, elo0: float, elo1: float) -> str | None:
    """One SPRT on two-game blocks (pentanomial pairs) with 20% draws; budget 20 000 blocks."""
    sprt = Sprt(elo0, elo1, ALPHA, BETA, "new", "old")
    draw = 0.2
    win = expected_score(true_elo) - draw / 2
    for _ in range(20):
        games = rng.choice([1.0, 0.5, 0.0], size=(1000, 2), p=[win, draw, 1 - win - draw])
        for score in games.mean(axis=1).tolist():
            sprt.add_score(score, games=2)
            if sprt.decision:
                return sprt.decision
    return None


@pytest.mark.parametrize(("true_elo", "expected"), [(120.0, "H1"), (-60.0, "H0")])
def test_clear_differences_are_decided(true_elo: float, expected: str) -> None:
    rng = np.random.default_rng(1)
    assert [_run(true_elo, rng, 0.0, 30.0) for _ in range(20)] == [expected] * 20


def test_error_rates_near_alpha_and_beta() -> None:
    rng = np.random.default_rng(2)
    runs = 400
    false_h1 = sum(_run(0.0, rng, 0.0, 40.0) == "H1" for _ in range(runs)) / runs
    false_h0 = sum(_run(40.0, rng, 0.0, 40.0) == "H0" for _ in range(runs)) / runs
    # the normal approximation overshoots the bounds a little, so rates come out at or
    # somewhat below nominal; 400 runs give a standard error of about 0.011
    assert 0.01 <= false_h1 <= 0.08
    assert 0.01 <= false_h0 <= 0.08


def test_blocks_of_records_with_filler_bots() -> None:
    # candidate 200 Elo above the opponent at four-seat tables with two fillers
    names = ["cand", "opp", "filler-a", "filler-b"]
    records = simulate_league([1700, 1500, 1500, 1500], players=4, blocks=400, seed=3, names=names)
    blocks: dict[int, list[GameRecord]] = {}
    for rec in records:
        blocks.setdefault(rec.block, []).append(rec)
    sprt = Sprt(0.0, 20.0, ALPHA, BETA, "cand", "opp")
    for block in blocks.values():
        sprt.add_block(block)
        if sprt.decision:
            break
    assert sprt.decision == "H1"
    assert sprt.games == 4 * sprt.blocks
    line = sprt.status_line()
    assert line.startswith("SPRT cand vs opp: ") and line.endswith(", accept H1")
    assert len(line) <= 80
    low, high = sprt.bounds
    assert low == pytest.approx(-2.944, abs=1e-3) and high == pytest.approx(2.944, abs=1e-3)


def test_block_score_is_the_pairwise_result_against_the_opponent() -> None:
    sprt = Sprt(0.0, 10.0, ALPHA, BETA, "a", "b")
    sprt.add_block(
        [
            game(["a", "x", "b"], [2, 1, 3]),  # a ahead of b: 1
            game(["b", "a", "x"], [1, 1, 3]),  # tie: 0.5
            game(["x", "b", "y"], [1, 2, 3]),  # a absent: ignored
        ]
    )
    assert (sprt.blocks, sprt.games) == (1, 2)
    assert sprt.elo_estimate()[0] == pytest.approx(-400 * np.log10(1 / 0.75 - 1), abs=0.5)
    sprt.add_block([game(["x", "y"], [1, 2])])
    assert sprt.blocks == 1


@pytest.mark.parametrize(
    "args",
    [
        (10.0, 0.0, 0.05, 0.05, "a", "b"),
        (0.0, 10.0, 0.0, 0.05, "a", "b"),
        (0, 5, 0.05, 0.05, "a", "a"),
    ],
)
def test_bad_parameters(args: tuple) -> None:
    with pytest.raises(ValueError):
        Sprt(*args)
