"""The games.jsonl line as a type: round trip, old lines, lines that are not games, and
disqualification read from the record (never from a bot's words)."""

from __future__ import annotations

import dataclasses
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
import trio
from click.testing import CliRunner

from arena import config
from arena.cli import main
from arena.config import Limits, Policy
from arena.errors import BotCrash, RecordError
from arena.game.referee import play_game
from arena.game.seats import FunctionSeat
from arena.game.spec import GameSpec
from arena.league.layout import GAMES
from arena.league.reading import read_games, scan_games
from arena.league.runner import run_league
from arena.record import FORMAT, NOT_ASKED, GameRecord, well_formed_rows
from arena.sdk import GameInfo
from tests.conftest import ROOT, processes_with

REAL_GAMES = ROOT / "tests" / "data" / "ratings_space_five.jsonl"


def crash_late(observation: dict[str, Any], legal: list[dict[str, Any]], game: GameInfo) -> int:
    if game.step >= 3:
        raise BotCrash("gone")
    return 0


def a_game(toy_engine: str) -> GameRecord:
    import engines

    seats = [FunctionSeat("x", crash_late), FunctionSeat("y", lambda o, legal, g: 0)]
    spec = GameSpec("t0-b1-r1", 0, 1, 1, 77, ("x", "y"))
    engine = engines.get(toy_engine)
    return trio.run(lambda: play_game(engine, {"pile": 9}, spec, seats, Limits(), Policy()))


def test_round_trip_keeps_every_field(toy_engine: str) -> None:
    record = a_game(toy_engine)
    assert record.seats[0].forfeit == "crash" and record.seats[1].forfeit is None
    line = record.to_json()
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line)["format"] == FORMAT
    assert json.loads(line)["forfeit"] == ["crash", None]
    assert GameRecord.from_json(line) == record
    assert GameRecord.from_json(line.decode()).to_json() == line


def test_format_1_lines_still_load() -> None:
    first = REAL_GAMES.read_text().splitlines()[0]
    assert "format" not in json.loads(first) and "moves" not in json.loads(first)
    record = GameRecord.from_json(first)
    assert record.seating == ("greedy-a", "greedy-b") and record.ranks == (2, 1)
    assert record.moves == () and record.seats[0].decisions == 69
    old = json.loads(first) | {"verdicts": [{"timeout": 2, "crash": 1}, {}]}
    old["forfeit"] = [True, False]
    seats = GameRecord.from_json(json.dumps(old)).seats
    assert (seats[0].forfeit, seats[1].forfeit) == ("crash", None)  # its last new verdict


