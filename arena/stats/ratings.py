"""Standings from stored games: Elo with bootstrap intervals and the statistics beside it.

``compute_standings(records)`` turns ``games.jsonl`` records into a :class:`Standings`:

* every game with ``k >= 2`` seats is a *contest* among its bots, ordered by ``ranks``;
  solo games (``players == 1``) on the same engine, options and seed form one duplicate
  contest among the bots that played that seed, ordered by score (``detail.score_order``);
* Elo is the maximum-likelihood Bradley–Terry fit to the pairwise outcomes of every contest
  (ties are draws, each pair weighted ``1 / (k - 1)``) or, with ``model="pl"``, the
  Plackett–Luce fit to whole finishing orders; ``method="online"`` replays the contests in
  order with a table-size-scaled K instead;
* a weak prior keeps every rating finite: ``prior`` virtual draws per bot, spread evenly
  over the other bots (BayesElo's idea);
* 95% intervals and the likelihood-of-superiority matrix come from a bootstrap that resamples
  whole units (rotation blocks; seeds for solo games) with a fixed seed.

``docs/ratings.md`` explains every number. The SPRT lives in :mod:`arena.stats.sprt`.
"""

from __future__ import annotations

import itertools
import json
import math
from array import array
from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import chain, compress, repeat
from operator import is_not, itemgetter
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from arena.collector import collector_paused
from arena.errors import VERDICTS, ConfigError
from arena.record import GameRecord, GameRow
from arena.stats.bootstrap import Resampled, fitted_resamples, percentile_interval, superiority
from arena.stats.mle import ELO_PER_NAT, FloatArray, IntArray, PlackettLuce, fit_bt, sum_by
from arena.stats.outcomes import (
    BOT_BITS,
    MEETINGS,
    POINTS_LOW,
    WON_HIGH,
    WON_LOW,
    Outcomes,
    pair_matrix,
)
from arena.stats.sprt import Sprt

__all__ = [
    "BASE_RATING",
    "CONFIDENCE",
    "DEFAULT_PRIOR",
    "METHODS",
    "MODELS",
    "ONLINE_K",
    "BotStanding",
    "GameColumns",
    "HeadToHead",
    "SeatStat",
    "Sprt",
    "Standings",
    "compute_standings",
]

BASE_RATING = 1500.0
"""Pool mean, and the default rating of an ``--anchor BOT`` given without ``=RATING``."""
DEFAULT_PRIOR = 2.0
"""Virtual draws per bot (spread over the other bots) that keep all-win/all-loss finite."""
ONLINE_K = 32.0
"""K of the online method for a two-seat game; a k-seat game uses ``K / (k - 1)`` per pair."""
CONFIDENCE = 0.95
MODELS = ("bt", "pl")
METHODS = ("ml", "online")


@dataclass(frozen=True)
class BotStanding:
    """One line of the standings. Percentages are 0-100; ``elo_low``/``elo_high`` are None
    when there were no bootstrap resamples (``bootstrap=0`` or ``method="online"``)."""

    rank: int
    bot: str
    elo: float
    elo_low: float | None
    elo_high: float | None
    games: int
    score_pct: float
    wins: int
    win_pct: float
    mean_place: float
    place_se: float
    verdicts: dict[str, int]
    forfeits: int
    decisions: int
    think_ms: float
    """Mean think time per decision, milliseconds."""

    @property
    def plus_minus(self) -> float | None:
        """Half the width of the interval (it need not be symmetric around ``elo``)."""
        if self.elo_low is None or self.elo_high is None:
            return None
        return (self.elo_high - self.elo_low) / 2.0

    @property
    def faults(self) -> int:
        return sum(self.verdicts.values())


@dataclass(frozen=True)
class HeadToHead:
    """How ``bot`` did against one opponent in the games where both sat."""

    score_pct: float
    games: int


@dataclass(frozen=True)
class SeatStat:
    """Results by seat (0 = first player, as in the protocol) for one engine and table size."""

    engine: str
    players: int
    seat: int
    games: int
    mean_score: float
    win_pct: float


