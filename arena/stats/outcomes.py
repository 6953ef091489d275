"""What the rating fits need from the contests, summed per resampling unit while reading.

A contest is one game with ``k >= 2`` seats (or the bots that played one solo seed), its
bots ordered by rank. The fits never need a contest on its own: the Bradley–Terry fit and its
bootstrap need, per unit and bot pair, the weighted wins each way; the Plackett–Luce fit
needs, per unit, how many choice stages were taken from each set of bots and how many each
bot won; the table beside the Elo needs per-bot place sums and per-pair scores. So
:class:`Outcomes` keeps those sums (:class:`~arena.stats.bootstrap.UnitSums`) and nothing
per game: memory grows with units, bots and pairs, however many games a unit holds.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np

from arena.errors import ResultsError
from arena.stats.bootstrap import UnitSums
from arena.stats.mle import FloatArray, IntArray, sum_by

BOT_BITS = 16
"""A pair key is ``a << BOT_BITS | b``: bots are numbered below ``2**BOT_BITS``."""

WON_LOW, WON_HIGH, POINTS_LOW, MEETINGS = range(4)
"""Columns of :meth:`Outcomes.pairs`, for the pair ``low < high``: the weighted wins of
``low`` over ``high`` and of ``high`` over ``low`` (a draw is half each way; a ``k``-seat game
weighs each pair ``1 / (k - 1)``), the unweighted score of ``low`` and the number of
meetings."""

Entries = tuple[IntArray, IntArray, FloatArray]
"""``(unit, key, values)``: one row of values per (unit, key) entry."""


class Outcomes:
    """Sums over contests, per resampling unit; ``stages``: keep the Plackett–Luce stages.

    Every sum kept is a count (half points, meetings, stages), so it is exact whatever order
    the games come in; the weights (``1 / (k - 1)`` per pair of a ``k``-seat game, a share of
    a tied order) are applied when the sums are read, one table size or share at a time.
    """

    def __init__(self, *, stages: bool) -> None:
        self._pairs: dict[int, UnitSums] = {}
        """By table size: per (unit, pair) the half points of ``low`` and the meetings."""
        self.places = np.zeros((4, 0))
        """Per bot: seats in contests, first places, sum of places, sum of squared places."""
        self.stages = stages
        self._sets: dict[tuple[int, ...], int] = {}
        self._by_set: dict[int, UnitSums] = {}
        """By the number of orders a stage is shared among (1 without ties): per (unit,
        set), the stages taken from that set."""
        self._by_chosen: dict[int, UnitSums] = {}
        """The same per (unit, bot): the stages the bot was chosen in."""

    def add(self, bots: IntArray, ranks: IntArray, units: IntArray) -> None:
        """Contests of one size: ``bots`` and ``ranks`` ``(m, k)``, ``units`` ``(m,)``."""
        m, k = bots.shape
        if m == 0 or k < 2:
            return
        if int(bots.max()) >= 1 << BOT_BITS:
            raise ResultsError(f"more than {(1 << BOT_BITS) - 1} bots: too many to rate")
        self._add_places(bots.reshape(-1), ranks.reshape(-1))
        self._add_pairs(bots, ranks, units)
        if self.stages:
            self._add_stages(bots, ranks, units)

    def pairs(self, renumber: IntArray) -> Entries:
        """Per (unit, pair key ``low << BOT_BITS | high``): the columns ``WON_LOW`` ...
        ``MEETINGS``, one entry per table size the pair met at in that unit."""
        parts = []
        for k, sums in sorted(self._pairs.items()):
            unit, key, (half_points, meetings) = _columns(sums.entries(renumber))
            weight = 1.0 / (2 * (k - 1))
            values = np.column_stack(
                [
                    weight * half_points,
                    weight * (2.0 * meetings - half_points),
                    0.5 * half_points,
                    meetings,
                ]
            )
            parts.append((unit, key, values))
        return _joined(parts, 4)

    def set_members(self, n: int) -> IntArray:
        """``(sets, width)``: the bots of each choice set, sets in sorted order, padded with
        ``n`` (the order and numbering of :meth:`stage_sums`)."""
        members = self._padded_sets(n)
        return members[_set_order(members)]

    def stage_sums(self, renumber: IntArray, n: int) -> tuple[Entries, Entries]:
        """Per (unit, set) the weight of the stages taken from the set (sets numbered as in
        :meth:`set_members`), and per (unit, bot) the weight of those the bot won."""
        members = self._padded_sets(n)
        rekey = np.empty(len(members), dtype=np.int64)
        rekey[_set_order(members)] = np.arange(len(members))
        by_set, by_chosen = [], []
        for shared, sums in sorted(self._by_set.items()):
            unit, key, (count,) = _columns(sums.entries(renumber, rekey))
            by_set.append((unit, key, (count / shared)[:, None]))
            unit, key, (count,) = _columns(self._by_chosen[shared].entries(renumber))
            by_chosen.append((unit, key, (count / shared)[:, None]))
        return _joined(by_set, 1), _joined(by_chosen, 1)

    def _padded_sets(self, n: int) -> IntArray:
        """The choice sets in the order they were met, padded with ``n``."""
        width = max(map(len, self._sets), default=2)
        members = np.full((len(self._sets), width), n, dtype=np.int64)
        for bots, number in self._sets.items():
            members[number, : len(bots)] = bots
        return members

    def _add_places(self, bots: IntArray, ranks: IntArray) -> None:
        size = max(self.places.shape[1], int(bots.max()) + 1)
        places = ranks.astype(np.float64)
        values = (np.ones(len(bots)), (ranks == 1).astype(np.float64), places, places**2)
        grown = np.zeros((4, size))
        grown[:, : self.places.shape[1]] = self.places
        for row, value in zip(grown, values, strict=True):
            row += np.bincount(bots, value, minlength=size)
        self.places = grown

    def _add_pairs(self, bots: IntArray, ranks: IntArray, units: IntArray) -> None:
        k = bots.shape[1]
        first, second = np.triu_indices(k, 1)
        a, b = bots[:, first].reshape(-1), bots[:, second].reshape(-1)
        ra, rb = ranks[:, first].reshape(-1), ranks[:, second].reshape(-1)
        unit = np.repeat(units, len(first))
        keep = a != b  # a bot in two seats does not play itself
        a, b, ra, rb, unit = a[keep], b[keep], ra[keep], rb[keep], unit[keep]
        swap = a > b
        low, high = np.where(swap, b, a), np.where(swap, a, b)
        half_points = 2 * np.where(swap, ra > rb, ra < rb) + (ra == rb)  # of ``low``
        values = np.column_stack([half_points, np.ones(len(half_points))])
        if k not in self._pairs:
            self._pairs[k] = UnitSums(2)
        self._pairs[k].add(unit, (low << BOT_BITS) | high, values)

    def _add_stages(self, bots: IntArray, ranks: IntArray, units: IntArray) -> None:
        """Stage ``s`` of a finishing order: its ``s``-th bot chosen from itself and those
        behind it. Tied bots are expanded into every order among them, sharing the stage
        equally (a two-bot tie is half a win each way, as in the Bradley–Terry model)."""
        by_place = np.argsort(ranks, axis=1, kind="stable")
        tied = (np.diff(np.take_along_axis(ranks, by_place, axis=1), axis=1) == 0).any(axis=1)
        finishes = np.take_along_axis(bots[~tied], by_place[~tied], axis=1)
        self._add_finishes(1, finishes, units[~tied])
        shared: dict[int, list[tuple[IntArray, IntArray]]] = defaultdict(list)
        for row in np.flatnonzero(tied):
            orders = np.array(_orders(bots[row].tolist(), ranks[row].tolist()), dtype=np.int64)
            shared[len(orders)].append((orders, np.full(len(orders), units[row])))
        for share, parts in shared.items():
            self._add_finishes(share, *(np.concatenate(part) for part in zip(*parts, strict=True)))

    def _add_finishes(self, shared: int, finishes: IntArray, units: IntArray) -> None:
        """Finishing orders ``(m, k)`` of units ``units``, each stage weighing ``1 / shared``."""
        m, k = finishes.shape
        if m == 0:
            return
        members = np.full(((k - 1) * m, k), -1, dtype=np.int64)  # a stage's set, -1 first
        for s in range(k - 1):
            members[s * m : (s + 1) * m, s:] = np.sort(finishes[:, s:], axis=1)
        if shared not in self._by_set:
            self._by_set[shared], self._by_chosen[shared] = UnitSums(1), UnitSums(1)
        stage_units, ones = np.tile(units, k - 1), np.ones(len(members))
        self._by_set[shared].add(stage_units, self._set_ids(members), ones)
        self._by_chosen[shared].add(stage_units, finishes[:, : k - 1].T.reshape(-1), ones)

    def _set_ids(self, members: IntArray) -> IntArray:
        """The number of each row's choice set (its bots sorted after any -1s), new sets
        numbered as they come."""
        base, width = int(members.max()) + 2, members.shape[1]
        if base**width < 2**62:
            key = np.zeros(len(members), dtype=np.int64)
            for column in range(width):
                key = key * base + members[:, column] + 1
            _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        else:
            _, first, inverse = np.unique(members, axis=0, return_index=True, return_inverse=True)
        sets = self._sets
        ids = [
            sets.setdefault(tuple(row[row.count(-1) :]), len(sets))
            for row in members[first].tolist()
        ]
        return np.array(ids, dtype=np.int64)[inverse.reshape(-1)]


def _set_order(members: IntArray) -> IntArray:
    """Sets in lexicographic order of their padded bots: one numbering whatever order the
    games were read in."""
    return np.lexsort(members.T[::-1]) if len(members) else np.zeros(0, dtype=np.int64)


def _columns(entries: Entries) -> tuple[IntArray, IntArray, FloatArray]:
    """``(unit, key, values)`` with the values by column (``values.T``)."""
    unit, key, values = entries
    return unit, key, values.T


def _joined(parts: list[Entries], columns: int) -> Entries:
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros((0, columns))
    unit, key, values = zip(*parts, strict=True)
    return np.concatenate(unit), np.concatenate(key), np.concatenate(values)


def _orders(bots: list[int], ranks: list[int]) -> list[list[int]]:
    """Every finishing order consistent with ``ranks`` (ties in every order)."""
    tiers: dict[int, list[int]] = defaultdict(list)
    for bot, rank in zip(bots, ranks, strict=True):
        tiers[rank].append(bot)
    return [
        list(itertools.chain.from_iterable(parts))
        for parts in itertools.product(*(itertools.permutations(tiers[r]) for r in sorted(tiers)))
    ]


def pair_matrix(n: int, keys: IntArray, forward: FloatArray, back: FloatArray) -> FloatArray:
    """``m[low, high] += forward`` and ``m[high, low] += back`` for every pair key."""
    low, high = keys >> BOT_BITS, keys & ((1 << BOT_BITS) - 1)
    return (sum_by(low * n + high, forward, n * n) + sum_by(high * n + low, back, n * n)).reshape(
        n, n
    )
