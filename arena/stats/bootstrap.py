"""Block bootstrap: resample whole units (rotation blocks, solo seeds) with replacement.

A resample is a vector of counts, one per unit, summing to the number of units; a statistic
that is a sum over games becomes the count-weighted sum over units. Games of one block share
a deal and a seat rotation, so they are resampled together, never one by one.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from arena.stats.mle import FloatArray

CHUNK = 64
"""Resamples drawn (and fitted) together: bounds memory at ``CHUNK x units`` floats."""


def resample_counts(rng: np.random.Generator, units: int, resamples: int) -> Iterator[FloatArray]:
    """Yield arrays ``(c, units)`` of unit counts, ``resamples`` rows in all, in chunks."""
    for start in range(0, resamples, CHUNK):
        c = min(CHUNK, resamples - start)
        picks = rng.integers(0, units, size=(c, units))
        flat = np.bincount((picks + units * np.arange(c)[:, None]).reshape(-1), minlength=c * units)
        yield flat.reshape(c, units).astype(np.float64)


def percentile_interval(samples: FloatArray, confidence: float) -> tuple[FloatArray, FloatArray]:
    """Percentile interval per column of ``samples`` (rows are resamples)."""
    tail = 50.0 * (1.0 - confidence)
    low, high = np.percentile(samples, [tail, 100.0 - tail], axis=0)
    return low, high


def superiority(samples: FloatArray) -> FloatArray:
    """``los[a, b]``: share of resamples where ``a`` is rated above ``b`` (ties count half)."""
    above = (samples[:, :, None] > samples[:, None, :]).mean(axis=0)
    tied = (samples[:, :, None] == samples[:, None, :]).mean(axis=0)
    return above + 0.5 * tied