@dataclass(frozen=True)
class Standings:
    rows: tuple[BotStanding, ...]
    crosstable: dict[str, dict[str, HeadToHead]]
    seats: tuple[SeatStat, ...]
    los: dict[str, dict[str, float]]
    """``los[a][b]``: share of bootstrap resamples rating ``a`` above ``b``; empty without
    resamples."""
    model: str
    method: str
    anchor: str | None
    """The anchored bot, or None for the pool mean."""
    anchor_rating: float
    bootstrap: int
    seed: int
    prior: float
    """Virtual draws per bot in the fit (0 for the online method, which has none)."""
    games: int
    units: int
    """Resampling units: rotation blocks, plus one per seed of solo games."""
    confidence: float = CONFIDENCE
    notes: tuple[str, ...] = field(default=())
    disqualified: tuple[str, ...] = field(default=())
    """Bots with a seat forfeited as ``disqualified`` (a league stopped starting them)."""

    @property
    def solo(self) -> bool:
        """Every game rated is a solo game: the bots never shared a table, they are compared
        by their scores on the same seeds (``seats`` counts tables of two or more)."""
        return self.games > 0 and not self.seats

    def to_dict(self) -> dict[str, Any]:
        """A TOML-ready dict (no None, no NaN): ``tomli_w.dumps(standings.to_dict())``."""
        out: dict[str, Any] = {"model": self.model, "method": self.method}
        if self.anchor is not None:  # absent: anchored at the pool mean
            out["anchor"] = self.anchor
        out.update(
            anchor_rating=self.anchor_rating,
            bootstrap=self.bootstrap,
            seed=self.seed,
            prior=self.prior,
            confidence=self.confidence,
            games=self.games,
            units=self.units,
        )
        if self.notes:
            out["notes"] = list(self.notes)
        out["bots"] = [_row_dict(row) for row in self.rows]
        out["crosstable"] = {
            bot: {opp: {"score_pct": h.score_pct, "games": h.games} for opp, h in cells.items()}
            for bot, cells in self.crosstable.items()
        }
        # percent, like every other share in the standings (score_pct, win_pct) and the table
        out["los"] = {
            bot: {opp: round(100 * p, 2) for opp, p in row.items()} for bot, row in self.los.items()
        }
        out["seats"] = [asdict(seat) for seat in self.seats]
        return out


def _row_dict(row: BotStanding) -> dict[str, Any]:
    out: dict[str, Any] = {"rank": row.rank, "bot": row.bot, "elo": row.elo}
    if row.elo_low is not None and row.elo_high is not None:
        out["elo_low"] = row.elo_low
        out["elo_high"] = row.elo_high
    out.update(
        games=row.games,
        score_pct=row.score_pct,
        wins=row.wins,
        win_pct=row.win_pct,
        mean_place=row.mean_place,
        place_se=row.place_se,
        verdicts=dict(row.verdicts),
        forfeits=row.forfeits,
        decisions=row.decisions,
        think_ms=row.think_ms,
    )
    return out


# --------------------------------------------------------------------------- reading records


class _Contests:
    """Every contest with ``k`` entrants in game order, for the online method (which replays
    them one by one), kept compact: bot indices and ranks as flat typed arrays of ``k``
    entries per contest, and each contest's position in game order."""

    def __init__(self, k: int) -> None:
        self.k = k
        self._bots = array("i")
        self._ranks = array("i")
        self._order = array("q")

    def extend(self, bots: list[int], ranks: list[int], order: Iterable[int]) -> None:
        """Contests in game order: ``k`` bots and ranks each, one position each."""
        self._bots.extend(bots)
        self._ranks.extend(ranks)
        self._order.extend(order)

    @property
    def bots(self) -> IntArray:
        """``(m, k)`` bot indices."""
        return np.frombuffer(self._bots, dtype=np.int32).astype(np.int64).reshape(-1, self.k)

    @property
    def ranks(self) -> IntArray:
        """``(m, k)`` ranks (1 = best)."""
        return np.frombuffer(self._ranks, dtype=np.int32).astype(np.int64).reshape(-1, self.k)

    @property
    def order(self) -> IntArray:
        return np.frombuffer(self._order, dtype=np.int64).copy()


@dataclass
class _Parsed:
    names: list[str]
    played: FloatArray
    """Per bot: games (seats taken), forfeits, decisions, think time (ms) — rows in this order."""
    verdicts: list[dict[str, int]]
    outcomes: Outcomes
    contests: dict[int, _Contests] | None
    """Every contest, for the online method only (None otherwise)."""
    renumber: IntArray
    """Unit numbers as read -> resampling unit numbers (in a fixed order)."""
    seats: tuple[SeatStat, ...]
    units: int
    games: int
    disqualified: list[str]
    """Bots a league stopped starting (a seat forfeited as ``disqualified``)."""


