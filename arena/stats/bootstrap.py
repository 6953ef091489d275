"""Block bootstrap: resample whole units (rotation blocks, solo seeds) with replacement.

A resample is a vector of counts, one per unit, summing to the number of units; a statistic
that is a sum over games becomes the count-weighted sum over units. Games of one block share
a deal and a seat rotation, so they are resampled together, never one by one.

:class:`UnitSums` keeps such sums per (unit, key) while games are read, so what is kept grows
with units and keys (bot pairs, choice sets), not with games.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from arena.stats.mle import FloatArray, IntArray

CHUNK = 64
"""Resamples drawn (and fitted) together: bounds memory at ``CHUNK x units`` floats."""

KEY_BITS = 32
"""Keys of :class:`UnitSums` are below ``2**KEY_BITS``; units below ``2**(63 - KEY_BITS)``."""


def resample_counts(rng: np.random.Generator, units: int, resamples: int) -> Iterator[FloatArray]:
    """Yield arrays ``(c, units)`` of unit counts, ``resamples`` rows in all, in chunks."""
    for start in range(0, resamples, CHUNK):
        counts = np.empty((min(CHUNK, resamples - start), units))
        for row in counts:  # the same draws as one (c, units) call, a row at a time
            row[:] = np.bincount(rng.integers(0, units, size=units), minlength=units)
        yield counts


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


class UnitSums:
    """Columns of values summed per (unit, key), added a batch at a time.

    Batches are kept as they come and merged (one sort, one ``bincount`` per column) whenever
    they outgrow the merged part, so memory stays within a few times the number of distinct
    (unit, key) entries and the total work is that of a few sorts of everything added. Give
    it whole numbers (counts): their sums are exact, so the result does not depend on how
    the games were cut into batches.
    """

    def __init__(self, columns: int) -> None:
        self.columns = columns
        self._codes: list[IntArray] = [np.zeros(0, dtype=np.int64)]
        self._values: list[FloatArray] = [np.zeros((0, columns))]
        self._merged = 0
        self._pending = 0

    def add(self, units: IntArray, keys: IntArray, values: FloatArray) -> None:
        """Add ``values[i]`` (a row of ``columns``) to entry ``(units[i], keys[i])``."""
        self._codes.append((units << KEY_BITS) | keys)
        self._values.append(values.reshape(len(keys), self.columns))
        self._pending += len(keys)
        if self._pending > max(self._merged, 1 << 16):
            self._merge()

    def entries(
        self, renumber: IntArray, rekey: IntArray | None = None
    ) -> tuple[IntArray, IntArray, FloatArray]:
        """Every entry once, as ``(unit, key, values)``, unit ``u`` renamed ``renumber[u]``
        (and key ``k`` ``rekey[k]``), sorted by unit, then key."""
        self._merge()
        units = renumber[self._codes[0] >> KEY_BITS]
        keys = self._codes[0] & ((1 << KEY_BITS) - 1)
        if rekey is not None:
            keys = rekey[keys]
        order = np.lexsort((keys, units))
        return units[order], keys[order], self._values[0][order]

    def _merge(self) -> None:
        codes = np.concatenate(self._codes)
        values = np.concatenate(self._values)
        distinct, inverse = np.unique(codes, return_inverse=True)
        inverse = inverse.reshape(-1)
        merged = np.empty((len(distinct), self.columns))
        for column in range(self.columns):
            merged[:, column] = np.bincount(inverse, values[:, column], minlength=len(distinct))
        self._codes, self._values = [distinct], [merged]
        self._merged, self._pending = len(distinct), 0


def resampled(
    counts: FloatArray, unit: IntArray, key: IntArray, values: FloatArray, size: int
) -> FloatArray:
    """``out[r, k, c]``: the sum of ``values[:, c]`` over entries with key ``k``, each entry
    weighted by ``counts[r, unit]`` (how often resample ``r`` drew its unit)."""
    out = np.empty((len(counts), size, values.shape[1]))
    columns = values.T.copy()
    for row, drawn in zip(out, counts, strict=True):
        weight = drawn[unit]
        for column, value in enumerate(columns):
            row[:, column] = np.bincount(key, weight * value, minlength=size)
    return out
