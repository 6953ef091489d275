"""Maximum-likelihood strengths for Bradley–Terry and Plackett–Luce (natural-log scale).

Strengths ``theta`` are log-strengths: ``P(a beats b) = 1 / (1 + exp(theta_b - theta_a))``.
Both fits are damped Newton iterations on the concave log-likelihood and return a solution
with mean zero (the likelihood only sees differences). The Elo scale is
``ELO_PER_NAT * theta``.

Nothing here knows about games, bots or records: ``arena.stats.ratings`` builds the inputs.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

ELO_PER_NAT = 400.0 / math.log(10.0)
"""Elo points per unit of log-strength (the 400-point logistic scale)."""

_MAX_STEP = 3.0  # nats per iteration: keeps Newton stable when a bot is nearly all-win/all-loss
_TOL = 1e-9
_MAX_ITER = 200
_INCIDENCE_LIMIT = 1 << 22  # entries of the sets x bots matrix (32 MiB) for batched fits


def sum_by(index: IntArray, weights: FloatArray, size: int) -> FloatArray:
    """``out[i] = sum(weights[index == i])`` for ``i < size`` (a typed ``np.bincount``)."""
    return np.bincount(index, weights=weights, minlength=size).astype(np.float64, copy=False)


def _row_sums(values: FloatArray) -> FloatArray:
    """``values.sum(axis=1)``, the same numbers, faster for a few columns: numpy adds fewer
    than 8 columns one after another, which column-wise ``+=`` does without its per-row
    overhead (several times faster for 2-5 columns)."""
    if values.shape[1] >= 8 or values.shape[1] == 0:
        return np.asarray(values.sum(axis=1), dtype=np.float64)
    total = values[:, 0].copy()
    for column in range(1, values.shape[1]):
        total += values[:, column]
    return total


def _logistic(x: FloatArray) -> FloatArray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def _damped(step: FloatArray) -> FloatArray:
    """Scale each row of ``step`` so that no strength moves more than ``_MAX_STEP``."""
    biggest = np.abs(step).max(axis=-1, keepdims=True)
    return step * np.minimum(1.0, _MAX_STEP / np.maximum(biggest, 1e-300))


def fit_bt(wins: FloatArray, start: FloatArray | None = None) -> FloatArray:
    """Bradley–Terry maximum likelihood for one or a batch of win matrices.

    ``wins[..., a, b]`` is the (weighted, possibly fractional) number of times ``a`` beat ``b``;
    a draw counts half a win each way. Returns ``theta[..., n]`` with mean zero. The data must
    be connected (every split of the bots has wins both ways across it), which the ratings
    prior guarantees; otherwise ``numpy.linalg.LinAlgError`` or non-finite values result.
    """
    wins = np.asarray(wins, dtype=np.float64)
    n = wins.shape[-1]
    if n == 0:
        return np.zeros(wins.shape[:-1])
    games = wins + np.swapaxes(wins, -1, -2)
    won = wins.sum(axis=-1)
    theta = np.zeros(wins.shape[:-1]) if start is None else np.array(start, dtype=np.float64)
    theta = np.broadcast_to(theta, wins.shape[:-1]).copy()
    centre = np.full((n, n), 1.0 / n)  # removes the shift direction from the Hessian
    diag = np.arange(n)
    for _ in range(_MAX_ITER):
        p = _logistic(theta[..., :, None] - theta[..., None, :])
        grad = won - (games * p).sum(axis=-1)
        info = games * p * (1.0 - p)
        lap = -info
        lap[..., diag, diag] += info.sum(axis=-1)
        step = _damped(np.linalg.solve(lap + centre, grad[..., None])[..., 0])
        theta += step
        if np.abs(step).max(initial=0.0) < _TOL:
            break
    return theta - theta.mean(axis=-1, keepdims=True)


class PlackettLuce:
    """Plackett–Luce choice stages, aggregated by choice set.

    A finishing order ``(b1, b2, ..., bk)`` is ``k - 1`` stages: ``b1`` chosen among all
    ``k``, ``b2`` among the rest, and so on. ``sets[s]`` is one distinct choice set, its bots
    padded with ``n`` (a dummy of strength 0); the data are a weight per set (how many stages
    were chosen from it) and a weight per bot (how many stages it was chosen in).

    The log-likelihood is ``sum(w_b * theta[b]) - sum(w_s * log sum(exp(theta[set_s])))``:
    who was chosen enters only through the first sum (a per-bot total), so the expensive part
    (probabilities, gradient spread and Hessian) is computed once per distinct *set*, however
    many stages and finishing orders share it.
    """

    def __init__(self, n: int, sets: IntArray) -> None:
        self.n = n
        self.sets = sets.reshape(len(sets), -1)
        size = n + 1
        self._flat_members = self.sets.reshape(-1)
        self._pair_index = (self.sets[:, :, None] * size + self.sets[:, None, :]).reshape(-1)
        # sets x bots (multiplicities), for many fits at once as matrix products, when small
        self._incidence: FloatArray | None = None
        if len(self.sets) * size <= _INCIDENCE_LIMIT:
            incidence = np.zeros((len(self.sets), size))
            np.add.at(
                incidence,
                (np.arange(len(self.sets)).repeat(self.sets.shape[1]), self._flat_members),
                1.0,
            )
            self._incidence = incidence

    def fit(
        self,
        set_weights: FloatArray,
        chosen: FloatArray,
        prior_wins: FloatArray,
        start: FloatArray | None = None,
        curvature: FloatArray | None = None,
    ) -> FloatArray:
        """Maximise the weighted PL log-likelihood plus a Bradley–Terry term ``prior_wins``.

        ``set_weights`` are per choice set and ``chosen`` per bot, summed over the resampling
        units (:meth:`arena.stats.outcomes.Outcomes.stage_sums`, with the sets of
        :meth:`~arena.stats.outcomes.Outcomes.set_members`); ``prior_wins`` is an ``n x n``
        win matrix added as pairwise evidence (the virtual draws of the prior).

        Newton's method by default. With ``curvature`` (the :meth:`curvature` of nearby data,
        e.g. the full sample when fitting a bootstrap resample) every step reuses that fixed
        matrix instead of building the Hessian again (the chord method): each iteration is
        several times cheaper, convergence is linear instead of quadratic, and the answer is
        the same maximum (the gradient is exact; only the step's scaling is borrowed).
        """
        n = self.n
        if n == 0:
            return np.zeros(0)
        theta = np.zeros(n) if start is None else np.array(start, dtype=np.float64)
        for _ in range(_MAX_ITER):
            grad, spread, p = self._gradient(theta, set_weights, chosen, prior_wins)
            if curvature is None:
                hessian = self._hessian(theta, set_weights, prior_wins, spread, p)
                direction = np.asarray(np.linalg.solve(hessian, grad), dtype=np.float64)
            else:
                direction = np.asarray(curvature @ grad, dtype=np.float64)
            step = _damped(direction)
            theta = theta + step
            if np.abs(step).max(initial=0.0) < _TOL:
                break
        return theta - theta.mean()

    def curvature(
        self, theta: FloatArray, set_weights: FloatArray, prior_wins: FloatArray
    ) -> FloatArray:
        """The inverse (shift-regularised) Hessian at ``theta``, for :meth:`fit`'s chord steps."""
        _, spread, p = self._gradient(theta, set_weights, np.zeros(self.n), prior_wins)
        hessian = self._hessian(theta, set_weights, prior_wins, spread, p)
        return np.asarray(np.linalg.inv(hessian), dtype=np.float64)

    def fit_many(
        self,
        set_weights: FloatArray,
        chosen: FloatArray,
        prior_wins: FloatArray,
        start: FloatArray,
        curvature: FloatArray,
    ) -> FloatArray:
        """:meth:`fit` with ``curvature`` of each row of ``set_weights`` and ``chosen`` (e.g.
        bootstrap resamples), all from ``start``: row ``r`` takes the same chord steps and
        stops at the same one as ``fit(set_weights[r], chosen[r], ...)``; the steps of the rows
        still moving are computed together, as matrix products over the sets-by-bots
        incidence (or one row at a time when that matrix would be large)."""
        rows, n = len(set_weights), self.n
        if self._incidence is None or n == 0:
            fits = [
                self.fit(w, c, prior_wins, start=start, curvature=curvature)
                for w, c in zip(set_weights, chosen, strict=True)
            ]
            return np.array(fits, dtype=np.float64).reshape(rows, n)
        incidence = self._incidence
        prior_games = prior_wins + prior_wins.T
        prior_won = prior_wins.sum(axis=1)
        theta = np.tile(np.asarray(start, dtype=np.float64), (rows, 1))
        moving = np.arange(rows)
        for _ in range(_MAX_ITER):
            if not len(moving):
                break
            t = theta[moving]
            e = np.zeros((len(moving), n + 1))
            e[:, :n] = np.exp(t - np.maximum(t.max(axis=1, keepdims=True), 0.0))
            share = set_weights[moving] / (e @ incidence.T)
            spread = e[:, :n] * (share @ incidence[:, :n])
            pp = _logistic(t[:, :, None] - t[:, None, :])
            grad = chosen[moving] - spread + prior_won - (prior_games * pp).sum(axis=-1)
            step = _damped(grad @ curvature.T)
            theta[moving] = t + step
            moving = moving[np.abs(step).max(axis=1) >= _TOL]
        return theta - theta.mean(axis=1, keepdims=True)

    def _gradient(
        self, theta: FloatArray, set_weights: FloatArray, chosen: FloatArray, prior_wins: FloatArray
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """The log-likelihood's gradient, each bot's expected choices, the set probabilities."""
        n = self.n
        # strengths scaled so the strongest is 1 (no overflow); the dummy bot has strength 0
        e = np.append(np.exp(theta - theta.max(initial=0.0)), 0.0)[self.sets]
        p = e / _row_sums(e)[:, None]
        spread = sum_by(self._flat_members, (set_weights[:, None] * p).reshape(-1), n + 1)
        pp = _logistic(theta[:, None] - theta[None, :])
        prior_games = prior_wins + prior_wins.T
        grad = chosen - spread[:n] + prior_wins.sum(axis=1) - (prior_games * pp).sum(axis=1)
        return grad, spread, p

    def _hessian(
        self,
        theta: FloatArray,
        set_weights: FloatArray,
        prior_wins: FloatArray,
        spread: FloatArray,
        p: FloatArray,
    ) -> FloatArray:
        """Minus the Hessian, plus a rank-one term that removes the shift direction."""
        n, size = self.n, self.n + 1
        wp = set_weights[:, None] * p
        outer = (wp[:, :, None] * p[:, None, :]).reshape(-1)
        info = -sum_by(self._pair_index, outer, size * size).reshape(size, size)
        info[np.arange(size), np.arange(size)] += spread
        lap = info[:n, :n]
        pp = _logistic(theta[:, None] - theta[None, :])
        prior_games = prior_wins + prior_wins.T
        prior_info = prior_games * pp * (1.0 - pp)
        lap = lap - prior_info
        lap[np.arange(n), np.arange(n)] += prior_info.sum(axis=1)
        return lap + np.full((n, n), 1.0 / n)
