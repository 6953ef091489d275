"""The tuner's feed of blocks: SPSA iterations handed to the league driver.

Iteration ``k`` is one rotation block of one table: θ+ and θ- (the tuned bot, as two
seats with their own parameters) with the file's other bots, on block ``k``'s deal, every
seat rotated. Up to ``batch`` iterations are in flight at once: iteration ``k`` is perturbed
around θ once the steps of iterations ``0 .. k - batch`` are taken, and steps are taken in
iteration order whatever order blocks finish in. So the run is the same for a seed whatever
``--jobs`` or workers play it, and a rerun after a kill resumes it exactly: the steps come
from ``tune.jsonl``, and the blocks of the iterations that were in flight are found in
``games.jsonl`` (stored games are not played again) or played again (games not stored).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace

from arena.config import LeagueConfig
from arena.game.spec import GameSpec, block_games, block_seed, seat_params
from arena.league.feeds import BlockFeed
from arena.league.schedule import numbered, tables
from arena.record import GameRecord
from arena.tune.config import TuneConfig, minus_name, plus_name
from arena.tune.journal import Journal, Step
from arena.tune.spsa import Perturbation, Schedule, block_result, perturb, step

QUIET_BLOCKS = 8
"""After this many blocks of θ+ against θ- with every game the same move for move, the
tuned bot is said to ignore its parameters (a two-seat tune)."""


def parameter_block(
    config: LeagueConfig,
    known: Mapping[tuple[str, ...], int],
    block: int,
    params: Mapping[str, Mapping[str, float | int]],
) -> list[GameSpec]:
    """Block ``block`` of ``config``'s one table, each bot of ``params`` given its values."""
    [(index, table)] = numbered(tables(config), known)
    seed = block_seed(config.seed, len(table), block)
    games = block_games(index, table, block, seed, config.bot_key)  # bots seeded from its secret
    given = tuple((name, seat_params(values)) for name, values in sorted(params.items()))
    return [replace(spec, params=given) for spec in games]


class SpsaFeed(BlockFeed):
    """SPSA iterations as blocks; each step stored in ``journal`` as it is taken."""

    def __init__(
        self,
        tune: TuneConfig,
        league: LeagueConfig,
        known: Mapping[tuple[str, ...], int],
        journal: Journal,
        warn: Callable[[str], None] | None = None,
        on_step: Callable[[Step], None] | None = None,
    ) -> None:
        super().__init__(iter(()), tune.iterations * tune.seats)
        self.tune = tune
        self.league = league
        self.known = known
        self.journal = journal
        self.schedule = Schedule(tune.iterations)
        self.plus, self.minus = plus_name(tune.bot), minus_name(tune.bot)
        self.thetas = [tuple(p.start for p in tune.params)]
        self.thetas += [tuple(s.after) for s in journal.steps if isinstance(s, Step)]
        self._perturbed: dict[int, Perturbation] = {}
        self._finished: dict[int, list[GameRecord]] = {}
        self._warn = warn
        self._on_step = on_step
        self._same_play = 0  # blocks whose games were all the same move for move

    @property
    def taken(self) -> int:
        """Steps taken (stored)."""
        return len(self.thetas) - 1

    def values(self) -> dict[str, float | int]:
        """θ as the bots get it (clipped, integers rounded) after the steps taken."""
        return {p.name: p.played(t) for p, t in zip(self.tune.params, self.thetas[-1], strict=True)}

    def base(self, k: int) -> int:
        """How many steps iteration ``k`` waits for: it is perturbed around θ after them."""
        return max(0, k - self.tune.batch + 1)

    def __iter__(self) -> Iterator[list[GameSpec]]:
        k = self.taken
        while k < self.tune.iterations and not self.stop_reason:
            if self.taken < self.base(k):
                yield []  # none ready: it waits for an earlier step
                continue
            theta = self.thetas[self.base(k)]
            shift = perturb(self.tune.params, self.schedule, self.league.seed, k, theta)
            self._perturbed[k] = shift
            params = {self.plus: shift.plus, self.minus: shift.minus}
            yield parameter_block(self.league, self.known, k, params)
            k += 1

    def block_done(self, games: list[GameRecord]) -> None:
        self._finished[games[0].block] = games
        while self.taken in self._finished:
            self._take(self.taken, self._finished.pop(self.taken))

    def _take(self, k: int, games: list[GameRecord]) -> None:
        shift = self._perturbed.pop(k)
        ranks = [{seat.bot: seat.rank for seat in game.seats} for game in games]
        result = block_result(ranks, self.plus, self.minus)
        theta = self.thetas[-1]
        after = step(self.tune.params, self.schedule, shift, theta, result)
        entry = Step(
            k=k,
            theta=list(shift.theta),
            flip=list(shift.flip),
            c=list(shift.c),
            a=[self.schedule.a(p, k) for p in self.tune.params],
            plus=shift.plus,
            minus=shift.minus,
            games=[game.id for game in games],
            result=result,
            after=list(after),
        )
        self.journal.append(entry)
        self.thetas.append(after)
        self._check_quiet(games)
        if self._on_step is not None:
            self._on_step(entry)

    def _check_quiet(self, games: list[GameRecord]) -> None:
        """Warn once when θ+ and θ- have played alike move for move in the first blocks."""
        if len(games) != 2 or self._same_play < 0:
            return
        if games[0].moves != games[1].moves:
            self._same_play = -1  # its play changes: no warning, ever
            return
        self._same_play += 1
        if self._same_play == QUIET_BLOCKS and self._warn is not None:
            self._warn(
                f"warning: {self.tune.bot} played the same moves with θ+ and θ- in each of "
                f"the first {QUIET_BLOCKS} blocks: does it read its parameters (the start "
                "message's params, or {name} placeholders in its cmd)?"
            )
