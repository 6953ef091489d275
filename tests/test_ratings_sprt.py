"""SPRT: decisions on clear cases and error rates near alpha and beta."""

from __future__ import annotations

import numpy as np
import pytest

from arena.config import parse
from arena.league.feeds import SprtFeed
from arena.record import GameRecord
from arena.stats.sprt import Sprt, expected_score, out_of_budget
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
    assert line.startswith("SPRT cand vs opp: ") and len(line) <= 80
    assert sprt.verdict() == (
        "H1 accepted: the games favour +20 over +0 Elo for cand against opp (alpha=0.05, beta=0.05)"
    )
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


def test_the_status_line_shows_both_ends_of_an_asymmetric_interval() -> None:
    """A perfect record sits at the clamp (+1200): "±402" read as [+798, +1602]."""
    sprt = Sprt(0.0, 10.0, ALPHA, BETA, "greedy", "random")
    for _ in range(14):
        sprt.add_score(1.0, games=2)
    elo, low, high = sprt.elo_estimate()
    assert (round(elo), round(high)) == (1200, 1200) and 300 < low < 500
    assert sprt.status_line().endswith(f"Elo +1200 [{low:+.0f}, +1200]")
    assert "±" not in sprt.status_line()


def test_the_verdict_says_which_difference_the_games_favour() -> None:
    sprt = Sprt(0.0, 10.0, 0.05, 0.1, "new", "old")
    assert sprt.verdict() is None
    while not sprt.decision:
        sprt.add_score(0.0)
    assert sprt.verdict() == (
        "H0 accepted: the games favour +0 over +10 Elo for new against old (alpha=0.05, beta=0.1)"
    )
    assert out_of_budget(1).startswith("SPRT budget of 1 block used up without a decision; ")
    assert out_of_budget(2000).endswith(
        "2,000 blocks used up without a decision; raise max_blocks and run again to continue"
    )


def test_wide_bounds_are_warned_about_once_when_the_league_starts() -> None:
    def league(elo1: int) -> dict[str, object]:
        bots = [{"name": name, "cmd": "python -m bots.random"} for name in ("a", "b")]
        sprt = {"candidate": "a", "opponent": "b", "elo0": 0, "elo1": elo1}
        return {"engine": "space-five", "mode": "sprt", "players": 2, "sprt": sprt, "bots": bots}

    said: list[str] = []
    SprtFeed(parse(league(50)), said.append)
    assert said == []
    SprtFeed(parse(league(400)), said.append)
    assert len(said) == 1 and said[0].startswith("warning: SPRT elo1 - elo0 = 400 Elo")
    assert "about +151 Elo" in said[0]  # halfway between E(0) = 0.5 and E(400) = 0.909


@pytest.mark.parametrize("elo", [-1e6, -1e308, 1e6, 1e308, -2000.0, 2000.0])
def test_expected_score_of_any_difference_is_a_score(elo: float) -> None:
    score = expected_score(elo)
    assert 0.0 <= score <= 1.0
    assert expected_score(-elo) == pytest.approx(1.0 - score, abs=1e-12)


def test_the_llr_of_extreme_hypotheses_is_finite() -> None:
    sprt = Sprt(-1e6, -2000.0, ALPHA, BETA, "new", "old")
    sprt.add_score(0.0)
    assert np.isfinite(sprt.llr)


def test_the_status_line_counts_in_words() -> None:
    sprt = Sprt(0.0, 10.0, ALPHA, BETA, "new", "old")
    sprt.add_score(1.0, games=1)
    assert "SPRT new vs old: 1 game, LLR" in sprt.status_line()
    sprt.add_score(1.0, games=12_344)
    assert "SPRT new vs old: 12,345 games, LLR" in sprt.status_line()
