"""Block bootstrap: resample whole units (rotation blocks, solo seeds) with replacement.

A resample is a vector of counts, one per unit, summing to the number of units; a statistic
that is a sum over games becomes the count-weighted sum over units. Games of one block share
a deal and a seat rotation, so they are resampled together, never one by one.

:class:`UnitSums` keeps such sums per (unit, key) while games are read, so what is kept grows
with units and keys (bot pairs, choice sets), not with games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO

import numpy as np

from arena.forked import Forked, second_core
from arena.stats.mle import FloatArray, IntArray

CHUNK = 64
"""Resamples drawn (and fitted) together: bounds memory at ``CHUNK x units`` floats."""

KEY_BITS = 32
"""Keys of :class:`UnitSums` are below ``2**KEY_BITS``; units below ``2**(63 - KEY_BITS)``."""


def resample_counts(
    rng: np.random.Generator, units: int, resamples: int, *, skip: int = 0
) -> Iterator[FloatArray]:
    """Yield arrays ``(c, units)`` of unit counts, ``resamples`` rows in all, in chunks;
    ``skip``: draw that many rows first and drop them (the rows that follow are those of a
    call without ``skip``, from row ``skip`` on)."""
    for _ in range(skip):
        rng.integers(0, units, size=units, dtype=_DRAW)
    for start in range(0, resamples - skip, CHUNK):
        counts = np.empty((min(CHUNK, resamples - skip - start), units))
        for row in counts:  # the same draws as one (c, units) call, a row at a time
            row[:] = np.bincount(rng.integers(0, units, size=units, dtype=_DRAW), minlength=units)
        yield counts


_DRAW = np.uint32
"""The draws' type: below ``2**32`` numpy draws the very same numbers for any integer type
(32-bit Lemire draws from the same stream), and 32-bit ones are made and counted about twice
as fast as the default 64-bit ones."""


def fitted_resamples(
    fit: Callable[[FloatArray], FloatArray], seed: int, units: int, resamples: int, width: int
) -> FloatArray:
    """``fit(counts)`` (``(c, width)`` from ``(c, units)`` counts) of every chunk of the
    resamples drawn with ``seed``, stacked in order: ``(resamples, width)``.

    When the work is large and the machine has a second core, the second half of the chunks
    is fitted in a forked copy of this process (:class:`~arena.forked.Forked`), which draws
    and drops the first half's rows: the same draws, so the same numbers as fitting them
    all here, which is what happens when the copy fails.
    """
    rng = np.random.default_rng(seed)
    chunks = -(-resamples // CHUNK)
    if chunks < 2 or units * resamples < FORK_MIN_WORK or not second_core():
        return _stacked([fit(counts) for counts in resample_counts(rng, units, resamples)], width)
    mine = chunks // 2 * CHUNK

    def fit_the_rest(out: IO[bytes]) -> None:
        copy_rng = np.random.default_rng(seed)
        rows = [fit(counts) for counts in resample_counts(copy_rng, units, resamples, skip=mine)]
        out.write(np.vstack(rows).astype(np.float64).tobytes())

    with Forked(fit_the_rest) as copy:
        parts = [fit(counts) for counts in resample_counts(rng, units, mine)]
        out = copy.result()
        rest = out.read() if out is not None else b""
    if len(rest) == (resamples - mine) * width * 8:
        parts.append(np.frombuffer(rest, dtype=np.float64).reshape(-1, width))
    else:  # no copy, or it failed: fit the rest here (the generator is where the copy began)
        parts.extend(fit(counts) for counts in resample_counts(rng, units, resamples - mine))
    return _stacked(parts, width)


FORK_MIN_WORK = 2_000_000
"""Units x resamples from which :func:`fitted_resamples` splits the work with a forked copy
(below it the fits take well under a tenth of a second: not worth a process)."""


def _stacked(parts: list[FloatArray], width: int) -> FloatArray:
    return np.vstack(parts) if parts else np.zeros((0, width))


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


class Resampled:
    """Sums per key of entries ``(unit, key, values)`` under resample counts.

    ``resampled(counts)[r, k, c]`` is the sum of ``values[:, c]`` over the entries with key
    ``k``, each weighted by ``counts[r, unit]`` (how often resample ``r`` drew its unit): the
    product of the resamples' counts with the sparse units x keys matrix of values. When the
    keys are few and each has many entries (the bot pairs of a large league), it is one small
    matrix product per key over a chunk of resamples; otherwise the entries, sorted by key,
    are gathered for a few resamples at a time and summed key by key (``np.add.reduceat``).
    """

    def __init__(self, unit: IntArray, key: IntArray, values: FloatArray, size: int) -> None:
        self.size = size
        self.columns = values.shape[1]
        order = np.argsort(key, kind="stable")
        self._unit, self._key, self._values = unit[order], key[order], values[order]
        self._starts = np.flatnonzero(np.diff(self._key, prepend=-1))
        self._runs: list[tuple[int, int, int]] | None = None
        if len(key) and len(self._starts) * _PER_KEY_MIN <= len(key):
            starts = self._starts.tolist()
            ends = [*starts[1:], len(key)]
            self._runs = list(zip(self._key[starts].tolist(), starts, ends, strict=True))

    def __call__(self, counts: FloatArray) -> FloatArray:
        out = np.zeros((len(counts), self.size, self.columns))
        if self._runs is not None:
            by_unit = np.ascontiguousarray(counts.T)
            for key, start, end in self._runs:
                out[:, key, :] = by_unit[self._unit[start:end]].T @ self._values[start:end]
            return out
        if not len(self._key):
            return out
        keys = self._key[self._starts]
        for first in range(0, len(counts), _ROWS):
            drawn = np.take(counts[first : first + _ROWS], self._unit, axis=1)
            for column, value in enumerate(self._values.T):
                sums = np.add.reduceat(drawn * value, self._starts, axis=1)
                out[first : first + _ROWS, keys, column] = sums
        return out


_PER_KEY_MIN = 256
"""Mean entries per key from which :class:`Resampled` takes one product per key."""
_ROWS = 8
"""Resamples gathered together otherwise (bounds memory at ``_ROWS x entries`` floats)."""