def _solo_ranks(entries: list[tuple[int, float, bool]], low: bool) -> list[int]:
    """Competition ranks (1 = best, ties share) of duplicate solo results; forfeits last."""
    values = [-math.inf if forfeit else (-score if low else score) for _, score, forfeit in entries]
    return [1 + sum(other > v for other in values) for v in values]


def _parse(
    batches: Iterable[Sequence[GameRow] | GameColumns], *, stages: bool, in_order: bool
) -> _Parsed:
    """One pass over the games, a batch of rows at a time (a stream is fine): per-bot and
    per-table sums, and the contests' :class:`~arena.stats.outcomes.Outcomes` (with the
    Plackett–Luce ``stages`` if asked); no game is kept, and no contest unless ``in_order``
    (the online method replays them)."""
    tally = _Tally(stages=stages, in_order=in_order)
    for rows in batches:
        tally.add(rows)
    return tally.parsed()


@dataclass(frozen=True)
class GameColumns:
    """What the standings take from a batch of games, as plain columns (seat after seat, game
    after game): made from the rows wherever they were read (a forked copy reading half of a
    large file sends these back), and taken into the sums in game order.
    """

    names: list[str]
    forfeited: FloatArray
    """Per seat: 1.0 if the seat forfeited (any reason), else 0.0."""
    disqualified: list[str]
    """The bots of the seats forfeited as ``disqualified``."""
    decisions: FloatArray
    think_ms: FloatArray
    ranks: IntArray
    scores: FloatArray
    verdicts: list[tuple[int, dict[str, int]]]
    """``(seat, verdicts)`` of the seats with any, numbered in the batch."""
    sizes: list[int]
    """Seats per game."""
    units: list[tuple[str, int, int]]
    """Per game: engine, table, block."""
    solo: list[tuple[int, GameRow]]
    """The solo games, with their place in the batch."""

    @classmethod
    def of(cls, rows: Sequence[GameRow]) -> GameColumns:
        seating = list(map(_SEATING, rows))
        names = list(chain.from_iterable(seating))
        sizes = list(map(len, seating))
        forfeits = list(_seat_column(rows, "forfeit"))
        verdicts = list(_seat_column(rows, "verdicts"))
        return cls(
            names=names,
            forfeited=np.array(list(map(is_not, forfeits, repeat(None))), dtype=np.float64),
            disqualified=[
                name for name, why in zip(names, forfeits, strict=True) if why == "disqualified"
            ]
            if "disqualified" in forfeits
            else [],
            decisions=np.array(list(_seat_column(rows, "decisions")), dtype=np.float64),
            think_ms=np.array(list(_seat_column(rows, "think_ms")), dtype=np.float64),
            ranks=np.array(list(_seat_column(rows, "ranks")), dtype=np.int64),
            scores=np.array(list(_seat_column(rows, "scores")), dtype=np.float64),
            verdicts=list(compress(enumerate(verdicts), verdicts)),
            sizes=sizes,
            units=list(zip(map(_ENGINE, rows), map(_TABLE, rows), map(_BLOCK, rows), strict=True)),
            solo=[(i, rows[i]) for i in compress(range(len(rows)), map((1).__eq__, sizes))]
            if 1 in sizes
            else [],
        )


