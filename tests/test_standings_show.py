"""How the standings are shown: names, marks and notes of the terminal table and its JSON."""

from __future__ import annotations

import json

import pytest

from arena.show.caveats import FEW_BLOCKS, caveats
from arena.show.html.report import _standings_table
from arena.show.tables import render
from arena.stats.ratings import compute_standings
from tests.ratings_sim import game, simulate_league


def _rows(table: str, first: str) -> list[str]:
    """The lines of ``table`` from the one starting with ``first`` to the next blank one."""
    lines = table.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def test_long_names_sharing_a_prefix_stay_apart_in_every_terminal_table() -> None:
    names = ["greedy-v2-with-long-suffix", "greedy-v2-with-long-suffix-b", "x=5"]
    records = simulate_league([1500, 1600, 1400], players=2, blocks=30, seed=1, names=names)
    table = render(compute_standings(records, bootstrap=20), "table")
    for title in ("#  bot", "Crosstable", "Likelihood of superiority"):
        rows = _rows(table, title)[2:]  # past the title and the header (or its rule)
        shown = [line.split()[1] for line in rows if "greedy" in line]
        assert len(shown) == 2 and len(set(shown)) == 2, (title, shown)
        assert all(len(name) <= 14 and name.startswith("greedy-v") for name in shown), shown
    assert max(len(line) for line in table.splitlines()) <= 80


def test_names_alike_at_both_ends_are_cut_wider_until_they_differ() -> None:
    names = ["alpha-beta-one-mcts-x", "alpha-beta-two-mcts-x"]
    records = simulate_league([1500, 1600], players=2, blocks=10, seed=2, names=names)
    table = render(compute_standings(records, bootstrap=0), "table")
    shown = [line.split()[1] for line in _rows(table, "#  bot")[2:]]
    assert len(set(shown)) == 2 and all("…" in name for name in shown), shown


def test_json_carries_the_warnings_the_tables_print() -> None:
    records = [  # a beats b in every game of 10 blocks
        game(seating, [1, 2] if seating[0] == "a" else [2, 1], id=f"g{b}{r}", block=b, rotation=r)
        for b in range(10)
        for r, seating in enumerate((["a", "b"], ["b", "a"]))
    ]
    standings = compute_standings(records, bootstrap=20)
    data = json.loads(render(standings, "json"))
    assert data["warnings"] == caveats(standings)
    assert [w.split(" ")[0] for w in data["warnings"]] == ["Only", "Perfect"]
    for line in data["warnings"]:
        assert f"**Warning: {line}**" in render(standings, "markdown")


def test_no_games_is_said_and_no_empty_table_is_printed() -> None:
    empty = compute_standings([])
    for fmt in ("table", "markdown"):
        text = render(empty, fmt)
        assert "No games yet: there is nothing to rate." in text
        assert "score%" not in text, text
    assert json.loads(render(empty, "json"))["warnings"] == [
        "No games yet: there is nothing to rate."
    ]


def test_one_block_is_singular_and_one_game_has_no_place_error() -> None:
    one = compute_standings([game(["a", "b"], [1, 2])], bootstrap=20)
    table = render(one, "table")
    assert "Only 1 block (fewer than 20)" in " ".join(table.split())
    assert "1.00±–" in table and "2.00±–" in table and "±0.00" not in table
    assert ">1.00±–<" in _standings_table(one)  # the report's table too
    two = compute_standings(
        [game(["a", "b"], [1, 2], id="g0"), game(["b", "a"], [1, 2], id="g1", rotation=1)],
        bootstrap=20,
    )
    assert "1.50±0.50" in render(two, "table") and "±–" not in render(two, "table")


def test_the_crosstable_marks_a_pair_that_never_met_and_leaves_the_diagonal_blank() -> None:
    records = [
        game(["a", "b"], [1, 2], id="g0", block=0),
        game(["b", "c"], [1, 2], id="g1", block=1),
    ]
    table = render(compute_standings(records, bootstrap=0), "table")
    rows = _rows(table, "Crosstable")[3:]  # past the title, the header and its rule
    assert [row.split() for row in rows] == [
        ["1.", "a", "100", "(1)", "-"],  # a never met c; a's own cell is blank
        ["2.", "b", "0", "(1)", "100", "(1)"],
        ["3.", "c", "-", "0", "(1)"],
    ]


def test_the_los_is_left_out_of_the_tables_below_few_blocks() -> None:
    """Over fewer than FEW_BLOCKS blocks the bootstrap's LOS is too sure
    (benchmarks/los_calibration.py): the tables say so instead of showing it."""
    few = compute_standings(simulate_league([1500] * 3, players=2, blocks=12, seed=3), bootstrap=50)
    assert few.los  # computed, and in the JSON
    for fmt in ("table", "markdown"):
        text = " ".join(render(few, fmt).split())
        assert f"Likelihood of superiority not shown: over fewer than {FEW_BLOCKS} blocks" in text
        assert "% of resamples rating the row bot" not in text
    shown = json.loads(render(few, "json"))["los"]  # in %
    assert shown == {
        a: {b: pytest.approx(100 * p) for b, p in row.items()} for a, row in few.los.items()
    }
    many = compute_standings(
        simulate_league([1500] * 3, players=2, blocks=30, seed=3), bootstrap=50
    )
    assert "% of resamples rating the row bot above" in render(many, "table")
