"""The second method: an ask/tell optimiser (Optuna's TPE sampler) on the league driver.

Why Optuna: its ``ask``/``tell`` interface lets the tuner keep the loop (the driver plays
the games, as for SPSA), its TPE sampler is seeded (a run is repeatable and resumable by
replaying the journal), and it handles integer and float parameters natively. Nevergrad
has ask/tell too, but its optimisers are not reproducible from a seed as simply. It suits
small parameter spaces: TPE models the score of each value, where SPSA follows a gradient.

Each trial plays ``trial_blocks`` rotation blocks of the trial's values (seat ``NAME+``)
against the start values (``NAME-``) with the file's other bots; its score is the trial's
mean score against the start values (1 ahead, 0.5 level, 0 behind). Up to ``batch`` trials
are in flight: trial ``j`` is asked for right after trial ``j - batch`` is told, so the
sequence of asks and tells, and so every value, is the same whatever plays the games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from arena.config import LeagueConfig
from arena.errors import ConfigError, ResultsError
from arena.game.spec import GameSpec
from arena.league.feeds import BlockFeed
from arena.record import GameRecord
from arena.tune.config import TuneConfig, minus_name, plus_name
from arena.tune.feed import parameter_block
from arena.tune.journal import Journal, Trial


def require_optuna() -> Any:
    """The optuna module, or a one-line error saying how to install it."""
    try:
        import optuna
    except ImportError:
        raise ConfigError(
            'tune.method = "optuna" needs Optuna: pip install "tabletop-arena[tune]"'
        ) from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


class OptunaFeed(BlockFeed):
    """Optuna trials as blocks; each trial stored in ``journal`` as it is told."""

    def __init__(
        self,
        tune: TuneConfig,
        league: LeagueConfig,
        known: Mapping[tuple[str, ...], int],
        journal: Journal,
        on_trial: Callable[[Trial], None] | None = None,
    ) -> None:
        optuna = require_optuna()
        self.trials = max(1, tune.iterations // tune.trial_blocks)
        super().__init__(iter(()), self.trials * tune.trial_blocks * tune.seats)
        self.tune = tune
        self.league = league
        self.known = known
        self.journal = journal
        self.plus, self.minus = plus_name(tune.bot), minus_name(tune.bot)
        dist = optuna.distributions
        self.space = {
            p.name: dist.IntDistribution(int(p.min), int(p.max))
            if p.integer
            else dist.FloatDistribution(p.min, p.max)
            for p in tune.params
        }
        sampler = optuna.samplers.TPESampler(seed=league.seed % 2**32)
        self.study = optuna.create_study(direction="maximize", sampler=sampler)
        self.study.enqueue_trial(tune.starts)  # the start values are the first trial
        self._asked: dict[int, Any] = {}
        self._played: dict[int, list[list[GameRecord]]] = {}
        self._on_trial = on_trial
        self.told: list[Trial] = []
        for j in range(min(tune.batch, self.trials)):
            self._ask(j)
        for stored in journal.steps:
            if not isinstance(stored, Trial) or stored.values != self._values(stored.k):
                raise ResultsError(
                    f"{journal.path}: trial {stored.k} is not the one this tune asks for "
                    "(another Optuna version?); use --fresh"
                )
            self._tell(stored, store=False)

    @property
    def taken(self) -> int:
        return len(self.told)

    def values(self) -> dict[str, float | int]:
        """The values of the best-scoring trial told (the start values before any)."""
        if not self.told:
            return self.tune.starts
        return max(self.told, key=lambda t: t.score).values

    def _ask(self, j: int) -> None:
        if j < self.trials:
            self._asked[j] = self.study.ask(self.space)

    def _values(self, j: int) -> dict[str, float | int]:
        params = self._asked[j].params
        return {p.name: p.played(params[p.name]) for p in self.tune.params}

    def __iter__(self) -> Iterator[list[GameSpec]]:
        per = self.tune.trial_blocks
        for j in range(self.taken, self.trials):
            while j not in self._asked and not self.stop_reason:
                yield []
            if self.stop_reason:
                return
            params = {self.plus: self._values(j), self.minus: self.tune.starts}
            for b in range(per):
                yield parameter_block(self.league, self.known, j * per + b, params)

    def block_done(self, games: list[GameRecord]) -> None:
        j = games[0].block // self.tune.trial_blocks
        self._played.setdefault(j, []).append(games)
        while len(self._played.get(self.taken, ())) == self.tune.trial_blocks:
            k = self.taken
            blocks = sorted(self._played.pop(k), key=lambda g: g[0].block)
            played = [game for block in blocks for game in block]
            trial = Trial(k, self._values(k), [g.id for g in played], self._score(played))
            self._tell(trial, store=True)

    def _score(self, games: list[GameRecord]) -> float:
        total = 0.0
        for game in games:
            rank = {seat.bot: seat.rank for seat in game.seats}
            mine, theirs = rank[self.plus], rank[self.minus]
            total += 1.0 if mine < theirs else 0.0 if mine > theirs else 0.5
        return total / len(games)

    def _tell(self, trial: Trial, *, store: bool) -> None:
        self.study.tell(self._asked.pop(trial.k), trial.score)
        if store:
            self.journal.append(trial)
        self.told.append(trial)
        self._ask(trial.k + self.tune.batch)
        if store and self._on_trial is not None:
            self._on_trial(trial)
