"""Sequential probability ratio test for "is the candidate better than the opponent".

The unit is a rotation block, not a game: the block score is the candidate's mean pairwise
score against the opponent over the block's games (1 ahead, 0.5 tied, 0 behind; filler bots
at bigger tables are ignored). For two-seat blocks of two games that is fastchess's
pentanomial pair score; blocks of any size and seat count generalise it.

The log-likelihood ratio is the generalised SPRT (Van den Bergh's normal approximation, as
in fishtest's ``LLR_logistic``): with ``N`` blocks of mean ``m`` and variance ``v`` and
``s(elo) = 1 / (1 + 10 ** (-elo / 400))``::

    LLR = N * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)

H1 is accepted once ``LLR >= log((1 - beta) / alpha)``, H0 once
``LLR <= log(beta / (1 - alpha))``. ``docs/ratings.md`` has the derivation.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from arena.record import GameRecord
from arena.words import counted

_PRIOR_BLOCKS = 2.0
_PRIOR_VARIANCE = 0.25
"""The variance is shrunk towards 0.25 (the largest a score in [0, 1] can have) with the
weight of two blocks: a handful of similar blocks must not look certain (their sample
variance is nearly 0), while after a few dozen blocks the data dominate."""
WIDE_BOUNDS = 50.0
"""Above this elo1 - elo0 (Elo) the normal approximation is poor: ``arena run`` warns."""


def expected_score(elo: float) -> float:
    """Expected pairwise score of a bot ``elo`` points above its opponent.

    The power is only ever taken of a negative exponent, so no difference overflows: one of
    a million Elo or more reads as 0 or 1.
    """
    if elo >= 0:
        return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))
    odds = 10.0 ** (elo / 400.0)
    return odds / (1.0 + odds)


def _score_to_elo(score: float) -> float:
    score = min(max(score, 1e-3), 1.0 - 1e-3)
    return -400.0 * math.log10(1.0 / score - 1.0)


class Sprt:
    """Feed it rotation blocks with :meth:`add_block`; stop when :attr:`decision` is set."""

    def __init__(
        self,
        elo0: float,
        elo1: float,
        alpha: float,
        beta: float,
        candidate: str,
        opponent: str,
    ) -> None:
        if not elo0 < elo1:
            raise ValueError(f"SPRT needs elo0 < elo1, got {elo0} and {elo1}")
        if not (0.0 < alpha < 0.5 and 0.0 < beta < 0.5):
            raise ValueError(f"SPRT needs 0 < alpha, beta < 0.5, got {alpha} and {beta}")
        if candidate == opponent:
            raise ValueError("SPRT needs two different bots")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.candidate, self.opponent = candidate, opponent
        self.blocks = 0
        self.games = 0
        self._sum = 0.0
        self._squares = 0.0

    def add_block(self, records: Iterable[GameRecord]) -> None:
        """Add one rotation block (games sharing table and block).

        Games where the candidate and the opponent did not both sit are ignored; a block
        without any such game adds nothing.
        """
        scores: list[float] = []
        for rec in records:
            seating, ranks = rec.seating, rec.ranks
            mine = [ranks[i] for i, bot in enumerate(seating) if bot == self.candidate]
            theirs = [ranks[i] for i, bot in enumerate(seating) if bot == self.opponent]
            pairs = [1.0 if r < s else 0.5 if r == s else 0.0 for r in mine for s in theirs]
            if pairs:
                scores.append(sum(pairs) / len(pairs))
        if scores:
            self.add_score(sum(scores) / len(scores), games=len(scores))

    def add_score(self, score: float, games: int = 1) -> None:
        """Add one block by its score (0-1) and the number of games it counted."""
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a block score lies in [0, 1], got {score}")
        self.blocks += 1
        self.games += games
        self._sum += score
        self._squares += score * score

    def _moments(self) -> tuple[float, float]:
        """Mean and (shrunk) variance of the block scores."""
        n = max(self.blocks, 1)
        mean = self._sum / n
        spread = max(self._squares - n * mean * mean, 0.0)
        return mean, (spread + _PRIOR_BLOCKS * _PRIOR_VARIANCE) / (self.blocks + _PRIOR_BLOCKS)

    @property
    def llr(self) -> float:
        """Log-likelihood ratio of H1 (elo1) against H0 (elo0) so far."""
        if self.blocks == 0:
            return 0.0
        mean, var = self._moments()
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return self.blocks * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 at or below lower, H1 at or above upper."""
        return (
            math.log(self.beta / (1.0 - self.alpha)),
            math.log((1.0 - self.beta) / self.alpha),
        )

    @property
    def decision(self) -> str | None:
        """``"H1"`` (the games favour elo1 over elo0), ``"H0"`` (elo0 over elo1), or None."""
        lower, upper = self.bounds
        llr = self.llr
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None

    def elo_estimate(self) -> tuple[float, float, float]:
        """Elo difference implied by the mean block score, and the two ends of its 95%
        interval: the score interval mapped through the logistic, scores clamped to
        [0.001, 0.999] so a perfect record reads as about 1200 Elo, not infinity. The ends need
        not be symmetric around the estimate (a perfect record sits at the upper end)."""
        mean, var = self._moments()
        half = 1.96 * math.sqrt(var / max(self.blocks, 1))
        return _score_to_elo(mean), _score_to_elo(mean - half), _score_to_elo(mean + half)

    def verdict(self) -> str | None:
        """The decision in words, or None before it: which of the two tested differences the
        games favour. Not "at least elo1 better": the test weighs elo1 against elo0 only."""
        if self.decision is None:
            return None
        favoured, other = self.elo1, self.elo0
        if self.decision == "H0":
            favoured, other = other, favoured
        return (
            f"{self.decision} accepted: the games favour {favoured:+g} over {other:+g} Elo for "
            f"{self.candidate} against {self.opponent} "
            f"(alpha={self.alpha:g}, beta={self.beta:g})"
        )

    def caution(self) -> str | None:
        """A warning when elo1 - elo0 is too wide for the approximation, else None."""
        gap = self.elo1 - self.elo0
        if gap <= WIDE_BOUNDS:
            return None
        middle = _score_to_elo((expected_score(self.elo0) + expected_score(self.elo1)) / 2)
        return (
            f"SPRT elo1 - elo0 = {gap:g} Elo: the test's approximation assumes a small gap "
            f"(up to about {WIDE_BOUNDS:g} Elo); with this one, accepting H1 says little more "
            f"than that the games score above the halfway score (about {middle:+.0f} Elo), "
            f"not that the candidate is near {self.elo1:+g}: narrow the bounds"
        )

    def status_line(self) -> str:
        """One progress line: games, LLR within its bounds, Elo estimate and its interval."""
        lower, upper = self.bounds
        elo, low, high = self.elo_estimate()
        return (
            f"SPRT {self.candidate} vs {self.opponent}: {counted(self.games, 'game')}, "
            f"LLR {self.llr:+z.2f} [{lower:+.2f}, {upper:+.2f}], "
            f"Elo {elo:+z.0f} [{low:+z.0f}, {high:+z.0f}]"
        )


def out_of_budget(max_blocks: int) -> str:
    """What an SPRT league that used up its budget undecided says (terminal and report)."""
    blocks = counted(max_blocks, "block")
    return (
        f"SPRT budget of {blocks} used up without a decision; "
        "raise max_blocks and run again to continue"
    )
