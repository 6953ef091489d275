"""``iter_game_batches`` with the second half of ``games.jsonl`` read by a forked copy: the
same batches of games and the same warnings, in the same order, as one reader, whatever the
second half holds (damaged lines, old formats, a game of the first half again), and when the
copy fails; and ``arena standings`` prints the same either way."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena import forked
from arena.cli import main
from arena.league import reading
from arena.league.layout import GAMES
from arena.league.reading import iter_game_batches, iter_game_rows
from arena.record import GameRow
from tests.conftest import allow_copies
from tests.ratings_sim import simulate_league, with_faults
from tests.test_standings_reader import odd_folder

pytestmark = pytest.mark.skipif(not forked._CAN_FORK, reason="the copy is forked on Linux only")


@pytest.fixture
def split(monkeypatch: pytest.MonkeyPatch, forked_pids: list[int]) -> list[int]:
    """Every file split, small chunks; the list collects the forked pids."""
    monkeypatch.setattr(reading, "SPLIT_MIN_BYTES", 1)
    monkeypatch.setattr(reading, "_CHUNK_BYTES", 3000)
    allow_copies(monkeypatch)
    return forked_pids


def clean_folder(folder: Path) -> list[bytes]:
    records = simulate_league([1400, 1500, 1600, 1700, 1800], players=[2, 3, 4], blocks=60, seed=4)
    records[9] = with_faults(records[9], 0, {"timeout": 3}, "timeout")
    lines = [record.to_json() for record in records]
    (folder / GAMES).write_bytes(b"".join(lines))
    (folder / "league.toml").write_text('name = "split"\nengine = "sim"\n')
    return lines


def _prepared(rows: list[GameRow]) -> tuple[int, list[GameRow]]:
    """What the test's ``prepare`` makes of a batch: where it was prepared, and the rows."""
    return os.getpid(), rows


def _read(folder: Path) -> tuple[list[GameRow], list[str], set[int]]:
    """The rows of a split read, its warnings, and the processes that prepared them."""
    said: list[str] = []
    batches = list(iter_game_batches(folder, said.append, _prepared))
    rows = [row for _, batch in batches for row in batch]
    return rows, said, {pid for pid, _ in batches}


def _one_reader(folder: Path) -> tuple[list[GameRow], list[str]]:
    said: list[str] = []
    return [row for batch in iter_game_rows(folder, said.append) for row in batch], said


def test_a_clean_second_half_is_read_by_the_copy(tmp_path: Path, split: list[int]) -> None:
    lines = clean_folder(tmp_path)
    rows, said, where = _read(tmp_path)
    assert (rows, said) == _one_reader(tmp_path)
    assert len(rows) == len(lines) and said == []
    assert where == {os.getpid(), split[0]}  # each process prepared its half


@pytest.mark.parametrize(
    "second_half",
    [
        pytest.param(lambda lines: [b"not json\n"], id="damaged"),
        pytest.param(lambda lines: [lines[2]], id="a first-half game again"),
        pytest.param(lambda lines: [lines[-1]], id="a second-half game again"),
        pytest.param(lambda lines: [b'{"format": 2}\n', lines[-3][:30]], id="cut short"),
    ],
)
def test_a_second_half_that_is_not_clean_is_read_here(
    tmp_path: Path, split: list[int], second_half: Any
) -> None:
    lines = clean_folder(tmp_path)
    odd = second_half(lines)
    at = len(lines) * 3 // 4
    (tmp_path / GAMES).write_bytes(b"".join(lines[:at] + odd + lines[at:]))
    rows, said, where = _read(tmp_path)
    assert (rows, said) == _one_reader(tmp_path)
    assert said  # a line of the second half, not a new game
    assert int(said[0].removeprefix(f"warning: {tmp_path / GAMES} line ").split()[0]) > at
    assert where == {os.getpid()}
    assert len(split) == 1


def test_odd_lines_everywhere(tmp_path: Path, split: list[int]) -> None:
    odd_folder(tmp_path)
    rows, said, _ = _read(tmp_path)
    assert (rows, said) == _one_reader(tmp_path)
    assert len(said) == 6


def test_a_failing_copy_is_replaced_by_reading_here(
    tmp_path: Path, split: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    clean_folder(tmp_path)
    parent = os.getpid()

    def prepared(rows: list[GameRow]) -> tuple[int, list[GameRow]]:
        if os.getpid() != parent:
            raise MemoryError
        return _prepared(rows)

    said: list[str] = []
    batches = list(iter_game_batches(tmp_path, said.append, prepared))
    assert ([row for _, batch in batches for row in batch], said) == _one_reader(tmp_path)
    assert len(split) == 1


def test_small_files_and_one_core_fork_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clean_folder(tmp_path)

    def no_fork() -> int:
        raise AssertionError("forked")

    monkeypatch.setattr(os, "fork", no_fork)
    monkeypatch.setattr(forked, "cores", lambda: 2)
    assert (tmp_path / GAMES).stat().st_size < reading.SPLIT_MIN_BYTES
    assert _read(tmp_path)[:2] == (*_one_reader(tmp_path),)
    monkeypatch.setattr(reading, "SPLIT_MIN_BYTES", 1)
    monkeypatch.setattr(forked, "cores", lambda: 1)
    assert _read(tmp_path)[:2] == (*_one_reader(tmp_path),)


@pytest.mark.parametrize("damaged", [False, True])
@pytest.mark.parametrize("args", [["--model", "bt"], ["--model", "pl"], ["--method", "online"]])
def test_standings_are_the_same_read_in_two_halves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], damaged: bool
) -> None:
    lines = clean_folder(tmp_path)
    if damaged:
        (tmp_path / GAMES).write_bytes(b"".join([*lines, b"not json\n", *lines[-40:]]))
    command = ["standings", str(tmp_path), "--format", "json", *args]
    one = CliRunner().invoke(main, command)
    monkeypatch.setattr(reading, "SPLIT_MIN_BYTES", 1)
    allow_copies(monkeypatch)
    two = CliRunner().invoke(main, command)
    assert one.exit_code == two.exit_code == 0
    assert one.output == two.output
    assert ("a second copy of game" in two.output) == damaged


def test_a_file_replaced_under_the_copy_is_read_here(
    tmp_path: Path, split: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    clean_folder(tmp_path)
    parent, fstat = os.getpid(), os.fstat

    def other_inode_here(fd: int) -> os.stat_result:
        """The caller's file seen as another inode than the one the copy opens."""
        stat = fstat(fd)
        if os.getpid() != parent:
            return stat
        fields = list(stat[:10])
        fields[1] += 1
        return os.stat_result(fields)

    monkeypatch.setattr(os, "fstat", other_inode_here)
    rows, said, where = _read(tmp_path)
    assert (rows, said) == _one_reader(tmp_path)
    assert where == {parent}
    assert len(split) == 1
