"""Swiss rounds for tables of 2 to 5 seats: who sits with whom in the next round.

Each round seats the whole field at tables of one size (byes when it does not divide) by
current standing, so that players of similar score meet and no two players meet again
while that can be avoided. Every table is played as one rotation block on one deal; the
table's result is what the standings count.

**Match points.** A table's players are placed by the points they took over the block's
games (``k - rank`` per game, so a first place in a game of ``k`` is worth ``k - 1``); the
table's first place scores ``k - 1`` match points, the next ``k - 2``, down to 0 for the
last, and players who tie share the places' points equally. With two seats that is chess's
1, ½, 0. A bye scores the mean of a table, ``(k - 1) / 2``.

**Standings order** (also the order a round is paired in): match points; then *Buchholz*,
the sum of the match points of every player one sat with (each meeting counted once per
table shared; a bye adds nothing); then game points (the block points summed over the
rounds); then the league's seeded draw (a random order of the field fixed by the seed).

**Byes** go to the players who have had the fewest byes, lowest in the order first: so a
bye is never given twice while some player has had none.

**Tables.** For two seats the round is a maximum-weight matching (the blossom algorithm of
``networkx``): the weights make every avoidable repeat meeting cost more than any score
difference, then prefer the smallest score differences, then neighbours in the order, the
criteria FIDE's Dutch system approximates by hand. For three to five seats a depth-first
search seats the highest unseated player with the nearest players below it, backtracking
whenever a table would repeat a meeting; it first looks for a round with no repeat at all,
then allows one repeated meeting, then two, and so on. A pair counts as often as it has met
before (in both methods), so a third meeting of two players costs more than a second one
of two others. Each of those searches stops after
:data:`SEARCH_NODES` steps; on small fields (every field the tests try by brute force, and
any field where a repeat-free round is easy to find) the answer is exact: a round repeats a
meeting only when every seating of the players would, and then as few as any seating does.
A search out of steps seats the round greedily instead (the highest unseated player, then
one at a time whoever repeats fewest meetings at that table, nearest first).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from random import Random

import networkx as nx

SEARCH_NODES = 200_000
"""Steps one depth-first search may take before it gives up on its number of repeats."""


@dataclass(frozen=True)
class TableResult:
    """One table of a round, as played: its players and each one's block points."""

    players: tuple[str, ...]
    points: tuple[float, ...]

    def match_points(self) -> dict[str, float]:
        """Each player's match points for this table (ties share the places' points)."""
        return dict(zip(self.players, place_points(self.points), strict=True))