class _Tally:
    """:func:`_parse`'s state. Each batch of rows is taken apart into plain columns at once
    (bots, ranks, scores... seat after seat, game after game), and the columns of a few
    thousand games are summed together with numpy: the numpy calls are paid per thousands of
    games, not per batch, and no row outlives its batch.

    The per-bot and per-table sums are the running sums game after game: each ``np.bincount``
    starts from the totals so far and adds the new values in game order, so they are the
    same numbers however the games were cut into batches.
    """

    def __init__(self, *, stages: bool, in_order: bool) -> None:
        self.index: dict[str, int] = {}
        """Bot name -> number, in order of first appearance."""
        self.verdicts: list[dict[str, int]] = []
        self.played = np.zeros((4, 0))  # per bot: games, forfeits, decisions, think_ms
        self.outcomes = Outcomes(stages=stages)
        self.contests: dict[int, _Contests] | None = {} if in_order else None
        self.tables: dict[tuple[str, int], _TableSums] = {}
        self.units: dict[Hashable, int] = {}
        self.solo: dict[Hashable, tuple[int, bool, list[tuple[int, float, bool]]]] = {}
        self.disqualified: set[str] = set()
        self.games = 0
        self._engines: dict[str, int] = {}
        self._columns: dict[str, list[Any]] = {name: [] for name in _COLUMNS}
        self._first = 0  # the number of the first game of the columns

    def add(self, batch: Sequence[GameRow] | GameColumns) -> None:
        """Take a batch of games into the columns (summed when they hold enough games)."""
        games = batch if isinstance(batch, GameColumns) else GameColumns.of(batch)
        columns = self._columns
        names = games.names
        index = self.index
        for name in dict.fromkeys(names):  # bots numbered in order of first appearance
            if name not in index:
                index[name] = len(index)
                self.verdicts.append(dict.fromkeys(VERDICTS, 0))
        bots = list(map(index.__getitem__, names))
        columns["bots"] += bots
        for key in _SEAT_ARRAYS:
            columns[key].append(getattr(games, key))
        for seat, seat_verdicts in games.verdicts:
            counts = self.verdicts[bots[seat]]
            for verdict, count in seat_verdicts.items():
                counts[verdict] = counts.get(verdict, 0) + count
        self.disqualified.update(games.disqualified)
        units: list[Hashable] = list(games.units)
        for i, row in games.solo:  # a solo game is a seed's entry: a contest at the end
            self._add_solo(self.games + i, row)
            units[i] = None
        unit_of = self.units
        for unit in dict.fromkeys(units):
            if unit not in unit_of and unit is not None:
                unit_of[unit] = len(unit_of)
        columns["units"] += map(unit_of.get, units, repeat(-1))
        engines = [engine for engine, _, _ in games.units]
        engine_of = self._engines
        for engine in dict.fromkeys(engines):
            engine_of.setdefault(engine, len(engine_of))
        columns["engines"] += map(engine_of.__getitem__, engines)
        columns["sizes"] += games.sizes
        self.games += len(games.sizes)
        if self.games - self._first >= ROWS_PER_BATCH:
            self._sum()

    def _add_solo(self, order: int, row: GameRow) -> None:
        options = json.dumps(row["options"], sort_keys=True)
        key: Hashable = (row["engine"], options, row["seed"])
        low = row["detail"].get("score_order") == "low"
        entry = (
            self.index[row["seating"][0]],
            float(row["scores"][0]),
            row["forfeit"][0] is not None,
        )
        self.solo.setdefault(key, (order, low, []))[2].append(entry)

    def _sum(self) -> None:
        """Sum the columns into the totals and start them again."""
        columns = self._columns
        if self.games == self._first:
            return
        bots = np.array(columns["bots"], dtype=np.int64)
        forfeited, decisions, think_ms, ranks, scores = (
            np.concatenate(columns[key]) for key in _SEAT_ARRAYS
        )
        seat_values = (np.ones(len(bots)), forfeited, decisions, think_ms)
        size = len(self.index)
        self.played = np.stack(
            [
                _running_sums(total, bots, values, size)
                for total, values in zip(self.played, seat_values, strict=True)
            ]
        )
        sizes = np.array(columns["sizes"], dtype=np.int64)
        units = np.array(columns["units"], dtype=np.int64)
        engines = np.array(columns["engines"], dtype=np.int64)
        names = list(self._engines)
        distinct = sorted(set(columns["sizes"]))
        for k in distinct:
            if k < 2:
                continue
            if len(distinct) == 1:
                games = np.arange(len(sizes))
                group_bots, group_ranks, group_scores = bots, ranks, scores
            else:
                chosen = sizes == k
                games = np.flatnonzero(chosen)
                seats = np.repeat(chosen, sizes)
                group_bots, group_ranks, group_scores = bots[seats], ranks[seats], scores[seats]
            group_bots, group_ranks = group_bots.reshape(-1, k), group_ranks.reshape(-1, k)
            self.outcomes.add(group_bots, group_ranks, units[games])
            if self.contests is not None:
                self.contests.setdefault(k, _Contests(k)).extend(
                    group_bots.reshape(-1).tolist(),
                    group_ranks.reshape(-1).tolist(),
                    (self._first + games).tolist(),
                )
            group_engines = engines[games]
            for engine in dict.fromkeys(group_engines.tolist()):
                table = self.tables.setdefault((names[engine], k), _TableSums(k))
                if len(names) == 1:
                    table.add(group_scores, group_ranks.reshape(-1))
                else:
                    mine = np.repeat(group_engines == engine, k)
                    table.add(group_scores[mine], group_ranks.reshape(-1)[mine])
        self._columns = {name: [] for name in _COLUMNS}
        self._first = self.games

    def parsed(self) -> _Parsed:
        """Everything read, summed: the contests of the solo seeds added, units numbered."""
        self._sum()
        unit_of = self.units
        # each solo seed is one contest among the bots that played it, and one unit
        seeds: dict[int, tuple[list[int], list[int], list[int]]] = defaultdict(lambda: ([], [], []))
        for key, (order, low, entries) in self.solo.items():
            k = len(entries)
            seed_bots, seed_ranks, seed_units = seeds[k]
            seed_bots.extend(b for b, _, _ in entries)
            seed_ranks.extend(_solo_ranks(entries, low))
            seed_units.append(unit_of.setdefault(("solo", key), len(unit_of)))
            if self.contests is not None:
                self.contests.setdefault(k, _Contests(k)).extend(
                    seed_bots[-k:], seed_ranks[-k:], [order]
                )
        for k, (seed_bots, seed_ranks, seed_units) in seeds.items():
            self.outcomes.add(
                np.array(seed_bots, dtype=np.int64).reshape(-1, k),
                np.array(seed_ranks, dtype=np.int64).reshape(-1, k),
                np.array(seed_units, dtype=np.int64),
            )
        seats = tuple(
            stat for (engine, k), sums in sorted(self.tables.items()) for stat in sums.stats(engine)
        )
        # number the resampling units in a fixed order, not in the order games were stored:
        # the bootstrap then draws the same resamples however a run (jobs, workers, resumes)
        # wrote them
        renumber = np.empty(len(unit_of), dtype=np.int64)
        for number, key in enumerate(sorted(unit_of, key=repr)):
            renumber[unit_of[key]] = number
        return _Parsed(
            list(self.index),
            self.played,
            self.verdicts,
            self.outcomes,
            self.contests,
            renumber,
            seats,
            len(unit_of),
            self.games,
            sorted(self.disqualified),
        )


