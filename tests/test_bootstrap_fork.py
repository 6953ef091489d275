"""``fitted_resamples``: the second half of the resamples fitted in a forked copy gives the
very numbers of fitting them all here, a failing copy is replaced, a failing parent leaves
no copy behind, and small work forks nothing."""

from __future__ import annotations

import os

import numpy as np
import pytest

from arena import forked
from arena.stats import bootstrap
from arena.stats.bootstrap import CHUNK, fitted_resamples
from arena.stats.mle import FloatArray
from tests.conftest import allow_copies, reaped

UNITS = 300
RESAMPLES = 3 * CHUNK + 17  # an odd number of chunks, the last one short
WEIGHTS = np.random.default_rng(3).random((UNITS, 5))


def _fit(counts: FloatArray) -> FloatArray:
    """A statistic of each resample that depends on every count (and on the chunk's rows
    only through their own counts)."""
    return np.asarray(np.tanh(counts @ WEIGHTS / UNITS), dtype=np.float64)


def _in_process() -> FloatArray:
    rng = np.random.default_rng(7)
    return np.vstack([_fit(c) for c in bootstrap.resample_counts(rng, UNITS, RESAMPLES)])


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch, forked_pids: list[int]) -> list[int]:
    """Fork whatever the work and the cores; the list collects the forked pids."""
    if not forked._CAN_FORK:
        pytest.skip("fitted_resamples forks only on Linux")
    monkeypatch.setattr(bootstrap, "FORK_MIN_WORK", 0)
    allow_copies(monkeypatch)
    return forked_pids


def test_the_forked_half_gives_the_same_numbers(forking: list[int]) -> None:
    got = fitted_resamples(_fit, 7, UNITS, RESAMPLES, 5)
    assert len(forking) == 1
    assert got.shape == (RESAMPLES, 5)
    assert np.array_equal(got, _in_process())
    assert reaped(forking[0])


def test_a_failing_copy_is_replaced_by_fitting_here(forking: list[int]) -> None:
    parent = os.getpid()

    def fit(counts: FloatArray) -> FloatArray:
        if os.getpid() != parent:
            raise RuntimeError("the copy fails")
        return _fit(counts)

    got = fitted_resamples(fit, 7, UNITS, RESAMPLES, 5)
    assert len(forking) == 1
    assert np.array_equal(got, _in_process())
    assert reaped(forking[0])


def test_a_failing_parent_leaves_no_copy(forking: list[int]) -> None:
    parent = os.getpid()

    def fit(counts: FloatArray) -> FloatArray:
        if os.getpid() == parent:
            raise KeyboardInterrupt  # as Ctrl-C would, while the copy is still fitting
        return _fit(counts)

    with pytest.raises(KeyboardInterrupt):
        fitted_resamples(fit, 7, UNITS, RESAMPLES, 5)
    assert len(forking) == 1
    assert reaped(forking[0])


def test_small_work_forks_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise AssertionError("forked for small work")

    monkeypatch.setattr(os, "fork", no_fork)
    monkeypatch.setattr(forked, "cores", lambda: 2)
    assert UNITS * RESAMPLES < bootstrap.FORK_MIN_WORK
    assert np.array_equal(fitted_resamples(_fit, 7, UNITS, RESAMPLES, 5), _in_process())


def test_one_core_forks_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise AssertionError("forked on one core")

    monkeypatch.setattr(os, "fork", no_fork)
    monkeypatch.setattr(bootstrap, "FORK_MIN_WORK", 0)
    monkeypatch.setattr(forked, "cores", lambda: 1)
    assert np.array_equal(fitted_resamples(_fit, 7, UNITS, RESAMPLES, 5), _in_process())


def test_no_process_to_be_had_fits_here(
    forking: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing_fork() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", failing_fork)
    assert np.array_equal(fitted_resamples(_fit, 7, UNITS, RESAMPLES, 5), _in_process())