@dataclass(frozen=True)
class RoundResult:
    """A whole round: its tables' results and who had a bye."""

    tables: tuple[TableResult, ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pairing:
    """The seating of one round: tables (each in standings order) and byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class Standing:
    """One player's line in the Swiss standings."""

    name: str
    match_points: float
    buchholz: float
    game_points: float
    byes: int
    rounds: int


def place_points(points: Sequence[float]) -> list[float]:
    """Match points by place among ``points``: k-1 for the best, 0 for the worst; equal
    points share the points of the places they cover."""
    k = len(points)
    order = sorted(range(k), key=lambda i: -points[i])
    shares = [0.0] * k
    start = 0
    while start < k:
        end = start
        while end + 1 < k and points[order[end + 1]] == points[order[start]]:
            end += 1
        covered = [k - 1 - place for place in range(start, end + 1)]
        for place in range(start, end + 1):
            shares[order[place]] = sum(covered) / len(covered)
        start = end + 1
    return shares


def seeded_draw(field: Sequence[str], seed: int) -> list[str]:
    """The field in the league's seeded random order (the last tie-break)."""
    drawn = list(field)
    Random(f"swiss-draw-{seed}").shuffle(drawn)
    return drawn


def standings(
    field: Sequence[str], rounds: Iterable[RoundResult], table_size: int, seed: int
) -> list[Standing]:
    """The field in standings order after ``rounds``."""
    match: dict[str, float] = dict.fromkeys(field, 0.0)
    games: dict[str, float] = dict.fromkeys(field, 0.0)
    byes = Counter[str]()
    played = Counter[str]()
    met: dict[str, list[str]] = {name: [] for name in field}
    for result in rounds:
        for table in result.tables:
            for name, points in table.match_points().items():
                match[name] += points
                played[name] += 1
            for name, points in zip(table.players, table.points, strict=True):
                games[name] += points
            for name in table.players:
                met[name] += [other for other in table.players if other != name]
        for name in result.byes:
            match[name] += (table_size - 1) / 2
            byes[name] += 1
            played[name] += 1
    draw = {name: i for i, name in enumerate(seeded_draw(field, seed))}
    lines = [
        Standing(
            name=name,
            match_points=match[name],
            buchholz=sum(match[other] for other in met[name]),
            game_points=games[name],
            byes=byes[name],
            rounds=played[name],
        )
        for name in field
    ]
    lines.sort(key=lambda s: (-s.match_points, -s.buchholz, -s.game_points, draw[s.name]))
    return lines


def meetings(rounds: Iterable[RoundResult]) -> Counter[frozenset[str]]:
    """How often each pair of players has sat at one table."""
    met = Counter[frozenset[str]]()
    for result in rounds:
        for table in result.tables:
            met.update(frozenset(pair) for pair in combinations(table.players, 2))
    return met


def pair_round(
    field: Sequence[str], rounds: Sequence[RoundResult], table_size: int, seed: int
) -> Pairing:
    """The next round's seating, from the rounds played so far (and nothing else: the same
    results and seed always give the same pairing)."""
    if not 2 <= table_size <= len(field):
        raise ValueError(f"a Swiss round needs 2 to {len(field)} seats a table")
    order = standings(field, rounds, table_size, seed)
    ranked = [line.name for line in order]
    bye_count = len(ranked) % table_size
    by_need = sorted(range(len(ranked)), key=lambda i: (order[i].byes, -i))
    byes = sorted(by_need[:bye_count])
    seated = [name for i, name in enumerate(ranked) if i not in set(byes)]
    scores = {line.name: line.match_points for line in order}
    met = meetings(rounds)
    if table_size == 2:
        found = _matching(seated, scores, met)
    else:
        found = _search(seated, scores, met, table_size)
    position = {name: i for i, name in enumerate(seated)}
    found.sort(key=lambda table: position[table[0]])
    return Pairing(tables=tuple(found), byes=tuple(ranked[i] for i in byes))


def repeats(tables: Iterable[Sequence[str]], met: Mapping[frozenset[str], int]) -> int:
    """The repeated meetings at these tables: each pair counts as often as it has met before
    (so a third meeting costs more than a second)."""
    return sum(met.get(frozenset(pair), 0) for table in tables for pair in combinations(table, 2))


def _matching(
    seated: Sequence[str], scores: Mapping[str, float], met: Mapping[frozenset[str], int]
) -> list[tuple[str, ...]]:
    """Two-seat tables: the maximum-weight perfect matching described above."""
    n = len(seated)
    spread = max((scores[p] for p in seated), default=0) - min(
        (scores[p] for p in seated), default=0
    )
    # integer weights (match points are halves): a score difference costs more than any
    # sum of position differences, a repeat more than any sum of score differences
    score_unit = n * n + 1
    repeat_cost = (n // 2 + 1) * (int(2 * spread) ** 2 * score_unit + n) + 1
    most = max(met.values(), default=0)  # every weight stays positive
    graph = nx.Graph()
    for i, j in combinations(range(n), 2):
        a, b = seated[i], seated[j]
        gap = round(2 * abs(scores[a] - scores[b]))
        cost = gap * gap * score_unit + (j - i)
        cost += repeat_cost * met.get(frozenset((a, b)), 0)
        graph.add_edge(i, j, weight=repeat_cost * (most + 2) - cost)
    pairs = nx.max_weight_matching(graph, maxcardinality=True)
    return [(seated[min(i, j)], seated[max(i, j)]) for i, j in pairs]


def _search(
    seated: Sequence[str],
    scores: Mapping[str, float],
    met: Mapping[frozenset[str], int],
    size: int,
) -> list[tuple[str, ...]]:
    """Tables of three to five seats: the depth-first search described above."""
    worst = repeats([seated], met)  # every pair of the field at one table
    for allowed in range(worst + 1):
        try:
            found = _Search(seated, met, size, allowed).run()
        except _OutOfSteps:
            return _greedy(seated, met, size)
        if found is not None:
            return found
    raise AssertionError("a seating with every pair repeated always exists")  # pragma: no cover


def _greedy(
    seated: Sequence[str], met: Mapping[frozenset[str], int], size: int
) -> list[tuple[str, ...]]:
    """The fallback of a search out of steps: seat the highest unseated player, then add
    one at a time the player who repeats the fewest meetings there, nearest first."""
    left = list(seated)
    found = []
    while left:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(
                range(len(left)),
                key=lambda i: (sum(met.get(frozenset((left[i], p)), 0) for p in table), i),
            )
            table.append(left.pop(best))
        found.append(tuple(table))
    return found


class _Search:
    """One depth-first search for a seating with at most ``allowed`` repeated pairs."""

    def __init__(
        self, seated: Sequence[str], met: Mapping[frozenset[str], int], size: int, allowed: int
    ) -> None:
        self.seated = list(seated)
        self.met = met
        self.size = size
        self.allowed = allowed
        self.nodes = 0

    def run(self) -> list[tuple[str, ...]] | None:
        """A seating within ``allowed`` repeats (None: there is none); raises
        :class:`_OutOfSteps` when the search used its steps."""
        return self._seat(self.seated, 0)

    def _seat(self, left: list[str], used: int) -> list[tuple[str, ...]] | None:
        if not left:
            return []
        head, rest = left[0], left[1:]
        for table, cost in self._tables_with(head, rest, used):
            remaining = [p for p in rest if p not in table]
            found = self._seat(remaining, used + cost)
            if found is not None:
                return [table, *found]
        return None

    def _tables_with(
        self, head: str, rest: list[str], used: int
    ) -> Iterable[tuple[tuple[str, ...], int]]:
        """Tables for ``head`` with players of ``rest``, nearest below it first."""
        for companions in combinations(rest, self.size - 1):
            self.nodes += 1
            if self.nodes > SEARCH_NODES:
                raise _OutOfSteps
            table = (head, *companions)
            cost = repeats([table], self.met)
            if used + cost <= self.allowed:
                yield table, cost


class _OutOfSteps(Exception):
    """A search used its steps."""
