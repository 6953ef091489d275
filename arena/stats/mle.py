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


def sum_by(index: IntArray, weights: FloatArray, size: int) -> FloatArray:
    """``out[i] = sum(weights[index == i])`` for ``i < size`` (a typed ``np.bincount``)."""
    return np.bincount(index, weights=weights, minlength=size).astype(np.float64, copy=False)


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
    """Plackett–Luce choice stages, aggregated so repeated stages are computed once.

    A finishing order ``(b1, b2, ..., bk)`` is ``k - 1`` stages: ``b1`` chosen among all
    ``k``, ``b2`` among the rest, and so on. ``members[s, 0]`` is stage ``s``'s chosen bot,
    the other columns the rest of its choice set, padded with ``n`` (a dummy of strength 0).
    """

    def __init__(self, n: int, members: IntArray) -> None:
        self.n = n
        width = members.shape[1] if members.size else 2
        # one row per distinct (chosen, set) pair: sort the unchosen part so equal sets match
        members = members.reshape(-1, width)
        rest = np.sort(members[:, 1:], axis=1)
        keyed = np.concatenate([members[:, :1], rest], axis=1)
        self.types, self.stage_type = np.unique(keyed, axis=0, return_inverse=True)
        self.stage_type = self.stage_type.reshape(-1)

    def type_weights(self, stage_weights: FloatArray) -> FloatArray:
        """Sum stage weights per distinct stage type."""
        return sum_by(self.stage_type, stage_weights, len(self.types))

    def fit(
        self, weights: FloatArray, prior_wins: FloatArray, start: FloatArray | None = None
    ) -> FloatArray:
        """Maximise the weighted PL log-likelihood plus a Bradley–Terry term ``prior_wins``.

        ``weights`` are per stage type (see :meth:`type_weights`); ``prior_wins`` is an
        ``n x n`` win matrix added as pairwise evidence (the virtual draws of the prior).
        """
        n, members = self.n, self.types
        if n == 0:
            return np.zeros(0)
        size = n + 1
        chosen = members[:, 0]
        pair_index = (members[:, :, None] * size + members[:, None, :]).reshape(-1)
        prior_games = prior_wins + prior_wins.T
        diag = np.arange(n)
        centre = np.full((n, n), 1.0 / n)
        theta = np.zeros(n) if start is None else np.array(start, dtype=np.float64)
        for _ in range(_MAX_ITER):
            ext = np.append(theta, -np.inf)
            logits = ext[members]
            e = np.exp(logits - logits.max(axis=1, keepdims=True))
            p = e / e.sum(axis=1, keepdims=True)
            wp = weights[:, None] * p
            spread = sum_by(members.reshape(-1), wp.reshape(-1), size)
            grad = sum_by(chosen, weights, size) - spread
            outer = (wp[:, :, None] * p[:, None, :]).reshape(-1)
            info = -sum_by(pair_index, outer, size * size).reshape(size, size)
            info[np.arange(size), np.arange(size)] += spread
            lap = info[:n, :n]
            pp = _logistic(theta[:, None] - theta[None, :])
            grad = grad[:n] + prior_wins.sum(axis=1) - (prior_games * pp).sum(axis=1)
            prior_info = prior_games * pp * (1.0 - pp)
            lap = lap - prior_info
            lap[diag, diag] += prior_info.sum(axis=1)
            step = _damped(np.linalg.solve(lap + centre, grad))
            theta = theta + step
            if np.abs(step).max(initial=0.0) < _TOL:
                break
        return theta - theta.mean()
