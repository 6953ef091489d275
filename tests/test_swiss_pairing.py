"""Swiss pairings and knockout brackets, as pure functions of results and seed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from random import Random

import pytest

from arena.heats import Stage, check_stages, heats, table_sizes
from arena.league.knockout import bracket
from arena.league.swiss import (
    Pairing,
    RoundResult,
    TableResult,
    meetings,
    pair_round,
    place_points,
    repeats,
    standings,
)


def partitions(players: Sequence[str], size: int) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat ``players`` at tables of ``size`` (brute force)."""
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for companions in combinations(rest, size - 1):
        left = [p for p in rest if p not in companions]
        for tail in partitions(left, size):
            yield [(head, *companions), *tail]


def play(pairing: Pairing, rng: Random) -> RoundResult:
    """Random block points for every table (ties happen: points are small integers)."""
    return RoundResult(
        tables=tuple(
            TableResult(table, tuple(float(rng.randrange(4)) for _ in table))
            for table in pairing.tables
        ),
        byes=pairing.byes,
    )


def test_place_points_share_ties() -> None:
    assert place_points([3.0, 1.0]) == [1.0, 0.0]
    assert place_points([2.0, 2.0]) == [0.5, 0.5]
    assert place_points([5.0, 7.0, 5.0, 1.0]) == [1.5, 3.0, 1.5, 0.0]


@pytest.mark.parametrize(
    ("field_size", "size"),
    [(6, 2), (7, 2), (8, 2), (6, 3), (7, 3), (9, 3), (8, 4), (9, 4), (10, 5)],
)
def test_a_round_repeats_only_when_every_seating_would(field_size: int, size: int) -> None:
    field = [f"bot{i}" for i in range(field_size)]
    for trial in range(3):
        rng = Random(f"{field_size}-{size}-{trial}")
        played: list[RoundResult] = []
        for _ in range(6):
            pairing = pair_round(field, played, size, seed=trial)
            met = meetings(played)
            seated = [p for p in field if p not in pairing.byes]
            fewest = min(repeats(p, met) for p in partitions(seated, size))
            assert repeats(pairing.tables, met) == fewest
            assert sorted(p for t in pairing.tables for p in t) == sorted(seated)
            assert all(len(t) == size for t in pairing.tables)
            played.append(play(pairing, rng))


def test_byes_rotate_before_anyone_has_two() -> None:
    field = [f"bot{i}" for i in range(7)]  # tables of 3: one bye a round
    rng = Random(5)
    played: list[RoundResult] = []
    for _ in range(7):
        pairing = pair_round(field, played, 3, seed=1)
        assert len(pairing.byes) == 1
        played.append(play(pairing, rng))
    byes = Counter(name for result in played for name in result.byes)
    assert sorted(byes.values()) == [1] * 7


def test_the_same_seed_and_results_give_the_same_pairings() -> None:
    field = [f"bot{i}" for i in range(12)]

    def run(seed: int) -> list[Pairing]:
        rng = Random(99)
        played: list[RoundResult] = []
        pairings = []
        for _ in range(4):
            pairing = pair_round(field, played, 4, seed=seed)
            pairings.append(pairing)
            played.append(play(pairing, rng))
        return pairings

    assert run(3) == run(3)
    assert run(3)[0] != run(4)[0]  # the seeded draw seats the first round


def test_leaders_meet_leaders() -> None:
    field = [f"bot{i}" for i in range(8)]
    first = pair_round(field, [], 2, seed=0)
    # every table's first seat wins its game
    played = [
        RoundResult(tuple(TableResult(t, (1.0, 0.0)) for t in first.tables)),
    ]
    second = pair_round(field, played, 2, seed=0)
    winners = {t[0] for t in first.tables}
    for table in second.tables:
        assert (table[0] in winners) == (table[1] in winners)


def test_standings_order_by_match_points_then_buchholz() -> None:
    field = ["a", "b", "c", "d"]
    played = [
        RoundResult((TableResult(("a", "b"), (1.0, 0.0)), TableResult(("c", "d"), (1.0, 0.0)))),
        RoundResult((TableResult(("a", "c"), (0.0, 1.0)), TableResult(("b", "d"), (1.0, 0.0)))),
    ]
    lines = standings(field, played, 2, seed=0)
    assert [line.name for line in lines][:1] == ["c"]  # two wins
    # a and b have one win each; a met c (2) and b (1), b met a (1) and d (0)
    assert [line.name for line in lines][1:3] == ["a", "b"]
    assert lines[1].buchholz == 3.0 and lines[2].buchholz == 1.0


def test_a_large_field_pairs_quickly_without_repeats() -> None:
    field = [f"bot{i}" for i in range(200)]
    rng = Random(0)
    played: list[RoundResult] = []
    for _ in range(5):
        pairing = pair_round(field, played, 4, seed=0)
        assert repeats(pairing.tables, meetings(played)) == 0
        played.append(play(pairing, rng))


def test_knockout_heats_snake_the_seeds_and_give_byes_to_the_best() -> None:
    field = [f"s{i}" for i in range(1, 11)]  # seeds 1..10, tables of 4
    found, byes = heats(field, Stage(4, 2), 0)
    assert byes == ["s1", "s2"]
    assert [h.players for h in found] == [("s3", "s6", "s7", "s10"), ("s4", "s5", "s8", "s9")]


def test_knockout_always_ends_with_one_winner() -> None:
    for trial in range(200):
        rng = Random(trial)
        size = rng.randrange(2, 41)
        table = rng.randrange(2, 6)
        stages = [Stage(table, rng.randrange(1, table))]
        if rng.random() < 0.5:
            second = rng.randrange(2, 6)
            stages.append(Stage(second, rng.randrange(1, second)))
        field = [f"b{i}" for i in range(size)]
        played: dict[tuple[int, int], list[dict[str, float]]] = {}
        for _ in range(1000):
            state = bracket(field, stages, played, tiebreak_blocks=2)
            if state.winner is not None:
                break
            for heat, number in state.to_play:
                assert number == len(played.get((heat.stage, heat.index), []))
                block = {p: float(rng.randrange(3)) for p in heat.players}
                played.setdefault((heat.stage, heat.index), []).append(block)
        assert state.winner in field
        assert [[len(o.heat.players) for o in s] for s in state.stages] == table_sizes(size, stages)


def test_a_tie_on_the_cut_plays_another_block_then_goes_to_the_better_seed() -> None:
    field = ["s1", "s2", "s3"]
    stages = [Stage(3, 1)]
    tie = {"s1": 2.0, "s2": 2.0, "s3": 0.0}
    state = bracket(field, stages, {(0, 0): [tie]}, tiebreak_blocks=1)
    assert state.winner is None and state.to_play[0][1] == 1  # its second block
    state = bracket(field, stages, {(0, 0): [tie, {"s1": 1.0, "s2": 3.0, "s3": 2.0}]}, 1)
    assert state.winner == "s2"
    state = bracket(field, stages, {(0, 0): [tie, tie]}, tiebreak_blocks=1)
    assert state.winner == "s1" and state.stages[0][0].by_seed


def test_stage_rules_are_checked() -> None:
    assert check_stages([Stage(4, 2)]) is None
    assert check_stages([]) == "a knockout needs at least one stage"
    assert "advance must be 1 to 3" in (check_stages([Stage(4, 4)]) or "")
    assert "table must be 2 to 5" in (check_stages([Stage(6, 1)]) or "")