def _line(**changes: Any) -> str:
    data = json.loads(REAL_GAMES.read_text().splitlines()[0]) | {"format": 2, "moves": []}
    data["forfeit"] = [None, None]
    data.update(changes)
    return json.dumps({k: v for k, v in data.items() if v is not ...})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[1,2,3]", "expected a JSON object"),
        ("{}", "no 'seating'"),
        ("null", "expected a JSON object"),
        ('"game"', "expected a JSON object"),
        ("{not json", "not JSON"),
        ("", "not JSON"),
        (_line(seating="ab"), "'seating': expected a list"),
        (_line(ranks=["1", "2"]), "'ranks': expected an integer"),
        (_line(ranks=[1, 0]), "'ranks': expected a rank"),
        (_line(scores=[1.0]), "'scores' has 1 entries for 2 seats"),
        (_line(players=3), "'players' is 3"),
        (_line(forfeit=[True, None]), "'forfeit': expected null or one of"),
        (_line(forfeit=["tired", None]), "'forfeit': expected null or one of"),
        (_line(format=7), "unknown record format 7"),
        (_line(moves=...), "no 'moves'"),  # format 2 lines carry every key
        (_line(seed=1.5), "'seed': expected an integer"),
        (_line(verdicts=[{"timeout": -1}, {}]), "'verdicts': expected a count"),
    ],
)
def test_a_line_that_is_not_a_game_is_one_clear_error(line: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(line)


def test_a_line_and_a_column_of_lines_are_refused_alike(toy_engine: str) -> None:
    record = a_game(toy_engine)
    good = json.loads(record.to_json())
    assert GameRecord.from_dict(good) == record and well_formed_rows(
        [good, json.loads(record.to_json())]
    )
    damaged = [
        {"scores": [float("nan"), 0]},
        {"ranks": [True, 2]},
        {"moves": [0, -1]},
        {"moves": [0, 1.0]},
        {"notes": [[1], []]},
        {"verdicts": [{"timeout": 1.5}, {}]},
        {"think_ms": ["1", 0]},
        {"wall_ms": None},
        {"seating": ["a", 2]},
        {"format": True},
        {"format": 3.0},
        {"think_us": [[1.5], []]},
        {"think_us": [[-2], []]},
        {"think_us": [[]]},
        {"bot_notes": [[[0]], []]},
        {"bot_notes": [[["0", "x"]], []]},
        {"bot_notes": [[[-1, "x"]], []]},
    ]
    for change in damaged:
        line = good | change
        assert not well_formed_rows([json.loads(record.to_json()), line]), change
        with pytest.raises(RecordError):
            GameRecord.from_dict(line)


def test_format_2_lines_load_without_turns_or_notes(toy_engine: str) -> None:
    record = a_game(toy_engine)
    assert record.seats[1].think_us and record.seats[0].think_us[-1] == NOT_ASKED
    line = json.loads(record.to_json())
    old = {k: v for k, v in line.items() if k not in ("think_us", "bot_notes")} | {"format": 2}
    seats = tuple(dataclasses.replace(seat, think_us=(), bot_notes=()) for seat in record.seats)
    expected = dataclasses.replace(record, seats=seats)
    assert GameRecord.from_dict(old) == expected and old["format"] == 2  # left as it was
    with pytest.raises(RecordError, match="no 'think_us'"):
        GameRecord.from_dict(old | {"format": FORMAT})
    assert not well_formed_rows([old | {"format": FORMAT}])
    rows = [dict(old)]
    assert well_formed_rows(rows) and rows == [expected.to_dict()]  # upgraded in place


def test_reader_numbers_bad_lines_and_keeps_the_rest(tmp_path: Path, toy_engine: str) -> None:
    good = a_game(toy_engine).to_json()
    (tmp_path / GAMES).write_bytes(good + b"[1,2,3]\n" + good + b"null\n" + good[:30])
    entries = list(scan_games(tmp_path / GAMES))
    assert [n for n, _ in entries] == [1, 2, 3, 4]  # the cut-off last line is not a line yet
    assert [isinstance(e, RecordError) for _, e in entries] == [False, True, False, True]
    warnings: list[str] = []
    assert len(read_games(tmp_path, warnings.append)) == 1  # line 3 repeats line 1's game
    assert len(warnings) == 3 and "line 2 skipped" in warnings[0] and "line 4" in warnings[2]
    assert "line 3 skipped: a second copy of game" in warnings[1]


def league_text(marker: str) -> str:
    bots = {
        "a": "python -m bots.random",
        "noisy": f"python {ROOT / 'tests' / 'hostile' / 'says_disqualified.py'}",
        "dead": "python -c pass",
    }
    return (
        'name = "dq"\nengine = "toy"\nplayers = 2\nseed = 4\n[limits]\nmax_start_failures = 2\n'
        + ("".join(f'[[bots]]\nname = "{n}"\ncmd = "{cmd} {marker}"\n' for n, cmd in bots.items()))
    )


def test_standings_read_disqualification_from_the_record_not_from_notes(
    tmp_path: Path, toy_engine: str, in_repo: Path
) -> None:
    marker = f"m{uuid.uuid4().hex[:8]}"
    (tmp_path / "dq.toml").write_text(league_text(marker))
    league = config.load(tmp_path / "dq.toml")
    out = tmp_path / "out"
    outcome = trio.run(lambda: run_league(league, out, jobs=2))
    assert set(outcome.disqualified) == {"dead"}
    records = read_games(out)
    noisy = [r.seats[r.seating.index("noisy")] for r in records if "noisy" in r.seating]
    assert all(s.forfeit == "protocol" for s in noisy)
    assert any("disqualified" in note for s in noisy for note in s.notes)  # its own words
    dead = [r.seats[r.seating.index("dead")] for r in records if "dead" in r.seating]
    assert [s.forfeit for s in dead].count("disqualified") == 2  # after 2 failed starts
    assert processes_with(marker) == []

    with (out / GAMES).open("ab") as games:
        games.write(b"[1,2,3]\n")
    said: list[str] = []
    again = trio.run(lambda: run_league(league, out, jobs=2, say=said.append))
    assert again.played == 0 and again.skipped == again.scheduled
    assert any("line 7: not a game record" in line for line in said), said

    result = CliRunner().invoke(main, ["standings", str(out)])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "skipped" not in result.output  # the run moved the line to games.damaged.jsonl
    assert (out / "games.damaged.jsonl").read_bytes() == b"[1,2,3]\n"
    assert "DISQUALIFIED (failed to start): dead." in result.output
    assert "noisy" not in result.output.split("DISQUALIFIED")[1].splitlines()[0]
