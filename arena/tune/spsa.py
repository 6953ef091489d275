"""Simultaneous perturbation stochastic approximation (Spall), as Fishtest runs it.

Each iteration ``k`` perturbs every parameter at once by ``±c_k`` (a random sign per
parameter), plays θ+ against θ- and steps every parameter along the result::

    θ_i  <-  θ_i + (a_k / c_k_i) * result * flip_i

``result`` is θ+'s score minus θ-'s over one rotation block (each game: +1 when θ+ finishes
ahead of θ-, -1 behind, 0 level). The schedules are Spall's, with Fishtest's constants
(``alpha = 0.602``, ``gamma = 0.101``, ``A = 0.1 N``) and its per-parameter end values:

- ``c_end``: the perturbation ``c_k`` at the last iteration, in the parameter's own units
  (``c_k = c_end * (N / (k + 1)) ** gamma``: larger early, ``c_end`` at the end). Pick a
  change that makes a small but real difference in play.
- ``r_end``: the learning rate at the last iteration, ``a_end = r_end * c_end**2``
  (``a_k = a_end * ((A + N) / (A + k + 1)) ** alpha``), so one iteration's step at the end
  is ``r_end * c_end * result`` in the parameter's units (``a_k / c_k * result``), and about
  ``(1 + 1/A_FRACTION) ** alpha`` (4.2) times that at the start.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

ALPHA = 0.602
GAMMA = 0.101
A_FRACTION = 0.1  # A = 0.1 * iterations (Fishtest)


@dataclass(frozen=True)
class Param:
    """One tuned parameter: its start, bounds, kind and SPSA end values."""

    name: str
    start: float
    min: float
    max: float
    integer: bool
    c_end: float
    r_end: float

    def clip(self, value: float) -> float:
        """``value`` held inside the bounds."""
        return min(self.max, max(self.min, value))

    def played(self, value: float) -> float | int:
        """The value a bot gets: clipped, and rounded for an integer parameter."""
        clipped = self.clip(value)
        return round(clipped) if self.integer else clipped


@dataclass(frozen=True)
class Schedule:
    """The gain sequences of an SPSA run of ``iterations`` iterations."""

    iterations: int

    def c(self, param: Param, k: int) -> float:
        """The perturbation of ``param`` at iteration ``k`` (0-based)."""
        return param.c_end * (self.iterations / (k + 1)) ** GAMMA

    def a(self, param: Param, k: int) -> float:
        """The step gain ``a_k`` of ``param`` at iteration ``k``."""
        big_a = A_FRACTION * self.iterations
        a_end = param.r_end * param.c_end**2
        return a_end * ((big_a + self.iterations) / (big_a + k + 1)) ** ALPHA


def flips(seed: int, k: int, count: int) -> list[int]:
    """The signs of iteration ``k``'s perturbation (one per parameter), from the seed alone."""
    rng = random.Random(f"spsa-flip/{seed}/{k}")
    return [rng.choice((-1, 1)) for _ in range(count)]


@dataclass(frozen=True)
class Perturbation:
    """θ+ and θ- of one iteration, as the bots get them, and what made them."""

    k: int
    theta: tuple[float, ...]
    flip: tuple[int, ...]
    c: tuple[float, ...]
    plus: dict[str, float | int]
    minus: dict[str, float | int]


def perturb(
    params: Sequence[Param], schedule: Schedule, seed: int, k: int, theta: Sequence[float]
) -> Perturbation:
    """Iteration ``k``'s two versions of the bot around ``theta``."""
    flip = flips(seed, k, len(params))
    c = [schedule.c(p, k) for p in params]
    plus = {
        p.name: p.played(t + ci * f) for p, t, ci, f in zip(params, theta, c, flip, strict=True)
    }
    minus = {
        p.name: p.played(t - ci * f) for p, t, ci, f in zip(params, theta, c, flip, strict=True)
    }
    return Perturbation(k, tuple(theta), tuple(flip), tuple(c), plus, minus)


def step(
    params: Sequence[Param],
    schedule: Schedule,
    perturbation: Perturbation,
    theta: Sequence[float],
    result: float,
) -> tuple[float, ...]:
    """``theta`` moved along iteration ``perturbation.k``'s ``result`` (θ+ minus θ-),
    clipped to the bounds (θ is kept unrounded; only the bots get integers)."""
    k = perturbation.k
    moved = []
    for p, t, ci, f in zip(params, theta, perturbation.c, perturbation.flip, strict=True):
        moved.append(p.clip(t + schedule.a(p, k) / ci * result * f))
    return tuple(moved)


def block_result(ranks: Sequence[Mapping[str, int]], plus: str, minus: str) -> float:
    """θ+'s score minus θ-'s over a block, one game at a time: +1 when ``plus`` finishes
    ahead of ``minus`` (a lower rank), -1 behind, 0 level."""
    total = 0.0
    for game in ranks:
        total += math.copysign(1, game[minus] - game[plus]) if game[minus] != game[plus] else 0
    return total
