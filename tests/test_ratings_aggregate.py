"""The fits on per-unit sums (``arena.stats.outcomes``) against a plain per-game computation.

``arena standings`` never keeps a game: it sums each resampling unit's pair and stage counts
while reading. These tests rebuild the same fits the long way (every game's pairs and stages,
one unit matrix at a time) and hold the two to 1e-9 nats, resample by resample.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np
import pytest

from arena.record import GameRecord
from arena.stats import mle
from arena.stats.bootstrap import CHUNK, Resampled, UnitSums, resample_counts
from arena.stats.mle import FloatArray, PlackettLuce, fit_bt
from arena.stats.ratings import (
    _fit_bt,
    _fit_pl,
    _parse,
    _prior_wins,
    compute_standings,
    rows_of,
    standings_of_rows,
)
from tests.ratings_sim import simulate_league

PRIOR = 2.0
RESAMPLES = 150  # more than two chunks, the last one short


def _league(seed: int) -> list[GameRecord]:
    """Mixed table sizes, ties, a seat advantage: every kind of pair and stage weight."""
    elos = list(np.linspace(1300.0, 1700.0, 7))
    return simulate_league(
        elos, players=[2, 3, 4], blocks=40, seed=seed, seat_advantage=25, tie_step=60
    )


def _contests(
    records: list[GameRecord],
) -> tuple[list[str], list[tuple[list[int], list[int], int]]]:
    """Bots in order of first appearance; each game's bots, ranks and unit (units numbered
    in the order of their keys' ``repr``, as the standings number them)."""
    names = list(dict.fromkeys(bot for record in records for bot in record.seating))
    keys = sorted({(r.engine, r.table, r.block) for r in records}, key=repr)
    unit = {key: number for number, key in enumerate(keys)}
    return names, [
        (
            [names.index(bot) for bot in record.seating],
            [seat.rank for seat in record.seats],
            unit[(record.engine, record.table, record.block)],
        )
        for record in records
    ]


def _reference_bt(records: list[GameRecord]) -> tuple[FloatArray, FloatArray]:
    names, contests = _contests(records)
    n, units = len(names), 1 + max(unit for _, _, unit in contests)
    per_unit = np.zeros((units, n, n))
    for bots, ranks, unit in contests:
        k = len(bots)
        for i, j in itertools.combinations(range(k), 2):
            score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            per_unit[unit, bots[i], bots[j]] += score / (k - 1)
            per_unit[unit, bots[j], bots[i]] += (1.0 - score) / (k - 1)
    prior = _prior_wins(n, PRIOR)
    theta = fit_bt(per_unit.sum(axis=0) + prior)
    samples = [
        fit_bt(np.einsum("ru,uab->rab", counts, per_unit) + prior, start=theta)
        for counts in resample_counts(np.random.default_rng(0), units, RESAMPLES)
    ]
    return theta, np.vstack(samples)


def _reference_pl(records: list[GameRecord]) -> tuple[FloatArray, FloatArray]:
    names, contests = _contests(records)
    n, units = len(names), 1 + max(unit for _, _, unit in contests)
    stages: list[tuple[tuple[int, ...], int, float, int]] = []  # set, chosen, weight, unit
    for bots, ranks, unit in contests:
        tiers: dict[int, list[int]] = defaultdict(list)
        for bot, rank in zip(bots, ranks, strict=True):
            tiers[rank].append(bot)
        orders = [
            list(itertools.chain.from_iterable(parts))
            for parts in itertools.product(
                *(itertools.permutations(tiers[r]) for r in sorted(tiers))
            )
        ]
        for order in orders:
            for s in range(len(order) - 1):
                stages.append((tuple(sorted(order[s:])), order[s], 1.0 / len(orders), unit))
    width = max(len(members) for members, _, _, _ in stages)
    sets = sorted({members + (n,) * (width - len(members)) for members, _, _, _ in stages})
    number = {members: i for i, members in enumerate(sets)}
    by_set, by_chosen = np.zeros((units, len(sets))), np.zeros((units, n))
    for members, chosen, weight, stage_unit in stages:
        by_set[stage_unit, number[members + (n,) * (width - len(members))]] += weight
        by_chosen[stage_unit, chosen] += weight
    model = PlackettLuce(n, np.array(sets, dtype=np.int64))
    prior = _prior_wins(n, PRIOR)
    theta = model.fit(by_set.sum(axis=0), by_chosen.sum(axis=0), prior)
    curvature = model.curvature(theta, by_set.sum(axis=0), prior)
    samples = [
        model.fit(row @ by_set, row @ by_chosen, prior, start=theta, curvature=curvature)
        for counts in resample_counts(np.random.default_rng(0), units, RESAMPLES)
        for row in counts
    ]
    return theta, np.vstack(samples)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("model", ["bt", "pl"])
