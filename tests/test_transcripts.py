"""A stored game has its whole transcript (``arena run --transcripts``), whatever stopped the
run; ``arena replay-seat`` refuses a transcript cut short; a rerun counts the stored games
without a complete one.

Real leagues (the toy engine or Space Five, real bot processes), real files.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.league.layout import TRANSCRIPTS
from arena.league.reading import read_games
from arena.league.transcripts import has_complete_transcripts
from tests.conftest import ROOT, processes_with, wait_until

BOT = "python -m bots.random"


def toy_league() -> str:
    bots = "".join(f'[[bots]]\nname = "{name}"\ncmd = "{BOT}"\n' for name in "ab")
    return f'name = "t"\nengine = "toy"\nplayers = 2\nrounds = 1\nseed = 5\n{bots}'


def arena(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def run(tmp_path: Path, *more: str) -> Result:
    config = tmp_path / "league.toml"
    config.write_text(toy_league())
    return arena("run", str(config), "--out", str(tmp_path / "out"), "--no-report", *more)


def incomplete(out: Path) -> list[str]:
    """The stored games of ``out`` without a whole transcript of every seat."""
    return [game.id for game in read_games(out) if not has_complete_transcripts(out, game, ())]


def stored_lines(out: Path) -> int:
    """How many lines ``games.jsonl`` holds now (0 before it is made)."""
    try:
        return (out / "games.jsonl").read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.fixture
def here(toy_engine: str, in_repo: Path) -> Path:
    return in_repo


def test_a_killed_run_leaves_no_stored_game_without_its_transcript(tmp_path: Path) -> None:
    """``kill -9`` the moment a second game's line is in ``games.jsonl`` (the next ones are
    being played beside it): every stored game has its whole transcript, and the run
    resumed finishes without a note."""
    marker = f"m{uuid.uuid4().hex[:8]}"
    config = tmp_path / "sf.toml"
    bots = "".join(f'[[bots]]\nname = "{n}"\ncmd = "{BOT} {marker}"\n' for n in "abc")
    config.write_text(f'name = "sf"\nengine = "space-five"\nplayers = 2\nrounds = 2\n{bots}')
    out = tmp_path / "out"
    args = ["run", str(config), "--out", str(out), "--jobs", "2", "--transcripts", "--no-report"]
    proc = subprocess.Popen([sys.executable, "-m", "arena", *args], cwd=ROOT)
    wait_until(lambda: stored_lines(out) >= 2 or proc.poll() is not None, "a second game", 120)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait(timeout=60) == -signal.SIGKILL
    wait_until(lambda: processes_with(marker) == [], "the bots to end after the kill")
    assert read_games(out)
    assert incomplete(out) == []

    again = subprocess.run(
        [sys.executable, "-m", "arena", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stderr
    assert "transcript" not in again.stderr
    assert len(read_games(out)) == 3 * 2 * 2 and incomplete(out) == []
    assert sorted(path.name for path in (out / TRANSCRIPTS).iterdir()) == sorted(
        game.id for game in read_games(out)
    )


def test_a_transcript_that_cannot_be_written_stores_no_game(tmp_path: Path, here: Path) -> None:
    """The transcript is on disk before the game's line: when it cannot be written (here
    ``transcripts`` is a file), the run stops with one line and stores no game."""
    out = tmp_path / "out"
    out.mkdir()
    (out / TRANSCRIPTS).write_text("not a folder")
    result = run(tmp_path, "--transcripts", "--jobs", "1")
    assert result.exit_code == 2, result.output
    assert f"arena: error: {out / TRANSCRIPTS}: cannot write: " in result.output
    assert "Traceback" not in result.output
    assert read_games(out) == []


def test_a_run_removes_what_a_killed_run_was_writing(tmp_path: Path, here: Path) -> None:
    """A transcript folder a kill left half written beside its place is removed; one of a
    game of that id that was not stored is replaced whole (no seat file of it is kept)."""
    partial = tmp_path / "out" / TRANSCRIPTS / ".partial-x1y2"
    partial.mkdir(parents=True)
    (partial / "seat0.jsonl").write_text('{"dir": "to", "line": "{\\"type\\":\\"hel')
    stale = tmp_path / "out" / TRANSCRIPTS / "t0-b0-r0"
    stale.mkdir()
    (stale / "seat2.jsonl").write_text("")
    assert run(tmp_path, "--transcripts").exit_code == 0
    assert not partial.exists()
    assert sorted(path.name for path in stale.iterdir()) == ["seat0.jsonl", "seat1.jsonl"]
    assert incomplete(tmp_path / "out") == []


def cut_to_half(path: Path) -> int:
    """Cut a transcript file after its first half of lines, as a kill did; how many are kept."""
    lines = path.read_text().splitlines(keepends=True)
    kept = len(lines) // 2
    path.write_text("".join(lines[:kept]))
    return kept


def test_replay_seat_refuses_a_transcript_cut_short(tmp_path: Path, here: Path) -> None:
    assert run(tmp_path, "--transcripts").exit_code == 0
    out = tmp_path / "out"
    path = out / TRANSCRIPTS / "t0-b0-r0" / "seat0.jsonl"
    assert cut_to_half(path) >= 3  # hello, ready, start: every line kept is whole
    refused = arena("replay-seat", str(out), "t0-b0-r0", "0", "--bot", BOT)
    assert refused.exit_code == 2, refused.output
    assert refused.output == (
        f"arena: error: {path}: cut short: it ends before the stored game does (the seat "
        "played to the end, but the transcript has no 'end' message); this transcript "
        "cannot be replayed\n"
    )
    whole = arena("replay-seat", str(out), "t0-b0-r0", "1", "--bot", BOT)
    assert whole.exit_code == 0, whole.output


def test_a_rerun_counts_the_games_without_a_complete_transcript(tmp_path: Path, here: Path) -> None:
    """A transcript cut short, a game folder without one seat's file, an empty one: each is
    a stored game without a complete transcript, as much as a game with no folder."""
    assert run(tmp_path).exit_code == 0  # without --transcripts: none has one
    unrecorded = run(tmp_path, "--transcripts")
    assert unrecorded.exit_code == 0, unrecorded.output
    assert (
        "arena: 2 stored games have no complete transcript and will not be played again "
        "(played without --transcripts, or the transcript was cut short when an earlier "
        "version of arena was killed): use --fresh or --replay-bot NAME to play them again\n"
    ) in unrecorded.output

    assert run(tmp_path, "--transcripts", "--fresh").exit_code == 0
    transcripts = tmp_path / "out" / TRANSCRIPTS
    assert not run(tmp_path, "--transcripts").output.count("transcript")
    cut_to_half(transcripts / "t0-b0-r0" / "seat1.jsonl")
    (transcripts / "t0-b0-r1" / "seat0.jsonl").unlink()
    cut = run(tmp_path, "--transcripts")
    assert "arena: 2 stored games have no complete transcript" in cut.output, cut.output
    for seat in transcripts.glob("t0-b0-r1/*"):
        seat.unlink()
    (transcripts / "t0-b0-r0" / "seat1.jsonl").unlink()
    emptied = run(tmp_path, "--transcripts")
    assert "arena: 2 stored games have no complete transcript" in emptied.output
