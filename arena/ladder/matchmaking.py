"""Which table the ladder plays next: placement, then the games that teach the most.

A live rating (Weng-Lin, Plackett-Luce, from ``openskill``) follows every game as it is
stored. It is chosen over the arena's own maximum-likelihood fit for this one job because
it is online (one cheap update per game, no refit of the whole history), it handles tables
of 1 to 5 (or more) players alike through finishing orders, and it carries an uncertainty
(sigma) per bot, which is what matchmaking spends games on. The leaderboard never shows it:
it shows the arena's own standings of the results folder (:mod:`arena.ladder.board`).

- **Placement:** a version that has played fewer than ``placement_blocks`` blocks goes first,
  each block against opponents at another point of the field's spread (its strongest, its
  middle, its weakest...), so its first rating is not built on one corner of the table.
- **Continuous play:** an anchor is drawn by its uncertainty, weighted up near the top of
  the table; its opponents are those whose games with it teach the most: a close live
  rating, a high uncertainty, few blocks shared so far. A small random term keeps the same
  table from repeating for ever. Table sizes take turns (the size with fewest blocks).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from openskill.models import PlackettLuce

from arena.record import GameRecord


class Matchmaker:
    """The live ratings and the choice of tables."""

    def __init__(self, sizes: Sequence[int], placement_blocks: int, seed: int = 0) -> None:
        self.sizes = tuple(sorted(sizes))
        self.placement_blocks = placement_blocks
        self.model = PlackettLuce()
        self.ratings: dict[str, Any] = {}
        self.blocks: Counter[str] = Counter()  # blocks each player took part in
        self.shared: Counter[frozenset[str]] = Counter()  # blocks each pair shared
        self.size_blocks: Counter[int] = Counter()
        self.random = random.Random(seed)

    def rating(self, player: str) -> Any:
        if player not in self.ratings:
            self.ratings[player] = self.model.rating(name=player)
        return self.ratings[player]

    def add_game(self, record: GameRecord) -> None:
        """Update the live ratings by one stored game (its finishing order)."""
        teams = [[self.rating(name)] for name in record.seating]
        rated = self.model.rate(teams, ranks=[float(rank) for rank in record.ranks])
        for name, (after,) in zip(record.seating, rated, strict=True):
            self.ratings[name] = after

    def add_block(self, table: Sequence[str]) -> None:
        """Count a block of ``table`` (when it starts: a block in flight is not chosen twice
        for want of its games)."""
        self.size_blocks[len(table)] += 1
        for name in table:
            self.blocks[name] += 1
        for pair in combinations(sorted(set(table)), 2):
            self.shared[frozenset(pair)] += 1

    def placing(self, player: str) -> bool:
        return self.blocks[player] < self.placement_blocks

    def choose(self, field: Sequence[str], houses: Iterable[str] = ()) -> tuple[str, ...] | None:
        """The players of the next block (unordered), or None when the field cannot fill a
        table. House bots (``houses``) play, but need no placement."""
        usable = [size for size in self.sizes if size <= len(field)]
        if not usable:
            return None
        size = min(usable, key=lambda s: (self.size_blocks[s], s))
        house = set(houses)
        new = [p for p in field if p not in house and self.placing(p)]
        if new:
            player = min(new, key=lambda p: (self.blocks[p], field.index(p)))
            return (player, *self._spread(player, field, size))
        return self._informative(field, size)

    def _spread(self, player: str, field: Sequence[str], size: int) -> list[str]:
        """``size - 1`` opponents at the point of the field's spread this placement block
        is for: the strongest first, then further down."""
        others = sorted((p for p in field if p != player), key=lambda p: -self.rating(p).mu)
        step = self.blocks[player] % self.placement_blocks
        centre = (step + 0.5) / self.placement_blocks * len(others)
        start = min(max(0, round(centre - (size - 1) / 2)), len(others) - (size - 1))
        return others[start : start + size - 1]

    def _informative(self, field: Sequence[str], size: int) -> tuple[str, ...]:
        by_mu = sorted(field, key=lambda p: -self.rating(p).mu)
        top = {p: 1.0 + 1.0 / (1 + i) for i, p in enumerate(by_mu)}  # the top counts more
        weights = [self.rating(p).sigma * top[p] for p in field]
        anchor = self.random.choices(list(field), weights=weights)[0]
        table = [anchor]
        while len(table) < size:
            rest = [p for p in field if p not in table]
            table.append(max(rest, key=lambda p: self._worth(table, p)))
        return tuple(table)

    def _worth(self, table: Sequence[str], candidate: str) -> float:
        """How much a block of ``candidate`` with ``table`` should teach."""
        mine = self.rating(candidate)
        total = 0.0
        for member in table:
            theirs = self.rating(member)
            spread = 2 * self.model.beta**2 + mine.sigma**2 + theirs.sigma**2
            closeness = math.exp(-((mine.mu - theirs.mu) ** 2) / spread)
            novelty = 1.0 / (1 + self.shared[frozenset((member, candidate))])
            total += closeness * (mine.sigma + theirs.sigma) * novelty
        return total * (1 + 0.1 * self.random.random())