_SEAT_ARRAYS = ("forfeited", "decisions", "think_ms", "ranks", "scores")
"""The columns of :class:`GameColumns` that are arrays, one value a seat."""
_COLUMNS = ("bots", *_SEAT_ARRAYS, "units", "engines", "sizes")
"""The columns :class:`_Tally` keeps between sums: per seat (a list, then a list of arrays),
then per game."""
_SEATING, _ENGINE, _TABLE, _BLOCK = map(itemgetter, ("seating", "engine", "table", "block"))


def _seat_column(rows: Sequence[GameRow], key: str) -> Iterator[Any]:
    """A per-seat key of every row, seat after seat, game after game."""
    return chain.from_iterable(map(itemgetter(key), rows))


def _running_sums(total: FloatArray, index: IntArray, values: FloatArray, size: int) -> FloatArray:
    """``total`` (zero-padded to ``size``) plus ``values`` summed by ``index``, added one
    after another in order, exactly as a loop of ``+=`` would."""
    start = np.concatenate([total, np.zeros(size - len(total))])
    keys = np.concatenate([np.arange(size), index])
    weights = np.concatenate([start, values])
    return sum_by(keys, weights, size)


class _TableSums:
    """Running sums by seat for one engine and table size: games, scores, first places."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.games = 0
        self.scores = np.zeros(k)
        self.firsts = np.zeros(k, dtype=np.int64)

    def add(self, scores: FloatArray, ranks: IntArray) -> None:
        """Games' scores and ranks, seat after seat, game after game."""
        games = len(scores) // self.k
        seats = np.tile(np.arange(self.k), games)
        self.games += games
        self.scores = _running_sums(self.scores, seats, scores, self.k)
        self.firsts += np.bincount(seats, ranks == 1, self.k).astype(np.int64)

    def stats(self, engine: str) -> list[SeatStat]:
        k, games = self.k, self.games
        return [
            SeatStat(engine, k, seat, games, float(self.scores[seat]) / games, win_pct)
            for seat, win_pct in enumerate(100.0 * int(first) / games for first in self.firsts)
        ]


# --------------------------------------------------------------------------- pairwise data


@dataclass
class _Pairs:
    """Pairwise outcomes of every contest, for the online method: ``a`` scored ``score``
    (1, 0.5, 0) against ``b`` in the contest at ``order`` in game order."""

    a: IntArray
    b: IntArray
    score: FloatArray
    weight: FloatArray
    order: IntArray


