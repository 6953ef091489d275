"""Ratings against an independent reference (choix), edge cases, and report formats."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import random
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import choix
import numpy as np
import pytest
import tomli_w

from arena.errors import ConfigError
from arena.record import GameRecord
from arena.show.tables import FORMATS, render
from arena.stats.mle import ELO_PER_NAT
from arena.stats.ratings import MODELS, compute_standings
from tests.ratings_sim import game, simulate_league, with_faults, with_ranks

TRUE = [1250.0, 1400.0, 1500.0, 1580.0, 1700.0]
SCALE = 12  # lcm of the pair weights 1/(k-1) for k = 2, 3, 4 and of the half point of a tie


def _elos(names: Sequence[str], theta: np.ndarray) -> dict[str, float]:
    """choix strengths on the Elo scale, anchored at pool mean 1500 like the standings."""
    return {
        name: 1500.0 + ELO_PER_NAT * (t - theta.mean())
        for name, t in zip(names, theta, strict=True)
    }


def _mine(records: list[GameRecord], **kwargs: Any) -> dict[str, float]:
    standings = compute_standings(records, bootstrap=0, **kwargs)
    return {row.bot: row.elo for row in standings.rows}


def _names(records: list[GameRecord]) -> list[str]:
    return sorted({bot for rec in records for bot in rec.seating})


def _choix_pairs(records: list[GameRecord], names: list[str], prior: float = 0.0) -> list:
    """Weighted pairwise outcomes as choix data, every weight scaled to a whole count.

    A pair in a k-seat game weighs 1/(k-1); a tie is half a win each way; the prior is
    ``prior / (n - 1)`` virtual draws per pair. All of them times SCALE are integers here.
    """
    index = {name: i for i, name in enumerate(names)}
    data: list[tuple[int, int]] = []
    for rec in records:
        k = len(rec.seating)
        for i, j in itertools.combinations(range(k), 2):
            a, b = index[rec.seating[i]], index[rec.seating[j]]
            ri, rj = rec.ranks[i], rec.ranks[j]
            share = SCALE // (k - 1)
            if ri == rj:
                data += [(a, b)] * (share // 2) + [(b, a)] * (share // 2)
            else:
                data += [(a, b) if ri < rj else (b, a)] * share
    virtual = prior / (len(names) - 1) / 2 * SCALE
    assert virtual == int(virtual)
    for a, b in itertools.permutations(range(len(names)), 2):
        data += [(a, b)] * int(virtual)
    return data


def test_bt_agrees_with_choix_on_two_player_games() -> None:
    records = simulate_league(TRUE, players=2, blocks=300, seed=11)
    names = _names(records)
    reference = _elos(names, choix.ilsr_pairwise(len(names), _choix_pairs(records, names)))
    mine = _mine(records, prior=0.0)
    assert max(abs(mine[n] - reference[n]) for n in names) < 0.5


def test_bt_agrees_with_choix_on_league_games_with_ties() -> None:
    records = simulate_league(TRUE, players=[2, 3, 4], blocks=150, seed=12, tie_step=60.0)
    assert any(len(set(rec.ranks)) < len(rec.ranks) for rec in records)
    names = _names(records)
    reference = _elos(names, choix.ilsr_pairwise(len(names), _choix_pairs(records, names)))
    mine = _mine(records, prior=0.0)
    assert max(abs(mine[n] - reference[n]) for n in names) < 0.5


def test_prior_is_virtual_draws_and_keeps_a_perfect_record_finite() -> None:
    ranked = []
    for rec in simulate_league(
        TRUE, players=[2, 3], blocks=80, seed=13
    ):  # bot04 wins everything it plays, bot00 loses everything
        order = sorted(
            range(len(rec.seating)),
            key=lambda s: (rec.seating[s] != "bot04", rec.seating[s] == "bot00"),
        )
        ranked.append(with_ranks(rec, [order.index(s) + 1 for s in range(len(order))]))
    records = ranked
    names = _names(records)
    data = _choix_pairs(records, names, prior=6.0)  # 6 / 4 / 2 * 12 = 9 virtual wins per pair
    reference = _elos(names, choix.ilsr_pairwise(len(names), data))
    mine = _mine(records, prior=6.0)
    assert all(math.isfinite(v) for v in mine.values())
    assert max(abs(mine[n] - reference[n]) for n in names) < 0.5
    assert mine["bot04"] == max(mine.values()) and mine["bot00"] == min(mine.values())


REAL_GAMES = Path(__file__).parent / "data" / "ratings_space_five.jsonl"
"""112 games of a real Space Five league (2, 3 and 4 seats; ties; greedy bots that never lose
to the random ones), played by ``arena run`` with the ``moves`` left out."""


def _real_games() -> list[GameRecord]:
    """Format 1 lines (written before the format key): they still load."""
    return [GameRecord.from_json(line) for line in REAL_GAMES.read_text().splitlines()]


def test_bt_agrees_with_choix_on_a_real_league() -> None:
    records = _real_games()
    names = _names(records)
    # the greedy bots never lose to the random ones: only the prior keeps this finite
    data = _choix_pairs(records, names, prior=2.0)  # 2 / 3 / 2 * 12 = 4 virtual wins per pair
    reference = _elos(names, choix.ilsr_pairwise(len(names), data))
    mine = _mine(records)
    assert max(abs(mine[n] - reference[n]) for n in names) < 0.5


def _tie_broken_orders(rec: GameRecord, index: dict[str, int]) -> list[tuple[int, ...]]:
    tiers = sorted(set(rec.ranks))
    groups = [
        [index[b] for b, r in zip(rec.seating, rec.ranks, strict=True) if r == t] for t in tiers
    ]
    return [
        tuple(itertools.chain.from_iterable(p))
        for p in itertools.product(*(itertools.permutations(g) for g in groups))
    ]


@pytest.mark.parametrize("tie_step", [0.0, 40.0])
def test_pl_agrees_with_choix_rankings(tie_step: float) -> None:
    records = simulate_league(TRUE, players=[2, 3, 4], blocks=150, seed=14, tie_step=tie_step)
    names = _names(records)
    index = {name: i for i, name in enumerate(names)}
    per_game = [_tie_broken_orders(rec, index) for rec in records]
    scale = math.lcm(*(len(orders) for orders in per_game))
    data = [o for orders in per_game for o in orders for _ in range(scale // len(orders))]
    reference = _elos(names, choix.ilsr_rankings(len(names), data))
    mine = _mine(records, model="pl", prior=0.0)
    assert max(abs(mine[n] - reference[n]) for n in names) < 0.5


def test_pl_agrees_with_choix_on_a_real_league() -> None:
    records = _real_games()
    names = _names(records)
    index = {name: i for i, name in enumerate(names)}
    per_game = [_tie_broken_orders(rec, index) for rec in records]
    scale = 6 * math.lcm(*(len(orders) for orders in per_game))
    data = [o for orders in per_game for o in orders for _ in range(scale // len(orders))]
    # the prior's virtual draws are two-bot rankings: 2 / 3 / 2 = 1/3 win per ordered pair
    data += [pair for pair in itertools.permutations(range(len(names)), 2)] * (scale // 3)
    reference = _elos(names, choix.ilsr_rankings(len(names), data))
    mine = _mine(records, model="pl")
    assert max(abs(mine[n] - reference[n]) for n in names) < 0.5


def test_anchor_moves_the_scale_only() -> None:
    records = simulate_league(TRUE, players=3, blocks=60, seed=15)
    free = _mine(records)
    anchored = _mine(records, anchor=("bot01", 1600.0))
    assert anchored["bot01"] == pytest.approx(1600.0)
    shift = anchored["bot01"] - free["bot01"]
    assert all(anchored[n] - free[n] == pytest.approx(shift) for n in free)
    assert _mine(records, anchor=("bot02", 1500.0))["bot02"] == pytest.approx(1500.0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"anchor": ("nobody", 1500.0)}, "anchor bot 'nobody'"),
        ({"anchor": ("bot01", math.inf)}, "finite"),
        ({"model": "elo"}, "unknown rating model"),
        ({"method": "glicko"}, "unknown rating method"),
        ({"method": "online", "model": "pl"}, "online"),
        ({"bootstrap": -1}, "bootstrap"),
    ],
)
def test_bad_arguments_are_config_errors(kwargs: dict[str, Any], message: str) -> None:
    records = simulate_league(TRUE, players=2, blocks=5, seed=16)
    with pytest.raises(ConfigError, match=message):
        compute_standings(records, **kwargs)


def test_empty_and_single_bot_standings() -> None:
    empty = compute_standings([])
    assert empty.rows == () and empty.games == 0
    for fmt in FORMATS:
        render(empty, fmt)
    tomllib.loads(tomli_w.dumps(empty.to_dict()))
    solo = _solo_record("lonely", seed=1, score=10)
    one = compute_standings([solo, _solo_record("lonely", seed=2, score=10)], bootstrap=50)
    (row,) = one.rows
    assert (row.bot, row.elo, row.games) == ("lonely", 1500.0, 2)
    assert (row.elo_low, row.elo_high) == (1500.0, 1500.0)


def test_all_ties_score_half() -> None:
    records = [
        with_ranks(rec, [1, 1, 1])
        for rec in simulate_league(TRUE[:3], players=3, blocks=10, seed=17)
    ]
    standings = compute_standings(records, bootstrap=20)
    for row in standings.rows:
        assert row.score_pct == pytest.approx(50.0)
        assert row.elo == pytest.approx(1500.0)
        assert row.win_pct == pytest.approx(100.0)  # a shared first place counts as a win


def _solo_record(
    bot: str, *, seed: int, score: float, low: bool = False, automa: bool = True
) -> GameRecord:
    return game(
        [bot],
        [1],
        scores=[score],
        id=f"solo/{bot}/{seed}",
        engine="little-everdell",
        options={"automa": automa},
        seed=seed,
        detail={"score_order": "low"} if low else {},
        decisions=5,
        think_ms=[10.0],
    )


def test_solo_duplicate_scoring_honours_low_score_order() -> None:
    records = []
    for seed in range(30):
        # "careful" has the lower (better) score on 20 seeds, ties on 5, loses 5
        careful = 10 if seed < 20 else 15 if seed < 25 else 20
        records += [
            _solo_record("careful", seed=seed, score=careful, low=True),
            _solo_record("hasty", seed=seed, score=15, low=True),
            _solo_record("hasty", seed=seed, score=99, low=True, automa=False),
        ]
    standings = compute_standings(records, bootstrap=100)
    rows = {row.bot: row for row in standings.rows}
    assert rows["careful"].elo > rows["hasty"].elo
    assert rows["careful"].score_pct == pytest.approx(100 * (20 + 2.5) / 30)
    assert standings.crosstable["careful"]["hasty"].games == 30
    assert standings.units == 60  # one unit per (options, seed); the lone games compare nothing
    assert rows["hasty"].games == 60
    assert rows["hasty"].wins == 10  # 5 better, 5 tied; its lone games compare nothing
    assert rows["careful"].think_ms == pytest.approx(2.0)


def test_solo_forfeit_ranks_last() -> None:
    records = [
        _solo_record("a", seed=1, score=5),
        with_faults(_solo_record("b", seed=1, score=50), 0, {"crash": 1}, "crash"),
    ]
    rows = {row.bot: row for row in compute_standings(records, bootstrap=0).rows}
    assert rows["a"].score_pct == 100.0 and rows["b"].forfeits == 1


def test_columns_beside_the_elo() -> None:
    records = simulate_league(TRUE, players=[2, 4], blocks=40, seed=18, seat_advantage=50)
    records[0] = with_faults(records[0], 1, {"timeout": 2, "illegal": 1}, "illegal")
    standings = compute_standings(records, bootstrap=0)
    rows = {row.bot: row for row in standings.rows}
    faulty = rows[records[0].seating[1]]
    assert faulty.verdicts["timeout"] == 2 and faulty.verdicts["illegal"] == 1
    assert faulty.forfeits == 1 and faulty.faults == 3
    for name, row in rows.items():
        mine = [(rec, rec.seating.index(name)) for rec in records if name in rec.seating]
        assert row.games == len(mine)
        assert row.wins == sum(rec.ranks[s] == 1 for rec, s in mine)
        assert row.mean_place == pytest.approx(np.mean([rec.ranks[s] for rec, s in mine]))
        think = sum(rec.seats[s].think_ms for rec, s in mine)
        assert row.think_ms == pytest.approx(think / sum(rec.seats[s].decisions for rec, s in mine))
    seats = {(s.players, s.seat): s for s in standings.seats}
    assert sum(seats[(4, seat)].games for seat in range(4)) == 4 * seats[(4, 0)].games
    assert sum(s.win_pct for (k, _), s in seats.items() if k == 2) == pytest.approx(100.0)


def test_online_follows_game_order() -> None:
    early = [_two("a", "b", 1, 2, i) for i in range(20)]
    late = [_two("a", "b", 2, 1, i + 20) for i in range(20)]
    online = compute_standings(early + late, method="online")
    rows = {row.bot: row.elo for row in online.rows}
    assert rows["b"] > rows["a"]
    assert (rows["a"] + rows["b"]) / 2 == pytest.approx(1500.0)
    assert online.los == {} and online.rows[0].elo_low is None
    ml = {row.bot: row.elo for row in compute_standings(early + late, bootstrap=0).rows}
    assert ml["a"] == pytest.approx(ml["b"])


def test_online_standings_claim_no_prior() -> None:
    """Online Elo has no prior: the header names none and a perfect record is not said to
    be set by one."""
    perfect = [_two("a", "b", 1, 2, i) for i in range(6)]
    online = compute_standings(perfect, method="online")
    assert online.prior == 0.0
    table = render(online, "table")
    assert "prior" not in table and "Perfect record" not in table
    ml = " ".join(render(compute_standings(perfect), "table").split())  # unwrapped
    assert "prior 2 virtual draws" in ml and "Perfect record (a); lost every game (b)" in ml


@pytest.mark.parametrize("model", MODELS)
def test_no_prior_on_a_perfect_record_is_a_config_error(model: str) -> None:
    perfect = [_two("a", "b", 1, 2, i) for i in range(6)]
    with pytest.raises(ConfigError, match=r"no finite ratings.*use a prior above 0"):
        compute_standings(perfect, model=model, prior=0)


def _two(a: str, b: str, ra: int, rb: int, block: int) -> GameRecord:
    return game([a, b], [ra, rb], id=f"t/{block}", engine="x", block=block)


def test_bootstrap_is_reproducible_and_los_is_consistent() -> None:
    records = simulate_league(TRUE, players=[2, 3], blocks=60, seed=19)
    first = compute_standings(records, bootstrap=100, seed=3)
    again = compute_standings(records, bootstrap=100, seed=3)
    assert first == again
    for a, above in first.los.items():
        for b, p in above.items():
            assert p + first.los[b][a] == pytest.approx(1.0)
    for row in first.rows:
        assert row.elo_low is not None and row.elo_high is not None
        assert row.elo_low <= row.elo <= row.elo_high


LONG_NAMES = [f"a-rather-long-bot-name-{i}" for i in range(12)]


def test_report_formats() -> None:
    elos = list(np.linspace(1000, 2000, 12))
    records = simulate_league(elos, players=[2, 4], blocks=600, seed=20, names=LONG_NAMES)
    records[0] = with_faults(records[0], 0, {"crash": 1})
    standings = compute_standings(records, bootstrap=50)
    table = render(standings, "table")
    assert max(len(line) for line in table.splitlines()) <= 80
    assert "Crosstable" in table and "Seats" in table and "superiority" in table
    parsed = list(csv.DictReader(io.StringIO(render(standings, "csv"))))
    assert [row["bot"] for row in parsed] == [row.bot for row in standings.rows]
    assert float(parsed[0]["elo"]) == pytest.approx(standings.rows[0].elo, abs=0.01)
    assert json.loads(render(standings, "json")) == {**standings.to_dict(), "warnings": []}
    markdown = render(standings, "markdown")
    assert "| a-rather-long-bot-name-" in markdown and "### Crosstable" in markdown
    back = tomllib.loads(tomli_w.dumps(standings.to_dict()))
    assert back["bots"][0]["elo_low"] == pytest.approx(standings.rows[0].elo_low)
    with pytest.raises(ConfigError, match="unknown standings format"):
        render(standings, "html")


def test_the_order_games_were_stored_in_does_not_change_the_standings() -> None:
    """--jobs and --workers store games in different orders: the intervals must not move."""
    records = simulate_league([1400.0, 1500.0, 1600.0], players=2, blocks=30, seed=3)
    shuffled = list(records)
    random.Random(5).shuffle(shuffled)
    for model in MODELS:
        ordered = compute_standings(records, model=model, bootstrap=200)
        mixed = compute_standings(shuffled, model=model, bootstrap=200)
        for x, y in zip(ordered.rows, mixed.rows, strict=True):
            assert x.bot == y.bot
            assert (x.elo, x.elo_low, x.elo_high) == pytest.approx((y.elo, y.elo_low, y.elo_high))
        for bot, row in ordered.los.items():
            assert row == pytest.approx(mixed.los[bot])
