"""The fast way ``arena standings`` reads a results folder (rows checked column by column)
against the full one (a :class:`~arena.record.GameRecord` per line): the same games, the
same warnings for the same lines, the same standings, on a folder with odd lines."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from arena.errors import RecordError
from arena.league import reading
from arena.league.layout import GAMES
from arena.league.reading import checked_games, iter_game_rows, iter_games, read_games
from arena.record import FORMAT, GameRecord, well_formed_rows
from arena.stats.ratings import compute_standings, standings_of_rows
from tests.conftest import ROOT
from tests.ratings_sim import game, simulate_league, with_faults

FORMAT_1 = ROOT / "tests" / "data" / "ratings_space_five.jsonl"


def good_row() -> dict[str, Any]:
    record = with_faults(game(["a", "b", "c"], [2, 1, 3], id="g1"), 1, {"timeout": 2}, "timeout")
    row: dict[str, Any] = json.loads(record.to_json())
    assert row["format"] == FORMAT == 3
    return row | {"think_us": [[5, -1], [3], []], "bot_notes": [[[0, "hi"]], [], []]}


DAMAGED: list[dict[str, Any]] = [
    {"scores": [math.nan, 0, 0]},
    {"scores": [math.inf, 0, 0]},
    {"wall_ms": -math.inf},
    {"ranks": [True, 2, 3]},
    {"ranks": [0, 1, 2]},
    {"moves": [0, -1]},
    {"moves": [0, 1.0]},
    {"notes": [[1], [], []]},
    {"notes": [[], "x", []]},
    {"verdicts": [{"timeout": 1.5}, {}, {}]},
    {"verdicts": [{"timeout": -1}, {}, {}]},
    {"verdicts": [[], {}, {}]},
    {"think_ms": ["1", 0, 0]},
    {"decisions": [1, -1, 0]},
    {"wall_ms": None},
    {"seating": ["a", 2, "c"]},
    {"seating": ["a", "b"]},
    {"players": 2},
    {"players": 3.0},
    {"forfeit": ["gone", None, None]},
    {"forfeit": [[], None, None]},
    {"format": True},
    {"format": 1},
    {"options": []},
    {"seed": "1"},
    {"block": 1.5},
    {"format": 4},
    {"think_us": [[1, -2], [], []]},
    {"think_us": [[1.5], [], []]},
    {"think_us": [[], []]},
    {"think_us": [[], None, []]},
    {"bot_notes": [[[1]], [], []]},
    {"bot_notes": [[[-1, "x"]], [], []]},
    {"bot_notes": [[[1, 2]], [], []]},
    {"bot_notes": [[[1, "x", 2]], [], []]},
    {"bot_notes": [["x"], [], []]},
    {"bot_notes": [[], []]},
]


@pytest.mark.parametrize("change", DAMAGED, ids=lambda change: json.dumps(change))
def test_rows_are_refused_exactly_where_the_record_reader_refuses(change: dict[str, Any]) -> None:
    good = good_row()
    bad = good | change
    assert well_formed_rows([good_row(), good_row(), good_row()])
    with pytest.raises(RecordError):
        GameRecord.from_dict(bad)
    assert not well_formed_rows([good, bad, good])
    assert not well_formed_rows([bad])


def test_format_2_rows_are_taken_without_the_keys_format_3_added() -> None:
    old = {k: v for k, v in good_row().items() if k not in ("think_us", "bot_notes")}
    old["format"] = 2
    record = GameRecord.from_dict(old)
    assert not well_formed_rows([old | {"format": 3}, good_row()])
    rows = [old, good_row()]
    assert well_formed_rows(rows) and rows[0] == record.to_dict()


def test_a_row_without_a_key_is_refused() -> None:
    for key in good_row():
        row = good_row()
        del row[key]
        if key == "format":  # a line without it is a format 1 line, which may lack many keys
            continue
        assert not well_formed_rows([good_row(), row]), key
        with pytest.raises(RecordError, match=f"no '{key}'"):
            GameRecord.from_dict(row)


def odd_folder(folder: Path) -> int:
    """A results folder of new games, format-1 games, forfeits, damaged lines, a repeated
    game and a last line cut short; returns its number of lines."""
    records = simulate_league([1400, 1500, 1600, 1700], players=[2, 3], blocks=30, seed=3)
    records[5] = with_faults(records[5], 0, {"timeout": 3}, "timeout")
    records[40] = with_faults(records[40], 1, {"crash": 1}, "disqualified")
    lines = [record.to_json() for record in records]
    old = FORMAT_1.read_bytes().splitlines(keepends=True)[:12]
    damaged = [
        b"[1,2,3]\n",
        b"not json\n",
        b'{"format": 2}\n',
        json.dumps(good_row() | {"ranks": [True, 2, 3]}).encode() + b"\n",
        records[7].to_json().replace(b'"wall_ms":1.0', b'"wall_ms":"1"'),
    ]
    mixed = lines[:30] + old[:6] + lines[30:45] + damaged + lines[45:] + old[6:]
    mixed += [lines[3], lines[60][:40]]  # a second copy of a game; a line cut short
    (folder / GAMES).write_bytes(b"".join(mixed))
    (folder / "league.toml").write_text('name = "odd"\nengine = "sim"\n')
    return len(mixed)


def test_fast_and_full_readers_agree_on_odd_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = odd_folder(tmp_path)
    monkeypatch.setattr(reading, "_CHUNK_BYTES", 3000)  # a few lines a chunk: clean and not
    read_one_by_one: list[int] = []
    record_of = reading.record_of

    def counted(line: bytes) -> GameRecord | Any:
        read_one_by_one.append(1)
        return record_of(line)

    monkeypatch.setattr(reading, "record_of", counted)
    fast_said: list[str] = []
    batches = list(iter_game_rows(tmp_path, fast_said.append))
    assert 0 < len(read_one_by_one) < lines / 2  # most chunks were taken as parsed

    path = tmp_path / GAMES
    one_by_one = list(checked_games(path))
    records = [entry for _, entry in one_by_one if isinstance(entry, GameRecord)]
    full_said = [
        f"warning: {path} line {n} skipped: {e}" for n, e in one_by_one if e not in records
    ]
    assert fast_said == full_said
    assert len(full_said) == 6  # five damaged lines and the second copy
    assert [GameRecord.from_dict(row) for rows in batches for row in rows] == records
    assert records == read_games(tmp_path) == list(iter_games(tmp_path))
    for model, method in (("bt", "ml"), ("pl", "ml"), ("bt", "online")):
        fast = standings_of_rows(batches, model=model, method=method, bootstrap=50)
        full = compute_standings(records, model=model, method=method, bootstrap=50)
        assert fast == full
    assert fast.rows[0].verdicts or any(row.forfeits for row in fast.rows)