def _pairs(contests: Mapping[int, _Contests]) -> _Pairs:
    parts: list[tuple[IntArray, ...]] = []
    fparts: list[tuple[FloatArray, FloatArray]] = []
    for k, group in contests.items():
        if k < 2:
            continue
        bots, ranks, order = group.bots, group.ranks, group.order
        for i, j in itertools.combinations(range(k), 2):
            keep = bots[:, i] != bots[:, j]  # a bot in two seats does not play itself
            ri, rj = ranks[keep, i], ranks[keep, j]
            score = (ri < rj) + 0.5 * (ri == rj)
            parts.append((bots[keep, i], bots[keep, j], order[keep]))
            fparts.append((score, np.full(len(score), 1.0 / (k - 1))))
    if not parts:
        empty_i, empty_f = np.zeros(0, np.int64), np.zeros(0)
        return _Pairs(empty_i, empty_i, empty_f, empty_f, empty_i)
    a, b, order = (np.concatenate(col) for col in zip(*parts, strict=True))
    score, weight = (np.concatenate(col) for col in zip(*fparts, strict=True))
    return _Pairs(a, b, score, weight, order)


def _prior_wins(n: int, prior: float) -> FloatArray:
    """Virtual draws: ``prior`` per bot, spread evenly over the ``n - 1`` others."""
    if n < 2:
        return np.zeros((n, n))
    wins = np.full((n, n), 0.5 * prior / (n - 1))
    np.fill_diagonal(wins, 0.0)
    return wins


# --------------------------------------------------------------------------- fits


def _fit_bt(
    n: int, data: _Parsed, prior: FloatArray, resamples: int, seed: int
) -> tuple[FloatArray, FloatArray]:
    """Full-data BT strengths and one row of strengths per bootstrap resample.

    A resample's win matrix is the count-weighted sum of the units' pair sums (a product
    over the (unit, pair) entries), never a pass over games."""
    unit, key, values = data.outcomes.pairs(data.renumber)
    won = values[:, [WON_LOW, WON_HIGH]]
    theta = fit_bt(pair_matrix(n, key, won[:, 0], won[:, 1]) + prior)
    pair_keys, pair = np.unique(key, return_inverse=True)
    low, high = pair_keys >> BOT_BITS, pair_keys & ((1 << BOT_BITS) - 1)
    resampled = Resampled(unit, pair.reshape(-1), won, len(pair_keys))

    def fit(counts: FloatArray) -> FloatArray:
        sums = resampled(counts)
        wins = np.tile(prior, (len(counts), 1, 1))
        wins[:, low, high] += sums[:, :, 0]
        wins[:, high, low] += sums[:, :, 1]
        return fit_bt(wins, start=theta)

    return theta, fitted_resamples(fit, seed, data.units, resamples, n)


def _fit_pl(
    n: int, data: _Parsed, prior: FloatArray, resamples: int, seed: int
) -> tuple[FloatArray, FloatArray]:
    """Full-data PL strengths (Newton) and one row per bootstrap resample (chord steps with
    the full data's curvature, all the resamples of a chunk together)."""
    outcomes = data.outcomes
    model = PlackettLuce(n, outcomes.set_members(n))
    sets = len(model.sets)
    by_set, by_chosen = outcomes.stage_sums(data.renumber, n)
    set_unit, set_key, set_weight = by_set
    bot_unit, bot_key, bot_weight = by_chosen
    full_sets = sum_by(set_key, set_weight[:, 0], sets)
    theta = model.fit(full_sets, sum_by(bot_key, bot_weight[:, 0], n), prior)
    curvature = model.curvature(theta, full_sets, prior)
    set_sums = Resampled(set_unit, set_key, set_weight, sets)
    bot_sums = Resampled(bot_unit, bot_key, bot_weight, n)

    def fit(counts: FloatArray) -> FloatArray:
        sets, bots = set_sums(counts)[:, :, 0], bot_sums(counts)[:, :, 0]
        return model.fit_many(sets, bots, prior, theta, curvature)

    return theta, fitted_resamples(fit, seed, data.units, resamples, n)


def _online(n: int, pairs: _Pairs) -> FloatArray:
    """Elo updated contest by contest in game order; each seat moves by
    ``K / (k - 1) * sum(actual - expected)`` over its opponents, from ratings before the game."""
    ratings = np.full(n, BASE_RATING)
    by_contest: dict[int, list[int]] = defaultdict(list)
    for i, order in enumerate(pairs.order.tolist()):
        by_contest[order].append(i)
    a, b = pairs.a.tolist(), pairs.b.tolist()
    score, weight = pairs.score.tolist(), pairs.weight.tolist()
    for order in sorted(by_contest):
        delta: dict[int, float] = defaultdict(float)
        for i in by_contest[order]:
            expected = 1.0 / (1.0 + 10.0 ** ((ratings[b[i]] - ratings[a[i]]) / 400.0))
            change = ONLINE_K * weight[i] * (score[i] - expected)
            delta[a[i]] += change
            delta[b[i]] -= change
        for bot, change in delta.items():
            ratings[bot] += change
    return ratings / ELO_PER_NAT  # back to natural units, anchored like the ML fits