def test_fits_on_unit_sums_equal_the_per_game_fits(model: str, seed: int) -> None:
    records = _league(seed)
    data = _parse(rows_of(records), stages=model == "pl", in_order=False)
    n = len(data.names)
    fit = _fit_pl if model == "pl" else _fit_bt
    theta, samples = fit(n, data, _prior_wins(n, PRIOR), RESAMPLES, 0)
    reference = _reference_pl if model == "pl" else _reference_bt
    want_theta, want_samples = reference(records)
    assert samples.shape == (RESAMPLES, n)
    np.testing.assert_allclose(theta, want_theta, rtol=0, atol=1e-9)
    np.testing.assert_allclose(samples, want_samples, rtol=0, atol=1e-9)


@pytest.mark.parametrize("model", ["bt", "pl"])
def test_standings_do_not_depend_on_how_the_games_are_batched(model: str) -> None:
    records = _league(4)
    rows = [record.to_dict() for record in records]
    whole = compute_standings(records, model=model, bootstrap=80)
    cuts = sorted(np.random.default_rng(5).choice(len(rows), size=12, replace=False).tolist())
    pieces = [rows[start:end] for start, end in itertools.pairwise([0, *cuts, len(rows)])]
    assert standings_of_rows(pieces, model=model, bootstrap=80) == whole
    singles = [[row] for row in rows]
    assert standings_of_rows(singles, model=model, bootstrap=80) == whole


@pytest.mark.parametrize("units", [1, 2, 7, 300, 25_000, 70_001])
def test_resample_counts_are_the_draws_of_one_call(units: int) -> None:
    resamples = 2 * CHUNK + 5
    rng = np.random.default_rng(11)
    picks = rng.integers(0, units, size=(resamples, units))
    want = np.array([np.bincount(row, minlength=units) for row in picks], dtype=np.float64)
    got = np.vstack(list(resample_counts(np.random.default_rng(11), units, resamples)))
    assert np.array_equal(got, want)


def test_unit_sums_merge_batches_into_exact_totals() -> None:
    rng = np.random.default_rng(2)
    sums = UnitSums(2)
    want: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for _ in range(300):  # 150,000 entries: several merges
        units = rng.integers(0, 50, size=500)
        keys = rng.integers(0, 1 << 20, size=500) % 97
        values = rng.integers(0, 5, size=(500, 2)).astype(np.float64)
        sums.add(units, keys, values)
        for unit, key, (first, second) in zip(
            units.tolist(), keys.tolist(), values.tolist(), strict=True
        ):
            want[(unit, key)][0] += first
            want[(unit, key)][1] += second
    renumber = np.arange(50)[::-1].copy()
    unit, key, values = sums.entries(renumber)
    got = {
        (int(renumber[u]), int(k)): v
        for u, k, v in zip(unit.tolist(), key.tolist(), values.tolist(), strict=True)
    }
    assert got == dict(want)
    entries = list(zip(unit.tolist(), key.tolist(), strict=True))
    assert entries == sorted(entries)


def test_batched_pl_fits_equal_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    records = _league(6)
    data = _parse(rows_of(records), stages=True, in_order=False)
    n = len(data.names)
    prior = _prior_wins(n, PRIOR)
    batched = _fit_pl(n, data, prior, RESAMPLES, 0)[1]
    monkeypatch.setattr(mle, "_INCIDENCE_LIMIT", 0)  # too large: one fit per resample
    one_by_one = _fit_pl(n, data, prior, RESAMPLES, 0)[1]
    np.testing.assert_allclose(batched, one_by_one, rtol=0, atol=1e-12)


@pytest.mark.parametrize("keys", [3, 500])  # one product per key; gathered and summed
def test_resampled_sums_are_the_dense_product(keys: int) -> None:
    rng = np.random.default_rng(keys)
    units, entries = 300, 3000
    unit = rng.integers(0, units, size=entries)
    key = rng.integers(0, keys, size=entries)
    values = rng.normal(size=(entries, 2))
    dense = np.zeros((units, keys, 2))
    np.add.at(dense, (unit, key), values)
    counts = next(resample_counts(np.random.default_rng(0), units, CHUNK))
    want = np.einsum("ru,ukc->rkc", counts, dense)
    np.testing.assert_allclose(Resampled(unit, key, values, keys)(counts), want, atol=1e-9)