# --------------------------------------------------------------------------- assembling


def _anchor(anchor: tuple[str, float] | None, names: list[str]) -> tuple[int | None, float]:
    """``None`` -> pool mean; ``(bot, rating)`` -> that bot at that rating."""
    if anchor is None:
        return None, BASE_RATING
    bot, rating = anchor
    if not math.isfinite(rating):
        raise ConfigError(f"anchor {bot!r}: the rating must be a finite number, got {rating}")
    if bot not in names:
        known = ", ".join(sorted(names)) or "none"
        rating_hint = "; BOT=RATING takes a number after the last '='" if "=" in bot else ""
        raise ConfigError(
            f"anchor bot {bot!r} did not play in these games (bots: {known}){rating_hint}"
        )
    return names.index(bot), rating


def _to_elo(theta: FloatArray, anchor: int | None, rating: float) -> FloatArray:
    if theta.shape[-1] == 0:
        return theta
    ref = theta.mean(axis=-1, keepdims=True) if anchor is None else theta[..., anchor : anchor + 1]
    return rating + ELO_PER_NAT * (theta - ref)


def _pct(part: float, rest: float) -> float:
    """``part`` as a percentage of ``part + rest`` (0 when both are 0)."""
    total = part + rest
    return 100.0 * part / total if total else 0.0


ROWS_PER_BATCH = 4096


def compute_standings(
    records: Iterable[GameRecord],
    *,
    model: str = "bt",
    method: str = "ml",
    anchor: tuple[str, float] | None = None,
    bootstrap: int = 1000,
    seed: int = 0,
    prior: float = DEFAULT_PRIOR,
) -> Standings:
    """Standings of every bot in ``records`` (in game order).

    ``model``: ``"bt"`` (pairwise Bradley–Terry) or ``"pl"`` (Plackett–Luce orders);
    ``method``: ``"ml"`` (maximum likelihood) or ``"online"`` (sequential Elo, no intervals);
    ``anchor``: None (pool mean 1500) or ``(bot, rating)``;
    ``bootstrap``: resamples for the intervals and LOS (0 = none); ``seed``: their RNG seed;
    ``prior``: virtual draws per bot (0 = pure maximum likelihood, which is infinite for a bot
    that won or lost everything).
    """
    return standings_of_rows(
        rows_of(records),
        model=model,
        method=method,
        anchor=anchor,
        bootstrap=bootstrap,
        seed=seed,
        prior=prior,
    )


def rows_of(records: Iterable[GameRecord]) -> Iterator[list[GameRow]]:
    """The JSON forms of ``records``, in batches of :data:`ROWS_PER_BATCH`."""
    batch: list[GameRow] = []
    for record in records:
        batch.append(record.to_dict())
        if len(batch) == ROWS_PER_BATCH:
            yield batch
            batch = []
    yield batch


def standings_of_rows(
    batches: Iterable[Sequence[GameRow] | GameColumns],
    *,
    model: str = "bt",
    method: str = "ml",
    anchor: tuple[str, float] | None = None,
    bootstrap: int = 1000,
    seed: int = 0,
    prior: float = DEFAULT_PRIOR,
) -> Standings:
    """:func:`compute_standings` of games in their JSON form, a batch of rows at a time
    (``arena standings`` reads a large results folder this way: no record is built), or
    batches already taken apart (:class:`GameColumns`)."""
    if model not in MODELS:
        raise ConfigError(f"unknown rating model {model!r}: use one of {', '.join(MODELS)}")
    if method not in METHODS:
        raise ConfigError(f"unknown rating method {method!r}: use one of {', '.join(METHODS)}")
    if method == "online" and model != "bt":
        raise ConfigError("the online method updates pairwise (bt); use --model bt with it")
    if bootstrap < 0:
        raise ConfigError(f"bootstrap must be >= 0, got {bootstrap}")
    if not prior >= 0:
        raise ConfigError(f"prior must be >= 0 virtual draws, got {prior}")

    with collector_paused():  # reading creates many small objects, none in a cycle
        data = _parse(batches, stages=model == "pl", in_order=method == "online")
    names, n = data.names, len(data.names)
    anchor_bot, anchor_rating = _anchor(anchor, names)
    prior_wins = _prior_wins(n, prior)
    resamples = bootstrap if method == "ml" and n > 0 else 0
    notes: list[str] = []
    if method == "online":
        theta, samples = _online(n, _pairs(data.contests or {})), np.zeros((0, n))
        notes.append("Online Elo depends on the order of the games.")
    else:
        # the fits multiply small matrices: BLAS threads would only spin (on a busy machine
        # they cost several times the CPU they save)
        with threadpool_limits(limits=1, user_api="blas"):
            fit = _fit_pl if model == "pl" else _fit_bt
            try:
                theta, samples = fit(n, data, prior_wins, resamples, seed)
            except np.linalg.LinAlgError:
                raise ConfigError(
                    f"prior {prior:g}: a fit has no finite ratings (in these games or in one "
                    "of their bootstrap resamples, a bot or a group of bots won or lost every "
                    "game against the rest); use a prior above 0"
                ) from None
    if data.disqualified:
        notes.append(f"DISQUALIFIED (failed to start): {', '.join(data.disqualified)}.")
    elo = _to_elo(theta, anchor_bot, anchor_rating)
    low: list[float] | None = None
    high: list[float] | None = None
    los: dict[str, dict[str, float]] = {}
    if len(samples):
        elo_samples = _to_elo(samples, anchor_bot, anchor_rating)
        lo, hi = percentile_interval(elo_samples, CONFIDENCE)
        low, high = lo.tolist(), hi.tolist()
        los_matrix = superiority(elo_samples)
        los = {
            names[i]: {names[j]: float(los_matrix[i, j]) for j in range(n) if j != i}
            for i in range(n)
        }

    # beside the Elo: pairwise score, crosstable, wins and places
    _, key, sums = data.outcomes.pairs(data.renumber)
    weighted = pair_matrix(n, key, sums[:, WON_LOW], sums[:, WON_HIGH])
    points = pair_matrix(n, key, sums[:, POINTS_LOW], sums[:, MEETINGS] - sums[:, POINTS_LOW])
    meetings = pair_matrix(n, key, sums[:, MEETINGS], sums[:, MEETINGS])
    # a solo seed that only one bot played compares nothing: no win, no place
    places = np.zeros((4, n))
    places[:, : data.outcomes.places.shape[1]] = data.outcomes.places
    entries, wins, place_sum, place_sq = places

    rows: list[BotStanding] = []
    for rank, i in enumerate(sorted(range(n), key=lambda i: (-elo[i], names[i])), start=1):
        games, forfeits, decisions, think = data.played[:, i]
        count = int(entries[i])
        mean_place = place_sum[i] / count if count else 0.0
        var = (place_sq[i] / count - mean_place**2) * count / (count - 1) if count > 1 else 0.0
        rows.append(
            BotStanding(
                rank=rank,
                bot=names[i],
                elo=float(elo[i]),
                elo_low=low[i] if low is not None else None,
                elo_high=high[i] if high is not None else None,
                games=int(games),
                score_pct=_pct(float(weighted[i].sum()), float(weighted[:, i].sum())),
                wins=int(wins[i]),
                win_pct=_pct(float(wins[i]), count - float(wins[i])),
                mean_place=float(mean_place),
                place_se=math.sqrt(max(float(var), 0.0) / count) if count else 0.0,
                verdicts=data.verdicts[i],
                forfeits=int(forfeits),
                decisions=int(decisions),
                think_ms=float(think / decisions) if decisions else 0.0,
            )
        )
    crosstable = {
        names[i]: {
            names[j]: HeadToHead(
                _pct(float(points[i, j]), float(points[j, i])), int(meetings[i, j])
            )
            for j in range(n)
            if meetings[i, j]
        }
        for i in range(n)
    }
    return Standings(
        rows=tuple(rows),
        crosstable=crosstable,
        seats=data.seats,
        los=los,
        model=model,
        method=method,
        anchor=names[anchor_bot] if anchor_bot is not None else None,
        anchor_rating=anchor_rating,
        bootstrap=len(samples),
        seed=seed,
        prior=prior if method == "ml" else 0.0,  # the online method has no prior
        games=data.games,
        units=data.units,
        notes=tuple(notes),
        disqualified=tuple(data.disqualified),
    )
